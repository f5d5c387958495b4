/* blocked_test.cpp — the blocking machinery (blocked.cpp) without sockets:
 * socketless clients run BLPOP & co. through processInputBuffer, and the
 * tests look at the state blocked.h describes — c->bpop, db->blocking_keys,
 * db->ready_keys, server.ready_keys, the counters, the timeout table and its
 * time event, server.unblocked_clients — after each step: blocking,
 * signalling, serving, timing out (through a real event loop), unblocking
 * and freeing. */
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <string>
#include <vector>

#include "command_test.h"
#include "blocked.h"
#include "server.h"
#include "t_list.h"
#include "t_zset.h"

namespace {

std::string bulk(const std::string &s) { return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n"; }
std::string popped(const std::string &k, const std::string &v) { return "*2\r\n" + bulk(k) + bulk(v); }

class Blocked : public CommandTest {
protected:
    void TearDown() override {
        freeClients();
        processUnblockedClients();
        emptyData(-1, EMPTYDB_NO_FLAGS);
        /* Nothing may be left behind by any test. */
        EXPECT_EQ(server.blocked_clients, 0u);
        EXPECT_EQ(server.blocked_clients_by_type[BLOCKED_LIST], 0u);
        EXPECT_TRUE(server.clients_timeout_table.empty());
        EXPECT_TRUE(server.unblocked_clients.empty());
        EXPECT_TRUE(server.ready_keys.empty());
        EXPECT_EQ(server.db[0].blocking_keys.size(), 0u);
        EXPECT_EQ(server.db[0].ready_keys.size(), 0u);
    }

    static std::list<client *> *waitersOf(std::string_view key) {
        auto *de = server.db[0].blocking_keys.find(key);
        return de ? &de->val : nullptr;
    }
};

/* ========================================================================
 * The timeout argument
 * ====================================================================== */

TEST_F(Blocked, TimeoutIsADeadlineInMonotonicMicrosecondsNeverEarly) {
    client *c = newClient();
    monotime t = 1;
    ASSERT_TRUE(getTimeoutFromObjectOrReply(c, "0", &t));
    EXPECT_EQ(t, 0u);
    ASSERT_TRUE(getTimeoutFromObjectOrReply(c, "-0", &t));
    EXPECT_EQ(t, 0u);

    /* The clock reads whole microseconds, truncated: the deadline is one
     * more than the reading plus the timeout, so the full timeout after the
     * true "now". */
    monotime before = getMonotonicUs();
    ASSERT_TRUE(getTimeoutFromObjectOrReply(c, "1.5", &t));
    monotime after = getMonotonicUs();
    EXPECT_GE(t, before + 1'500'001);
    EXPECT_LE(t, after + 1'500'001);

    /* A whole number of milliseconds stays whole, though "2.026" is a hair
     * above 2026 ms in binary; anything truly above rounds up. */
    for (int ms = 1000; ms < 3000; ms++) {
        std::string arg = std::to_string(ms / 1000) + "." + std::to_string(1000 + ms % 1000).substr(1);
        before = getMonotonicUs();
        ASSERT_TRUE(getTimeoutFromObjectOrReply(c, arg, &t)) << arg;
        after = getMonotonicUs();
        ASSERT_GE(t, before + 1 + ms * 1000ull) << arg;
        ASSERT_LE(t, after + 1 + ms * 1000ull) << arg << " rounded up a whole millisecond";
    }
    for (const char *above : {"2.0265", "2.02600000001"}) { /* the second: 10 ps above */
        before = getMonotonicUs();
        ASSERT_TRUE(getTimeoutFromObjectOrReply(c, above, &t)) << above;
        EXPECT_GE(t, before + 1 + 2'027'000) << above;
    }

    /* Any positive fraction waits at least a millisecond: 0 would be forever. */
    for (const char *tiny : {"0.001", "0.0001", "1e-10", "0x1p-20", "1e-300"}) {
        before = getMonotonicUs();
        ASSERT_TRUE(getTimeoutFromObjectOrReply(c, tiny, &t)) << tiny;
        EXPECT_GE(t, before + 1001) << tiny;
    }
    /* Absurdly long saturates rather than wrapping into the past. */
    ASSERT_TRUE(getTimeoutFromObjectOrReply(c, "9223372036854775", &t));
    EXPECT_EQ(t, static_cast<monotime>(LLONG_MAX));
    ASSERT_TRUE(getTimeoutFromObjectOrReply(c, "9223372036855", &t)); /* just past LLONG_MAX in us */
    EXPECT_EQ(t, static_cast<monotime>(LLONG_MAX));
    EXPECT_EQ(takeOutput(c), "");

    EXPECT_FALSE(getTimeoutFromObjectOrReply(c, "1.5s", &t));
    EXPECT_EQ(takeOutput(c), "-ERR timeout is not a float or out of range\r\n");
    /* Rounding up makes -0.001 (-0.99999999999999999995 ms in long
     * double) 0, forever: Redis 7.0.15 does the same. */
    ASSERT_TRUE(getTimeoutFromObjectOrReply(c, "-0.001", &t));
    EXPECT_EQ(t, 0u);
    for (const char *bad : {"-0.002", "inf", "1e19"}) {
        EXPECT_FALSE(getTimeoutFromObjectOrReply(c, bad, &t)) << bad;
        EXPECT_EQ(takeOutput(c), "-ERR timeout is negative\r\n") << bad;
    }
}

/* ========================================================================
 * Blocking, unblocking, freeing
 * ====================================================================== */

TEST_F(Blocked, BlockForKeysRecordsTheStateAndUnblockClientUndoesIt) {
    client *c = newClient();
    EXPECT_EQ(run(c, "BLPOP a b a 5\r\n"), "");
    EXPECT_TRUE(c->flags & CLIENT_BLOCKED);
    EXPECT_EQ(c->btype, BLOCKED_LIST);
    EXPECT_TRUE(c->argv.empty()); /* argv died with the command... */
    ASSERT_EQ(c->bpop.keys.size(), 2u); /* ...the keys were copied, `a` once */
    EXPECT_EQ(c->bpop.keys[0].de->key.view(), "a");
    EXPECT_EQ(c->bpop.keys[1].de->key.view(), "b");
    EXPECT_FALSE(c->bpop.target.has_value());
    EXPECT_EQ(c->bpop.blockpos.wherefrom, LIST_HEAD);
    EXPECT_EQ(c->bpop.count, -1);
    EXPECT_GT(c->bpop.timeout, getMonotonicUs() + 4'000'000);
    ASSERT_NE(waitersOf("a"), nullptr);
    EXPECT_EQ(*waitersOf("a"), std::list<client *>{c});
    EXPECT_EQ(*waitersOf("b"), std::list<client *>{c});
    EXPECT_EQ(server.blocked_clients, 1u);
    EXPECT_EQ(server.blocked_clients_by_type[BLOCKED_LIST], 1u);
    EXPECT_EQ(server.clients_timeout_table.size(), 1u);
    EXPECT_EQ(server.blocked_timeout_te_when, c->bpop.timeout);

    unblockClient(c, "test");
    EXPECT_FALSE(c->flags & CLIENT_BLOCKED);
    EXPECT_TRUE(c->flags & CLIENT_UNBLOCKED);
    EXPECT_EQ(c->btype, BLOCKED_NONE);
    EXPECT_TRUE(c->bpop.keys.empty());
    EXPECT_EQ(waitersOf("a"), nullptr);
    EXPECT_EQ(waitersOf("b"), nullptr);
    EXPECT_EQ(server.blocked_clients, 0u);
    EXPECT_TRUE(server.clients_timeout_table.empty());
    EXPECT_EQ(server.unblocked_clients, std::list<client *>{c});

    processUnblockedClients();
    EXPECT_FALSE(c->flags & CLIENT_UNBLOCKED);
    EXPECT_TRUE(server.unblocked_clients.empty());
    EXPECT_EQ(takeOutput(c), ""); /* unblockClient itself replies nothing */
}

TEST_F(Blocked, BrpoplpushAndBlmoveRecordTheirTargetAndDirections) {
    client *c = newClient();
    EXPECT_EQ(run(c, "BLMOVE src dst RIGHT LEFT 0\r\n"), "");
    ASSERT_TRUE(c->bpop.target.has_value());
    EXPECT_EQ(c->bpop.target->view(), "dst");
    EXPECT_EQ(c->bpop.blockpos.wherefrom, LIST_TAIL);
    EXPECT_EQ(c->bpop.blockpos.whereto, LIST_HEAD);
    EXPECT_EQ(c->bpop.timeout, 0u);
    EXPECT_TRUE(server.clients_timeout_table.empty()); /* 0: forever, no deadline to keep */
    EXPECT_EQ(waitersOf("dst"), nullptr);               /* it waits on its source only */
    unblockClient(c, "test");
    EXPECT_FALSE(c->bpop.target.has_value());

    EXPECT_EQ(run(c, "BLMPOP 0 2 x y RIGHT COUNT 3\r\n"), "");
    EXPECT_EQ(c->bpop.count, 3);
    EXPECT_EQ(c->bpop.blockpos.wherefrom, LIST_TAIL);
}

TEST_F(Blocked, FreeingABlockedClientTakesItOffEveryList) {
    client *c1 = newClient(), *c2 = newClient(), *c3 = newClient();
    run(c1, "BLPOP k other 10\r\n");
    run(c2, "BRPOP k 10\r\n");
    run(c3, "BRPOPLPUSH k d 0\r\n");
    EXPECT_EQ(*waitersOf("k"), (std::list<client *>{c1, c2, c3}));
    EXPECT_EQ(server.clients_timeout_table.size(), 2u);

    freeOne(c2);
    EXPECT_EQ(*waitersOf("k"), (std::list<client *>{c1, c3}));
    EXPECT_EQ(server.blocked_clients, 2u);
    EXPECT_EQ(server.clients_timeout_table.size(), 1u);
    EXPECT_TRUE(server.unblocked_clients.empty()); /* not queued for a dead client */

    freeOne(c1);
    EXPECT_EQ(waitersOf("other"), nullptr);
    /* A push now goes to the last one, and only to it. */
    client *pusher = newClient();
    EXPECT_EQ(run(pusher, "RPUSH k a b\r\n"), ":2\r\n");
    EXPECT_EQ(takeOutput(c3), bulk("b"));
    EXPECT_EQ(run(pusher, "LRANGE k 0 -1\r\n"), "*1\r\n" + bulk("a"));
}

TEST_F(Blocked, FreeingAnUnblockedClientLeavesTheReprocessingQueue) {
    client *c1 = newClient(), *c2 = newClient();
    run(c1, "BLPOP k 0\r\n");
    run(c2, "BLPOP k 0\r\n");
    unblockClient(c1, "test");
    unblockClient(c2, "test");
    EXPECT_EQ(server.unblocked_clients, (std::list<client *>{c1, c2}));
    freeOne(c1);
    EXPECT_EQ(server.unblocked_clients, std::list<client *>{c2});
}

/* ========================================================================
 * Signalling and serving
 * ====================================================================== */

TEST_F(Blocked, SignalKeyAsReadyQueuesAWaitedKeyOnce) {
    signalKeyAsReady(&server.db[0], "k"); /* nobody blocked at all */
    EXPECT_TRUE(server.ready_keys.empty());

    client *c = newClient();
    run(c, "BLPOP k 0\r\n");
    signalKeyAsReady(&server.db[0], "nobody-waits");
    EXPECT_TRUE(server.ready_keys.empty());
    signalKeyAsReady(&server.db[0], "k");
    signalKeyAsReady(&server.db[0], "k");
    ASSERT_EQ(server.ready_keys.size(), 1u);
    EXPECT_EQ(server.ready_keys[0].db, &server.db[0]);
    EXPECT_EQ(server.ready_keys[0].key.view(), "k");
    EXPECT_NE(server.db[0].ready_keys.find("k"), nullptr);

    /* No list there: the waiter keeps waiting, the queues are emptied. */
    handleClientsBlockedOnKeys();
    EXPECT_TRUE(server.ready_keys.empty());
    EXPECT_EQ(server.db[0].ready_keys.size(), 0u);
    EXPECT_TRUE(c->flags & CLIENT_BLOCKED);
}

TEST_F(Blocked, DbAddOfAListSignalsAndAnotherTypeDoesNot) {
    client *c = newClient(), *w = newClient();
    run(w, "BLPOP k 0\r\n");
    /* Inside MULTI the signal waits for EXEC. */
    EXPECT_EQ(run(c, "MULTI\r\nSET k v\r\nDEL k\r\nRPUSH k a\r\n"), "+OK\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n");
    EXPECT_TRUE(server.ready_keys.empty());
    EXPECT_EQ(run(c, "EXEC\r\n"), "*3\r\n+OK\r\n:1\r\n:1\r\n");
    EXPECT_TRUE(server.ready_keys.empty()); /* handled right after EXEC */
    EXPECT_EQ(takeOutput(w), popped("k", "a"));
}

TEST_F(Blocked, ServingIsFirstBlockFirstServeAndChained) {
    client *mover = newClient(), *w1 = newClient(), *w2 = newClient(), *pusher = newClient();
    run(mover, "BRPOPLPUSH a b 0\r\n");
    run(w1, "BLPOP a b 0\r\n");
    run(w2, "BLPOP b 0\r\n");
    /* a: mover, w1; b: w1, w2. Two elements in a: mover moves "y" to b,
     * w1 pops "x" from a; then b is ready: w1 is gone, w2 gets "y". */
    EXPECT_EQ(run(pusher, "RPUSH a x y\r\n"), ":2\r\n");
    EXPECT_EQ(takeOutput(mover), bulk("y"));
    EXPECT_EQ(takeOutput(w1), popped("a", "x"));
    EXPECT_EQ(takeOutput(w2), popped("b", "y"));
    EXPECT_EQ(server.blocked_clients, 0u);
    EXPECT_EQ(run(pusher, "EXISTS a b\r\n"), ":0\r\n");
}

/* ========================================================================
 * CLIENT_UNBLOCKED reprocessing
 * ====================================================================== */

TEST_F(Blocked, PipelinedCommandsWaitInTheQueryBufferUntilProcessUnblockedClients) {
    client *c = newClient(), *pusher = newClient();
    EXPECT_EQ(run(c, "BLPOP k 0\r\nSET x 1\r\nPING\r\n"), "");
    EXPECT_EQ(std::string(c->querybuf.data(), c->querybuf.size()), "SET x 1\r\nPING\r\n");
    /* Reads while blocked only add to the buffer. */
    EXPECT_EQ(run(c, "INCR x\r\n"), "");

    EXPECT_EQ(run(pusher, "RPUSH k v\r\n"), ":1\r\n");
    EXPECT_EQ(takeOutput(c), popped("k", "v"));
    EXPECT_TRUE(c->flags & CLIENT_UNBLOCKED);
    processUnblockedClients(); /* beforeSleep */
    EXPECT_EQ(takeOutput(c), "+OK\r\n+PONG\r\n:2\r\n");
    EXPECT_EQ(c->querybuf.size(), 0u);
}

/* ========================================================================
 * Timeouts through the event loop
 * ====================================================================== */

/* Runs the loop's time events until c has a reply (2 s at most). */
static std::string waitForTimeout(client *c) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (clientOutputBytes(c).empty() && std::chrono::steady_clock::now() < deadline)
        aeProcessEvents(server.el.get(), AE_TIME_EVENTS);
    std::string out = clientOutputBytes(c);
    c->bufpos = 0;
    return out;
}

TEST_F(Blocked, TheTimerFollowsTheEarliestDeadline) {
    client *slow = newClient(), *fast = newClient();
    monotime t0 = getMonotonicUs();
    run(slow, "BLPOP k 0.2\r\n");
    monotime slowDeadline = slow->bpop.timeout;
    EXPECT_EQ(server.blocked_timeout_te_when, slowDeadline);
    run(fast, "BRPOP k 0.03\r\n");
    EXPECT_EQ(server.blocked_timeout_te_when, fast->bpop.timeout); /* moved earlier */

    EXPECT_EQ(waitForTimeout(fast), "*-1\r\n");
    EXPECT_GE(getMonotonicUs() - t0, 30000u);
    EXPECT_TRUE(slow->flags & CLIENT_BLOCKED);
    EXPECT_EQ(server.blocked_timeout_te_when, slowDeadline); /* re-armed at the next one */

    EXPECT_EQ(waitForTimeout(slow), "*-1\r\n");
    EXPECT_GE(getMonotonicUs() - t0, 200000u);
    EXPECT_EQ(server.blocked_timeout_te, -1); /* nothing left to wait for: the event is gone */
    processUnblockedClients();
}

/* Answered at the deadline, never before, and not up to a millisecond or
 * two after it as when deadlines, the timer and the loop's sleep were each
 * rounded up to whole milliseconds. 0.7 ms pass between the command and the
 * loop's sleep, as when other clients' work runs in between, so a sleep
 * rounded up to whole milliseconds would also end 0.7 ms late. The median
 * of 21 rides out a noisy machine's late wake-ups. */
TEST_F(Blocked, ATimeoutIsAnsweredWithinAFractionOfAMillisecondNeverEarly) {
    constexpr auto kTimeout = std::chrono::milliseconds(2);
    client *c = newClient();
    std::vector<double> lateMs;
    for (int i = 0; i < 21; i++) {
        auto sent = std::chrono::steady_clock::now();
        run(c, "BLPOP k 0.002\r\n");
        while (std::chrono::steady_clock::now() - sent < std::chrono::microseconds(700)) {
        }
        ASSERT_EQ(waitForTimeout(c), "*-1\r\n");
        auto answered = std::chrono::steady_clock::now();
        EXPECT_GE(answered, sent + kTimeout) << "answered early, round " << i;
        lateMs.push_back(std::chrono::duration<double, std::milli>(answered - (sent + kTimeout)).count());
        processUnblockedClients();
    }
    std::sort(lateMs.begin(), lateMs.end());
    EXPECT_LT(lateMs[lateMs.size() / 2], 0.4) << "median lateness in ms";
}

TEST_F(Blocked, AClientThatLeftBeforeItsDeadlineLeavesTheTimerHarmless) {
    client *gone = newClient(), *stays = newClient();
    run(gone, "BLPOP k 0.02\r\n");
    run(stays, "BLPOP k 0.06\r\n");
    freeOne(gone);
    /* The timer still fires at the first deadline, finds nobody due, and
     * re-arms for the second. */
    EXPECT_EQ(waitForTimeout(stays), "*-1\r\n");
    EXPECT_EQ(server.blocked_timeout_te, -1);
    processUnblockedClients();
}

/* ========================================================================
 * Sorted sets: BLOCKED_ZSET next to BLOCKED_LIST on the same key
 * ====================================================================== */

TEST_F(Blocked, BzpopAndBzmpopRecordTheEndAndTheCount) {
    client *lo = newClient(), *hi = newClient(), *m = newClient();
    EXPECT_EQ(run(lo, "BZPOPMIN z 0\r\n"), "");
    EXPECT_EQ(run(hi, "BZPOPMAX z 0\r\n"), "");
    EXPECT_EQ(run(m, "BZMPOP 0 2 z y MAX COUNT 3\r\n"), "");
    EXPECT_EQ(lo->btype, BLOCKED_ZSET);
    EXPECT_EQ(lo->bpop.blockpos.wherefrom, ZSET_MIN);
    EXPECT_EQ(lo->bpop.count, -1);
    EXPECT_EQ(hi->bpop.blockpos.wherefrom, ZSET_MAX);
    EXPECT_EQ(m->bpop.blockpos.wherefrom, ZSET_MAX);
    EXPECT_EQ(m->bpop.count, 3);
    ASSERT_EQ(m->bpop.keys.size(), 2u);
    EXPECT_EQ((*waitersOf("z")), (std::list<client *>{lo, hi, m}));
    EXPECT_EQ(server.blocked_clients_by_type[BLOCKED_ZSET], 3u);
    EXPECT_TRUE(server.clients_timeout_table.empty()); /* 0: forever */
    for (client *c : {lo, hi, m}) unblockClient(c, "test");
    EXPECT_EQ(server.blocked_clients_by_type[BLOCKED_ZSET], 0u);
    processUnblockedClients();
}

TEST_F(Blocked, EachTypeServesItsOwnWaitersAndTheOthersKeepTheirPlace) {
    client *z1 = newClient(), *l1 = newClient(), *z2 = newClient(), *writer = newClient();
    run(z1, "BZPOPMIN k 0\r\n");
    run(l1, "BLPOP k 0\r\n");
    run(z2, "BZPOPMAX k 0\r\n");
    EXPECT_EQ(run(writer, "RPUSH k a\r\n"), ":1\r\n");
    EXPECT_EQ(takeOutput(l1), popped("k", "a"));
    EXPECT_EQ(*waitersOf("k"), (std::list<client *>{z1, z2}));
    EXPECT_EQ(run(writer, "ZADD k 1 x 2 y 3 w\r\n"), ":3\r\n");
    EXPECT_EQ(takeOutput(z1), "*3\r\n" + bulk("k") + bulk("x") + bulk("1"));
    EXPECT_EQ(takeOutput(z2), "*3\r\n" + bulk("k") + bulk("w") + bulk("3"));
    EXPECT_EQ(waitersOf("k"), nullptr);
    EXPECT_EQ(run(writer, "ZCARD k\r\n"), ":1\r\n");
    processUnblockedClients();
}

}  // namespace
