/* redis_conf_test.cpp — Redis 7.0's redis.conf on cppredis (issue 21):
 * Debian's own /etc/redis/redis.conf (package redis-server) loads and
 * serves, and CONFIG REWRITE keeps its comments and lines; the names CONFIG
 * GET * lists are Redis 7.0.15's, less a documented list; the new configs
 * answer CONFIG GET/SET as Redis 7.0.15 does (the same bytes); a directive
 * cppredis refuses is named at start-up with its reason, one it accepts
 * without effect is logged; rename-command, include and the command line's
 * precedence, oom-score-adj, shutdown-on-sigterm, aof-timestamp-enabled and
 * rdb-del-sync-files behave as in Redis. Issue 32's: tls-cluster,
 * watchdog-period, use-exit-on-panic and key-load-delay answer as Redis,
 * key-load-delay slows a load down per key, and the values cppredis cannot
 * honour (sanitize-dump-payload no/clients among them) are refused.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

constexpr const char *kDebianConf = "/etc/redis/redis.conf";

/* Debian's file runs a daemon logging to /var/log/redis with its data in
 * /var/lib/redis: a test overrides these on the command line, as an
 * administrator's --options would. (It has no `supervised` line.) */
std::vector<std::string> debianOverrides(const TempDir &dir) {
    return {"--daemonize", "no", "--logfile", "", "--pidfile", dir.file("redis.pid"), "--dir", dir.path()};
}

std::string configGet(RespConn &c, const std::string &name) {
    Reply r = c.call({"CONFIG", "GET", name});
    return r.elements.size() == 2 ? r.elements[1].str : "<" + toString(r) + ">";
}

/* CONFIG SET's error reply, as Redis words it. */
std::string setFailed(const std::string &name, const std::string &reason) {
    return "-ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason + "\r\n";
}

std::vector<std::string> lines(const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

/* The process title: /proc/<pid>/cmdline up to its first NUL. */
std::string procTitle(pid_t pid) {
    std::string cmdline = readFile("/proc/" + std::to_string(pid) + "/cmdline");
    return cmdline.substr(0, cmdline.find('\0'));
}

/* ------------------------------------------------------------------------
 * Debian's redis.conf
 * ---------------------------------------------------------------------- */

TEST(RedisConf, DebianRedisConfLoadsAndServes) {
    SKIP_UNLESS_PACKAGE("redis-server", std::filesystem::exists(kDebianConf));
    TempDir dir;
    TestServer s(ServerOptions{.args = debianOverrides(dir), .configFile = kDebianConf});
    RespConn c = s.connect();
    EXPECT_EQ(c.call({"PING"}).str, "PONG");
    /* Values as the file sets them (several differ from the defaults). */
    const std::pair<const char *, const char *> expected[] = {
        {"daemonize", "no"}, {"tcp-keepalive", "300"}, {"databases", "16"}, {"always-show-logo", "no"},
        {"set-proc-title", "yes"}, {"proc-title-template", "{title} {listen-addr} {server-mode}"},
        {"rdb-del-sync-files", "no"}, {"oom-score-adj", "no"}, {"oom-score-adj-values", "0 200 800"},
        {"disable-thp", "yes"}, {"appenddirname", "appendonlydir"}, {"aof-use-rdb-preamble", "yes"},
        {"list-max-listpack-size", "-2"}, {"list-compress-depth", "0"}, {"activerehashing", "yes"},
        {"dynamic-hz", "yes"}, {"hash-max-listpack-entries", "512"}, {"auto-aof-rewrite-min-size", "67108864"},
        {"client-output-buffer-limit", "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"},
        {"logfile", ""},
    };
    for (const auto &[name, value] : expected) EXPECT_EQ(configGet(c, name), value) << name;
    EXPECT_EQ(configGet(c, "dir"), std::filesystem::canonical(dir.path()).string());
    /* What cppredis cannot honour is reported, and only that. */
    const std::string log = s.log();
    EXPECT_NE(log.find("WARNING: 'list-max-listpack-size -2' is accepted without effect: "), std::string::npos) << log;
    size_t warnings = 0; /* list-compress-depth 0 is what cppredis does: no warning */
    for (const std::string &line : lines(log)) warnings += line.find("accepted without effect") != std::string::npos;
    EXPECT_EQ(warnings, 1u) << log;
    /* set-proc-title yes: ps shows "<executable> 127.0.0.1:<port>". */
    EXPECT_EQ(procTitle(s.pid()), std::string(CPPREDIS_SERVER_BIN) + " 127.0.0.1:" + std::to_string(s.port()));
}

/* CONFIG REWRITE of a copy of Debian's file: every comment and every line
 * stays where it was (the command line's values replace the file's in
 * their lines), nothing is commented out as unknown, and a changed option
 * the file only mentions in a comment is appended. Redis 7.0.15 rewrites the
 * same copy to the same lines. */
TEST(RedisConf, RewriteKeepsDebianCommentsAndLines) {
    SKIP_UNLESS_PACKAGE("redis-server", std::filesystem::exists(kDebianConf));
    const std::vector<std::string> original = lines(readFile(kDebianConf));
    auto rewrite = [&](const std::string &binary) {
        TempDir dir;
        const std::string copy = dir.file("redis.conf");
        writeFile(copy, readFile(kDebianConf));
        TestServer s(ServerOptions{.args = debianOverrides(dir), .configFile = copy, .binary = binary});
        RespConn c = s.connect();
        EXPECT_EQ(c.call({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru", "list-compress-depth", "0"}).str, "OK");
        EXPECT_EQ(c.call({"CONFIG", "REWRITE"}).str, "OK");
        std::vector<std::string> out = lines(readFile(copy));
        /* Redis 7.0 writes latency-tracking-info-percentiles whatever its value. */
        std::erase_if(out, [](const std::string &l) { return l.starts_with("latency-tracking-info-percentiles "); });
        for (std::string &line : out) {
            if (line.starts_with("port ")) line = "port PORT";
            if (line.starts_with("pidfile ") || line.starts_with("dir ")) line = line.substr(0, line.find(' ')) + " DIR";
        }
        /* Redis appends in the order of its hash table: the appended lines are compared sorted. */
        std::sort(std::find(out.begin(), out.end(), "# Generated by CONFIG REWRITE"), out.end());
        return out;
    };
    const std::vector<std::string> ours = rewrite(CPPREDIS_SERVER_BIN);
    /* The comments, in their order. */
    std::vector<std::string> comments, kept;
    for (const std::string &line : original)
        if (line.starts_with("#")) comments.push_back(line.substr(0, line.find_last_not_of(" ") + 1)); /* trimmed */
    std::copy_if(ours.begin(), ours.end(), std::back_inserter(kept), [](const std::string &l) { return l.starts_with("#"); });
    kept.erase(std::remove(kept.begin(), kept.end(), "# Generated by CONFIG REWRITE"), kept.end());
    EXPECT_EQ(kept, comments);
    for (const std::string &line : ours) EXPECT_FALSE(line.starts_with("# ???")) << line;
    EXPECT_NE(std::find(ours.begin(), ours.end(), "maxmemory-policy allkeys-lru"), ours.end());
    EXPECT_NE(std::find(ours.begin(), ours.end(), "list-max-listpack-size -2"), ours.end());
    EXPECT_NE(std::find(ours.begin(), ours.end(), "oom-score-adj-values 0 200 800"), ours.end());
    REQUIRE_REDIS_REFERENCE(); /* after cppredis's checks: they run without Redis too */
    EXPECT_EQ(ours, rewrite(RedisReference::kBinary));
}

/* ------------------------------------------------------------------------
 * CONFIG GET * against Redis 7.0.15
 * ---------------------------------------------------------------------- */

/* Redis 7.0.15's names cppredis does not have, each for a reason docs/ref-configuration.md
 * ("Configuration (redis.conf)") gives: refused... */
const std::set<std::string> kRefused = {
    "cluster-allow-pubsubshard-when-down", "cluster-allow-reads-when-down", "cluster-allow-replica-migration",
    "cluster-announce-bus-port", "cluster-announce-hostname", "cluster-announce-ip", "cluster-announce-port",
    "cluster-announce-tls-port", "cluster-config-file", "cluster-link-sendbuf-limit", "cluster-migration-barrier",
    "cluster-node-timeout", "cluster-port", "cluster-preferred-endpoint-type", "cluster-replica-no-failover",
    "cluster-replica-validity-factor", "cluster-require-full-coverage", "cluster-slave-no-failover",
    "cluster-slave-validity-factor", "crash-log-enabled", "crash-memcheck-enabled", "maxmemory-clients",
    "shutdown-timeout", "socket-mark-id", "bind-source-addr",
    /* replicaof is a directive of redis.conf (and REPLICAOF), not a CONFIG GET name */
    "replicaof", "slaveof"};
/* cppredis's own: Redis 3.0's list encoding thresholds, and the live trace. */
const std::set<std::string> kCppredisOnly = {"list-max-ziplist-entries", "list-max-ziplist-value", "trace-events"};

std::set<std::string> configNames(RespConn &c) {
    std::set<std::string> names;
    Reply r = c.call({"CONFIG", "GET", "*"});
    for (size_t i = 0; i < r.elements.size(); i += 2) names.insert(r.elements[i].str);
    return names;
}

TEST(RedisConf, ConfigGetNamesAreRedis7sLessADocumentedList) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours;
    RedisReference ref;
    RespConn oc = ours.connect(), rc = ref.connect();
    const std::set<std::string> our_names = configNames(oc), redis_names = configNames(rc);
    for (const std::string &name : our_names)
        EXPECT_TRUE(redis_names.contains(name) || kCppredisOnly.contains(name)) << name << " is not Redis 7.0's";
    for (const std::string &name : redis_names)
        EXPECT_TRUE(our_names.contains(name) || kRefused.contains(name))
            << name << " is missing from cppredis and from the documented list";
    for (const std::string &name : kRefused) EXPECT_FALSE(our_names.contains(name)) << name;
}

/* ------------------------------------------------------------------------
 * The new configs' CONFIG GET / SET, byte for byte as Redis 7.0.15
 * ---------------------------------------------------------------------- */

class RedisConfGetSet : public EitherServerTest {};
INSTANTIATE_TEST_SUITE_P(Servers, RedisConfGetSet, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

TEST_P(RedisConfGetSet, DefaultsBoundsAndImmutables) {
    const auto failed = setFailed;
    const std::vector<std::pair<Args, std::string>> cases = {
        {{"CONFIG", "GET", "always-show-logo"}, "*2\r\n$16\r\nalways-show-logo\r\n$2\r\nno\r\n"},
        {{"CONFIG", "GET", "proc-title-template"},
         "*2\r\n$19\r\nproc-title-template\r\n$35\r\n{title} {listen-addr} {server-mode}\r\n"},
        {{"CONFIG", "GET", "oom-score-adj-values"}, "*2\r\n$20\r\noom-score-adj-values\r\n$9\r\n0 200 800\r\n"},
        {{"CONFIG", "GET", "shutdown-on-sigterm"}, "*2\r\n$19\r\nshutdown-on-sigterm\r\n$7\r\ndefault\r\n"},
        {{"CONFIG", "GET", "list-max-ziplist-size"}, "*2\r\n$21\r\nlist-max-ziplist-size\r\n$2\r\n-2\r\n"},
        {{"CONFIG", "GET", "active-defrag-ignore-bytes"}, "*2\r\n$26\r\nactive-defrag-ignore-bytes\r\n$9\r\n104857600\r\n"},
        {{"CONFIG", "SET", "always-show-logo", "yes"}, failed("always-show-logo", "can't set immutable config")},
        {{"CONFIG", "SET", "io-threads", "2"}, failed("io-threads", "can't set immutable config")},
        {{"CONFIG", "SET", "proc-title-template", "{nosuch}"},
         failed("proc-title-template", "template format is invalid or contains unknown variables")},
        {{"CONFIG", "SET", "oom-score-adj-values", "1 2 3000"},
         failed("oom-score-adj-values", "Invalid oom-score-adj-values, elements must be between -2000 and 2000.")},
        {{"CONFIG", "SET", "oom-score-adj-values", "1 2"}, failed("oom-score-adj-values", "wrong number of arguments")},
        {{"CONFIG", "SET", "shutdown-on-sigint", "save nosave"},
         failed("shutdown-on-sigint", "shutdown options SAVE and NOSAVE can't be used simultaneously")},
        {{"CONFIG", "SET", "shutdown-on-sigint", "now force"}, "+OK\r\n"},
        {{"CONFIG", "GET", "shutdown-on-sigint"}, "*2\r\n$18\r\nshutdown-on-sigint\r\n$9\r\nnow force\r\n"},
        {{"CONFIG", "SET", "active-expire-effort", "11"},
         failed("active-expire-effort", "argument must be between 1 and 10 inclusive")},
        {{"CONFIG", "SET", "oom-score-adj", "maybe"},
         failed("oom-score-adj", "argument(s) must be one of the following: no, yes, relative, absolute")},
        {{"CONFIG", "SET", "activedefrag", "yes"},
         failed("activedefrag", "Active defragmentation cannot be enabled: it requires a Redis server compiled with a "
                                "modified Jemalloc like the one shipped by default with the Redis source distribution")},
        {{"CONFIG", "SET", "cluster-enabled", "yes"}, failed("cluster-enabled", "can't set immutable config")},
        {{"CONFIG", "SET", "dynamic-hz", "no", "activerehashing", "no", "list-compress-depth", "1"}, "+OK\r\n"},
    };
    for (const auto &[args, reply] : cases) EXPECT_EQ(call(args), reply) << toString(c->call({"PING"}));
}

/* Issue 32's directives where cppredis does what Redis does: the defaults
 * (the three hidden ones answer their exact name, and no pattern), the
 * parse errors, tls-cluster yes refused by the TLS set-up it asks for (no
 * certificate here), and the values both servers take. */
TEST_P(RedisConfGetSet, TlsClusterAndTheTestingDirectivesAsRedis) {
    auto get = [](const std::string &name, const std::string &value) {
        return "*2\r\n$" + std::to_string(name.size()) + "\r\n" + name + "\r\n$" + std::to_string(value.size()) +
               "\r\n" + value + "\r\n";
    };
    const std::vector<std::pair<Args, std::string>> cases = {
        {{"CONFIG", "GET", "tls-cluster"}, get("tls-cluster", "no")},
        {{"CONFIG", "GET", "watchdog-period"}, get("watchdog-period", "0")},
        {{"CONFIG", "GET", "use-exit-on-panic"}, get("use-exit-on-panic", "no")},
        {{"CONFIG", "GET", "key-load-delay"}, get("key-load-delay", "0")},
        {{"CONFIG", "GET", "*-delay"}, get("repl-diskless-sync-delay", "5")},
        {{"CONFIG", "GET", "*panic*"}, "*0\r\n"},
        {{"CONFIG", "GET", "watchdog*"}, "*0\r\n"},
        {{"CONFIG", "SET", "key-load-delay", "-50"}, OK},
        {{"CONFIG", "GET", "key-load-delay"}, get("key-load-delay", "-50")},
        {{"CONFIG", "SET", "key-load-delay", "x"}, setFailed("key-load-delay", "argument couldn't be parsed into an integer")},
        {{"CONFIG", "SET", "key-load-delay", "99999999999"},
         setFailed("key-load-delay", "argument must be between -2147483648 and 2147483647 inclusive")},
        {{"CONFIG", "SET", "key-load-delay", "0"}, OK},
        {{"CONFIG", "SET", "tls-cluster", "maybe"}, setFailed("tls-cluster", "argument must be 'yes' or 'no'")},
        {{"CONFIG", "SET", "tls-cluster", "yes"},
         setFailed("tls-cluster", "Unable to update TLS configuration. Check server logs.")},
        {{"CONFIG", "GET", "tls-cluster"}, get("tls-cluster", "no")},
        {{"CONFIG", "SET", "watchdog-period", "abc"},
         setFailed("watchdog-period", "argument couldn't be parsed into an integer")},
        {{"CONFIG", "SET", "watchdog-period", "0"}, OK},
        {{"CONFIG", "SET", "use-exit-on-panic", "no"}, OK},
        {{"CONFIG", "SET", "sanitize-dump-payload", "yes"}, OK},
    };
    for (const auto &[args, reply] : cases) EXPECT_EQ(call(args), reply) << args[1] << " " << args[2];
}

/* key-load-delay 10000: DEBUG RELOAD (a save, then a load) of 50 keys
 * takes at least 50 x 10 ms, as every key loaded sleeps. */
TEST_P(RedisConfGetSet, KeyLoadDelaySleepsPerKeyLoaded) {
    ASSERT_EQ(call({"DEBUG", "POPULATE", "50"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "key-load-delay", "10000"}), OK);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(call({"DEBUG", "RELOAD"}), OK);
    EXPECT_GE(std::chrono::steady_clock::now() - start, Ms{500});
    EXPECT_EQ(call({"DBSIZE"}), ":50\r\n");
}

/* The start-up load too: the same 50 keys from dump.rdb, and the server is
 * ready only after 50 x 10 ms. */
TEST(RedisConf, KeyLoadDelaySlowsTheStartUpLoad) {
    TempDir dir;
    {
        TestServer saver({"--dir", dir.path(), "--enable-debug-command", "yes"});
        RespConn c = saver.connect();
        ASSERT_EQ(c.call({"DEBUG", "POPULATE", "50"}).str, "OK");
        ASSERT_EQ(c.call({"SAVE"}).str, "OK");
    }
    const auto start = std::chrono::steady_clock::now();
    TestServer loader({"--dir", dir.path(), "--save", "", "--key-load-delay", "10000"});
    EXPECT_GE(std::chrono::steady_clock::now() - start, Ms{500});
    RespConn c = loader.connect();
    EXPECT_EQ(c.call({"DBSIZE"}).integer, 50);
    EXPECT_TRUE(loader.waitForLog("Done loading RDB, keys loaded: 50, keys expired: 0."));
}

/* What cppredis cannot honour is refused in Redis's words for a value
 * outside the directive's list or range (docs/ref-configuration.md):
 * sanitize-dump-payload answers yes, its behaviour, and refuses no and
 * clients; use-exit-on-panic and watchdog-period keep Redis's default. The
 * same from the command line, fatal. */
TEST(RedisConf, ValuesCppredisCannotHonourAreRefused) {
    TestServer s;
    RespConn c = s.connect();
    EXPECT_EQ(configGet(c, "sanitize-dump-payload"), "yes");
    for (const char *value : {"no", "clients"})
        EXPECT_EQ(c.call({"CONFIG", "SET", "sanitize-dump-payload", value}).raw,
                  setFailed("sanitize-dump-payload", "argument(s) must be one of the following: yes"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "use-exit-on-panic", "yes"}).raw,
              setFailed("use-exit-on-panic", "argument(s) must be one of the following: no"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "watchdog-period", "200"}).raw,
              setFailed("watchdog-period", "argument must be between 0 and 0 inclusive"));
    EXPECT_EQ(configGet(c, "sanitize-dump-payload"), "yes");
    EXPECT_EQ(configGet(c, "use-exit-on-panic"), "no");
    EXPECT_EQ(configGet(c, "watchdog-period"), "0");

    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--port", "0", "--sanitize-dump-payload", "no"}, {}, Ms{10000});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("sanitize-dump-payload"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\nargument(s) must be one of the following: yes\n"), std::string::npos) << r.err;
}

/* ------------------------------------------------------------------------
 * Start-up: refusals, warnings, rename-command, precedence
 * ---------------------------------------------------------------------- */

TEST(RedisConf, RefusedDirectiveIsNamedWithItsReason) {
    TempFile conf("port 0\ncluster-node-timeout 5000\n");
    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, conf.path()}, {}, Ms{10000});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(">>> 'cluster-node-timeout 5000'\nBad directive or wrong number of arguments\n"
                         "'cluster-node-timeout' is a Redis 7.0 directive that cppredis does not implement: "
                         "Redis Cluster is not implemented"),
              std::string::npos)
        << r.err;
}

/* io-threads 4 starts one thread, and says so in the log. */
TEST(RedisConf, AcceptedWithoutEffectIsLogged) {
    TestServer s({"--io-threads", "4"});
    EXPECT_TRUE(s.waitForLog("WARNING: 'io-threads 4' is accepted without effect: cppredis runs commands and I/O on "
                             "one thread"));
    RespConn c = s.connect();
    EXPECT_EQ(configGet(c, "io-threads"), "4");
}

/* rename-command GET getx, rename-command FLUSHALL "": the same replies on
 * both servers. */
TEST(RedisConf, RenameCommandRenamesAndRemoves) {
    REQUIRE_REDIS_REFERENCE();
    TempFile conf("rename-command GET getx\nrename-command FLUSHALL \"\"\n");
    TestServer ours(ServerOptions{.args = {"--save", ""}, .configFile = conf.path()});
    TestServer ref(ServerOptions{.args = {"--save", ""}, .configFile = conf.path(), .binary = RedisReference::kBinary});
    RespConn oc = ours.connect(), rc = ref.connect();
    expectSameReplies(oc, rc, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n");
    expectSameReplies(oc, rc, "*2\r\n$4\r\ngetx\r\n$1\r\nk\r\n");
    expectSameReplies(oc, rc, "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
    expectSameReplies(oc, rc, "*1\r\n$8\r\nFLUSHALL\r\n");
}

/* Lines apply in order, an include where it stands, and the command line
 * after the file: Redis's precedence, checked on both servers. */
TEST(RedisConf, IncludeAndCommandLineKeepRedisPrecedence) {
    REQUIRE_REDIS_REFERENCE();
    TempFile included("maxmemory-samples 4\nlfu-log-factor 7\nslowlog-max-len 9\nsave 60 5\n");
    TempFile conf("maxmemory-samples 3\ninclude " + included.path() + "\nlfu-log-factor 5\nsave 900 1\n");
    const std::vector<std::string> args = {"--slowlog-max-len", "11", "--save", "30 2"};
    TestServer ours(ServerOptions{.args = args, .configFile = conf.path()});
    TestServer ref(ServerOptions{.args = args, .configFile = conf.path(), .binary = RedisReference::kBinary});
    RespConn oc = ours.connect(), rc = ref.connect();
    for (const char *name : {"maxmemory-samples", "lfu-log-factor", "slowlog-max-len", "save"})
        EXPECT_EQ(configGet(oc, name), configGet(rc, name)) << name;
    EXPECT_EQ(configGet(oc, "maxmemory-samples"), "4");
    EXPECT_EQ(configGet(oc, "lfu-log-factor"), "5");
    EXPECT_EQ(configGet(oc, "slowlog-max-len"), "11");
}

/* ------------------------------------------------------------------------
 * What the process configs do
 * ---------------------------------------------------------------------- */

int oomScoreAdj(pid_t pid) { return std::stoi(readFile("/proc/" + std::to_string(pid) + "/oom_score_adj")); }

/* oom-score-adj relative adds the master's value to the score the process
 * started with; `no` puts that back. As Redis 7.0.15 does. */
TEST(RedisConf, OomScoreAdjWritesTheProcessScore) {
    REQUIRE_REDIS_REFERENCE();
    const std::vector<std::string> binaries{CPPREDIS_SERVER_BIN, RedisReference::kBinary};
    for (const std::string &binary : binaries) {
        TestServer s(ServerOptions{.args = {"--save", "", "--oom-score-adj", "relative", "--oom-score-adj-values",
                                            "10 20 30"},
                                   .binary = binary});
        const int base = oomScoreAdj(getpid());
        RespConn c = s.connect();
        EXPECT_EQ(c.call({"PING"}).str, "PONG"); /* Redis writes the score after its "Ready" line */
        EXPECT_EQ(oomScoreAdj(s.pid()), base + 10) << binary;
        EXPECT_EQ(c.call({"CONFIG", "SET", "oom-score-adj-values", "40 50 60"}).str, "OK");
        EXPECT_EQ(oomScoreAdj(s.pid()), base + 40) << binary;
        EXPECT_EQ(c.call({"CONFIG", "SET", "oom-score-adj", "no"}).str, "OK");
        EXPECT_EQ(oomScoreAdj(s.pid()), base) << binary;
    }
}

/* shutdown-on-sigterm nosave: SIGTERM exits without the snapshot the save
 * points would take; `save` takes one even without save points. */
TEST(RedisConf, ShutdownOnSigtermTakesItsFlags) {
    for (const auto &[flags, save, snapshot] : {std::tuple{"nosave", "3600 1", false}, std::tuple{"save", "", true}}) {
        TempDir dir;
        TestServer s({"--dir", dir.path(), "--save", save, "--shutdown-on-sigterm", flags});
        RespConn c = s.connect();
        EXPECT_EQ(c.call({"SET", "k", "v"}).str, "OK");
        EXPECT_EQ(s.stop(), 0);
        EXPECT_EQ(std::filesystem::exists(dir.file("dump.rdb")), snapshot) << flags;
    }
}

/* aof-timestamp-enabled: "#TS:<unix time>" before the first write of each
 * second and at the top of a rewritten file; the file loads back, and
 * Redis 7's redis-check-aof finds it valid. */
TEST(RedisConf, AofTimestampAnnotationsAreWrittenAndSkipped) {
    TempDir dir;
    const std::string incr = dir.file("appendonlydir/appendonly.aof.1.incr.aof");
    const std::string base = dir.file("appendonlydir/appendonly.aof.2.base.aof");
    /* A base of commands, which starts with an annotation too. */
    const std::vector<std::string> args = {"--dir", dir.path(), "--appendonly", "yes", "--appendfsync", "always",
                                           "--save", "", "--aof-timestamp-enabled", "yes",
                                           "--aof-use-rdb-preamble", "no", "--enable-debug-command", "yes"};
    {
        TestServer s(args);
        RespConn c = s.connect();
        /* The first base's annotation is this second's: the next write
         * comes in a later one. */
        EXPECT_TRUE(readFile(dir.file("appendonlydir/appendonly.aof.1.base.aof")).starts_with("#TS:"));
        EXPECT_EQ(c.call({"DEBUG", "SLEEP", "1.1"}).str, "OK");
        EXPECT_EQ(c.call({"SET", "k", "v"}).str, "OK");
        EXPECT_TRUE(readFile(incr).starts_with("#TS:")) << escape(readFile(incr));
        EXPECT_EQ(c.call({"BGREWRITEAOF"}).str, "Background append only file rewriting started");
        EXPECT_TRUE(pollUntil([&] {
            return infoField(c, "persistence", "aof_rewrite_in_progress") == "0" &&
                   infoField(c, "persistence", "aof_rewrites") == "1";
        }, Ms{20000}));
        EXPECT_EQ(c.call({"SET", "k2", "v2"}).str, "OK");
        EXPECT_TRUE(readFile(base).starts_with("#TS:")) << escape(readFile(base));
    }
    SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-check-aof"));
    ProcessResult r = runProcess({"redis-check-aof", dir.file("appendonlydir/appendonly.aof.manifest")});
    EXPECT_NE(r.out.find("All AOF files and manifest are valid"), std::string::npos) << r.out << r.err;
    TestServer again(args);
    RespConn c = again.connect();
    EXPECT_EQ(c.call({"MGET", "k", "k2"}).elements.size(), 2u);
    EXPECT_EQ(c.call({"GET", "k2"}).str, "v2");
}

/* The title follows proc-title-template and the port, as CONFIG SET
 * changes them; always-show-logo prints the banner instead of the line. */
TEST(RedisConf, ProcTitleAndLogo) {
    TestServer s({"--always-show-logo", "yes"});
    EXPECT_TRUE(s.waitForLog("Running in standalone mode"));
    EXPECT_EQ(s.log().find("Running mode=standalone"), std::string::npos);
    RespConn c = s.connect();
    EXPECT_EQ(c.call({"CONFIG", "SET", "proc-title-template", "{title} port={port} {{x} conf={config-file}"}).str, "OK");
    EXPECT_EQ(procTitle(s.pid()), std::string(CPPREDIS_SERVER_BIN) + " port=" + std::to_string(s.port()) +
                                      " {x} conf=-");
    const int port = pickFreePort();
    EXPECT_EQ(c.call({"CONFIG", "SET", "proc-title-template", "{title} {listen-addr}", "port", std::to_string(port)}).str,
              "OK");
    EXPECT_EQ(procTitle(s.pid()), std::string(CPPREDIS_SERVER_BIN) + " 127.0.0.1:" + std::to_string(port));
    TestServer plain;
    EXPECT_TRUE(plain.waitForLog("Running mode=standalone, port=" + std::to_string(plain.port()) + "."));
}

/* server_cpulist: the server runs on the CPUs listed (taskset's syntax),
 * as Redis 7.0.15 does; a list that does not parse changes nothing. */
TEST(RedisConf, ServerCpulistSetsTheAffinity) {
    auto cpus = [](pid_t pid) {
        std::string status = readFile("/proc/" + std::to_string(pid) + "/status");
        size_t at = status.find("Cpus_allowed_list:\t");
        return at == std::string::npos ? "" : status.substr(at + 19, status.find('\n', at) - at - 19);
    };
    REQUIRE_REDIS_REFERENCE();
    const std::vector<std::string> binaries{CPPREDIS_SERVER_BIN, RedisReference::kBinary};
    for (const std::string &binary : binaries) {
        TestServer s(ServerOptions{.args = {"--server_cpulist", "0-0:1"}, .binary = binary});
        RespConn c = s.connect();
        EXPECT_EQ(c.call({"CONFIG", "GET", "server_cpulist"}).elements.at(1).str, "0-0:1");
        EXPECT_EQ(cpus(s.pid()), "0") << binary;
        TestServer bad(ServerOptions{.args = {"--server_cpulist", "1-0"}, .binary = binary});
        RespConn b = bad.connect();
        EXPECT_EQ(b.call({"PING"}).str, "PONG");
        EXPECT_EQ(cpus(bad.pid()), cpus(getpid())) << binary;
    }
}

/* rdb-del-sync-files with no persistence: the master's RDB made for a
 * disk-based full sync goes once the replica has it, and the replica's
 * once loaded; a master with save points keeps its file. */
TEST(RedisConf, RdbDelSyncFilesRemovesTheSyncRdb) {
    for (bool persistence : {false, true}) {
        TempDir mdir, rdir;
        TestServer master({"--dir", mdir.path(), "--save", persistence ? "3600 1" : "", "--repl-diskless-sync", "no",
                           "--rdb-del-sync-files", "yes"});
        TestServer replica({"--dir", rdir.path(), "--save", "", "--rdb-del-sync-files", "yes"});
        RespConn m = master.connect(), r = replica.connect();
        EXPECT_EQ(m.call({"SET", "k", "v"}).str, "OK");
        EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", std::to_string(master.port())}).str, "OK");
        ASSERT_TRUE(pollUntil([&] { return infoField(r, "replication", "master_link_status") == "up"; }, Ms{20000}));
        EXPECT_EQ(r.call({"GET", "k"}).str, "v");
        EXPECT_FALSE(std::filesystem::exists(rdir.file("dump.rdb")));
        if (persistence) {
            EXPECT_TRUE(std::filesystem::exists(mdir.file("dump.rdb")));
        } else {
            EXPECT_TRUE(pollUntil([&] { return !std::filesystem::exists(mdir.file("dump.rdb")); }, Ms{5000}));
            EXPECT_TRUE(master.waitForLog("Removing the RDB file used to feed replicas in a persistence-less instance"));
        }
    }
}

}  // namespace
