/* multi_test.cpp — integration tests of transactions (issue 3): MULTI, EXEC,
 * DISCARD, WATCH, UNWATCH. Queueing replies, EXECABORT after a command
 * rejected while queueing, runtime errors that fail one command of EXEC,
 * WATCH invalidated by every kind of write from another client (expiry and
 * flushes included), the transaction's own writes not aborting it, CLIENT
 * LIST's view of a transaction, and a differential run of transaction
 * scripts against Debian's Redis 7.0.15 (whose replies every expected byte
 * below was taken from).
 */
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;
using namespace std::string_literals;

namespace {

const std::string EXEC_ABORT = "-EXECABORT Transaction discarded because of previous errors.\r\n";

/* Sends each command and returns the raw replies, concatenated. */
std::string run(RespConn &c, const std::vector<Args> &cmds) {
    std::string out;
    for (const Args &a : cmds) out += c.call(a).raw;
    return out;
}

/* One client with a server of its own. */
class Multi : public ::testing::Test {
protected:
    TestServer srv;
    RespConn a = srv.connect(), b = srv.connect();
};

TEST_F(Multi, QueuesCommandsAndExecRunsThemInOrder) {
    EXPECT_EQ(a.call({"MULTI"}).raw, OK);
    EXPECT_EQ(a.call({"SET", "k", "1"}).raw, QUEUED);
    EXPECT_EQ(a.call({"INCR", "k"}).raw, QUEUED);
    EXPECT_EQ(a.call({"GET", "k"}).raw, QUEUED);
    /* Nothing has run yet. */
    EXPECT_EQ(b.call({"GET", "k"}).raw, "$-1\r\n");
    EXPECT_EQ(a.call({"EXEC"}).raw, "*3\r\n+OK\r\n:2\r\n" + bulk("2"));
    EXPECT_EQ(b.call({"GET", "k"}).raw, bulk("2"));
    /* The transaction is over. */
    EXPECT_EQ(a.call({"EXEC"}).raw, "-ERR EXEC without MULTI\r\n");
    EXPECT_EQ(a.call({"MULTI"}).raw, OK);
    EXPECT_EQ(a.call({"EXEC"}).raw, "*0\r\n");
}

TEST_F(Multi, PipelinedTransactionRunsAsOneBlock) {
    a.send(encodeCommand({"MULTI"}) + encodeCommand({"SET", "x", std::string("bi\0n", 4)}) +
           encodeCommand({"APPEND", "x", std::string(100, 'z')}) + encodeCommand({"GET", "x"}) +
           encodeCommand({"EXEC"}));
    EXPECT_EQ(a.readReply().raw, OK);
    for (int i = 0; i < 3; i++) EXPECT_EQ(a.readReply().raw, QUEUED);
    std::string value = std::string("bi\0n", 4) + std::string(100, 'z');
    EXPECT_EQ(a.readReply().raw, "*3\r\n+OK\r\n:104\r\n" + bulk(value));
}

TEST_F(Multi, ControlCommandErrors) {
    EXPECT_EQ(a.call({"EXEC"}).raw, "-ERR EXEC without MULTI\r\n");
    EXPECT_EQ(a.call({"DISCARD"}).raw, "-ERR DISCARD without MULTI\r\n");
    EXPECT_EQ(a.call({"MULTI", "x"}).raw, "-ERR wrong number of arguments for 'multi' command\r\n");
    EXPECT_EQ(a.call({"DISCARD", "x"}).raw, "-ERR wrong number of arguments for 'discard' command\r\n");
    EXPECT_EQ(a.call({"WATCH"}).raw, "-ERR wrong number of arguments for 'watch' command\r\n");
    EXPECT_EQ(a.call({"UNWATCH", "x"}).raw, "-ERR wrong number of arguments for 'unwatch' command\r\n");
    EXPECT_EQ(a.call({"UNWATCH"}).raw, OK);
    /* A rejected EXEC is an EXECABORT even outside MULTI, as in Redis. */
    EXPECT_EQ(a.call({"EXEC", "x"}).raw,
              "-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n");
}

TEST_F(Multi, NestedMultiAndWatchInsideMultiAreErrorsThatDoNotAbort) {
    EXPECT_EQ(a.call({"MULTI"}).raw, OK);
    EXPECT_EQ(a.call({"MULTI"}).raw, "-ERR MULTI calls can not be nested\r\n");
    EXPECT_EQ(a.call({"WATCH", "k"}).raw, "-ERR WATCH inside MULTI is not allowed\r\n");
    EXPECT_EQ(a.call({"SET", "k", "v"}).raw, QUEUED);
    EXPECT_EQ(a.call({"UNWATCH"}).raw, QUEUED); /* queued like any other command */
    EXPECT_EQ(a.call({"EXEC"}).raw, "*2\r\n+OK\r\n+OK\r\n");
}

TEST_F(Multi, RuntimeErrorFailsOnlyThatCommand) {
    ASSERT_EQ(a.call({"SET", "s", "abc"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"SET", "before", "1"}, {"INCR", "s"}, {"INCRBY", "before", "x"},
                      {"SET", "after", "2"}, {"GET", "s"}}),
              OK + QUEUED + QUEUED + QUEUED + QUEUED + QUEUED);
    EXPECT_EQ(a.call({"EXEC"}).raw, "*5\r\n+OK\r\n-ERR value is not an integer or out of range\r\n"
                                    "-ERR value is not an integer or out of range\r\n+OK\r\n" +
                                        bulk("abc"));
    EXPECT_EQ(b.call({"MGET", "before", "after"}).raw, "*2\r\n" + bulk("1") + bulk("2"));
}

TEST_F(Multi, ExecFailsOnlyForItsOwnErrorsInCommandStats) {
    ASSERT_EQ(a.call({"SET", "s", "abc"}).raw, OK);
    ASSERT_EQ(a.call({"CONFIG", "RESETSTAT"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"INCR", "s"}, {"EXEC"}}),
              OK + QUEUED + "*1\r\n-ERR value is not an integer or out of range\r\n");
    const std::string stats = a.call({"INFO", "commandstats"}).str;
    auto line = [&](const std::string &cmd) {
        size_t at = stats.find("cmdstat_" + cmd + ":");
        return at == std::string::npos ? "<missing>" : stats.substr(at, stats.find("\r\n", at) - at);
    };
    EXPECT_TRUE(line("exec").starts_with("cmdstat_exec:calls=1,")) << stats;
    EXPECT_TRUE(line("exec").ends_with(",rejected_calls=0,failed_calls=0")) << stats;
    EXPECT_TRUE(line("incr").ends_with(",rejected_calls=0,failed_calls=1")) << stats;
}

/* Each command rejected while queueing: its error now, EXECABORT at EXEC,
 * and none of the queued commands runs. */
TEST_F(Multi, CommandRejectedWhileQueueingAbortsExec) {
    const std::vector<std::pair<Args, std::string>> rejected = {
        {{"NOSUCH", "a", "b"}, "-ERR unknown command 'NOSUCH', with args beginning with: 'a' 'b' \r\n"},
        {{"SET", "k"}, "-ERR wrong number of arguments for 'set' command\r\n"},
        {{"GET"}, "-ERR wrong number of arguments for 'get' command\r\n"},
        {{"SHUTDOWN"}, "-ERR Command not allowed inside a transaction\r\n"},
        {{"DISCARD", "x"}, "-ERR wrong number of arguments for 'discard' command\r\n"},
        {{"MULTI", "x"}, "-ERR wrong number of arguments for 'multi' command\r\n"},
        {{"CONFIG", "NOSUCH"}, "-ERR unknown subcommand 'NOSUCH'. Try CONFIG HELP.\r\n"},
    };
    for (const auto &[cmd, error] : rejected) {
        SCOPED_TRACE(cmd[0]);
        EXPECT_EQ(a.call({"MULTI"}).raw, OK);
        EXPECT_EQ(a.call({"SET", "k", "queued-before"}).raw, QUEUED);
        EXPECT_EQ(a.call(cmd).raw, error);
        EXPECT_EQ(a.call({"SET", "k", "queued-after"}).raw, QUEUED);
        EXPECT_EQ(a.call({"EXEC"}).raw, EXEC_ABORT);
        EXPECT_EQ(a.call({"GET", "k"}).raw, "$-1\r\n");
        EXPECT_EQ(a.call({"EXEC"}).raw, "-ERR EXEC without MULTI\r\n");
    }
    /* The server is still there: SHUTDOWN was refused, not run. */
    EXPECT_EQ(a.call({"PING"}).raw, "+PONG\r\n");
}

TEST_F(Multi, RejectedExecEndsTheTransaction) {
    EXPECT_EQ(run(a, {{"MULTI"}, {"SET", "k", "v"}}), OK + QUEUED);
    EXPECT_EQ(a.call({"EXEC", "now"}).raw,
              "-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n");
    EXPECT_EQ(a.call({"EXEC"}).raw, "-ERR EXEC without MULTI\r\n");
    EXPECT_EQ(a.call({"GET", "k"}).raw, "$-1\r\n");
}

TEST_F(Multi, DiscardDropsTheQueueAndTheWatches) {
    EXPECT_EQ(run(a, {{"WATCH", "w"}, {"MULTI"}, {"SET", "k", "v"}, {"DISCARD"}}), OK + OK + QUEUED + OK);
    EXPECT_EQ(a.call({"GET", "k"}).raw, "$-1\r\n");
    EXPECT_EQ(a.call({"DISCARD"}).raw, "-ERR DISCARD without MULTI\r\n");
    /* DISCARD unwatched w: a write to it no longer matters. */
    EXPECT_EQ(b.call({"SET", "w", "1"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + "*1\r\n+PONG\r\n");
    /* DISCARD also forgets a queueing error. */
    EXPECT_EQ(run(a, {{"MULTI"}, {"NOSUCH"}, {"DISCARD"}, {"MULTI"}, {"PING"}, {"EXEC"}}),
              OK + "-ERR unknown command 'NOSUCH', with args beginning with: \r\n" + OK + OK + QUEUED +
                  "*1\r\n+PONG\r\n");
}

TEST_F(Multi, QuitInsideMultiClosesAtOnce) {
    EXPECT_EQ(run(a, {{"MULTI"}, {"SET", "k", "v"}, {"QUIT"}}), OK + QUEUED + OK);
    a.expectClosed();
    EXPECT_EQ(b.call({"GET", "k"}).raw, "$-1\r\n");
}

/* ------------------------------------------------------------------------
 * WATCH
 * ---------------------------------------------------------------------- */

/* a watches "k" (holding "5"), b runs `write`; EXEC must return `expected`. */
struct WatchCase {
    const char *name;
    std::vector<Args> write;
    bool aborts;
};

class WatchTouch : public ::testing::TestWithParam<WatchCase> {};

TEST_P(WatchTouch, WriteFromAnotherClient) {
    TestServer srv;
    RespConn a = srv.connect(), b = srv.connect();
    ASSERT_EQ(a.call({"SET", "k", "5"}).raw, OK);
    ASSERT_EQ(a.call({"WATCH", "k"}).raw, OK);
    for (const Args &cmd : GetParam().write) {
        Reply r = b.call(cmd);
        ASSERT_FALSE(r.isError()) << r;
    }
    EXPECT_EQ(run(a, {{"MULTI"}, {"SET", "done", "1"}}), OK + QUEUED);
    if (GetParam().aborts) {
        EXPECT_EQ(a.call({"EXEC"}).raw, NIL_ARRAY);
        EXPECT_EQ(a.call({"EXISTS", "done"}).raw, ":0\r\n");
    } else {
        EXPECT_EQ(a.call({"EXEC"}).raw, "*1\r\n+OK\r\n");
    }
    /* Either way the watch is over: the next transaction runs. */
    ASSERT_EQ(b.call({"SET", "k", "6"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + "*1\r\n+PONG\r\n");
}

INSTANTIATE_TEST_SUITE_P(
    Multi, WatchTouch,
    ::testing::Values(
        WatchCase{"Set", {{"SET", "k", "5"}}, true},  /* same value: still a write */
        WatchCase{"Del", {{"DEL", "k"}}, true},
        WatchCase{"Unlink", {{"UNLINK", "k"}}, true},
        WatchCase{"Incr", {{"INCR", "k"}}, true},
        WatchCase{"Append", {{"APPEND", "k", "x"}}, true},
        WatchCase{"Expire", {{"EXPIRE", "k", "100"}}, true},
        WatchCase{"PersistWithoutTtl", {{"PERSIST", "k"}}, false}, /* changes nothing */
        WatchCase{"RenameFrom", {{"RENAME", "k", "other"}}, true},
        WatchCase{"RenameOnto", {{"SET", "other", "1"}, {"RENAME", "other", "k"}}, true},
        WatchCase{"FlushDb", {{"FLUSHDB"}}, true},
        WatchCase{"FlushAll", {{"FLUSHALL"}}, true},
        WatchCase{"FlushAllFromAnotherDb", {{"SELECT", "3"}, {"FLUSHALL"}}, true},
        WatchCase{"Get", {{"GET", "k"}, {"EXISTS", "k"}, {"TTL", "k"}}, false},
        WatchCase{"OtherKey", {{"SET", "k2", "1"}, {"DEL", "kk"}}, false},
        WatchCase{"SameNameOtherDb", {{"SELECT", "1"}, {"SET", "k", "1"}, {"DEL", "k"}}, false},
        WatchCase{"FlushOtherDb", {{"SELECT", "1"}, {"FLUSHDB"}}, false},
        WatchCase{"FailedWrite", {{"SET", "k", "1", "NX"}, {"RENAMENX", "k", "k"}}, false}),
    [](const ::testing::TestParamInfo<WatchCase> &info) { return std::string(info.param.name); });

TEST_F(Multi, WatchOfAMissingKey) {
    /* Nothing happens to a key that stays missing... */
    EXPECT_EQ(a.call({"WATCH", "m"}).raw, OK);
    EXPECT_EQ(b.call({"DEL", "m"}).raw, ":0\r\n");
    EXPECT_EQ(b.call({"FLUSHDB"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + "*1\r\n+PONG\r\n");
    /* ...but creating it is a change. */
    EXPECT_EQ(a.call({"WATCH", "m"}).raw, OK);
    EXPECT_EQ(b.call({"SET", "m", "1"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + NIL_ARRAY);
}

TEST_F(Multi, OwnWritesInsideTheTransactionDoNotAbortIt) {
    ASSERT_EQ(a.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(run(a, {{"WATCH", "k"}, {"MULTI"}, {"SET", "k", "2"}, {"INCR", "k"}, {"DEL", "k"}, {"SET", "k", "9"}}),
              OK + OK + QUEUED + QUEUED + QUEUED + QUEUED);
    EXPECT_EQ(a.call({"EXEC"}).raw, "*4\r\n+OK\r\n:3\r\n:1\r\n+OK\r\n");
    EXPECT_EQ(a.call({"GET", "k"}).raw, bulk("9"));
}

TEST_F(Multi, OwnWriteBetweenWatchAndExecAborts) {
    EXPECT_EQ(run(a, {{"WATCH", "k"}, {"SET", "k", "1"}, {"MULTI"}, {"SET", "k", "2"}, {"EXEC"}}),
              OK + OK + OK + QUEUED + NIL_ARRAY);
    EXPECT_EQ(a.call({"GET", "k"}).raw, bulk("1"));
}

TEST_F(Multi, UnwatchForgetsTheChange) {
    EXPECT_EQ(a.call({"WATCH", "k", "j"}).raw, OK);
    EXPECT_EQ(b.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(a.call({"UNWATCH"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"GET", "k"}, {"EXEC"}}), OK + QUEUED + "*1\r\n" + bulk("1"));
}

TEST_F(Multi, WatchTwiceAndManyKeys) {
    EXPECT_EQ(a.call({"WATCH", "x", "x", "y"}).raw, OK);
    EXPECT_EQ(a.call({"WATCH", "x", "z"}).raw, OK);
    EXPECT_EQ(b.call({"SET", "z", "1"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"EXEC"}}), OK + NIL_ARRAY);
    /* All of them were dropped: neither x nor y matters now. */
    EXPECT_EQ(b.call({"SET", "x", "1"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"EXEC"}}), OK + "*0\r\n");
}

TEST_F(Multi, WatchIsPerDatabaseOfTheWatcher) {
    EXPECT_EQ(run(a, {{"SELECT", "2"}, {"SET", "k", "1"}, {"WATCH", "k"}, {"SELECT", "0"}}), OK + OK + OK + OK);
    EXPECT_EQ(b.call({"SET", "k", "x"}).raw, OK); /* db 0: not the watched key */
    EXPECT_EQ(run(a, {{"MULTI"}, {"EXEC"}}), OK + "*0\r\n");
    EXPECT_EQ(run(a, {{"SELECT", "2"}, {"WATCH", "k"}, {"SELECT", "0"}}), OK + OK + OK);
    EXPECT_EQ(run(b, {{"SELECT", "2"}, {"INCR", "k"}}), OK + ":2\r\n");
    EXPECT_EQ(run(a, {{"MULTI"}, {"EXEC"}}), OK + NIL_ARRAY);
}

TEST_F(Multi, ManyWatchersOfOneKeyAllAbort) {
    std::vector<RespConn> watchers;
    for (int i = 0; i < 20; i++) {
        watchers.push_back(srv.connect());
        ASSERT_EQ(watchers.back().call({"WATCH", "shared", "own" + std::to_string(i)}).raw, OK);
    }
    /* A watcher that leaves must not be left in the key's list. */
    watchers[3].close();
    watchers[17].close();
    EXPECT_EQ(b.call({"SET", "shared", "1"}).raw, OK);
    for (int i = 0; i < 20; i++) {
        if (i == 3 || i == 17) continue;
        EXPECT_EQ(run(watchers[i], {{"MULTI"}, {"EXEC"}}), OK + NIL_ARRAY) << i;
    }
    /* Nobody watches any more; a fresh watch works as new. */
    EXPECT_EQ(a.call({"WATCH", "shared"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"EXEC"}}), OK + "*0\r\n");
}

TEST_F(Multi, WatchingClientDisconnects) {
    {
        RespConn gone = srv.connect();
        ASSERT_EQ(gone.call({"WATCH", "k", "j"}).raw, OK);
        ASSERT_EQ(run(gone, {{"MULTI"}, {"SET", "k", "1"}}), OK + QUEUED);
    }
    /* Touching the keys after the watcher freed must be harmless. */
    EXPECT_EQ(b.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(b.call({"FLUSHALL"}).raw, OK);
    EXPECT_EQ(b.call({"PING"}).raw, "+PONG\r\n");
}

/* ------------------------------------------------------------------------
 * WATCH and expiry
 * ---------------------------------------------------------------------- */

/* Waits, without touching any key, until the server's clock is past `unixms`. */
void waitServerTimePast(RespConn &c, long long unixms) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
        Reply t = c.call({"TIME"});
        ASSERT_EQ(t.elements.size(), 2u) << t;
        long long now = std::stoll(t.elements[0].str) * 1000 + std::stoll(t.elements[1].str) / 1000;
        if (now > unixms) return;
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "server clock did not reach " << unixms;
    }
}

long long pexpiretime(RespConn &c, const std::string &key) {
    Reply r = c.call({"PEXPIRETIME", key});
    EXPECT_EQ(r.type, Reply::Type::Integer) << r;
    return r.integer;
}

/* The key expires after WATCH, and nobody reads it: EXEC still sees the
 * change (active expiry, or isWatchedKeyExpired at EXEC). */
TEST_F(Multi, WatchedKeyThatExpiresAbortsExec) {
    ASSERT_EQ(a.call({"SET", "k", "v", "PX", "20"}).raw, OK);
    long long at = pexpiretime(a, "k");
    ASSERT_EQ(a.call({"WATCH", "k"}).raw, OK);
    waitServerTimePast(b, at + 1);
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + NIL_ARRAY);
}

/* Another client's read deletes it lazily: the same. */
TEST_F(Multi, WatchedKeyExpiredByALazyLookupAbortsExec) {
    ASSERT_EQ(a.call({"SET", "k", "v", "PX", "20"}).raw, OK);
    ASSERT_EQ(a.call({"WATCH", "k"}).raw, OK);
    ASSERT_TRUE(pollUntil([&] { return b.call({"PTTL", "k"}).integer == -2; }));
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + NIL_ARRAY);
}

/* A key already expired when watched was "missing" for the watcher; its
 * deletion changes nothing, but writing it afterwards does. */
TEST_F(Multi, KeyAlreadyExpiredWhenWatched) {
    ASSERT_EQ(a.call({"SET", "k", "v", "PX", "5"}).raw, OK);
    waitServerTimePast(b, pexpiretime(a, "k") + 1);
    ASSERT_EQ(a.call({"WATCH", "k"}).raw, OK);
    EXPECT_EQ(b.call({"GET", "k"}).raw, "$-1\r\n"); /* deletes it */
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + "*1\r\n+PONG\r\n");

    ASSERT_EQ(a.call({"SET", "k", "v", "PX", "5"}).raw, OK);
    waitServerTimePast(b, pexpiretime(a, "k") + 1);
    ASSERT_EQ(a.call({"WATCH", "k"}).raw, OK);
    EXPECT_EQ(b.call({"SET", "k", "new"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + NIL_ARRAY);
}

/* A FLUSHDB of an expired watched key is not a change either. */
TEST_F(Multi, FlushOfAKeyExpiredBeforeWatch) {
    ASSERT_EQ(a.call({"SET", "k", "v", "PX", "5"}).raw, OK);
    waitServerTimePast(b, pexpiretime(a, "k") + 1);
    ASSERT_EQ(a.call({"WATCH", "k"}).raw, OK);
    EXPECT_EQ(b.call({"FLUSHDB"}).raw, OK);
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"EXEC"}}), OK + QUEUED + "*1\r\n+PONG\r\n");
}

/* ------------------------------------------------------------------------
 * CLIENT LIST
 * ---------------------------------------------------------------------- */

/* A field of the CLIENT LIST line whose name= is `name`, as `viewer` sees it. */
std::string clientField(RespConn &viewer, const std::string &name, const std::string &field) {
    return itest::clientField(clientListLine(viewer, "name", name), field);
}

TEST_F(Multi, ClientListShowsTheTransaction) {
    ASSERT_EQ(a.call({"CLIENT", "SETNAME", "tx"}).raw, OK);
    EXPECT_EQ(clientField(b, "tx", "multi"), "-1");
    EXPECT_EQ(clientField(b, "tx", "flags"), "N");
    EXPECT_EQ(clientField(b, "tx", "multi-mem"), "0");

    EXPECT_EQ(run(a, {{"MULTI"}, {"SET", "x", "yyyyyyyyyyy"}, {"PING"}}), OK + QUEUED + QUEUED);
    EXPECT_EQ(clientField(b, "tx", "multi"), "2");
    EXPECT_EQ(clientField(b, "tx", "flags"), "x");
    EXPECT_EQ(clientField(b, "tx", "multi-mem"), "51"); /* argument bytes + a pointer each, as Redis */
    EXPECT_EQ(a.call({"DISCARD"}).raw, OK);
    EXPECT_EQ(clientField(b, "tx", "multi"), "-1");

    /* Dirty CAS: 'd', and nothing more is queued (Redis saves the memory). */
    EXPECT_EQ(a.call({"WATCH", "k"}).raw, OK);
    EXPECT_EQ(b.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(clientField(b, "tx", "flags"), "d");
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}}), OK + QUEUED);
    EXPECT_EQ(clientField(b, "tx", "flags"), "xd");
    EXPECT_EQ(clientField(b, "tx", "multi"), "0");
    EXPECT_EQ(a.call({"EXEC"}).raw, NIL_ARRAY);
    EXPECT_EQ(clientField(b, "tx", "flags"), "N");

    /* A queueing error has no letter of its own, and stops queueing too. */
    EXPECT_EQ(run(a, {{"MULTI"}, {"PING"}, {"NOSUCH"}, {"PING"}}),
              OK + QUEUED + "-ERR unknown command 'NOSUCH', with args beginning with: \r\n" + QUEUED);
    EXPECT_EQ(clientField(b, "tx", "flags"), "x");
    EXPECT_EQ(clientField(b, "tx", "multi"), "1");
}

TEST_F(Multi, ClientInfoInsideExecSeesTheTransaction) {
    EXPECT_EQ(run(a, {{"MULTI"}, {"SET", "a", "1"}, {"CLIENT", "INFO"}}), OK + QUEUED + QUEUED);
    Reply r = a.call({"EXEC"});
    ASSERT_EQ(r.elements.size(), 2u) << r;
    EXPECT_NE(r.elements[1].str.find(" flags=x "), std::string::npos) << r;
    EXPECT_NE(r.elements[1].str.find(" multi=2 "), std::string::npos) << r;
    EXPECT_NE(a.call({"CLIENT", "INFO"}).str.find(" multi=-1 "), std::string::npos);
}

/* ------------------------------------------------------------------------
 * Differential: transaction scripts on cppredis and on real Redis.
 * ---------------------------------------------------------------------- */

/* Each step runs on connection 0 or 1 of each server. */
struct Step {
    int conn;
    Args cmd;
};

const std::vector<std::vector<Step>> kScripts = {
    {{0, {"MULTI"}}, {0, {"MULTI"}}, {0, {"SET", "a", "1"}}, {0, {"INCR", "a"}}, {0, {"EXEC"}}, {0, {"EXEC"}}},
    {{0, {"EXEC"}}, {0, {"DISCARD"}}, {0, {"EXEC", "x"}}, {0, {"DISCARD", "x"}}, {0, {"UNWATCH"}}, {0, {"WATCH"}},
     {0, {"MULTI", "x"}}, {0, {"UNWATCH", "x"}}},
    {{0, {"MULTI"}}, {0, {"EXEC", "x"}}, {0, {"EXEC"}}},
    {{0, {"MULTI"}}, {0, {"SET", "a"}}, {0, {"GET", "a"}}, {0, {"EXEC"}}},
    {{0, {"MULTI"}}, {0, {"FOO", "bar"}}, {0, {"EXEC"}}},
    {{0, {"MULTI"}}, {0, {"SHUTDOWN"}}, {0, {"SHUTDOWN", "NOSAVE"}}, {0, {"EXEC"}}},
    {{0, {"MULTI"}}, {0, {"WATCH", "a"}}, {0, {"UNWATCH"}}, {0, {"DISCARD", "x"}}, {0, {"DISCARD"}}, {0, {"DISCARD"}}},
    {{0, {"MULTI"}}, {0, {"SET", "a", "abc"}}, {0, {"INCR", "a"}}, {0, {"GET", "a"}}, {0, {"APPEND", "a", "d"}},
     {0, {"INCRBYFLOAT", "a", "x"}}, {0, {"EXEC"}}},
    {{0, {"SET", "k", "1"}}, {0, {"WATCH", "k"}}, {1, {"SET", "k", "1"}}, {0, {"MULTI"}}, {0, {"GET", "k"}},
     {0, {"EXEC"}}, {0, {"MULTI"}}, {0, {"GET", "k"}}, {0, {"EXEC"}}},
    {{0, {"DEL", "k"}}, {0, {"WATCH", "k"}}, {1, {"DEL", "k"}}, {0, {"MULTI"}}, {0, {"PING"}}, {0, {"EXEC"}}},
    {{0, {"SET", "k", "1"}}, {0, {"WATCH", "k"}}, {1, {"SELECT", "1"}}, {1, {"FLUSHDB"}}, {0, {"MULTI"}},
     {0, {"EXEC"}}, {0, {"WATCH", "k"}}, {1, {"FLUSHALL"}}, {0, {"MULTI"}}, {0, {"EXEC"}}},
    {{0, {"SET", "k", "1"}}, {0, {"WATCH", "k"}}, {1, {"RENAME", "k", "j"}}, {0, {"MULTI"}}, {0, {"EXEC"}},
     {0, {"WATCH", "k"}}, {1, {"RENAME", "j", "k"}}, {0, {"MULTI"}}, {0, {"EXEC"}}},
    {{0, {"SET", "k", "1"}}, {0, {"WATCH", "k"}}, {0, {"MULTI"}}, {0, {"SET", "k", "2"}}, {0, {"EXEC"}},
     {0, {"GET", "k"}}},
    {{0, {"WATCH", "k"}}, {0, {"SET", "k", "1"}}, {0, {"WATCH", "j"}}, {1, {"SET", "j", "1"}}, {0, {"UNWATCH"}},
     {0, {"MULTI"}}, {0, {"EXEC"}}},
    {{0, {"SET", "k", "1"}}, {0, {"WATCH", "k"}}, {1, {"EXPIRE", "k", "100"}}, {0, {"MULTI"}}, {0, {"TTL", "k"}},
     {0, {"EXEC"}}, {0, {"WATCH", "k"}}, {1, {"PERSIST", "k"}}, {0, {"MULTI"}}, {0, {"TTL", "k"}}, {0, {"EXEC"}}},
    {{0, {"MULTI"}}, {0, {"SET", "n", "9223372036854775807"}}, {0, {"INCR", "n"}}, {0, {"DECRBY", "n", "1"}},
     {0, {"MSET", "x", "1", "y"}}, {0, {"MGET", "n", "x"}}, {0, {"DEL", "n"}}, {0, {"EXEC"}}},
    {{0, {"MULTI"}}, {0, {"SELECT", "1"}}, {0, {"SET", "s", "1"}}, {0, {"SELECT", "99"}}, {0, {"EXEC"}},
     {0, {"GET", "s"}}, {0, {"SELECT", "0"}}, {0, {"GET", "s"}}},
    {{0, {"MULTI"}}, {0, {"PING"}}, {0, {"ECHO", "hi"}}, {0, {"CLIENT", "SETNAME", "bad name"}},
     {0, {"CLIENT", "GETNAME"}}, {0, {"EXEC"}}},
};

TEST(MultiDifferential, TransactionScriptsMatchRedis) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours;
    RedisReference ref;
    for (size_t s = 0; s < kScripts.size(); s++) {
        SCOPED_TRACE("script " + std::to_string(s));
        RespConn o[2] = {ours.connect(), ours.connect()}, r[2] = {ref.connect(), ref.connect()};
        for (RespConn *c : {&o[0], &r[0]}) ASSERT_FALSE(c->call({"FLUSHALL"}).isError());
        for (const Step &step : kScripts[s]) expectSameReplies(o[step.conn], r[step.conn], encodeCommand(step.cmd));
    }
}

}  // namespace
