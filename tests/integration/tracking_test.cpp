/* tracking_test.cpp — client-side caching (issue 20, point 8): CLIENT
 * TRACKING and its modes, CLIENT CACHING/GETREDIR/TRACKINGINFO, and the
 * invalidation messages other clients' writes, expiry, flushes and the
 * tracking-table-max-keys bound send, as RESP3 pushes or as messages on
 * __redis__:invalidate to a RESP2 REDIRECT subscriber. Each test runs on a
 * fresh cppredis and a fresh Redis 7.0.15 (EitherServerTest) with the same
 * expectations, several connections at once: a reader that caches, a
 * writer that changes what it read.
 *
 * "No invalidation came" is checked without waiting: the writer's reply is
 * read first, and the server writes the invalidation while it runs the
 * write, so a PING the reader sends afterwards is answered after any
 * invalidation already queued for it.
 *
 * And a real client-side cache: Debian's redis-py (4.3) speaks no RESP3
 * (protocol=3 came in 5.0, its cache in 5.1), so tests/clients/csc_resp3.py
 * is a small RESP3 client with a cache of its own, run against both. */
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "integration/harness.h"
#include "integration/replies.h"
#include "integration/subprocess.h"

using namespace itest;

namespace {

/* The push a RESP3 client gets for one key. */
std::string invalidatePush(const std::string &key) {
    return ">2\r\n$10\r\ninvalidate\r\n*1\r\n$" + std::to_string(key.size()) + "\r\n" + key + "\r\n";
}
constexpr const char *kFlushPush = ">2\r\n$10\r\ninvalidate\r\n_\r\n";
/* The message a RESP2 subscriber gets for a REDIRECT client, its value
 * the RESP of the keys (or of a flush's null). */
std::string invalidateMessage(const std::string &value) {
    return "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n" + value;
}

class Tracking : public EitherServerTest {
protected:
    /* A connection switched to RESP3. */
    RespConn resp3() {
        RespConn r = srv->connect();
        Reply hello = r.call({"HELLO", "3"});
        EXPECT_EQ(hello.type, Reply::Type::Map) << hello;
        return r;
    }
    static std::string clientId(RespConn &r) { return std::to_string(r.call({"CLIENT", "ID"}).integer); }
    /* Nothing was queued for r before this: the next reply is PING's. */
    static void expectNothingPending(RespConn &r) { EXPECT_EQ(r.call({"PING"}).raw, "+PONG\r\n"); }
};
INSTANTIATE_TEST_SUITE_P(Servers, Tracking, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* Redis 7.0.15's refusals, word for word, and what they leave unchanged. */
TEST_P(Tracking, OptionErrors) {
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "PREFIX", "a"}),
              "-ERR PREFIX option requires BCAST mode to be enabled\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "a", "PREFIX", "ab"}),
              "-ERR Prefix 'a' overlaps with another provided prefix 'ab'. Prefixes for a single client must not "
              "overlap.\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "OPTIN", "OPTOUT"}),
              "-ERR You can't specify both OPTIN mode and OPTOUT mode\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "BCAST", "OPTIN"}),
              "-ERR OPTIN and OPTOUT are not compatible with BCAST\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "REDIRECT", "999999"}),
              "-ERR The client ID you want redirect to does not exist\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "REDIRECT", "x"}),
              "-ERR value is not an integer or out of range\r\n");
    RespConn other = srv->connect();
    std::string oid = clientId(other);
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "REDIRECT", oid, "REDIRECT", oid}),
              "-ERR A client can only redirect to a single other client\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "NOSUCH"}), "-ERR syntax error\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "maybe"}), "-ERR syntax error\r\n");
    EXPECT_EQ(call({"CLIENT", "GETREDIR"}), ":-1\r\n");
    EXPECT_EQ(call({"CLIENT", "CACHING", "yes"}),
              "-ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode "
              "enabled\r\n");

    ASSERT_EQ(call({"CLIENT", "TRACKING", "on", "OPTIN"}), OK);
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "OPTOUT"}),
              "-ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then "
              "re-enabling it with a different mode.\r\n");
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "BCAST"}),
              "-ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then "
              "re-enabling it with a different mode.\r\n");
    EXPECT_EQ(call({"CLIENT", "CACHING", "no"}),
              "-ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.\r\n");
    EXPECT_EQ(call({"CLIENT", "CACHING", "maybe"}), "-ERR syntax error\r\n");
    EXPECT_EQ(call({"CLIENT", "GETREDIR"}), ":0\r\n");
    ASSERT_EQ(call({"CLIENT", "TRACKING", "off"}), OK);
    ASSERT_EQ(call({"CLIENT", "TRACKING", "on", "OPTOUT"}), OK);
    EXPECT_EQ(call({"CLIENT", "CACHING", "yes"}),
              "-ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.\r\n");

    /* A prefix overlapping one the client already has. */
    ASSERT_EQ(call({"CLIENT", "TRACKING", "off"}), OK);
    ASSERT_EQ(call({"CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "user:"}), OK);
    EXPECT_EQ(call({"CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "user:1"}),
              "-ERR Prefix 'user:1' overlaps with an existing prefix 'user:'. Prefixes for a single client must not "
              "overlap.\r\n");
}

/* CLIENT TRACKINGINFO: the flags (as a set), the redirection, the prefixes
 * (sorted), in RESP2 and RESP3. */
TEST_P(Tracking, TrackingInfo) {
    EXPECT_EQ(call({"CLIENT", "TRACKINGINFO"}),
              "*6\r\n$5\r\nflags\r\n*1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n*0\r\n");
    ASSERT_EQ(call({"CLIENT", "TRACKING", "on", "BCAST", "NOLOOP", "PREFIX", "z", "PREFIX", "b"}), OK);
    EXPECT_EQ(call({"CLIENT", "TRACKINGINFO"}),
              "*6\r\n$5\r\nflags\r\n*3\r\n$2\r\non\r\n$5\r\nbcast\r\n$6\r\nnoloop\r\n$8\r\nredirect\r\n:0\r\n"
              "$8\r\nprefixes\r\n*2\r\n$1\r\nb\r\n$1\r\nz\r\n");
    ASSERT_EQ(call({"CLIENT", "TRACKING", "off"}), OK);

    RespConn r = resp3();
    RespConn target = srv->connect();
    std::string tid = clientId(target);
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "OPTIN", "REDIRECT", tid}).raw, OK);
    ASSERT_EQ(r.call({"CLIENT", "CACHING", "yes"}).raw, OK);
    /* CACHING lasts until the next command that is not CLIENT's. */
    EXPECT_EQ(r.call({"CLIENT", "TRACKINGINFO"}).raw,
              "%3\r\n$5\r\nflags\r\n~3\r\n$2\r\non\r\n$5\r\noptin\r\n$11\r\ncaching-yes\r\n$8\r\nredirect\r\n:" +
                  tid + "\r\n$8\r\nprefixes\r\n*0\r\n");
    EXPECT_EQ(r.call({"CLIENT", "GETREDIR"}).raw, ":" + tid + "\r\n");
    r.call({"PING"});
    EXPECT_EQ(r.call({"CLIENT", "TRACKINGINFO"}).raw,
              "%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$5\r\noptin\r\n$8\r\nredirect\r\n:" + tid +
                  "\r\n$8\r\nprefixes\r\n*0\r\n");
}

/* The default mode: a key the reader read is invalidated once, when
 * another client changes it (SET, DEL, an expiry), then not again until
 * it is read again. */
TEST_P(Tracking, WriterInvalidatesReadersKey) {
    RespConn reader = resp3();
    RespConn writer = srv->connect();
    ASSERT_EQ(reader.call({"CLIENT", "TRACKING", "on"}).raw, OK);
    ASSERT_EQ(reader.call({"MGET", "a", "b"}).type, Reply::Type::Array);
    ASSERT_EQ(writer.call({"SET", "a", "1"}).raw, OK);
    EXPECT_EQ(reader.readReply().raw, invalidatePush("a"));
    ASSERT_EQ(writer.call({"SET", "a", "2"}).raw, OK);
    expectNothingPending(reader);
    ASSERT_EQ(writer.call({"SET", "b", "1"}).raw, OK);
    EXPECT_EQ(reader.readReply().raw, invalidatePush("b"));

    /* The table is not per database: a read in db 0, a write in db 9. */
    ASSERT_EQ(reader.call({"GET", "a"}).raw, "$1\r\n2\r\n");
    ASSERT_EQ(writer.call({"SELECT", "9"}).raw, OK);
    ASSERT_EQ(writer.call({"DEL", "a"}).raw, ":0\r\n");
    expectNothingPending(reader); /* nothing deleted, nothing signalled */
    ASSERT_EQ(writer.call({"SET", "a", "x"}).raw, OK);
    EXPECT_EQ(reader.readReply().raw, invalidatePush("a"));

    /* An expired key is invalidated when it goes (here, when the writer's
     * lookup finds it expired). */
    ASSERT_EQ(writer.call({"SELECT", "0"}).raw, OK);
    ASSERT_EQ(writer.call({"SET", "e", "1", "PX", "100"}).raw, OK);
    ASSERT_EQ(reader.call({"GET", "e"}).raw, "$1\r\n1\r\n");
    waitMs(120);
    ASSERT_EQ(writer.call({"EXISTS", "e"}).raw, ":0\r\n");
    EXPECT_EQ(reader.readReply().raw, invalidatePush("e"));
}

/* A client's own write to a key it read: the invalidation follows the
 * write's reply (EXEC's whole reply too); NOLOOP leaves it out. */
TEST_P(Tracking, OwnWritesAndNoloop) {
    RespConn r = resp3();
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on"}).raw, OK);
    r.call({"GET", "k"});
    EXPECT_EQ(r.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("k"));
    r.call({"GET", "k"});
    ASSERT_EQ(r.call({"MULTI"}).raw, OK);
    ASSERT_EQ(r.call({"INCR", "k"}).raw, QUEUED);
    EXPECT_EQ(r.call({"EXEC"}).raw, "*1\r\n:2\r\n");
    EXPECT_EQ(r.readReply().raw, invalidatePush("k"));

    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "NOLOOP"}).raw, OK);
    r.call({"GET", "k"});
    EXPECT_EQ(r.call({"SET", "k", "3"}).raw, OK);
    expectNothingPending(r);
    RespConn writer = srv->connect();
    r.call({"GET", "k"});
    ASSERT_EQ(writer.call({"SET", "k", "4"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("k"));
}

/* OPTIN remembers only the command after CLIENT CACHING yes; OPTOUT all
 * but the one after CLIENT CACHING no. */
TEST_P(Tracking, OptinOptoutWithCaching) {
    RespConn r = resp3();
    RespConn writer = srv->connect();
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "OPTIN"}).raw, OK);
    r.call({"GET", "plain"});
    ASSERT_EQ(r.call({"CLIENT", "CACHING", "yes"}).raw, OK);
    r.call({"GET", "cached"});
    r.call({"GET", "after"});
    ASSERT_EQ(writer.call({"MSET", "plain", "1", "after", "1"}).raw, OK);
    expectNothingPending(r);
    ASSERT_EQ(writer.call({"SET", "cached", "1"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("cached"));

    /* A transaction is one "next command". */
    ASSERT_EQ(r.call({"CLIENT", "CACHING", "yes"}).raw, OK);
    ASSERT_EQ(r.call({"MULTI"}).raw, OK);
    ASSERT_EQ(r.call({"GET", "t1"}).raw, QUEUED);
    ASSERT_EQ(r.call({"GET", "t2"}).raw, QUEUED);
    ASSERT_EQ(r.call({"EXEC"}).type, Reply::Type::Array);
    ASSERT_EQ(writer.call({"MSET", "t1", "1", "t2", "1"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("t1"));
    EXPECT_EQ(r.readReply().raw, invalidatePush("t2"));

    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "off"}).raw, OK);
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "OPTOUT"}).raw, OK);
    ASSERT_EQ(r.call({"CLIENT", "CACHING", "no"}).raw, OK);
    r.call({"GET", "skipped"});
    r.call({"GET", "kept"});
    ASSERT_EQ(writer.call({"SET", "skipped", "1"}).raw, OK);
    expectNothingPending(r);
    ASSERT_EQ(writer.call({"SET", "kept", "1"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("kept"));
}

/* BCAST: every key under a prefix, read or not; the keys of one event-loop
 * iteration in one message per prefix, in byte order; NOLOOP leaves out
 * the client's own. */
TEST_P(Tracking, BroadcastWithPrefixes) {
    RespConn r = resp3();
    RespConn writer = srv->connect();
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "user:", "PREFIX", "obj:"}).raw, OK);
    /* One write: the server reads and runs all four in one iteration. */
    writer.send(encodeCommand({"SET", "user:2", "x"}) + encodeCommand({"SET", "other", "x"}) +
                encodeCommand({"SET", "obj:9", "x"}) + encodeCommand({"SET", "user:1", "x"}));
    for (int i = 0; i < 4; i++) ASSERT_EQ(writer.readReply().raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("obj:9"));
    EXPECT_EQ(r.readReply().raw,
              ">2\r\n$10\r\ninvalidate\r\n*2\r\n$6\r\nuser:1\r\n$6\r\nuser:2\r\n");
    ASSERT_EQ(writer.call({"SET", "other", "y"}).raw, OK);
    expectNothingPending(r);

    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "off"}).raw, OK);
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "BCAST", "NOLOOP"}).raw, OK);
    r.send(encodeCommand({"SET", "mine", "1"}) + encodeCommand({"PING"}));
    EXPECT_EQ(r.readReply().raw, OK);
    EXPECT_EQ(r.readReply().raw, "+PONG\r\n");
    expectNothingPending(r);
    ASSERT_EQ(writer.call({"SET", "theirs", "1"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("theirs"));
}

/* A BCAST client that goes away leaves no trace in the prefix table: the
 * next write under its prefix must not reach it (ASan: no use after free). */
TEST_P(Tracking, BroadcastClientClosed) {
    RespConn writer = srv->connect();
    {
        RespConn r = resp3();
        ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "p"}).raw, OK);
        std::string id = clientId(r);
        r.close();
        ASSERT_TRUE(pollUntil([&] { return writer.call({"CLIENT", "LIST", "ID", id}).str.empty(); }));
    }
    ASSERT_EQ(writer.call({"SET", "p1", "1"}).raw, OK);
    EXPECT_EQ(writer.call({"PING"}).raw, "+PONG\r\n");
}

/* A RESP2 client redirects its invalidations to a subscriber of
 * __redis__:invalidate: a pub/sub message per key, and a null one for a
 * flush. Its own connection gets nothing (RESP2 has no push). */
TEST_P(Tracking, RedirectToResp2Subscriber) {
    RespConn sub = srv->connect();
    std::string sid = clientId(sub);
    ASSERT_EQ(sub.call({"SUBSCRIBE", "__redis__:invalidate"}).raw,
              "*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n");
    RespConn reader = srv->connect();
    RespConn writer = srv->connect();
    ASSERT_EQ(reader.call({"CLIENT", "TRACKING", "on", "REDIRECT", sid}).raw, OK);
    reader.call({"GET", "k"});
    ASSERT_EQ(writer.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(sub.readReply().raw, invalidateMessage("*1\r\n$1\r\nk\r\n"));
    ASSERT_EQ(writer.call({"FLUSHALL"}).raw, OK);
    EXPECT_EQ(sub.readReply().raw, invalidateMessage("$-1\r\n"));
    expectNothingPending(reader);

    /* Without a redirection a RESP2 client cannot be told: nothing is sent. */
    ASSERT_EQ(reader.call({"CLIENT", "TRACKING", "on", "REDIRECT", "0"}).raw,
              "-ERR The client ID you want redirect to does not exist\r\n");
    ASSERT_EQ(reader.call({"CLIENT", "TRACKING", "off"}).raw, OK);
    ASSERT_EQ(reader.call({"CLIENT", "TRACKING", "on"}).raw, OK);
    reader.call({"GET", "k"});
    ASSERT_EQ(writer.call({"SET", "k", "2"}).raw, OK);
    expectNothingPending(reader);
}

/* A RESP3 redirection target gets pushes, subscribed or not; the tracking
 * client itself gets nothing. */
TEST_P(Tracking, RedirectToResp3Client) {
    RespConn target = resp3();
    std::string tid = clientId(target);
    RespConn r = resp3();
    RespConn writer = srv->connect();
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "REDIRECT", tid}).raw, OK);
    r.call({"GET", "k"});
    ASSERT_EQ(writer.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(target.readReply().raw, invalidatePush("k"));
    expectNothingPending(r);
}

/* The redirection target closed: the RESP3 tracking client is told, at
 * each invalidation, and TRACKINGINFO says broken_redirect. */
TEST_P(Tracking, RedirectClientClosed) {
    RespConn target = srv->connect();
    std::string tid = clientId(target);
    RespConn r = resp3();
    RespConn writer = srv->connect();
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on", "REDIRECT", tid}).raw, OK);
    r.call({"GET", "k"});
    ASSERT_EQ(writer.call({"CLIENT", "KILL", "ID", tid}).raw, ":1\r\n");
    ASSERT_EQ(writer.call({"SET", "k", "1"}).raw, OK);
    const std::string broken = ">2\r\n$21\r\ntracking-redir-broken\r\n:" + tid + "\r\n";
    EXPECT_EQ(r.readReply().raw, broken);
    EXPECT_EQ(r.call({"CLIENT", "TRACKINGINFO"}).raw,
              "%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$15\r\nbroken_redirect\r\n$8\r\nredirect\r\n:" + tid +
                  "\r\n$8\r\nprefixes\r\n*0\r\n");
    ASSERT_EQ(writer.call({"FLUSHALL"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, broken);
}

/* FLUSHALL and FLUSHDB: a null instead of key names, to every tracking
 * client (BCAST ones too), after the reply for the flushing client. */
TEST_P(Tracking, FlushSendsNull) {
    RespConn r = resp3();
    RespConn b = resp3();
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on"}).raw, OK);
    ASSERT_EQ(b.call({"CLIENT", "TRACKING", "on", "BCAST"}).raw, OK);
    r.call({"GET", "k"});
    EXPECT_EQ(r.call({"FLUSHDB"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, kFlushPush);
    EXPECT_EQ(b.readReply().raw, kFlushPush);
    /* The table was emptied: k, read before, is no longer tracked. */
    RespConn writer = srv->connect();
    ASSERT_EQ(writer.call({"SET", "k", "1"}).raw, OK);
    EXPECT_EQ(b.readReply().raw, invalidatePush("k"));
    expectNothingPending(r);
    ASSERT_EQ(writer.call({"FLUSHALL"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, kFlushPush);
    EXPECT_EQ(b.readReply().raw, kFlushPush);
}

/* A script's reads remember the keys it declared, for its caller. */
TEST_P(Tracking, ScriptReadsAreTheCallers) {
    RespConn r = resp3();
    RespConn writer = srv->connect();
    ASSERT_EQ(writer.call({"MSET", "s1", "v", "s2", "v", "s3", "v"}).raw, OK);
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on"}).raw, OK);
    ASSERT_EQ(r.call({"EVAL", "return redis.call('get', KEYS[1])", "1", "s1"}).raw, "$1\r\nv\r\n");
    ASSERT_EQ(r.call({"EVAL_RO", "return redis.call('get', KEYS[1])", "1", "s2"}).raw, "$1\r\nv\r\n");
    ASSERT_EQ(r.call({"EVAL", "return 1", "1", "s3"}).raw, ":1\r\n"); /* no read: nothing remembered */
    ASSERT_EQ(writer.call({"MSET", "s3", "1", "s2", "1", "s1", "1"}).raw, OK);
    EXPECT_EQ(r.readReply().raw, invalidatePush("s2"));
    EXPECT_EQ(r.readReply().raw, invalidatePush("s1"));
}

/* tracking-table-max-keys: past it, random keys leave the table (before
 * the next command, and in serverCron), each invalidated as if it had
 * changed. 5 keys read with room for 2: 3 invalidations, of 3 of them. */
TEST_P(Tracking, TableMaxKeysEvicts) {
    RespConn r = resp3();
    ASSERT_EQ(r.call({"CONFIG", "SET", "tracking-table-max-keys", "2"}).raw, OK);
    ASSERT_EQ(r.call({"CLIENT", "TRACKING", "on"}).raw, OK);
    std::set<std::string> invalidated;
    auto collect = [&](const Reply &push) {
        ASSERT_EQ(push.type, Reply::Type::Push) << push;
        ASSERT_EQ(push.elements.size(), 2u);
        ASSERT_EQ(push.elements[1].elements.size(), 1u) << push;
        invalidated.insert(push.elements[1].elements[0].str);
    };
    for (std::string key : {"k1", "k2", "k3", "k4", "k5"}) {
        r.cmd({"GET", key});
        Reply reply = r.readReply();
        while (reply.type == Reply::Type::Push) {
            collect(reply);
            reply = r.readReply();
        }
        ASSERT_TRUE(reply.isNil()) << reply;
    }
    while (invalidated.size() < 3) collect(r.readReply()); /* serverCron's */
    expectNothingPending(r);
    for (const std::string &key : invalidated) EXPECT_TRUE(key.size() == 2 && key[0] == 'k') << key;
    EXPECT_EQ(invalidated.size(), 3u);
}

/* A real client-side cache over RESP3 (tests/clients/csc_resp3.py): it
 * serves repeated reads from memory and drops what the invalidations name. */
TEST_P(Tracking, PythonResp3ClientSideCache) {
    std::string out;
    int rc = runCommand("/usr/bin/python3 " + (repoDir() / "tests" / "clients" / "csc_resp3.py").string() + " " +
                            std::to_string(srv->port()),
                        &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("client-side cache ok"), std::string::npos) << out;
}

}  // namespace
