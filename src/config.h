/* config.h — configuration (Redis's config.c): redis.conf, command-line
 * options and CONFIG.
 *
 * It mirrors Redis's config.c, in two parts. config.cpp is the machinery:
 * the types of configs (bool, numeric, enum, string, special), the loader
 * of redis.conf and of the command line, and the logic of CONFIG GET,
 * CONFIG SET and CONFIG REWRITE. The table itself, which says for every
 * directive its name, flags, default and the field of `server` it sets,
 * is config_table.cpp's (Redis's static_configs[]): it binds fields of
 * every layer, so it sits at the top, and hands itself to initConfigValues
 * at start-up. Adding a directive is adding one row there.
 * Invariants:
 *  - A config's value is always the one in its field: nothing is cached
 *    here.
 *  - CONFIG SET is atomic: either every pair is applied or none is.
 *  - Errors while loading the configuration are fatal: they are reported on
 *    stderr in Redis's format and the process exits with status 1.
 */
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

constexpr unsigned IMMUTABLE_CONFIG = 1u << 0; /* settable at start-up only */
constexpr unsigned MULTI_ARG_CONFIG = 1u << 1; /* takes a list of words */
constexpr unsigned PROTECTED_CONFIG = 1u << 2; /* CONFIG SET only with enable-protected-configs */
constexpr unsigned HIDDEN_CONFIG = 1u << 3;    /* for tests: CONFIG GET by its exact name only */
/* In redis.conf and on the command line, each line after the first adds
 * to the value instead of replacing it (`save`, as Redis reads it). */
constexpr unsigned APPEND_IN_FILE_CONFIG = 1u << 4;
constexpr unsigned SENSITIVE_CONFIG = 1u << 5; /* a secret: CONFIG SET redacts its value (slow log) */
/* A string whose "" is a value, not "unset" (Redis's ALLOW_EMPTY_STRING:
 * logfile, aclfile): CONFIG REWRITE keeps its `name ""` line. */
constexpr unsigned EMPTY_IS_VALUE_CONFIG = 1u << 6;

enum class SetResult { Error, Changed, Unchanged };

struct configEnum {
    const char *name;
    int value;
};

struct BoolConfig {
    bool *field;
};
struct NumericConfig {
    std::variant<int *, unsigned int *, long long *> field;
    long long lower, upper;
    bool memory = false; /* accepts units: "512mb" */
    bool octal = false;  /* read and written in base 8 (a file mode: unixsocketperm) */
};
struct EnumConfig {
    int *field;
    std::span<const configEnum> values;
};
struct StringConfig {
    std::string *field;
};
/* A config with its own parser and printer (bind, save...). */
struct SpecialConfig {
    SetResult (*set)(std::span<const std::string> args, std::string &err);
    std::string (*get)();
};

/* One directive (Redis's standardConfig): a row of the table in
 * config_table.cpp. `apply` runs after CONFIG SET changed the value. */
struct standardConfig {
    const char *name;
    const char *alias;
    unsigned flags;
    const char *default_value; /* as written in redis.conf */
    std::variant<BoolConfig, NumericConfig, EnumConfig, StringConfig, SpecialConfig> type;
    bool (*apply)(const char **err) = nullptr;
    /* Set for a directive cppredis accepts without effect (docs/ref-configuration.md's list):
     * why. Loading it from redis.conf or the command line, or CONFIG SET,
     * logs this, unless the value is `honoured`: the one that describes
     * what cppredis does anyway (io-threads 1), if there is one. */
    const char *no_effect = nullptr;
    const char *honoured = nullptr;
};

/* A directive of Redis 7.0 that cppredis refuses (docs/ref-configuration.md's list): a glob
 * pattern over names and why. The loader's error names the directive and
 * gives the reason; CONFIG GET/SET know them no more than any unknown name. */
struct refusedConfig {
    const char *pattern;
    const char *reason;
};

const standardConfig *lookupConfig(std::string_view name); /* by name or alias, any case; nullptr if none */

/* Directives of redis.conf that are not configs of the table, owned by a
 * layer above and handed over by installServerHooks (hooks.cpp), before
 * the configuration is read: `user` (acl.cpp), `replicaof`/`slaveof`
 * (replication), `rename-command` (server.cpp). `load` takes the whole
 * line (argv[0] is the name as written; at least 2 words) and returns false
 * with the error; `rewrite` gives the lines CONFIG REWRITE writes for it
 * (none: the directive is dropped from the file). */
struct configDirective {
    const char *name;
    const char *alias; /* nullptr if none */
    bool (*load)(std::span<const std::string> argv, std::string &err);
    std::vector<std::string> (*rewrite)(); /* nullptr: its lines stay as they are (rename-command) */
};
void registerConfigDirective(const configDirective &directive);

/* Takes `table` as the configs and sets every one to its default, as
 * Redis's initConfigValues(); `refused` names Redis's directives cppredis
 * refuses, for the loader's message. */
void initConfigValues(std::span<const standardConfig> table, std::span<const refusedConfig> refused = {});

/* Loads `filename` (if not null), then `options`: directives, one per line,
 * that override the file (see parseCommandLine). Exits on any error. */
void loadServerConfig(const char *filename, const std::string &options);

/* Logs a warning for each directive loadServerConfig accepted without
 * effect (once the log is where the configuration says). */
void logConfigWarnings();

/* redis-server's command line: an optional config file first, then
 * "--name value..." options turned into "name value..." lines for
 * loadServerConfig. --version and --help are the caller's business. */
void parseCommandLine(int argc, char **argv, std::string &configfile, std::string &options);

/* The logic of CONFIG GET / CONFIG SET, separate from the reply so it can be
 * used (and tested) without a client. configGet returns (name, value)
 * pairs for the configs matching any of the glob patterns, each once.
 * configSet takes name, value, name, value...; on failure it changes nothing
 * and sets `err` to Redis's error text (without the "ERR " prefix). */
std::vector<std::pair<std::string, std::string>> configGet(std::span<const std::string_view> patterns);
/* Configs marked protected (dir, dbfilename) are refused unless
 * `protected_allowed` (enable-protected-configs, checked by CONFIG SET). */
bool configSet(std::span<const std::string_view> name_value_pairs, std::string &err, bool protected_allowed = true);

/* CONFIG REWRITE (Redis's rewriteConfig): `path` rewritten in place to
 * hold the current configuration. Every config (and registered directive)
 * gets its line(s): the first ones replace the option's existing lines
 * (under its name or alias), the others are appended after a
 * "# Generated by CONFIG REWRITE" comment; an option's surplus lines are
 * blanked; comments and `include` lines stay; lines of directives unknown
 * here are commented out ("# ??? "). An option at its default is written
 * only if the file had it. The new file replaces the old one atomically
 * (a temp file in the same directory, fsynced, renamed) and keeps its mode
 * (a missing file is created 0644 less the umask, as Redis creates it).
 * Returns false with errno set; the old file is then as it was, unless
 * only the last step, fsyncing the directory after the rename, failed. */
bool rewriteConfig(const std::string &path);
/* The text rewriteConfig writes for a file that held `old_content`. */
std::string rewriteConfigContent(std::string_view old_content);

/* Parses `arg` as `c` would and stores it in *c's field, for a special
 * config that parses a number like a numeric one (hz). */
SetResult setNumericConfig(const NumericConfig &c, std::string_view arg, std::string &err);
