/* persistence_harness.h — what the persistence suites that start servers
 * on files of their own share (rdb_test.cpp, stream_persistence_test.cpp):
 * a server of either kind working in a given directory, and its clean stop
 * without a save. */
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "integration/harness.h"

namespace itest {

/* cppredis or Redis 7.0.15, DEBUG enabled, its files in `dir`. */
inline std::unique_ptr<TestServer> startServerInDir(ServerImpl impl, const std::string &dir,
                                                    const std::vector<std::string> &extra = {}) {
    std::vector<std::string> args{"--enable-debug-command", "yes", "--dir", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    if (impl == ServerImpl::Redis) return std::make_unique<RedisReference>(args);
    return std::make_unique<TestServer>(args);
}

/* SHUTDOWN NOSAVE, which exits even when saving would fail. */
inline void shutdownNosave(TestServer &srv) {
    RespConn c = srv.connect();
    c.cmd({"SHUTDOWN", "NOSAVE"});
    c.expectClosed();
    EXPECT_EQ(srv.waitExit(), 0) << srv.log();
}

}  // namespace itest
