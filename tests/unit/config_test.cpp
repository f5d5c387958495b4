/* config_test.cpp — redis.conf loading, the command line, CONFIG GET/SET.
 *
 * CONFIG REWRITE's text is checked here, its file handling (and the
 * comparison with Redis's rewritten file) in the integration suite.
 * Expected texts are Redis 7.0.15's (checked against a real redis-server),
 * with "cppredis <version>" in the banner and the source named after the
 * line number. Every test starts and ends from the defaults, and every
 * temporary file it creates is removed by RAII even when it fails.
 */
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "config.h"
#include "config_table.h"
#include "server.h"
#include "server_main.h"
#include "version.h"

namespace fs = std::filesystem;

namespace {

/* A file under a fresh temporary directory, removed with it. */
class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "cppredis-config-test-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    /* Writes `content` to `name` in the directory and returns its path. */
    std::string write(const std::string &name, const std::string &content) const {
        std::string file = (path_ / name).string();
        std::ofstream(file, std::ios::binary) << content;
        return file;
    }
    std::string path(const std::string &name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

/* The whole text as a POSIX extended regex matching only itself. */
std::string literal(std::string_view text) {
    std::string re;
    for (char c : text) {
        if (std::string_view(".[]{}()\\*+?^$|").find(c) != std::string_view::npos) re += '\\';
        re += c;
    }
    return re;
}

/* Redis's fatal config error report, as it must appear on stderr. */
std::string fatal(const std::string &source, int line, const std::string &text, const std::string &reason) {
    return literal("\n*** FATAL CONFIG FILE ERROR (cppredis " CPPREDIS_VERSION ") ***\n"
                   "Reading the configuration file, at line " + std::to_string(line) + " of " + source + "\n"
                   ">>> '" + text + "'\n" + reason + "\n");
}

/* No server runs here: an event loop another suite left behind is set
 * aside, so that CONFIG SET port / bind never open a socket (apply hooks
 * act only on a started server). */
class ConfigTest : public ::testing::Test {
protected:
    void SetUp() override {
        el_ = std::move(server.el);
        initConfigValues(standardConfigs());
    }
    void TearDown() override {
        initConfigValues(standardConfigs());
        server.el = std::move(el_);
    }

    TempDir dir_;
    std::unique_ptr<aeEventLoop> el_;
};

using ConfigDeathTest = ConfigTest;

/* ------------------------------------------------------------------------
 * Defaults
 * ---------------------------------------------------------------------- */

/* The table's defaults and server.h's initializers must agree: the server
 * starts with the latter and CONFIG REWRITE compares with the former. */
TEST_F(ConfigTest, TableDefaultsMatchTheServerStruct) {
    const redisServer fresh{};
    EXPECT_EQ(server.port, fresh.port);
    EXPECT_EQ(server.bindaddr, fresh.bindaddr);
    EXPECT_EQ(server.tcp_backlog, fresh.tcp_backlog);
    EXPECT_EQ(server.tcpkeepalive, fresh.tcpkeepalive);
    EXPECT_EQ(server.maxidletime, fresh.maxidletime);
    EXPECT_EQ(server.maxclients, fresh.maxclients);
    EXPECT_EQ(server.config_hz, fresh.config_hz);
    EXPECT_EQ(server.hz, fresh.hz);
    EXPECT_EQ(server.dbnum, fresh.dbnum);
    EXPECT_EQ(server.verbosity, fresh.verbosity);
    EXPECT_EQ(server.logfile, fresh.logfile);
    EXPECT_EQ(server.daemonize, fresh.daemonize);
    EXPECT_EQ(server.pidfile, fresh.pidfile);
    EXPECT_EQ(server.proto_max_bulk_len, fresh.proto_max_bulk_len);
    EXPECT_EQ(server.client_max_querybuf_len, fresh.client_max_querybuf_len);
    EXPECT_EQ(server.protected_mode, fresh.protected_mode);
    EXPECT_EQ(server.list_max_ziplist_entries, fresh.list_max_ziplist_entries);
    EXPECT_EQ(server.list_max_ziplist_value, fresh.list_max_ziplist_value);
    EXPECT_EQ(server.hash_max_ziplist_entries, fresh.hash_max_ziplist_entries);
    EXPECT_EQ(server.hash_max_ziplist_value, fresh.hash_max_ziplist_value);
    EXPECT_EQ(server.set_max_intset_entries, fresh.set_max_intset_entries);
    EXPECT_EQ(server.zset_max_ziplist_entries, fresh.zset_max_ziplist_entries);
    EXPECT_EQ(server.zset_max_ziplist_value, fresh.zset_max_ziplist_value);
    EXPECT_EQ(server.stream_node_max_bytes, fresh.stream_node_max_bytes);
    EXPECT_EQ(server.stream_node_max_entries, fresh.stream_node_max_entries);
    EXPECT_EQ(server.jemalloc_bg_thread, fresh.jemalloc_bg_thread);
    EXPECT_EQ(server.supervised_mode, fresh.supervised_mode);
    EXPECT_EQ(server.syslog_enabled, fresh.syslog_enabled);
    EXPECT_EQ(server.syslog_ident, fresh.syslog_ident);
    EXPECT_EQ(server.syslog_facility, fresh.syslog_facility);
    EXPECT_EQ(server.key_load_delay, fresh.key_load_delay);
    EXPECT_EQ(server.tls_cluster, fresh.tls_cluster);
}

/* Values print as Redis prints them: memory as plain bytes, bind joined. */
TEST_F(ConfigTest, GetPrintsDefaultsAsRedis) {
    std::vector<std::string_view> all = {"*"};
    std::vector<std::pair<std::string, std::string>> expected = {
        {"bind", "127.0.0.1 -::1"}, {"protected-mode", "yes"}, {"enable-debug-command", "no"},
        {"save", "3600 1 300 100 60 10000"}, {"appendonly", "no"}, {"port", "6379"}, {"tcp-backlog", "511"},
        {"timeout", "0"}, {"tcp-keepalive", "300"}, {"daemonize", "no"}, {"pidfile", ""},
        {"loglevel", "notice"}, {"logfile", ""}, {"databases", "16"}, {"maxclients", "10000"},
        {"hz", "10"}, {"jemalloc-bg-thread", "yes"},
        {"proto-max-bulk-len", "536870912"}, {"client-query-buffer-limit", "1073741824"},
        {"list-max-ziplist-entries", "512"}, {"list-max-ziplist-value", "64"},
        {"hash-max-listpack-entries", "512"}, {"hash-max-ziplist-entries", "512"},
        {"hash-max-listpack-value", "64"}, {"hash-max-ziplist-value", "64"},
        {"set-max-intset-entries", "512"},
        {"zset-max-listpack-entries", "128"}, {"zset-max-ziplist-entries", "128"},
        {"zset-max-listpack-value", "64"}, {"zset-max-ziplist-value", "64"},
        {"hll-sparse-max-bytes", "3000"},
        {"stream-node-max-bytes", "4096"}, {"stream-node-max-entries", "100"},
        {"appendfilename", "appendonly.aof"}, {"appenddirname", "appendonlydir"}, {"aof-use-rdb-preamble", "yes"},
        {"aof-disable-auto-gc", "no"}, {"appendfsync", "everysec"},
        {"no-appendfsync-on-rewrite", "no"}, {"aof-load-truncated", "yes"},
        {"aof-rewrite-incremental-fsync", "yes"}, {"auto-aof-rewrite-percentage", "100"},
        {"auto-aof-rewrite-min-size", "67108864"}, {"aof-timestamp-enabled", "no"},
        {"notify-keyspace-events", ""},
        {"client-output-buffer-limit", "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"},
        {"dbfilename", "dump.rdb"}, {"dir", std::filesystem::current_path().string()},
        {"rdbcompression", "yes"}, {"rdbchecksum", "yes"}, {"rdb-save-incremental-fsync", "yes"},
        {"stop-writes-on-bgsave-error", "yes"}, {"rdb-del-sync-files", "no"},
        {"sanitize-dump-payload", "yes"}, {"enable-protected-configs", "no"},
        {"trace-events", ""},
        {"requirepass", ""}, {"aclfile", ""}, {"acllog-max-len", "128"},
        {"acl-pubsub-default", "resetchannels"},
        {"slowlog-log-slower-than", "10000"}, {"slowlog-max-len", "128"}, {"latency-monitor-threshold", "0"},
        {"latency-tracking", "yes"}, {"latency-tracking-info-percentiles", "50 99 99.9"},
        {"lazyfree-lazy-eviction", "no"}, {"lazyfree-lazy-expire", "no"}, {"lazyfree-lazy-server-del", "no"},
        {"lazyfree-lazy-user-del", "no"}, {"lazyfree-lazy-user-flush", "no"},
        {"replica-lazy-flush", "no"}, {"slave-lazy-flush", "no"}, {"tracking-table-max-keys", "1000000"},
        {"maxmemory", "0"}, {"maxmemory-policy", "noeviction"}, {"maxmemory-samples", "5"},
        {"maxmemory-eviction-tenacity", "10"}, {"lfu-log-factor", "10"}, {"lfu-decay-time", "1"},
        {"masterauth", ""}, {"masteruser", ""}, {"repl-backlog-size", "1048576"}, {"repl-backlog-ttl", "3600"},
        {"repl-ping-replica-period", "10"}, {"repl-ping-slave-period", "10"}, {"repl-timeout", "60"},
        {"repl-diskless-sync", "yes"}, {"repl-diskless-sync-delay", "5"}, {"repl-diskless-sync-max-replicas", "0"},
        {"repl-diskless-load", "disabled"}, {"repl-disable-tcp-nodelay", "no"},
        {"replica-serve-stale-data", "yes"}, {"slave-serve-stale-data", "yes"},
        {"replica-read-only", "yes"}, {"slave-read-only", "yes"},
        {"replica-ignore-maxmemory", "yes"}, {"slave-ignore-maxmemory", "yes"},
        {"replica-priority", "100"}, {"slave-priority", "100"}, {"replica-announced", "yes"},
        {"replica-announce-ip", ""}, {"slave-announce-ip", ""}, {"replica-announce-port", "0"},
        {"slave-announce-port", "0"}, {"min-replicas-to-write", "0"}, {"min-slaves-to-write", "0"},
        {"min-replicas-max-lag", "10"}, {"min-slaves-max-lag", "10"},
        {"busy-reply-threshold", "5000"}, {"lua-time-limit", "5000"},
        {"supervised", "no"}, {"syslog-enabled", "no"}, {"syslog-ident", "redis"}, {"syslog-facility", "local0"},
        {"unixsocket", ""}, {"unixsocketperm", "0"},
        {"always-show-logo", "no"}, {"set-proc-title", "yes"},
        {"proc-title-template", "{title} {listen-addr} {server-mode}"}, {"oom-score-adj", "no"},
        {"oom-score-adj-values", "0 200 800"}, {"disable-thp", "yes"}, {"server_cpulist", ""},
        {"bio_cpulist", ""}, {"aof_rewrite_cpulist", ""}, {"bgsave_cpulist", ""}, {"shutdown-on-sigint", "default"},
        {"shutdown-on-sigterm", "default"}, {"activerehashing", "yes"}, {"dynamic-hz", "yes"},
        {"active-expire-effort", "1"}, {"replica-ignore-disk-write-errors", "no"}, {"cluster-enabled", "no"},
        {"enable-module-command", "no"}, {"propagation-error-behavior", "ignore"}, {"activedefrag", "no"},
        {"active-defrag-cycle-min", "1"},
        {"active-defrag-cycle-max", "25"}, {"active-defrag-threshold-lower", "10"},
        {"active-defrag-threshold-upper", "100"}, {"active-defrag-max-scan-fields", "1000"},
        {"active-defrag-ignore-bytes", "104857600"}, {"io-threads", "1"}, {"io-threads-do-reads", "no"},
        {"list-max-listpack-size", "-2"}, {"list-max-ziplist-size", "-2"}, {"list-compress-depth", "0"},
        {"ignore-warnings", ""},
        {"tls-port", "0"}, {"tls-session-cache-size", "20480"}, {"tls-session-cache-timeout", "300"},
        {"tls-replication", "no"}, {"tls-cluster", "no"}, {"tls-auth-clients", "yes"}, {"tls-prefer-server-ciphers", "no"},
        {"tls-session-caching", "yes"}, {"tls-cert-file", ""}, {"tls-key-file", ""}, {"tls-key-file-pass", ""},
        {"tls-client-cert-file", ""}, {"tls-client-key-file", ""}, {"tls-client-key-file-pass", ""},
        {"tls-dh-params-file", ""}, {"tls-ca-cert-file", ""}, {"tls-ca-cert-dir", ""}, {"tls-protocols", ""},
        {"tls-ciphers", ""}, {"tls-ciphersuites", ""},
    };
    EXPECT_EQ(configGet(all), expected);
}

/* ------------------------------------------------------------------------
 * Loading files
 * ---------------------------------------------------------------------- */

TEST_F(ConfigTest, LoadsAFile) {
    std::string file = dir_.write("redis.conf",
                                  "# a comment\n"
                                  "\n"
                                  "   PORT 7000   \n"
                                  "\tbind 10.0.0.1 \"::1\"\r\n"
                                  "  # an indented comment\n"
                                  "tcp-backlog 128\n"
                                  "timeout 30\n"
                                  "tcp-keepalive 0\n"
                                  "maxclients 4294967295\n"
                                  "hz 20\n"
                                  "databases 4\n"
                                  "loglevel WARNING\n"
                                  "daemonize yes\n"
                                  "pidfile '/tmp/some file.pid'\n"
                                  "protected-mode No\n"
                                  "proto-max-bulk-len 1Mb\n"
                                  "client-query-buffer-limit 2000000\n"
                                  "logfile \"\"");
    loadServerConfig(file.c_str(), "");
    EXPECT_EQ(server.port, 7000);
    EXPECT_EQ(server.bindaddr, (std::vector<std::string>{"10.0.0.1", "::1"}));
    EXPECT_EQ(server.tcp_backlog, 128);
    EXPECT_EQ(server.maxidletime, 30);
    EXPECT_EQ(server.tcpkeepalive, 0);
    EXPECT_EQ(server.maxclients, 4294967295u);
    EXPECT_EQ(server.config_hz, 20);
    EXPECT_EQ(server.hz, 20);
    EXPECT_EQ(server.dbnum, 4);
    EXPECT_EQ(server.verbosity, LL_WARNING);
    EXPECT_TRUE(server.daemonize);
    EXPECT_EQ(server.pidfile, "/tmp/some file.pid");
    EXPECT_FALSE(server.protected_mode);
    EXPECT_EQ(server.proto_max_bulk_len, 1024 * 1024);
    EXPECT_EQ(server.client_max_querybuf_len, 2000000);
    EXPECT_EQ(server.logfile, "");
}

/* unixsocketperm is a file mode: read, printed and rewritten in octal. */
TEST_F(ConfigTest, UnixsocketpermIsOctal) {
    loadServerConfig(nullptr, "unixsocket /tmp/r.sock\nunixsocketperm 0755");
    EXPECT_EQ(server.unixsocket, "/tmp/r.sock");
    EXPECT_EQ(server.unixsocketperm, 0755u);
    std::vector<std::string_view> name = {"unixsocketperm"};
    EXPECT_EQ(configGet(name), (std::vector<std::pair<std::string, std::string>>{{"unixsocketperm", "755"}}));
    EXPECT_NE(rewriteConfigContent("").find("\nunixsocketperm 755\n"), std::string::npos);
}

TEST_F(ConfigTest, LastValueWins) {
    loadServerConfig(nullptr, "port 1000\nport 2000");
    EXPECT_EQ(server.port, 2000);
}

/* Out-of-range hz is clamped, not refused, as in Redis. */
TEST_F(ConfigTest, HzIsClamped) {
    loadServerConfig(nullptr, "hz 1000");
    EXPECT_EQ(server.config_hz, 500);
    EXPECT_EQ(server.hz, 500);
    loadServerConfig(nullptr, "hz 0");
    EXPECT_EQ(server.config_hz, 1);
}

TEST_F(ConfigTest, BindTakesOneQuotedListOrNothing) {
    loadServerConfig(nullptr, "bind \"127.0.0.2 ::2\"");
    EXPECT_EQ(server.bindaddr, (std::vector<std::string>{"127.0.0.2", "::2"}));
    loadServerConfig(nullptr, "bind \"\"");
    EXPECT_TRUE(server.bindaddr.empty());
    loadServerConfig(nullptr, "bind 1.1.1.1");
    loadServerConfig(nullptr, "bind");
    EXPECT_TRUE(server.bindaddr.empty());
}

TEST_F(ConfigTest, CommandLineOptionsOverrideTheFile) {
    std::string file = dir_.write("redis.conf", "port 7000\nhz 20\n");
    loadServerConfig(file.c_str(), "port 7001\nloglevel debug");
    EXPECT_EQ(server.port, 7001);
    EXPECT_EQ(server.config_hz, 20);
    EXPECT_EQ(server.verbosity, LL_DEBUG);
}

TEST_F(ConfigTest, IncludeReadsAnotherFileInPlace) {
    std::string base = dir_.write("base.conf", "port 7000\nhz 20\ntimeout 5\n");
    std::string file = dir_.write("redis.conf", "hz 30\ninclude " + base + "\ntimeout 6\n");
    loadServerConfig(file.c_str(), "");
    EXPECT_EQ(server.port, 7000);
    EXPECT_EQ(server.config_hz, 20); /* the include came after hz 30 */
    EXPECT_EQ(server.maxidletime, 6);
}

TEST_F(ConfigTest, IncludeWithWildcardsReadsEveryMatchInOrder) {
    dir_.write("b.conf", "port 7200\n");
    dir_.write("a.conf", "port 7100\ntimeout 9\n");
    std::string file = dir_.write("main", "include " + dir_.path("*.conf") + "\ninclude " +
                                              dir_.path("none-*.conf") + "\n");
    loadServerConfig(file.c_str(), "");
    EXPECT_EQ(server.port, 7200);
    EXPECT_EQ(server.maxidletime, 9);
}

TEST_F(ConfigTest, LogfileIsCreatedAtLoad) {
    std::string log = dir_.path("server.log");
    loadServerConfig(nullptr, "logfile " + log);
    EXPECT_EQ(server.logfile, log);
    EXPECT_TRUE(fs::exists(log));
}

/* ------------------------------------------------------------------------
 * Fatal errors
 * ---------------------------------------------------------------------- */

TEST_F(ConfigDeathTest, EachErrorNamesFileLineDirectiveAndReason) {
    struct Case {
        std::string line, reason;
    };
    const Case cases[] = {
        {"foo bar", "Bad directive or wrong number of arguments"},
        {"include", "Bad directive or wrong number of arguments"},
        {"port 1 2", "wrong number of arguments"},
        {"loglevel", "wrong number of arguments"},
        {"port abc", "argument couldn't be parsed into an integer"},
        {"port 65536", "argument must be between 0 and 65535 inclusive"},
        {"timeout -1", "argument must be between 0 and 2147483647 inclusive"},
        {"databases 0", "argument must be between 1 and 2147483647 inclusive"},
        {"maxclients 0", "argument must be between 1 and 4294967295 inclusive"},
        {"hz 01", "argument couldn't be parsed into an integer"},
        {"daemonize maybe", "argument must be 'yes' or 'no'"},
        {"loglevel loud", "argument(s) must be one of the following: debug, verbose, notice, warning"},
        {"proto-max-bulk-len 1tb", "argument must be a memory value"},
        {"proto-max-bulk-len 1k", "argument must be between 1048576 and 9223372036854775807 inclusive"},
        {"client-query-buffer-limit 1gbb", "argument must be a memory value"},
        {"port \"7000", "Unbalanced quotes in configuration line"},
        {"port \"7000\"x", "Unbalanced quotes in configuration line"},
        {"bind 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", "Too many bind addresses specified."},
        {"unixsocketperm 800", "argument couldn't be parsed as an octal number"},
        {"unixsocketperm 1000", "argument must be between 0 and 777 inclusive"},
        /* the values cppredis cannot honour (docs/ref-configuration.md) */
        {"sanitize-dump-payload no", "argument(s) must be one of the following: yes"},
        {"sanitize-dump-payload clients", "argument(s) must be one of the following: yes"},
        {"use-exit-on-panic yes", "argument(s) must be one of the following: no"},
        {"watchdog-period 200", "argument must be between 0 and 0 inclusive"},
        {"key-load-delay 2147483648", "argument must be between -2147483648 and 2147483647 inclusive"},
    };
    for (const Case &c : cases) {
        std::string file = dir_.write("bad.conf", "# first\nport 7000\n  " + c.line + "  \nport 7001\n");
        EXPECT_EXIT(loadServerConfig(file.c_str(), ""), ::testing::ExitedWithCode(1),
                    fatal("'" + file + "'", 3, c.line, c.reason))
            << c.line;
    }
}

TEST_F(ConfigDeathTest, ErrorInIncludedFileNamesThatFile) {
    std::string inner = dir_.write("inner.conf", "port 7000\nhz x\n");
    std::string outer = dir_.write("outer.conf", "include " + inner + "\n");
    EXPECT_EXIT(loadServerConfig(outer.c_str(), ""), ::testing::ExitedWithCode(1),
                fatal("'" + inner + "'", 2, "hz x", "argument couldn't be parsed into an integer"));
}

TEST_F(ConfigDeathTest, ErrorInOptionsNamesTheCommandLine) {
    std::string file = dir_.write("redis.conf", "port 7000\n");
    EXPECT_EXIT(loadServerConfig(file.c_str(), "port 7001 \nhz \"abc\" "), ::testing::ExitedWithCode(1),
                fatal("the command line", 2, "hz \"abc\"", "argument couldn't be parsed into an integer"));
}

TEST_F(ConfigDeathTest, MissingFilesAreFatal) {
    EXPECT_EXIT(loadServerConfig(dir_.path("missing.conf").c_str(), ""), ::testing::ExitedWithCode(1), "");
    std::string file = dir_.write("redis.conf", "include " + dir_.path("missing.conf") + "\n");
    EXPECT_EXIT(loadServerConfig(file.c_str(), ""), ::testing::ExitedWithCode(1), "");
}

TEST_F(ConfigDeathTest, UnwritableLogfileIsFatal) {
    EXPECT_EXIT(loadServerConfig(nullptr, "logfile " + dir_.path("no/such/dir.log")), ::testing::ExitedWithCode(1),
                literal("\n*** FATAL CONFIG FILE ERROR (cppredis " CPPREDIS_VERSION ") ***\n"
                        "Can't open the log file: No such file or directory\n"));
}

/* ------------------------------------------------------------------------
 * The command line
 * ---------------------------------------------------------------------- */

struct CommandLine {
    std::string configfile, options;
};

CommandLine parse(std::vector<std::string> args) {
    args.insert(args.begin(), "cppredis-server");
    std::vector<char *> argv;
    for (std::string &a : args) argv.push_back(a.data());
    CommandLine out;
    parseCommandLine(static_cast<int>(argv.size()), argv.data(), out.configfile, out.options);
    return out;
}

TEST(CommandLine, ConfigFileFirstMadeAbsolute) {
    EXPECT_EQ(parse({"/etc/redis.conf"}).configfile, "/etc/redis.conf");
    EXPECT_EQ(parse({"dir/../redis.conf"}).configfile, (fs::current_path() / "redis.conf").string());
    EXPECT_EQ(parse({"--port", "1"}).configfile, "");
    EXPECT_EQ(parse({}).configfile, "");
}

/* Options become "name value..." lines, values quoted as sdscatrepr does. */
TEST(CommandLine, OptionsBecomeDirectiveLines) {
    CommandLine cl = parse({"redis.conf", "--port", "7000", "--bind", "127.0.0.1", "-::1", "--loglevel verbose",
                            "--logfile", "--odd name", "--pidfile", "a \"b\""});
    EXPECT_EQ(cl.options, "port \"7000\" \n"
                          "bind \"127.0.0.1\" \"-::1\" \n"
                          "loglevel verbose \n"
                          "logfile \"--odd name\" \n" /* an option without value takes the next word */
                          "pidfile \"a \\\"b\\\"\" ");
}

TEST(CommandLine, DashReadsStdinBeforeTheOptions) {
    EXPECT_EQ(parse({"-"}).options, "include /dev/stdin\n");
    CommandLine cl = parse({"redis.conf", "--port", "1", "-"});
    EXPECT_EQ(cl.options, "include /dev/stdin\nport \"1\" ");
}

TEST_F(ConfigTest, ParsedOptionsLoad) {
    CommandLine cl = parse({"--port", "7000", "--bind", "127.0.0.1", "-::1", "--hz 15", "--pidfile", "a \"b\""});
    loadServerConfig(nullptr, cl.options);
    EXPECT_EQ(server.port, 7000);
    EXPECT_EQ(server.bindaddr, (std::vector<std::string>{"127.0.0.1", "-::1"}));
    EXPECT_EQ(server.config_hz, 15);
    EXPECT_EQ(server.pidfile, "a \"b\"");
}

/* ------------------------------------------------------------------------
 * CONFIG GET / CONFIG SET
 * ---------------------------------------------------------------------- */

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs get(std::vector<std::string_view> patterns) { return configGet(patterns); }

/* Returns "" on success, else the error text. */
std::string set(std::vector<std::string_view> args) {
    std::string err;
    return configSet(args, err) ? "" : err;
}

TEST_F(ConfigTest, GetMatchesGlobsCaseInsensitively) {
    EXPECT_EQ(get({"hz"}), (Pairs{{"hz", "10"}}));
    EXPECT_EQ(get({"HZ"}), (Pairs{{"HZ", "10"}})); /* exact names echo as given */
    EXPECT_EQ(get({"H?"}), (Pairs{{"hz", "10"}}));
    EXPECT_EQ(get({"*max*"}).size(), 32u);
    EXPECT_EQ(get({"*max-z*"}), (Pairs{{"list-max-ziplist-entries", "512"}, {"list-max-ziplist-value", "64"},
                                      {"hash-max-ziplist-entries", "512"}, {"hash-max-ziplist-value", "64"},
                                      {"zset-max-ziplist-entries", "128"}, {"zset-max-ziplist-value", "64"},
                                      {"list-max-ziplist-size", "-2"}}));
    EXPECT_EQ(get({"tcp-*"}), (Pairs{{"tcp-backlog", "511"}, {"tcp-keepalive", "300"}}));
    EXPECT_EQ(get({"[D-G]*"}), (Pairs{{"enable-debug-command", "no"}, {"daemonize", "no"}, {"databases", "16"},
                                      {"dbfilename", "dump.rdb"}, {"dir", std::filesystem::current_path().string()},
                                      {"enable-protected-configs", "no"}, {"disable-thp", "yes"},
                                      {"dynamic-hz", "yes"}, {"enable-module-command", "no"}}));
    EXPECT_EQ(get({"nosuch"}), Pairs{});
    EXPECT_EQ(get({"nosuch*"}), Pairs{});
}

TEST_F(ConfigTest, GetReturnsEachConfigOnce) {
    const Pairs hash = {{"hash-max-listpack-entries", "512"}, {"hash-max-ziplist-entries", "512"},
                        {"hash-max-listpack-value", "64"}, {"hash-max-ziplist-value", "64"}};
    Pairs hStar = hash; /* what "h*" matches besides hz */
    hStar.push_back({"hll-sparse-max-bytes", "3000"});
    Pairs expected{{"hz", "10"}};
    expected.insert(expected.end(), hStar.begin(), hStar.end());
    expected.push_back({"port", "6379"});
    EXPECT_EQ(get({"hz", "HZ", "h*", "port"}), expected);
    EXPECT_EQ(get({"HZ", "h*"}).size(), 1 + hStar.size());
    EXPECT_EQ(get({"hash*", "hash-max-ziplist-entries"}), hash) << "an alias matches a pattern too";
    EXPECT_EQ(get({"*", "*"}).size(), get({"*"}).size());
}

/* What port, bind, protected-mode, daemonize and pidfile do is tested on a
 * running server, in tests/integration/config_test.cpp. */
TEST_F(ConfigTest, SetChangesTheServer) {
    EXPECT_EQ(set({"LogLevel", "debug", "timeout", "7"}), "");
    EXPECT_EQ(server.verbosity, LL_DEBUG);
    EXPECT_EQ(server.maxidletime, 7);
    EXPECT_EQ(set({"proto-max-bulk-len", "2MB"}), "");
    EXPECT_EQ(get({"proto-max-bulk-len"}), (Pairs{{"proto-max-bulk-len", "2097152"}}));
    EXPECT_EQ(set({"maxclients", "4294967295"}), "");
    EXPECT_EQ(server.maxclients, 4294967295u);
}

TEST_F(ConfigTest, SetHzClampsThroughItsApplyHook) {
    EXPECT_EQ(set({"hz", "1000"}), "");
    EXPECT_EQ(server.config_hz, 500);
    EXPECT_EQ(server.hz, 500);
    EXPECT_EQ(get({"hz"}), (Pairs{{"hz", "500"}}));
    EXPECT_EQ(set({"hz", "0"}), "");
    EXPECT_EQ(server.hz, 1);
}

/* CONFIG SET splits a list value on single spaces, not like a config line. */
TEST_F(ConfigTest, SetBind) {
    EXPECT_EQ(set({"bind", "127.0.0.1 ::1"}), "");
    EXPECT_EQ(server.bindaddr, (std::vector<std::string>{"127.0.0.1", "::1"}));
    EXPECT_EQ(get({"bind"}), (Pairs{{"bind", "127.0.0.1 ::1"}}));
    EXPECT_EQ(set({"bind", "a  \"b\""}), "");
    EXPECT_EQ(server.bindaddr, (std::vector<std::string>{"a", "", "\"b\""}));
    EXPECT_EQ(set({"bind", ""}), "");
    EXPECT_TRUE(server.bindaddr.empty());
    EXPECT_EQ(set({"bind", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17"}),
              "CONFIG SET failed (possibly related to argument 'bind') - Too many bind addresses specified.");
}

TEST_F(ConfigTest, SetErrorsAsRedis) {
    EXPECT_EQ(set({"foo", "bar"}), "Unknown option or number of arguments for CONFIG SET - 'foo'");
    EXPECT_EQ(set({"hz", "abc"}),
              "CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be parsed into an integer");
    EXPECT_EQ(set({"HZ", "abc"}),
              "CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be parsed into an integer");
    EXPECT_EQ(set({"port", "-1"}),
              "CONFIG SET failed (possibly related to argument 'port') - argument must be between 0 and 65535 inclusive");
    EXPECT_EQ(set({"maxclients", "-1"}), "CONFIG SET failed (possibly related to argument 'maxclients') - "
                                         "argument must be between 1 and 4294967295 inclusive");
    EXPECT_EQ(set({"maxclients", " 5"}), "CONFIG SET failed (possibly related to argument 'maxclients') - "
                                         "argument couldn't be parsed into an integer");
    EXPECT_EQ(set({"proto-max-bulk-len", "+2000000"}),
              "CONFIG SET failed (possibly related to argument 'proto-max-bulk-len') - argument must be a memory value");
    EXPECT_EQ(set({"client-query-buffer-limit", "100000000000000000000"}),
              "CONFIG SET failed (possibly related to argument 'client-query-buffer-limit') - "
              "argument must be between 1048576 and 9223372036854775807 inclusive");
    EXPECT_EQ(set({"loglevel", "foo"}), "CONFIG SET failed (possibly related to argument 'loglevel') - "
                                        "argument(s) must be one of the following: debug, verbose, notice, warning");
    EXPECT_EQ(set({"protected-mode", "1"}),
              "CONFIG SET failed (possibly related to argument 'protected-mode') - argument must be 'yes' or 'no'");
}

TEST_F(ConfigTest, ImmutableConfigsAreRefused) {
    for (const char *name : {"databases", "daemonize", "logfile", "pidfile", "tcp-backlog", "DATABASES"}) {
        EXPECT_EQ(set({name, "1"}),
                  "CONFIG SET failed (possibly related to argument '" + std::string(name) + "') - can't set immutable config");
    }
}

TEST_F(ConfigTest, DuplicatesAreRefusedUnderTheGivenName) {
    EXPECT_EQ(set({"hz", "10", "HZ", "20"}), "CONFIG SET failed (possibly related to argument 'HZ') - duplicate parameter");
    EXPECT_EQ(server.config_hz, 10);
}

/* The first problem in argument order is the one reported. */
TEST_F(ConfigTest, FirstArgumentErrorWins) {
    EXPECT_EQ(set({"hz", "30", "databases", "1", "foo", "1"}),
              "CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config");
    EXPECT_EQ(set({"hz", "30", "foo", "1", "databases", "1"}),
              "Unknown option or number of arguments for CONFIG SET - 'foo'");
}

/* One config's value, by its exact name. */
std::string configValue(std::string_view name) {
    Pairs found = get({name});
    return found.empty() ? "<none>" : found[0].second;
}

/* save: pairs of seconds >= 1 and changes >= 0, read by strtoll as Redis
 * does; "" for none. CONFIG SET replaces the points. */
TEST_F(ConfigTest, SaveParams) {
    const std::string invalid = "CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters";
    EXPECT_EQ(set({"save", ""}), "");
    EXPECT_TRUE(server.saveparams.empty());
    EXPECT_EQ(configValue("save"), "");
    EXPECT_EQ(set({"save", "900 1 300 +10"}), "");
    EXPECT_EQ(configValue("save"), "900 1 300 10");
    for (const char *bad : {"900", "0 1", "10 -1", "abc 1", "10 1x", " 10 1", "10  1"})
        EXPECT_EQ(set({"save", bad}), invalid) << bad;
    EXPECT_EQ(configValue("save"), "900 1 300 10");
    EXPECT_EQ(set({"save", "10 0"}), "");
    EXPECT_EQ(configValue("save"), "10 0");
}

/* In redis.conf one `save` line per point: the first replaces the defaults. */
TEST_F(ConfigTest, SaveLinesAddUpInTheConfigFile) {
    loadServerConfig(nullptr, "save 900 1\nsave 300 10\nsave \"60 10000\"");
    EXPECT_EQ(configValue("save"), "900 1 300 10 60 10000");
    loadServerConfig(nullptr, "port 7000");
    EXPECT_EQ(configValue("save"), "900 1 300 10 60 10000"); /* no save line: kept */
    loadServerConfig(nullptr, "save \"\"");
    EXPECT_TRUE(server.saveparams.empty());
    /* An empty one after others empties the list (a file's lines, then
     * `--save ""` on the command line), and later lines add again. */
    loadServerConfig(nullptr, "save 3600 1\nsave \"\"");
    EXPECT_TRUE(server.saveparams.empty());
    loadServerConfig(nullptr, "save 3600 1\nsave \"\"\nsave 60 5");
    EXPECT_EQ(configValue("save"), "60 5");
}

TEST_F(ConfigTest, RdbFilesConfigs) {
    EXPECT_EQ(set({"dbfilename", "a/b.rdb"}),
              "CONFIG SET failed (possibly related to argument 'dbfilename') - dbfilename can't be a path, just a filename");
    EXPECT_EQ(set({"dbfilename", "other.rdb"}), "");
    EXPECT_EQ(server.rdb_filename, "other.rdb");
    EXPECT_EQ(set({"dir", "/nonexistent-dir-for-cppredis"}),
              "CONFIG SET failed (possibly related to argument 'dir') - No such file or directory");
    EXPECT_EQ(set({"rdbchecksum", "no"}), "CONFIG SET failed (possibly related to argument 'rdbchecksum') - can't set immutable config");
    EXPECT_EQ(set({"rdbcompression", "no", "stop-writes-on-bgsave-error", "no"}), "");
    EXPECT_FALSE(server.rdb_compression);
    EXPECT_FALSE(server.stop_writes_on_bgsave_err);
    /* A hidden config answers by its name only. */
    EXPECT_EQ(set({"rdb-key-save-delay", "-5"}), "");
    EXPECT_EQ(configValue("rdb-key-save-delay"), "-5");
    std::vector<std::string_view> pattern = {"rdb-key*"};
    EXPECT_TRUE(configGet(pattern).empty());
}

TEST_F(ConfigTest, SetIsAtomic) {
    EXPECT_EQ(set({"hz", "20", "timeout", "5", "port", "abc"}),
              "CONFIG SET failed (possibly related to argument 'port') - argument couldn't be parsed into an integer");
    EXPECT_EQ(server.config_hz, 10);
    EXPECT_EQ(server.hz, 10);
    EXPECT_EQ(server.maxidletime, 0);
    EXPECT_EQ(server.port, 6379);
    EXPECT_EQ(set({"bind", "1.2.3.4", "loglevel", "bad"}).empty(), false);
    EXPECT_EQ(server.bindaddr, (std::vector<std::string>{"127.0.0.1", "-::1"}));
}

/* ------------------------------------------------------------------------
 * CONFIG REWRITE's text (Redis 7.0.15's rewriteConfig)
 * ---------------------------------------------------------------------- */

/* The new text without the lines written whatever the values: `dir` (the
 * cwd) and `user` (the ACL's users). */
std::string rewritten(std::string_view old_content) {
    std::istringstream in(rewriteConfigContent(old_content));
    std::string out;
    for (std::string line; std::getline(in, line);)
        if (!line.starts_with("dir ") && !line.starts_with("user ")) out += line + "\n";
    return out;
}

/* Each option takes its first line (its alias's too, renamed); its other
 * lines are blanked, runs of blank lines become one, comments stay. */
TEST_F(ConfigTest, RewriteReplacesEachOptionInPlace) {
    EXPECT_EQ(set({"replica-read-only", "no", "tcp-keepalive", "200", "save", "3600 1"}), "");
    EXPECT_EQ(rewritten("# top comment\n\nslave-read-only yes\ntcp-keepalive 60\nsave 900 1\n  # indented\n"
                        "tcp-keepalive 100\nsave 300 10\nSAVE 60 10000\ninclude /x.conf\n\n\n# end\n"),
              "# top comment\n\nreplica-read-only no\ntcp-keepalive 200\nsave 3600 1\n# indented\n\n"
              "include /x.conf\n\n# end\n\n# Generated by CONFIG REWRITE\n");
}

/* An option at its default keeps its line but gets none if it had none;
 * one that is not gets appended, after the signature, once. */
TEST_F(ConfigTest, RewriteWritesDefaultsOnlyWhereTheFileHadThem) {
    EXPECT_EQ(rewritten("timeout 0\n"), "timeout 0\n\n# Generated by CONFIG REWRITE\n"
                                        "save 3600 1\nsave 300 100\nsave 60 10000\n");
    EXPECT_EQ(set({"timeout", "5", "save", ""}), "");
    std::string once = rewriteConfigContent("port 6379\n");
    EXPECT_EQ(rewritten("port 6379\n"), "port 6379\n\n# Generated by CONFIG REWRITE\nsave \"\"\ntimeout 5\n");
    /* Rewriting the result adds a blank last line (as Redis: the file's
     * final newline ends an empty line), then nothing changes. */
    std::string twice = rewriteConfigContent(once);
    EXPECT_EQ(twice, once + "\n");
    EXPECT_EQ(rewriteConfigContent(twice), twice);
}

std::string rewrittenLine(std::vector<std::string_view> name_value) {
    EXPECT_EQ(set(name_value), "");
    std::string option = std::string(name_value[0]) + " ";
    std::istringstream in(rewriteConfigContent(""));
    std::string found;
    for (std::string line; std::getline(in, line);)
        if (line.starts_with(option)) found += (found.empty() ? "" : "|") + line;
    return found;
}

TEST_F(ConfigTest, RewriteWritesValuesAsRedis) {
    EXPECT_EQ(rewrittenLine({"maxmemory", "100mb"}), "maxmemory 100mb");
    EXPECT_EQ(rewrittenLine({"auto-aof-rewrite-min-size", "3221225472"}), "auto-aof-rewrite-min-size 3gb");
    EXPECT_EQ(rewrittenLine({"auto-aof-rewrite-min-size", "2048"}), "auto-aof-rewrite-min-size 2kb");
    EXPECT_EQ(rewrittenLine({"auto-aof-rewrite-min-size", "1000"}), "auto-aof-rewrite-min-size 1000");
    EXPECT_EQ(rewrittenLine({"masterauth", "a \"b\"\tc"}), "masterauth \"a \\\"b\\\"\\tc\"");
    EXPECT_EQ(rewrittenLine({"notify-keyspace-events", "KEA"}), "notify-keyspace-events \"AKE\"");
    EXPECT_EQ(rewrittenLine({"appendfsync", "always"}), "appendfsync always");
    EXPECT_EQ(rewrittenLine({"appendonly", "no"}), "");
    EXPECT_EQ(rewrittenLine({"hz", "20"}), "hz 20");
    EXPECT_EQ(rewrittenLine({"dbfilename", "x.rdb"}), "dbfilename \"x.rdb\"");
    EXPECT_EQ(rewrittenLine({"bind", "1.2.3.4 ::1"}), "bind 1.2.3.4 ::1");
    EXPECT_EQ(rewrittenLine({"bind", ""}), "bind \"\"");
    EXPECT_EQ(rewrittenLine({"save", "10 1 20 2"}), "save 10 1|save 20 2");
    /* Hidden configs too, when not at their default (Redis does not skip them). */
    EXPECT_EQ(rewrittenLine({"rdb-key-save-delay", "10"}), "rdb-key-save-delay 10");
    /* One line per class that is not at its default. */
    EXPECT_EQ(rewrittenLine({"client-output-buffer-limit", "pubsub 64mb 16mb 90"}),
              "client-output-buffer-limit pubsub 64mb 16mb 90");
    EXPECT_EQ(rewrittenLine({"client-output-buffer-limit", "slave 1 2 3 normal 1kb 0 0"}),
              "client-output-buffer-limit normal 1kb 0 0|client-output-buffer-limit replica 1 2 3|"
              "client-output-buffer-limit pubsub 64mb 16mb 90");
}

/* Unset strings (Redis's NULL ones) lose their lines, so the next start
 * has them unset too; the default bind addresses replace the file's line
 * (Redis's default is another, so it writes them too), an empty logfile
 * keeps its line (a value to Redis), and nothing is appended for either. */
TEST_F(ConfigTest, RewriteDropsUnsetStringsAndKeepsDefaultBind) {
    EXPECT_EQ(rewritten("requirepass \"x\"\nbind 1.2.3.4\nmasterauth y\nlogfile \"\"\nsave \"\"\n"),
              "\nbind 127.0.0.1 -::1\n\nlogfile \"\"\nsave 3600 1\n\n# Generated by CONFIG REWRITE\nsave 300 100\n"
              "save 60 10000\n");
}

/* Lines cppredis would not read are kept as comments, as Redis does with
 * the ones it does not know; unbalanced quotes too. rename-command lines
 * stay as they are, as in Redis. */
TEST_F(ConfigTest, RewriteCommentsOutUnknownLines) {
    EXPECT_EQ(rewritten("foo bar\nrename-command X Y\nport \"6379\nport 6379\n"),
              "# ??? foo bar\nrename-command X Y\n# ??? port \"6379\nport 6379\n\n"
              "# Generated by CONFIG REWRITE\nsave 3600 1\nsave 300 100\nsave 60 10000\n");
}

/* ------------------------------------------------------------------------
 * The command handlers, on a socketless client
 * ---------------------------------------------------------------------- */

class ConfigCommandTest : public ConfigTest {
protected:
    static void SetUpTestSuite() {
        if (server.commands.empty()) initCommandTable(); /* CONFIG RESETSTAT walks it */
    }
    void SetUp() override {
        ConfigTest::SetUp();
        c_ = createClient(nullptr);
    }
    void TearDown() override {
        freeClient(c_);
        ConfigTest::TearDown();
    }
    std::string run(void (*handler)(client *), std::vector<std::string> args) {
        words_ = std::move(args);
        c_->argv.assign(words_.begin(), words_.end());
        handler(c_);
        std::string out = clientOutputBytes(c_);
        c_->bufpos = 0;
        return out;
    }

    client *c_ = nullptr;
    std::vector<std::string> words_;
};

TEST_F(ConfigCommandTest, GetRepliesAFlatArray) {
    EXPECT_EQ(run(configGetCommand, {"config", "get", "hz", "bind"}),
              "*4\r\n$2\r\nhz\r\n$2\r\n10\r\n$4\r\nbind\r\n$14\r\n127.0.0.1 -::1\r\n");
    EXPECT_EQ(run(configGetCommand, {"config", "get", "nosuch"}), "*0\r\n");
}

TEST_F(ConfigCommandTest, SetRepliesOkOrTheError) {
    EXPECT_EQ(run(configSetCommand, {"config", "set", "hz", "20"}), "+OK\r\n");
    EXPECT_EQ(server.hz, 20);
    EXPECT_EQ(run(configSetCommand, {"config", "set", "foo", "bar"}),
              "-ERR Unknown option or number of arguments for CONFIG SET - 'foo'\r\n");
    EXPECT_EQ(run(configSetCommand, {"config", "set", "hz", "10", "port"}), "-ERR syntax error\r\n");
}

TEST_F(ConfigCommandTest, ResetStatZeroesStatistics) {
    server.stat_numcommands = 42;
    EXPECT_EQ(run(configResetStatCommand, {"config", "resetstat"}), "+OK\r\n");
    EXPECT_EQ(server.stat_numcommands, 0);
}

TEST_F(ConfigCommandTest, HelpListsTheSubcommands) {
    std::string help = run(configHelpCommand, {"config", "help"});
    EXPECT_EQ(help.rfind("*", 0), 0u);
    EXPECT_NE(help.find("+CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"), std::string::npos);
    EXPECT_NE(help.find("+GET <pattern>\r\n"), std::string::npos);
    EXPECT_NE(help.find("+    Reset statistics reported by the INFO command.\r\n"), std::string::npos);
    EXPECT_NE(help.find("+REWRITE\r\n+    Rewrite the configuration file.\r\n"), std::string::npos);
}

}  // namespace
