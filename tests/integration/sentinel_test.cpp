/* sentinel_test.cpp — automatic failover by Redis's own Sentinel (issue 18):
 * three of Debian's redis-sentinel processes watch a master and two
 * replicas, all on loopback ports; a producer (redis-py's Sentinel client,
 * tests/clients/sentinel_producer.py) LPUSHes numbered messages, each
 * followed by WAIT 1 1000; the master is killed with SIGKILL; Sentinel must
 * promote a replica (which then accepts writes), re-point the other one,
 * and the producer carry on through its Sentinel client. Every message
 * WAIT acknowledged must be on the new master and on the other replica.
 * The failover time (kill -> the new master accepts a write) is printed.
 *
 * The same scenario runs on Redis 7.0.15 processes (Redis7), which proves
 * the test, and on cppredis processes (Cppredis).
 *
 * Needs /usr/bin/redis-sentinel (Debian's redis-sentinel, which .ci/run
 * installs) and /usr/bin/python3 with redis-py (Debian's python3-redis,
 * which python3-rq brings); skipped without them. */
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "integration/harness.h"
#include "integration/subprocess.h"

using namespace itest;

namespace {

constexpr const char *kSentinelBinary = "/usr/bin/redis-sentinel";
constexpr const char *kPython = "/usr/bin/python3"; /* Debian's, with redis-py */
using Clock = std::chrono::steady_clock;

/* The data servers' config file (one each: Sentinel rewrites it): no
 * persistence, the suite's short replication timings. */
constexpr const char *kDataConf =
    "save \"\"\nappendonly no\nrepl-diskless-sync-delay 0\nrepl-ping-replica-period 1\n";

std::string sentinelConf(int master_port) {
    return "sentinel monitor mymaster 127.0.0.1 " + std::to_string(master_port) + " 2\n"
           "sentinel down-after-milliseconds mymaster 1000\n"
           "sentinel failover-timeout mymaster 10000\n";
}

long long llen(TestServer &srv) {
    try {
        RespConn c = srv.connect(Ms{1000});
        Reply r = c.call({"LLEN", "queue"});
        return r.type == Reply::Type::Integer ? r.integer : -1;
    } catch (const HarnessError &) {
        return -1;
    }
}

/* The master's port as this Sentinel names it, 0 if it cannot tell. */
int masterPortOf(TestServer &sentinel) {
    try {
        RespConn c = sentinel.connect(Ms{1000});
        Reply r = c.call({"SENTINEL", "get-master-addr-by-name", "mymaster"});
        return r.elements.size() == 2 ? std::stoi(r.elements[1].str) : 0;
    } catch (const std::exception &) {
        return 0;
    }
}

/* Sentinel sends CLIENT KILL TYPE normal with each SLAVEOF it sends, so a
 * probe's connection may be cut under it: that probe says "not yet". */
bool followsMaster(TestServer &replica, int master_port) {
    try {
        RespConn c = replica.connect();
        return infoField(c, "replication", "master_port") == std::to_string(master_port) &&
               infoField(c, "replication", "master_link_status") == "up";
    } catch (const HarnessError &) {
        return false;
    }
}

bool acceptsWrite(TestServer &srv) {
    try {
        return srv.connect().call({"SET", "failover-probe", "1"}).raw == "+OK\r\n";
    } catch (const HarnessError &) {
        return false;
    }
}

/* Each Sentinel knows both replicas and the two other Sentinels: before
 * that, a failover could not get its quorum or would miss a replica. */
bool sentinelsReady(std::vector<std::unique_ptr<TestServer>> &sentinels) {
    for (auto &s : sentinels) {
        RespConn c = s->connect();
        if (c.call({"SENTINEL", "REPLICAS", "mymaster"}).elements.size() != 2) return false;
        if (c.call({"SENTINEL", "SENTINELS", "mymaster"}).elements.size() != 2) return false;
    }
    return true;
}

/* The numbers in the producer's {"acked": [...]} line. */
std::vector<long long> ackedNumbers(const std::string &json) {
    std::vector<long long> numbers;
    size_t at = json.find("\"acked\": [");
    if (at == std::string::npos) return numbers;
    for (const char *p = json.c_str() + at + 10; *p && *p != ']';) {
        char *end;
        long long n = std::strtoll(p, &end, 10);
        if (end == p) {
            p++;
            continue;
        }
        numbers.push_back(n);
        p = end;
    }
    return numbers;
}

std::set<std::string> listOf(TestServer &srv) {
    RespConn c = srv.connect();
    Reply r = c.call({"LRANGE", "queue", "0", "-1"});
    std::set<std::string> items;
    for (const Reply &e : r.elements) items.insert(e.str);
    return items;
}

class SentinelFailover : public ::testing::TestWithParam<ServerImpl> {};

TEST_P(SentinelFailover, KillMasterPromotesAReplicaAndKeepsAcknowledgedWrites) {
    SKIP_UNLESS_PACKAGE("redis-sentinel", ::access(kSentinelBinary, X_OK) == 0);
    SKIP_UNLESS_PACKAGE("python3-redis", runProcess({kPython, "-c", "import redis"}).exitCode == 0);
    const bool cppredis = GetParam() == ServerImpl::Cppredis;
    if (!cppredis) REQUIRE_REDIS_REFERENCE();
    const std::string binary = cppredis ? CPPREDIS_SERVER_BIN : RedisReference::kBinary;

    TempDir dir;
    auto dataServer = [&](const std::string &name, std::vector<std::string> args) {
        writeFile(dir.file(name + ".conf"), kDataConf);
        return std::make_unique<TestServer>(
            ServerOptions{.args = std::move(args), .configFile = dir.file(name + ".conf"), .binary = binary});
    };
    auto master = dataServer("master", {});
    const int old_port = master->port();
    const std::vector<std::string> follow = {"--replicaof", "127.0.0.1", std::to_string(old_port)};
    std::vector<std::unique_ptr<TestServer>> replicas;
    replicas.push_back(dataServer("replica1", follow));
    replicas.push_back(dataServer("replica2", follow));
    for (auto &r : replicas)
        ASSERT_TRUE(pollUntil([&] { return followsMaster(*r, old_port); }, Ms{10000})) << r->log();

    std::vector<std::unique_ptr<TestServer>> sentinels;
    std::string ports;
    for (int i = 1; i <= 3; i++) {
        std::string conf = dir.file("sentinel" + std::to_string(i) + ".conf");
        writeFile(conf, sentinelConf(old_port));
        sentinels.push_back(std::make_unique<TestServer>(
            ServerOptions{.configFile = conf, .binary = kSentinelBinary, .readyLine = "+monitor master"}));
        ports += (ports.empty() ? "" : ",") + std::to_string(sentinels.back()->port());
    }
    ASSERT_TRUE(pollUntil([&] { return sentinelsReady(sentinels); }, Ms{15000})) << sentinels[0]->log();

    /* The producer runs in a thread of its own until the stop file appears. */
    const std::string stopfile = dir.file("stop");
    const std::string script = (repoDir() / "tests/clients/sentinel_producer.py").string();
    ProcessResult produced;
    std::thread producer([&] {
        produced = runProcess({kPython, script, ports, "mymaster", "queue", stopfile, "60"}, {}, Ms{90000});
    });
    struct StopProducer {
        std::string stopfile;
        std::thread &t;
        ~StopProducer() {
            writeFile(stopfile, "");
            if (t.joinable()) t.join();
        }
    } stop_producer{stopfile, producer};
    ASSERT_TRUE(pollUntil([&] { return llen(*master) >= 50; }, Ms{10000})) << "the producer does not write";

    const auto killed = Clock::now();
    master->kill9();
    int new_port = 0;
    ASSERT_TRUE(pollUntil([&] { return (new_port = masterPortOf(*sentinels[0])) && new_port != old_port; },
                          Ms{30000}))
        << sentinels[0]->log();
    auto promoted = std::find_if(replicas.begin(), replicas.end(), [&](auto &r) { return r->port() == new_port; });
    ASSERT_NE(promoted, replicas.end()) << "Sentinel named port " << new_port;
    TestServer &new_master = **promoted;
    TestServer &other = *replicas[promoted == replicas.begin() ? 1 : 0];
    ASSERT_TRUE(pollUntil([&] { return acceptsWrite(new_master); }, Ms{10000}));
    const auto failover_ms = std::chrono::duration_cast<Ms>(Clock::now() - killed).count();
    std::cout << "[ SENTINEL ] " << (cppredis ? "cppredis" : "Redis 7") << ": failover in " << failover_ms
              << " ms (kill -9 of the master -> the new master accepts a write)\n";
    RecordProperty("failover_ms", std::to_string(failover_ms));

    EXPECT_TRUE(pollUntil([&] { return followsMaster(other, new_port); }, Ms{20000})) << other.log();
    const long long at_failover = llen(new_master);
    EXPECT_TRUE(pollUntil([&] { return llen(new_master) >= at_failover + 50; }, Ms{10000}))
        << "the producer does not write through the new master";
    writeFile(stopfile, "");
    producer.join();
    ASSERT_EQ(produced.exitCode, 0) << produced.err;
    std::vector<long long> acked = ackedNumbers(produced.out);
    ASSERT_FALSE(acked.empty()) << produced.out;

    EXPECT_TRUE(pollUntil([&] { return llen(other) == llen(new_master); }, Ms{10000}));
    for (TestServer *srv : {&new_master, &other}) {
        std::set<std::string> items = listOf(*srv);
        size_t lost = std::count_if(acked.begin(), acked.end(),
                                    [&](long long n) { return !items.contains("m" + std::to_string(n)); });
        EXPECT_EQ(lost, 0u) << "of " << acked.size() << " acknowledged messages, on port " << srv->port();
    }
}

INSTANTIATE_TEST_SUITE_P(Servers, SentinelFailover, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
