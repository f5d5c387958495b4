/* acl.h — users and their permissions (Redis 7.0's acl.c): the user model
 * with its selectors, ACL SETUSER's rules, authentication (AUTH, HELLO's
 * AUTH option), the permission checks processCommand, EXEC and scripts run
 * (commands, first arguments, keys, channels), the ACL LOG, the `user`
 * directives and the ACL file, and the ACL command.
 * Invariants:
 *  - The users table (acl.cpp) owns every user; a client holds a plain
 *    `user *`, reset to the default user and scheduled to close before its
 *    user is freed (ACL DELUSER, ACL LOAD).
 *  - DefaultUser is never freed while the server runs: ACL LOAD copies the
 *    new rules into it.
 */
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct client;
struct redisCommand;

/* user::flags (Redis's USER_FLAG_*). */
constexpr uint32_t USER_FLAG_ENABLED = 1 << 0;
constexpr uint32_t USER_FLAG_DISABLED = 1 << 1;
constexpr uint32_t USER_FLAG_NOPASS = 1 << 2;
constexpr uint32_t USER_FLAG_SANITIZE_PAYLOAD = 1 << 3;
constexpr uint32_t USER_FLAG_SANITIZE_PAYLOAD_SKIP = 1 << 4;

/* aclSelector::flags (SELECTOR_FLAG_*). */
constexpr uint32_t SELECTOR_FLAG_ROOT = 1 << 0;        /* the user's own rules, outside any (...) */
constexpr uint32_t SELECTOR_FLAG_ALLKEYS = 1 << 1;     /* ~* or allkeys: no key is checked */
constexpr uint32_t SELECTOR_FLAG_ALLCOMMANDS = 1 << 2; /* +@all: no command bit is checked */
constexpr uint32_t SELECTOR_FLAG_ALLCHANNELS = 1 << 3; /* &*: no channel is checked */

/* keyPattern::flags: what %R~ / %W~ / ~ grant. */
constexpr int ACL_READ_PERMISSION = 1 << 0;
constexpr int ACL_WRITE_PERMISSION = 1 << 1;
constexpr int ACL_ALL_PERMISSION = ACL_READ_PERMISSION | ACL_WRITE_PERMISSION;

/* The command bitmap's size. Its last bit is never a command's: +@all sets
 * it, so that the rules can tell "+@all minus some" from "some". */
constexpr unsigned long USER_COMMAND_BITS_COUNT = 1024;

/* What a permission check says (ACL_OK or the reason of the denial). The
 * order matters: a denial of a later kind is the one reported. */
constexpr int ACL_OK = 0, ACL_DENIED_CMD = 1, ACL_DENIED_KEY = 2, ACL_DENIED_AUTH = 3, ACL_DENIED_CHANNEL = 4;
/* Where an ACL LOG entry happened. */
constexpr int ACL_LOG_CTX_TOPLEVEL = 0, ACL_LOG_CTX_LUA = 1, ACL_LOG_CTX_MULTI = 2;

struct keyPattern {
    int flags; /* ACL_*_PERMISSION */
    std::string pattern;
};

/* One set of permissions: the root selector (the user's own rules) or a
 * `(...)` selector. A command is allowed if any selector allows it whole. */
struct aclSelector {
    uint32_t flags = 0;
    uint64_t allowed_commands[USER_COMMAND_BITS_COUNT / 64] = {};
    /* +select|0: for a command whose bit is clear, the first arguments
     * that still allow it, by command id. Empty for most users. */
    std::map<unsigned long, std::vector<std::string>> allowed_firstargs;
    std::vector<keyPattern> patterns; /* unless SELECTOR_FLAG_ALLKEYS */
    std::vector<std::string> channels; /* unless SELECTOR_FLAG_ALLCHANNELS */
};

struct user {
    std::string name;
    uint32_t flags = USER_FLAG_DISABLED;
    std::vector<std::string> passwords;  /* SHA-256 hex digests */
    std::vector<aclSelector> selectors;  /* [0] is the root selector */
    std::optional<std::string> acl_string; /* ACLDescribeUser's text, until a rule changes */
};

/* The user every new connection starts as. */
extern user *DefaultUser;

/* Creates the default user and an empty log; start-up runs it before the
 * configuration is read (the `user` lines need it), tests before each. */
void ACLInit();
/* After the configuration: the `user` lines, or the aclfile. Exits the
 * process on an error, as Redis does at start-up. */
void ACLLoadUsersAtStartup();

/* A `user` line of redis.conf: checked now, applied at ACLLoadUsersAtStartup.
 * On error returns false with Redis's message. */
bool ACLAppendUserForLoading(std::span<const std::string> argv, std::string &err);
/* CONFIG REWRITE's `user` lines (none when the users live in an aclfile).
 * The `user` directive is these two (registerConfigDirective, config.h). */
std::vector<std::string> rewriteConfigUserOption();
/* `requirepass`: "" makes the default user nopass. */
void ACLUpdateDefaultUserPassword(std::string_view password);

std::string ACLHashPassword(std::string_view cleartext);
user *ACLGetUserByName(std::string_view name);
/* ACL SETUSER's whole list of rules, all or nothing; the error text or "". */
std::string ACLStringSetUser(user *u, std::string_view username, std::span<const std::string_view> rules);
/* The rules as ACL LIST shows them (without "user <name> "). */
const std::string &ACLDescribeUser(user *u);
std::string ACLDescribeSelectorCommandRules(const aclSelector &s);

/* Checks: ACL_OK or ACL_DENIED_*, with *idxptr the argument (key or
 * channel) denied. argv[0] is the command name. */
int ACLCheckAllUserCommandPerm(const user *u, const redisCommand *cmd, std::span<const std::string_view> argv,
                               int *idxptr);
int ACLCheckAllPerm(client *c, int *idxptr);
/* Whether one of u's selectors allows cmd with argv and grants `flags`
 * (CMD_KEY_*) on every key: SORT's BY and GET patterns may name any key. */
bool ACLUserCheckCmdWithUnrestrictedKeyAccess(const user *u, const redisCommand *cmd,
                                              std::span<const std::string_view> argv, int flags);
/* Whether the client must AUTH before anything but CMD_NO_AUTH commands. */
bool authRequired(const client *c);
/* The ACL LOG entry of a denial (argpos: the key or channel denied). */
void addACLLogEntry(client *c, int reason, int context, int argpos, std::string_view username = {},
                    std::optional<std::string> object = std::nullopt);
/* "can't run this command or subcommand" ...: what a script is told. */
const char *getAclErrorMessage(int acl_res);
size_t ACLLogLength();

/* What networking needs of users (registerACLNetworkingHooks,
 * networking.h), with ACLGetUserByName and authRequired above. */
/* The default user, authenticated if it needs no password (new clients, RESET). */
void clientSetDefaultAuth(client *c);
bool ACLDefaultUserIsNopass();
const std::string &ACLUserName(const user *u);
/* HELLO's AUTH: true if authenticated, else the denial logged (ACL LOG). */
bool ACLAuthenticateUser(client *c, std::string_view username, std::string_view password);

/* AUTH and ACL (the command table is in commands.cpp). */
void authCommand(client *c);
void aclCommand(client *c);
