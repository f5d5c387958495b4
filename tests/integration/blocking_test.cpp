/* blocking_test.cpp — integration tests of the blocking machinery (issue 5:
 * blocked.cpp and the blocking list commands), each with several real
 * sockets: the queue patterns of the seeds (task queue, priority queue,
 * reliable queue, circular list), first-block-first-serve, one push waking
 * N of M waiters with nothing lost, the chained wake through BRPOPLPUSH and
 * BLMOVE, forced unblocking (disconnect, CLIENT KILL, CLIENT UNBLOCK,
 * SHUTDOWN) followed by a push whose value stays in the list, commands
 * pipelined after a blocking one, MULTI, wrong types, the idle timeout,
 * INFO and CLIENT LIST, and a many-client queue where every message is
 * consumed exactly once.
 *
 * The scenarios run twice: against cppredis and against Debian's Redis
 * 7.0.15 (skipped if it is missing), with the same expected bytes, so every
 * expectation is Redis 7.0's behaviour. Timeout precision is cppredis's own
 * (Redis 7.0 answers on its cron tick, up to 100 ms late) and runs on
 * cppredis only.
 *
 * Nothing sleeps to let something happen: a test waits for replies or EOF,
 * and, to know that a client is blocked before pushing, polls INFO clients
 * until blocked_clients says so. */
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "integration/blocking_harness.h"
#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* What BLPOP/BRPOP answer: [key, value]. */
std::string popped(std::string_view key, std::string_view value) { return bulks({std::string(key), std::string(value)}); }

class Blocking : public BlockingBase, public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
        start(GetParam());
    }
};

/* ========================================================================
 * The queue patterns of the seeds
 * ====================================================================== */

TEST_P(Blocking, TaskQueueBrpopWakesOnLpush) {
    RespConn consumer = connect();
    block(consumer, {"BRPOP", "queue", "0"}, 1);
    EXPECT_EQ(call({"LPUSH", "queue", "task"}), integer(1));
    EXPECT_EQ(consumer.readReply().raw, popped("queue", "task"));
    EXPECT_EQ(call({"LLEN", "queue"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "queue"}), integer(0));
    waitBlocked(0);
}

TEST_P(Blocking, PriorityQueueServesTheFirstNonEmptyKey) {
    RespConn consumer = connect();
    block(consumer, {"BRPOP", "q:1", "q:2", "q:3", "0"}, 1);
    EXPECT_EQ(call({"LPUSH", "q:2", "task"}), integer(1));
    EXPECT_EQ(consumer.readReply().raw, popped("q:2", "task"));

    /* Several keys hold something: left to right, at once. */
    EXPECT_EQ(call({"LPUSH", "q:2", "task1"}), integer(1));
    EXPECT_EQ(call({"LPUSH", "q:3", "task2"}), integer(1));
    EXPECT_EQ(consumer.call({"BRPOP", "q:1", "q:2", "q:3", "0"}).raw, popped("q:2", "task1"));
    EXPECT_EQ(consumer.call({"BLPOP", "q:1", "q:2", "q:3", "0"}).raw, popped("q:3", "task2"));
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(Blocking, ReliableQueueWithBrpoplpushAndBlmove) {
    RespConn worker = connect();
    block(worker, {"BRPOPLPUSH", "queue", "processing", "0"}, 1);
    EXPECT_EQ(call({"LPUSH", "queue", "job1"}), integer(1));
    EXPECT_EQ(worker.readReply().raw, bulk("job1"));
    EXPECT_EQ(call({"LRANGE", "processing", "0", "-1"}), bulks({"job1"}));

    block(worker, {"BLMOVE", "queue", "processing", "RIGHT", "LEFT", "0"}, 1);
    EXPECT_EQ(call({"RPUSH", "queue", "job2"}), integer(1));
    EXPECT_EQ(worker.readReply().raw, bulk("job2"));
    EXPECT_EQ(call({"LRANGE", "processing", "0", "-1"}), bulks({"job2", "job1"}));

    /* Done with job1: the worker removes it; a watcher re-queues the rest. */
    EXPECT_EQ(worker.call({"LREM", "processing", "1", "job1"}).raw, integer(1));
    EXPECT_EQ(call({"RPOPLPUSH", "processing", "queue"}), bulk("job2"));
    EXPECT_EQ(call({"LRANGE", "queue", "0", "-1"}), bulks({"job2"}));
    EXPECT_EQ(call({"EXISTS", "processing"}), integer(0));
}

TEST_P(Blocking, CircularListWithTheSameSourceAndDestination) {
    /* Rotation at once. */
    EXPECT_EQ(call({"RPUSH", "ring", "a", "b", "c"}), integer(3));
    RespConn c = connect();
    EXPECT_EQ(c.call({"BRPOPLPUSH", "ring", "ring", "0"}).raw, bulk("c"));
    EXPECT_EQ(c.call({"BLMOVE", "ring", "ring", "LEFT", "RIGHT", "0"}).raw, bulk("c"));
    EXPECT_EQ(call({"LRANGE", "ring", "0", "-1"}), bulks({"a", "b", "c"}));

    /* Blocked rotators: each is served the same element in turn, which
     * stays in the list. */
    EXPECT_EQ(call({"DEL", "ring"}), integer(1));
    RespConn d = connect();
    block(c, {"BRPOPLPUSH", "ring", "ring", "0"}, 1);
    block(d, {"BLMOVE", "ring", "ring", "LEFT", "LEFT", "0"}, 2);
    EXPECT_EQ(call({"RPUSH", "ring", "x"}), integer(1));
    EXPECT_EQ(c.readReply().raw, bulk("x"));
    EXPECT_EQ(d.readReply().raw, bulk("x"));
    EXPECT_EQ(call({"LRANGE", "ring", "0", "-1"}), bulks({"x"}));
    EXPECT_EQ(blockedClients(), 0);
}

/* ========================================================================
 * Serving order
 * ====================================================================== */

TEST_P(Blocking, FirstBlockFirstServe) {
    RespConn c1 = connect(), c2 = connect(), c3 = connect();
    block(c1, {"BLPOP", "k", "0"}, 1);
    block(c2, {"BLPOP", "k", "0"}, 2);
    block(c3, {"BLPOP", "k", "0"}, 3);

    EXPECT_EQ(call({"RPUSH", "k", "a"}), integer(1));
    EXPECT_EQ(c1.readReply().raw, popped("k", "a"));
    /* Served before RPUSH even replied: the others are still blocked. */
    EXPECT_EQ(blockedClients(), 2);

    EXPECT_EQ(call({"RPUSH", "k", "b", "c"}), integer(2));
    EXPECT_EQ(c2.readReply().raw, popped("k", "b"));
    EXPECT_EQ(c3.readReply().raw, popped("k", "c"));
    EXPECT_EQ(blockedClients(), 0);
    EXPECT_EQ(call({"EXISTS", "k"}), integer(0));
}

TEST_P(Blocking, OnePushOfNValuesWakesNOfMWaitersAndLosesNothing) {
    constexpr int M = 12, N = 7;
    std::vector<RespConn> waiters;
    for (int i = 0; i < M; i++) {
        waiters.push_back(connect());
        /* Mixed commands and several keys: each is served once, in order. */
        Args cmd = i % 3 == 0 ? Args{"BLPOP", "other", "k", "0"}
                 : i % 3 == 1 ? Args{"BRPOP", "k", "0"}
                              : Args{"BLMPOP", "0", "2", "k", "other", "LEFT"};
        block(waiters.back(), cmd, i + 1);
    }
    Args push{"RPUSH", "k"};
    for (int i = 0; i < N; i++) push.push_back("v" + std::to_string(i));
    EXPECT_EQ(call(push), integer(N));
    EXPECT_EQ(blockedClients(), M - N);
    EXPECT_EQ(call({"EXISTS", "k"}), integer(0));

    /* Waiter i popped from the head (BLPOP, BLMPOP LEFT) or the tail
     * (BRPOP) of what the earlier ones left. */
    std::vector<std::string> list;
    for (int i = 0; i < N; i++) list.push_back("v" + std::to_string(i));
    std::multiset<std::string> received;
    for (int i = 0; i < N; i++) {
        std::string expected;
        if (i % 3 == 1) {
            expected = popped("k", list.back());
            received.insert(list.back());
            list.pop_back();
        } else {
            expected = i % 3 == 0 ? popped("k", list.front())
                                  : array({bulk("k"), bulks({list.front()})});
            received.insert(list.front());
            list.erase(list.begin());
        }
        EXPECT_EQ(waiters[i].readReply().raw, expected) << "waiter " << i;
    }
    std::multiset<std::string> pushed(push.begin() + 2, push.end());
    EXPECT_EQ(received, pushed);

    /* The rest are still waiting, on every key they named: the first of
     * them waiting on `other` too is waiter 8 (a BLMPOP). */
    EXPECT_EQ(call({"RPUSH", "other", "w"}), integer(1));
    EXPECT_EQ(waiters[8].readReply().raw, array({bulk("other"), bulks({"w"})}));
    EXPECT_EQ(blockedClients(), M - N - 1);
}

TEST_P(Blocking, ABlmpopWaiterGetsUpToCountElements) {
    RespConn c = connect();
    block(c, {"BLMPOP", "0", "2", "k1", "k2", "RIGHT", "COUNT", "2"}, 1);
    EXPECT_EQ(call({"RPUSH", "k2", "a", "b", "c"}), integer(3));
    EXPECT_EQ(c.readReply().raw, array({bulk("k2"), bulks({"c", "b"})}));
    EXPECT_EQ(call({"LRANGE", "k2", "0", "-1"}), bulks({"a"}));
}

TEST_P(Blocking, AClientBlockedOnSeveralKeysIsServedOnceAndLeavesThemAll) {
    RespConn c = connect(), other = connect();
    block(c, {"BLPOP", "k1", "k2", "k1", "0"}, 1); /* k1 named twice: waits on it once */
    EXPECT_EQ(call({"MULTI"}), OK);
    EXPECT_EQ(call({"RPUSH", "k1", "a", "b"}), QUEUED);
    EXPECT_EQ(call({"RPUSH", "k2", "c"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), array({integer(2), integer(1)}));
    EXPECT_EQ(c.readReply().raw, popped("k1", "a"));
    EXPECT_EQ(blockedClients(), 0);
    EXPECT_EQ(call({"LRANGE", "k1", "0", "-1"}), bulks({"b"}));
    EXPECT_EQ(call({"LRANGE", "k2", "0", "-1"}), bulks({"c"}));
    /* Nobody else was served in its place. */
    EXPECT_EQ(other.call({"BLPOP", "k2", "0"}).raw, popped("k2", "c"));
}

TEST_P(Blocking, LpushRepliesItsLengthBeforeWaitersAreServed) {
    RespConn c = connect();
    block(c, {"BLPOP", "k", "0"}, 1);
    EXPECT_EQ(call({"LPUSH", "k", "a", "b"}), integer(2));
    EXPECT_EQ(c.readReply().raw, popped("k", "b"));
    EXPECT_EQ(call({"LLEN", "k"}), integer(1));
}

TEST_P(Blocking, RenameAndMoveIntoAWaitedKeyWake) {
    RespConn c = connect(), d = connect();
    block(c, {"BLPOP", "dst", "0"}, 1);
    EXPECT_EQ(call({"RPUSH", "tmp", "v"}), integer(1));
    EXPECT_EQ(call({"RENAME", "tmp", "dst"}), OK);
    EXPECT_EQ(c.readReply().raw, popped("dst", "v"));

    EXPECT_EQ(d.call({"SELECT", "1"}).raw, OK);
    block(d, {"BLPOP", "moved", "0"}, 1);
    EXPECT_EQ(call({"RPUSH", "moved", "w"}), integer(1));
    EXPECT_EQ(call({"MOVE", "moved", "1"}), integer(1));
    EXPECT_EQ(d.readReply().raw, popped("moved", "w"));
}

/* ========================================================================
 * The chained wake
 * ====================================================================== */

TEST_P(Blocking, BrpoplpushServingWakesTheClientsBlockedOnItsDestination) {
    RespConn mover = connect(), reader = connect();
    block(mover, {"BRPOPLPUSH", "a", "b", "0"}, 1);
    block(reader, {"BLPOP", "b", "0"}, 2);
    EXPECT_EQ(call({"LPUSH", "a", "x"}), integer(1));
    EXPECT_EQ(mover.readReply().raw, bulk("x"));
    EXPECT_EQ(reader.readReply().raw, popped("b", "x"));
    EXPECT_EQ(call({"EXISTS", "a", "b"}), integer(0));
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(Blocking, AChainOfBlmovesIsServedInOnePass) {
    RespConn m1 = connect(), m2 = connect(), reader = connect();
    block(reader, {"BRPOP", "c", "0"}, 1);
    block(m2, {"BLMOVE", "b", "c", "LEFT", "RIGHT", "0"}, 2);
    block(m1, {"BLMOVE", "a", "b", "RIGHT", "LEFT", "0"}, 3);
    EXPECT_EQ(call({"RPUSH", "a", "x"}), integer(1));
    EXPECT_EQ(m1.readReply().raw, bulk("x"));
    EXPECT_EQ(m2.readReply().raw, bulk("x"));
    EXPECT_EQ(reader.readReply().raw, popped("c", "x"));
    EXPECT_EQ(call({"EXISTS", "a", "b", "c"}), integer(0));
}

/* ========================================================================
 * Forced unblocking: the value pushed afterwards stays in the list
 * ====================================================================== */

TEST_P(Blocking, AWaiterThatDisconnectsIsNeverServed) {
    RespConn gone = connect(), stays = connect();
    block(gone, {"BLPOP", "k", "0"}, 1);
    block(stays, {"BLPOP", "k2", "0"}, 2);
    gone.close();
    waitBlocked(1); /* EOF is seen at once: its socket is still read */
    EXPECT_EQ(call({"RPUSH", "k", "v"}), integer(1));
    EXPECT_EQ(call({"LRANGE", "k", "0", "-1"}), bulks({"v"}));
}

TEST_P(Blocking, ClientKillOfAWaiter) {
    RespConn victim = connect();
    long long id = clientId(victim);
    block(victim, {"BRPOPLPUSH", "k", "dst", "0"}, 1);
    EXPECT_EQ(call({"CLIENT", "KILL", "ID", std::to_string(id)}), integer(1));
    victim.expectClosed();
    EXPECT_EQ(blockedClients(), 0);
    EXPECT_EQ(call({"RPUSH", "k", "v"}), integer(1));
    EXPECT_EQ(call({"LRANGE", "k", "0", "-1"}), bulks({"v"}));
    EXPECT_EQ(call({"EXISTS", "dst"}), integer(0));
}

TEST_P(Blocking, ClientUnblockAsATimeoutOrAnError) {
    RespConn c = connect();
    long long id = clientId(c);
    block(c, {"BLPOP", "k", "0"}, 1);
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", std::to_string(id)}), integer(1));
    EXPECT_EQ(c.readReply().raw, NIL_ARRAY);

    block(c, {"BRPOPLPUSH", "k", "d", "0"}, 1);
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", std::to_string(id), "TIMEOUT"}), integer(1));
    EXPECT_EQ(c.readReply().raw, NIL_ARRAY);

    block(c, {"BLMOVE", "k", "d", "LEFT", "LEFT", "0"}, 1);
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", std::to_string(id), "error"}), integer(1));
    EXPECT_EQ(c.readReply().raw, "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");

    /* Not blocked (any more): nothing to do. */
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", std::to_string(id)}), integer(0));
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", "999999", "ERROR"}), integer(0));
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", "abc"}), "-ERR value is not an integer or out of range\r\n");
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", "abc", "maybe"}),
              "-ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\r\n");
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", "1", "2", "3"}),
              "-ERR unknown subcommand or wrong number of arguments for 'UNBLOCK'. Try CLIENT HELP.\r\n");

    /* The value pushed afterwards stays: nobody waits any more. */
    EXPECT_EQ(call({"RPUSH", "k", "v"}), integer(1));
    EXPECT_EQ(call({"LRANGE", "k", "0", "-1"}), bulks({"v"}));
    /* And the connection goes on working. */
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
}

TEST_P(Blocking, ShutdownWithBlockedClientsClosesThemAndExitsCleanly) {
    RespConn c1 = connect(), c2 = connect();
    block(c1, {"BLPOP", "k", "0"}, 1);
    block(c2, {"BRPOPLPUSH", "k", "d", "100"}, 2);
    admin().send(encodeCommand({"SHUTDOWN", "NOSAVE"}));
    c1.expectClosed();
    c2.expectClosed();
    EXPECT_EQ(srv->waitExit(), 0);
}

/* ========================================================================
 * CLIENT_UNBLOCKED: commands pipelined after the blocking one
 * ====================================================================== */

TEST_P(Blocking, PipelinedCommandsRunInOrderOnceUnblocked) {
    RespConn c = connect();
    c.send(encodeCommand({"BLPOP", "k", "0"}) + encodeCommand({"SET", "x", "1"}) +
           encodeCommand({"INCR", "x"}) + encodeCommand({"LPUSH", "k2", "z"}));
    waitBlocked(1);
    /* Nothing after the blocking command has run. */
    EXPECT_EQ(call({"EXISTS", "x", "k2"}), integer(0));
    EXPECT_EQ(call({"RPUSH", "k", "v"}), integer(1));
    EXPECT_EQ(c.readReply().raw, popped("k", "v"));
    EXPECT_EQ(c.readReply().raw, OK);
    EXPECT_EQ(c.readReply().raw, integer(2));
    EXPECT_EQ(c.readReply().raw, integer(1));
    EXPECT_EQ(call({"GET", "x"}), bulk("2"));
}

TEST_P(Blocking, APipelinedBlockingCommandBlocksAgainAfterTheFirstIsServed) {
    RespConn c = connect();
    c.send(encodeCommand({"BLPOP", "k", "0"}) + encodeCommand({"BRPOP", "k", "0"}) + encodeCommand({"PING"}));
    waitBlocked(1);
    EXPECT_EQ(call({"RPUSH", "k", "a"}), integer(1));
    EXPECT_EQ(c.readReply().raw, popped("k", "a"));
    waitBlocked(1); /* now the BRPOP */
    EXPECT_EQ(call({"RPUSH", "k", "b", "c"}), integer(2));
    EXPECT_EQ(c.readReply().raw, popped("k", "c"));
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
    EXPECT_EQ(call({"LRANGE", "k", "0", "-1"}), bulks({"b"}));
}

TEST_P(Blocking, PipelinedCommandsRunAfterATimeoutAndAClientUnblock) {
    RespConn c = connect();
    c.send(encodeCommand({"BLPOP", "k", "0.05"}) + encodeCommand({"ECHO", "after timeout"}));
    EXPECT_EQ(c.readReply().raw, NIL_ARRAY);
    EXPECT_EQ(c.readReply().raw, bulk("after timeout"));

    long long id = clientId(c);
    c.send(encodeCommand({"BLPOP", "k", "0"}) + encodeCommand({"ECHO", "after unblock"}));
    waitBlocked(1);
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", std::to_string(id)}), integer(1));
    EXPECT_EQ(c.readReply().raw, NIL_ARRAY);
    EXPECT_EQ(c.readReply().raw, bulk("after unblock"));
}

/* ========================================================================
 * MULTI and wrong types
 * ====================================================================== */

TEST_P(Blocking, InsideMultiBlockingCommandsNeverBlock) {
    RespConn c = connect();
    EXPECT_EQ(c.call({"MULTI"}).raw, OK);
    for (const Args &a : {Args{"BLPOP", "k", "0"}, Args{"BRPOP", "k", "k2", "0"}, Args{"BRPOPLPUSH", "k", "d", "0"},
                          Args{"BLMOVE", "k", "d", "LEFT", "RIGHT", "0"}, Args{"BLMPOP", "0", "1", "k", "LEFT"}})
        EXPECT_EQ(c.call(a).raw, QUEUED);
    EXPECT_EQ(c.call({"EXEC"}).raw, array({NIL_ARRAY, NIL_ARRAY, NIL, NIL, NIL_ARRAY}));
    EXPECT_EQ(blockedClients(), 0);

    /* A non-empty list is popped as usual. */
    EXPECT_EQ(call({"RPUSH", "k", "a", "b"}), integer(2));
    EXPECT_EQ(c.call({"MULTI"}).raw, OK);
    EXPECT_EQ(c.call({"BLPOP", "k", "0"}).raw, QUEUED);
    EXPECT_EQ(c.call({"BRPOPLPUSH", "k", "d", "0"}).raw, QUEUED);
    EXPECT_EQ(c.call({"EXEC"}).raw, array({popped("k", "a"), bulk("b")}));
}

TEST_P(Blocking, PushesInsideATransactionWakeWaitersAfterExec) {
    RespConn w1 = connect(), w2 = connect(), tx = connect();
    block(w1, {"BLPOP", "k", "0"}, 1);
    block(w2, {"BLPOP", "k", "0"}, 2);
    EXPECT_EQ(tx.call({"MULTI"}).raw, OK);
    EXPECT_EQ(tx.call({"LPUSH", "k", "a"}).raw, QUEUED);
    EXPECT_EQ(tx.call({"LPUSH", "k", "b"}).raw, QUEUED);
    EXPECT_EQ(blockedClients(), 2);
    EXPECT_EQ(tx.call({"EXEC"}).raw, array({integer(1), integer(2)}));
    EXPECT_EQ(w1.readReply().raw, popped("k", "b"));
    EXPECT_EQ(w2.readReply().raw, popped("k", "a"));
}

TEST_P(Blocking, APushAndADelInOneTransactionWakeNobody) {
    RespConn w = connect(), tx = connect();
    block(w, {"BLPOP", "k", "0"}, 1);
    EXPECT_EQ(tx.call({"MULTI"}).raw, OK);
    EXPECT_EQ(tx.call({"LPUSH", "k", "a"}).raw, QUEUED);
    EXPECT_EQ(tx.call({"DEL", "k"}).raw, QUEUED);
    EXPECT_EQ(tx.call({"EXEC"}).raw, array({integer(1), integer(1)}));
    EXPECT_EQ(blockedClients(), 1);
    /* Still waiting, and for the next push. */
    EXPECT_EQ(call({"RPUSH", "k", "b"}), integer(1));
    EXPECT_EQ(w.readReply().raw, popped("k", "b"));
}

TEST_P(Blocking, WrongTypes) {
    EXPECT_EQ(call({"SET", "s", "x"}), OK);
    RespConn c = connect();
    EXPECT_EQ(c.call({"BLPOP", "s", "0"}).raw, WRONGTYPE);
    EXPECT_EQ(c.call({"BRPOP", "missing", "s", "0"}).raw, WRONGTYPE);
    EXPECT_EQ(c.call({"BLMPOP", "0", "2", "missing", "s", "LEFT"}).raw, WRONGTYPE);
    EXPECT_EQ(c.call({"BRPOPLPUSH", "s", "d", "0"}).raw, WRONGTYPE);
    /* A source with elements moves at once, and the destination is checked. */
    EXPECT_EQ(call({"RPUSH", "l", "v"}), integer(1));
    EXPECT_EQ(c.call({"BLMOVE", "l", "s", "LEFT", "LEFT", "0"}).raw, WRONGTYPE);
    EXPECT_EQ(call({"LRANGE", "l", "0", "-1"}), bulks({"v"}));
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(Blocking, AKeyRecreatedAsAnotherTypeLeavesItsWaitersBlocked) {
    RespConn w = connect();
    block(w, {"BLPOP", "k", "0"}, 1);
    EXPECT_EQ(call({"SET", "k", "string"}), OK);
    EXPECT_EQ(blockedClients(), 1);
    EXPECT_EQ(call({"DEL", "k"}), integer(1));
    EXPECT_EQ(call({"RPUSH", "k", "v"}), integer(1));
    EXPECT_EQ(w.readReply().raw, popped("k", "v"));
}

TEST_P(Blocking, ABrpoplpushWokenOntoAWrongTypeDestinationGetsWrongtype) {
    RespConn mover = connect(), next = connect();
    block(mover, {"BRPOPLPUSH", "src", "dst", "0"}, 1);
    block(next, {"BLPOP", "src", "0"}, 2);
    EXPECT_EQ(call({"SET", "dst", "string"}), OK);
    EXPECT_EQ(call({"RPUSH", "src", "x"}), integer(1));
    EXPECT_EQ(mover.readReply().raw, WRONGTYPE);
    /* The element stayed in the source, for the next waiter. */
    EXPECT_EQ(next.readReply().raw, popped("src", "x"));
    EXPECT_EQ(call({"GET", "dst"}), bulk("string"));
    EXPECT_EQ(blockedClients(), 0);

    block(mover, {"BLMOVE", "src", "dst", "LEFT", "LEFT", "0"}, 1);
    EXPECT_EQ(call({"RPUSH", "src", "y"}), integer(1));
    EXPECT_EQ(mover.readReply().raw, WRONGTYPE);
    EXPECT_EQ(call({"LRANGE", "src", "0", "-1"}), bulks({"y"}));
}

/* ========================================================================
 * Timeouts and introspection
 * ====================================================================== */

TEST_P(Blocking, TimeoutsAnswerTheNullArray) {
    RespConn c = connect();
    EXPECT_EQ(c.call({"BLPOP", "k", "0.01"}).raw, NIL_ARRAY);
    EXPECT_EQ(c.call({"BRPOP", "k", "k2", "0.01"}).raw, NIL_ARRAY);
    EXPECT_EQ(c.call({"BRPOPLPUSH", "k", "d", "0.01"}).raw, NIL_ARRAY);
    EXPECT_EQ(c.call({"BLMOVE", "k", "d", "RIGHT", "LEFT", "0.01"}).raw, NIL_ARRAY);
    EXPECT_EQ(c.call({"BLMPOP", "0.01", "1", "k", "LEFT", "COUNT", "3"}).raw, NIL_ARRAY);
    /* The 0.001 s of Redis 7.0.8's fix, and less: they time out, not wait forever. */
    EXPECT_EQ(c.call({"BLPOP", "k", "0.001"}).raw, NIL_ARRAY);
    EXPECT_EQ(c.call({"BLPOP", "k", "0.0001"}).raw, NIL_ARRAY);
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(Blocking, TimeoutArgumentErrors) {
    const std::string notFloat = "-ERR timeout is not a float or out of range\r\n";
    const std::string negative = "-ERR timeout is negative\r\n";
    for (const char *t : {"abc", "", " 1", "nan", "1e5000", "1x"})
        EXPECT_EQ(call({"BLPOP", "k", t}), notFloat) << t;
    for (const char *t : {"-1", "-0.5", "inf", "1e20", "92233720368547758"})
        EXPECT_EQ(call({"BLPOP", "k", t}), negative) << t;
    EXPECT_EQ(call({"BRPOPLPUSH", "a", "b", "x"}), notFloat);
    EXPECT_EQ(call({"BLMOVE", "a", "b", "LEFT", "RIGHT", "-2"}), negative);
    /* BLMOVE checks its directions, BLMPOP all the rest, before the timeout. */
    EXPECT_EQ(call({"BLMOVE", "a", "b", "UP", "RIGHT", "x"}), "-ERR syntax error\r\n");
    EXPECT_EQ(call({"BLMPOP", "x", "0", "k", "LEFT"}), "-ERR numkeys should be greater than 0\r\n");
    EXPECT_EQ(call({"BLMPOP", "x", "1", "k", "UP"}), "-ERR syntax error\r\n");
    EXPECT_EQ(call({"BLMPOP", "x", "1", "k", "LEFT", "COUNT", "0"}), "-ERR count should be greater than 0\r\n");
    EXPECT_EQ(call({"BLMPOP", "-1", "1", "k", "LEFT"}), negative);
    EXPECT_EQ(call({"BLPOP", "k"}), "-ERR wrong number of arguments for 'blpop' command\r\n");
    EXPECT_EQ(call({"BLMPOP", "0", "1", "k"}), "-ERR wrong number of arguments for 'blmpop' command\r\n");
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(Blocking, InfoAndClientListShowBlockedClients) {
    RespConn c = connect();
    long long id = clientId(c);
    block(c, {"BLPOP", "k", "100"}, 1);
    Info in = info(admin(), {"clients"});
    EXPECT_EQ(in.fields["blocked_clients"], "1");
    EXPECT_EQ(in.fields["clients_in_timeout_table"], "1");
    std::string line = admin().call({"CLIENT", "LIST", "ID", std::to_string(id)}).str;
    EXPECT_NE(line.find(" flags=b "), std::string::npos) << line;
    EXPECT_NE(line.find(" cmd=blpop "), std::string::npos) << line;

    EXPECT_EQ(call({"RPUSH", "k", "v"}), integer(1));
    EXPECT_EQ(c.readReply().raw, popped("k", "v"));
    in = info(admin(), {"clients"});
    EXPECT_EQ(in.fields["blocked_clients"], "0");
    EXPECT_EQ(in.fields["clients_in_timeout_table"], "0");
    line = admin().call({"CLIENT", "LIST", "ID", std::to_string(id)}).str;
    EXPECT_NE(line.find(" flags=N "), std::string::npos) << line;
}

/* The idle `timeout` closes an idle client, never a blocked one. */
class BlockingIdle : public BlockingBase, public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
        start(GetParam(), {"--timeout", "1"});
    }
};

TEST_P(BlockingIdle, TheIdleTimeoutNeverClosesABlockedClient) {
    RespConn waiter = connect(Ms{10000}), idle = connect(Ms{10000});
    EXPECT_EQ(idle.call({"PING"}).raw, "+PONG\r\n");
    block(waiter, {"BLPOP", "k", "0"}, 1);
    idle.expectClosed();         /* after 1-2 s idle */
    admin_.emplace(connect()); /* the admin was idle too */
    EXPECT_EQ(blockedClients(), 1);
    EXPECT_EQ(call({"RPUSH", "k", "v"}), integer(1));
    EXPECT_EQ(waiter.readReply().raw, popped("k", "v"));
}

/* ========================================================================
 * Many clients: a queue where every message is consumed exactly once
 * ====================================================================== */

TEST_P(Blocking, ProducersAndConsumersLoseAndDuplicateNothing) {
    constexpr int P = 4, C = 6, PER_PRODUCER = 300;
    const std::vector<std::string> keys{"jobs:high", "jobs:low"};
    std::vector<std::vector<std::string>> got(C);
    std::vector<std::thread> threads;
    for (int i = 0; i < C; i++) {
        threads.emplace_back([&, i] {
            RespConn c = connect();
            for (;;) {
                Reply r = c.call({"BRPOP", keys[0], keys[1], "0"});
                if (r.elements.size() != 2) return; /* a failure shows in the count */
                if (r.elements[1].str == "stop") return;
                got[i].push_back(r.elements[1].str);
            }
        });
    }
    std::vector<std::thread> producers;
    for (int p = 0; p < P; p++) {
        producers.emplace_back([&, p] {
            RespConn c = connect();
            for (int m = 0; m < PER_PRODUCER; m++)
                c.call({"LPUSH", keys[m % 2], std::to_string(p) + ":" + std::to_string(m)});
        });
    }
    for (std::thread &t : producers) t.join();
    /* The stops go behind every message (BRPOP takes jobs:high first, and
     * the oldest element of a key first). */
    for (int i = 0; i < C; i++) call({"LPUSH", "jobs:low", "stop"});
    for (std::thread &t : threads) t.join();

    std::multiset<std::string> all;
    for (const auto &v : got) all.insert(v.begin(), v.end());
    EXPECT_EQ(all.size(), static_cast<size_t>(P * PER_PRODUCER));
    for (int p = 0; p < P; p++)
        for (int m = 0; m < PER_PRODUCER; m++)
            EXPECT_EQ(all.count(std::to_string(p) + ":" + std::to_string(m)), 1u) << p << ":" << m;
    EXPECT_EQ(call({"EXISTS", keys[0], keys[1]}), integer(0));
    EXPECT_EQ(blockedClients(), 0);
}

INSTANTIATE_TEST_SUITE_P(Servers, Blocking, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName);
INSTANTIATE_TEST_SUITE_P(Servers, BlockingIdle, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName);

/* ========================================================================
 * Timeout precision (cppredis only: Redis 7.0 waits for its cron tick)
 *
 * How late a timeout is answered is read on the server's own clock: TIME,
 * the blocking command and TIME again go in one write, and since a client's
 * commands pipelined after a blocking one run as soon as it is answered,
 * the two TIME replies bracket the wait as the server lived it. The test's
 * own clock would add how late the test itself gets to read, which on a
 * loaded machine can be far more than the server's lateness. The bound is
 * loose (kSlackMs): it catches a server that waits for its cron tick (at
 * hz 1, up to a second late) or never answers (the connection's 5 s read
 * timeout), not a millisecond's lateness, which bench/waiters_bench.sh
 * measures.
 * ====================================================================== */

class BlockingTimeouts : public BlockingBase, public ::testing::Test {
protected:
    /* Far more than a loaded machine delays the server's own wake-up, and
     * less than half the second a server ticking at hz 1 would be late. */
    static constexpr double kSlackMs = 400;

    void SetUp() override { start(ServerImpl::Cppredis, {"--hz", "1"}); }

    static void sendBracketed(RespConn &c, const Args &args) {
        c.send(encodeCommand({"TIME"}) + encodeCommand(args) + encodeCommand({"TIME"}));
    }
    /* The command's reply into *raw; returns the milliseconds between the
     * two TIMEs. */
    static double readBracketed(RespConn &c, std::string *raw) {
        long long t0 = timeUs(c.readReply());
        *raw = c.readReply().raw;
        return static_cast<double>(timeUs(c.readReply()) - t0) / 1000.0;
    }
    static long long timeUs(const Reply &time) {
        EXPECT_EQ(time.elements.size(), 2u) << time;
        if (time.elements.size() != 2) return 0;
        return std::stoll(time.elements[0].str) * 1'000'000 + std::stoll(time.elements[1].str);
    }
};

/* hz 1 (serverCron once a second): the deadline is met anyway. */
TEST_F(BlockingTimeouts, ATimeoutIsAnsweredAtItsDeadline) {
    RespConn c = connect();
    std::string raw;
    for (int i = 0; i < 5; i++) {
        sendBracketed(c, {"BLPOP", "k", "0.1"});
        double ms = readBracketed(c, &raw);
        EXPECT_EQ(raw, NIL_ARRAY);
        EXPECT_GE(ms, 100.0);
        EXPECT_LT(ms, 100.0 + kSlackMs);
    }
    sendBracketed(c, {"BRPOPLPUSH", "k", "d", "0.001"});
    double ms = readBracketed(c, &raw);
    EXPECT_EQ(raw, NIL_ARRAY);
    EXPECT_GE(ms, 1.0);
    EXPECT_LT(ms, 1.0 + kSlackMs);
}

/* Deadlines in random order, some clients leaving early: each waiter is
 * answered at its own deadline, never before. The deadlines span 0.8 s, so
 * a server answering on a tick up to a second apart leaves some waiter more
 * than kSlackMs late, whatever the tick's phase. */
TEST_F(BlockingTimeouts, ManyWaitersWithSpreadDeadlines) {
    constexpr int N = 40;
    std::vector<RespConn> conns;
    std::vector<int> timeoutMs;
    for (int i = 0; i < N; i++) {
        conns.push_back(connect());
        timeoutMs.push_back(100 + (i * 37) % 800); /* 100..899 ms, shuffled */
        sendBracketed(conns.back(), {"BLPOP", "k" + std::to_string(i % 4), "0." + std::to_string(timeoutMs.back())});
    }
    /* Every fifth leaves before its deadline. */
    for (int i = 0; i < N; i += 5) conns[i].close();
    for (int i = 0; i < N; i++) {
        if (i % 5 == 0) continue;
        std::string raw;
        double ms = readBracketed(conns[i], &raw);
        EXPECT_EQ(raw, NIL_ARRAY) << "waiter " << i;
        EXPECT_GE(ms, timeoutMs[i]) << "waiter " << i;
        EXPECT_LT(ms, timeoutMs[i] + kSlackMs) << "waiter " << i;
    }
    EXPECT_EQ(blockedClients(), 0);
    EXPECT_EQ(infoField(admin(), "clients", "clients_in_timeout_table"), "0");
}

}  // namespace
