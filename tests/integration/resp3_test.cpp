/* resp3_test.cpp — integration tests of RESP3 as a connection speaks it
 * (issue 20): HELLO (protocol 2 or 3, AUTH, SETNAME, its errors, the map it
 * replies), pub/sub confirmations and messages as push frames (">") on a
 * connection that keeps running ordinary commands, RESP2 and RESP3
 * subscribers of one channel side by side, keyspace notifications as
 * pushes, and Lua's redis.setresp() with the RESP3 <-> Lua conversions, from
 * RESP2 and RESP3 callers; then a real RESP3 client, node-redis 5
 * (tests/clients/resp3_node_redis.mjs), against cppredis. Debian's
 * python3-redis (4.3.4) has no protocol=3 (RESP3 came with redis-py 5), so
 * redis-py is not used here.
 *
 * The scenarios run twice, against cppredis and against Debian's Redis
 * 7.0.15 (skipped if it is missing), with the same expected bytes, so every
 * expectation is Redis 7.0's behaviour. Nothing sleeps: the tests wait for
 * replies (a push sent before a reply is read before it) or for EOF. */
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"
#include "integration/subprocess.h"

using namespace itest;

namespace {

/* A push frame of already-encoded elements. */
std::string push(const std::vector<std::string> &items) {
    std::string out = ">" + std::to_string(items.size()) + "\r\n";
    for (const std::string &item : items) out += item;
    return out;
}
std::string pushConfirmation(const std::string &kind, const std::string &name, long long count) {
    return push({bulk(kind), bulk(name), integer(count)});
}
const std::string NULL3 = "_\r\n";

/* HELLO's reply: a map under RESP3, the same pairs flat under RESP2. */
std::string helloReply(int resp, long long id, const std::string &role = "master") {
    std::vector<std::string> pairs{bulk("server"), bulk("redis"),      bulk("version"), bulk("7.0.15"),
                                   bulk("proto"),  integer(resp),      bulk("id"),      integer(id),
                                   bulk("mode"),   bulk("standalone"), bulk("role"),    bulk(role),
                                   bulk("modules"), EMPTY_ARRAY};
    if (resp == 2) return array(pairs);
    std::string out = "%7\r\n";
    for (const std::string &p : pairs) out += p;
    return out;
}

class Resp3 : public EitherServerTest {
protected:
    /* A connection switched to RESP3 (HELLO's reply checked). */
    RespConn resp3Conn() {
        RespConn r = srv->connect();
        long long id = r.call({"CLIENT", "ID"}).integer;
        EXPECT_EQ(r.call({"HELLO", "3"}).raw, helloReply(3, id));
        return r;
    }
};

/* ========================================================================
 * HELLO
 * ====================================================================== */

TEST_P(Resp3, HelloSwitchesTheProtocolAndRepliesAMap) {
    long long id = c->call({"CLIENT", "ID"}).integer;
    EXPECT_EQ(call({"HELLO"}), helloReply(2, id));
    EXPECT_EQ(call({"OBJECT", "ENCODING", "nokey"}), NIL);
    EXPECT_EQ(call({"HELLO", "3"}), helloReply(3, id));
    EXPECT_EQ(call({"OBJECT", "ENCODING", "nokey"}), NULL3);
    /* Without a version: the current protocol stays. */
    EXPECT_EQ(call({"HELLO"}), helloReply(3, id));
    EXPECT_EQ(call({"HELLO", "2"}), helloReply(2, id));
    EXPECT_EQ(call({"OBJECT", "ENCODING", "nokey"}), NIL);
}

TEST_P(Resp3, HelloRefusesOtherVersionsAndBadOptionsWithoutSwitching) {
    long long id = c->call({"CLIENT", "ID"}).integer;
    const std::string noproto = err("NOPROTO unsupported protocol version");
    EXPECT_EQ(call({"HELLO", "1"}), noproto);
    EXPECT_EQ(call({"HELLO", "4"}), noproto);
    EXPECT_EQ(call({"HELLO", "-1"}), noproto);
    EXPECT_EQ(call({"HELLO", "three"}), err("ERR Protocol version is not an integer or out of range"));
    EXPECT_EQ(call({"HELLO", "3", "FOO"}), err("ERR Syntax error in HELLO option 'FOO'"));
    EXPECT_EQ(call({"HELLO", "3", "AUTH", "default"}), err("ERR Syntax error in HELLO option 'AUTH'"));
    EXPECT_EQ(call({"HELLO", "3", "SETNAME"}), err("ERR Syntax error in HELLO option 'SETNAME'"));
    EXPECT_EQ(call({"HELLO", "3", "SETNAME", "a b"}),
              err("ERR Client names cannot contain spaces, newlines or special characters."));
    /* Every refusal left RESP2 in place. */
    EXPECT_EQ(call({"OBJECT", "ENCODING", "nokey"}), NIL);
    EXPECT_EQ(call({"HELLO", "3", "setname", "conn1"}), helloReply(3, id));
    EXPECT_EQ(call({"CLIENT", "GETNAME"}), bulk("conn1"));
}

TEST_P(Resp3, HelloAuthenticatesBeforeSwitching) {
    EXPECT_EQ(call({"CONFIG", "SET", "requirepass", "secret"}), OK);
    RespConn r = srv->connect();
    EXPECT_EQ(r.call({"HELLO", "3"}).raw,
              err("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO AUTH "
                  "<user> <pass> option can be used to authenticate the client and select the RESP protocol "
                  "version at the same time"));
    EXPECT_EQ(r.call({"HELLO", "3", "AUTH", "default", "wrong"}).raw,
              err("WRONGPASS invalid username-password pair or user is disabled."));
    EXPECT_EQ(r.call({"GET", "k"}).raw, err("NOAUTH Authentication required."));
    Reply hello = r.call({"HELLO", "3", "AUTH", "default", "secret", "SETNAME", "authed"});
    ASSERT_EQ(hello.type, Reply::Type::Map) << hello;
    long long rid = r.call({"CLIENT", "ID"}).integer;
    EXPECT_EQ(hello.raw, helloReply(3, rid));
    EXPECT_EQ(r.call({"OBJECT", "ENCODING", "nokey"}).raw, NULL3);
    EXPECT_EQ(r.call({"CLIENT", "GETNAME"}).raw, bulk("authed"));
}

TEST_P(Resp3, HelloOnAReplicaSaysReplica) {
    RespConn r = srv->connect();
    long long id = r.call({"CLIENT", "ID"}).integer;
    /* A master nobody listens on: the role changes at once, linked or not. */
    EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", std::to_string(pickFreePort())}).raw, OK);
    EXPECT_EQ(r.call({"HELLO", "3"}).raw, helloReply(3, id, "replica"));
    EXPECT_EQ(r.call({"REPLICAOF", "NO", "ONE"}).raw, OK);
    EXPECT_EQ(r.call({"HELLO"}).raw, helloReply(3, id));
}

/* ========================================================================
 * Pub/sub as push frames
 * ====================================================================== */

TEST_P(Resp3, ConfirmationsAndMessagesArePushesBesideOrdinaryReplies) {
    RespConn s = resp3Conn();
    s.cmd({"SUBSCRIBE", "c1", "c2"});
    EXPECT_EQ(s.readReply().raw, pushConfirmation("subscribe", "c1", 1));
    EXPECT_EQ(s.readReply().raw, pushConfirmation("subscribe", "c2", 2));
    EXPECT_EQ(s.call({"PSUBSCRIBE", "p*"}).raw, pushConfirmation("psubscribe", "p*", 3));
    EXPECT_EQ(s.call({"SSUBSCRIBE", "s1"}).raw, pushConfirmation("ssubscribe", "s1", 1));
    /* Any command runs on a RESP3 subscriber, with its usual reply. */
    EXPECT_EQ(s.call({"SET", "k", "v"}).raw, OK);
    EXPECT_EQ(s.call({"GET", "k"}).raw, bulk("v"));
    EXPECT_EQ(s.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(s.call({"PUBSUB", "NUMSUB", "c1"}).raw, array({bulk("c1"), integer(1)}));

    EXPECT_EQ(call({"PUBLISH", "c1", "m1"}), integer(1));
    EXPECT_EQ(s.readReply().raw, push({bulk("message"), bulk("c1"), bulk("m1")}));
    EXPECT_EQ(call({"PUBLISH", "px", "m2"}), integer(1));
    EXPECT_EQ(s.readReply().raw, push({bulk("pmessage"), bulk("p*"), bulk("px"), bulk("m2")}));
    EXPECT_EQ(call({"SPUBLISH", "s1", "m3"}), integer(1));
    EXPECT_EQ(s.readReply().raw, push({bulk("smessage"), bulk("s1"), bulk("m3")}));

    /* Publishing to itself: the message is pushed before PUBLISH's reply. */
    s.cmd({"PUBLISH", "c2", "self"});
    EXPECT_EQ(s.readReply().raw, push({bulk("message"), bulk("c2"), bulk("self")}));
    EXPECT_EQ(s.readReply().raw, integer(1));

    EXPECT_EQ(s.call({"UNSUBSCRIBE", "c1"}).raw, pushConfirmation("unsubscribe", "c1", 2));
    EXPECT_EQ(s.call({"UNSUBSCRIBE", "c2"}).raw, pushConfirmation("unsubscribe", "c2", 1));
    EXPECT_EQ(s.call({"UNSUBSCRIBE"}).raw, push({bulk("unsubscribe"), NULL3, integer(1)}));
    EXPECT_EQ(s.call({"PUNSUBSCRIBE"}).raw, pushConfirmation("punsubscribe", "p*", 0));
    EXPECT_EQ(s.call({"PUNSUBSCRIBE"}).raw, push({bulk("punsubscribe"), NULL3, integer(0)}));
    EXPECT_EQ(s.call({"SUNSUBSCRIBE"}).raw, pushConfirmation("sunsubscribe", "s1", 0));
    EXPECT_EQ(s.call({"SUNSUBSCRIBE"}).raw, push({bulk("sunsubscribe"), NULL3, integer(0)}));
    EXPECT_EQ(s.call({"OBJECT", "ENCODING", "nokey"}).raw, NULL3);
}

/* Inside EXEC's array as Redis writes them: each push in its place, and a
 * message published to itself before PUBLISH's own element. */
TEST_P(Resp3, PushesInsideExec) {
    RespConn s = resp3Conn();
    EXPECT_EQ(s.call({"MULTI"}).raw, OK);
    EXPECT_EQ(s.call({"SUBSCRIBE", "x"}).raw, QUEUED);
    EXPECT_EQ(s.call({"SSUBSCRIBE", "y"}).raw, QUEUED);
    EXPECT_EQ(s.call({"PUBLISH", "x", "m"}).raw, QUEUED);
    s.cmd({"EXEC"});
    EXPECT_EQ(s.readLine(), "*3");
    EXPECT_EQ(s.readReply().raw, pushConfirmation("subscribe", "x", 1));
    EXPECT_EQ(s.readReply().raw, err("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client"));
    EXPECT_EQ(s.readReply().raw, push({bulk("message"), bulk("x"), bulk("m")}));
    EXPECT_EQ(s.readReply().raw, integer(1));
    EXPECT_EQ(s.call({"PING"}).raw, "+PONG\r\n");
}

/* One PUBLISH, each subscriber in its own protocol. */
TEST_P(Resp3, Resp2AndResp3SubscribersOfOneChannel) {
    RespConn v3 = resp3Conn();
    RespConn v2 = srv->connect();
    EXPECT_EQ(v3.call({"SUBSCRIBE", "news"}).raw, pushConfirmation("subscribe", "news", 1));
    EXPECT_EQ(v2.call({"SUBSCRIBE", "news"}).raw, array({bulk("subscribe"), bulk("news"), integer(1)}));
    EXPECT_EQ(v3.call({"SSUBSCRIBE", "news"}).raw, pushConfirmation("ssubscribe", "news", 1));
    RespConn publisher = srv->connect();
    for (int i = 0; i < 20; i++) {
        std::string payload = "m" + std::to_string(i);
        EXPECT_EQ(publisher.call({"PUBLISH", "news", payload}).raw, integer(2));
        EXPECT_EQ(publisher.call({"SPUBLISH", "news", payload}).raw, integer(1));
    }
    for (int i = 0; i < 20; i++) {
        std::string payload = "m" + std::to_string(i);
        EXPECT_EQ(v3.readReply().raw, push({bulk("message"), bulk("news"), bulk(payload)}));
        EXPECT_EQ(v3.readReply().raw, push({bulk("smessage"), bulk("news"), bulk(payload)}));
        EXPECT_EQ(v2.readReply().raw, bulks({"message", "news", payload}));
    }
    /* The RESP2 subscriber stays restricted. */
    EXPECT_EQ(v2.call({"GET", "k"}).raw,
              err("ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are "
                  "allowed in this context"));
}

TEST_P(Resp3, KeyspaceNotificationsArePushes) {
    EXPECT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", "KEA"}), OK);
    RespConn s = resp3Conn();
    EXPECT_EQ(s.call({"SUBSCRIBE", "__keyspace@0__:k"}).raw, pushConfirmation("subscribe", "__keyspace@0__:k", 1));
    EXPECT_EQ(s.call({"PSUBSCRIBE", "__keyevent@0__:*"}).raw,
              pushConfirmation("psubscribe", "__keyevent@0__:*", 2));
    /* Its own write: the notifications come before SET's reply. */
    s.cmd({"SET", "k", "v"});
    EXPECT_EQ(s.readReply().raw, push({bulk("message"), bulk("__keyspace@0__:k"), bulk("set")}));
    EXPECT_EQ(s.readReply().raw,
              push({bulk("pmessage"), bulk("__keyevent@0__:*"), bulk("__keyevent@0__:set"), bulk("k")}));
    EXPECT_EQ(s.readReply().raw, OK);
    EXPECT_EQ(call({"DEL", "k"}), integer(1));
    EXPECT_EQ(s.readReply().raw, push({bulk("message"), bulk("__keyspace@0__:k"), bulk("del")}));
    EXPECT_EQ(s.readReply().raw,
              push({bulk("pmessage"), bulk("__keyevent@0__:*"), bulk("__keyevent@0__:del"), bulk("k")}));
}

/* ========================================================================
 * Lua: redis.setresp() and the conversions
 * ====================================================================== */

struct LuaCase {
    std::string script;
    std::string resp2; /* the reply to a RESP2 caller */
    std::string resp3; /* to a RESP3 caller */
};

std::string scriptErr(const std::string &msg, const std::string &sha) {
    return err("ERR " + msg + " script: " + sha + ", on @user_script:1.");
}

const std::vector<LuaCase> kLuaCases = {
    /* setresp's arguments */
    {"redis.setresp(3) return 1", integer(1), integer(1)},
    {"return redis.setresp(4)", scriptErr("RESP version must be 2 or 3.", "921c0a48021d97dfd5884aeea41875972c7804d9"),
     scriptErr("RESP version must be 2 or 3.", "921c0a48021d97dfd5884aeea41875972c7804d9")},
    {"return redis.setresp()",
     scriptErr("redis.setresp() requires one argument.", "76da64e28014e7c9ad76db33c3918c53d81a3d7e"),
     scriptErr("redis.setresp() requires one argument.", "76da64e28014e7c9ad76db33c3918c53d81a3d7e")},
    {"return redis.setresp(2,3)",
     scriptErr("redis.setresp() requires one argument.", "c5b658c92694b91eda50ad8e4db2b6932572a1ad"),
     scriptErr("redis.setresp() requires one argument.", "c5b658c92694b91eda50ad8e4db2b6932572a1ad")},
    {"return redis.setresp('3')", NIL, NULL3},
    {"return redis.setresp('x')", scriptErr("RESP version must be 2 or 3.", "832d0a243114b515e35cb3f65c28e22af06cd822"),
     scriptErr("RESP version must be 2 or 3.", "832d0a243114b515e35cb3f65c28e22af06cd822")},
    /* Lua -> RESP: booleans depend on the script's protocol */
    {"return true", integer(1), integer(1)},
    {"return false", NIL, NULL3},
    {"redis.setresp(3) return true", integer(1), "#t\r\n"},
    {"redis.setresp(3) return false", integer(0), "#f\r\n"},
    {"return nil", NIL, NULL3},
    /* the table forms, by the caller's protocol */
    {"return {double=3.5}", bulk("3.5"), ",3.5\r\n"},
    {"return {double=1/0}", bulk("inf"), ",inf\r\n"},
    {"return {double=-1/0}", bulk("-inf"), ",-inf\r\n"},
    {"return {double=0.1}", bulk("0.10000000000000001"), ",0.10000000000000001\r\n"},
    {"return {big_number='123456789012345678901234567890'}", bulk("123456789012345678901234567890"),
     "(123456789012345678901234567890\r\n"},
    {"return {big_number='12\\r\\n3'}", bulk("12  3"), "(12  3\r\n"},
    {"return {verbatim_string={format='txt',string='hello'}}", bulk("hello"), "=9\r\ntxt:hello\r\n"},
    {"return {verbatim_string={format='mkdown',string='x'}}", bulk("x"), "=5\r\nmkd:x\r\n"},
    {"return {verbatim_string={format='a',string='x'}}", bulk("x"), "=5\r\na  :x\r\n"},
    {"return {map={a=1}}", array({bulk("a"), integer(1)}), "%1\r\n" + bulk("a") + integer(1)},
    {"return {set={a=true}}", bulks({"a"}), "~1\r\n" + bulk("a")},
    {"return {map={}}", EMPTY_ARRAY, "%0\r\n"},
    {"return {set={}}", EMPTY_ARRAY, "~0\r\n"},
    {"return {map={a={set={x=true}}}}", array({bulk("a"), bulks({"x"})}), "%1\r\n" + bulk("a") + "~1\r\n" + bulk("x")},
    {"return {1,{map={k=false}},3}", array({integer(1), array({bulk("k"), NIL}), integer(3)}),
     "*3\r\n" + integer(1) + "%1\r\n" + bulk("k") + NULL3 + integer(3)},
    {"redis.setresp(3) return {map={k=false}}", array({bulk("k"), integer(0)}), "%1\r\n" + bulk("k") + "#f\r\n"},
    /* RESP -> Lua: what redis.call() gives a script in each protocol */
    {"redis.call('hset','h','f','v') redis.setresp(3) local r = redis.call('hgetall','h') "
     "return {type(r), type(r.map), r.map.f}",
     bulks({"table", "table", "v"}), bulks({"table", "table", "v"})},
    {"redis.call('hset','h','f','v') local r = redis.call('hgetall','h') return {type(r), r[1], r[2]}",
     bulks({"table", "f", "v"}), bulks({"table", "f", "v"})},
    {"redis.setresp(3) return redis.call('hgetall','h')", bulks({"f", "v"}), "%1\r\n" + bulk("f") + bulk("v")},
    {"redis.call('zadd','z','1.5','m') redis.setresp(3) local r = redis.call('zscore','z','m') "
     "return {type(r), tostring(r.double)}",
     bulks({"table", "1.5"}), bulks({"table", "1.5"})},
    {"redis.setresp(3) return redis.call('zscore','z','m')", bulk("1.5"), ",1.5\r\n"},
    {"redis.setresp(3) local r = redis.call('object','encoding','nokey') return {type(r)}", bulks({"nil"}), bulks({"nil"})},
    {"local r = redis.call('object','encoding','nokey') return {type(r)}", bulks({"boolean"}), bulks({"boolean"})},
    {"redis.setresp(3) return redis.call('object','encoding','nokey')", NIL, NULL3},
    {"redis.setresp(3) local r = redis.call('info','server') "
     "return {type(r), type(r.verbatim_string), r.verbatim_string.format}",
     bulks({"table", "table", "txt"}), bulks({"table", "table", "txt"})},
    {"redis.setresp(3) redis.setresp(2) return redis.call('hgetall','h')", bulks({"f", "v"}), bulks({"f", "v"})},
    {"redis.setresp(3) return redis.call('set','k','v')", OK, OK},
    {"redis.setresp(3) return redis.pcall('incr','h')", WRONGTYPE, WRONGTYPE},
    /* each run starts over in RESP2 */
    {"return redis.call('hgetall','h')", bulks({"f", "v"}), bulks({"f", "v"})},
};

TEST_P(Resp3, LuaSetrespAndConversionsForBothCallers) {
    RespConn v3 = resp3Conn();
    for (const LuaCase &lc : kLuaCases) {
        EXPECT_EQ(call({"EVAL", lc.script, "0"}), lc.resp2) << lc.script;
        EXPECT_EQ(v3.call({"EVAL", lc.script, "0"}).raw, lc.resp3) << lc.script;
    }
}

/* Functions run on the same conversions (FCALL). */
TEST_P(Resp3, FunctionsConvertAsScripts) {
    EXPECT_EQ(call({"FUNCTION", "LOAD",
                    "#!lua name=lib\n"
                    "redis.register_function('typed', function(keys, args)\n"
                    "  redis.setresp(3)\n"
                    "  return {map={d={double=2.5}, b=true, s={set={m=true}}}}\n"
                    "end)"}),
              bulk("lib"));
    Reply r2 = c->call({"FCALL", "typed", "0"});
    ASSERT_EQ(r2.type, Reply::Type::Array) << r2;
    EXPECT_EQ(r2.elements.size(), 6u) << r2;
    RespConn v3 = resp3Conn();
    Reply r3 = v3.call({"FCALL", "typed", "0"});
    ASSERT_EQ(r3.type, Reply::Type::Map) << r3;
    ASSERT_EQ(r3.elements.size(), 6u) << r3;
    for (size_t j = 0; j < 6; j += 2) {
        const std::string &key = r3.elements[j].str;
        const Reply &val = r3.elements[j + 1];
        if (key == "d") EXPECT_EQ(val.raw, ",2.5\r\n");
        else if (key == "b") EXPECT_EQ(val.raw, "#t\r\n");
        else if (key == "s") EXPECT_EQ(val.raw, "~1\r\n" + bulk("m"));
        else ADD_FAILURE() << "unexpected key " << key;
    }
}

INSTANTIATE_TEST_SUITE_P(Servers, Resp3, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName);

/* ========================================================================
 * A real RESP3 client
 * ====================================================================== */

/* Skipped when node-redis is not installed (npm ci --prefix tests/clients,
 * which make test runs). */
TEST(Resp3Clients, NodeRedisSpeaksResp3WithPushesAndShardedPubsub) {
    const std::filesystem::path clients = repoDir() / "tests" / "clients";
    SKIP_UNLESS_PACKAGE("npm:redis", std::filesystem::exists(clients / "node_modules" / "redis"));
    TestServer srv;
    std::string out;
    /* Bounded: a client waiting for a reply that never comes fails, not hangs. */
    int rc = runCommand("timeout 60 node " + (clients / "resp3_node_redis.mjs").string() + " " +
                            std::to_string(srv.port()),
                        &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("node-redis RESP3: typed replies and 60 pushed messages ok"), std::string::npos) << out;
}

}  // namespace
