/* notify_test.cpp — the letters of notify-keyspace-events (notify.cpp):
 * each letter's class, "A" and what it leaves out, invalid letters, and
 * CONFIG GET's printing (Redis 7.0's order and its quirks), checked
 * against a real redis-server 7.0.15; and that an event of a class that is
 * off publishes nothing while one that is on reaches a subscriber on each
 * of the two channels. */
#include <gtest/gtest.h>

#include <string>

#include "command_test.h"
#include "notify.h"
#include "server.h"

namespace {

TEST(NotifyFlags, EachLetterIsOneClass) {
    EXPECT_EQ(keyspaceEventsStringToFlags(""), 0);
    EXPECT_EQ(keyspaceEventsStringToFlags("K"), NOTIFY_KEYSPACE);
    EXPECT_EQ(keyspaceEventsStringToFlags("E"), NOTIFY_KEYEVENT);
    EXPECT_EQ(keyspaceEventsStringToFlags("g$lshzxetd"), NOTIFY_ALL);
    EXPECT_EQ(keyspaceEventsStringToFlags("A"), NOTIFY_ALL);
    EXPECT_EQ(keyspaceEventsStringToFlags("m"), NOTIFY_KEY_MISS);
    EXPECT_EQ(keyspaceEventsStringToFlags("n"), NOTIFY_NEW);
    EXPECT_EQ(keyspaceEventsStringToFlags("AKEmn"),
              NOTIFY_ALL | NOTIFY_KEYSPACE | NOTIFY_KEYEVENT | NOTIFY_KEY_MISS | NOTIFY_NEW);
    EXPECT_EQ(keyspaceEventsStringToFlags("AAgg"), NOTIFY_ALL);
    EXPECT_EQ(keyspaceEventsStringToFlags("KEQ"), -1);
    EXPECT_EQ(keyspaceEventsStringToFlags("a"), -1); /* case matters */
    EXPECT_EQ(keyspaceEventsStringToFlags(std::string_view("K\0", 2)), -1);
}

TEST(NotifyFlags, PrintedAsRedis) {
    EXPECT_EQ(keyspaceEventsFlagsToString(0), "");
    EXPECT_EQ(keyspaceEventsFlagsToString(keyspaceEventsStringToFlags("KEA")), "AKE");
    EXPECT_EQ(keyspaceEventsFlagsToString(keyspaceEventsStringToFlags("x$g")), "g$x");
    EXPECT_EQ(keyspaceEventsFlagsToString(keyspaceEventsStringToFlags("ndte")), "etdn");
    EXPECT_EQ(keyspaceEventsFlagsToString(keyspaceEventsStringToFlags("mKE")), "KEm");
    /* With every class of A on, 'n' is not printed (Redis 7.0 does so). */
    EXPECT_EQ(keyspaceEventsFlagsToString(keyspaceEventsStringToFlags("KEAmn")), "AKEm");
    /* Whatever is printed parses back to flags that print the same. */
    for (const char *s : {"", "K", "E", "g", "lKE", "Ezx", "AKE", "Kmn", "h$sl", "tde"}) {
        std::string printed = keyspaceEventsFlagsToString(keyspaceEventsStringToFlags(s));
        EXPECT_EQ(keyspaceEventsFlagsToString(keyspaceEventsStringToFlags(printed)), printed) << s;
    }
}

class NotifyDelivery : public CommandTest {
protected:
    void TearDown() override { freeClients(); }
};

TEST_F(NotifyDelivery, OnlyEnabledClassesReachSubscribers) {
    client *sub = newClient();
    run(sub, "PSUBSCRIBE *\r\n");
    int saved = server.notify_keyspace_events;
    server.notify_keyspace_events = keyspaceEventsStringToFlags("Kl");
    notifyKeyspaceEvent(NOTIFY_STRING, "set", "k", 3);
    EXPECT_EQ(takeOutput(sub), "");
    notifyKeyspaceEvent(NOTIFY_LIST, "lpush", "k", 3);
    EXPECT_EQ(takeOutput(sub), "*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$16\r\n__keyspace@3__:k\r\n$5\r\nlpush\r\n");
    server.notify_keyspace_events = keyspaceEventsStringToFlags("Eg");
    notifyKeyspaceEvent(NOTIFY_GENERIC, "del", "key", 12);
    EXPECT_EQ(takeOutput(sub), "*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$19\r\n__keyevent@12__:del\r\n$3\r\nkey\r\n");
    server.notify_keyspace_events = saved;
}

}  // namespace
