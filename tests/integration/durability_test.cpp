/* durability_test.cpp — issue 13's "data that can be lost although it was
 * acknowledged", as seen from a client, beside Redis 7.0.15 where it can
 * run the same steps (the fault injection of fsync itself is in
 * tests/unit/durability_test.cpp).
 *
 *   ShutdownOptions  SHUTDOWN NOW / FORCE / ABORT: replies, errors and log
 *                    lines as Redis's; ABORT withdraws a shutdown a signal
 *                    asked for; FORCE exits although the final save fails.
 *   AofShutdown      a final AOF write that fails (the AOF is /dev/full)
 *                    keeps the server running unless FORCE.
 *   AofReplayErrors  an error replied while the AOF replays is logged as
 *                    Redis's == CRITICAL == line and counted.
 */
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* ========================================================================
 * ShutdownOptions
 * ====================================================================== */

class ShutdownOptions : public EitherServerTest {};

/* ABORT with nothing to abort, and the combinations Redis refuses. */
TEST_P(ShutdownOptions, AbortWithoutAShutdownAndBadCombinations) {
    EXPECT_EQ(call({"SHUTDOWN", "ABORT"}), err("ERR No shutdown in progress."));
    EXPECT_EQ(call({"shutdown", "abort", "abort"}), err("ERR No shutdown in progress."));
    for (const Args &bad : std::vector<Args>{{"SHUTDOWN", "ABORT", "NOW"},
                                             {"SHUTDOWN", "FORCE", "ABORT"},
                                             {"SHUTDOWN", "NOSAVE", "ABORT"},
                                             {"SHUTDOWN", "SAVE", "NOSAVE", "NOW"},
                                             {"SHUTDOWN", "SOON"}})
        EXPECT_EQ(call(bad), err("ERR syntax error"));
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");
}

/* A SIGTERM is acted on by serverCron, which a busy script holds off: in
 * between, SHUTDOWN ABORT (allowed beside the script) withdraws it. The
 * server then runs on, cron included (it reaps a BGSAVE). */
TEST_P(ShutdownOptions, AbortWithdrawsASignalledShutdown) {
    EXPECT_EQ(call({"CONFIG", "SET", "busy-reply-threshold", "50"}), OK);
    RespConn script = srv->connect();
    script.cmd({"EVAL", "while true do end", "0"});
    ASSERT_TRUE(pollUntil([&] { return c->call({"PING"}).raw.starts_with("-BUSY"); }));
    ASSERT_EQ(::kill(srv->pid(), SIGTERM), 0);
    ASSERT_TRUE(srv->waitForLog("Received SIGTERM scheduling shutdown..."));
    EXPECT_EQ(call({"SHUTDOWN", "ABORT"}), OK);
    EXPECT_TRUE(srv->waitForLog("Shutdown manually aborted."));
    EXPECT_EQ(call({"SHUTDOWN", "ABORT"}), err("ERR No shutdown in progress."));
    EXPECT_EQ(call({"SCRIPT", "KILL"}), OK);
    EXPECT_TRUE(script.readReply().isError());
    EXPECT_EQ(call({"BGSAVE"}), "+Background saving started\r\n");
    EXPECT_TRUE(pollUntil([&] { return infoField(*c, "persistence", "rdb_bgsave_in_progress") == "0"; }));
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");
    EXPECT_EQ(srv->log().find("User requested shutdown"), std::string::npos) << srv->log();
}

INSTANTIATE_TEST_SUITE_P(Servers, ShutdownOptions, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* The final save fails (the server's directory is gone): SHUTDOWN SAVE is
 * refused and the server keeps running; SHUTDOWN SAVE FORCE exits anyway.
 * NOW, which only skips waiting for lagging replicas, changes nothing with
 * none. */
class ShutdownForce : public ::testing::TestWithParam<ServerImpl> {};

TEST_P(ShutdownForce, ExitsDespiteAFailedSave) {
    TempDir top;
    std::string dir = top.file("gone");
    std::filesystem::create_directory(dir);
    std::unique_ptr<TestServer> srv;
    if (GetParam() == ServerImpl::Redis) {
        REQUIRE_REDIS_REFERENCE();
        srv = std::make_unique<RedisReference>(std::vector<std::string>{"--dir", dir});
    } else {
        srv = std::make_unique<TestServer>(std::vector<std::string>{"--dir", dir, "--save", ""});
    }
    RespConn c = srv->connect();
    c.call({"SET", "a", "1"});
    std::filesystem::remove(dir);
    EXPECT_EQ(c.call({"SHUTDOWN", "SAVE", "NOW"}).raw, err("ERR Errors trying to SHUTDOWN. Check logs."));
    EXPECT_TRUE(srv->waitForLog("Error trying to save the DB, can't exit."));
    EXPECT_TRUE(srv->waitForLog("Errors trying to shut down the server. Check the logs for more information."));
    EXPECT_EQ(c.call({"GET", "a"}).str, "1");
    c.cmd({"SHUTDOWN", "SAVE", "FORCE"});
    c.expectClosed();
    EXPECT_EQ(srv->waitExit(), 0);
    EXPECT_NE(srv->log().find("Error trying to save the DB. Exit anyway."), std::string::npos) << srv->log();
}

INSTANTIATE_TEST_SUITE_P(Servers, ShutdownForce, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * AofShutdown
 * ====================================================================== */

/* /dev/full as the AOF's incr file: every write fails with ENOSPC. Under
 * everysec the first write is acknowledged (as in Redis), then writes are
 * refused; the acknowledged one sits in aof_buf, and exiting would lose
 * it. Redis 7.0 only logs this and exits; the server refuses unless FORCE. */
TEST(AofShutdown, AFailedFinalWriteKeepsTheServerUnlessForce) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("appendonlydir"));
    std::filesystem::create_symlink("/dev/full", dir.file("appendonlydir/appendonly.aof.1.incr.aof"));
    writeFile(dir.file("appendonlydir/appendonly.aof.manifest"), "file appendonly.aof.1.incr.aof seq 1 type i\n");
    TestServer srv({"--dir", dir.path(), "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""});
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"SET", "a", "1"}).raw, OK);
    EXPECT_EQ(c.call({"SET", "b", "1"}).raw,
              err("MISCONF Errors writing to the AOF file: No space left on device"));
    EXPECT_EQ(infoField(c, "persistence", "aof_last_write_status"), "err");
    EXPECT_EQ(c.call({"SHUTDOWN"}).raw, err("ERR Errors trying to SHUTDOWN. Check logs."));
    EXPECT_TRUE(srv.waitForLog("Error trying to flush the AOF, can't exit."));
    EXPECT_EQ(c.call({"GET", "a"}).str, "1");
    c.cmd({"SHUTDOWN", "NOW", "FORCE"});
    c.expectClosed();
    EXPECT_EQ(srv.waitExit(), 0);
    EXPECT_NE(srv.log().find("Error trying to flush the AOF. Exit anyway."), std::string::npos) << srv.log();
}

/* ========================================================================
 * AofReplayErrors
 * ====================================================================== */

std::string resp(const Args &args) { return encodeCommand(args); }

/* The log lines containing `needle`, without their "pid:role timestamp"
 * prefix. */
std::vector<std::string> logLines(const TestServer &srv, const std::string &needle) {
    std::vector<std::string> out;
    std::istringstream in(srv.log());
    for (std::string line; std::getline(in, line);) {
        size_t at = line.find(needle);
        if (at != std::string::npos) out.push_back(line.substr(at));
    }
    return out;
}

/* Redis 7.0.15 loads a single appendonly.aof (the ≤ 6.2 layout) as the
 * base of its appendonlydir, so both servers replay the same file. */
TEST(AofReplayErrors, LoggedAsCriticalAndCountedAsRedis) {
    REQUIRE_REDIS_REFERENCE();
    const std::string file = resp({"SET", "a", "x"}) + resp({"INCR", "a"}) + resp({"LPUSH", "a", "1"}) +
                             resp({"MULTI"}) + resp({"INCR", "a"}) + resp({"EXEC"});
    TempDir ours, theirs;
    writeFile(ours.file("appendonly.aof"), file);
    writeFile(theirs.file("appendonly.aof"), file);
    TestServer a({"--dir", ours.path(), "--appendonly", "yes", "--save", ""});
    RedisReference b({"--dir", theirs.path(), "--appendonly", "yes"});
    RespConn ca = a.connect(), cb = b.connect();
    const std::string critical = "== CRITICAL ==";
    std::vector<std::string> lines = logLines(a, critical);
    EXPECT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines, logLines(b, critical));
    for (const char *field : {"unexpected_error_replies", "total_error_replies"})
        EXPECT_EQ(infoField(ca, "stats", field), infoField(cb, "stats", field)) << field;
    EXPECT_EQ(infoField(ca, "stats", "unexpected_error_replies"), "3");
}

}  // namespace
