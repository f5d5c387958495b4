/* persistence_harness.h — what the persistence suites that start servers
 * on files of their own share (rdb_test.cpp, stream_persistence_test.cpp):
 * a server of either kind working in a given directory, and its clean stop
 * without a save; and the AOF either server writes for the same commands,
 * which the propagation tests of each family compare. */
#pragma once

#include <gtest/gtest.h>

#include <functional>
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

/* The first incr file of the AOF in `dir` (Redis 7.0's multi-part AOF,
 * which both servers write): the writes made since start-up, when no
 * rewrite ran since. */
inline std::string aofIncrFile(const TempDir &dir) { return dir.file("appendonlydir/appendonly.aof.1.incr.aof"); }

/* The AOF `impl` writes (appendfsync always) while `script` runs on two of
 * its connections: its first incr file. */
inline std::string aofWrittenBy(ServerImpl impl, const std::function<void(RespConn &c, RespConn &w)> &script) {
    TempDir dir;
    std::unique_ptr<TestServer> srv =
        startServerInDir(impl, dir.path(), {"--appendonly", "yes", "--appendfsync", "always"});
    RespConn c = srv->connect(), w = srv->connect();
    script(c, w);
    return readFile(aofIncrFile(dir));
}

}  // namespace itest
