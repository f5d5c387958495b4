/* pubsub_test.cpp — integration tests of publish/subscribe (pubsub.cpp) and
 * of client-output-buffer-limit (networking.cpp): the (P)(UN)SUBSCRIBE
 * confirmations byte for byte (counts, the nil of an UNSUBSCRIBE with
 * nothing to leave, pattern order), the commands a subscribed RESP2 client
 * may send, delivery order with several subscribers and publishers, glob
 * patterns, PUBSUB CHANNELS / NUMSUB / NUMPAT and their errors, MULTI,
 * cleanup when a subscriber disconnects or is killed, CLIENT LIST and INFO;
 * sharded pub/sub (SSUBSCRIBE / SUNSUBSCRIBE / SPUBLISH, PUBSUB
 * SHARDCHANNELS / SHARDNUMSUB, their counts, MULTI and ACL);
 * then a subscriber that stops reading, dropped at the hard limit at once
 * and at the soft limit after its seconds, with the publisher unaffected
 * and the memory held for it bounded; a normal client's limit; and the
 * config's parsing.
 *
 * The scenarios run twice, against cppredis and against Debian's Redis
 * 7.0.15 (skipped if it is missing), with the same expected bytes, so every
 * expectation is Redis 7.0's behaviour. Where Redis's order is its dict's
 * (UNSUBSCRIBE of every channel, several patterns matching one channel,
 * PUBSUB CHANNELS), the test compares sets. The config file runs on
 * cppredis only.
 *
 * Nothing sleeps to let something happen: the tests wait for replies, for
 * EOF, or poll CLIENT LIST / PUBSUB NUMSUB. */
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;
using Clock = std::chrono::steady_clock;

namespace {

/* [kind, name, count]: a (p)(un)subscribe confirmation. */
std::string confirmation(const std::string &kind, const std::string &name, long long count) {
    return array({bulk(kind), bulk(name), integer(count)});
}
/* The confirmation of an UNSUBSCRIBE / PUNSUBSCRIBE with nothing to leave. */
std::string confirmationNil(const std::string &kind, long long count) {
    return array({bulk(kind), NIL, integer(count)});
}
std::string message(const std::string &channel, const std::string &payload) {
    return bulks({"message", channel, payload});
}
std::string pmessage(const std::string &pattern, const std::string &channel, const std::string &payload) {
    return bulks({"pmessage", pattern, channel, payload});
}
std::string contextErr(const std::string &cmd) {
    return err("ERR Can't execute '" + cmd +
               "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
}
std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}
std::vector<std::string> strings(const Reply &r) {
    std::vector<std::string> out;
    for (const Reply &e : r.elements) out.push_back(e.str);
    return out;
}

class PubSub : public EitherServerTest {
protected:
    /* A connection subscribed to `channels` (confirmations checked). */
    RespConn subscriber(const Args &channels, const Args &patterns = {}) {
        RespConn s = srv->connect();
        long long n = 0;
        for (const std::string &ch : channels)
            EXPECT_EQ(s.call({"SUBSCRIBE", ch}).raw, confirmation("subscribe", ch, ++n));
        for (const std::string &p : patterns)
            EXPECT_EQ(s.call({"PSUBSCRIBE", p}).raw, confirmation("psubscribe", p, ++n));
        return s;
    }
    long long numsub(const std::string &channel) {
        return c->call({"PUBSUB", "NUMSUB", channel}).elements.at(1).integer;
    }
    /* CLIENT LIST's omem of the subscriber `s`, -1 once it is gone. */
    long long omemOf(const RespConn &s) {
        for (const ClientFields &line : parseClientList(c->call({"CLIENT", "LIST", "TYPE", "pubsub"}).str))
            if (clientField(line, "addr") == s.localAddr()) return std::stoll(clientField(line, "omem"));
        return -1;
    }
    /* A subscriber to "slow" that never reads, with a small receive buffer,
     * so that what is published piles up in the server soon. (Reading what
     * reached it would take long through that small window: tests don't.) */
    RespConn slowSubscriber() {
        RespConn s = subscriber({"slow"});
        int small = 4096;
        setsockopt(s.fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        return s;
    }
};

/* ========================================================================
 * Subscribing and unsubscribing
 * ====================================================================== */

TEST_P(PubSub, ConfirmationsCountChannelsAndPatterns) {
    RespConn s = srv->connect();
    EXPECT_EQ(s.call({"UNSUBSCRIBE"}).raw, confirmationNil("unsubscribe", 0));
    EXPECT_EQ(s.call({"PUNSUBSCRIBE"}).raw, confirmationNil("punsubscribe", 0));
    /* Not subscribed: still a normal client. */
    EXPECT_EQ(s.call({"PING"}).raw, "+PONG\r\n");

    s.cmd({"SUBSCRIBE", "a", "b", "a"});
    EXPECT_EQ(s.readReply().raw, confirmation("subscribe", "a", 1));
    EXPECT_EQ(s.readReply().raw, confirmation("subscribe", "b", 2));
    EXPECT_EQ(s.readReply().raw, confirmation("subscribe", "a", 2)); /* again: no change */
    EXPECT_EQ(s.call({"PSUBSCRIBE", "p*"}).raw, confirmation("psubscribe", "p*", 3));
    EXPECT_EQ(s.call({"PSUBSCRIBE", "p*"}).raw, confirmation("psubscribe", "p*", 3));
    EXPECT_EQ(s.call({"UNSUBSCRIBE", "a"}).raw, confirmation("unsubscribe", "a", 2));
    EXPECT_EQ(s.call({"UNSUBSCRIBE", "nope"}).raw, confirmation("unsubscribe", "nope", 2));
    EXPECT_EQ(s.call({"PUNSUBSCRIBE", "q*"}).raw, confirmation("punsubscribe", "q*", 2));
    EXPECT_EQ(s.call({"UNSUBSCRIBE"}).raw, confirmation("unsubscribe", "b", 1));
    /* No channel left, but a pattern: nil, and the pattern still counts. */
    EXPECT_EQ(s.call({"UNSUBSCRIBE"}).raw, confirmationNil("unsubscribe", 1));
    EXPECT_EQ(s.call({"PING"}).raw, array({bulk("pong"), bulk("")}));
    EXPECT_EQ(s.call({"PUNSUBSCRIBE"}).raw, confirmation("punsubscribe", "p*", 0));
    /* Out of the subscribed context. */
    EXPECT_EQ(s.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(s.call({"GET", "k"}).raw, NIL);
}

TEST_P(PubSub, PunsubscribeLeavesPatternsInSubscriptionOrder) {
    RespConn s = subscriber({"ch"}, {"z*", "a*", "m*", "b*"});
    s.cmd({"PUNSUBSCRIBE"});
    EXPECT_EQ(s.readReply().raw, confirmation("punsubscribe", "z*", 4));
    EXPECT_EQ(s.readReply().raw, confirmation("punsubscribe", "a*", 3));
    EXPECT_EQ(s.readReply().raw, confirmation("punsubscribe", "m*", 2));
    EXPECT_EQ(s.readReply().raw, confirmation("punsubscribe", "b*", 1));
    EXPECT_EQ(s.call({"UNSUBSCRIBE"}).raw, confirmation("unsubscribe", "ch", 0));
}

/* The channels' order is the dict's, in Redis too: each one once, counting down. */
TEST_P(PubSub, UnsubscribeWithoutArgumentsLeavesEveryChannel) {
    const Args channels{"c1", "c2", "c3", "c4", "c5"};
    RespConn s = subscriber(channels);
    s.cmd({"UNSUBSCRIBE"});
    std::vector<std::string> left;
    for (long long count = 4; count >= 0; count--) {
        Reply r = s.readReply();
        ASSERT_EQ(r.elements.size(), 3u) << r;
        EXPECT_EQ(r.elements[0].str, "unsubscribe");
        EXPECT_EQ(r.elements[2].integer, count);
        left.push_back(r.elements[1].str);
    }
    EXPECT_EQ(sorted(left), channels);
    EXPECT_EQ(s.call({"PING"}).raw, "+PONG\r\n");
}

TEST_P(PubSub, SubscribedClientMaySendOnlySubscriptionCommandsPingAndQuit) {
    RespConn s = subscriber({"ch"});
    EXPECT_EQ(s.call({"PING"}).raw, array({bulk("pong"), bulk("")}));
    EXPECT_EQ(s.call({"PING", "hi"}).raw, array({bulk("pong"), bulk("hi")}));
    EXPECT_EQ(s.call({"GET", "k"}).raw, contextErr("get"));
    EXPECT_EQ(s.call({"PUBLISH", "ch", "x"}).raw, contextErr("publish"));
    EXPECT_EQ(s.call({"MULTI"}).raw, contextErr("multi"));
    EXPECT_EQ(s.call({"PUBSUB", "NUMPAT"}).raw, contextErr("pubsub|numpat"));
    EXPECT_EQ(s.call({"CONFIG", "GET", "port"}).raw, contextErr("config|get"));
    /* Arity and unknown commands are checked first. */
    EXPECT_EQ(s.call({"SUBSCRIBE"}).raw, arityErr("subscribe"));
    EXPECT_EQ(s.call({"PSUBSCRIBE"}).raw, arityErr("psubscribe"));
    EXPECT_EQ(s.call({"PING", "a", "b"}).raw, arityErr("ping"));
    EXPECT_EQ(s.call({"NOSUCH", "x"}).raw, err("ERR unknown command 'NOSUCH', with args beginning with: 'x' "));
    /* Still subscribed after the errors: messages keep coming. */
    EXPECT_EQ(c->call({"PUBLISH", "ch", "after"}).raw, integer(1));
    EXPECT_EQ(s.readReply().raw, message("ch", "after"));
    EXPECT_EQ(s.call({"PSUBSCRIBE", "x*"}).raw, confirmation("psubscribe", "x*", 2));
    EXPECT_EQ(s.call({"QUIT"}).raw, OK);
    s.expectClosed();
}

TEST_P(PubSub, SubscribeInsideMultiTakesEffectAtExec) {
    RespConn s = srv->connect();
    EXPECT_EQ(s.call({"MULTI"}).raw, OK);
    EXPECT_EQ(s.call({"SUBSCRIBE", "tx"}).raw, QUEUED);
    EXPECT_EQ(s.call({"EXEC"}).raw, array({confirmation("subscribe", "tx", 1)}));
    EXPECT_EQ(s.call({"GET", "k"}).raw, contextErr("get"));
    EXPECT_EQ(c->call({"PUBLISH", "tx", "m"}).raw, integer(1));
    EXPECT_EQ(s.readReply().raw, message("tx", "m"));
}

/* ========================================================================
 * Publishing
 * ====================================================================== */

TEST_P(PubSub, EverySubscriberGetsEveryMessageInPublishOrder) {
    std::vector<RespConn> subs;
    for (int i = 0; i < 3; i++) subs.push_back(subscriber({"news"}));
    RespConn other = subscriber({"other"});
    RespConn p1 = srv->connect(), p2 = srv->connect();
    std::vector<std::string> expected;
    for (int i = 0; i < 50; i++) {
        for (auto *p : {&p1, &p2}) {
            std::string payload = (p == &p1 ? "p1-" : "p2-") + std::to_string(i);
            ASSERT_EQ(p->call({"PUBLISH", "news", payload}).raw, integer(3));
            expected.push_back(message("news", payload));
        }
    }
    /* Pipelined: one write, still in order. */
    std::string batch;
    for (int i = 0; i < 100; i++) {
        batch += encodeCommand({"PUBLISH", "news", "batch-" + std::to_string(i)});
        expected.push_back(message("news", "batch-" + std::to_string(i)));
    }
    p1.send(batch);
    for (int i = 0; i < 100; i++) ASSERT_EQ(p1.readReply().raw, integer(3));
    EXPECT_EQ(p2.call({"PUBLISH", "other", "x"}).raw, integer(1));
    EXPECT_EQ(p2.call({"PUBLISH", "nobody", "x"}).raw, integer(0));

    for (RespConn &s : subs)
        for (const std::string &m : expected) ASSERT_EQ(s.readReply().raw, m);
    EXPECT_EQ(other.readReply().raw, message("other", "x"));
    /* Nothing more arrived for them: a PING answers next. */
    for (RespConn &s : subs) EXPECT_EQ(s.call({"PING"}).raw, array({bulk("pong"), bulk("")}));
    EXPECT_EQ(other.call({"PING"}).raw, array({bulk("pong"), bulk("")}));
}

TEST_P(PubSub, PatternsMatchWithRedisGlobRules) {
    const Args patterns{"h?llo", "h*llo", "h[ae]llo", "h[^e]llo", "h\\*llo", "h[a-c]llo", "H*"};
    std::vector<RespConn> subs;
    for (const std::string &p : patterns) subs.push_back(subscriber({}, {p}));
    struct Case {
        std::string channel;
        long long receivers;
    };
    const std::vector<Case> cases{{"hello", 3}, {"hallo", 5}, {"hllo", 1}, {"heeeello", 1},
                                  {"h*llo", 4}, {"hbllo", 4}, {"Hello", 1}, {"nothing", 0}};
    for (const Case &k : cases)
        EXPECT_EQ(c->call({"PUBLISH", k.channel, "m"}).raw, integer(k.receivers)) << k.channel;
    const std::vector<std::vector<std::string>> got{
        /* h?llo */ {"hello", "hallo", "h*llo", "hbllo"},
        /* h*llo */ {"hello", "hallo", "hllo", "heeeello", "h*llo", "hbllo"},
        /* h[ae]llo */ {"hello", "hallo"},
        /* h[^e]llo */ {"hallo", "h*llo", "hbllo"},
        /* h\*llo */ {"h*llo"},
        /* h[a-c]llo */ {"hallo", "hbllo"},
        /* H* */ {"Hello"}};
    for (size_t i = 0; i < subs.size(); i++) {
        for (const std::string &ch : got[i]) ASSERT_EQ(subs[i].readReply().raw, pmessage(patterns[i], ch, "m"));
        EXPECT_EQ(subs[i].call({"PING"}).raw, array({bulk("pong"), bulk("")})) << patterns[i];
    }
}

/* The channel's subscribers first, then each matching pattern's (those in
 * the dict's order, in Redis too); one client may receive a message thrice. */
TEST_P(PubSub, OneClientGetsTheMessageOncePerMatchingSubscription) {
    RespConn s = subscriber({"news.tech"}, {"news.*", "*"});
    EXPECT_EQ(c->call({"PUBLISH", "news.tech", "hi"}).raw, integer(3));
    EXPECT_EQ(s.readReply().raw, message("news.tech", "hi"));
    std::vector<std::string> pm{s.readReply().raw, s.readReply().raw};
    EXPECT_EQ(sorted(pm), sorted({pmessage("news.*", "news.tech", "hi"), pmessage("*", "news.tech", "hi")}));
    EXPECT_EQ(c->call({"PUBLISH", "sports", "x"}).raw, integer(1));
    EXPECT_EQ(s.readReply().raw, pmessage("*", "sports", "x"));
}

TEST_P(PubSub, BinarySafeChannelsAndMessages) {
    const std::string channel("ch\0\r\n", 5), payload("\0\xff\r\n$3", 6);
    RespConn s = subscriber({channel});
    RespConn ps = subscriber({}, {"ch*"});
    EXPECT_EQ(c->call({"PUBLISH", channel, payload}).raw, integer(2));
    EXPECT_EQ(s.readReply().raw, message(channel, payload));
    EXPECT_EQ(ps.readReply().raw, pmessage("ch*", channel, payload));
    EXPECT_EQ(c->call({"PUBLISH", channel, std::string(100000, 'x')}).raw, integer(2));
    EXPECT_EQ(s.readReply().raw, message(channel, std::string(100000, 'x')));
}

/* The idle `timeout` closes a silent client, never a subscriber waiting
 * for messages. */
TEST_P(PubSub, IdleTimeoutSparesSubscribers) {
    RespConn s = subscriber({"ch"});
    RespConn idle = srv->connect();
    EXPECT_EQ(idle.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(call({"CONFIG", "SET", "timeout", "1"}), OK);
    idle.expectClosed(); /* more than a second idle: within ~2 s (so is `c`) */
    RespConn admin = srv->connect();
    EXPECT_EQ(admin.call({"CONFIG", "SET", "timeout", "0"}).raw, OK);
    EXPECT_EQ(admin.call({"PUBLISH", "ch", "still here"}).raw, integer(1));
    EXPECT_EQ(s.readReply().raw, message("ch", "still here"));
}

/* ========================================================================
 * PUBSUB, CLIENT LIST, INFO
 * ====================================================================== */

TEST_P(PubSub, PubsubChannelsNumsubNumpat) {
    EXPECT_EQ(call({"PUBSUB", "CHANNELS"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"PUBSUB", "NUMPAT"}), integer(0));
    EXPECT_EQ(call({"PUBSUB", "NUMSUB"}), EMPTY_ARRAY);
    RespConn s1 = subscriber({"a", "ab", "b"}, {"p*", "q*"});
    RespConn s2 = subscriber({"a"}, {"p*"});
    EXPECT_EQ(sorted(strings(c->call({"PUBSUB", "CHANNELS"}))), sorted({"a", "ab", "b"}));
    EXPECT_EQ(sorted(strings(c->call({"PUBSUB", "CHANNELS", "a*"}))), sorted({"a", "ab"}));
    EXPECT_EQ(call({"PUBSUB", "CHANNELS", "z*"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"PUBSUB", "NUMSUB", "a", "b", "zz", "a"}),
              array({bulk("a"), integer(2), bulk("b"), integer(1), bulk("zz"), integer(0), bulk("a"), integer(2)}));
    /* Distinct patterns, however many clients share one; a pattern does not
     * make a channel active. */
    EXPECT_EQ(call({"PUBSUB", "NUMPAT"}), integer(2));
    EXPECT_EQ(call({"PUBSUB", "NUMSUB", "p*"}), array({bulk("p*"), integer(0)}));

    EXPECT_EQ(call({"PUBSUB"}), arityErr("pubsub"));
    EXPECT_EQ(call({"PUBSUB", "CHANNELS", "a", "b"}),
              err("ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP."));
    EXPECT_EQ(call({"PUBSUB", "NUMPAT", "x"}), arityErr("pubsub|numpat"));
    EXPECT_EQ(call({"PUBSUB", "FOO"}), err("ERR unknown subcommand 'FOO'. Try PUBSUB HELP."));
    EXPECT_EQ(call({"PUBLISH", "a"}), arityErr("publish"));
    EXPECT_EQ(call({"PUBLISH", "a", "b", "c"}), arityErr("publish"));
    EXPECT_EQ(call({"UNSUBSCRIBE", "x"}), confirmation("unsubscribe", "x", 0)); /* allowed, from anyone */
}

TEST_P(PubSub, ClientListAndInfoShowSubscriptions) {
    RespConn s = subscriber({"a", "b"}, {"p*"});
    ClientFields line = clientListLine(*c, "addr", s.localAddr());
    EXPECT_EQ(clientField(line, "flags"), "P");
    EXPECT_EQ(clientField(line, "sub"), "2");
    EXPECT_EQ(clientField(line, "psub"), "1");
    EXPECT_EQ(clientField(line, "cmd"), "psubscribe");
    Info stats = info(*c, {"stats"});
    EXPECT_EQ(stats.fields["pubsub_channels"], "2");
    EXPECT_EQ(stats.fields["pubsub_patterns"], "1");

    /* TYPE pubsub lists the subscriber alone, TYPE normal everyone else. */
    std::vector<ClientFields> pubsub = parseClientList(c->call({"CLIENT", "LIST", "TYPE", "pubsub"}).str);
    ASSERT_EQ(pubsub.size(), 1u);
    EXPECT_EQ(clientField(pubsub[0], "addr"), s.localAddr());
    for (const ClientFields &l : parseClientList(c->call({"CLIENT", "LIST", "TYPE", "normal"}).str))
        EXPECT_NE(clientField(l, "addr"), s.localAddr());
    EXPECT_EQ(call({"CLIENT", "LIST", "TYPE", "foo"}), err("ERR Unknown client type 'foo'"));
    EXPECT_EQ(call({"CLIENT", "KILL", "TYPE", "foo"}), err("ERR Unknown client type 'foo'"));

    s.cmd({"UNSUBSCRIBE"});
    s.readReply();
    s.readReply();
    EXPECT_EQ(s.call({"PUNSUBSCRIBE"}).raw, confirmation("punsubscribe", "p*", 0));
    line = clientListLine(*c, "addr", s.localAddr());
    EXPECT_EQ(clientField(line, "flags"), "N");
    EXPECT_EQ(clientField(line, "sub"), "0");
    EXPECT_EQ(clientField(line, "psub"), "0");
    EXPECT_EQ(call({"CLIENT", "LIST", "TYPE", "pubsub"}), bulk(""));
    stats = info(*c, {"stats"});
    EXPECT_EQ(stats.fields["pubsub_channels"], "0");
    EXPECT_EQ(stats.fields["pubsub_patterns"], "0");
}

TEST_P(PubSub, DisconnectingSubscriberLeavesNothingBehind) {
    {
        RespConn s = subscriber({"a", "b"}, {"p*", "a*"});
        RespConn s2 = subscriber({"a"}, {"p*"});
        s.close();
        pollUntil([&] { return numsub("b") == 0; });
        EXPECT_EQ(call({"PUBSUB", "NUMSUB", "a", "b"}), array({bulk("a"), integer(1), bulk("b"), integer(0)}));
        EXPECT_EQ(call({"PUBSUB", "NUMPAT"}), integer(1));
        EXPECT_EQ(call({"PUBLISH", "a", "x"}), integer(1));
        EXPECT_EQ(s2.readReply().raw, message("a", "x"));
    }
    pollUntil([&] { return numsub("a") == 0; });
    EXPECT_EQ(call({"PUBSUB", "CHANNELS"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"PUBSUB", "NUMPAT"}), integer(0));
    EXPECT_EQ(call({"PUBLISH", "a", "x"}), integer(0));
    EXPECT_EQ(call({"PUBLISH", "pa", "x"}), integer(0));
}

TEST_P(PubSub, ClientKillTypePubsubClosesSubscribersOnly) {
    RespConn s1 = subscriber({"a"}), s2 = subscriber({}, {"p*"});
    RespConn normal = srv->connect();
    EXPECT_EQ(call({"CLIENT", "KILL", "TYPE", "pubsub"}), integer(2));
    s1.expectClosed();
    s2.expectClosed();
    EXPECT_EQ(normal.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(call({"PUBSUB", "NUMPAT"}), integer(0));
    EXPECT_EQ(call({"PUBLISH", "a", "x"}), integer(0));
    EXPECT_EQ(call({"CLIENT", "KILL", "TYPE", "master"}), integer(0));
}

TEST_P(PubSub, HelpListsTheSubcommands) {
    EXPECT_EQ(call({"PUBSUB", "HELP"}),
              array({"+PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n",
                     "+CHANNELS [<pattern>]\r\n",
                     "+    Return the currently active channels matching a <pattern> (default: '*').\r\n",
                     "+NUMPAT\r\n", "+    Return number of subscriptions to patterns.\r\n",
                     "+NUMSUB [<channel> ...]\r\n",
                     "+    Return the number of subscribers for the specified channels, excluding\r\n",
                     "+    pattern subscriptions(default: no channels).\r\n", "+SHARDCHANNELS [<pattern>]\r\n",
                     "+    Return the currently active shard level channels matching a <pattern> (default: '*').\r\n",
                     "+SHARDNUMSUB [<shardchannel> ...]\r\n",
                     "+    Return the number of subscribers for the specified shard level channel(s)\r\n",
                     "+HELP\r\n", "+    Prints this help.\r\n"}));
}

/* ========================================================================
 * Sharded pub/sub (Redis 7.0 without a cluster)
 * ====================================================================== */

/* A shard subscription counts apart: SSUBSCRIBE's confirmations count the
 * shard channels only, SUBSCRIBE's the channels and patterns only. */
TEST_P(PubSub, ShardConfirmationsCountShardChannelsOnly) {
    RespConn s = srv->connect();
    EXPECT_EQ(s.call({"SUNSUBSCRIBE"}).raw, confirmationNil("sunsubscribe", 0));
    s.cmd({"SSUBSCRIBE", "s1", "s2", "s1"});
    EXPECT_EQ(s.readReply().raw, confirmation("ssubscribe", "s1", 1));
    EXPECT_EQ(s.readReply().raw, confirmation("ssubscribe", "s2", 2));
    EXPECT_EQ(s.readReply().raw, confirmation("ssubscribe", "s1", 2));
    EXPECT_EQ(s.call({"SUBSCRIBE", "c1"}).raw, confirmation("subscribe", "c1", 1));
    /* A RESP2 shard subscriber is in the subscribed context. */
    EXPECT_EQ(s.call({"GET", "k"}).raw, contextErr("get"));
    EXPECT_EQ(s.call({"PING"}).raw, array({bulk("pong"), bulk("")}));
    s.cmd({"SUNSUBSCRIBE", "s1", "nope"});
    EXPECT_EQ(s.readReply().raw, confirmation("sunsubscribe", "s1", 1));
    EXPECT_EQ(s.readReply().raw, confirmation("sunsubscribe", "nope", 1));
    EXPECT_EQ(s.call({"SUNSUBSCRIBE"}).raw, confirmation("sunsubscribe", "s2", 0));
    EXPECT_EQ(s.call({"SUNSUBSCRIBE"}).raw, confirmationNil("sunsubscribe", 0));
    /* Still subscribed to c1. */
    EXPECT_EQ(s.call({"GET", "k"}).raw, contextErr("get"));
    EXPECT_EQ(s.call({"UNSUBSCRIBE"}).raw, confirmation("unsubscribe", "c1", 0));
    EXPECT_EQ(s.call({"GET", "k"}).raw, NIL);
    /* The last subscription of any kind ends the context. */
    EXPECT_EQ(s.call({"SSUBSCRIBE", "s3"}).raw, confirmation("ssubscribe", "s3", 1));
    EXPECT_EQ(s.call({"UNSUBSCRIBE"}).raw, confirmationNil("unsubscribe", 0));
    EXPECT_EQ(s.call({"GET", "k"}).raw, contextErr("get"));
    EXPECT_EQ(s.call({"SUNSUBSCRIBE", "s3"}).raw, confirmation("sunsubscribe", "s3", 0));
    EXPECT_EQ(s.call({"GET", "k"}).raw, NIL);
}

/* SPUBLISH reaches the shard subscribers of its channel, in order, and
 * nobody else: not SUBSCRIBE's subscribers of the same name, no pattern. */
TEST_P(PubSub, SpublishReachesShardSubscribersOnly) {
    RespConn s1 = srv->connect(), s2 = srv->connect();
    EXPECT_EQ(s1.call({"SSUBSCRIBE", "orders"}).raw, confirmation("ssubscribe", "orders", 1));
    EXPECT_EQ(s2.call({"SSUBSCRIBE", "orders"}).raw, confirmation("ssubscribe", "orders", 1));
    RespConn plain = subscriber({"orders"}, {"*"});
    RespConn p1 = srv->connect(), p2 = srv->connect();
    for (int i = 0; i < 30; i++) {
        EXPECT_EQ(p1.call({"SPUBLISH", "orders", "a" + std::to_string(i)}).raw, integer(2));
        EXPECT_EQ(p2.call({"SPUBLISH", "orders", "b" + std::to_string(i)}).raw, integer(2));
    }
    EXPECT_EQ(call({"SPUBLISH", "nobody", "x"}), integer(0));
    for (RespConn *s : {&s1, &s2}) {
        for (int i = 0; i < 30; i++) {
            EXPECT_EQ(s->readReply().raw, bulks({"smessage", "orders", "a" + std::to_string(i)}));
            EXPECT_EQ(s->readReply().raw, bulks({"smessage", "orders", "b" + std::to_string(i)}));
        }
    }
    /* PUBLISH is the other way round. */
    EXPECT_EQ(call({"PUBLISH", "orders", "plain"}), integer(2));
    EXPECT_EQ(plain.readReply().raw, message("orders", "plain"));
    EXPECT_EQ(plain.readReply().raw, pmessage("*", "orders", "plain"));
    EXPECT_EQ(plain.call({"PING"}).raw, array({bulk("pong"), bulk("")})); /* nothing else came */
    EXPECT_EQ(s1.call({"PING"}).raw, array({bulk("pong"), bulk("")}));
}

TEST_P(PubSub, PubsubShardchannelsAndShardnumsub) {
    RespConn a = srv->connect(), b = srv->connect();
    a.cmd({"SSUBSCRIBE", "news.eu", "news.us", "sport"});
    for (int i = 0; i < 3; i++) a.readReply();
    EXPECT_EQ(b.call({"SSUBSCRIBE", "sport"}).raw, confirmation("ssubscribe", "sport", 1));
    RespConn plain = subscriber({"other"});
    EXPECT_EQ(sorted(strings(c->call({"PUBSUB", "SHARDCHANNELS"}))), (std::vector<std::string>{"news.eu", "news.us", "sport"}));
    EXPECT_EQ(sorted(strings(c->call({"PUBSUB", "SHARDCHANNELS", "news.*"}))),
              (std::vector<std::string>{"news.eu", "news.us"}));
    EXPECT_EQ(call({"PUBSUB", "SHARDCHANNELS", "x*"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"PUBSUB", "CHANNELS"}), bulks({"other"}));
    EXPECT_EQ(call({"PUBSUB", "SHARDNUMSUB", "sport", "news.eu", "other", "none"}),
              array({bulk("sport"), integer(2), bulk("news.eu"), integer(1), bulk("other"), integer(0), bulk("none"),
                     integer(0)}));
    EXPECT_EQ(call({"PUBSUB", "SHARDNUMSUB"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"PUBSUB", "NUMSUB", "sport"}), array({bulk("sport"), integer(0)}));
    EXPECT_EQ(call({"PUBSUB", "SHARDCHANNELS", "a", "b"}),
              err("ERR unknown subcommand or wrong number of arguments for 'SHARDCHANNELS'. Try PUBSUB HELP."));
    /* A shard subscriber that goes away leaves nothing behind. */
    a.close();
    pollUntil([&] { return c->call({"PUBSUB", "SHARDNUMSUB", "news.eu"}).elements.at(1).integer == 0; });
    EXPECT_EQ(call({"PUBSUB", "SHARDCHANNELS"}), bulks({"sport"}));
    EXPECT_EQ(call({"SPUBLISH", "sport", "x"}), integer(1));
    EXPECT_EQ(b.readReply().raw, bulks({"smessage", "sport", "x"}));
    /* Neither are shard channels keys. */
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SSUBSCRIBE", "a"}), err("ERR The command has no key arguments"));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SPUBLISH", "a", "m"}), err("ERR The command has no key arguments"));
}

/* Without a cluster SPUBLISH goes to the replicas, as PUBLISH: the shard
 * subscribers of a replica get the master's messages. */
TEST_P(PubSub, SpublishReachesTheReplicasSubscribers) {
    std::unique_ptr<TestServer> replica = cppredis() ? std::make_unique<TestServer>()
                                                     : std::make_unique<RedisReference>();
    EXPECT_EQ(call({"CONFIG", "SET", "repl-diskless-sync-delay", "0"}), OK); /* no 5 s wait for more replicas */
    RespConn r = replica->connect();
    EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", std::to_string(srv->port())}).raw, OK);
    ASSERT_TRUE(pollUntil([&] { return infoField(r, "replication", "master_link_status") == "up"; }, Ms{15000}));
    RespConn s = replica->connect();
    EXPECT_EQ(s.call({"SSUBSCRIBE", "orders"}).raw, confirmation("ssubscribe", "orders", 1));
    EXPECT_EQ(call({"SPUBLISH", "orders", "m1"}), integer(0)); /* nobody on the master */
    EXPECT_EQ(s.readReply().raw, bulks({"smessage", "orders", "m1"}));
}

/* Unlike SUBSCRIBE, refused inside a transaction (Redis 7.0's EXEC denies
 * blocking, and SSUBSCRIBE has no exception for MULTI). */
TEST_P(PubSub, SsubscribeInsideMultiIsRefused) {
    EXPECT_EQ(call({"MULTI"}), OK);
    EXPECT_EQ(call({"SSUBSCRIBE", "x"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), array({err("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client")}));
    EXPECT_EQ(call({"PUBSUB", "SHARDNUMSUB", "x"}), array({bulk("x"), integer(0)}));
    EXPECT_EQ(call({"GET", "k"}), NIL);
}

/* Shard channels are channels to ACL: SSUBSCRIBE and SPUBLISH are checked,
 * and taking a shard channel away from a user disconnects its subscriber. */
TEST_P(PubSub, AclChannelPermissionsCoverShardChannels) {
    EXPECT_EQ(call({"ACL", "SETUSER", "u", "on", ">p", "+@all", "~*", "resetchannels", "&ok*"}), OK);
    RespConn u = srv->connect();
    EXPECT_EQ(u.call({"AUTH", "u", "p"}).raw, OK);
    const std::string noperm = err("NOPERM this user has no permissions to access one of the channels used as arguments");
    EXPECT_EQ(u.call({"SSUBSCRIBE", "ok1", "bad"}).raw, noperm);
    EXPECT_EQ(u.call({"SPUBLISH", "bad", "m"}).raw, noperm);
    EXPECT_EQ(u.call({"SPUBLISH", "ok2", "m"}).raw, integer(0));
    EXPECT_EQ(u.call({"SSUBSCRIBE", "ok1"}).raw, confirmation("ssubscribe", "ok1", 1));
    EXPECT_EQ(call({"ACL", "SETUSER", "u", "&ok1"}), OK); /* still allowed: stays */
    EXPECT_EQ(call({"SPUBLISH", "ok1", "m"}), integer(1));
    EXPECT_EQ(u.readReply().raw, bulks({"smessage", "ok1", "m"}));
    EXPECT_EQ(call({"ACL", "SETUSER", "u", "resetchannels", "&other"}), OK);
    u.expectClosed();
    EXPECT_EQ(call({"PUBSUB", "SHARDNUMSUB", "ok1"}), array({bulk("ok1"), integer(0)}));
}

/* ========================================================================
 * client-output-buffer-limit
 * ====================================================================== */

TEST_P(PubSub, OutputBufferLimitConfig) {
    const std::string dflt = "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60";
    EXPECT_EQ(call({"CONFIG", "GET", "client-output-buffer-limit"}),
              array({bulk("client-output-buffer-limit"), bulk(dflt)}));
    auto set = [&](const std::string &v) { return call({"CONFIG", "SET", "client-output-buffer-limit", v}); };
    auto get = [&] { return c->call({"CONFIG", "GET", "client-output-buffer-limit"}).elements.at(1).str; };
    auto failed = [](const std::string &why) {
        return err("ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - " + why);
    };
    const std::string badClass = "Invalid client class specified in buffer limit configuration.";
    const std::string badNumber = "Error in hard, soft or soft_seconds setting in buffer limit configuration.";
    const std::string badCount = "Wrong number of arguments in buffer limit configuration.";

    EXPECT_EQ(set("normal 1mb 2mb 10"), OK);
    EXPECT_EQ(get(), "normal 1048576 2097152 10 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
    EXPECT_EQ(set("pubsub 1k 512 0 replica 1 2 3"), OK);
    EXPECT_EQ(get(), "normal 1048576 2097152 10 slave 1 2 3 pubsub 1000 512 0");
    EXPECT_EQ(set("SLAVE 10gb 1GB 5 NORMAL 1KB 2Kb 3"), OK);
    EXPECT_EQ(get(), "normal 1024 2048 3 slave 10737418240 1073741824 5 pubsub 1000 512 0");
    EXPECT_EQ(set("normal 1 2 3 normal 4 5 6"), OK); /* the last one wins */
    EXPECT_EQ(set("pubsub  0 +7"), OK);              /* an empty word is 0, seconds take a sign */
    EXPECT_EQ(get(), "normal 4 5 6 slave 10737418240 1073741824 5 pubsub 0 0 7");
    EXPECT_EQ(set("normal 1 2 99999999999999"), OK); /* seconds kept in an int, as Redis */
    EXPECT_EQ(get(), "normal 1 2 276447231 slave 10737418240 1073741824 5 pubsub 0 0 7");
    EXPECT_EQ(set(""), OK);

    const std::string before = get();
    EXPECT_EQ(set("master 1 1 1"), failed(badClass));
    EXPECT_EQ(set("foo 1 1 1"), failed(badClass));
    EXPECT_EQ(set("normal 1 1"), failed(badCount));
    EXPECT_EQ(set("normal 1 2 3 pubsub"), failed(badCount));
    EXPECT_EQ(set("normal -1 0 0"), failed(badNumber));
    EXPECT_EQ(set("normal x 0 0"), failed(badNumber));
    EXPECT_EQ(set("normal 1.5k 0 0"), failed(badNumber));
    EXPECT_EQ(set("normal 1 0 x"), failed(badNumber));
    EXPECT_EQ(set("normal 1 0 -1"), failed(badNumber));
    EXPECT_EQ(set("normal 0 0 0x10"), failed(badNumber));
    EXPECT_EQ(set("normal 9 9 9 pubsub 1 1 -1"), failed(badNumber)); /* all or nothing */
    EXPECT_EQ(get(), before);
}

/* A subscriber that stops reading is dropped once its reply list reaches
 * the hard limit: the memory held for it never grows past the limit by more
 * than the message being added, and the publisher goes on unaffected. */
TEST_P(PubSub, HardLimitDropsASubscriberThatStopsReading) {
    constexpr long long limit = 256 * 1024;
    const std::string payload(16 * 1024, 'm');
    EXPECT_EQ(call({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 256kb 0 0"}), OK);
    RespConn slow = slowSubscriber();
    RespConn fast = subscriber({"slow"});
    RespConn publisher = srv->connect();
    long long maxOmem = 0, published = 0;
    for (; published < 4000; published++) {
        Reply r = publisher.call({"PUBLISH", "slow", payload});
        ASSERT_FALSE(r.isError()) << r;
        if (r.integer == 1) break; /* the slow one is gone */
        ASSERT_EQ(fast.readReply().raw, message("slow", payload));
        maxOmem = std::max(maxOmem, omemOf(slow));
    }
    ASSERT_LT(published, 4000) << "the slow subscriber was never dropped";
    EXPECT_GT(maxOmem, 0) << "its output never piled up in the server";
    EXPECT_LT(maxOmem, limit + 2 * static_cast<long long>(payload.size()) + 16 * 1024);
    EXPECT_TRUE(srv->waitForLog("scheduled to be closed ASAP for overcoming of output buffer limits."));
    EXPECT_EQ(fast.readReply().raw, message("slow", payload));
    /* The publisher and the other subscriber carry on. */
    EXPECT_EQ(publisher.call({"PUBLISH", "slow", "after"}).raw, integer(1));
    EXPECT_EQ(fast.readReply().raw, message("slow", "after"));
    EXPECT_EQ(call({"PUBSUB", "NUMSUB", "slow"}), array({bulk("slow"), integer(1)}));
}

/* Past the soft limit the subscriber is tolerated for its seconds, then
 * dropped even if nothing more is published (serverCron checks). */
TEST_P(PubSub, SoftLimitDropsASubscriberAfterItsSeconds) {
    const std::string payload(16 * 1024, 's');
    EXPECT_EQ(call({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 64kb 1"}), OK);
    RespConn slow = slowSubscriber();
    RespConn publisher = srv->connect();
    for (int i = 0; omemOf(slow) < 64 * 1024; i++) {
        ASSERT_LT(i, 4000) << "the output never reached the soft limit";
        ASSERT_EQ(publisher.call({"PUBLISH", "slow", payload}).raw, integer(1));
    }
    const auto over = Clock::now();
    EXPECT_EQ(numsub("slow"), 1) << "dropped at once: the soft limit's seconds were not waited";
    ASSERT_TRUE(pollUntil([&] { return numsub("slow") == 0; }, Ms{5000}));
    EXPECT_GE(Clock::now() - over, Ms{900});
    EXPECT_TRUE(srv->waitForLog("closed for overcoming of output buffer limits."));
    EXPECT_EQ(publisher.call({"PUBLISH", "slow", "x"}).raw, integer(0));
}

/* The normal class: a client whose own reply is too big is closed instead
 * of answered; by default there is no limit. */
TEST_P(PubSub, NormalClientLimitClosesOnABigReply) {
    std::vector<Args> fill;
    for (int i = 0; i < 20; i++) {
        Args push{"RPUSH", "big"};
        for (int j = 0; j < 100; j++) push.push_back(std::string(100, 'a' + j % 26));
        fill.push_back(push);
    }
    pipeline(*c, fill);
    RespConn reader = srv->connect();
    EXPECT_EQ(reader.call({"LRANGE", "big", "0", "-1"}).elements.size(), 2000u);
    EXPECT_EQ(call({"CONFIG", "SET", "client-output-buffer-limit", "normal 64kb 0 0"}), OK);
    reader.cmd({"LRANGE", "big", "0", "-1"});
    reader.readAllUntilClose();
    EXPECT_TRUE(srv->waitForLog("cmd=lrange"));
    /* Small replies are fine; the server is unaffected. */
    RespConn other = srv->connect();
    EXPECT_EQ(other.call({"LLEN", "big"}).raw, integer(2000));
}

INSTANTIATE_TEST_SUITE_P(Servers, PubSub, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* The config file and the command line (cppredis only: Redis's fatal
 * message names its own version). */
TEST(PubSubConfig, OutputBufferLimitFromTheCommandLineAndFile) {
    TempFile conf("client-output-buffer-limit normal 1mb 2mb 3\nclient-output-buffer-limit pubsub 4 5 6\n");
    TestServer srv(ServerOptions{.args = {"--client-output-buffer-limit", "slave 7 8 9"}, .configFile = conf.path()});
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"CONFIG", "GET", "client-output-buffer-limit"}).elements.at(1).str,
              "normal 1048576 2097152 3 slave 7 8 9 pubsub 4 5 6");
    ProcessResult bad =
        runProcess({CPPREDIS_SERVER_BIN, "--port", "0", "--client-output-buffer-limit", "master 1 2 3"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("Invalid client class specified in buffer limit configuration."), std::string::npos)
        << bad.err;
}

}  // namespace
