/* config.cpp — the configuration's machinery: parsing and printing each
 * type of config, loading redis.conf and the command line, and the logic of
 * CONFIG GET and CONFIG SET (see config.h; the table is config_table.cpp).
 *
 * Values travel as strings between the loader, CONFIG SET and CONFIG GET,
 * exactly as in Redis, so one parser and one printer per type serve them
 * all. Invariants:
 *  - getConfigValue() output is always accepted back by setConfigFromString()
 *    (CONFIG SET relies on it to roll back).
 *  - Apply hooks never run while loading the configuration: the server they
 *    would act on (listeners, clients) does not exist yet.
 */
#include "config.h"

#include <glob.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <ranges>
#include <type_traits>

#include "log.h"
#include "util.h"
#include "version.h"

namespace {

/* The table (config_table.cpp), handed over by initConfigValues. */
std::span<const standardConfig> configs;

/* The APPEND_IN_FILE_CONFIG configs already set by a line of the load in
 * progress (appendToEarlierLines). */
std::vector<const standardConfig *> configs_loaded;

const standardConfig *lookupConfig(std::string_view name) {
    for (const standardConfig &config : configs)
        if (strEqualNoCase(name, config.name) || (config.alias && strEqualNoCase(name, config.alias)))
            return &config;
    return nullptr;
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
SetResult setScalarNumeric(const NumericConfig &c, std::string_view arg, std::string &err) {
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

SetResult setScalar(const NumericConfig &c, std::string_view arg, std::string &err) {
    return setScalarNumeric(c, arg, err);
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

/* An APPEND_IN_FILE_CONFIG's second and later lines in one load add their
 * words to what the earlier lines set (`save 900 1` then `save 300 10`: both
 * points); the first line replaces the default. An empty value (`save ""`,
 * or `--save ""` after a file) empties it, whatever came before, as in
 * Redis. */
void appendToEarlierLines(const standardConfig &config, std::vector<std::string> &args) {
    bool first = std::find(configs_loaded.begin(), configs_loaded.end(), &config) == configs_loaded.end();
    if (first) {
        configs_loaded.push_back(&config);
        return;
    }
    if (args.size() == 1 && args[0].empty()) return;
    std::vector<std::string> earlier = splitOnSpaces(getConfigValue(config));
    args.insert(args.begin(), earlier.begin(), earlier.end());
}

std::vector<configDirective> &directives() {
    static std::vector<configDirective> registered; /* filled by static initializers: built on first use */
    return registered;
}

const configDirective *lookupDirective(std::string_view name) {
    for (const configDirective &d : directives())
        if (strEqualNoCase(name, d.name) || (d.alias && strEqualNoCase(name, d.alias))) return &d;
    return nullptr;
}

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
        if (config->flags & APPEND_IN_FILE_CONFIG) appendToEarlierLines(*config, args);
        return setConfig(*config, args, err) != SetResult::Error;
    }
    if (const configDirective *d = lookupDirective(argv[0]); d && argv.size() >= 2) return d->load(argv, err);
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

bool registerConfigDirective(const configDirective &directive) {
    directives().push_back(directive);
    return true;
}

void initConfigValues(std::span<const standardConfig> table) {
    configs = table;
    for (const standardConfig &config : configs) {
        std::string err;
        setConfigFromString(config, config.default_value, err);
    }
}

void loadServerConfig(const char *filename, const std::string &options) {
    configs_loaded.clear();
    if (filename) loadConfigFile(filename);
    loadConfigFromString(options, "the command line");
    /* The log can't be opened later without failing silently: check now. */
    if (!logging::server.logfile.empty()) {
        std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(logging::server.logfile.c_str(), "a"), fclose);
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

SetResult setNumericConfig(const NumericConfig &c, std::string_view arg, std::string &err) {
    return setScalarNumeric(c, arg, err);
}
