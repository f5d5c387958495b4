/* notify_test.cpp — integration tests of keyspace notifications (notify.cpp
 * and the notifyKeyspaceEvent calls of every command): for each command
 * family, each command's reply and the exact events it publishes, in order
 * (none when it changes nothing); "new" keys and key misses, which only
 * their own letters turn on; expirations, lazy and active; blocking pops
 * served by a push, in MULTI too; the classes and channels each letter of
 * notify-keyspace-events selects; and the config's parsing and printing.
 *
 * A subscriber PSUBSCRIBEs to __key*__:* and SUBSCRIBEs to "marker"; after
 * each command the test publishes to "marker", so the events of that
 * command are what the subscriber receives before the marker. With K and E
 * both on, every event must come as its __keyspace@ message then its
 * __keyevent@ twin; a test reads it as "event key" ("event key@db" outside
 * db 9, where the tests run).
 *
 * The scenarios run twice, against cppredis and against Debian's Redis
 * 7.0.15 (skipped if it is missing), with the same expectations, so every
 * event name and order is Redis 7.0's. */
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

using Events = std::vector<std::string>;

/* A reply left unchecked (a random member). */
const std::string ANY_REPLY = "<any>";

/* One command, its reply (or ANY_REPLY), and the events it must publish. */
struct Step {
    Args cmd;
    std::string reply;
    Events events;
};

class KeyspaceEvents : public EitherServerTest {
protected:
    std::optional<RespConn> sub;

    void SetUp() override {
        EitherServerTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        sub.emplace(srv->connect());
        ASSERT_EQ(sub->call({"PSUBSCRIBE", "__key*__:*"}).raw,
                  array({bulk("psubscribe"), bulk("__key*__:*"), integer(1)}));
        ASSERT_EQ(sub->call({"SUBSCRIBE", "marker"}).raw, array({bulk("subscribe"), bulk("marker"), integer(2)}));
        ASSERT_EQ(call({"SELECT", "9"}), OK);
        setFlags("KEA");
    }

    void setFlags(const std::string &flags) {
        ASSERT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", flags}), OK);
    }

    /* What the subscriber received before the marker, each message as
     * "K event key" (from __keyspace@) or "E event key" (from __keyevent@),
     * with "@db" after the key outside db 9. */
    Events rawEvents() {
        EXPECT_EQ(call({"PUBLISH", "marker", "m"}), integer(1));
        Events out;
        for (;;) {
            Reply r = sub->readReply();
            if (r.elements.size() == 3) break; /* the marker's "message" */
            if (r.elements.size() != 4) {
                ADD_FAILURE() << "not a pmessage: " << r;
                break;
            }
            const std::string &channel = r.elements[2].str, &payload = r.elements[3].str;
            size_t at = channel.find('@'), end = channel.find("__:");
            if (at == std::string::npos || end == std::string::npos) {
                ADD_FAILURE() << "unexpected channel " << channel;
                continue;
            }
            std::string db = channel.substr(at + 1, end - at - 1), rest = channel.substr(end + 3);
            bool space = channel.starts_with("__keyspace@");
            std::string event = space ? payload : rest, key = space ? rest : payload;
            out.push_back(std::string(space ? "K " : "E ") + event + " " + key + (db == "9" ? "" : "@" + db));
        }
        return out;
    }

    /* With K and E on: each keyspace message then its keyevent twin, read
     * as one "event key". */
    Events events() {
        Events raw = rawEvents(), out;
        for (size_t i = 0; i < raw.size(); i += 2) {
            std::string what = raw[i].substr(2);
            if (raw[i][0] != 'K' || i + 1 == raw.size() || raw[i + 1] != "E " + what) {
                ADD_FAILURE() << "unpaired event " << raw[i];
                return raw;
            }
            out.push_back(what);
        }
        return out;
    }

    void expectEvents(const std::vector<Step> &steps) {
        for (const Step &s : steps) {
            std::string reply = call(s.cmd);
            if (s.reply != ANY_REPLY) {
                EXPECT_EQ(reply, s.reply) << describe(s.cmd);
            }
            EXPECT_EQ(events(), s.events) << describe(s.cmd);
        }
    }

    long long blockedClients() { return infoNumber(*c, "clients", "blocked_clients"); }
    /* Sends a blocking command on `w` and waits until it is blocked. */
    void block(RespConn &w, const Args &cmd, long long n) {
        ASSERT_EQ(w.call({"SELECT", "9"}).raw, OK);
        w.cmd(cmd);
        ASSERT_TRUE(pollUntil([&] { return blockedClients() == n; })) << describe(cmd);
    }
};

/* ========================================================================
 * Command families
 * ====================================================================== */

TEST_P(KeyspaceEvents, Strings) {
    expectEvents({
        {{"SET", "s", "v"}, OK, {"set s"}},
        {{"SET", "s", "v2", "EX", "100"}, OK, {"set s", "expire s"}},
        {{"SET", "s", "v3", "GET"}, bulk("v2"), {"set s"}},
        {{"SET", "s", "v4", "NX"}, NIL, {}},
        {{"SET", "s", "v4", "XX", "PX", "100000"}, OK, {"set s", "expire s"}},
        {{"SET", "s2", "v", "KEEPTTL"}, OK, {"set s2"}},
        {{"SETNX", "s", "x"}, integer(0), {}},
        {{"SETNX", "s3", "x"}, integer(1), {"set s3"}},
        {{"SETEX", "s4", "100", "v"}, OK, {"set s4", "expire s4"}},
        {{"PSETEX", "s5", "100000", "v"}, OK, {"set s5", "expire s5"}},
        {{"SETEX", "s8", "0", "v"}, err("ERR invalid expire time in 'setex' command"), {}},
        {{"GETSET", "s", "z"}, bulk("v4"), {"set s"}},
        {{"GETDEL", "s"}, bulk("z"), {"del s"}},
        {{"GETDEL", "nokey"}, NIL, {}},
        {{"GETEX", "s3", "EX", "100"}, bulk("x"), {"expire s3"}},
        {{"GETEX", "s3", "PERSIST"}, bulk("x"), {"persist s3"}},
        {{"GETEX", "s3", "PERSIST"}, bulk("x"), {}},
        {{"GETEX", "s3"}, bulk("x"), {}},
        {{"GETEX", "s3", "PXAT", "1"}, bulk("x"), {"del s3"}},
        {{"MSET", "a", "1", "b", "2"}, OK, {"set a", "set b"}},
        {{"MSETNX", "c", "1", "d", "2"}, integer(1), {"set c", "set d"}},
        {{"MSETNX", "c", "1", "e", "2"}, integer(0), {}},
        {{"INCR", "n"}, integer(1), {"incrby n"}},
        {{"DECR", "n"}, integer(0), {"incrby n"}},
        {{"INCRBY", "n", "5"}, integer(5), {"incrby n"}},
        {{"DECRBY", "n", "2"}, integer(3), {"incrby n"}},
        {{"INCRBYFLOAT", "n", "1.5"}, bulk("4.5"), {"incrbyfloat n"}},
        {{"INCR", "s2"}, NOT_INT, {}},
        {{"APPEND", "a", "x"}, integer(2), {"append a"}},
        {{"APPEND", "newapp", "x"}, integer(1), {"append newapp"}},
        {{"SETRANGE", "a", "5", "y"}, integer(6), {"setrange a"}},
        {{"SETRANGE", "sr", "0", ""}, integer(0), {}},
        {{"SETRANGE", "a", "0", ""}, integer(6), {}},
        {{"GET", "a"}, bulk(std::string("1x\0\0\0y", 6)), {}},
        {{"STRLEN", "nokey"}, integer(0), {}},
    });
}

TEST_P(KeyspaceEvents, Lists) {
    expectEvents({
        {{"LPUSH", "l", "a", "b", "c"}, integer(3), {"lpush l"}},
        {{"RPUSH", "l", "d"}, integer(4), {"rpush l"}},
        {{"LPUSHX", "l", "x"}, integer(5), {"lpush l"}},
        {{"RPUSHX", "l", "y"}, integer(6), {"rpush l"}},
        {{"LPUSHX", "nol", "x"}, integer(0), {}},
        {{"LINSERT", "l", "BEFORE", "a", "q"}, integer(7), {"linsert l"}},
        {{"LINSERT", "l", "BEFORE", "zz", "q"}, integer(-1), {}},
        {{"LSET", "l", "0", "w"}, OK, {"lset l"}},
        {{"LSET", "l", "99", "w"}, OUT_OF_RANGE, {}},
        {{"LREM", "l", "1", "q"}, integer(1), {"lrem l"}},
        {{"LREM", "l", "1", "nothere"}, integer(0), {}},
        {{"LTRIM", "l", "0", "-1"}, OK, {"ltrim l"}}, /* even when nothing goes */
        {{"LTRIM", "l", "0", "2"}, OK, {"ltrim l"}},
        {{"LPOP", "l"}, bulk("w"), {"lpop l"}},
        {{"RPOP", "l"}, bulk("b"), {"rpop l"}},
        {{"LPOP", "l", "5"}, bulks({"c"}), {"lpop l", "del l"}},
        {{"LPOP", "l"}, NIL, {}},
        {{"RPUSH", "l2", "a", "b", "c"}, integer(3), {"rpush l2"}},
        {{"LPOP", "l2", "0"}, EMPTY_ARRAY, {}},
        {{"RPOP", "l2", "10"}, bulks({"c", "b", "a"}), {"rpop l2", "del l2"}},
        {{"RPUSH", "src", "a", "b"}, integer(2), {"rpush src"}},
        {{"RPOPLPUSH", "src", "dst"}, bulk("b"), {"lpush dst", "rpop src"}},
        {{"RPOPLPUSH", "src", "dst"}, bulk("a"), {"lpush dst", "rpop src", "del src"}},
        {{"LMOVE", "dst", "dst", "LEFT", "RIGHT"}, bulk("a"), {"rpush dst", "lpop dst"}},
        {{"LMOVE", "dst", "newdst", "LEFT", "LEFT"}, bulk("b"), {"lpush newdst", "lpop dst"}},
        {{"LMPOP", "2", "nol", "newdst", "LEFT", "COUNT", "5"}, array({bulk("newdst"), bulks({"b"})}),
         {"lpop newdst", "del newdst"}},
        {{"RPUSH", "x1", "a"}, integer(1), {"rpush x1"}},
        {{"LTRIM", "x1", "1", "0"}, OK, {"ltrim x1", "del x1"}},
        {{"RPUSH", "x2", "a"}, integer(1), {"rpush x2"}},
        {{"LREM", "x2", "0", "a"}, integer(1), {"lrem x2", "del x2"}},
        {{"RPUSH", "x3", "a"}, integer(1), {"rpush x3"}},
        {{"LRANGE", "x3", "0", "-1"}, bulks({"a"}), {}},
        /* Blocking pops that find a list act at once, as their twins. */
        {{"BLPOP", "x3", "0"}, bulks({"x3", "a"}), {"lpop x3", "del x3"}},
        {{"RPUSH", "x4", "a", "b"}, integer(2), {"rpush x4"}},
        {{"BRPOPLPUSH", "x4", "x4", "0"}, bulk("b"), {"lpush x4", "rpop x4"}},
        {{"BLMOVE", "x4", "x5", "RIGHT", "LEFT", "0"}, bulk("a"), {"lpush x5", "rpop x4"}},
        {{"BLMPOP", "0", "1", "x4", "RIGHT"}, array({bulk("x4"), bulks({"b"})}), {"rpop x4", "del x4"}},
        {{"LPUSH", "s", "x"}, integer(1), {"lpush s"}},
    });
}

TEST_P(KeyspaceEvents, Hashes) {
    expectEvents({
        {{"HSET", "h", "f", "v", "g", "w"}, integer(2), {"hset h"}},
        {{"HSET", "h", "f", "v"}, integer(0), {"hset h"}}, /* even unchanged */
        {{"HSETNX", "h", "f", "v"}, integer(0), {}},
        {{"HSETNX", "h", "z", "v"}, integer(1), {"hset h"}},
        {{"HMSET", "h", "a", "1"}, OK, {"hset h"}},
        {{"HDEL", "h", "nope"}, integer(0), {}},
        {{"HDEL", "h", "f", "g"}, integer(2), {"hdel h"}},
        {{"HINCRBY", "h", "a", "2"}, integer(3), {"hincrby h"}},
        {{"HINCRBYFLOAT", "h", "a", "1.5"}, bulk("4.5"), {"hincrbyfloat h"}},
        {{"HINCRBY", "h2", "a", "1"}, integer(1), {"hincrby h2"}},
        {{"HINCRBY", "h", "a", "1"}, err("ERR hash value is not an integer"), {}},
        {{"HGET", "h", "a"}, bulk("4.5"), {}},
        {{"HDEL", "h", "a", "z"}, integer(2), {"hdel h", "del h"}},
    });
}

TEST_P(KeyspaceEvents, Sets) {
    expectEvents({
        {{"SADD", "s", "a", "b"}, integer(2), {"sadd s"}},
        {{"SADD", "s", "a"}, integer(0), {}},
        {{"SREM", "s", "zz"}, integer(0), {}},
        {{"SREM", "s", "a"}, integer(1), {"srem s"}},
        {{"SPOP", "s"}, bulk("b"), {"spop s", "del s"}},
        {{"SADD", "s", "a"}, integer(1), {"sadd s"}},
        {{"SPOP", "s", "0"}, EMPTY_ARRAY, {}},
        {{"SPOP", "s", "10"}, bulks({"a"}), {"spop s", "del s"}},
        {{"SADD", "s", "1", "2", "3"}, integer(3), {"sadd s"}},
        {{"SPOP", "s", "1"}, ANY_REPLY, {"spop s"}},
        {{"SADD", "s1", "a", "b"}, integer(2), {"sadd s1"}},
        {{"SADD", "s2", "a"}, integer(1), {"sadd s2"}},
        {{"SMOVE", "s1", "s2", "a"}, integer(1), {"srem s1"}}, /* already in s2 */
        {{"SMOVE", "s1", "s2", "zz"}, integer(0), {}},
        {{"SMOVE", "s1", "s3", "b"}, integer(1), {"srem s1", "del s1", "sadd s3"}},
        {{"SMOVE", "s2", "s2", "a"}, integer(1), {}},
        {{"SADD", "t1", "a", "b", "c"}, integer(3), {"sadd t1"}},
        {{"SADD", "t2", "b", "c", "d"}, integer(3), {"sadd t2"}},
        {{"SINTERSTORE", "d1", "t1", "t2"}, integer(2), {"sinterstore d1"}},
        {{"SUNIONSTORE", "d1", "t1", "t2"}, integer(4), {"sunionstore d1"}},
        {{"SDIFFSTORE", "d1", "t1", "t2"}, integer(1), {"sdiffstore d1"}},
        {{"SINTERSTORE", "d1", "t1", "nokey"}, integer(0), {"del d1"}},
        {{"SINTERSTORE", "d1", "t1", "nokey"}, integer(0), {}},
        {{"SDIFFSTORE", "d3", "t1", "t1"}, integer(0), {}},
        {{"SINTER", "t1", "t2"}, ANY_REPLY, {}},
    });
}

TEST_P(KeyspaceEvents, SortedSets) {
    expectEvents({
        {{"ZADD", "z", "1", "a", "2", "b", "3", "c"}, integer(3), {"zadd z"}},
        {{"ZADD", "z", "1", "a"}, integer(0), {}}, /* same score: no change */
        {{"ZADD", "z", "NX", "5", "a"}, integer(0), {}},
        {{"ZADD", "z", "XX", "5", "a"}, integer(0), {"zadd z"}}, /* updated */
        {{"ZADD", "z", "INCR", "1", "a"}, bulk("6"), {"zincr z"}},
        {{"ZADD", "z", "XX", "INCR", "1", "nope"}, NIL, {}},
        {{"ZADD", "z", "CH", "1", "a"}, integer(1), {"zadd z"}},
        {{"ZINCRBY", "z", "1", "b"}, bulk("3"), {"zincr z"}},
        {{"ZINCRBY", "z2", "1", "b"}, bulk("1"), {"zincr z2"}},
        {{"ZREM", "z", "nope"}, integer(0), {}},
        {{"ZREM", "z", "a"}, integer(1), {"zrem z"}},
        {{"ZADD", "z", "1", "a", "4", "d", "5", "e"}, integer(3), {"zadd z"}},
        {{"ZREMRANGEBYSCORE", "z", "100", "200"}, integer(0), {}},
        {{"ZREMRANGEBYSCORE", "z", "1", "1"}, integer(1), {"zremrangebyscore z"}},
        {{"ZREMRANGEBYRANK", "z", "0", "0"}, integer(1), {"zremrangebyrank z"}},
        {{"ZREMRANGEBYLEX", "z", "-", "[c"}, integer(1), {"zremrangebylex z"}},
        {{"ZPOPMIN", "z"}, bulks({"d", "4"}), {"zpopmin z"}},
        {{"ZPOPMAX", "z", "0"}, EMPTY_ARRAY, {}},
        {{"ZPOPMAX", "z", "10"}, bulks({"e", "5"}), {"zpopmax z", "del z"}},
        {{"ZPOPMIN", "z"}, EMPTY_ARRAY, {}},
        {{"ZADD", "a1", "1", "x", "2", "y"}, integer(2), {"zadd a1"}},
        {{"ZADD", "a2", "1", "y", "2", "z"}, integer(2), {"zadd a2"}},
        {{"ZUNIONSTORE", "u", "2", "a1", "a2"}, integer(3), {"zunionstore u"}},
        {{"ZINTERSTORE", "u", "2", "a1", "a2"}, integer(1), {"zinterstore u"}},
        {{"ZDIFFSTORE", "u", "2", "a1", "a2"}, integer(1), {"zdiffstore u"}},
        {{"ZINTERSTORE", "u", "2", "a1", "nokey"}, integer(0), {"del u"}},
        {{"ZINTERSTORE", "u", "2", "a1", "nokey"}, integer(0), {}},
        {{"ZRANGESTORE", "r", "a1", "0", "-1"}, integer(2), {"zrangestore r"}},
        {{"ZRANGESTORE", "r", "a1", "5", "6"}, integer(0), {"del r"}},
        {{"ZRANGESTORE", "r2", "a1", "5", "6"}, integer(0), {}},
        {{"ZMPOP", "1", "a1", "MIN"}, array({bulk("a1"), array({bulks({"x", "1"})})}), {"zpopmin a1"}},
        {{"ZMPOP", "2", "a1", "a2", "MAX", "COUNT", "10"}, array({bulk("a1"), array({bulks({"y", "2"})})}),
         {"zpopmax a1", "del a1"}},
        {{"BZPOPMIN", "a2", "0"}, bulks({"a2", "y", "1"}), {"zpopmin a2"}},
        {{"BZMPOP", "0", "1", "a2", "MAX"}, array({bulk("a2"), array({bulks({"z", "2"})})}), {"zpopmax a2", "del a2"}},
        {{"ZRANGE", "r", "0", "-1"}, EMPTY_ARRAY, {}},
    });
}

TEST_P(KeyspaceEvents, Generic) {
    expectEvents({
        {{"SET", "k", "v"}, OK, {"set k"}},
        {{"SET", "k2", "v"}, OK, {"set k2"}},
        {{"DEL", "k", "k2", "nokey"}, integer(2), {"del k", "del k2"}},
        {{"UNLINK", "nokey"}, integer(0), {}},
        {{"SET", "k", "v"}, OK, {"set k"}},
        {{"UNLINK", "k"}, integer(1), {"del k"}},
        {{"SET", "k", "v"}, OK, {"set k"}},
        {{"EXPIRE", "k", "100"}, integer(1), {"expire k"}},
        {{"EXPIRE", "k", "100", "NX"}, integer(0), {}},
        {{"PEXPIRE", "k", "100000", "XX"}, integer(1), {"expire k"}},
        {{"EXPIREAT", "k", "99999999999"}, integer(1), {"expire k"}},
        {{"PEXPIREAT", "k", "99999999999999"}, integer(1), {"expire k"}},
        {{"PERSIST", "k"}, integer(1), {"persist k"}},
        {{"PERSIST", "k"}, integer(0), {}},
        {{"EXPIRE", "nokey", "10"}, integer(0), {}},
        {{"RENAME", "k", "k2"}, OK, {"rename_from k", "rename_to k2"}},
        {{"RENAME", "k2", "k2"}, OK, {}},
        {{"SET", "k", "v"}, OK, {"set k"}},
        {{"RENAME", "k", "k2"}, OK, {"rename_from k", "rename_to k2"}}, /* over an existing k2 */
        {{"RENAMENX", "k2", "k"}, integer(1), {"rename_from k2", "rename_to k"}},
        {{"SET", "k2", "x"}, OK, {"set k2"}},
        {{"RENAMENX", "k", "k2"}, integer(0), {}},
        {{"RENAME", "nokey", "x"}, NO_KEY, {}},
        {{"MOVE", "k", "3"}, integer(1), {"move_from k", "move_to k@3"}},
        {{"SET", "k", "v"}, OK, {"set k"}},
        {{"MOVE", "k", "3"}, integer(0), {}},
        {{"COPY", "k", "k5"}, integer(1), {"copy_to k5"}},
        {{"COPY", "k", "k5"}, integer(0), {}},
        {{"COPY", "k", "k5", "REPLACE"}, integer(1), {"copy_to k5"}},
        {{"COPY", "k", "k6", "DB", "4"}, integer(1), {"copy_to k6@4"}},
        {{"EXPIRE", "k", "0"}, integer(1), {"del k"}}, /* a deadline already past deletes */
        {{"SET", "k", "v"}, OK, {"set k"}},
        {{"PEXPIRE", "k", "-5"}, integer(1), {"del k"}},
        {{"SET", "k", "v"}, OK, {"set k"}},
        {{"EXPIREAT", "k", "1"}, integer(1), {"del k"}},
        {{"FLUSHDB"}, OK, {}},
        {{"SET", "f", "v"}, OK, {"set f"}},
        {{"FLUSHALL"}, OK, {}},
    });
}

/* ========================================================================
 * The letters that are not in "A": n (new keys) and m (key misses)
 * ====================================================================== */

TEST_P(KeyspaceEvents, NewKeysOnlyWithN) {
    setFlags("KEAn");
    expectEvents({
        {{"SET", "s", "v"}, OK, {"new s", "set s"}},
        {{"SET", "s", "w"}, OK, {"set s"}},
        {{"INCR", "n"}, integer(1), {"new n", "incrby n"}},
        {{"APPEND", "ap", "x"}, integer(1), {"new ap", "append ap"}},
        {{"SETRANGE", "sr", "1", "x"}, integer(2), {"new sr", "setrange sr"}},
        {{"INCRBYFLOAT", "f", "1"}, bulk("1"), {"new f", "incrbyfloat f"}},
        {{"RPUSH", "src", "a", "b"}, integer(2), {"new src", "rpush src"}},
        {{"RPOPLPUSH", "src", "dst"}, bulk("b"), {"new dst", "lpush dst", "rpop src"}},
        {{"HSET", "h", "f", "v"}, integer(1), {"new h", "hset h"}},
        {{"HINCRBY", "h2", "f", "1"}, integer(1), {"new h2", "hincrby h2"}},
        {{"SADD", "t", "a", "b"}, integer(2), {"new t", "sadd t"}},
        {{"SMOVE", "t", "t2", "a"}, integer(1), {"srem t", "new t2", "sadd t2"}},
        {{"SINTERSTORE", "t3", "t", "t"}, integer(1), {"new t3", "sinterstore t3"}},
        {{"SINTERSTORE", "t3", "t", "t"}, integer(1), {"sinterstore t3"}}, /* overwritten: not new */
        {{"ZADD", "z", "1", "a"}, integer(1), {"new z", "zadd z"}},
        {{"ZINCRBY", "z2", "1", "a"}, bulk("1"), {"new z2", "zincr z2"}},
        {{"ZUNIONSTORE", "z3", "1", "z"}, integer(1), {"new z3", "zunionstore z3"}},
        {{"ZRANGESTORE", "z4", "z", "0", "-1"}, integer(1), {"new z4", "zrangestore z4"}},
        {{"RENAME", "s", "s2"}, OK, {"new s2", "rename_from s", "rename_to s2"}},
        {{"RENAME", "n", "s2"}, OK, {"new s2", "rename_from n", "rename_to s2"}}, /* replaced: new again */
        {{"MOVE", "s2", "3"}, integer(1), {"new s2@3", "move_from s2", "move_to s2@3"}},
        {{"COPY", "h", "h3"}, integer(1), {"new h3", "copy_to h3"}},
        {{"COPY", "h", "h3", "REPLACE"}, integer(1), {"new h3", "copy_to h3"}},
    });
    setFlags("Kn"); /* alone: new keys, nothing else */
    EXPECT_EQ(call({"SET", "only", "v"}), OK);
    EXPECT_EQ(rawEvents(), Events({"K new only"}));
}

TEST_P(KeyspaceEvents, KeyMissesOnlyWithM) {
    EXPECT_EQ(call({"GET", "nokey"}), NIL);
    EXPECT_EQ(events(), Events{}); /* not in A */
    setFlags("KEm");
    expectEvents({
        {{"GET", "nokey"}, NIL, {"keymiss nokey"}},
        {{"MGET", "nokey", "k2"}, array({NIL, NIL}), {"keymiss nokey", "keymiss k2"}},
        {{"EXISTS", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"TYPE", "nokey"}, "+none\r\n", {"keymiss nokey"}},
        {{"TTL", "nokey"}, integer(-2), {"keymiss nokey"}},
        {{"STRLEN", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"GETRANGE", "nokey", "0", "1"}, bulk(""), {"keymiss nokey"}},
        {{"SET", "k", "v", "GET"}, NIL, {"keymiss k"}},
        {{"GETSET", "k2", "v"}, NIL, {"keymiss k2"}},
        {{"GETDEL", "nokey"}, NIL, {"keymiss nokey"}},
        {{"LLEN", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"LRANGE", "nokey", "0", "-1"}, EMPTY_ARRAY, {"keymiss nokey"}},
        {{"LINDEX", "nokey", "0"}, NIL, {"keymiss nokey"}},
        {{"LPOS", "nokey", "a"}, NIL, {"keymiss nokey"}},
        {{"HGET", "nokey", "f"}, NIL, {"keymiss nokey"}},
        {{"HGETALL", "nokey"}, EMPTY_ARRAY, {"keymiss nokey"}},
        {{"HMGET", "nokey", "a"}, array({NIL}), {"keymiss nokey"}},
        {{"HLEN", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"HRANDFIELD", "nokey"}, NIL, {"keymiss nokey"}},
        {{"HSCAN", "nokey", "0"}, EMPTY_SCAN, {"keymiss nokey"}},
        {{"SISMEMBER", "nokey", "a"}, integer(0), {"keymiss nokey"}},
        {{"SMEMBERS", "nokey"}, EMPTY_ARRAY, {"keymiss nokey"}},
        {{"SRANDMEMBER", "nokey", "2"}, EMPTY_ARRAY, {"keymiss nokey"}},
        {{"SINTERCARD", "1", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"SUNIONSTORE", "d", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"ZSCORE", "nokey", "a"}, NIL, {"keymiss nokey"}},
        {{"ZCARD", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"ZRANGE", "nokey", "0", "-1"}, EMPTY_ARRAY, {"keymiss nokey"}},
        {{"ZUNIONSTORE", "d", "1", "nokey"}, integer(0), {"keymiss nokey"}},
        {{"ZRANGESTORE", "d", "nokey", "0", "-1"}, integer(0), {"keymiss nokey"}},
        {{"COPY", "nokey", "x"}, integer(0), {"keymiss nokey"}},
        /* Writes look up without counting a miss. */
        {{"LPOP", "nokey"}, NIL, {}},
        {{"SPOP", "nokey"}, NIL, {}},
        {{"ZPOPMIN", "nokey"}, EMPTY_ARRAY, {}},
        {{"RPOPLPUSH", "nokey", "x"}, NIL, {}},
        {{"SMOVE", "nokey", "x", "a"}, integer(0), {}},
        {{"PERSIST", "nokey"}, integer(0), {}},
        {{"DEL", "nokey"}, integer(0), {}},
        {{"OBJECT", "ENCODING", "nokey"}, NIL, {}},
    });
}

/* ========================================================================
 * Expirations and served blocking pops
 * ====================================================================== */

TEST_P(KeyspaceEvents, LazyExpirationOnAccess) {
    setFlags("KEAm");
    const std::vector<std::pair<Args, Events>> accesses{
        {{"GET", "e"}, {"expired e", "keymiss e"}},
        {{"EXISTS", "e"}, {"expired e", "keymiss e"}},
        {{"TTL", "e"}, {"expired e", "keymiss e"}},
        {{"DEL", "e"}, {"expired e"}},
        {{"LPUSH", "e", "x"}, {"expired e", "lpush e"}},
        {{"SET", "e", "w"}, {"expired e", "set e"}},
    };
    ASSERT_EQ(call({"CONFIG", "SET", "hz", "1"}), OK); /* the active cycle seldom runs first */
    for (const auto &[cmd, expected] : accesses) {
        /* Should serverCron's cycle expire the key before the command, the
         * marker shows it: then again. (If it runs between the marker and
         * the command, the events are the same as the command's.) */
        for (int attempt = 0;; attempt++) {
            ASSERT_LT(attempt, 10);
            call({"DEL", "e"});
            EXPECT_EQ(call({"SET", "e", "v", "PX", "1"}), OK);
            events(); /* the DEL's (if e was left) and the SET's */
            waitMs(3);
            if (events().empty()) break;
        }
        call(cmd);
        EXPECT_EQ(events(), expected) << describe(cmd);
    }
    EXPECT_EQ(call({"CONFIG", "SET", "hz", "10"}), OK); /* so that SIGTERM's shutdown is not a second late */
}

TEST_P(KeyspaceEvents, ActiveExpirationOfUntouchedKeys) {
    EXPECT_EQ(call({"CONFIG", "SET", "hz", "100"}), OK);
    EXPECT_EQ(call({"SET", "e1", "v", "PX", "20"}), OK);
    EXPECT_EQ(call({"HSET", "e2", "f", "v"}), integer(1));
    EXPECT_EQ(call({"PEXPIRE", "e2", "20"}), integer(1));
    EXPECT_EQ(events(), Events({"set e1", "expire e1", "hset e2", "expire e2"}));
    /* Nobody touches them: serverCron's cycle expires them on its own. */
    std::vector<std::string> expired;
    for (int i = 0; i < 4; i++) {
        Reply r = sub->readReply();
        ASSERT_EQ(r.elements.size(), 4u) << r;
        expired.push_back(r.elements[2].str + " " + r.elements[3].str);
    }
    std::sort(expired.begin(), expired.end());
    EXPECT_EQ(expired, Events({"__keyevent@9__:expired e1", "__keyevent@9__:expired e2",
                               "__keyspace@9__:e1 expired", "__keyspace@9__:e2 expired"}));
    EXPECT_EQ(call({"DBSIZE"}), integer(0));
}

TEST_P(KeyspaceEvents, ServedBlockingPopsNotifyTheirPops) {
    RespConn w = srv->connect(), w2 = srv->connect();
    block(w, {"BLPOP", "q", "0"}, 1);
    EXPECT_EQ(call({"LPUSH", "q", "a", "b"}), integer(2));
    EXPECT_EQ(w.readReply().raw, bulks({"q", "b"}));
    EXPECT_EQ(events(), Events({"lpush q", "lpop q"}));

    block(w, {"BRPOP", "q1", "0"}, 1);
    EXPECT_EQ(call({"RPUSH", "q1", "a"}), integer(1));
    EXPECT_EQ(w.readReply().raw, bulks({"q1", "a"}));
    EXPECT_EQ(events(), Events({"rpush q1", "rpop q1", "del q1"}));

    block(w, {"BLMOVE", "q2", "d2", "LEFT", "RIGHT", "0"}, 1);
    EXPECT_EQ(call({"RPUSH", "q2", "a"}), integer(1));
    EXPECT_EQ(w.readReply().raw, bulk("a"));
    EXPECT_EQ(events(), Events({"rpush q2", "rpush d2", "lpop q2", "del q2"}));

    /* The chained wake: BRPOPLPUSH's push serves a waiter of its target. */
    block(w, {"BRPOPLPUSH", "q3", "q3b", "0"}, 1);
    block(w2, {"BLPOP", "q3b", "0"}, 2);
    EXPECT_EQ(call({"RPUSH", "q3", "a"}), integer(1));
    EXPECT_EQ(w.readReply().raw, bulk("a"));
    EXPECT_EQ(w2.readReply().raw, bulks({"q3b", "a"}));
    EXPECT_EQ(events(), Events({"rpush q3", "lpush q3b", "rpop q3", "del q3", "lpop q3b", "del q3b"}));

    block(w, {"BLMPOP", "0", "1", "q4", "RIGHT", "COUNT", "5"}, 1);
    EXPECT_EQ(call({"RPUSH", "q4", "a", "b"}), integer(2));
    EXPECT_EQ(w.readReply().raw, array({bulk("q4"), bulks({"b", "a"})}));
    EXPECT_EQ(events(), Events({"rpush q4", "rpop q4", "del q4"}));

    block(w, {"BZPOPMIN", "z", "0"}, 1);
    EXPECT_EQ(call({"ZADD", "z", "1", "a", "2", "b"}), integer(2));
    EXPECT_EQ(w.readReply().raw, bulks({"z", "a", "1"}));
    EXPECT_EQ(events(), Events({"zadd z", "zpopmin z"}));

    block(w, {"BZMPOP", "0", "1", "z4", "MAX", "COUNT", "5"}, 1);
    EXPECT_EQ(call({"ZADD", "z4", "1", "a"}), integer(1));
    EXPECT_EQ(w.readReply().raw, array({bulk("z4"), array({bulks({"a", "1"})})}));
    EXPECT_EQ(events(), Events({"zadd z4", "zpopmax z4", "del z4"}));

    /* Served after EXEC, once the transaction's events are out. */
    block(w, {"BLPOP", "m", "0"}, 1);
    EXPECT_EQ(call({"MULTI"}), OK);
    EXPECT_EQ(call({"LPUSH", "m", "x", "y"}), QUEUED);
    EXPECT_EQ(call({"LPUSH", "m", "z"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), array({integer(2), integer(3)}));
    EXPECT_EQ(w.readReply().raw, bulks({"m", "z"}));
    EXPECT_EQ(events(), Events({"lpush m", "lpush m", "lpop m"}));
}

/* ========================================================================
 * What each letter selects, and the config
 * ====================================================================== */

TEST_P(KeyspaceEvents, LettersSelectClassesAndChannels) {
    struct Case {
        std::string flags;
        Events expected;
    };
    /* One command of each class, then DEL (generic) of all. */
    const std::vector<Args> cmds{{"SET", "s", "v"},       {"RPUSH", "l", "a"},     {"SADD", "t", "a"},
                                 {"HSET", "h", "f", "v"}, {"ZADD", "z", "1", "a"}, {"DEL", "s", "l", "t", "h", "z"}};
    const std::vector<Case> cases{
        {"", {}},
        {"A", {}},  /* classes but no channel */
        {"KE", {}}, /* channels but no class */
        {"K$", {"K set s"}},
        {"El", {"E rpush l"}},
        {"Ks", {"K sadd t"}},
        {"Eh", {"E hset h"}},
        {"Kz", {"K zadd z"}},
        {"Kg", {"K del s", "K del l", "K del t", "K del h", "K del z"}},
        {"K$lg", {"K set s", "K rpush l", "K del s", "K del l", "K del t", "K del h", "K del z"}},
        {"KA", {"K set s", "K rpush l", "K sadd t", "K hset h", "K zadd z", "K del s", "K del l", "K del t",
                "K del h", "K del z"}},
        {"Ex", {}},
        {"KEt", {}},
    };
    for (const Case &k : cases) {
        setFlags(k.flags);
        for (const Args &cmd : cmds) call(cmd);
        EXPECT_EQ(rawEvents(), k.expected) << "flags " << k.flags;
    }
}

TEST_P(KeyspaceEvents, ConfigParsesAndPrintsTheLetters) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"A", "A"},       {"KEA", "AKE"},   {"KA", "AK"},      {"Kg", "gK"},       {"Eg", "gE"},
        {"g$lshzxetd", "A"}, {"g$lshzxetdn", "A"}, /* Redis drops n next to A */
        {"KEAmn", "AKEm"}, {"Kn", "nK"},    {"KEn", "nKE"},   {"m", "m"},         {"Em", "Em"},
        {"mK", "Km"},     {"AAg", "A"},     {"KEd", "dKE"},   {"Kt", "tK"},       {"dte", "etd"},
        {"ndte", "etdn"}, {"x$g", "g$x"},   {"Exn", "xnE"},   {"", ""},
    };
    for (const auto &[in, out] : cases) {
        EXPECT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", in}), OK) << in;
        EXPECT_EQ(call({"CONFIG", "GET", "notify-keyspace-events"}),
                  array({bulk("notify-keyspace-events"), bulk(out)}))
            << in;
    }
    EXPECT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", "KEA"}), OK);
    for (const std::string bad : {"Q", "KEQ", "a", "k", " "})
        EXPECT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", bad}),
                  err("ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid "
                      "event class character. Use 'Ag$lshzxeKEtmdn'."))
            << bad;
    EXPECT_EQ(call({"CONFIG", "GET", "notify-keyspace-events"}), array({bulk("notify-keyspace-events"), bulk("AKE")}));
}

INSTANTIATE_TEST_SUITE_P(Servers, KeyspaceEvents, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* The config file and command line (cppredis only: Redis's fatal message
 * names its own version). */
TEST(KeyspaceEventsConfig, FromTheCommandLine) {
    TestServer srv({"--notify-keyspace-events", "KEl"});
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"CONFIG", "GET", "notify-keyspace-events"}).elements.at(1).str, "lKE");
    ProcessResult bad = runProcess({CPPREDIS_SERVER_BIN, "--port", "0", "--notify-keyspace-events", "KQ"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("Invalid event class character. Use 'Ag$lshzxeKEtmdn'."), std::string::npos) << bad.err;
}

}  // namespace
