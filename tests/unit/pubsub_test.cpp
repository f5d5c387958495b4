/* pubsub_test.cpp — pub/sub bookkeeping (pubsub.cpp) and the output buffer
 * limit check (networking.cpp) without sockets: socketless clients run
 * commands through processInputBuffer, and the tests look at the state
 * pubsub.h describes — server.pubsub_channels / pubsub_patterns and each
 * client's own records, kept in step; CLIENT_PUBSUB; the order of a
 * channel's subscribers; what freeClient leaves — and at the bytes each
 * client is given. The limit check is driven with a hand-set reply list
 * size and the cached clock. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "command_test.h"
#include "pubsub.h"
#include "server.h"

namespace {

std::string bulk(const std::string &s) { return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n"; }

class PubsubUnit : public CommandTest {
protected:
    void TearDown() override {
        freeClients();
        /* Nothing may be left behind by any test. */
        EXPECT_EQ(server.pubsub_channels.size(), 0u);
        EXPECT_EQ(server.pubsub_patterns.size(), 0u);
    }
    static std::vector<client *> subscribersOf(pubsubDict &d, std::string_view name) {
        pubsubDict::entry *de = d.find(name);
        return de ? de->val : std::vector<client *>{};
    }
};

TEST_F(PubsubUnit, BothSidesRecordEachSubscriptionOnce) {
    client *c = newClient();
    EXPECT_EQ(run(c, "SUBSCRIBE a b a\r\n"), "*3\r\n$9\r\nsubscribe\r\n" + bulk("a") + ":1\r\n" +
                                                 "*3\r\n$9\r\nsubscribe\r\n" + bulk("b") + ":2\r\n" +
                                                 "*3\r\n$9\r\nsubscribe\r\n" + bulk("a") + ":2\r\n");
    EXPECT_TRUE(c->flags & CLIENT_PUBSUB);
    EXPECT_EQ(c->pubsub_channels.size(), 2u);
    EXPECT_EQ(subscribersOf(server.pubsub_channels, "a"), std::vector<client *>{c});
    EXPECT_EQ(subscribersOf(server.pubsub_channels, "b"), std::vector<client *>{c});

    run(c, "PSUBSCRIBE p* p* q*\r\n");
    EXPECT_EQ(c->pubsub_patterns.size(), 2u);
    EXPECT_EQ(c->pubsub_patterns[0], "p*");
    EXPECT_EQ(c->pubsub_patterns[1], "q*");
    EXPECT_EQ(server.pubsub_patterns.size(), 2u);
    EXPECT_EQ(clientSubscriptionsCount(c), 4u);

    run(c, "UNSUBSCRIBE a\r\nPUNSUBSCRIBE q*\r\n");
    EXPECT_EQ(server.pubsub_channels.find("a"), nullptr); /* no subscriber left: gone */
    EXPECT_EQ(server.pubsub_patterns.find("q*"), nullptr);
    EXPECT_TRUE(c->flags & CLIENT_PUBSUB);
    run(c, "UNSUBSCRIBE\r\nPUNSUBSCRIBE\r\n");
    EXPECT_FALSE(c->flags & CLIENT_PUBSUB);
    EXPECT_EQ(clientSubscriptionsCount(c), 0u);
}

TEST_F(PubsubUnit, SubscribersKeepTheirOrderWhenOneLeaves) {
    client *a = newClient(), *b = newClient(), *d = newClient();
    for (client *c : {a, b, d}) run(c, "SUBSCRIBE ch\r\nPSUBSCRIBE c*\r\n");
    run(b, "UNSUBSCRIBE ch\r\n");
    EXPECT_EQ(subscribersOf(server.pubsub_channels, "ch"), (std::vector<client *>{a, d}));
    run(b, "SUBSCRIBE ch\r\n");
    EXPECT_EQ(subscribersOf(server.pubsub_channels, "ch"), (std::vector<client *>{a, d, b}));
    freeOne(a);
    EXPECT_EQ(subscribersOf(server.pubsub_channels, "ch"), (std::vector<client *>{d, b}));
    EXPECT_EQ(subscribersOf(server.pubsub_patterns, "c*"), (std::vector<client *>{b, d}));
}

TEST_F(PubsubUnit, FreeClientLeavesEveryList) {
    client *a = newClient(), *b = newClient();
    run(a, "SUBSCRIBE x y\r\nPSUBSCRIBE p* z*\r\n");
    run(b, "SUBSCRIBE y\r\nPSUBSCRIBE p*\r\n");
    freeOne(a);
    EXPECT_EQ(server.pubsub_channels.find("x"), nullptr);
    EXPECT_EQ(subscribersOf(server.pubsub_channels, "y"), std::vector<client *>{b});
    EXPECT_EQ(server.pubsub_patterns.find("z*"), nullptr);
    EXPECT_EQ(subscribersOf(server.pubsub_patterns, "p*"), std::vector<client *>{b});
    EXPECT_EQ(pubsubPublishMessage("x", "m"), 0);
    EXPECT_EQ(pubsubPublishMessage("y", "m"), 1);
}

TEST_F(PubsubUnit, PublishEncodesMessagesOnceForEveryReceiver) {
    client *a = newClient(), *b = newClient(), *p = newClient();
    run(a, "SUBSCRIBE news\r\nPSUBSCRIBE n*\r\n");
    run(b, "PSUBSCRIBE n*\r\n");
    EXPECT_EQ(run(p, "PUBLISH news hi\r\n"), ":3\r\n");
    const std::string msg = "*3\r\n" + bulk("message") + bulk("news") + bulk("hi");
    const std::string pmsg = "*4\r\n" + bulk("pmessage") + bulk("n*") + bulk("news") + bulk("hi");
    EXPECT_EQ(takeOutput(a), msg + pmsg);
    EXPECT_EQ(takeOutput(b), pmsg);
    EXPECT_EQ(pubsubPublishMessage("other", "x"), 0);
    EXPECT_EQ(takeOutput(a), "");
    /* A message past the kept buffer size is delivered whole too. */
    const std::string big(100000, 'b');
    EXPECT_EQ(pubsubPublishMessage("news", big), 3);
    EXPECT_EQ(takeOutput(b), "*4\r\n" + bulk("pmessage") + bulk("n*") + bulk("news") + bulk(big));
    takeOutput(a);
}

TEST_F(PubsubUnit, SubscribedContextRefusesOtherCommands) {
    client *c = newClient();
    run(c, "SUBSCRIBE ch\r\n");
    EXPECT_EQ(run(c, "PING\r\n"), "*2\r\n" + bulk("pong") + bulk(""));
    EXPECT_EQ(run(c, "SET k v\r\n"),
              "-ERR Can't execute 'set': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are "
              "allowed in this context\r\n");
    EXPECT_EQ(server.db[0].dict.size(), 0u);
    run(c, "UNSUBSCRIBE\r\n");
    EXPECT_EQ(run(c, "PING\r\n"), "+PONG\r\n");
}

/* ========================================================================
 * checkClientOutputBufferLimits
 * ====================================================================== */

class OutputBufferLimits : public PubsubUnit {
protected:
    void SetUp() override {
        saved_[0] = server.client_obuf_limits[CLIENT_TYPE_NORMAL];
        saved_[1] = server.client_obuf_limits[CLIENT_TYPE_PUBSUB];
        saved_time_ = server.unixtime;
        server.unixtime = 1000;
    }
    void TearDown() override {
        server.client_obuf_limits[CLIENT_TYPE_NORMAL] = saved_[0];
        server.client_obuf_limits[CLIENT_TYPE_PUBSUB] = saved_[1];
        server.unixtime = saved_time_;
        for (client *c : clients_) c->reply_bytes = 0;
        PubsubUnit::TearDown();
    }
    /* The reply list as if it held `bytes` (no blocks: the overhead of
     * each block is not counted then). */
    static void setPending(client *c, size_t bytes) { c->reply_bytes = bytes; }
    clientBufferLimitsConfig saved_[2];
    time_t saved_time_ = 0;
};

TEST_F(OutputBufferLimits, HardLimitIsReachedAtItsSize) {
    client *c = newClient();
    server.client_obuf_limits[CLIENT_TYPE_NORMAL] = {1000, 0, 0};
    setPending(c, 999);
    EXPECT_FALSE(checkClientOutputBufferLimits(c));
    setPending(c, 1000);
    EXPECT_TRUE(checkClientOutputBufferLimits(c));
    /* 0 means no limit. */
    server.client_obuf_limits[CLIENT_TYPE_NORMAL] = {0, 0, 0};
    setPending(c, 1ULL << 40);
    EXPECT_FALSE(checkClientOutputBufferLimits(c));
}

TEST_F(OutputBufferLimits, SoftLimitCountsOnlyPastItsSecondsWithoutABreak) {
    client *c = newClient();
    server.client_obuf_limits[CLIENT_TYPE_NORMAL] = {0, 1000, 2};
    setPending(c, 1500);
    EXPECT_FALSE(checkClientOutputBufferLimits(c)); /* first seen over: the count starts */
    EXPECT_EQ(c->obuf_soft_limit_reached_time, 1000);
    server.unixtime = 1002;
    EXPECT_FALSE(checkClientOutputBufferLimits(c)); /* 2 s: not more than 2 yet */
    server.unixtime = 1003;
    EXPECT_TRUE(checkClientOutputBufferLimits(c));

    /* Back under the soft limit: the count starts over. */
    setPending(c, 10);
    EXPECT_FALSE(checkClientOutputBufferLimits(c));
    EXPECT_EQ(c->obuf_soft_limit_reached_time, 0);
    setPending(c, 1500);
    server.unixtime = 1004;
    EXPECT_FALSE(checkClientOutputBufferLimits(c));
    server.unixtime = 1006;
    EXPECT_FALSE(checkClientOutputBufferLimits(c));
}

TEST_F(OutputBufferLimits, ASubscriberFollowsThePubsubClass) {
    client *c = newClient();
    server.client_obuf_limits[CLIENT_TYPE_NORMAL] = {0, 0, 0};
    server.client_obuf_limits[CLIENT_TYPE_PUBSUB] = {100, 0, 0};
    setPending(c, 500);
    EXPECT_EQ(getClientType(c), CLIENT_TYPE_NORMAL);
    EXPECT_FALSE(checkClientOutputBufferLimits(c));
    run(c, "SUBSCRIBE ch\r\n");
    setPending(c, 500);
    EXPECT_EQ(getClientType(c), CLIENT_TYPE_PUBSUB);
    EXPECT_TRUE(checkClientOutputBufferLimits(c));
    /* A socketless client is never closed for it. */
    EXPECT_FALSE(closeClientOnOutputBufferLimitReached(c, true));
    EXPECT_FALSE(c->flags & CLIENT_CLOSE_ASAP);
    run(c, "UNSUBSCRIBE\r\n");
}

TEST_F(OutputBufferLimits, ClientTypeNames) {
    EXPECT_EQ(getClientTypeByName("normal"), CLIENT_TYPE_NORMAL);
    EXPECT_EQ(getClientTypeByName("SLAVE"), CLIENT_TYPE_SLAVE);
    EXPECT_EQ(getClientTypeByName("replica"), CLIENT_TYPE_SLAVE);
    EXPECT_EQ(getClientTypeByName("PubSub"), CLIENT_TYPE_PUBSUB);
    EXPECT_EQ(getClientTypeByName("master"), CLIENT_TYPE_MASTER);
    EXPECT_EQ(getClientTypeByName("foo"), -1);
    EXPECT_STREQ(getClientTypeName(CLIENT_TYPE_SLAVE), "slave");
    EXPECT_STREQ(getClientTypeName(CLIENT_TYPE_PUBSUB), "pubsub");
}

}  // namespace
