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

/* The AOF `impl` writes (appendfsync always; Redis 7 without its RDB
 * preamble, so both files are commands only) while `script` runs on two of
 * its connections: Redis 7's incremental file, cppredis's single file. */
inline std::string aofWrittenBy(ServerImpl impl, const std::function<void(RespConn &c, RespConn &w)> &script) {
    TempDir dir;
    std::vector<std::string> args{"--appendonly", "yes", "--appendfsync", "always"};
    if (impl == ServerImpl::Redis) args.insert(args.end(), {"--aof-use-rdb-preamble", "no"});
    std::unique_ptr<TestServer> srv = startServerInDir(impl, dir.path(), args);
    RespConn c = srv->connect(), w = srv->connect();
    script(c, w);
    return readFile(dir.file(impl == ServerImpl::Redis ? "appendonlydir/appendonly.aof.1.incr.aof" : "appendonly.aof"));
}

}  // namespace itest
