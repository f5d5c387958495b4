/* config_table.cpp — the configs' table (Redis's config.c, static_configs[]):
 * for every directive its name, alias, flags, default (written as in
 * redis.conf), the field of `server` it sets, and the apply hook CONFIG SET
 * runs after changing it; with the parsers and printers of the special
 * ones. The machinery that reads it is config.cpp.
 *
 * It sits at the top of the layers (tools/check_layers.sh): its rows bind
 * fields and apply hooks of every layer, down to the AOF's. In Redis it is
 * in config.c itself.
 */
#include "config_table.h"

#include <syslog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "acl.h"
#include "aof.h"
#include "evict.h"
#include "notify.h"
#include "replication.h"
#include "server.h"
#include "tls.h"
#include "livetrace_output.h"
#include "util.h"
#include "zmalloc.h"

namespace {

/* Running as a service: who supervises the server, and where syslog
 * files its log (Redis's facility names). */
constexpr configEnum supervised_mode_enum[] = {
    {"upstart", SUPERVISED_UPSTART}, {"systemd", SUPERVISED_SYSTEMD}, {"auto", SUPERVISED_AUTODETECT},
    {"no", SUPERVISED_NONE}};
constexpr configEnum syslog_facility_enum[] = {
    {"user", LOG_USER},     {"local0", LOG_LOCAL0}, {"local1", LOG_LOCAL1}, {"local2", LOG_LOCAL2},
    {"local3", LOG_LOCAL3}, {"local4", LOG_LOCAL4}, {"local5", LOG_LOCAL5}, {"local6", LOG_LOCAL6},
    {"local7", LOG_LOCAL7}};

constexpr configEnum loglevel_enum[] = {
    {"debug", LL_DEBUG}, {"verbose", LL_VERBOSE}, {"notice", LL_NOTICE}, {"warning", LL_WARNING}};

/* enable-debug-command: who may run DEBUG (Redis 7's protected actions). */
constexpr configEnum protected_action_enum[] = {
    {"no", PROTECTED_ACTION_ALLOWED_NO}, {"yes", PROTECTED_ACTION_ALLOWED_YES},
    {"local", PROTECTED_ACTION_ALLOWED_LOCAL}};

/* save <seconds> <changes> ... (rdb.cpp's save points); "" for none.
 * Numbers are read with strtoll, as Redis does; seconds must be >= 1,
 * changes >= 0. In redis.conf the points come one `save` line each: the
 * first line replaces the defaults, the next ones add to it (the loader
 * does that: APPEND_IN_FILE_CONFIG). */

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
    server.saveparams = std::move(points);
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

/* The AOF's names are names in `dir`, never paths (Redis's
 * isValidAOFfilename / isValidAOFdirname). */
SetResult setAofName(std::string &field, const std::string &value, const char *what, const char *kind,
                     std::string &err) {
    if (value.empty()) {
        err = std::string(what) + " can't be empty";
        return SetResult::Error;
    }
    if (!pathIsBaseName(value)) {
        err = std::string(what) + " can't be a path, just a " + kind;
        return SetResult::Error;
    }
    if (field == value) return SetResult::Unchanged;
    field = value;
    return SetResult::Changed;
}

SetResult setAppendFilename(std::span<const std::string> args, std::string &err) {
    return setAofName(server.aof_filename, args[0], "appendfilename", "filename", err);
}
std::string getAppendFilename() { return server.aof_filename; }
SetResult setAppendDirname(std::span<const std::string> args, std::string &err) {
    return setAofName(server.aof_dirname, args[0], "appenddirname", "dirname", err);
}
std::string getAppendDirname() { return server.aof_dirname; }

/* aof-disable-auto-gc no: the history files kept so far go now. */
bool updateAofAutoGCEnabled(const char **) {
    if (!server.aof_disable_auto_gc) aofDelHistoryFiles();
    return true;
}

/* appendonly yes builds the file from the dataset (a rewrite), no closes it. */
bool updateAppendonly(const char **err) {
    if (server.aof_enabled && server.aof_state == AOF_OFF) {
        if (startAppendOnly() == C_ERR) {
            *err = "Unable to turn on AOF. Check server logs.";
            return false;
        }
    } else if (!server.aof_enabled && server.aof_state != AOF_OFF) {
        stopAppendOnly();
    }
    return true;
}

bool updateJemallocBgThread(const char **) {
    set_jemalloc_bg_thread(server.jemalloc_bg_thread);
    return true;
}

/* hz: a hint, clamped to Redis's bounds rather than refused, whether it
 * comes from redis.conf or CONFIG SET. */

SetResult setHz(std::span<const std::string> args, std::string &err) {
    int hz = server.config_hz;
    if (setNumericConfig(NumericConfig{&hz, 0, INT_MAX}, args[0], err) == SetResult::Error) return SetResult::Error;
    hz = std::clamp(hz, CONFIG_MIN_HZ, CONFIG_MAX_HZ);
    if (hz == server.config_hz) return SetResult::Unchanged;
    server.config_hz = server.hz = hz;
    return SetResult::Changed;
}

std::string getHz() { return std::to_string(server.config_hz); }

/* port and bind re-listen at once (initServer listens the first time). */
bool updatePort(const char **err) {
    if (!server.el || changeListenPort(server.port) == C_OK) return true;
    *err = "Unable to listen on this port. Check server logs.";
    return false;
}

/* TLS: a tls-* change rebuilds the contexts at once when TLS is in use
 * (Redis's applyTlsCfg); tls-port configures TLS if it was not yet and
 * re-listens (applyTLSPort). On failure CONFIG SET restores the old values. */
bool applyTlsCfg(const char **err) {
    if (!server.el || !(server.tls_port || server.tls_replication || server.tls_cluster) ||
        tlsConfigure(server.tls_ctx_config, tlsRequiresCA()))
        return true;
    *err = "Unable to update TLS configuration. Check server logs.";
    return false;
}

bool applyTLSPort(const char **err) {
    if (!server.el) return true;
    if (!isTlsConfigured() && !tlsConfigure(server.tls_ctx_config, tlsRequiresCA())) {
        *err = "Unable to update TLS configuration. Check server logs.";
        return false;
    }
    if (changeListenPort(server.tls_port, server.tlsfd, acceptTLSHandler) == C_OK) return true;
    *err = "Unable to listen on this port. Check server logs.";
    return false;
}

constexpr configEnum tls_auth_clients_enum[] = {
    {"no", TLS_CLIENT_AUTH_NO}, {"yes", TLS_CLIENT_AUTH_YES}, {"optional", TLS_CLIENT_AUTH_OPTIONAL}};

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

/* notify-keyspace-events: Redis's letters (notify.h). */
SetResult setNotifyKeyspaceEvents(std::span<const std::string> args, std::string &err) {
    int flags = keyspaceEventsStringToFlags(args[0]);
    if (flags == -1) {
        err = "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.";
        return SetResult::Error;
    }
    if (flags == server.notify_keyspace_events) return SetResult::Unchanged;
    server.notify_keyspace_events = flags;
    return SetResult::Changed;
}

std::string getNotifyKeyspaceEvents() { return keyspaceEventsFlagsToString(server.notify_keyspace_events); }

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

/* requirepass is the default user's password (Redis 7's
 * updateRequirePass): "" makes it nopass again. */
bool updateRequirePass(const char **) {
    ACLUpdateDefaultUserPassword(server.requirepass);
    return true;
}

/* Only "disabled" (Redis's default): the other two load the RDB straight
 * from the socket, which cppredis does not do. */
constexpr configEnum repl_diskless_load_enum[] = {{"disabled", REPL_DISKLESS_LOAD_DISABLED}};

constexpr configEnum acl_pubsub_default_enum[] = {
    {"allchannels", static_cast<int>(SELECTOR_FLAG_ALLCHANNELS)}, {"resetchannels", 0}};

/* maxmemory set below what is used: the time event evicts at once, rather
 * than the next write (and the log says what is coming). */
bool updateMaxmemory(const char **) {
    if (server.maxmemory) {
        size_t used = zmalloc_used_memory() - freeMemoryGetNotCountedMemory();
        if (static_cast<size_t>(server.maxmemory) < used)
            serverLog(LL_WARNING,
                      "WARNING: the new maxmemory value set via CONFIG SET (%llu) is smaller than the current memory "
                      "usage (%zu). This will result in key eviction and/or the inability to accept new write "
                      "commands depending on the maxmemory-policy.",
                      static_cast<unsigned long long>(server.maxmemory), used);
        if (server.el) startEvictionTimeProc();
    }
    return true;
}

/* latency-tracking-info-percentiles: the percentiles INFO latencystats
 * prints, 0..100 each; "" for none. */
SetResult setLatencyTrackingInfoPercentiles(std::span<const std::string> args, std::string &err) {
    if (args.size() == 1 && args[0].empty()) args = {};
    std::vector<double> percentiles;
    for (const std::string &a : args) {
        double p;
        if (!string2d(a, &p)) {
            err = "Invalid latency-tracking-info-percentiles parameters";
            return SetResult::Error;
        }
        if (p > 100.0 || p < 0.0) {
            err = "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]";
            return SetResult::Error;
        }
        percentiles.push_back(p);
    }
    server.latency_tracking_info_percentiles = std::move(percentiles);
    return SetResult::Changed;
}

/* Each as "%f" without the trailing zeros ("50 99 99.9"), as Redis prints them. */
std::string getLatencyTrackingInfoPercentiles() {
    std::string out;
    for (double p : server.latency_tracking_info_percentiles) {
        char buf[128];
        snprintf(buf, sizeof(buf), "%f", p);
        std::string s(buf);
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.') s.pop_back();
        if (!out.empty()) out += ' ';
        out += s;
    }
    return out;
}

/* ------------------------------------------------------------------------
 * Redis 7.0's redis.conf: the process, the signals, and what cppredis
 * accepts without effect (issue 21, the config helper's rows)
 * ---------------------------------------------------------------------- */

/* port and bind show in the process title ({listen-addr}). */
bool updatePortAndTitle(const char **err) {
    if (!updatePort(err)) return false;
    redisSetProcTitle(nullptr);
    return true;
}

bool applyBindAndTitle(const char **err) {
    if (!applyBind(err)) return false;
    redisSetProcTitle(nullptr);
    return true;
}

SetResult setProcTitleTemplate(std::span<const std::string> args, std::string &err) {
    std::string ignored;
    if (!expandProcTitleTemplate(args[0], "", ignored) || ignored.empty()) {
        err = "template format is invalid or contains unknown variables";
        return SetResult::Error;
    }
    if (server.proc_title_template == args[0]) return SetResult::Unchanged;
    server.proc_title_template = args[0];
    return SetResult::Changed;
}

std::string getProcTitleTemplate() { return server.proc_title_template; }

bool updateProcTitleTemplate(const char **) {
    redisSetProcTitle(nullptr);
    return true;
}

constexpr configEnum oom_score_adj_enum[] = {
    {"no", OOM_SCORE_ADJ_NO}, {"yes", OOM_SCORE_RELATIVE}, {"relative", OOM_SCORE_RELATIVE},
    {"absolute", OOM_SCORE_ADJ_ABSOLUTE}};

/* oom-score-adj-values <master> <replica> <background child>, -2000..2000
 * each (the kernel clamps to -1000..1000 after the base is added). */
SetResult setOOMScoreAdjValues(std::span<const std::string> args, std::string &err) {
    if (args.size() != CONFIG_OOM_COUNT) {
        err = "wrong number of arguments";
        return SetResult::Error;
    }
    int values[CONFIG_OOM_COUNT];
    for (int i = 0; i < CONFIG_OOM_COUNT; i++) {
        char *end;
        long long value = strtoll(args[i].c_str(), &end, 10);
        if (*end != '\0' || value < -2000 || value > 2000) {
            err = "Invalid oom-score-adj-values, elements must be between -2000 and 2000.";
            return SetResult::Error;
        }
        values[i] = static_cast<int>(value);
    }
    if (values[CONFIG_OOM_REPLICA] < values[CONFIG_OOM_MASTER] || values[CONFIG_OOM_BGCHILD] < values[CONFIG_OOM_REPLICA])
        serverLog(LL_WARNING, "The oom-score-adj-values configuration may not work for non-privileged processes! "
                              "Please consult the documentation.");
    if (std::equal(values, values + CONFIG_OOM_COUNT, server.oom_score_adj_values)) return SetResult::Unchanged;
    std::copy(values, values + CONFIG_OOM_COUNT, server.oom_score_adj_values);
    return SetResult::Changed;
}

std::string getOOMScoreAdjValues() {
    const int *v = server.oom_score_adj_values;
    return std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]);
}

bool updateOOMScoreAdj(const char **err) {
    if (!server.el || setOOMScoreAdj(-1) == C_OK) return true;
    *err = "Failed to set current oom_score_adj. Check server logs.";
    return false;
}

/* shutdown-on-sigint / shutdown-on-sigterm: SHUTDOWN's flags, any of
 * save, nosave, now, force, or "default" (none), as a Redis multi-arg enum. */
constexpr configEnum shutdown_on_sig_enum[] = {{"default", SHUTDOWN_NOFLAGS},
                                               {"save", SHUTDOWN_SAVE},
                                               {"nosave", SHUTDOWN_NOSAVE},
                                               {"now", SHUTDOWN_NOW},
                                               {"force", SHUTDOWN_FORCE}};

SetResult setShutdownOnSignal(int &field, std::span<const std::string> args, std::string &err) {
    int flags = 0;
    bool valid = !args.empty();
    for (const std::string &arg : args) {
        auto e = std::find_if(std::begin(shutdown_on_sig_enum), std::end(shutdown_on_sig_enum),
                              [&arg](const configEnum &ce) { return strEqualNoCase(arg, ce.name); });
        if (e == std::end(shutdown_on_sig_enum)) valid = false;
        else flags |= e->value;
    }
    if (!valid) {
        err = "argument(s) must be one of the following: default, save, nosave, now, force";
        return SetResult::Error;
    }
    if ((flags & SHUTDOWN_SAVE) && (flags & SHUTDOWN_NOSAVE)) {
        err = "shutdown options SAVE and NOSAVE can't be used simultaneously";
        return SetResult::Error;
    }
    if (flags == field) return SetResult::Unchanged;
    field = flags;
    return SetResult::Changed;
}

/* The flags' names in the enum's order, "default" for none. */
std::string getShutdownOnSignal(int flags) {
    if (flags == SHUTDOWN_NOFLAGS) return "default";
    std::string out;
    for (const configEnum &e : shutdown_on_sig_enum)
        if (e.value && (flags & e.value)) out += (out.empty() ? "" : " ") + std::string(e.name);
    return out;
}

SetResult setShutdownOnSigint(std::span<const std::string> args, std::string &err) {
    return setShutdownOnSignal(server.shutdown_on_sigint, args, err);
}
std::string getShutdownOnSigint() { return getShutdownOnSignal(server.shutdown_on_sigint); }
SetResult setShutdownOnSigterm(std::span<const std::string> args, std::string &err) {
    return setShutdownOnSignal(server.shutdown_on_sigterm, args, err);
}
std::string getShutdownOnSigterm() { return getShutdownOnSignal(server.shutdown_on_sigterm); }

/* activedefrag: cppredis has no active defragmentation, so it answers as a
 * Redis built without it (HAVE_DEFRAG unset): `no` only. The tuning below
 * is then kept and has no effect, as in that Redis. */
SetResult setActiveDefrag(std::span<const std::string> args, std::string &err) {
    if (strEqualNoCase(args[0], "no")) return SetResult::Unchanged;
    err = strEqualNoCase(args[0], "yes")
              ? "Active defragmentation cannot be enabled: it requires a Redis server compiled with a modified "
                "Jemalloc like the one shipped by default with the Redis source distribution"
              : "argument must be 'yes' or 'no'";
    return SetResult::Error;
}

std::string getActiveDefrag() { return "no"; }

constexpr const char *NO_DEFRAG = "activedefrag cannot be enabled (cppredis has no active defragmentation)";
int active_defrag_cycle_min, active_defrag_cycle_max, active_defrag_threshold_lower, active_defrag_threshold_upper;
long long active_defrag_max_scan_fields, active_defrag_ignore_bytes;

/* The values of the configs accepted without effect (docs/ref-configuration.md, "Configuration
 * (redis.conf)"): kept so that CONFIG GET and CONFIG REWRITE give them back,
 * read by nothing else. */
int io_threads;
bool io_threads_do_reads;
int list_max_listpack_size, list_compress_depth;
std::string ignore_warnings;

constexpr const char *ONE_THREAD = "cppredis runs commands and I/O on one thread";
constexpr const char *LIST_ENCODING =
    "lists are encoded as a ziplist up to list-max-ziplist-entries/-value, then a linked list (no quicklist)";

/* Where cppredis does only what Redis's default does, the other values are
 * refused (a one-value enum, or a range of one number). use-exit-on-panic
 * changes the end of Redis's bug report (serverPanic, serverAssert), which
 * cppredis has not: a failed internal check is assert(), which aborts, as
 * Redis does with `no`. watchdog-period arms Redis's software watchdog,
 * whose report is a stack trace: there is no crash report (crash-log-enabled). */
constexpr configEnum only_no_enum[] = {{"no", 0}};
constexpr configEnum only_ignore_enum[] = {{"ignore", 0}};
int cluster_enabled, enable_module_cmd, propagation_error_behavior, use_exit_on_panic, watchdog_period;

/* sanitize-dump-payload takes `yes` only, which is not Redis's default but
 * what cppredis does: every blob of an RDB file or a RESTORE payload is
 * checked in full, because the loader decodes the listpacks it rebuilds
 * and the structures it keeps as they are (ziplists, intsets, stream
 * nodes) are then read without further checks. Redis's `no` and `clients`
 * skip the deep check, which cppredis cannot do safely, so they are
 * refused (docs/ref-configuration.md). */
constexpr configEnum only_yes_enum[] = {{"yes", 1}};
int sanitize_dump_payload;

/* The Redis 7.0 directives that cppredis refuses, and why (docs/ref-configuration.md's list). */
constexpr refusedConfig refused_configs[] = {
    {"cluster-*", "Redis Cluster is not implemented (cluster-enabled accepts only 'no')"},
    {"crash-log-enabled", "there is no crash report (stack trace, registers) to enable"},
    {"crash-memcheck-enabled", "there is no crash report, nor its memory test"},
    {"maxmemory-clients", "client eviction is not implemented"},
    {"shutdown-timeout", "SHUTDOWN does not wait for lagging replicas"},
    {"socket-mark-id", "sockets get no SO_MARK"},
    {"bind-source-addr", "the replica's connection to its master binds no source address"},
    {"loadmodule", "modules are not supported"},
};

/* ------------------------------------------------------------------------
 * The table
 * ---------------------------------------------------------------------- */

const standardConfig static_configs[] = {
    {"bind", nullptr, MULTI_ARG_CONFIG, "127.0.0.1 -::1", SpecialConfig{setBindAddresses, getBindAddresses},
     applyBindAndTitle},
    {"protected-mode", nullptr, 0, "yes", BoolConfig{&server.protected_mode}},
    {"enable-debug-command", nullptr, IMMUTABLE_CONFIG, "no", EnumConfig{&server.enable_debug_cmd, protected_action_enum}},
    {"save", nullptr, MULTI_ARG_CONFIG | APPEND_IN_FILE_CONFIG, "3600 1 300 100 60 10000", SpecialConfig{setSaveParams, getSaveParams}},
    {"appendonly", nullptr, 0, "no", BoolConfig{&server.aof_enabled}, updateAppendonly},
    {"port", nullptr, 0, "6379", NumericConfig{&server.port, 0, 65535}, updatePortAndTitle},
    {"tcp-backlog", nullptr, IMMUTABLE_CONFIG, "511", NumericConfig{&server.tcp_backlog, 0, INT_MAX}},
    {"timeout", nullptr, 0, "0", NumericConfig{&server.maxidletime, 0, INT_MAX}},
    {"tcp-keepalive", nullptr, 0, "300", NumericConfig{&server.tcpkeepalive, 0, INT_MAX}},
    {"daemonize", nullptr, IMMUTABLE_CONFIG, "no", BoolConfig{&server.daemonize}},
    {"pidfile", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.pidfile}},
    {"loglevel", nullptr, 0, "notice", EnumConfig{&server.verbosity, loglevel_enum}},
    {"logfile", nullptr, IMMUTABLE_CONFIG | EMPTY_IS_VALUE_CONFIG, "", StringConfig{&server.logfile}},
    {"databases", nullptr, IMMUTABLE_CONFIG, "16", NumericConfig{&server.dbnum, 1, INT_MAX}},
    {"maxclients", nullptr, 0, "10000", NumericConfig{&server.maxclients, 1, UINT_MAX}, updateMaxclients},
    {"hz", nullptr, 0, "10", SpecialConfig{setHz, getHz}},
    {"jemalloc-bg-thread", nullptr, 0, "yes", BoolConfig{&server.jemalloc_bg_thread}, updateJemallocBgThread},
    {"proto-max-bulk-len", nullptr, 0, "512mb",
     NumericConfig{&server.proto_max_bulk_len, 1024 * 1024, LONG_MAX, true}},
    {"client-query-buffer-limit", nullptr, 0, "1gb",
     NumericConfig{&server.client_max_querybuf_len, 1024 * 1024, LONG_MAX, true}},
    {"list-max-ziplist-entries", nullptr, 0, "512", NumericConfig{&server.list_max_ziplist_entries, 0, LONG_MAX}},
    {"list-max-ziplist-value", nullptr, 0, "64", NumericConfig{&server.list_max_ziplist_value, 0, LONG_MAX}},
    {"hash-max-listpack-entries", "hash-max-ziplist-entries", 0, "512", NumericConfig{&server.hash_max_ziplist_entries, 0, LONG_MAX}},
    {"hash-max-listpack-value", "hash-max-ziplist-value", 0, "64", NumericConfig{&server.hash_max_ziplist_value, 0, LONG_MAX}},
    {"set-max-intset-entries", nullptr, 0, "512", NumericConfig{&server.set_max_intset_entries, 0, LONG_MAX}},
    {"zset-max-listpack-entries", "zset-max-ziplist-entries", 0, "128", NumericConfig{&server.zset_max_ziplist_entries, 0, LONG_MAX}},
    {"zset-max-listpack-value", "zset-max-ziplist-value", 0, "64", NumericConfig{&server.zset_max_ziplist_value, 0, LONG_MAX}},
    {"hll-sparse-max-bytes", nullptr, 0, "3000", NumericConfig{&server.hll_sparse_max_bytes, 0, LONG_MAX, true}},
    {"stream-node-max-bytes", nullptr, 0, "4096", NumericConfig{&server.stream_node_max_bytes, 0, LONG_MAX, true}},
    {"stream-node-max-entries", nullptr, 0, "100", NumericConfig{&server.stream_node_max_entries, 0, LLONG_MAX}},
    /* AOF persistence (aof.cpp) */
    {"appendfilename", nullptr, IMMUTABLE_CONFIG, "appendonly.aof", SpecialConfig{setAppendFilename, getAppendFilename}},
    {"appenddirname", nullptr, IMMUTABLE_CONFIG, "appendonlydir", SpecialConfig{setAppendDirname, getAppendDirname}},
    {"aof-use-rdb-preamble", nullptr, 0, "yes", BoolConfig{&server.aof_use_rdb_preamble}},
    {"aof-disable-auto-gc", nullptr, 0, "no", BoolConfig{&server.aof_disable_auto_gc}, updateAofAutoGCEnabled},
    {"appendfsync", nullptr, 0, "everysec", EnumConfig{&server.aof_fsync, aof_fsync_enum}},
    {"no-appendfsync-on-rewrite", nullptr, 0, "no", BoolConfig{&server.aof_no_fsync_on_rewrite}},
    {"aof-load-truncated", nullptr, 0, "yes", BoolConfig{&server.aof_load_truncated}},
    {"aof-rewrite-incremental-fsync", nullptr, 0, "yes", BoolConfig{&server.aof_rewrite_incremental_fsync}},
    {"auto-aof-rewrite-percentage", nullptr, 0, "100", NumericConfig{&server.aof_rewrite_perc, 0, INT_MAX}},
    {"auto-aof-rewrite-min-size", nullptr, 0, "64mb",
     NumericConfig{&server.aof_rewrite_min_size, 0, LLONG_MAX, true}},
    {"aof-timestamp-enabled", nullptr, 0, "no", BoolConfig{&server.aof_timestamp_enabled}},
    /* Pub/sub, keyspace notifications, output buffer limits (pubsub.cpp, notify.cpp, networking.cpp) */
    {"notify-keyspace-events", nullptr, 0, "", SpecialConfig{setNotifyKeyspaceEvents, getNotifyKeyspaceEvents}},
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
    {"rdb-del-sync-files", nullptr, 0, "no", BoolConfig{&server.rdb_del_sync_files}},
    {"rdb-key-save-delay", nullptr, HIDDEN_CONFIG, "0", NumericConfig{&server.rdb_key_save_delay, INT_MIN, INT_MAX}},
    {"key-load-delay", nullptr, HIDDEN_CONFIG, "0", NumericConfig{&server.key_load_delay, INT_MIN, INT_MAX}},
    {"sanitize-dump-payload", nullptr, 0, "yes", EnumConfig{&sanitize_dump_payload, only_yes_enum}},
    {"enable-protected-configs", nullptr, IMMUTABLE_CONFIG, "no",
     EnumConfig{&server.enable_protected_configs, protected_action_enum}},
    /* The live trace (livetrace_output.cpp) */
    {"trace-events", nullptr, 0, "", SpecialConfig{setTraceEvents, getTraceEvents}},
    /* ACL (acl.cpp) */
    {"requirepass", nullptr, SENSITIVE_CONFIG, "", StringConfig{&server.requirepass}, updateRequirePass},
    {"aclfile", nullptr, IMMUTABLE_CONFIG | EMPTY_IS_VALUE_CONFIG, "", StringConfig{&server.acl_filename}},
    {"acllog-max-len", nullptr, 0, "128", NumericConfig{&server.acllog_max_len, 0, LONG_MAX}},
    {"acl-pubsub-default", nullptr, 0, "resetchannels", EnumConfig{&server.acl_pubsub_default, acl_pubsub_default_enum}},
    /* Operating it: slow log, latency monitor and tracking, lazy freeing, client-side caching */
    {"slowlog-log-slower-than", nullptr, 0, "10000", NumericConfig{&server.slowlog_log_slower_than, -1, LLONG_MAX}},
    {"slowlog-max-len", nullptr, 0, "128", NumericConfig{&server.slowlog_max_len, 0, LONG_MAX}},
    {"latency-monitor-threshold", nullptr, 0, "0", NumericConfig{&server.latency_monitor_threshold, 0, LLONG_MAX}},
    {"latency-tracking", nullptr, 0, "yes", BoolConfig{&server.latency_tracking_enabled}},
    {"latency-tracking-info-percentiles", nullptr, MULTI_ARG_CONFIG, "50 99 99.9",
     SpecialConfig{setLatencyTrackingInfoPercentiles, getLatencyTrackingInfoPercentiles}},
    {"lazyfree-lazy-eviction", nullptr, 0, "no", BoolConfig{&server.lazyfree_lazy_eviction}},
    {"lazyfree-lazy-expire", nullptr, 0, "no", BoolConfig{&server.lazyfree_lazy_expire}},
    {"lazyfree-lazy-server-del", nullptr, 0, "no", BoolConfig{&server.lazyfree_lazy_server_del}},
    {"lazyfree-lazy-user-del", nullptr, 0, "no", BoolConfig{&server.lazyfree_lazy_user_del}},
    {"lazyfree-lazy-user-flush", nullptr, 0, "no", BoolConfig{&server.lazyfree_lazy_user_flush}},
    {"replica-lazy-flush", "slave-lazy-flush", 0, "no", BoolConfig{&server.repl_slave_lazy_flush}},
    {"tracking-table-max-keys", nullptr, 0, "1000000", NumericConfig{&server.tracking_table_max_keys, 0, LONG_MAX}},
    /* maxmemory and eviction (evict.cpp); the LFU counter (object.cpp) */
    {"maxmemory", nullptr, 0, "0", NumericConfig{&server.maxmemory, 0, LLONG_MAX, true}, updateMaxmemory},
    {"maxmemory-policy", nullptr, 0, "noeviction", EnumConfig{&server.maxmemory_policy, maxmemoryPolicyEnum()}},
    {"maxmemory-samples", nullptr, 0, "5", NumericConfig{&server.maxmemory_samples, 1, INT_MAX}},
    {"maxmemory-eviction-tenacity", nullptr, 0, "10", NumericConfig{&server.maxmemory_eviction_tenacity, 0, 100}},
    {"lfu-log-factor", nullptr, 0, "10", NumericConfig{&server.lfu_log_factor, 0, INT_MAX}},
    {"lfu-decay-time", nullptr, 0, "1", NumericConfig{&server.lfu_decay_time, 0, INT_MAX}},
    /* Replication (replication.h); `replicaof` is a directive of its own (config.h) */
    {"masterauth", nullptr, SENSITIVE_CONFIG, "", StringConfig{&server.masterauth}},
    {"masteruser", nullptr, SENSITIVE_CONFIG, "", StringConfig{&server.masteruser}},
    {"repl-backlog-size", nullptr, 0, "1mb", NumericConfig{&server.repl_backlog_size, 1, LLONG_MAX, true},
     updateReplBacklogSize},
    {"repl-backlog-ttl", nullptr, 0, "3600", NumericConfig{&server.repl_backlog_time_limit, 0, LONG_MAX}},
    {"repl-ping-replica-period", "repl-ping-slave-period", 0, "10", NumericConfig{&server.repl_ping_slave_period, 1, INT_MAX}},
    {"repl-timeout", nullptr, 0, "60", NumericConfig{&server.repl_timeout, 1, INT_MAX}},
    {"repl-diskless-sync", nullptr, 0, "yes", BoolConfig{&server.repl_diskless_sync}},
    {"repl-diskless-sync-delay", nullptr, 0, "5", NumericConfig{&server.repl_diskless_sync_delay, 0, INT_MAX}},
    {"repl-diskless-sync-max-replicas", nullptr, 0, "0", NumericConfig{&server.repl_diskless_sync_max_replicas, 0, INT_MAX}},
    {"repl-diskless-load", nullptr, 0, "disabled", EnumConfig{&server.repl_diskless_load, repl_diskless_load_enum}},
    {"repl-disable-tcp-nodelay", nullptr, 0, "no", BoolConfig{&server.repl_disable_tcp_nodelay}},
    {"replica-serve-stale-data", "slave-serve-stale-data", 0, "yes", BoolConfig{&server.repl_serve_stale_data}},
    {"replica-read-only", "slave-read-only", 0, "yes", BoolConfig{&server.repl_slave_ro}},
    {"replica-ignore-maxmemory", "slave-ignore-maxmemory", 0, "yes", BoolConfig{&server.repl_slave_ignore_maxmemory}},
    {"replica-priority", "slave-priority", 0, "100", NumericConfig{&server.slave_priority, 0, INT_MAX}},
    {"replica-announced", nullptr, 0, "yes", BoolConfig{&server.replica_announced}},
    {"replica-announce-ip", "slave-announce-ip", 0, "", StringConfig{&server.slave_announce_ip}},
    {"replica-announce-port", "slave-announce-port", 0, "0", NumericConfig{&server.slave_announce_port, 0, 65535}},
    {"min-replicas-to-write", "min-slaves-to-write", 0, "0", NumericConfig{&server.repl_min_slaves_to_write, 0, INT_MAX},
     updateGoodSlaves},
    {"min-replicas-max-lag", "min-slaves-max-lag", 0, "10", NumericConfig{&server.repl_min_slaves_max_lag, 0, INT_MAX},
     updateGoodSlaves},
    /* Scripting (scripting.cpp) */
    {"busy-reply-threshold", "lua-time-limit", 0, "5000", NumericConfig{&server.busy_reply_threshold, 0, LONG_MAX}},
    /* Running as a service (server_main.cpp, log.cpp) */
    {"supervised", nullptr, IMMUTABLE_CONFIG, "no", EnumConfig{&server.supervised_mode, supervised_mode_enum}},
    {"syslog-enabled", nullptr, IMMUTABLE_CONFIG, "no", BoolConfig{&server.syslog_enabled}},
    {"syslog-ident", nullptr, IMMUTABLE_CONFIG, "redis", StringConfig{&server.syslog_ident}},
    {"syslog-facility", nullptr, IMMUTABLE_CONFIG, "local0", EnumConfig{&server.syslog_facility, syslog_facility_enum}},
    /* Unix socket (anet.cpp, networking.cpp) */
    {"unixsocket", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.unixsocket}},
    {"unixsocketperm", nullptr, IMMUTABLE_CONFIG, "0",
     NumericConfig{.field = &server.unixsocketperm, .lower = 0, .upper = 0777, .octal = true}},
    /* The process: logo, title, OOM score, THP (server_main.cpp, server.cpp) */
    {"always-show-logo", nullptr, IMMUTABLE_CONFIG, "no", BoolConfig{&server.always_show_logo}},
    {"set-proc-title", nullptr, IMMUTABLE_CONFIG, "yes", BoolConfig{&server.set_proc_title}},
    {"proc-title-template", nullptr, 0, "{title} {listen-addr} {server-mode}",
     SpecialConfig{setProcTitleTemplate, getProcTitleTemplate}, updateProcTitleTemplate},
    {"oom-score-adj", nullptr, 0, "no", EnumConfig{&server.oom_score_adj, oom_score_adj_enum}, updateOOMScoreAdj},
    {"oom-score-adj-values", nullptr, MULTI_ARG_CONFIG, "0 200 800",
     SpecialConfig{setOOMScoreAdjValues, getOOMScoreAdjValues}, updateOOMScoreAdj},
    {"disable-thp", nullptr, IMMUTABLE_CONFIG, "yes", BoolConfig{&server.disable_thp}},
    {"server_cpulist", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.server_cpulist}},
    {"bio_cpulist", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.bio_cpulist}},
    {"aof_rewrite_cpulist", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.aof_rewrite_cpulist}},
    {"bgsave_cpulist", nullptr, IMMUTABLE_CONFIG, "", StringConfig{&server.bgsave_cpulist}},
    {"shutdown-on-sigint", nullptr, MULTI_ARG_CONFIG, "default", SpecialConfig{setShutdownOnSigint, getShutdownOnSigint}},
    {"shutdown-on-sigterm", nullptr, MULTI_ARG_CONFIG, "default",
     SpecialConfig{setShutdownOnSigterm, getShutdownOnSigterm}},
    /* serverCron's work: rehashing, hz, expiry (db.cpp, server_main.cpp, expire.cpp) */
    {"activerehashing", nullptr, 0, "yes", BoolConfig{&server.activerehashing}},
    {"dynamic-hz", nullptr, 0, "yes", BoolConfig{&server.dynamic_hz}},
    {"active-expire-effort", nullptr, 0, "1", NumericConfig{&server.active_expire_effort, 1, 10}},
    {"replica-ignore-disk-write-errors", nullptr, 0, "no", BoolConfig{&server.repl_ignore_disk_write_error}},
    /* Only Redis's default is done; the other values are refused */
    {"cluster-enabled", nullptr, IMMUTABLE_CONFIG, "no", EnumConfig{&cluster_enabled, only_no_enum}},
    {"enable-module-command", nullptr, IMMUTABLE_CONFIG, "no", EnumConfig{&enable_module_cmd, only_no_enum}},
    {"propagation-error-behavior", nullptr, 0, "ignore", EnumConfig{&propagation_error_behavior, only_ignore_enum}},
    {"activedefrag", nullptr, 0, "no", SpecialConfig{setActiveDefrag, getActiveDefrag}},
    {"use-exit-on-panic", nullptr, HIDDEN_CONFIG, "no", EnumConfig{&use_exit_on_panic, only_no_enum}},
    {"watchdog-period", nullptr, HIDDEN_CONFIG, "0", NumericConfig{&watchdog_period, 0, 0}},
    /* Accepted without effect (docs/ref-configuration.md): the reason, then the value that is
     * cppredis's behaviour anyway, if any */
    {"active-defrag-cycle-min", nullptr, 0, "1", NumericConfig{&active_defrag_cycle_min, 1, 99}, nullptr, NO_DEFRAG},
    {"active-defrag-cycle-max", nullptr, 0, "25", NumericConfig{&active_defrag_cycle_max, 1, 99}, nullptr, NO_DEFRAG},
    {"active-defrag-threshold-lower", nullptr, 0, "10", NumericConfig{&active_defrag_threshold_lower, 0, 1000},
     nullptr, NO_DEFRAG},
    {"active-defrag-threshold-upper", nullptr, 0, "100", NumericConfig{&active_defrag_threshold_upper, 0, 1000},
     nullptr, NO_DEFRAG},
    {"active-defrag-max-scan-fields", nullptr, 0, "1000", NumericConfig{&active_defrag_max_scan_fields, 1, LONG_MAX},
     nullptr, NO_DEFRAG},
    {"active-defrag-ignore-bytes", nullptr, 0, "100mb",
     NumericConfig{&active_defrag_ignore_bytes, 1, LLONG_MAX, true}, nullptr, NO_DEFRAG},
    {"io-threads", nullptr, IMMUTABLE_CONFIG, "1", NumericConfig{&io_threads, 1, 128}, nullptr, ONE_THREAD, "1"},
    {"io-threads-do-reads", nullptr, IMMUTABLE_CONFIG, "no", BoolConfig{&io_threads_do_reads}, nullptr, ONE_THREAD, "no"},
    {"list-max-listpack-size", "list-max-ziplist-size", 0, "-2", NumericConfig{&list_max_listpack_size, INT_MIN, INT_MAX},
     nullptr, LIST_ENCODING},
    {"list-compress-depth", nullptr, 0, "0", NumericConfig{&list_compress_depth, 0, INT_MAX}, nullptr, LIST_ENCODING,
     "0"},
    {"ignore-warnings", nullptr, EMPTY_IS_VALUE_CONFIG, "", StringConfig{&ignore_warnings}, nullptr,
     "cppredis makes no start-up check this silences (ARM64-COW-BUG)", ""},
    /* TLS (tls.cpp) */
    {"tls-port", nullptr, 0, "0", NumericConfig{&server.tls_port, 0, 65535}, applyTLSPort},
    {"tls-session-cache-size", nullptr, 0, "20480", NumericConfig{&server.tls_ctx_config.session_cache_size, 0, INT_MAX},
     applyTlsCfg},
    {"tls-session-cache-timeout", nullptr, 0, "300",
     NumericConfig{&server.tls_ctx_config.session_cache_timeout, 0, INT_MAX}, applyTlsCfg},
    {"tls-replication", nullptr, 0, "no", BoolConfig{&server.tls_replication}, applyTlsCfg},
    {"tls-cluster", nullptr, 0, "no", BoolConfig{&server.tls_cluster}, applyTlsCfg},
    {"tls-auth-clients", nullptr, 0, "yes", EnumConfig{&server.tls_auth_clients, tls_auth_clients_enum}},
    {"tls-prefer-server-ciphers", nullptr, 0, "no", BoolConfig{&server.tls_ctx_config.prefer_server_ciphers},
     applyTlsCfg},
    {"tls-session-caching", nullptr, 0, "yes", BoolConfig{&server.tls_ctx_config.session_caching}, applyTlsCfg},
    {"tls-cert-file", nullptr, 0, "", StringConfig{&server.tls_ctx_config.cert_file}, applyTlsCfg},
    {"tls-key-file", nullptr, 0, "", StringConfig{&server.tls_ctx_config.key_file}, applyTlsCfg},
    {"tls-key-file-pass", nullptr, 0, "", StringConfig{&server.tls_ctx_config.key_file_pass}, applyTlsCfg},
    {"tls-client-cert-file", nullptr, 0, "", StringConfig{&server.tls_ctx_config.client_cert_file}, applyTlsCfg},
    {"tls-client-key-file", nullptr, 0, "", StringConfig{&server.tls_ctx_config.client_key_file}, applyTlsCfg},
    {"tls-client-key-file-pass", nullptr, 0, "", StringConfig{&server.tls_ctx_config.client_key_file_pass},
     applyTlsCfg},
    {"tls-dh-params-file", nullptr, 0, "", StringConfig{&server.tls_ctx_config.dh_params_file}, applyTlsCfg},
    {"tls-ca-cert-file", nullptr, 0, "", StringConfig{&server.tls_ctx_config.ca_cert_file}, applyTlsCfg},
    {"tls-ca-cert-dir", nullptr, 0, "", StringConfig{&server.tls_ctx_config.ca_cert_dir}, applyTlsCfg},
    {"tls-protocols", nullptr, 0, "", StringConfig{&server.tls_ctx_config.protocols}, applyTlsCfg},
    {"tls-ciphers", nullptr, 0, "", StringConfig{&server.tls_ctx_config.ciphers}, applyTlsCfg},
    {"tls-ciphersuites", nullptr, 0, "", StringConfig{&server.tls_ctx_config.ciphersuites}, applyTlsCfg},
};

}  // namespace

std::span<const standardConfig> standardConfigs() { return static_configs; }
std::span<const refusedConfig> refusedConfigs() { return refused_configs; }
