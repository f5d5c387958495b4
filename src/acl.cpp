/* acl.cpp — Redis 7.0's acl.c: users, ACL SETUSER's rules, AUTH, the
 * permission checks, the ACL LOG, the ACL file, and the ACL command.
 *
 * A user's permissions are selectors: the root selector (its own rules)
 * and any number of `(...)` selectors; a command runs if one selector
 * allows the command (its bit, or an allowed first argument), every key it
 * names (by the key specs, with the read/write access each key spec
 * declares) and every channel it publishes or subscribes to. The default
 * user's selector has the ALL* flags, so its checks test three flags and
 * nothing else.
 */
#include "acl.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <list>
#include <memory>

#include "config.h"
#include "db.h"
#include "commands/keyspecs.h"
#include "log.h"
#include "networking.h"
#include "object.h"
#include "pubsub.h"
#include "scripting.h"
#include "server.h"
#include "sha256.h"
#include "util.h"

user *DefaultUser = nullptr;

namespace {

/* Every user, by name, in byte order (ACL LIST's order, as Redis's rax). */
std::map<std::string, std::unique_ptr<user>, std::less<>> Users;
/* The `user` lines of the configuration, checked, applied at start-up. */
std::vector<std::vector<std::string>> UsersToLoad;

constexpr size_t HASH_PASSWORD_LEN = SHA256_BLOCK_SIZE * 2;

std::string formatString(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string formatString(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return std::string(buf, std::min<size_t>(static_cast<size_t>(std::max(n, 0)), sizeof(buf) - 1));
}

/* ACLSetUser's failures, named after the errno values Redis uses for them. */
enum aclSetError { ACL_SET_OK = 0, ACL_SET_EINVAL, ACL_SET_ENOENT, ACL_SET_EEXIST, ACL_SET_EISDIR, ACL_SET_ENODEV,
                   ACL_SET_EBADMSG, ACL_SET_EALREADY, ACL_SET_ECHILD };

const char *ACLSetUserStringError(int err) {
    switch (err) {
    case ACL_SET_ENOENT: return "Unknown command or category name in ACL";
    case ACL_SET_EINVAL: return "Syntax error";
    case ACL_SET_EEXIST:
        return "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any "
               "effect. Try 'resetkeys' to start with an empty list of patterns";
    case ACL_SET_EISDIR:
        return "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any "
               "effect. Try 'resetchannels' to start with an empty list of channels";
    case ACL_SET_ENODEV: return "The password you are trying to remove from the user does not exist";
    case ACL_SET_EBADMSG:
        return "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters";
    case ACL_SET_EALREADY: return "Duplicate user found. A user can only be defined once in config files";
    case ACL_SET_ECHILD: return "Allowing first-arg of a subcommand is not supported";
    default: return "Wrong format";
    }
}

/* The user flags as ACL LIST and GETUSER print them, in this order. */
constexpr std::pair<const char *, uint32_t> ACLUserFlags[] = {
    {"on", USER_FLAG_ENABLED},
    {"off", USER_FLAG_DISABLED},
    {"nopass", USER_FLAG_NOPASS},
    {"skip-sanitize-payload", USER_FLAG_SANITIZE_PAYLOAD_SKIP},
    {"sanitize-payload", USER_FLAG_SANITIZE_PAYLOAD},
};

constexpr size_t ACL_CATEGORY_COUNT = std::size(ACL_CATEGORY_NAMES);

uint64_t ACLGetCommandCategoryFlagByName(std::string_view name) {
    for (size_t j = 0; j < ACL_CATEGORY_COUNT; j++)
        if (strEqualNoCase(name, ACL_CATEGORY_NAMES[j])) return 1ULL << j;
    return 0;
}

bool ACLStringHasSpaces(std::string_view s) {
    for (char ch : s)
        if (isspace(static_cast<unsigned char>(ch)) || ch == 0) return true;
    return false;
}

bool ACLCheckPasswordHash(std::string_view hash) {
    if (hash.size() != HASH_PASSWORD_LEN) return false;
    for (char ch : hash)
        if ((ch < 'a' || ch > 'f') && (ch < '0' || ch > '9')) return false;
    return true;
}

/* Compares in a time that does not depend on where the strings differ. */
bool timeIndependentEqual(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (size_t j = 0; j < a.size(); j++) diff |= static_cast<unsigned char>(a[j] ^ b[j]);
    return diff == 0;
}

/* Every command of the table, subcommands after their container, in the
 * table's order: what categories and the describing of rules walk. */
template <typename F>
void forEachCommand(F &&f) {
    if (!server.command_table) return;
    for (redisCommand &cmd : *server.command_table) {
        f(cmd);
        for (redisCommand &sub : cmd.subcommands) f(sub);
    }
}

/* ------------------------------------------------------------------------
 * Selectors
 * ---------------------------------------------------------------------- */

aclSelector ACLCreateSelector(uint32_t flags) {
    aclSelector s;
    s.flags = flags | static_cast<uint32_t>(server.acl_pubsub_default);
    return s;
}

bool ACLGetSelectorCommandBit(const aclSelector &s, unsigned long id) {
    if (id >= USER_COMMAND_BITS_COUNT) return false;
    return s.allowed_commands[id / 64] & (1ULL << (id % 64));
}

bool ACLSelectorCanExecuteFutureCommands(const aclSelector &s) {
    return ACLGetSelectorCommandBit(s, USER_COMMAND_BITS_COUNT - 1);
}

/* Clearing a bit clears ALLCOMMANDS: the bitmap must be tested again. */
void ACLSetSelectorCommandBit(aclSelector &s, unsigned long id, bool value) {
    if (id >= USER_COMMAND_BITS_COUNT) return;
    uint64_t bit = 1ULL << (id % 64);
    if (value) {
        s.allowed_commands[id / 64] |= bit;
    } else {
        s.allowed_commands[id / 64] &= ~bit;
        s.flags &= ~SELECTOR_FLAG_ALLCOMMANDS;
    }
}

/* Allowing or blocking a container applies to its subcommands too. */
void ACLChangeSelectorPerm(aclSelector &s, const redisCommand &cmd, bool allow) {
    ACLSetSelectorCommandBit(s, cmd.id, allow);
    s.allowed_firstargs.erase(cmd.id);
    for (const redisCommand &sub : cmd.subcommands) ACLSetSelectorCommandBit(s, sub.id, allow);
}

bool ACLSetSelectorCommandBitsForCategory(aclSelector &s, std::string_view category, bool value) {
    uint64_t cflag = ACLGetCommandCategoryFlagByName(category);
    if (!cflag) return false;
    forEachCommand([&](const redisCommand &cmd) {
        if (cmd.acl_categories & cflag) ACLChangeSelectorPerm(s, cmd, value);
    });
    return true;
}

void ACLCountCategoryBits(const aclSelector &s, uint64_t cflag, unsigned long *on, unsigned long *off) {
    *on = *off = 0;
    forEachCommand([&](const redisCommand &cmd) {
        if (cmd.acl_categories & cflag) (ACLGetSelectorCommandBit(s, cmd.id) ? *on : *off)++;
    });
}

void ACLAddAllowedFirstArg(aclSelector &s, unsigned long id, std::string_view sub) {
    std::vector<std::string> &args = s.allowed_firstargs[id];
    for (const std::string &a : args)
        if (strEqualNoCase(a, sub)) return;
    args.emplace_back(sub);
}

int ACLSetSelector(aclSelector &s, std::string_view op);

/* `(rule rule ...)`: a new selector with those rules. */
int aclCreateSelectorFromOpSet(std::string_view opset, aclSelector &out) {
    out = ACLCreateSelector(0);
    std::vector<std::string> rules;
    splitArgs(opset.substr(1, opset.size() - 2), rules);
    for (const std::string &rule : rules)
        if (int err = ACLSetSelector(out, rule)) return err;
    return ACL_SET_OK;
}

/* +cmd|first-arg: a subcommand if the command has them, otherwise (as
 * +select|0) a first argument that allows an otherwise blocked command. */
int ACLSetSelectorCommandWithArg(aclSelector &s, std::string_view name) {
    size_t bar = name.rfind('|');
    redisCommand *cmd = lookupCommandBySdsFullname(name.substr(0, bar));
    if (!cmd) return ACL_SET_ENOENT;
    if (cmd->parent) return ACL_SET_ECHILD;
    std::string_view sub = name.substr(bar + 1);
    if (sub.empty()) return ACL_SET_EINVAL;
    if (!cmd->subcommands.empty()) {
        redisCommand *subcmd = lookupCommandBySdsFullname(name);
        if (!subcmd) return ACL_SET_ENOENT;
        ACLChangeSelectorPerm(s, *subcmd, true);
        return ACL_SET_OK;
    }
    serverLog(LL_WARNING,
              "Deprecation warning: Allowing a first arg of an otherwise blocked command is a misuse of ACL and may "
              "get disabled in the future (offender: +%.*s)",
              static_cast<int>(name.size()), name.data());
    ACLAddAllowedFirstArg(s, cmd->id, sub);
    return ACL_SET_OK;
}

/* ~pattern, %R~pattern, %W~pattern, %RW~pattern. */
int ACLSetSelectorKeyPattern(aclSelector &s, std::string_view op) {
    if (s.flags & SELECTOR_FLAG_ALLKEYS) return ACL_SET_EEXIST;
    int flags = 0;
    size_t offset = 1;
    if (op[0] == '%') {
        for (; offset < op.size(); offset++) {
            char ch = static_cast<char>(toupper(static_cast<unsigned char>(op[offset])));
            if (ch == 'R' && !(flags & ACL_READ_PERMISSION)) {
                flags |= ACL_READ_PERMISSION;
            } else if (ch == 'W' && !(flags & ACL_WRITE_PERMISSION)) {
                flags |= ACL_WRITE_PERMISSION;
            } else if (op[offset] == '~') {
                offset++;
                break;
            } else {
                return ACL_SET_EINVAL;
            }
        }
        if (!flags) return ACL_SET_EINVAL; /* "%~x": the real 7.0.15 server refuses it */
    } else {
        flags = ACL_ALL_PERMISSION;
    }
    std::string_view pattern = op.substr(std::min(offset, op.size()));
    if (ACLStringHasSpaces(pattern)) return ACL_SET_EINVAL;
    auto it = std::find_if(s.patterns.begin(), s.patterns.end(),
                           [&](const keyPattern &p) { return p.pattern == pattern; });
    if (it == s.patterns.end()) s.patterns.push_back({flags, std::string(pattern)});
    else it->flags |= flags;
    s.flags &= ~SELECTOR_FLAG_ALLKEYS;
    return ACL_SET_OK;
}

int ACLSetSelectorChannelPattern(aclSelector &s, std::string_view op) {
    if (s.flags & SELECTOR_FLAG_ALLCHANNELS) return ACL_SET_EISDIR;
    std::string_view pattern = op.substr(1);
    if (ACLStringHasSpaces(pattern)) return ACL_SET_EINVAL;
    if (std::find(s.channels.begin(), s.channels.end(), pattern) == s.channels.end())
        s.channels.emplace_back(pattern);
    s.flags &= ~SELECTOR_FLAG_ALLCHANNELS;
    return ACL_SET_OK;
}

/* One rule about commands, keys or channels (Redis's ACLSetSelector). */
int ACLSetSelector(aclSelector &s, std::string_view op) {
    if (strEqualNoCase(op, "allkeys") || op == "~*") {
        s.flags |= SELECTOR_FLAG_ALLKEYS;
        s.patterns.clear();
    } else if (strEqualNoCase(op, "resetkeys")) {
        s.flags &= ~SELECTOR_FLAG_ALLKEYS;
        s.patterns.clear();
    } else if (strEqualNoCase(op, "allchannels") || op == "&*") {
        s.flags |= SELECTOR_FLAG_ALLCHANNELS;
        s.channels.clear();
    } else if (strEqualNoCase(op, "resetchannels")) {
        s.flags &= ~SELECTOR_FLAG_ALLCHANNELS;
        s.channels.clear();
    } else if (strEqualNoCase(op, "allcommands") || strEqualNoCase(op, "+@all")) {
        memset(s.allowed_commands, 0xff, sizeof(s.allowed_commands));
        s.flags |= SELECTOR_FLAG_ALLCOMMANDS;
        s.allowed_firstargs.clear();
    } else if (strEqualNoCase(op, "nocommands") || strEqualNoCase(op, "-@all")) {
        memset(s.allowed_commands, 0, sizeof(s.allowed_commands));
        s.flags &= ~SELECTOR_FLAG_ALLCOMMANDS;
        s.allowed_firstargs.clear();
    } else if (op[0] == '~' || op[0] == '%') {
        return ACLSetSelectorKeyPattern(s, op);
    } else if (op[0] == '&') {
        return ACLSetSelectorChannelPattern(s, op);
    } else if (op[0] == '+' && (op.size() < 2 || op[1] != '@')) {
        if (op.find('|') != std::string_view::npos) return ACLSetSelectorCommandWithArg(s, op.substr(1));
        redisCommand *cmd = lookupCommandBySdsFullname(op.substr(1));
        if (!cmd) return ACL_SET_ENOENT;
        ACLChangeSelectorPerm(s, *cmd, true);
    } else if (op[0] == '-' && (op.size() < 2 || op[1] != '@')) {
        redisCommand *cmd = lookupCommandBySdsFullname(op.substr(1));
        if (!cmd) return ACL_SET_ENOENT;
        ACLChangeSelectorPerm(s, *cmd, false);
    } else if (op[0] == '+' || op[0] == '-') {
        if (!ACLSetSelectorCommandBitsForCategory(s, op.substr(2), op[0] == '+')) return ACL_SET_ENOENT;
    } else {
        return ACL_SET_EINVAL;
    }
    return ACL_SET_OK;
}

/* ------------------------------------------------------------------------
 * Users
 * ---------------------------------------------------------------------- */

/* A user outside the table (ACL SETUSER's staging copy, a line being checked). */
std::unique_ptr<user> ACLCreateUnlinkedUser() {
    auto u = std::make_unique<user>();
    u->selectors.push_back(ACLCreateSelector(SELECTOR_FLAG_ROOT));
    return u;
}

/* nullptr if the name is taken. */
user *ACLCreateUser(std::string_view name) {
    if (Users.find(name) != Users.end()) return nullptr;
    std::unique_ptr<user> u = ACLCreateUnlinkedUser();
    u->name.assign(name);
    user *raw = u.get();
    Users.emplace(raw->name, std::move(u));
    return raw;
}

/* Everything but the name. */
void ACLCopyUser(user *dst, const user *src) {
    dst->flags = src->flags;
    dst->passwords = src->passwords;
    dst->selectors = src->selectors;
    dst->acl_string = src->acl_string;
}

int ACLSetUserRule(user *u, std::string_view op) {
    u->acl_string.reset();
    if (op.empty()) return ACL_SET_OK;
    if (strEqualNoCase(op, "on")) {
        u->flags = (u->flags | USER_FLAG_ENABLED) & ~USER_FLAG_DISABLED;
    } else if (strEqualNoCase(op, "off")) {
        u->flags = (u->flags | USER_FLAG_DISABLED) & ~USER_FLAG_ENABLED;
    } else if (strEqualNoCase(op, "skip-sanitize-payload")) {
        u->flags = (u->flags | USER_FLAG_SANITIZE_PAYLOAD_SKIP) & ~USER_FLAG_SANITIZE_PAYLOAD;
    } else if (strEqualNoCase(op, "sanitize-payload")) {
        u->flags = (u->flags | USER_FLAG_SANITIZE_PAYLOAD) & ~USER_FLAG_SANITIZE_PAYLOAD_SKIP;
    } else if (strEqualNoCase(op, "nopass")) {
        u->flags |= USER_FLAG_NOPASS;
        u->passwords.clear();
    } else if (strEqualNoCase(op, "resetpass")) {
        u->flags &= ~USER_FLAG_NOPASS;
        u->passwords.clear();
    } else if (op[0] == '>' || op[0] == '#') {
        std::string hash;
        if (op[0] == '>') {
            hash = ACLHashPassword(op.substr(1));
        } else {
            if (!ACLCheckPasswordHash(op.substr(1))) return ACL_SET_EBADMSG;
            hash.assign(op.substr(1));
        }
        if (std::find(u->passwords.begin(), u->passwords.end(), hash) == u->passwords.end())
            u->passwords.push_back(std::move(hash));
        u->flags &= ~USER_FLAG_NOPASS;
    } else if (op[0] == '<' || op[0] == '!') {
        std::string hash;
        if (op[0] == '<') {
            hash = ACLHashPassword(op.substr(1));
        } else {
            if (!ACLCheckPasswordHash(op.substr(1))) return ACL_SET_EBADMSG;
            hash.assign(op.substr(1));
        }
        auto it = std::find(u->passwords.begin(), u->passwords.end(), hash);
        if (it == u->passwords.end()) return ACL_SET_ENODEV;
        u->passwords.erase(it);
    } else if (op[0] == '(' && op.back() == ')') {
        aclSelector s;
        if (int err = aclCreateSelectorFromOpSet(op, s)) return err;
        u->selectors.push_back(std::move(s));
    } else if (strEqualNoCase(op, "clearselectors")) {
        u->selectors.resize(1);
    } else if (strEqualNoCase(op, "reset")) {
        ACLSetUserRule(u, "resetpass");
        ACLSetUserRule(u, "resetkeys");
        ACLSetUserRule(u, "resetchannels");
        if (server.acl_pubsub_default & SELECTOR_FLAG_ALLCHANNELS) ACLSetUserRule(u, "allchannels");
        ACLSetUserRule(u, "off");
        ACLSetUserRule(u, "sanitize-payload");
        ACLSetUserRule(u, "clearselectors");
        ACLSetUserRule(u, "-@all");
    } else {
        return ACLSetSelector(u->selectors[0], op);
    }
    return ACL_SET_OK;
}

/* Selector rules may come split over several arguments ("(~x" "+get)"):
 * they are joined back. False on an unclosed one (its index in *invalid). */
bool ACLMergeSelectorArguments(std::span<const std::string_view> argv, std::vector<std::string> &merged,
                               size_t *invalid) {
    std::string selector;
    bool open = false;
    size_t open_at = 0;
    for (size_t j = 0; j < argv.size(); j++) {
        std::string_view op = argv[j];
        if (!open && !op.empty() && op[0] == '(' && op.back() != ')') {
            selector.assign(op);
            open = true;
            open_at = j;
            continue;
        }
        if (open) {
            selector += ' ';
            selector += op;
            if (!op.empty() && op.back() == ')') {
                open = false;
                merged.push_back(std::move(selector));
            }
            continue;
        }
        merged.emplace_back(op);
    }
    if (open && invalid) *invalid = open_at;
    return !open;
}

/* ------------------------------------------------------------------------
 * Describing users (ACL LIST, GETUSER, SAVE)
 * ---------------------------------------------------------------------- */

std::string sdsCatPatternString(const keyPattern &pat) {
    const char *prefix = pat.flags == ACL_ALL_PERMISSION ? "~" : pat.flags == ACL_READ_PERMISSION ? "%R~" : "%W~";
    return prefix + pat.pattern;
}

/* The single commands (and first arguments) the categories did not get
 * right, applied to `fake` as they are emitted. */
void ACLDescribeSelectorCommandRulesSingleCommands(const aclSelector &s, aclSelector &fake, std::string &rules) {
    forEachCommand([&](const redisCommand &cmd) {
        bool userbit = ACLGetSelectorCommandBit(s, cmd.id);
        if (userbit != ACLGetSelectorCommandBit(fake, cmd.id)) {
            rules += userbit ? '+' : '-';
            rules += cmd.fullname;
            rules += ' ';
            ACLChangeSelectorPerm(fake, cmd, userbit);
        }
        auto it = s.allowed_firstargs.find(cmd.id);
        if (!userbit && it != s.allowed_firstargs.end()) {
            for (const std::string &arg : it->second) rules += "+" + cmd.fullname + "|" + arg + " ";
        }
    });
}

/* ------------------------------------------------------------------------
 * Checking permissions
 * ---------------------------------------------------------------------- */

int keyspecAclFlags(int keyspec_flags) {
    int flags = 0;
    if (keyspec_flags & CMD_KEY_ACCESS) flags |= ACL_READ_PERMISSION;
    if (keyspec_flags & (CMD_KEY_INSERT | CMD_KEY_DELETE | CMD_KEY_UPDATE)) flags |= ACL_WRITE_PERMISSION;
    return flags;
}

int ACLSelectorCheckKey(const aclSelector &s, std::string_view key, int keyspec_flags) {
    if (s.flags & SELECTOR_FLAG_ALLKEYS) return ACL_OK;
    int key_flags = keyspecAclFlags(keyspec_flags);
    for (const keyPattern &p : s.patterns) {
        if ((p.flags & key_flags) != key_flags) continue;
        if (stringmatchlen(p.pattern, key, false)) return ACL_OK;
    }
    return ACL_DENIED_KEY;
}

/* A PSUBSCRIBE pattern must be one of the user's patterns literally; a
 * channel (SUBSCRIBE, PUBLISH) may match one. */
int ACLCheckChannelAgainstList(std::span<const std::string> reference, std::string_view channel, bool is_pattern) {
    for (const std::string &pattern : reference) {
        if (is_pattern ? pattern == channel : stringmatchlen(pattern, channel, false)) return ACL_OK;
    }
    return ACL_DENIED_CHANNEL;
}

/* The channels of the commands that publish or subscribe (Redis's
 * commands_with_channels; unsubscribing is never denied). */
struct channelSpec {
    redisCommandProc proc;
    bool pattern;
    int start, count; /* count -1: every argument from start */
};
constexpr channelSpec commands_with_channels[] = {
    {subscribeCommand, false, 1, -1},
    {psubscribeCommand, true, 1, -1},
    {publishCommand, false, 1, 1},
    {ssubscribeCommand, false, 1, -1},
    {spublishCommand, false, 1, 1},
};

const channelSpec *getChannelSpec(const redisCommand *cmd) {
    for (const channelSpec &spec : commands_with_channels)
        if (spec.proc == cmd->proc) return &spec;
    return nullptr;
}

/* The keys of the command being checked, found once for all selectors.
 * Its vector keeps its capacity: checking allocates nothing per command. */
struct aclKeyResultCache {
    bool keys_init = false;
    getKeysResult &keys() {
        static getKeysResult result;
        return result;
    }
};

int ACLSelectorCheckCmd(const aclSelector &s, const redisCommand *cmd, std::span<const std::string_view> argv,
                        int *keyidxptr, aclKeyResultCache &cache) {
    if (!(s.flags & SELECTOR_FLAG_ALLCOMMANDS) && !(cmd->flags & CMD_NO_AUTH) &&
        !ACLGetSelectorCommandBit(s, cmd->id)) {
        /* A clear bit may still allow some first arguments (+select|0). */
        auto it = s.allowed_firstargs.find(cmd->id);
        if (argv.size() < 2 || it == s.allowed_firstargs.end()) return ACL_DENIED_CMD;
        size_t idx = cmd->parent ? 2 : 1;
        if (idx >= argv.size()) return ACL_DENIED_CMD;
        bool match = std::any_of(it->second.begin(), it->second.end(),
                                 [&](const std::string &a) { return strEqualNoCase(a, argv[idx]); });
        if (!match) return ACL_DENIED_CMD;
    }
    if (!(s.flags & SELECTOR_FLAG_ALLKEYS)) {
        getKeysResult &result = cache.keys();
        if (!cache.keys_init) {
            result.keys.clear();
            if (getKeysFromCommandWithSpecs(cmd, argv, GET_KEYSPEC_DEFAULT, &result) < 0) result.keys.clear();
            cache.keys_init = true;
        }
        for (const keyReference &k : result.keys) {
            int ret = ACLSelectorCheckKey(s, argv[k.pos], k.flags);
            if (ret != ACL_OK) {
                *keyidxptr = k.pos;
                return ret;
            }
        }
    }
    if (!(s.flags & SELECTOR_FLAG_ALLCHANNELS)) {
        if (const channelSpec *spec = getChannelSpec(cmd)) {
            int stop = spec->count == -1 ? static_cast<int>(argv.size()) : spec->start + spec->count;
            stop = std::min(stop, static_cast<int>(argv.size()));
            for (int i = spec->start; i < stop; i++) {
                if (ACLCheckChannelAgainstList(s.channels, argv[i], spec->pattern) != ACL_OK) {
                    *keyidxptr = i;
                    return ACL_DENIED_CHANNEL;
                }
            }
        }
    }
    return ACL_OK;
}

/* ------------------------------------------------------------------------
 * Disconnecting clients whose user goes away or loses channels
 * ---------------------------------------------------------------------- */

/* The current client is closed once its reply is written; any other one
 * at once, through freeClient, which unblocks it (nothing is popped for
 * it) and unsubscribes it. */
void freeClientsOf(const std::vector<client *> &victims) {
    for (client *c : victims) {
        if (c == server.current_client) c->flags |= CLIENT_CLOSE_AFTER_REPLY;
        else freeClient(c);
    }
}

/* A user leaves the table (ACL DELUSER, ACL LOAD): its clients are
 * disconnected, and meanwhile run as the unauthenticated default user. */
void ACLFreeUserAndKillClients(std::unique_ptr<user> u) {
    std::vector<client *> victims;
    for (auto &owned : server.clients) {
        client *c = owned.get();
        if (c->user != u.get()) continue;
        c->user = DefaultUser;
        c->authenticated = false;
        victims.push_back(c);
    }
    freeClientsOf(victims);
}

/* The channels of every selector of `u`, unless one allows all. */
bool ACLUserAllChannels(const user *u, std::vector<std::string> &channels) {
    for (const aclSelector &s : u->selectors) {
        if (s.flags & SELECTOR_FLAG_ALLCHANNELS) return true;
        channels.insert(channels.end(), s.channels.begin(), s.channels.end());
    }
    return false;
}

bool clientViolatesChannels(client *c, std::span<const std::string> upcoming) {
    for (const sds &pattern : c->pubsub_patterns)
        if (ACLCheckChannelAgainstList(upcoming, pattern, true) != ACL_OK) return true;
    for (auto &de : c->pubsub_channels)
        if (ACLCheckChannelAgainstList(upcoming, de.key.view(), false) != ACL_OK) return true;
    for (auto &de : c->pubsub_shard_channels)
        if (ACLCheckChannelAgainstList(upcoming, de.key.view(), false) != ACL_OK) return true;
    return false;
}

/* ACL SETUSER took channels from a user: its subscribers that hold one of
 * them are disconnected (unless the new channels include all the old). */
void ACLKillPubsubClientsIfNeeded(const user *updated, const user *original) {
    std::vector<std::string> upcoming, previous;
    if (ACLUserAllChannels(updated, upcoming)) return;
    if (!ACLUserAllChannels(original, previous) &&
        std::all_of(previous.begin(), previous.end(), [&](const std::string &ch) {
            return std::find(upcoming.begin(), upcoming.end(), ch) != upcoming.end();
        }))
        return;
    std::vector<client *> victims;
    for (auto &owned : server.clients) {
        client *c = owned.get();
        if (c->user == original && getClientType(c) == CLIENT_TYPE_PUBSUB && clientViolatesChannels(c, upcoming))
            victims.push_back(c);
    }
    freeClientsOf(victims);
}

/* ------------------------------------------------------------------------
 * The ACL LOG
 * ---------------------------------------------------------------------- */

constexpr long long ACL_LOG_GROUPING_MAX_TIME_DELTA = 60000;

struct ACLLogEntry {
    uint64_t count;
    int reason;          /* ACL_DENIED_* */
    int context;         /* ACL_LOG_CTX_* */
    std::string object;  /* the command, key, channel, or AUTH's command name */
    std::string username;
    long long ctime;     /* ms of the last occurrence */
    std::string cinfo;   /* CLIENT LIST line of the last client */
};
std::list<ACLLogEntry> ACLLog; /* newest first */

bool ACLLogMatchEntry(const ACLLogEntry &a, const ACLLogEntry &b) {
    return a.reason == b.reason && a.context == b.context && std::llabs(a.ctime - b.ctime) <= ACL_LOG_GROUPING_MAX_TIME_DELTA &&
           a.object == b.object && a.username == b.username;
}

/* ------------------------------------------------------------------------
 * Loading and saving
 * ---------------------------------------------------------------------- */

/* The default user as a new server has it. */
std::unique_ptr<user> ACLCreateDefaultUser() {
    std::unique_ptr<user> u = ACLCreateUnlinkedUser();
    u->name = "default";
    for (const char *rule : {"+@all", "~*", "&*", "on", "nopass"}) ACLSetUserRule(u.get(), rule);
    return u;
}

/* Applies the `user` lines of redis.conf. */
bool ACLLoadConfiguredUsers() {
    for (const std::vector<std::string> &rules : UsersToLoad) {
        const std::string &username = rules[0];
        if (ACLStringHasSpaces(username)) {
            serverLog(LL_WARNING, "Spaces not allowed in ACL usernames");
            return false;
        }
        user *u = ACLCreateUser(username);
        if (!u) { /* only "default" exists already */
            u = DefaultUser;
            ACLSetUserRule(u, "reset");
        }
        for (size_t j = 1; j < rules.size(); j++) {
            if (int err = ACLSetUserRule(u, rules[j])) {
                serverLog(LL_WARNING, "Error loading ACL rule '%s' for the user named '%s': %s", rules[j].c_str(),
                          username.c_str(), ACLSetUserStringError(err));
                return false;
            }
        }
        if (u->flags & USER_FLAG_DISABLED)
            serverLog(LL_NOTICE,
                      "The user '%s' is disabled (there is no 'on' modifier in the user description). Make sure this "
                      "is not a configuration error.",
                      username.c_str());
    }
    return true;
}

std::string trim(std::string_view s, const char *chars) {
    size_t first = s.find_first_not_of(chars);
    if (first == std::string_view::npos) return {};
    return std::string(s.substr(first, s.find_last_not_of(chars) + 1 - first));
}

/* Splits on single spaces, as Redis's sdssplitlen: "a  b" has an empty word. */
std::vector<std::string_view> splitOnSpace(std::string_view line) {
    std::vector<std::string_view> words;
    size_t start = 0;
    for (size_t i = 0; i <= line.size(); i++) {
        if (i == line.size() || line[i] == ' ') {
            words.push_back(line.substr(start, i - start));
            start = i + 1;
        }
    }
    return words;
}

/* One line of an ACL file into `users`; the errors found appended. */
void ACLLoadLine(std::string_view line, int linenum, decltype(Users) &users, std::string &errors) {
    const char *file = server.acl_filename.c_str();
    std::vector<std::string_view> argv = splitOnSpace(line);
    if (argv[0] != "user" || argv.size() < 2) {
        errors += formatString("%s:%d should start with user keyword followed by the username. ", file, linenum);
        return;
    }
    if (ACLStringHasSpaces(argv[1])) {
        errors += formatString("'%s:%d: username '%.*s' contains invalid characters. ", file, linenum,
                               static_cast<int>(argv[1].size()), argv[1].data());
        return;
    }
    if (users.find(argv[1]) != users.end()) {
        errors += formatString("WARNING: Duplicate user '%.*s' found on line %d. ", static_cast<int>(argv[1].size()),
                               argv[1].data(), linenum);
        return;
    }
    std::unique_ptr<user> u = ACLCreateUnlinkedUser();
    u->name.assign(argv[1]);
    std::vector<std::string> rules;
    if (!ACLMergeSelectorArguments(std::span(argv).subspan(2), rules, nullptr))
        errors += formatString("%s:%d: Unmatched parenthesis in selector definition.", file, linenum);
    bool syntax_error = false;
    for (std::string &rule : rules) {
        rule = trim(rule, "\t\r\n");
        int err = ACLSetUserRule(u.get(), rule);
        if (err == ACL_SET_ENOENT) {
            errors += formatString("%s:%d: Error in applying operation '%s': %s. ", file, linenum, rule.c_str(),
                                   ACLSetUserStringError(err));
        } else if (err && !syntax_error) {
            errors += formatString("%s:%d: %s. ", file, linenum, ACLSetUserStringError(err));
            syntax_error = true;
        }
    }
    std::string name = u->name;
    users.emplace(std::move(name), std::move(u));
}

/* All or nothing: "" once the file's users replaced the old ones, or the
 * errors (and nothing changed). */
std::string ACLLoadFromFile(const char *filename) {
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(filename, "r"), fclose);
    if (!fp) return formatString("Error loading ACLs, opening file '%s': %s", filename, strerror(errno));
    std::string text;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof(buf), fp.get())) > 0;) text.append(buf, n);
    if (ferror(fp.get())) return formatString("Error loading ACLs, reading file '%s': %s", filename, strerror(errno));

    decltype(Users) users;
    std::string errors;
    int linenum = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string::npos) nl = text.size();
        std::string line = trim(std::string_view(text).substr(start, nl - start), " \t\r\n");
        start = nl + 1;
        linenum++;
        if (!line.empty()) ACLLoadLine(line, linenum, users, errors);
    }
    if (!errors.empty())
        return errors + "WARNING: ACL errors detected, no change to the previously active ACL rules was performed";

    /* Clients point at DefaultUser: the file's default rules are copied
     * into it rather than replacing it. */
    auto def = users.find("default");
    std::unique_ptr<user> new_default = def != users.end() ? std::move(def->second) : ACLCreateDefaultUser();
    if (def != users.end()) users.erase(def);
    ACLCopyUser(DefaultUser, new_default.get());
    std::unique_ptr<user> old_default = std::move(Users.find("default")->second);
    Users.erase("default");
    decltype(Users) old_users = std::move(Users);
    Users = std::move(users);
    Users.emplace("default", std::move(old_default));
    for (auto &[name, u] : old_users) ACLFreeUserAndKillClients(std::move(u));
    return {};
}

/* Written to a temporary file, then renamed over the ACL file. */
bool ACLSaveToFile(const char *filename) {
    std::string acl;
    for (auto &[name, u] : Users) acl += "user " + name + " " + ACLDescribeUser(u.get()) + "\n";
    std::string tmpfilename = formatString("%s.tmp-%d-%lld", filename, static_cast<int>(getpid()), mstime());
    int fd = open(tmpfilename.c_str(), O_WRONLY | O_CREAT, 0644);
    if (fd == -1) {
        serverLog(LL_WARNING, "Opening temp ACL file for ACL SAVE: %s", strerror(errno));
        return false;
    }
    ssize_t written = write(fd, acl.data(), acl.size());
    if (written != static_cast<ssize_t>(acl.size())) {
        serverLog(LL_WARNING, "Writing ACL file for ACL SAVE: %s",
                  written == -1 ? strerror(errno) : "short write");
        close(fd);
        unlink(tmpfilename.c_str());
        return false;
    }
    close(fd);
    if (rename(tmpfilename.c_str(), filename) == -1) {
        serverLog(LL_WARNING, "Renaming ACL file for ACL SAVE: %s", strerror(errno));
        unlink(tmpfilename.c_str());
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------
 * Authentication
 * ---------------------------------------------------------------------- */

/* 0, or ENOENT (no such user) / EINVAL (disabled, wrong password). */
int ACLCheckUserCredentials(std::string_view username, std::string_view password) {
    user *u = ACLGetUserByName(username);
    if (!u) return ENOENT;
    if (u->flags & USER_FLAG_DISABLED) return EINVAL;
    if (u->flags & USER_FLAG_NOPASS) return 0;
    std::string hashed = ACLHashPassword(password);
    for (const std::string &pass : u->passwords)
        if (timeIndependentEqual(hashed, pass)) return 0;
    return EINVAL;
}

}  // namespace

bool ACLAuthenticateUser(client *c, std::string_view username, std::string_view password) {
    if (ACLCheckUserCredentials(username, password) == 0) {
        c->authenticated = true;
        c->user = ACLGetUserByName(username);
        return true;
    }
    addACLLogEntry(c, ACL_DENIED_AUTH, (c->flags & CLIENT_MULTI) ? ACL_LOG_CTX_MULTI : ACL_LOG_CTX_TOPLEVEL, 0,
                   username);
    return false;
}

/* Networking's view of users (networking.h), and RESET's (acl.h). */
void clientSetDefaultAuth(client *c) {
    c->user = DefaultUser;
    c->authenticated = !DefaultUser || ((DefaultUser->flags & USER_FLAG_NOPASS) &&
                                        !(DefaultUser->flags & USER_FLAG_DISABLED));
}
bool ACLDefaultUserIsNopass() { return !DefaultUser || (DefaultUser->flags & USER_FLAG_NOPASS); }
const std::string &ACLUserName(const user *u) { return u->name; }

/* CONFIG REWRITE's `user` lines: every user, unless they live in an
 * aclfile (then none: the file is theirs). */
std::vector<std::string> rewriteConfigUserOption() {
    std::vector<std::string> lines;
    if (!server.acl_filename.empty()) return lines;
    for (auto &[name, u] : Users) lines.push_back("user " + name + " " + ACLDescribeUser(u.get()));
    return lines;
}

namespace {

/* ------------------------------------------------------------------------
 * ACL subcommands
 * ---------------------------------------------------------------------- */

void aclAddReplySelectorDescription(client *c, const aclSelector &s) {
    addReplyBulk(c, "commands");
    addReplyBulk(c, ACLDescribeSelectorCommandRules(s));
    addReplyBulk(c, "keys");
    if (s.flags & SELECTOR_FLAG_ALLKEYS) {
        addReplyBulk(c, "~*");
    } else {
        std::string dsl;
        for (const keyPattern &p : s.patterns) {
            if (!dsl.empty()) dsl += ' ';
            dsl += sdsCatPatternString(p);
        }
        addReplyBulk(c, dsl);
    }
    addReplyBulk(c, "channels");
    if (s.flags & SELECTOR_FLAG_ALLCHANNELS) {
        addReplyBulk(c, "&*");
    } else {
        std::string dsl;
        for (const std::string &ch : s.channels) {
            if (!dsl.empty()) dsl += ' ';
            dsl += "&" + ch;
        }
        addReplyBulk(c, dsl);
    }
}

void aclSetUser(client *c) {
    /* The rules may hold passwords: none of them shows in the slow log. */
    for (size_t j = 2; j < c->argv.size(); j++) redactClientCommandArgument(c, j);
    std::string_view username = c->argv[2];
    if (ACLStringHasSpaces(username)) return addReplyError(c, "Usernames can't contain spaces or null characters");
    std::string err =
        ACLStringSetUser(ACLGetUserByName(username), username, std::span(c->argv).subspan(3));
    if (err.empty()) addReply(c, shared::ok);
    else addReplyError(c, err);
}

void aclDelUser(client *c) {
    for (size_t j = 2; j < c->argv.size(); j++)
        if (c->argv[j] == "default") return addReplyError(c, "The 'default' user cannot be removed");
    long long deleted = 0;
    for (size_t j = 2; j < c->argv.size(); j++) {
        auto it = Users.find(c->argv[j]);
        if (it == Users.end()) continue;
        std::unique_ptr<user> u = std::move(it->second);
        Users.erase(it);
        ACLFreeUserAndKillClients(std::move(u));
        deleted++;
    }
    addReplyLongLong(c, deleted);
}

void aclGetUser(client *c) {
    user *u = ACLGetUserByName(c->argv[2]);
    if (!u) return addReplyNull(c);
    addReplyMapLen(c, 6);
    addReplyBulk(c, "flags");
    long long numflags = 0;
    for (auto [name, flag] : ACLUserFlags) numflags += (u->flags & flag) != 0;
    addReplySetLen(c, numflags);
    for (auto [name, flag] : ACLUserFlags)
        if (u->flags & flag) addReplyBulk(c, name);
    addReplyBulk(c, "passwords");
    addReplyArrayLen(c, static_cast<long long>(u->passwords.size()));
    for (const std::string &pass : u->passwords) addReplyBulk(c, pass);
    aclAddReplySelectorDescription(c, u->selectors[0]);
    addReplyBulk(c, "selectors");
    addReplyArrayLen(c, static_cast<long long>(u->selectors.size() - 1));
    for (size_t j = 1; j < u->selectors.size(); j++) {
        addReplyMapLen(c, 3);
        aclAddReplySelectorDescription(c, u->selectors[j]);
    }
}

void aclListOrUsers(client *c, bool justnames) {
    addReplyArrayLen(c, static_cast<long long>(Users.size()));
    for (auto &[name, u] : Users) {
        if (justnames) addReplyBulk(c, name);
        else addReplyBulk(c, "user " + name + " " + ACLDescribeUser(u.get()));
    }
}

void aclCat(client *c) {
    if (c->argv.size() == 2) {
        addReplyArrayLen(c, static_cast<long long>(ACL_CATEGORY_COUNT));
        for (const char *name : ACL_CATEGORY_NAMES) addReplyBulk(c, name);
        return;
    }
    uint64_t cflag = ACLGetCommandCategoryFlagByName(c->argv[2]);
    if (!cflag) return addReplyErrorFormat(c, "Unknown category '%.128s'", std::string(c->argv[2]).c_str());
    std::vector<const std::string *> names;
    forEachCommand([&](const redisCommand &cmd) {
        if (cmd.acl_categories & cflag) names.push_back(&cmd.fullname);
    });
    addReplyArrayLen(c, static_cast<long long>(names.size()));
    for (const std::string *name : names) addReplyBulk(c, *name);
}

void aclGenPass(client *c) {
    constexpr long GENPASS_MAX_BITS = 4096;
    long bits = 256;
    if (c->argv.size() == 3 && !getLongFromObjectOrReply(c, c->argv[2], &bits)) return;
    if (bits <= 0 || bits > GENPASS_MAX_BITS)
        return addReplyErrorFormat(c,
                                   "ACL GENPASS argument must be the number of bits for the output password, a "
                                   "positive number up to %ld",
                                   GENPASS_MAX_BITS);
    long chars = (bits + 3) / 4;
    std::string pass(static_cast<size_t>(chars), '\0');
    getRandomHexChars(pass.data(), pass.size());
    addReplyBulk(c, pass);
}

const char *aclLogReasonName(int reason) {
    switch (reason) {
    case ACL_DENIED_CMD: return "command";
    case ACL_DENIED_KEY: return "key";
    case ACL_DENIED_CHANNEL: return "channel";
    case ACL_DENIED_AUTH: return "auth";
    default: return "unknown";
    }
}

const char *aclLogContextName(int context) {
    switch (context) {
    case ACL_LOG_CTX_TOPLEVEL: return "toplevel";
    case ACL_LOG_CTX_MULTI: return "multi";
    case ACL_LOG_CTX_LUA: return "lua";
    default: return "unknown";
    }
}

void aclLog(client *c) {
    long count = 10;
    if (c->argv.size() == 3) {
        if (strEqualNoCase(c->argv[2], "reset")) {
            ACLLog.clear();
            return addReply(c, shared::ok);
        }
        if (!getLongFromObjectOrReply(c, c->argv[2], &count)) return;
        if (count < 0) count = 0;
    }
    count = std::min(count, static_cast<long>(ACLLog.size()));
    addReplyArrayLen(c, count);
    long long now = mstime();
    for (auto it = ACLLog.begin(); count-- > 0; ++it) {
        const ACLLogEntry &le = *it;
        addReplyMapLen(c, 7);
        addReplyBulk(c, "count");
        addReplyLongLong(c, static_cast<long long>(le.count));
        addReplyBulk(c, "reason");
        addReplyBulk(c, aclLogReasonName(le.reason));
        addReplyBulk(c, "context");
        addReplyBulk(c, aclLogContextName(le.context));
        addReplyBulk(c, "object");
        addReplyBulk(c, le.object);
        addReplyBulk(c, "username");
        addReplyBulk(c, le.username);
        addReplyBulk(c, "age-seconds");
        addReplyDouble(c, static_cast<double>(now - le.ctime) / 1000);
        addReplyBulk(c, "client-info");
        addReplyBulk(c, le.cinfo);
    }
}

void aclDryRun(client *c) {
    user *u = ACLGetUserByName(c->argv[2]);
    if (!u) return addReplyErrorFormat(c, "User '%s' not found", std::string(c->argv[2]).c_str());
    std::vector<std::string_view> argv(c->argv.begin() + 3, c->argv.end());
    redisCommand *cmd = lookupCommand(argv);
    if (!cmd) return addReplyErrorFormat(c, "Command '%s' not found", std::string(argv[0]).c_str());
    int argc = static_cast<int>(argv.size());
    if ((cmd->arity > 0 && cmd->arity != argc) || argc < -cmd->arity)
        return addReplyErrorFormat(c, "wrong number of arguments for '%s' command", cmd->fullname.c_str());
    int idx = 0;
    int result = ACLCheckAllUserCommandPerm(u, cmd, argv, &idx);
    if (result == ACL_OK) return addReply(c, shared::ok);
    std::string err;
    if (result == ACL_DENIED_CMD) err = "This user has no permissions to run the '" + cmd->fullname + "' command";
    else if (result == ACL_DENIED_KEY) err = "This user has no permissions to access the '" + std::string(argv[idx]) + "' key";
    else err = "This user has no permissions to access the '" + std::string(argv[idx]) + "' channel";
    addReplyBulk(c, err);
}

void aclHelp(client *c) {
    static const char *const help[] = {
        "CAT [<category>]",
        "    List all commands that belong to <category>, or all command categories",
        "    when no category is specified.",
        "DELUSER <username> [<username> ...]",
        "    Delete a list of users.",
        "DRYRUN <username> <command> [<arg> ...]",
        "    Returns whether the user can execute the given command without executing the command.",
        "GETUSER <username>",
        "    Get the user's details.",
        "GENPASS [<bits>]",
        "    Generate a secure 256-bit user password. The optional `bits` argument can",
        "    be used to specify a different size.",
        "LIST",
        "    Show users details in config file format.",
        "LOAD",
        "    Reload users from the ACL file.",
        "LOG [<count> | RESET]",
        "    Show the ACL log entries.",
        "SAVE",
        "    Save the current config to the ACL file.",
        "SETUSER <username> <attribute> [<attribute> ...]",
        "    Create or modify a user with the specified attributes.",
        "USERS",
        "    List all the registered usernames.",
        "WHOAMI",
        "    Return the current connection username.",
        nullptr};
    addReplyHelp(c, help);
}

}  // namespace

/* ========================================================================
 * Public API
 * ====================================================================== */

std::string ACLHashPassword(std::string_view cleartext) {
    static constexpr char cset[] = "0123456789abcdef";
    std::array<uint8_t, SHA256_BLOCK_SIZE> hash = sha256(cleartext);
    std::string hex(HASH_PASSWORD_LEN, '\0');
    for (size_t j = 0; j < SHA256_BLOCK_SIZE; j++) {
        hex[j * 2] = cset[hash[j] >> 4];
        hex[j * 2 + 1] = cset[hash[j] & 0xf];
    }
    return hex;
}

user *ACLGetUserByName(std::string_view name) {
    auto it = Users.find(name);
    return it == Users.end() ? nullptr : it->second.get();
}

void ACLInit() {
    Users.clear();
    UsersToLoad.clear();
    ACLLog.clear();
    std::unique_ptr<user> def = ACLCreateDefaultUser();
    DefaultUser = def.get();
    Users.emplace("default", std::move(def));
    for (auto &owned : server.clients) owned->user = DefaultUser; /* a test's clients, from before */
}

std::string ACLStringSetUser(user *u, std::string_view username, std::span<const std::string_view> rules) {
    std::vector<std::string> merged;
    size_t invalid = 0;
    if (!ACLMergeSelectorArguments(rules, merged, &invalid))
        return "Unmatched parenthesis in acl selector starting at '" + std::string(rules[invalid]) + "'.";
    /* Staged on a copy: the user changes only if every rule is valid. */
    std::unique_ptr<user> tempu = ACLCreateUnlinkedUser();
    if (u) ACLCopyUser(tempu.get(), u);
    for (const std::string &rule : merged) {
        if (int err = ACLSetUserRule(tempu.get(), rule))
            return "Error in ACL SETUSER modifier '" + rule + "': " + ACLSetUserStringError(err);
    }
    if (u) ACLKillPubsubClientsIfNeeded(tempu.get(), u);
    if (!u) u = ACLCreateUser(username);
    ACLCopyUser(u, tempu.get());
    return {};
}

std::string ACLDescribeSelectorCommandRules(const aclSelector &s) {
    std::string rules;
    /* Rules are emitted while applied to a fake selector, so that what is
     * still to be said is what the two bitmaps differ in. +@all starts a
     * user that may run future commands; -@all one that may not. */
    aclSelector fake;
    bool additive = !ACLSelectorCanExecuteFutureCommands(s);
    rules += additive ? "-@all " : "+@all ";
    ACLSetSelector(fake, additive ? "-@all" : "+@all");

    /* Then the categories that fit best, one at a time, each tried on a
     * scratch copy of the user's bitmap that it is taken out of. */
    aclSelector temp;
    memcpy(temp.allowed_commands, s.allowed_commands, sizeof(s.allowed_commands));
    bool applied[ACL_CATEGORY_COUNT] = {};
    for (;;) {
        int best = -1;
        unsigned long mindiff = INT_MAX, maxsame = 0;
        for (size_t j = 0; j < ACL_CATEGORY_COUNT; j++) {
            if (applied[j]) continue;
            unsigned long on, off;
            ACLCountCategoryBits(temp, 1ULL << j, &on, &off);
            unsigned long diff = additive ? off : on, same = additive ? on : off;
            if (same > diff && (diff < mindiff || (diff == mindiff && same > maxsame))) {
                best = static_cast<int>(j);
                mindiff = diff;
                maxsame = same;
            }
        }
        if (best == -1) break;
        std::string name = ACL_CATEGORY_NAMES[best];
        std::string op = (additive ? "+@" : "-@") + name;
        ACLSetSelector(fake, op);
        ACLSetSelector(temp, (additive ? "-@" : "+@") + name);
        rules += op + " ";
        applied[best] = true;
    }
    ACLDescribeSelectorCommandRulesSingleCommands(s, fake, rules);
    rules.pop_back(); /* the last space */
    return rules;
}

static std::string ACLDescribeSelector(const aclSelector &s) {
    std::string res;
    if (s.flags & SELECTOR_FLAG_ALLKEYS) {
        res += "~* ";
    } else {
        for (const keyPattern &p : s.patterns) res += sdsCatPatternString(p) + " ";
    }
    if (s.flags & SELECTOR_FLAG_ALLCHANNELS) {
        res += "&* ";
    } else {
        res += "resetchannels ";
        for (const std::string &ch : s.channels) res += "&" + ch + " ";
    }
    res += ACLDescribeSelectorCommandRules(s);
    return res;
}

const std::string &ACLDescribeUser(user *u) {
    if (u->acl_string) return *u->acl_string;
    std::string res;
    for (auto [name, flag] : ACLUserFlags) {
        if (u->flags & flag) {
            res += name;
            res += ' ';
        }
    }
    for (const std::string &pass : u->passwords) res += "#" + pass + " ";
    for (const aclSelector &s : u->selectors) {
        if (s.flags & SELECTOR_FLAG_ROOT) res += ACLDescribeSelector(s);
        else res += " (" + ACLDescribeSelector(s) + ")";
    }
    return u->acl_string.emplace(std::move(res));
}

int ACLCheckAllUserCommandPerm(const user *u, const redisCommand *cmd, std::span<const std::string_view> argv,
                               int *idxptr) {
    if (!u) return ACL_OK;
    /* Of the selectors' denials, the most serious kind is reported, and of
     * those the last argument. */
    int relevant_error = ACL_DENIED_CMD;
    int local_idx = 0, last_idx = 0;
    aclKeyResultCache cache;
    for (const aclSelector &s : u->selectors) {
        int ret = ACLSelectorCheckCmd(s, cmd, argv, &local_idx, cache);
        if (ret == ACL_OK) return ACL_OK;
        if (ret > relevant_error || (ret == relevant_error && local_idx > last_idx)) {
            relevant_error = ret;
            last_idx = local_idx;
        }
    }
    *idxptr = last_idx;
    return relevant_error;
}

/* Whether a selector's key patterns grant `flags` (CMD_KEY_*) on every key:
 * allkeys, or a "*" pattern with those permissions. */
static bool ACLSelectorHasUnrestrictedKeyAccess(const aclSelector &s, int flags) {
    if (s.flags & SELECTOR_FLAG_ALLKEYS) return true;
    int access_flags = 0;
    if (flags & CMD_KEY_ACCESS) access_flags |= ACL_READ_PERMISSION;
    if (flags & (CMD_KEY_INSERT | CMD_KEY_DELETE | CMD_KEY_UPDATE)) access_flags |= ACL_WRITE_PERMISSION;
    return std::any_of(s.patterns.begin(), s.patterns.end(), [&](const keyPattern &p) {
        return (p.flags & access_flags) == access_flags && p.pattern == "*";
    });
}

bool ACLUserCheckCmdWithUnrestrictedKeyAccess(const user *u, const redisCommand *cmd,
                                              std::span<const std::string_view> argv, int flags) {
    if (!u) return true;
    int local_idx = 0;
    aclKeyResultCache cache;
    return std::any_of(u->selectors.begin(), u->selectors.end(), [&](const aclSelector &s) {
        return ACLSelectorCheckCmd(s, cmd, argv, &local_idx, cache) == ACL_OK &&
               ACLSelectorHasUnrestrictedKeyAccess(s, flags);
    });
}

int ACLCheckAllPerm(client *c, int *idxptr) {
    /* +@all ~* &* (the default user): nothing to look at, per command. */
    constexpr uint32_t all = SELECTOR_FLAG_ALLCOMMANDS | SELECTOR_FLAG_ALLKEYS | SELECTOR_FLAG_ALLCHANNELS;
    if (!c->user || (c->user->selectors.front().flags & all) == all) return ACL_OK;
    return ACLCheckAllUserCommandPerm(c->user, c->cmd, c->argv, idxptr);
}

/* Before ACLInit (unit tests that never call it) there are no users, and
 * clients (user nullptr) may run anything. */
bool authRequired(const client *c) {
    return DefaultUser &&
           ((DefaultUser->flags & USER_FLAG_DISABLED) || !(DefaultUser->flags & USER_FLAG_NOPASS)) &&
           !c->authenticated;
}

void addACLLogEntry(client *c, int reason, int context, int argpos, std::string_view username,
                    std::optional<std::string> object) {
    ACLLogEntry le{1, reason, context, {}, {}, mstime(), {}};
    le.username.assign(!username.empty() || !c->user ? username : std::string_view(c->user->name));
    if (object) {
        le.object = std::move(*object);
    } else {
        switch (reason) {
        case ACL_DENIED_CMD: le.object = c->cmd->fullname; break;
        case ACL_DENIED_KEY:
        case ACL_DENIED_CHANNEL: le.object.assign(c->argv[argpos]); break;
        case ACL_DENIED_AUTH: le.object.assign(c->argv[0]); break;
        }
    }
    /* A script's denial is its caller's. */
    client *realclient = c;
    if ((c->flags & CLIENT_SCRIPT) && scriptCurrentRun()) realclient = scriptCurrentRun()->original_client;
    le.cinfo = catClientInfoString(realclient);

    /* Similar recent entries are one entry with a count: the last ten are
     * looked at. */
    int toscan = 10;
    for (auto it = ACLLog.begin(); toscan-- && it != ACLLog.end(); ++it) {
        if (!ACLLogMatchEntry(*it, le)) continue;
        it->cinfo = std::move(le.cinfo);
        it->ctime = le.ctime;
        it->count++;
        ACLLog.splice(ACLLog.begin(), ACLLog, it);
        return;
    }
    ACLLog.push_front(std::move(le));
    while (ACLLog.size() > static_cast<size_t>(server.acllog_max_len)) ACLLog.pop_back();
}

const char *getAclErrorMessage(int acl_res) {
    switch (acl_res) {
    case ACL_DENIED_CMD: return "can't run this command or subcommand";
    case ACL_DENIED_KEY: return "can't access at least one of the keys mentioned in the command arguments";
    case ACL_DENIED_CHANNEL: return "can't publish to the channel mentioned in the command";
    default: return "lacking the permissions for the command";
    }
}

size_t ACLLogLength() { return ACLLog.size(); }

bool ACLAppendUserForLoading(std::span<const std::string> argv, std::string &err) {
    auto fail = [&](std::string_view culprit, int code) {
        err = "Error in user declaration '" + std::string(culprit) + "': " + ACLSetUserStringError(code);
        return false;
    };
    for (const std::vector<std::string> &pending : UsersToLoad)
        if (pending[0] == argv[1]) return fail(argv[1], ACL_SET_EALREADY);
    std::vector<std::string_view> rules(argv.begin() + 2, argv.end());
    std::vector<std::string> merged;
    size_t invalid = 0;
    /* Redis names the offending word by its index among the rules, read
     * from the whole line ("user" and the name included): kept. */
    if (!ACLMergeSelectorArguments(rules, merged, &invalid)) return fail(argv[invalid], ACL_SET_EINVAL);
    std::unique_ptr<user> fake = ACLCreateUnlinkedUser();
    for (size_t j = 0; j < merged.size(); j++) {
        int code = ACLSetUserRule(fake.get(), merged[j]);
        if (code && code != ACL_SET_ENOENT) return fail(argv[j], code);
    }
    std::vector<std::string> pending{argv[1]};
    pending.insert(pending.end(), merged.begin(), merged.end());
    UsersToLoad.push_back(std::move(pending));
    return true;
}

void ACLLoadUsersAtStartup() {
    if (!server.acl_filename.empty() && !UsersToLoad.empty()) {
        serverLog(LL_WARNING,
                  "Configuring Redis with users defined in redis.conf and at the same setting an ACL file path is "
                  "invalid. This setup is very likely to lead to configuration errors and security holes, please "
                  "define either an ACL file or declare users directly in your redis.conf, but not both.");
        exit(1);
    }
    if (!ACLLoadConfiguredUsers()) {
        serverLog(LL_WARNING, "Critical error while loading ACLs. Exiting.");
        exit(1);
    }
    if (!server.acl_filename.empty()) {
        std::string errors = ACLLoadFromFile(server.acl_filename.c_str());
        if (!errors.empty()) {
            serverLog(LL_WARNING, "Aborting Redis startup because of ACL errors: %s", errors.c_str());
            exit(1);
        }
    }
}

void ACLUpdateDefaultUserPassword(std::string_view password) {
    ACLSetUserRule(DefaultUser, "resetpass");
    if (password.empty()) ACLSetUserRule(DefaultUser, "nopass");
    else ACLSetUserRule(DefaultUser, ">" + std::string(password));
}

/* AUTH <password> | AUTH <username> <password> */
void authCommand(client *c) {
    if (c->argv.size() > 3) return addReplyErrorObject(c, shared::syntaxerr);
    redactClientCommandArgument(c, 1);
    std::string_view username = "default", password = c->argv[1];
    if (c->argv.size() == 2) {
        if (DefaultUser->flags & USER_FLAG_NOPASS)
            return addReplyError(c, "AUTH <password> called without any password configured for the default user. "
                                    "Are you sure your configuration is correct?");
    } else {
        username = c->argv[1];
        password = c->argv[2];
        redactClientCommandArgument(c, 2);
    }
    if (ACLAuthenticateUser(c, username, password)) addReply(c, shared::ok);
    else addReplyError(c, "-WRONGPASS invalid username-password pair or user is disabled.");
}

void aclCommand(client *c) {
    std::string_view sub = c->argv[1];
    size_t argc = c->argv.size();
    if (strEqualNoCase(sub, "setuser") && argc >= 3) return aclSetUser(c);
    if (strEqualNoCase(sub, "deluser") && argc >= 3) return aclDelUser(c);
    if (strEqualNoCase(sub, "getuser") && argc == 3) return aclGetUser(c);
    if ((strEqualNoCase(sub, "list") || strEqualNoCase(sub, "users")) && argc == 2)
        return aclListOrUsers(c, strEqualNoCase(sub, "users"));
    if (strEqualNoCase(sub, "whoami") && argc == 2) {
        if (c->user) return addReplyBulk(c, c->user->name);
        return addReplyNull(c);
    }
    if (server.acl_filename.empty() && (strEqualNoCase(sub, "load") || strEqualNoCase(sub, "save")))
        return addReplyError(c, "This Redis instance is not configured to use an ACL file. You may want to specify "
                                "users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you "
                                "have a Redis configuration file set) in order to store users in the Redis "
                                "configuration.");
    if (strEqualNoCase(sub, "load") && argc == 2) {
        std::string errors = ACLLoadFromFile(server.acl_filename.c_str());
        if (errors.empty()) return addReply(c, shared::ok);
        return addReplyError(c, errors);
    }
    if (strEqualNoCase(sub, "save") && argc == 2) {
        if (ACLSaveToFile(server.acl_filename.c_str())) return addReply(c, shared::ok);
        return addReplyError(c, "There was an error trying to save the ACLs. Please check the server logs for more "
                                "information");
    }
    if (strEqualNoCase(sub, "cat") && (argc == 2 || argc == 3)) return aclCat(c);
    if (strEqualNoCase(sub, "genpass") && (argc == 2 || argc == 3)) return aclGenPass(c);
    if (strEqualNoCase(sub, "log") && (argc == 2 || argc == 3)) return aclLog(c);
    if (strEqualNoCase(sub, "dryrun") && argc >= 4) return aclDryRun(c);
    if (strEqualNoCase(sub, "help") && argc == 2) return aclHelp(c);
    addReplySubcommandSyntaxError(c);
}
