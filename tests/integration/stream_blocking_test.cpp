/* stream_blocking_test.cpp — XREAD BLOCK and XREADGROUP BLOCK (issue 15,
 * point 3): BLOCKED_STREAM through blocked.cpp's machinery, with several
 * real sockets. Readers woken by XADD (all XREAD readers of a key; one
 * XREADGROUP reader per new entry, first-block-first-serve), a reader whose
 * ID is not passed yet going on waiting, timeouts, BLOCK 0, CLIENT UNBLOCK,
 * disconnects, the XREADGROUP reader told when its group or its stream is
 * gone (XGROUP DESTROY, DEL, SET over it, FLUSHALL), MULTI not blocking and
 * scripts refused BLOCK, commands pipelined after a blocked read, and a work queue of
 * producers and consumers where every message is handled exactly once.
 *
 * Every scenario runs against cppredis and Debian's Redis 7.0.15 with the
 * same expected bytes (explicit IDs keep them deterministic). Timeout
 * precision is cppredis's own and runs on cppredis only. Nothing sleeps:
 * a test waits for replies, or polls INFO until the readers are blocked. */
#include <gtest/gtest.h>

#include <chrono>
#include <exception>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "integration/blocking_harness.h"
#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* One stream entry as XRANGE/XREAD give it: [id, [field, value...]]. */
std::string entry(const std::string &id, const std::vector<std::string> &fv) { return array({bulk(id), bulks(fv)}); }
/* XREAD's reply for one key: [[key, [entries...]]]. */
std::string readReply(const std::string &key, const std::vector<std::string> &entries) {
    return array({array({bulk(key), array(entries)})});
}

/* Runs a thread's body; a reply of the wrong shape (.at() throwing) fails
 * the test instead of terminating the process. */
template <typename F>
void guarded(F body) {
    try {
        body();
    } catch (const std::exception &e) {
        ADD_FAILURE() << "thread stopped: " << e.what();
    }
}

const std::string NOGROUP_WHILE_BLOCKED =
    "-NOGROUP the consumer group this client was blocked on no longer exists\r\n";
const std::string STREAM_GONE = "-UNBLOCKED the stream key no longer exists\r\n";

class StreamBlocking : public BlockingBase, public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
        start(GetParam());
    }
    void xadd(const std::string &key, const std::string &id, const std::string &value = "v") {
        ASSERT_EQ(call({"XADD", key, id, "f", value}), bulk(id));
    }
    void group(const std::string &key, const std::string &g) {
        ASSERT_EQ(call({"XGROUP", "CREATE", key, g, "$", "MKSTREAM"}), OK);
    }
};

/* ========================================================================
 * Waking
 * ====================================================================== */

TEST_P(StreamBlocking, XreadOnAMissingKeyIsWokenByTheXaddThatCreatesIt) {
    RespConn reader = connect();
    block(reader, {"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}, 1);
    xadd("s", "1-1");
    EXPECT_EQ(reader.readReply().raw, readReply("s", {entry("1-1", {"f", "v"})}));
    waitBlocked(0);
}

TEST_P(StreamBlocking, EveryXreadReaderOfAKeyGetsTheNewEntry) {
    xadd("s", "1-0");
    RespConn r1 = connect(), r2 = connect(), r3 = connect();
    block(r1, {"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}, 1);
    block(r2, {"XREAD", "BLOCK", "0", "STREAMS", "s", "1-0"}, 2);
    block(r3, {"XREAD", "COUNT", "5", "BLOCK", "0", "STREAMS", "other", "s", "$", "$"}, 3);
    xadd("s", "2-0", "x");
    std::string expected = readReply("s", {entry("2-0", {"f", "x"})});
    EXPECT_EQ(r1.readReply().raw, expected);
    EXPECT_EQ(r2.readReply().raw, expected);
    EXPECT_EQ(r3.readReply().raw, expected);
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(StreamBlocking, AReaderWhoseIdIsNotPassedGoesOnWaiting) {
    xadd("s", "3-0");
    RespConn reader = connect();
    block(reader, {"XREAD", "BLOCK", "0", "STREAMS", "s", "5-0"}, 1);
    xadd("s", "4-0");
    EXPECT_EQ(blockedClients(), 1);
    xadd("s", "6-0");
    EXPECT_EQ(reader.readReply().raw, readReply("s", {entry("6-0", {"f", "v"})}));
}

TEST_P(StreamBlocking, CountLimitsWhatAWokenReaderGets) {
    RespConn reader = connect();
    block(reader, {"XREAD", "COUNT", "2", "BLOCK", "0", "STREAMS", "s", "$"}, 1);
    EXPECT_EQ(call({"MULTI"}), OK);
    for (const char *id : {"1-0", "2-0", "3-0"}) EXPECT_EQ(call({"XADD", "s", id, "f", "v"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), array({bulk("1-0"), bulk("2-0"), bulk("3-0")}));
    EXPECT_EQ(reader.readReply().raw, readReply("s", {entry("1-0", {"f", "v"}), entry("2-0", {"f", "v"})}));
}

TEST_P(StreamBlocking, XreadgroupReadersAreServedFirstBlockFirstServe) {
    group("s", "g");
    RespConn c1 = connect(), c2 = connect();
    block(c1, {"XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"}, 1);
    block(c2, {"XREADGROUP", "GROUP", "g", "bob", "BLOCK", "0", "STREAMS", "s", ">"}, 2);
    xadd("s", "1-0", "first");
    EXPECT_EQ(c1.readReply().raw, readReply("s", {entry("1-0", {"f", "first"})}));
    /* The group has delivered 1-0: bob waits for what comes after. */
    EXPECT_EQ(blockedClients(), 1);
    xadd("s", "2-0", "second");
    EXPECT_EQ(c2.readReply().raw, readReply("s", {entry("2-0", {"f", "second"})}));
    /* Each entry is pending for the consumer it went to. */
    EXPECT_EQ(call({"XPENDING", "s", "g", "-", "+", "10", "alice"}).substr(0, 4), "*1\r\n");
    EXPECT_EQ(call({"XPENDING", "s", "g", "-", "+", "10", "bob"}).substr(0, 4), "*1\r\n");
}

TEST_P(StreamBlocking, AWokenNoackReaderLeavesNothingPending) {
    group("s", "g");
    RespConn c = connect();
    block(c, {"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "NOACK", "STREAMS", "s", ">"}, 1);
    xadd("s", "1-0");
    EXPECT_EQ(c.readReply().raw, readReply("s", {entry("1-0", {"f", "v"})}));
    EXPECT_EQ(call({"XPENDING", "s", "g"}), array({integer(0), NIL, NIL, NIL_ARRAY}));
}

TEST_P(StreamBlocking, AReaderOnSeveralKeysIsServedOnceAndLeavesThemAll) {
    RespConn reader = connect();
    block(reader, {"XREAD", "BLOCK", "0", "STREAMS", "a", "b", "$", "$"}, 1);
    EXPECT_EQ(call({"MULTI"}), OK);
    EXPECT_EQ(call({"XADD", "b", "1-0", "f", "v"}), QUEUED);
    EXPECT_EQ(call({"XADD", "a", "1-0", "f", "v"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), array({bulk("1-0"), bulk("1-0")}));
    /* Served by the first key signalled. */
    EXPECT_EQ(reader.readReply().raw, readReply("b", {entry("1-0", {"f", "v"})}));
    EXPECT_EQ(blockedClients(), 0);
    xadd("a", "2-0");
    EXPECT_EQ(reader.call({"PING"}).raw, "+PONG\r\n");
}

/* ========================================================================
 * The group or the stream gone
 * ====================================================================== */

TEST_P(StreamBlocking, AnXreadgroupReaderIsToldWhenItsGroupIsDestroyed) {
    group("s", "g");
    RespConn c = connect();
    block(c, {"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"}, 1);
    EXPECT_EQ(call({"XGROUP", "DESTROY", "s", "g"}), integer(1));
    EXPECT_EQ(c.readReply().raw, NOGROUP_WHILE_BLOCKED);
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(StreamBlocking, AnXreadgroupReaderIsToldWhenItsStreamIsDeletedOrReplaced) {
    group("s", "g");
    RespConn c = connect(), plain = connect();
    block(c, {"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"}, 1);
    block(plain, {"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}, 2);
    EXPECT_EQ(call({"DEL", "s"}), integer(1));
    EXPECT_EQ(c.readReply().raw, STREAM_GONE);
    /* A plain XREAD reader needs no group: it waits on. */
    EXPECT_EQ(blockedClients(), 1);

    group("s", "g");
    block(c, {"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"}, 2);
    EXPECT_EQ(call({"SET", "s", "string now"}), OK);
    EXPECT_EQ(c.readReply().raw, STREAM_GONE);
    EXPECT_EQ(blockedClients(), 1);

    EXPECT_EQ(call({"DEL", "s"}), integer(1));
    group("s", "g");
    block(c, {"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"}, 2);
    EXPECT_EQ(call({"FLUSHALL"}), OK);
    EXPECT_EQ(c.readReply().raw, STREAM_GONE);
    EXPECT_EQ(blockedClients(), 1);

    xadd("s", "1-0");
    EXPECT_EQ(plain.readReply().raw, readReply("s", {entry("1-0", {"f", "v"})}));
}

/* ========================================================================
 * Timeouts and forced unblocking
 * ====================================================================== */

TEST_P(StreamBlocking, TimeoutsAnswerTheNullArray) {
    group("s", "g");
    RespConn c = connect();
    EXPECT_EQ(c.call({"XREAD", "BLOCK", "20", "STREAMS", "s", "$"}).raw, NIL_ARRAY);
    EXPECT_EQ(c.call({"XREADGROUP", "GROUP", "g", "c", "BLOCK", "20", "STREAMS", "s", ">"}).raw, NIL_ARRAY);
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(StreamBlocking, ClientUnblockAsATimeoutOrAnError) {
    RespConn c = connect();
    long long id = clientId(c);
    block(c, {"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}, 1);
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", std::to_string(id)}), integer(1));
    EXPECT_EQ(c.readReply().raw, NIL_ARRAY);
    block(c, {"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}, 1);
    EXPECT_EQ(call({"CLIENT", "UNBLOCK", std::to_string(id), "ERROR"}), integer(1));
    EXPECT_EQ(c.readReply().raw, "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
}

TEST_P(StreamBlocking, AReaderThatDisconnectsLeavesTheOthersWaiting) {
    group("s", "g");
    RespConn gone = connect(), stays = connect();
    block(gone, {"XREADGROUP", "GROUP", "g", "gone", "BLOCK", "0", "STREAMS", "s", ">"}, 1);
    block(stays, {"XREADGROUP", "GROUP", "g", "stays", "BLOCK", "0", "STREAMS", "s", ">"}, 2);
    gone.close();
    waitBlocked(1);
    xadd("s", "1-0");
    EXPECT_EQ(stays.readReply().raw, readReply("s", {entry("1-0", {"f", "v"})}));
}

TEST_P(StreamBlocking, InsideMultiItNeverBlocksAndScriptsMayNotAskTo) {
    group("s", "g");
    RespConn c = connect();
    EXPECT_EQ(c.call({"MULTI"}).raw, OK);
    EXPECT_EQ(c.call({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}).raw, QUEUED);
    EXPECT_EQ(c.call({"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"}).raw, QUEUED);
    EXPECT_EQ(c.call({"EXEC"}).raw, array({NIL_ARRAY, NIL_ARRAY}));
    /* A script may read without BLOCK only (Redis 7.0 refuses the option
     * there, for compatibility, rather than answering as if timed out). */
    EXPECT_EQ(c.call({"EVAL", "return redis.call('XREAD', 'BLOCK', 0, 'STREAMS', KEYS[1], '$')", "1", "s"}).raw,
              "-ERR XREAD command is not allowed with BLOCK option from scripts script: "
              "d55ffbcc60fb812eea956701cb8e4211faae36e8, on @user_script:1.\r\n");
    EXPECT_EQ(c.call({"EVAL", "return redis.call('XREAD', 'STREAMS', KEYS[1], '0')", "1", "s"}).raw, NIL);
    EXPECT_EQ(blockedClients(), 0);
}

TEST_P(StreamBlocking, PipelinedCommandsRunInOrderOnceUnblocked) {
    RespConn c = connect();
    c.send(encodeCommand({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}) + encodeCommand({"INCR", "n"}) +
           encodeCommand({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}) + encodeCommand({"PING"}));
    waitBlocked(1);
    EXPECT_EQ(call({"EXISTS", "n"}), integer(0));
    xadd("s", "1-0");
    EXPECT_EQ(c.readReply().raw, readReply("s", {entry("1-0", {"f", "v"})}));
    EXPECT_EQ(c.readReply().raw, integer(1));
    waitBlocked(1); /* the second XREAD: "$" is now 1-0 */
    xadd("s", "2-0");
    EXPECT_EQ(c.readReply().raw, readReply("s", {entry("2-0", {"f", "v"})}));
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
}

/* ========================================================================
 * The reliable queue with streams (issue 15, point 5), blocking consumers
 * ====================================================================== */

/* Producers XADD, consumers XREADGROUP BLOCK then XACK; one consumer dies
 * holding a message, which another takes over with XAUTOCLAIM. Every
 * message is handled exactly once and nothing stays pending. */
TEST_P(StreamBlocking, AWorkQueueOfProducersAndConsumersLosesAndDuplicatesNothing) {
    constexpr int kProducers = 2, kPerProducer = 150, kConsumers = 3;
    group("jobs", "workers");

    /* The consumer that crashes: it reads one job and never acknowledges. */
    xadd("jobs", "1-0", "orphan");
    RespConn crashed = connect();
    EXPECT_EQ(crashed.call({"XREADGROUP", "GROUP", "workers", "dead", "COUNT", "1", "STREAMS", "jobs", ">"}).raw,
              readReply("jobs", {entry("1-0", {"f", "orphan"})}));
    crashed.close();

    std::vector<std::multiset<std::string>> handled(kConsumers);
    std::vector<std::thread> consumers;
    for (int i = 0; i < kConsumers; i++) {
        consumers.emplace_back([&, i] { guarded([&] {
            RespConn c = connect();
            std::string name = "c" + std::to_string(i);
            /* The first takes over what the dead consumer held (only one
             * does: with a min-idle of 0, another XAUTOCLAIM could take the
             * job back before it is acknowledged). */
            if (i == 0) {
                Reply claimed = c.call({"XAUTOCLAIM", "jobs", "workers", name, "0", "0-0", "COUNT", "10"});
                for (const Reply &e : claimed.elements.at(1).elements) {
                    handled[i].insert(e.elements.at(1).elements.at(1).str);
                    EXPECT_EQ(c.call({"XACK", "jobs", "workers", e.elements.at(0).str}).raw, integer(1));
                }
            }
            for (;;) {
                Reply r = c.call({"XREADGROUP", "GROUP", "workers", name, "COUNT", "10", "BLOCK", "0", "STREAMS",
                                  "jobs", ">"});
                for (const Reply &e : r.elements.at(0).elements.at(1).elements) {
                    std::string value = e.elements.at(1).elements.at(1).str;
                    if (value == "stop") return;
                    handled[i].insert(value);
                    EXPECT_EQ(c.call({"XACK", "jobs", "workers", e.elements.at(0).str}).raw, integer(1));
                }
            }
        }); });
    }
    waitBlocked(kConsumers);
    std::vector<std::thread> producers;
    for (int p = 0; p < kProducers; p++) {
        producers.emplace_back([&, p] {
            RespConn c = connect();
            for (int j = 0; j < kPerProducer; j++)
                c.call({"XADD", "jobs", "*", "f", "job-" + std::to_string(p) + "-" + std::to_string(j)});
        });
    }
    for (std::thread &t : producers) t.join();
    /* One stop per consumer, each alone in its own read: a consumer that
     * reads a stop stops, so it takes no second one. */
    for (int i = 0; i < kConsumers; i++) {
        waitBlocked(kConsumers - i);
        ASSERT_EQ(call({"XADD", "jobs", "*", "f", "stop"}).substr(0, 1), "$");
    }
    for (std::thread &t : consumers) t.join();

    std::multiset<std::string> all;
    for (const auto &h : handled) all.insert(h.begin(), h.end());
    EXPECT_EQ(all.size(), static_cast<size_t>(kProducers * kPerProducer + 1));
    EXPECT_EQ(all.count("orphan"), 1u);
    for (int p = 0; p < kProducers; p++)
        for (int j = 0; j < kPerProducer; j++)
            EXPECT_EQ(all.count("job-" + std::to_string(p) + "-" + std::to_string(j)), 1u);
    /* Only the stops are still pending. */
    EXPECT_EQ(call({"XPENDING", "jobs", "workers"}).substr(0, 4), "*4\r\n");
    EXPECT_EQ(admin().call({"XPENDING", "jobs", "workers"}).elements.at(0).integer, kConsumers);
}

INSTANTIATE_TEST_SUITE_P(Servers, StreamBlocking, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * Timeout precision (cppredis's own: Redis 7.0 answers on its cron tick)
 * ====================================================================== */

class StreamBlockingTimeouts : public BlockingBase, public ::testing::Test {
protected:
    void SetUp() override { start(ServerImpl::Cppredis, {"--hz", "1"}); }
};

/* hz 1: a 100 ms BLOCK is answered at its deadline, not on a cron tick. */
TEST_F(StreamBlockingTimeouts, ABlockIsAnsweredAtItsDeadline) {
    RespConn c = connect();
    for (int i = 0; i < 3; i++) {
        auto t0 = std::chrono::steady_clock::now();
        EXPECT_EQ(c.call({"XREAD", "BLOCK", "100", "STREAMS", "s", "$"}).raw, NIL_ARRAY);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_GE(ms, 100.0);
        EXPECT_LT(ms, 500.0);
    }
}

}  // namespace
