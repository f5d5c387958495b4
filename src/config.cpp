/* config.cpp — the configuration's machinery (Redis's config.c, all but its
 * table): parsing and printing each type of config, loading redis.conf and
 * the command line, and the logic of CONFIG GET, CONFIG SET and CONFIG
 * REWRITE (see config.h; the table is config_table.cpp).
 *
 * Values travel as strings between the loader, CONFIG SET and CONFIG GET,
 * exactly as in Redis, so one parser and one printer per type serve them
 * all (CONFIG REWRITE too, for the special configs). Invariants:
 *  - getConfigValue() output is always accepted back by setConfigFromString()
 *    (CONFIG SET relies on it to roll back).
 *  - Apply hooks never run while loading the configuration: the server they
 *    would act on (listeners, clients) does not exist yet.
 */
#include "config.h"

#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <ranges>
#include <set>
#include <type_traits>

#include "log.h"
#include "util.h"
#include "version.h"

namespace {

/* The table (config_table.cpp), handed over by initConfigValues. */
std::span<const standardConfig> configs;
std::span<const refusedConfig> refused_configs;

/* The APPEND_IN_FILE_CONFIG configs already set by a line of the load in
 * progress (appendToEarlierLines). */
std::vector<const standardConfig *> configs_loaded;

/* Redis 7.0's reading_config_file: true while a load runs, false from the
 * end of an `include` on, so that every later line of an
 * APPEND_IN_FILE_CONFIG replaces the value instead of adding to it (its
 * precedence, which we keep: `save` lines after an include, or on the
 * command line after a file with an include, replace the points). */
bool reading_config_file = false;

/* One line per accepted-without-effect directive loaded, for the log
 * (logConfigWarnings: the log file is open by then). */
std::vector<std::string> no_effect_warnings;

}  // namespace

const standardConfig *lookupConfig(std::string_view name) {
    for (const standardConfig &config : configs)
        if (strEqualNoCase(name, config.name) || (config.alias && strEqualNoCase(name, config.alias)))
            return &config;
    return nullptr;
}

namespace {

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

/* A value of c as CONFIG GET prints it (memory as plain bytes). */
std::string formatNumeric(const NumericConfig &c, long long value) {
    char buf[LONG_STR_SIZE];
    if (c.octal) return std::string(buf, snprintf(buf, sizeof(buf), "%llo", static_cast<unsigned long long>(value)));
    return std::string(buf, ll2string(buf, sizeof(buf), value));
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
    } else if (c.octal) {
        /* strtoll as Redis calls it: "" reads as 0, a sign is accepted. */
        std::string text(arg);
        char *end;
        errno = 0;
        value = strtoll(text.c_str(), &end, 8);
        if (errno != 0 || *end != '\0') {
            err = "argument couldn't be parsed as an octal number";
            return SetResult::Error;
        }
    } else if (!string2ll(arg, &value)) {
        err = "argument couldn't be parsed into an integer";
        return SetResult::Error;
    }
    if (value < c.lower || value > c.upper) {
        err = "argument must be between " + formatNumeric(c, c.lower) + " and " + formatNumeric(c, c.upper) +
              " inclusive";
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
    return formatNumeric(c, std::visit([](auto *field) { return static_cast<long long>(*field); }, c.field));
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
    if (first || !reading_config_file) {
        if (first) configs_loaded.push_back(&config);
        return;
    }
    if (args.size() == 1 && args[0].empty()) return;
    std::vector<std::string> earlier = splitOnSpaces(getConfigValue(config));
    args.insert(args.begin(), earlier.begin(), earlier.end());
}

/* The log line for a config accepted without effect, now at a value
 * cppredis does not honour; "" if none is due. */
std::string noEffectWarning(const standardConfig &config) {
    if (!config.no_effect || (config.honoured && strEqualNoCase(getConfigValue(config), config.honoured))) return "";
    return "WARNING: '" + std::string(config.name) + " " + getConfigValue(config) +
           "' is accepted without effect: " + config.no_effect;
}

std::vector<configDirective> &directives() {
    static std::vector<configDirective> registered; /* installServerHooks fills it */
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
        if (setConfig(*config, args, err) == SetResult::Error) return false;
        if (std::string warning = noEffectWarning(*config); !warning.empty()) no_effect_warnings.push_back(warning);
        return true;
    }
    if (const configDirective *d = lookupDirective(argv[0]); d && argv.size() >= 2) return d->load(argv, err);
    if (strEqualNoCase(argv[0], "include") && argv.size() == 2) {
        reading_config_file = true;
        loadConfigFile(argv[1]);
        reading_config_file = false;
        return true;
    }
    err = "Bad directive or wrong number of arguments";
    /* Redis's own directives that cppredis refuses say so, and why. */
    for (const refusedConfig &refused : refused_configs)
        if (stringmatchlen(refused.pattern, argv[0], true)) {
            err += "\n'" + argv[0] + "' is a Redis 7.0 directive that cppredis does not implement: " + refused.reason;
            break;
        }
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

/* ------------------------------------------------------------------------
 * CONFIG REWRITE (Redis's rewriteConfig)
 *
 * The old file is read into lines, and each line holding an option is
 * filed under the option's name (aliases under the primary name). Then
 * every config and directive gives its line(s): each one takes the place
 * of the option's next old line, or is appended at the end. Old lines an
 * option did not use are blanked; lines of options nobody rewrites
 * (`include`) stay as they were.
 * ---------------------------------------------------------------------- */

constexpr std::string_view REDIS_CONFIG_REWRITE_SIGNATURE = "# Generated by CONFIG REWRITE";

/* The name under which a line of the file is filed, or "" if cppredis
 * would not read it (such lines are kept as comments). */
std::string rewriteOptionName(std::string_view word) {
    if (const standardConfig *config = lookupConfig(word)) return config->name;
    if (const configDirective *d = lookupDirective(word)) return d->name;
    if (strEqualNoCase(word, "include")) return "include";
    return "";
}

class rewriteConfigState {
public:
    /* rewriteConfigReadOldFile's parsing of the old file's text. */
    explicit rewriteConfigState(std::string_view old_content) {
        if (old_content.empty()) return;
        for (auto part : std::views::split(old_content, '\n')) {
            std::string_view line(part.begin(), part.end());
            size_t first = line.find_first_not_of("\r\n\t ");
            line = first == std::string_view::npos ? "" : line.substr(first, line.find_last_not_of("\r\n\t ") + 1 - first);
            if (line.empty() || line[0] == '#') {
                if (line == REDIS_CONFIG_REWRITE_SIGNATURE) needs_signature = false;
                lines.emplace_back(line);
                continue;
            }
            std::vector<std::string> argv;
            std::string option;
            if (splitArgs(line, argv) && !argv.empty()) option = rewriteOptionName(argv[0]);
            if (option.empty()) {
                lines.push_back("# ??? " + std::string(line));
                continue;
            }
            option_to_line[option].push_back(lines.size());
            lines.emplace_back(line);
        }
    }

    /* Only options marked processed lose their unused old lines. */
    void markAsProcessed(const std::string &option) { rewritten.insert(option); }

    /* `line` replaces the option's next old line; without one it is
     * appended if `force` (the value is not the default), else dropped. */
    void rewriteLine(const std::string &option, std::string line, bool force) {
        markAsProcessed(option);
        auto old = option_to_line.find(option);
        if (old != option_to_line.end()) {
            lines[old->second.front()] = std::move(line);
            old->second.pop_front();
            if (old->second.empty()) option_to_line.erase(old);
            return;
        }
        if (!force) return;
        if (needs_signature) {
            lines.emplace_back(REDIS_CONFIG_REWRITE_SIGNATURE);
            needs_signature = false;
        }
        lines.push_back(std::move(line));
    }

    /* rewriteConfigRemoveOrphaned then rewriteConfigGetContentFromState:
     * each run of empty lines becomes one. */
    std::string content() {
        for (auto &[option, numbers] : option_to_line)
            if (rewritten.contains(option))
                for (size_t n : numbers) lines[n].clear();
        std::string out;
        bool was_empty = false;
        for (const std::string &line : lines) {
            if (line.empty() && was_empty) continue;
            was_empty = line.empty();
            out += line;
            out += '\n';
        }
        return out;
    }

private:
    std::vector<std::string> lines;
    std::map<std::string, std::deque<size_t>> option_to_line; /* old line numbers, in order */
    std::set<std::string> rewritten;
    bool needs_signature = true;
};

/* Bytes as redis.conf writes them: in gb, mb or kb when exact. */
std::string rewriteConfigFormatMemory(long long bytes) {
    constexpr long long kb = 1024, mb = 1024 * kb, gb = 1024 * mb;
    if (bytes && bytes % gb == 0) return std::to_string(bytes / gb) + "gb";
    if (bytes && bytes % mb == 0) return std::to_string(bytes / mb) + "mb";
    if (bytes && bytes % kb == 0) return std::to_string(bytes / kb) + "kb";
    return std::to_string(bytes);
}

std::string quoted(const std::string &name, std::string_view value) {
    std::string line = name + " ";
    catRepr(line, value);
    return line;
}

/* A string empty by default and now is what Redis calls unset (NULL:
 * requirepass, masterauth, pidfile...): it gets no line at all, and loses
 * the ones it had, so that the next start leaves it unset too; unless its
 * "" is a value (EMPTY_IS_VALUE_CONFIG: a `logfile ""` line stays, as in
 * Redis). */
void rewriteConfigStringOption(rewriteConfigState &state, const std::string &name, const std::string &value,
                               std::string_view default_value, bool empty_is_value = false) {
    if (value.empty() && default_value.empty() && !empty_is_value) return state.markAsProcessed(name);
    state.rewriteLine(name, quoted(name, value), value != default_value);
}

long long parseDefault(const NumericConfig &c, const char *default_value) {
    bool bad = false;
    long long value = 0;
    if (c.memory) value = static_cast<long long>(memtoull(default_value, &bad));
    else if (c.octal) value = strtoll(default_value, nullptr, 8);
    else string2ll(default_value, &value);
    return value;
}

void rewriteConfigNumericalOption(rewriteConfigState &state, const std::string &name, long long value,
                                  long long default_value) {
    state.rewriteLine(name, name + " " + std::to_string(value), value != default_value);
}

void rewriteTyped(rewriteConfigState &state, const standardConfig &config, const BoolConfig &c) {
    bool value = *c.field;
    state.rewriteLine(config.name, std::string(config.name) + (value ? " yes" : " no"),
                      value != strEqualNoCase(config.default_value, "yes"));
}

void rewriteTyped(rewriteConfigState &state, const standardConfig &config, const NumericConfig &c) {
    long long value = std::visit([](auto *field) { return static_cast<long long>(*field); }, c.field);
    long long default_value = parseDefault(c, config.default_value);
    if (c.octal) return state.rewriteLine(config.name, std::string(config.name) + " " + formatNumeric(c, value),
                                          value != default_value);
    if (!c.memory) return rewriteConfigNumericalOption(state, config.name, value, default_value);
    state.rewriteLine(config.name, std::string(config.name) + " " + rewriteConfigFormatMemory(value),
                      value != default_value);
}

void rewriteTyped(rewriteConfigState &state, const standardConfig &config, const EnumConfig &c) {
    std::string value = getValue(c);
    state.rewriteLine(config.name, std::string(config.name) + " " + value, !strEqualNoCase(value, config.default_value));
}

void rewriteTyped(rewriteConfigState &state, const standardConfig &config, const StringConfig &c) {
    rewriteConfigStringOption(state, config.name, *c.field, config.default_value, config.flags & EMPTY_IS_VALUE_CONFIG);
}

/* The special configs are written as Redis writes each of them (its own
 * rewrite function in config.c), from the value CONFIG GET prints. */

/* One `save <seconds> <changes>` line per point, or `save ""` for none:
 * always written, else the defaults would come back at the next start. */
void rewriteConfigSaveOption(rewriteConfigState &state, const standardConfig &config) {
    std::vector<std::string> words = splitOnSpaces(getConfigValue(config));
    if (words.empty()) state.rewriteLine(config.name, "save \"\"", true);
    for (size_t j = 0; j + 1 < words.size(); j += 2)
        state.rewriteLine(config.name, "save " + words[j] + " " + words[j + 1], true);
    state.markAsProcessed(config.name);
}

/* The default addresses get no line of their own, but keep the file's:
 * Redis's default ("* -::*") is not cppredis's, so Debian's `bind
 * 127.0.0.1 -::1` is not a default to Redis and stays, as here. */
void rewriteConfigBindOption(rewriteConfigState &state, const standardConfig &config) {
    std::string value = getConfigValue(config);
    state.rewriteLine(config.name, "bind " + (value.empty() ? std::string("\"\"") : value), value != config.default_value);
}

/* Always written, as an absolute path. */
void rewriteConfigDirOption(rewriteConfigState &state, const standardConfig &config) {
    std::string cwd = getConfigValue(config);
    if (cwd.empty()) return state.markAsProcessed(config.name); /* getcwd failed: no rewrite */
    state.rewriteLine(config.name, quoted(config.name, cwd), true);
}

void rewriteConfigNotifyKeyspaceEventsOption(rewriteConfigState &state, const standardConfig &config) {
    std::string flags = getConfigValue(config);
    state.rewriteLine(config.name, quoted(config.name, flags), !flags.empty());
}

/* One line per class, "replica" for the replicas' one, each written if it
 * differs from its default (or was in the file). */
void rewriteConfigClientOutputBufferLimitOption(rewriteConfigState &state, const standardConfig &config) {
    std::vector<std::string> words = splitOnSpaces(getConfigValue(config));
    std::vector<std::string> defaults = splitOnSpaces(config.default_value);
    for (size_t j = 0; j + 3 < words.size(); j += 4) {
        bool force = !std::equal(words.begin() + j, words.begin() + j + 4, defaults.begin() + j);
        bool ignored;
        std::string line = std::string(config.name) + " " + (words[j] == "slave" ? "replica" : words[j]);
        for (size_t k = j + 1; k < j + 3; k++)
            line += " " + rewriteConfigFormatMemory(static_cast<long long>(memtoull(words[k], &ignored)));
        state.rewriteLine(config.name, line + " " + words[j + 3], force);
    }
}

/* hz is a plain number in Redis (special here only for its clamping). */
void rewriteConfigHzOption(rewriteConfigState &state, const standardConfig &config) {
    long long value = 0, default_value = 0;
    string2ll(getConfigValue(config), &value);
    string2ll(config.default_value, &default_value);
    rewriteConfigNumericalOption(state, config.name, value, default_value);
}

struct specialConfigRewrite {
    std::string_view name;
    void (*rewrite)(rewriteConfigState &, const standardConfig &);
};
constexpr specialConfigRewrite special_rewrites[] = {
    {"save", rewriteConfigSaveOption},
    {"bind", rewriteConfigBindOption},
    {"dir", rewriteConfigDirOption},
    {"notify-keyspace-events", rewriteConfigNotifyKeyspaceEventsOption},
    {"client-output-buffer-limit", rewriteConfigClientOutputBufferLimitOption},
    {"hz", rewriteConfigHzOption},
};

/* Any other special config is a string to Redis (dbfilename...), or if it
 * takes several words, its words unquoted (oom-score-adj-values 0 200 800,
 * shutdown-on-sigint now force). */
void rewriteTyped(rewriteConfigState &state, const standardConfig &config, const SpecialConfig &) {
    for (const specialConfigRewrite &special : special_rewrites)
        if (special.name == config.name) return special.rewrite(state, config);
    std::string value = getConfigValue(config);
    if (!(config.flags & MULTI_ARG_CONFIG) || value.empty())
        return rewriteConfigStringOption(state, config.name, value, config.default_value);
    state.rewriteLine(config.name, std::string(config.name) + " " + value, value != config.default_value);
}

/* A registered directive's lines are always written (`user`, `replicaof`):
 * none means the directive must go from the file. Without a rewrite
 * function its lines stay as they are (`rename-command`, as in Redis). */
void rewriteConfigDirective(rewriteConfigState &state, const configDirective &d) {
    if (!d.rewrite) return;
    for (std::string &line : d.rewrite()) state.rewriteLine(d.name, std::move(line), true);
    state.markAsProcessed(d.name);
}

/* The old file's bytes and mode. A missing file reads as empty, to be
 * created with Redis's mode (0644 less the umask). False with errno set. */
bool rewriteConfigReadOldFile(const std::string &path, std::string &content, mode_t &mode) {
    content.clear();
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(path.c_str(), "r"), fclose);
    if (!fp) {
        if (errno != ENOENT) return false;
        mode_t mask = umask(0); /* umask can only be read by setting it */
        umask(mask);
        mode = 0644 & ~mask;
        return true;
    }
    struct stat sb;
    if (fstat(fileno(fp.get()), &sb) == -1) return false;
    mode = sb.st_mode & 07777;
    char buf[16 * 1024];
    for (size_t n; (n = fread(buf, 1, sizeof(buf), fp.get())) > 0;) content.append(buf, n);
    return !ferror(fp.get());
}

bool writeAll(int fd, std::string_view content) {
    size_t offset = 0;
    while (offset < content.size()) {
        ssize_t written = write(fd, content.data() + offset, content.size() - offset);
        if (written > 0) {
            offset += static_cast<size_t>(written);
            continue;
        }
        if (written == -1 && errno == EINTR) continue;
        if (written == 0) errno = ENOSPC;
        serverLog(LL_WARNING, "Failed after writing (%zu) bytes to tmp config file (%s)", offset, strerror(errno));
        return false;
    }
    return true;
}

/* Redis's rewriteConfigOverwriteFile: a temp file in the same directory,
 * written, fsynced, given `mode`, renamed over the old one, and the
 * directory fsynced. On failure the temp file is removed and errno kept. */
bool rewriteConfigOverwriteFile(const std::string &path, std::string_view content, mode_t mode) {
    std::string tmp = path + ".XXXXXX";
    int fd = mkostemp(tmp.data(), O_CLOEXEC);
    if (fd == -1) {
        serverLog(LL_WARNING, "Could not create tmp config file (%s)", strerror(errno));
        return false;
    }
    auto failed = [](const char *what) {
        serverLog(LL_WARNING, "%s (%s)", what, strerror(errno));
        return false;
    };
    bool ok = writeAll(fd, content) && (fsync(fd) == 0 || failed("Could not sync tmp config file to disk")) &&
              (fchmod(fd, mode) == 0 || failed("Could not chmod config file")) &&
              (rename(tmp.c_str(), path.c_str()) == 0 || failed("Could not rename tmp config file")) &&
              (fsyncFileDir(path.c_str()) == 0 || failed("Could not sync config file dir"));
    int saved_errno = errno;
    close(fd);
    if (!ok) unlink(tmp.c_str());
    errno = saved_errno;
    return ok;
}

}  // namespace

/* ------------------------------------------------------------------------
 * Public API
 * ---------------------------------------------------------------------- */

void registerConfigDirective(const configDirective &directive) {
    directives().push_back(directive);
}

void initConfigValues(std::span<const standardConfig> table, std::span<const refusedConfig> refused) {
    configs = table;
    refused_configs = refused;
    for (const standardConfig &config : configs) {
        std::string err;
        setConfigFromString(config, config.default_value, err);
    }
}

void loadServerConfig(const char *filename, const std::string &options) {
    configs_loaded.clear();
    no_effect_warnings.clear();
    reading_config_file = true;
    if (filename) loadConfigFile(filename);
    loadConfigFromString(options, "the command line");
    /* The log can't be opened later without failing silently: check now. */
    if (!logging::server.logfile.empty()) {
        std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(logging::server.logfile.c_str(), "a"), fclose);
        if (!fp) fatalConfigError("", 0, "", std::string("Can't open the log file: ") + strerror(errno));
    }
}

void logConfigWarnings() {
    for (const std::string &warning : no_effect_warnings) serverLog(LL_WARNING, "%s", warning.c_str());
    no_effect_warnings.clear();
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
        std::string_view name; /* its name or alias, whichever was given: Redis's errors name it */
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
        bool by_alias = config->alias && strEqualNoCase(argv[i], config->alias);
        changes.push_back({config, by_alias ? config->alias : config->name, argv[i + 1], getConfigValue(*config)});
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
            return failed(changes[i].name, reason);
        }
        if (std::string warning = noEffectWarning(config); res == SetResult::Changed && !warning.empty())
            serverLog(LL_WARNING, "%s", warning.c_str());
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

std::string rewriteConfigContent(std::string_view old_content) {
    rewriteConfigState state(old_content);
    for (const standardConfig &config : configs)
        std::visit([&](const auto &type) { rewriteTyped(state, config, type); }, config.type);
    for (const configDirective &d : directives()) rewriteConfigDirective(state, d);
    return state.content();
}

bool rewriteConfig(const std::string &path) {
    std::string old_content;
    mode_t mode;
    if (!rewriteConfigReadOldFile(path, old_content, mode)) return false;
    return rewriteConfigOverwriteFile(path, rewriteConfigContent(old_content), mode);
}
