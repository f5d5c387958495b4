/* config.cpp — the config table, redis.conf loading and CONFIG GET/SET/HELP.
 *
 * Every directive is one row of `configs` below: its name, flags, default
 * (written as in redis.conf), a type bound to a field of `server`, and an
 * optional apply hook run after CONFIG SET changed it. Values travel as
 * strings between the loader, CONFIG SET and CONFIG GET, exactly as in
 * Redis, so one parser and one printer per type serve them all.
 * Invariants:
 *  - getConfigValue() output is always accepted back by setConfigFromString()
 *    (CONFIG SET relies on it to roll back).
 *  - Apply hooks never run while loading the configuration: the server they
 *    would act on (listeners, clients) does not exist yet.
 */
#include "config.h"

#include <glob.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <ranges>
#include <type_traits>
#include <variant>

#include "server.h"
#include "util.h"
#include "zmalloc.h"

namespace {

constexpr unsigned IMMUTABLE_CONFIG = 1u << 0; /* settable at start-up only */
constexpr unsigned MULTI_ARG_CONFIG = 1u << 1; /* takes a list of words */
constexpr unsigned PROTECTED_CONFIG = 1u << 2; /* CONFIG SET only with enable-protected-configs */
constexpr unsigned HIDDEN_CONFIG = 1u << 3;    /* for tests: CONFIG GET by its exact name only */

/* Set while redis.conf and the command line are read (Redis's
 * reading_config_file): a few directives add up there instead of replacing. */
bool reading_config_file = false;

/* Redis's hz bounds: a hint, clamped rather than refused. */
constexpr int CONFIG_MIN_HZ = 1, CONFIG_MAX_HZ = 500;

using SetResult = configSetResult;

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
    configSetProc set;
    configGetProc get;
};

struct standardConfig {
    const char *name;
    const char *alias;
    unsigned flags;
    const char *default_value; /* as written in redis.conf */
    std::variant<BoolConfig, NumericConfig, EnumConfig, StringConfig, SpecialConfig> type;
    configApplyProc apply = nullptr;
};

/* ------------------------------------------------------------------------
 * Special configs and apply hooks
 * ---------------------------------------------------------------------- */

constexpr configEnum loglevel_enum[] = {
    {"debug", LL_DEBUG}, {"verbose", LL_VERBOSE}, {"notice", LL_NOTICE}, {"warning", LL_WARNING}};

/* enable-debug-command: who may run DEBUG (Redis 7's protected actions). */
constexpr configEnum protected_action_enum[] = {
    {"no", PROTECTED_ACTION_ALLOWED_NO}, {"yes", PROTECTED_ACTION_ALLOWED_YES},
    {"local", PROTECTED_ACTION_ALLOWED_LOCAL}};

/* save <seconds> <changes> ... (rdb.cpp's save points); "" for none.
 * Numbers are read with strtoll, as Redis does; seconds must be >= 1,
 * changes >= 0. In redis.conf the points come one `save` line each: the
 * first line replaces the defaults, the next ones add to it. */
bool save_params_loaded = false;

SetResult setSaveParams(std::span<const std::string> args, std::string &err) {
    if (args.size() == 1 && args[0].empty()) args = {};
    std::vector<redisServer::saveparam> points;
    for (size_t j = 0; j < args.size(); j += 2) {
        char *end1 = nullptr, *end2 = nullptr;
        long long seconds = strtoll(args[j].c_str(), &end1, 10);
        long long changes = j + 1 < args.size() ? strtoll(args[j + 1].c_str(), &end2, 10) : -1;
        if (*end1 != '\0' || seconds < 1 || changes < 0 || *end2 != '\0') {
            err = "Invalid save parameters";
            return SetResult::Error;
        }
        points.push_back({static_cast<time_t>(seconds), static_cast<int>(changes)});
    }
    if (!reading_config_file || !save_params_loaded) server.saveparams.clear();
    save_params_loaded = reading_config_file;
    server.saveparams.insert(server.saveparams.end(), points.begin(), points.end());
    return SetResult::Changed;
}

std::string getSaveParams() {
    std::string out;
    for (const redisServer::saveparam &sp : server.saveparams) {
        if (!out.empty()) out += ' ';
        out += std::to_string(sp.seconds) + " " + std::to_string(sp.changes);
    }
    return out;
}

/* dbfilename: the file lives in `dir`, so a path is refused. */
SetResult setDbFilename(std::span<const std::string> args, std::string &err) {
    if (args[0].find('/') != std::string::npos) {
        err = "dbfilename can't be a path, just a filename";
        return SetResult::Error;
    }
    if (server.rdb_filename == args[0]) return SetResult::Unchanged;
    server.rdb_filename = args[0];
    return SetResult::Changed;
}

std::string getDbFilename() { return server.rdb_filename; }

/* dir: the working directory itself, where the RDB (and AOF) files go. */
SetResult setDir(std::span<const std::string> args, std::string &err) {
    if (chdir(args[0].c_str()) == -1) {
        err = strerror(errno);
        return SetResult::Error;
    }
    return SetResult::Changed;
}

std::string getDir() {
    char cwd[PATH_MAX];
    return getcwd(cwd, sizeof(cwd)) ? cwd : "";
}

constexpr configEnum aof_fsync_enum[] = {
    {"everysec", AOF_FSYNC_EVERYSEC}, {"always", AOF_FSYNC_ALWAYS}, {"no", AOF_FSYNC_NO}};

bool updateJemallocBgThread(const char **) {
    set_jemalloc_bg_thread(server.jemalloc_bg_thread);
    return true;
}

bool updateHZ(const char **) {
    server.config_hz = std::clamp(server.config_hz, CONFIG_MIN_HZ, CONFIG_MAX_HZ);
    server.hz = server.config_hz;
    return true;
}

/* port and bind re-listen at once (initServer listens the first time). */
bool updatePort(const char **err) {
    if (!server.el || changeListenPort(server.port) == C_OK) return true;
    *err = "Unable to listen on this port. Check server logs.";
    return false;
}

bool applyBind(const char **err) {
    if (!server.el || changeBindAddr() == C_OK) return true;
    *err = "Failed to bind to specified addresses.";
    return false;
}

SetResult setBindAddresses(std::span<const std::string> args, std::string &err) {
    if (args.size() > static_cast<size_t>(CONFIG_BINDADDR_MAX)) {
        err = "Too many bind addresses specified.";
        return SetResult::Error;
    }
    if (args.size() == 1 && args[0].empty()) args = {}; /* bind "": listen nowhere */
    server.bindaddr.assign(args.begin(), args.end());
    return SetResult::Changed;
}

std::string getBindAddresses() {
    std::string out;
    for (const std::string &addr : server.bindaddr) {
        if (!out.empty()) out += ' ';
        out += addr;
    }
    return out;
}

/* The soft seconds as Redis reads them: strtoll over the whole word (blanks
 * and a sign allowed, "" is 0), kept in an int, refused if negative. */
bool parseSoftLimitSeconds(const std::string &word, time_t *seconds) {
    char *end;
    int value = static_cast<int>(strtoll(word.c_str(), &end, 10));
    if (*end != '\0' || value < 0) return false;
    *seconds = value;
    return true;
}

/* client-output-buffer-limit <class> <hard> <soft> <soft seconds> ...: each
 * group sets one class; nothing is set unless every group is valid. */
SetResult setClientOutputBufferLimit(std::span<const std::string> args, std::string &err) {
    if (args.size() % 4) {
        err = "Wrong number of arguments in buffer limit configuration.";
        return SetResult::Error;
    }
    clientBufferLimitsConfig limits[CLIENT_TYPE_OBUF_COUNT];
    std::copy(std::begin(server.client_obuf_limits), std::end(server.client_obuf_limits), limits);
    for (size_t j = 0; j < args.size(); j += 4) {
        int type = getClientTypeByName(args[j]);
        if (type == -1 || type == CLIENT_TYPE_MASTER) {
            err = "Invalid client class specified in buffer limit configuration.";
            return SetResult::Error;
        }
        bool hard_err, soft_err;
        clientBufferLimitsConfig &limit = limits[type];
        limit.hard_limit_bytes = memtoull(args[j + 1], &hard_err);
        limit.soft_limit_bytes = memtoull(args[j + 2], &soft_err);
        if (hard_err || soft_err || !parseSoftLimitSeconds(args[j + 3], &limit.soft_limit_seconds)) {
            err = "Error in hard, soft or soft_seconds setting in buffer limit configuration.";
            return SetResult::Error;
        }
    }
    std::copy(std::begin(limits), std::end(limits), server.client_obuf_limits);
    return SetResult::Changed;
}

std::string getClientOutputBufferLimit() {
    std::string out;
    for (int type = 0; type < CLIENT_TYPE_OBUF_COUNT; type++) {
        const clientBufferLimitsConfig &limit = server.client_obuf_limits[type];
        char buf[128];
        snprintf(buf, sizeof(buf), "%s%s %llu %llu %ld", type ? " " : "", getClientTypeName(type),
                 limit.hard_limit_bytes, limit.soft_limit_bytes, static_cast<long>(limit.soft_limit_seconds));
        out += buf;
    }
    return out;
}

/* ------------------------------------------------------------------------
 * The table
 * ---------------------------------------------------------------------- */

/* constinit: registerConfigApply and registerSpecialConfig fill rows in
 * from other files' static initializers, which must find it built. */
constinit standardConfig configs[] = {
    {"bind", nullptr, MULTI_ARG_CONFIG, "127.0.0.1 -::1", SpecialConfig{setBindAddresses, getBindAddresses},
     applyBind},
    {"protected-mode", nullptr, 0, "yes", BoolConfig{&server.protected_mode}},
    {"enable-debug-command", nullptr, IMMUTABLE_CONFIG, "no", EnumConfig{&server.enable_debug_cmd, protected_action_enum}},
    {"save", nullptr, MULTI_ARG_CONFIG, "3600 1 300 100 60 10000", SpecialConfig{setSaveParams, getSaveParams}},
    {"appendonly", nullptr, 0, "no", BoolConfig{&server.aof_enabled}}, /* apply: aof.cpp registers it */
    {"port", nullptr, 0, "6379", NumericConfig{&server.port, 0, 65535}, updatePort},
    {"tcp-backlog", nullptr, IMMUTABLE_CONFIG, "511", NumericConfig{&server.tcp_backlog, 0, INT_MAX}},
    {"timeout", nullptr, 0, "0", NumericConfig{&server.maxidletime, 0, INT_MAX}},
    {"tcp-keepalive", nullptr, 0, "300", NumericConfig{&server.tcpkeepalive, 0, INT_MAX}},
    {"daemonize", nullptr, IMMUTABLE_CONFIG, "no", BoolConfig{&server.daemonize}},
    {"pidfile", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.pidfile}},
    {"loglevel", nullptr, 0, "notice", EnumConfig{&server.verbosity, loglevel_enum}},
    {"logfile", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.logfile}},
    {"databases", nullptr, IMMUTABLE_CONFIG, "16", NumericConfig{&server.dbnum, 1, INT_MAX}},
    {"maxclients", nullptr, 0, "10000", NumericConfig{&server.maxclients, 1, UINT_MAX}, updateMaxclients},
    {"hz", nullptr, 0, "10", NumericConfig{&server.config_hz, 0, INT_MAX}, updateHZ},
    {"jemalloc-bg-thread", nullptr, 0, "yes", BoolConfig{&server.jemalloc_bg_thread}, updateJemallocBgThread},
    {"proto-max-bulk-len", nullptr, 0, "512mb",
     NumericConfig{&server.proto_max_bulk_len, 1024 * 1024, LONG_MAX, true}},
    {"client-query-buffer-limit", nullptr, 0, "1gb",
     NumericConfig{&server.client_max_querybuf_len, 1024 * 1024, LONG_MAX, true}},
    {"list-max-ziplist-entries", nullptr, 0, "512", NumericConfig{&server.list_max_ziplist_entries, 0, LONG_MAX}},
    {"list-max-ziplist-value", nullptr, 0, "64", NumericConfig{&server.list_max_ziplist_value, 0, LONG_MAX}},
    {"hash-max-ziplist-entries", "hash-max-listpack-entries", 0, "512", NumericConfig{&server.hash_max_ziplist_entries, 0, LONG_MAX}},
    {"hash-max-ziplist-value", "hash-max-listpack-value", 0, "64", NumericConfig{&server.hash_max_ziplist_value, 0, LONG_MAX}},
    {"set-max-intset-entries", nullptr, 0, "512", NumericConfig{&server.set_max_intset_entries, 0, LONG_MAX}},
    {"zset-max-ziplist-entries", "zset-max-listpack-entries", 0, "128", NumericConfig{&server.zset_max_ziplist_entries, 0, LONG_MAX}},
    {"zset-max-ziplist-value", "zset-max-listpack-value", 0, "64", NumericConfig{&server.zset_max_ziplist_value, 0, LONG_MAX}},
    /* AOF persistence (aof.cpp) */
    {"appendfilename", nullptr, IMMUTABLE_CONFIG, "appendonly.aof", StringConfig{&server.aof_filename}},
    {"appendfsync", nullptr, 0, "everysec", EnumConfig{&server.aof_fsync, aof_fsync_enum}},
    {"no-appendfsync-on-rewrite", nullptr, 0, "no", BoolConfig{&server.aof_no_fsync_on_rewrite}},
    {"aof-load-truncated", nullptr, 0, "yes", BoolConfig{&server.aof_load_truncated}},
    {"aof-rewrite-incremental-fsync", nullptr, 0, "yes", BoolConfig{&server.aof_rewrite_incremental_fsync}},
    {"auto-aof-rewrite-percentage", nullptr, 0, "100", NumericConfig{&server.aof_rewrite_perc, 0, INT_MAX}},
    {"auto-aof-rewrite-min-size", nullptr, 0, "64mb",
     NumericConfig{&server.aof_rewrite_min_size, 0, LLONG_MAX, true}},
    /* Pub/sub, keyspace notifications, output buffer limits (pubsub.cpp, notify.cpp, networking.cpp) */
    {"notify-keyspace-events", nullptr, 0, "", SpecialConfig{}}, /* notify.cpp registers its functions */
    {"client-output-buffer-limit", nullptr, MULTI_ARG_CONFIG,
     "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60",
     SpecialConfig{setClientOutputBufferLimit, getClientOutputBufferLimit}},
    /* RDB persistence (rdb.cpp); `save` is near the top */
    {"dbfilename", nullptr, PROTECTED_CONFIG, "dump.rdb", SpecialConfig{setDbFilename, getDbFilename}},
    {"dir", nullptr, PROTECTED_CONFIG, "./", SpecialConfig{setDir, getDir}},
    {"rdbcompression", nullptr, 0, "yes", BoolConfig{&server.rdb_compression}},
    {"rdbchecksum", nullptr, IMMUTABLE_CONFIG, "yes", BoolConfig{&server.rdb_checksum}},
    {"rdb-save-incremental-fsync", nullptr, 0, "yes", BoolConfig{&server.rdb_save_incremental_fsync}},
    {"stop-writes-on-bgsave-error", nullptr, 0, "yes", BoolConfig{&server.stop_writes_on_bgsave_err}},
    {"rdb-key-save-delay", nullptr, HIDDEN_CONFIG, "0", NumericConfig{&server.rdb_key_save_delay, INT_MIN, INT_MAX}},
    {"enable-protected-configs", nullptr, IMMUTABLE_CONFIG, "no",
     EnumConfig{&server.enable_protected_configs, protected_action_enum}},
    /* Scripting (scripting.cpp) */
    {"busy-reply-threshold", "lua-time-limit", 0, "5000", NumericConfig{&server.busy_reply_threshold, 0, LONG_MAX}},
};

const standardConfig *lookupConfig(std::string_view name) {
    for (const standardConfig &config : configs)
        if (strEqualNoCase(name, config.name) || (config.alias && strEqualNoCase(name, config.alias)))
            return &config;
    return nullptr;
}

/* The row a module registers into. Runs before main(), when nothing can be
 * logged yet: a name not in the table is a bug, reported on stderr. */
standardConfig &configToRegister(const char *name) {
    for (standardConfig &config : configs)
        if (strcmp(config.name, name) == 0) return config;
    fprintf(stderr, "config: no config named '%s' to register\n", name);
    abort();
}

/* ------------------------------------------------------------------------
 * Parsing and printing values, one pair of functions per type
 * ---------------------------------------------------------------------- */

template <typename T>
SetResult assign(T &field, const T &value) {
    if (field == value) return SetResult::Unchanged;
    field = value;
    return SetResult::Changed;
}

SetResult setScalar(const BoolConfig &c, std::string_view arg, std::string &err) {
    if (strEqualNoCase(arg, "yes")) return assign(*c.field, true);
    if (strEqualNoCase(arg, "no")) return assign(*c.field, false);
    err = "argument must be 'yes' or 'no'";
    return SetResult::Error;
}

/* Bounds are checked as signed numbers: for the fields we have this gives
 * Redis's answers, since a memory value above LLONG_MAX wraps negative and
 * every lower bound is >= 0. */
SetResult setScalar(const NumericConfig &c, std::string_view arg, std::string &err) {
    long long value;
    if (c.memory) {
        bool bad;
        value = static_cast<long long>(memtoull(arg, &bad));
        if (bad) {
            err = "argument must be a memory value";
            return SetResult::Error;
        }
    } else if (!string2ll(arg, &value)) {
        err = "argument couldn't be parsed into an integer";
        return SetResult::Error;
    }
    if (value < c.lower || value > c.upper) {
        err = "argument must be between " + std::to_string(c.lower) + " and " + std::to_string(c.upper) + " inclusive";
        return SetResult::Error;
    }
    return std::visit(
        [value](auto *field) { return assign(*field, static_cast<std::remove_pointer_t<decltype(field)>>(value)); },
        c.field);
}

SetResult setScalar(const EnumConfig &c, std::string_view arg, std::string &err) {
    for (const configEnum &e : c.values)
        if (strEqualNoCase(arg, e.name)) return assign(*c.field, e.value);
    err = "argument(s) must be one of the following: ";
    for (const configEnum &e : c.values) {
        if (&e != &c.values.front()) err += ", ";
        err += e.name;
    }
    return SetResult::Error;
}

SetResult setScalar(const StringConfig &c, std::string_view arg, std::string &) {
    return assign(*c.field, std::string(arg));
}

std::string getValue(const BoolConfig &c) { return *c.field ? "yes" : "no"; }

std::string getValue(const NumericConfig &c) {
    char buf[LONG_STR_SIZE];
    long long value = std::visit([](auto *field) { return static_cast<long long>(*field); }, c.field);
    return std::string(buf, ll2string(buf, sizeof(buf), value));
}

std::string getValue(const EnumConfig &c) {
    for (const configEnum &e : c.values)
        if (e.value == *c.field) return e.name;
    return "";
}

std::string getValue(const StringConfig &c) { return *c.field; }
std::string getValue(const SpecialConfig &c) { return c.get(); }

/* `args` holds one word, except for MULTI_ARG_CONFIG configs. */
template <typename Type>
SetResult setValue(const Type &type, std::span<const std::string> args, std::string &err) {
    return setScalar(type, args[0], err);
}
SetResult setValue(const SpecialConfig &type, std::span<const std::string> args, std::string &err) {
    return type.set(args, err);
}

SetResult setConfig(const standardConfig &config, std::span<const std::string> args, std::string &err) {
    return std::visit([&](const auto &type) { return setValue(type, args, err); }, config.type);
}

std::string getConfigValue(const standardConfig &config) {
    return std::visit([](const auto &type) { return getValue(type); }, config.type);
}

/* CONFIG SET hands a multi-word config its value split on single spaces,
 * empty words kept (Redis uses sdssplitlen here, not sdssplitargs). */
std::vector<std::string> splitOnSpaces(std::string_view value) {
    std::vector<std::string> words;
    if (value.empty()) return words;
    for (auto word : std::views::split(value, ' ')) words.emplace_back(word.begin(), word.end());
    return words;
}

SetResult setConfigFromString(const standardConfig &config, std::string_view value, std::string &err) {
    std::vector<std::string> args =
        (config.flags & MULTI_ARG_CONFIG) ? splitOnSpaces(value) : std::vector<std::string>{std::string(value)};
    return setConfig(config, args, err);
}

/* ------------------------------------------------------------------------
 * Loading redis.conf
 * ---------------------------------------------------------------------- */

[[noreturn]] void fatalConfigError(const std::string &source, int linenum, std::string_view line,
                                   std::string_view reason) {
    fprintf(stderr, "\n*** FATAL CONFIG FILE ERROR (cppredis %s) ***\n", CPPREDIS_VERSION);
    if (linenum) {
        fprintf(stderr, "Reading the configuration file, at line %d of %s\n", linenum, source.c_str());
        fprintf(stderr, ">>> '%.*s'\n", static_cast<int>(line.size()), line.data());
    }
    fprintf(stderr, "%.*s\n", static_cast<int>(reason.size()), reason.data());
    exit(1);
}

void loadConfigFile(const std::string &path);

/* Applies one split, non-empty line. Returns false with the reason. */
bool loadDirective(const std::vector<std::string> &argv, std::string &err) {
    if (const standardConfig *config = lookupConfig(argv[0])) {
        if (!(config->flags & MULTI_ARG_CONFIG) && argv.size() != 2) {
            err = "wrong number of arguments";
            return false;
        }
        std::vector<std::string> args(argv.begin() + 1, argv.end());
        /* `bind "a b"` and `--bind "a b"` mean `bind a b`. As in Redis, a
         * word that does not split (unbalanced quotes) gives no argument. */
        if ((config->flags & MULTI_ARG_CONFIG) && args.size() == 1 && !args[0].empty())
            splitArgs(std::string(args[0]), args);
        return setConfig(*config, args, err) != SetResult::Error;
    }
    if (strEqualNoCase(argv[0], "include") && argv.size() == 2) {
        loadConfigFile(argv[1]);
        return true;
    }
    err = "Bad directive or wrong number of arguments";
    return false;
}

/* `source` names the text in error messages. */
void loadConfigFromString(std::string_view text, const std::string &source) {
    int linenum = 0;
    for (auto part : std::views::split(text, '\n')) {
        linenum++;
        std::string_view line(part.begin(), part.end());
        size_t first = line.find_first_not_of(" \t\r\n");
        if (first == std::string_view::npos) continue;
        line = line.substr(first, line.find_last_not_of(" \t\r\n") + 1 - first);
        if (line[0] == '#') continue;

        std::vector<std::string> argv;
        if (!splitArgs(line, argv)) fatalConfigError(source, linenum, line, "Unbalanced quotes in configuration line");
        if (argv.empty()) continue;
        std::string err;
        if (!loadDirective(argv, err)) fatalConfigError(source, linenum, line, err);
    }
}

void loadOneConfigFile(const std::string &path) {
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(path.c_str(), "r"), fclose);
    if (!fp) {
        serverLog(LL_WARNING, "Fatal error, can't open config file '%s': %s", path.c_str(), strerror(errno));
        exit(1);
    }
    std::string text;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof(buf), fp.get())) > 0;) text.append(buf, n);
    loadConfigFromString(text, "'" + path + "'");
}

/* A path with wildcards loads every match, and none is not an error: an
 * empty conf.d directory is fine (Redis 7). */
void loadConfigFile(const std::string &path) {
    if (path.find_first_of("*?[") == std::string::npos) return loadOneConfigFile(path);
    glob_t matches{};
    if (glob(path.c_str(), 0, nullptr, &matches) == 0) {
        std::unique_ptr<glob_t, void (*)(glob_t *)> guard(&matches, globfree);
        for (size_t i = 0; i < matches.gl_pathc; i++) loadOneConfigFile(matches.gl_pathv[i]);
    }
}

}  // namespace

/* ------------------------------------------------------------------------
 * Public API
 * ---------------------------------------------------------------------- */

bool registerConfigApply(const char *name, configApplyProc apply) {
    configToRegister(name).apply = apply;
    return true;
}

bool registerSpecialConfig(const char *name, configSetProc set, configGetProc get) {
    configToRegister(name).type = SpecialConfig{set, get};
    return true;
}

void initConfigValues() {
    for (const standardConfig &config : configs) {
        std::string err;
        setConfigFromString(config, config.default_value, err);
    }
    updateHZ(nullptr);
}

void loadServerConfig(const char *filename, const std::string &options) {
    reading_config_file = true;
    save_params_loaded = false;
    if (filename) loadConfigFile(filename);
    loadConfigFromString(options, "the command line");
    reading_config_file = false;
    /* Out-of-range hz is clamped, never refused (the apply hook of CONFIG SET). */
    updateHZ(nullptr);
    /* The log can't be opened later without failing silently: check now. */
    if (!server.logfile.empty()) {
        std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(server.logfile.c_str(), "a"), fclose);
        if (!fp) fatalConfigError("", 0, "", std::string("Can't open the log file: ") + strerror(errno));
    }
}

void parseCommandLine(int argc, char **argv, std::string &configfile, std::string &options) {
    configfile.clear();
    options.clear();
    int j = 1;
    if (argc >= 2 && argv[1][0] != '-') {
        configfile = std::filesystem::absolute(argv[1]).lexically_normal().string();
        j = 2;
    }
    bool from_stdin = false;
    bool last_option_has_value = true; /* else the next word is its value, even "--x" */
    for (; j < argc; j++) {
        std::string_view arg = argv[j];
        if (arg == "-" && (j == 1 || j == argc - 1)) {
            from_stdin = true;
        } else if (last_option_has_value && arg.starts_with("--")) {
            if (!options.empty()) options += '\n';
            options += arg.substr(2);
            options += ' ';
            /* "--port 6380" as a single word carries its own value. */
            std::vector<std::string> words;
            splitArgs(arg, words);
            last_option_has_value = words.size() != 1;
        } else {
            catRepr(options, arg);
            options += ' ';
            last_option_has_value = true;
        }
    }
    /* Redis reads stdin after the file and before the options. */
    if (from_stdin) options.insert(0, "include /dev/stdin\n");
}

std::vector<std::pair<std::string, std::string>> configGet(std::span<const std::string_view> patterns) {
    std::vector<std::pair<std::string, std::string>> found;
    auto seen = [&found](std::string_view name) {
        return std::any_of(found.begin(), found.end(), [name](const auto &f) { return strEqualNoCase(f.first, name); });
    };
    for (std::string_view pattern : patterns) {
        /* Without glob characters the name is looked up, aliases included,
         * and echoed as given. */
        if (pattern.find_first_of("[*?") == std::string_view::npos) {
            const standardConfig *config = lookupConfig(pattern);
            if (config && !seen(pattern)) found.emplace_back(pattern, getConfigValue(*config));
            continue;
        }
        /* A pattern matches names and aliases alike, and Redis lists each
         * one that matches (hash-max-ziplist-entries and its Redis 7 alias
         * hash-max-listpack-entries both answer "hash*"). */
        for (const standardConfig &config : configs) {
            for (const char *name : {config.name, config.alias}) {
                if (!name || seen(name) || (config.flags & HIDDEN_CONFIG)) continue;
                if (stringmatchlen(pattern, name, true)) found.emplace_back(name, getConfigValue(config));
            }
        }
    }
    return found;
}

bool configSet(std::span<const std::string_view> argv, std::string &err, bool protected_allowed) {
    struct Change {
        const standardConfig *config;
        std::string_view value;
        std::string old_value;
    };
    auto failed = [&err](std::string_view name, std::string_view reason) {
        err = "CONFIG SET failed (possibly related to argument '" + std::string(name) + "')";
        if (!reason.empty()) err += " - " + std::string(reason);
        return false;
    };

    std::vector<Change> changes;
    for (size_t i = 0; i + 1 < argv.size(); i += 2) {
        const standardConfig *config = lookupConfig(argv[i]);
        if (!config) {
            err = "Unknown option or number of arguments for CONFIG SET - '" + std::string(argv[i]) + "'";
            return false;
        }
        if (config->flags & IMMUTABLE_CONFIG) return failed(argv[i], "can't set immutable config");
        if ((config->flags & PROTECTED_CONFIG) && !protected_allowed)
            return failed(argv[i], "can't set protected config");
        if (std::any_of(changes.begin(), changes.end(), [config](const Change &c) { return c.config == config; }))
            return failed(argv[i], "duplicate parameter");
        changes.push_back({config, argv[i + 1], getConfigValue(*config)});
    }

    auto restore = [&changes](size_t count) {
        for (size_t i = 0; i < count; i++) {
            std::string ignored;
            setConfigFromString(*changes[i].config, changes[i].old_value, ignored);
        }
    };

    /* Set everything first, then apply: an apply hook (rebinding, resizing)
     * sees the final values, and runs once even if several configs share it. */
    std::vector<std::pair<bool (*)(const char **), const standardConfig *>> hooks;
    for (size_t i = 0; i < changes.size(); i++) {
        const standardConfig &config = *changes[i].config;
        std::string reason;
        SetResult res = setConfigFromString(config, changes[i].value, reason);
        if (res == SetResult::Error) {
            restore(i);
            return failed(config.name, reason);
        }
        bool known = std::any_of(hooks.begin(), hooks.end(), [&config](const auto &h) { return h.first == config.apply; });
        if (res == SetResult::Changed && config.apply && !known) hooks.emplace_back(config.apply, &config);
    }
    for (auto [apply, config] : hooks) {
        const char *reason = nullptr;
        if (apply(&reason)) continue;
        serverLog(LL_WARNING, "Failed applying new configuration. Possibly related to new %s setting. "
                              "Restoring previous settings.", config->name);
        std::string why = reason ? reason : "";
        restore(changes.size());
        for (const auto &hook : hooks) hook.first(&reason);
        return failed(config->name, why);
    }
    return true;
}

void configGetCommand(client *c) {
    auto found = configGet(std::span(c->argv).subspan(2));
    addReplyMapLen(c, static_cast<long long>(found.size()));
    for (const auto &[name, value] : found) {
        addReplyBulk(c, name);
        addReplyBulk(c, value);
    }
}

void configSetCommand(client *c) {
    if (c->argv.size() % 2) return addReplyErrorObject(c, shared::syntaxerr);
    std::string err;
    bool protected_allowed = allowProtectedAction(server.enable_protected_configs, c);
    if (!configSet(std::span(c->argv).subspan(2), err, protected_allowed)) return addReplyError(c, err);
    addReply(c, shared::ok);
}

void configResetStatCommand(client *c) {
    resetServerStats();
    addReply(c, shared::ok);
}

void configHelpCommand(client *c) {
    static const char *const help[] = {
        "GET <pattern>",
        "    Return parameters matching the glob-like <pattern> and their values.",
        "SET <directive> <value>",
        "    Set the configuration <directive> to <value>.",
        "RESETSTAT",
        "    Reset statistics reported by the INFO command.",
        nullptr,
    };
    addReplyHelp(c, help);
}
