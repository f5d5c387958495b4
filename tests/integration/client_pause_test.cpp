/* client_pause_test.cpp — CLIENT PAUSE and CLIENT UNPAUSE (issue 20), each
 * test on a fresh cppredis and a fresh Redis 7.0.15 (EitherServerTest) with
 * the same expectations: ALL holds every command until the pause times out;
 * WRITE holds writes, may-replicate commands (PUBLISH), scripts that may
 * write and EXEC holding a write, and lets reads through; held commands run
 * in order at UNPAUSE; a blocked client's timeout still runs out on time
 * during a pause; keys do not expire meanwhile; Redis's errors. Times are
 * measured around events (a reply arriving) with bounds, never slept. */
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;
using Clock = std::chrono::steady_clock;

namespace {

class ClientPause : public EitherServerTest {};
INSTANTIATE_TEST_SUITE_P(Servers, ClientPause, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

long long msSince(Clock::time_point t) {
    return std::chrono::duration_cast<Ms>(Clock::now() - t).count();
}

/* Nothing arrives on `conn` within `wait`: a command is being held. */
void expectHeld(RespConn &conn, Ms wait = Ms{150}) { EXPECT_FALSE(conn.waitReadable(wait)); }

TEST_P(ClientPause, AllHoldsEveryCommandUntilTheTimeout) {
    RespConn other = srv->connect();
    auto start = Clock::now();
    ASSERT_EQ(call({"CLIENT", "PAUSE", "400", "ALL"}), OK);
    EXPECT_EQ(other.call({"GET", "a"}).raw, NIL);
    long long held = msSince(start);
    EXPECT_GE(held, 390);
    EXPECT_LT(held, 2000);
    EXPECT_EQ(other.call({"PING"}).raw, "+PONG\r\n"); /* over: nothing waits any more */
}

TEST_P(ClientPause, WriteHoldsWritesUntilUnpauseAndLetsReadsThrough) {
    ASSERT_EQ(call({"SET", "a", "1"}), OK);
    RespConn writer = srv->connect(), publisher = srv->connect(), script = srv->connect(), tx = srv->connect();
    RespConn reader = srv->connect();
    ASSERT_EQ(call({"CLIENT", "PAUSE", "100000", "WRITE"}), OK);
    writer.cmd({"SET", "a", "2"});
    publisher.cmd({"PUBLISH", "ch", "m"});
    script.cmd({"EVAL", "return redis.call('incr','a')", "0"});
    EXPECT_EQ(tx.call({"MULTI"}).raw, OK);
    EXPECT_EQ(tx.call({"GET", "a"}).raw, "+QUEUED\r\n");
    tx.cmd({"INCR", "a"}); /* a write is held even while queueing */
    expectHeld(writer);
    expectHeld(publisher, Ms{1});
    expectHeld(script, Ms{1});
    expectHeld(tx, Ms{1});
    EXPECT_EQ(reader.call({"GET", "a"}).raw, "$1\r\n1\r\n");
    EXPECT_EQ(reader.call({"EVAL", "#!lua flags=no-writes\nreturn redis.call('get','a')", "0"}).raw,
              "$1\r\n1\r\n");
    EXPECT_EQ(clientField(clientListLine(*c, "addr", writer.localAddr()), "flags"), "b");

    ASSERT_EQ(call({"CLIENT", "UNPAUSE"}), OK);
    EXPECT_EQ(writer.readReply().raw, OK);
    EXPECT_EQ(publisher.readReply().raw, ":0\r\n");
    EXPECT_EQ(script.readReply().raw, ":3\r\n");
    EXPECT_EQ(tx.readReply().raw, "+QUEUED\r\n");
    EXPECT_EQ(tx.call({"EXEC"}).raw, "*2\r\n$1\r\n3\r\n:4\r\n");
}

/* A BLPOP's timeout runs during a pause like any other time. Under ALL
 * every normal client waits, CLIENT UNPAUSE included (as Redis 7.0): the
 * pause ends at its timeout. */
TEST_P(ClientPause, BlockedClientTimesOutOnTimeDuringAPause) {
    RespConn blocked = srv->connect();
    auto start = Clock::now();
    blocked.cmd({"BLPOP", "nolist", "0.3"});
    ASSERT_TRUE(pollUntil([&] { return infoField(*c, "clients", "blocked_clients") == "1"; }));
    ASSERT_EQ(call({"CLIENT", "PAUSE", "1200", "ALL"}), OK);
    auto paused = Clock::now();
    EXPECT_EQ(blocked.readReply().raw, NIL_ARRAY);
    long long waited = msSince(start);
    EXPECT_GE(waited, 290);
    EXPECT_LT(waited, 1000);
    EXPECT_EQ(blocked.call({"PING"}).raw, "+PONG\r\n");
    long long held = msSince(paused);
    EXPECT_GE(held, 1190);
    EXPECT_LT(held, 3000);
}

/* While paused the dataset stays as it is: an expired key reads as missing
 * but is not deleted until the pause ends. */
TEST_P(ClientPause, KeysDoNotExpireDuringAPause) {
    ASSERT_EQ(call({"SET", "k", "v", "PX", "30"}), OK);
    ASSERT_EQ(call({"CLIENT", "PAUSE", "100000", "WRITE"}), OK);
    ASSERT_TRUE(pollUntil([&] { return call({"GET", "k"}) == NIL; }));
    EXPECT_EQ(call({"DBSIZE"}), ":1\r\n");
    ASSERT_EQ(call({"CLIENT", "UNPAUSE"}), OK);
    EXPECT_EQ(call({"GET", "k"}), NIL);
    EXPECT_EQ(call({"DBSIZE"}), ":0\r\n");
}

/* A replica-like connection (a monitor) is never paused. */
TEST_P(ClientPause, MonitorIsNotPaused) {
    RespConn m = srv->connect();
    ASSERT_EQ(m.call({"MONITOR"}).raw, OK);
    ASSERT_EQ(call({"CLIENT", "PAUSE", "100000", "ALL"}), OK);
    auto start = Clock::now();
    EXPECT_EQ(m.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_LT(msSince(start), 1000);
    c->cmd({"CLIENT", "UNPAUSE"});
    expectHeld(*c);
}

TEST_P(ClientPause, Errors) {
    EXPECT_EQ(call({"CLIENT", "PAUSE", "abc"}), "-ERR timeout is not an integer or out of range\r\n");
    EXPECT_EQ(call({"CLIENT", "PAUSE", "-1"}), "-ERR timeout is negative\r\n");
    EXPECT_EQ(call({"CLIENT", "PAUSE", "10", "READ"}), "-ERR CLIENT PAUSE mode must be WRITE or ALL\r\n");
    EXPECT_EQ(call({"CLIENT", "PAUSE", "10", "ALL", "x"}),
              "-ERR unknown subcommand or wrong number of arguments for 'PAUSE'. Try CLIENT HELP.\r\n");
    EXPECT_EQ(call({"CLIENT", "UNPAUSE"}), OK); /* nothing paused: still OK */
    EXPECT_EQ(call({"CLIENT", "PAUSE", "0"}), OK); /* over at once */
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");
}

}  // namespace
