/* blocking_harness.h — the fixture the blocking-command suites share
 * (blocking_test.cpp for lists, zset_blocking_test.cpp for sorted sets):
 * one server, cppredis or the reference Redis 7.0.15, so that a scenario
 * runs against both with the same expected bytes; an admin connection; and
 * the wait every such test needs before writing, until INFO's
 * blocked_clients shows the waiters blocked (polling, never sleeping).
 *
 * Use: a fixture deriving from BlockingBase and
 * ::testing::TestWithParam<ServerImpl> calls start(GetParam()) in SetUp (after
 * REQUIRE_REDIS_REFERENCE() for ServerImpl::Redis), and the suite is instantiated
 * with ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName. */
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "integration/harness.h"

namespace itest {

/* A server (cppredis or the reference), an admin connection, and waiters. */
class BlockingBase {
protected:
    std::unique_ptr<TestServer> srv;
    std::optional<RespConn> admin_;

    void start(ServerImpl impl, const std::vector<std::string> &args = {}) {
        if (impl == ServerImpl::Redis) srv = std::make_unique<RedisReference>(args);
        else srv = std::make_unique<TestServer>(args);
        admin_.emplace(srv->connect());
    }
    RespConn &admin() { return *admin_; }
    RespConn connect(Ms timeout = kDefaultTimeout) { return srv->connect(timeout); }
    std::string call(const Args &args) { return admin().call(args).raw; }

    long long blockedClients() { return infoNumber(admin(), "clients", "blocked_clients"); }
    /* Polls INFO until exactly n clients are blocked (5 s at most). */
    void waitBlocked(long long n) {
        long long now = -1;
        pollUntil([&] { return (now = blockedClients()) == n; });
        ASSERT_EQ(now, n) << "blocked_clients never reached " << n;
    }
    /* Sends a blocking command on `c` and waits until the server counts it
     * as the n-th blocked client. */
    void block(RespConn &c, const Args &args, long long n) {
        c.cmd(args);
        waitBlocked(n);
    }
    long long clientId(RespConn &c) { return c.call({"CLIENT", "ID"}).integer; }
};

}  // namespace itest
