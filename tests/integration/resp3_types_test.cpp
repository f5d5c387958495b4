/* resp3_types_test.cpp — every command family's replies over a RESP3
 * connection (HELLO 3), typed as Redis 7.0.15 types them: the null "_",
 * doubles ",", sets "~", maps "%", and the (member, score) pairs Redis 7.0
 * nests under RESP3. Each test runs on cppredis and on Redis 7.0.15
 * (EitherServerTest) and expects the same bytes on both; a few checks of
 * long replies (COMMAND INFO/DOCS, XINFO) read the parsed types instead.
 *
 * The RESP2 bytes of the same commands are the other suites' (and the
 * differential generator's) business.
 */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

namespace {

using namespace itest;

const std::string NULL3 = "_\r\n";
inline std::string dbl(std::string_view text) { return "," + std::string(text) + "\r\n"; }
inline std::string aggregate(char type, const std::vector<std::string> &items, size_t count) {
    std::string out = type + std::to_string(count) + "\r\n";
    for (const std::string &item : items) out += item;
    return out;
}
inline std::string set3(const std::vector<std::string> &items) { return aggregate('~', items, items.size()); }
/* Keys and values alternating. */
inline std::string map3(const std::vector<std::string> &kv) { return aggregate('%', kv, kv.size() / 2); }
/* A member and its score, as RESP3's two-element array. */
inline std::string scored(std::string_view member, std::string_view score) {
    return array({bulk(member), dbl(score)});
}

class Resp3Types : public EitherServerTest {
protected:
    void SetUp() override {
        EitherServerTest::SetUp();
        ASSERT_EQ(c->call({"HELLO", "3"}).type, Reply::Type::Map);
    }
    Reply reply(const Args &args) { return c->call(args); }
    /* The value under `key` of a map reply (a failure if absent). */
    static const Reply &field(const Reply &map, std::string_view key) {
        static const Reply none;
        for (size_t i = 0; i + 1 < map.elements.size(); i += 2)
            if (map.elements[i].str == key) return map.elements[i + 1];
        ADD_FAILURE() << "no field " << key << " in " << map;
        return none;
    }
};

/* ========================================================================
 * Nulls: "_" wherever RESP2 has $-1 or *-1
 * ====================================================================== */

TEST_P(Resp3Types, MissingValuesAreTheNull) {
    EXPECT_EQ(call({"RANDOMKEY"}), NULL3);
    for (const Args &cmd : std::vector<Args>{
             {"GET", "nokey"}, {"GETDEL", "nokey"}, {"GETEX", "nokey"}, {"GETSET", "k1", "v"},
             {"SET", "k2", "v", "GET"}, {"SET", "k1", "v", "NX"}, {"LPOP", "nokey"}, {"LPOP", "nokey", "2"},
             {"RPOPLPUSH", "nokey", "l"}, {"LMOVE", "nokey", "l", "LEFT", "LEFT"}, {"LINDEX", "nokey", "0"},
             {"LPOS", "nokey", "a"}, {"LMPOP", "1", "nokey", "LEFT"}, {"HGET", "nokey", "f"},
             {"HRANDFIELD", "nokey"}, {"SPOP", "nokey"}, {"SRANDMEMBER", "nokey"}, {"ZSCORE", "nokey", "a"},
             {"ZRANK", "nokey", "a"}, {"ZRANDMEMBER", "nokey"}, {"ZMPOP", "1", "nokey", "MIN"},
             {"ZADD", "z", "XX", "INCR", "1", "a"}, {"GEODIST", "nokey", "a", "b"}, {"OBJECT", "ENCODING", "nokey"},
             {"XREAD", "STREAMS", "nokey", "0"}, {"XADD", "nokey", "NOMKSTREAM", "*", "f", "v"},
             {"COMMAND", "INFO", "nosuchcommand"}, {"ACL", "GETUSER", "nosuchuser"}}) {
        std::string expected = cmd[0] == "COMMAND" ? array({NULL3}) : NULL3;
        EXPECT_EQ(call(cmd), expected) << describe(cmd);
    }
    EXPECT_EQ(call({"MGET", "nokey", "k1"}), array({NULL3, bulk("v")}));
    EXPECT_EQ(call({"HMGET", "nokey", "f"}), array({NULL3}));
    EXPECT_EQ(call({"ZMSCORE", "nokey", "a"}), array({NULL3}));
    EXPECT_EQ(call({"GEOPOS", "nokey", "a"}), array({NULL3}));
    EXPECT_EQ(call({"EVAL", "return redis.call('get', 'nokey')", "0"}), NULL3);
    EXPECT_EQ(call({"BITFIELD", "bf", "OVERFLOW", "FAIL", "INCRBY", "u2", "0", "10"}), array({NULL3}));
}

TEST_P(Resp3Types, TimeoutsAndAbortedTransactionsAreTheNull) {
    for (const Args &cmd : std::vector<Args>{{"BLPOP", "nokey", "0.01"},
                                             {"BRPOPLPUSH", "nokey", "l", "0.01"},
                                             {"BLMOVE", "nokey", "l", "LEFT", "LEFT", "0.01"},
                                             {"BLMPOP", "0.01", "1", "nokey", "LEFT"},
                                             {"BZPOPMIN", "nokey", "0.01"},
                                             {"BZMPOP", "0.01", "1", "nokey", "MIN"},
                                             {"XREAD", "BLOCK", "10", "STREAMS", "nokey", "$"}})
        EXPECT_EQ(call(cmd), NULL3) << describe(cmd);
    /* Inside MULTI a blocking command cannot wait: it answers the timeout. */
    ASSERT_EQ(call({"MULTI"}), OK);
    ASSERT_EQ(call({"BLPOP", "nokey", "0"}), QUEUED);
    ASSERT_EQ(call({"BRPOPLPUSH", "nokey", "l", "0"}), QUEUED);
    ASSERT_EQ(call({"GET", "nokey"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), array({NULL3, NULL3, NULL3}));
    /* A touched WATCHed key: EXEC's null. */
    ASSERT_EQ(call({"WATCH", "w"}), OK);
    ASSERT_EQ(call({"SET", "w", "1"}), OK);
    ASSERT_EQ(call({"MULTI"}), OK);
    ASSERT_EQ(call({"GET", "w"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), NULL3);
}

/* ========================================================================
 * Strings, lists: unchanged types (bulks, integers, arrays)
 * ====================================================================== */

TEST_P(Resp3Types, StringsAndListsKeepTheirTypes) {
    EXPECT_EQ(call({"SET", "s", "10"}), OK);
    EXPECT_EQ(call({"INCRBYFLOAT", "s", "1.5"}), bulk("11.5"));
    EXPECT_EQ(call({"RPUSH", "l", "a", "b", "a"}), integer(3));
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "0"}), array({integer(0), integer(2)}));
    EXPECT_EQ(call({"LPOS", "nokey", "a", "COUNT", "0"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"LMPOP", "1", "l", "LEFT", "COUNT", "2"}), array({bulk("l"), bulks({"a", "b"})}));
    EXPECT_EQ(call({"LCS", "s", "s", "IDX"}).substr(0, 2), "%2");
}

/* ========================================================================
 * Sets: "~" for SMEMBERS, SINTER, SUNION, SDIFF, SPOP with a count
 * ====================================================================== */

TEST_P(Resp3Types, SetRepliesAreSets) {
    ASSERT_EQ(call({"SADD", "st", "1", "2", "3"}), integer(3));
    const std::string all = set3({bulk("1"), bulk("2"), bulk("3")});
    EXPECT_EQ(call({"SMEMBERS", "st"}), all);
    EXPECT_EQ(call({"SINTER", "st", "st"}), all);
    EXPECT_EQ(call({"SUNION", "st", "nokey"}), all);
    EXPECT_EQ(call({"SDIFF", "st", "nokey"}), all);
    EXPECT_EQ(call({"SMEMBERS", "nokey"}), set3({}));
    EXPECT_EQ(call({"SINTER", "st", "nokey"}), set3({}));
    EXPECT_EQ(call({"SDIFF", "nokey", "st"}), set3({}));
    EXPECT_EQ(call({"SPOP", "nokey", "2"}), set3({}));
    EXPECT_EQ(call({"SPOP", "st", "0"}), set3({}));
    /* SRANDMEMBER stays an array, even for the whole set. */
    EXPECT_EQ(call({"SRANDMEMBER", "st", "3"}), bulks({"1", "2", "3"}));
    EXPECT_EQ(call({"SRANDMEMBER", "st", "0"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"SPOP", "st", "3"}), all);
    ASSERT_EQ(call({"SADD", "st", "1", "2", "3"}), integer(3));
    Reply some = reply({"SPOP", "st", "2"});
    EXPECT_EQ(some.type, Reply::Type::Set);
    EXPECT_EQ(some.elements.size(), 2u);
    EXPECT_EQ(call({"SMISMEMBER", "st", "1", "9"}).substr(0, 2), "*2");
}

/* ========================================================================
 * Sorted sets: doubles, and (member, score) pairs
 * ====================================================================== */

TEST_P(Resp3Types, ScoresAreDoubles) {
    ASSERT_EQ(call({"ZADD", "z", "1", "a", "2.5", "b", "inf", "c"}), integer(3));
    EXPECT_EQ(call({"ZSCORE", "z", "b"}), dbl("2.5"));
    EXPECT_EQ(call({"ZINCRBY", "z", "2", "a"}), dbl("3"));
    EXPECT_EQ(call({"ZADD", "z", "INCR", "1", "a"}), dbl("4"));
    EXPECT_EQ(call({"ZADD", "z", "NX", "INCR", "1", "a"}), NULL3);
    EXPECT_EQ(call({"ZMSCORE", "z", "a", "nom", "c"}), array({dbl("4"), NULL3, dbl("inf")}));
}

TEST_P(Resp3Types, WithscoresRepliesArePairs) {
    ASSERT_EQ(call({"ZADD", "z", "1", "a", "2.5", "b", "inf", "c"}), integer(3));
    const std::string all = array({scored("a", "1"), scored("b", "2.5"), scored("c", "inf")});
    EXPECT_EQ(call({"ZRANGE", "z", "0", "-1", "WITHSCORES"}), all);
    EXPECT_EQ(call({"ZRANGEBYSCORE", "z", "-inf", "+inf", "WITHSCORES"}), all);
    EXPECT_EQ(call({"ZRANGE", "z", "(1", "+inf", "BYSCORE", "WITHSCORES", "LIMIT", "0", "1"}),
              array({scored("b", "2.5")}));
    EXPECT_EQ(call({"ZREVRANGE", "z", "0", "0", "WITHSCORES"}), array({scored("c", "inf")}));
    EXPECT_EQ(call({"ZRANGE", "z", "0", "-1"}), bulks({"a", "b", "c"}));
    EXPECT_EQ(call({"ZUNION", "1", "z", "WITHSCORES"}), all);
    EXPECT_EQ(call({"ZINTER", "2", "z", "z", "WITHSCORES"}),
              array({scored("a", "2"), scored("b", "5"), scored("c", "inf")}));
    EXPECT_EQ(call({"ZDIFF", "1", "z", "WITHSCORES"}), all);
    /* The whole set, in the order Redis 7.0 walks its listpack. */
    EXPECT_EQ(call({"ZRANDMEMBER", "z", "5", "WITHSCORES"}), array({scored("c", "inf"), scored("b", "2.5"), scored("a", "1")}));
    EXPECT_EQ(call({"ZRANDMEMBER", "z", "0", "WITHSCORES"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"ZRANDMEMBER", "nokey", "2", "WITHSCORES"}), EMPTY_ARRAY);
    Reply picks = reply({"ZRANDMEMBER", "z", "-4", "WITHSCORES"});
    ASSERT_EQ(picks.elements.size(), 4u);
    for (const Reply &pick : picks.elements) EXPECT_EQ(pick.elements.at(1).type, Reply::Type::Double);
}

TEST_P(Resp3Types, PopsNestPairsAsRedis7) {
    ASSERT_EQ(call({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e", "6", "f"}), integer(6));
    /* Without a count: flat [member, score]. */
    EXPECT_EQ(call({"ZPOPMIN", "z"}), array({bulk("a"), dbl("1")}));
    /* With a count: pairs. */
    EXPECT_EQ(call({"ZPOPMIN", "z", "1"}), array({scored("b", "2")}));
    EXPECT_EQ(call({"ZPOPMAX", "z", "0"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"ZPOPMIN", "nokey", "2"}), EMPTY_ARRAY);
    /* ZMPOP and BZMPOP: [key, pairs] in both protocols. */
    EXPECT_EQ(call({"ZMPOP", "1", "z", "MAX", "COUNT", "1"}), array({bulk("z"), array({scored("f", "6")})}));
    EXPECT_EQ(call({"BZMPOP", "0", "1", "z", "MAX"}), array({bulk("z"), array({scored("e", "5")})}));
    /* BZPOPMIN: flat [key, member, score]. */
    EXPECT_EQ(call({"BZPOPMIN", "z", "0"}), array({bulk("z"), bulk("c"), dbl("3")}));
}

TEST_P(Resp3Types, BlockedPopsServedLaterAreTypedToo) {
    RespConn waiter = srv->connect();
    ASSERT_EQ(waiter.call({"HELLO", "3"}).type, Reply::Type::Map);
    waiter.cmd({"BZPOPMIN", "z1", "0"});
    ASSERT_TRUE(pollUntil([&] { return c->call({"CLIENT", "LIST"}).str.find("cmd=bzpopmin") != std::string::npos; }));
    ASSERT_EQ(call({"ZADD", "z1", "1.5", "a"}), integer(1));
    EXPECT_EQ(waiter.readReply().raw, array({bulk("z1"), bulk("a"), dbl("1.5")}));

    waiter.cmd({"BZMPOP", "0", "1", "z1", "MIN", "COUNT", "2"});
    ASSERT_TRUE(pollUntil([&] { return c->call({"CLIENT", "LIST"}).str.find("cmd=bzmpop") != std::string::npos; }));
    ASSERT_EQ(call({"ZADD", "z1", "2", "b"}), integer(1));
    EXPECT_EQ(waiter.readReply().raw, array({bulk("z1"), array({scored("b", "2")})}));

    waiter.cmd({"XREAD", "BLOCK", "0", "STREAMS", "x1", "$"});
    ASSERT_TRUE(pollUntil([&] { return c->call({"CLIENT", "LIST"}).str.find("cmd=xread") != std::string::npos; }));
    ASSERT_EQ(call({"XADD", "x1", "1-1", "f", "v"}), bulk("1-1"));
    EXPECT_EQ(waiter.readReply().raw, map3({bulk("x1"), array({array({bulk("1-1"), bulks({"f", "v"})})})}));
}

/* ========================================================================
 * Hashes: HGETALL a map, HRANDFIELD WITHVALUES pairs
 * ====================================================================== */

TEST_P(Resp3Types, HashRepliesAreMapsAndPairs) {
    ASSERT_EQ(call({"HSET", "h", "f1", "v1", "f2", "2"}), integer(2));
    EXPECT_EQ(call({"HGETALL", "h"}), map3({bulk("f1"), bulk("v1"), bulk("f2"), bulk("2")}));
    EXPECT_EQ(call({"HGETALL", "nokey"}), map3({}));
    EXPECT_EQ(call({"HKEYS", "nokey"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"HVALS", "h"}), bulks({"v1", "2"}));
    EXPECT_EQ(call({"HRANDFIELD", "h", "5", "WITHVALUES"}),
              array({bulks({"f1", "v1"}), bulks({"f2", "2"})}));
    EXPECT_EQ(call({"HRANDFIELD", "h", "5"}), bulks({"f1", "f2"}));
    EXPECT_EQ(call({"HRANDFIELD", "nokey", "2", "WITHVALUES"}), EMPTY_ARRAY);
    Reply picks = reply({"HRANDFIELD", "h", "-3", "WITHVALUES"});
    ASSERT_EQ(picks.elements.size(), 3u);
    for (const Reply &pick : picks.elements) EXPECT_EQ(pick.elements.size(), 2u);
    EXPECT_EQ(call({"HINCRBYFLOAT", "h", "f2", "0.5"}), bulk("2.5"));
}

/* ========================================================================
 * Streams: XREAD/XREADGROUP maps keyed by stream, XINFO maps
 * ====================================================================== */

TEST_P(Resp3Types, StreamReadsAreMapsKeyedByStream) {
    ASSERT_EQ(call({"XADD", "x", "1-1", "f", "v"}), bulk("1-1"));
    ASSERT_EQ(call({"XADD", "y", "2-1", "g", "w"}), bulk("2-1"));
    const std::string xentry = array({bulk("1-1"), bulks({"f", "v"})});
    const std::string yentry = array({bulk("2-1"), bulks({"g", "w"})});
    EXPECT_EQ(call({"XREAD", "STREAMS", "x", "y", "0", "0"}),
              map3({bulk("x"), array({xentry}), bulk("y"), array({yentry})}));
    EXPECT_EQ(call({"XREAD", "STREAMS", "x", "nokey", "0", "0"}), map3({bulk("x"), array({xentry})}));
    ASSERT_EQ(call({"XGROUP", "CREATE", "x", "g", "0"}), OK);
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "x", ">"}), map3({bulk("x"), array({xentry})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "x", "0"}), map3({bulk("x"), array({xentry})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "x", ">"}), NULL3);
    EXPECT_EQ(call({"XRANGE", "nokey", "-", "+"}), EMPTY_ARRAY);
    /* XAUTOCLAIM: [next, entries, deleted]. */
    EXPECT_EQ(call({"XAUTOCLAIM", "x", "g", "c2", "0", "0", "JUSTID"}), array({bulk("0-0"), bulks({"1-1"}), EMPTY_ARRAY}));
}

TEST_P(Resp3Types, StreamIntrospectionIsMaps) {
    ASSERT_EQ(call({"XGROUP", "CREATE", "x", "g", "$", "MKSTREAM"}), OK);
    /* Nothing pending: count 0, then nulls. */
    EXPECT_EQ(call({"XPENDING", "x", "g"}), array({integer(0), NULL3, NULL3, NULL3}));
    Reply info = reply({"XINFO", "STREAM", "x"});
    ASSERT_EQ(info.type, Reply::Type::Map);
    EXPECT_EQ(field(info, "first-entry").type, Reply::Type::Null);
    EXPECT_EQ(field(info, "last-entry").type, Reply::Type::Null);
    ASSERT_EQ(call({"XADD", "x", "1-1", "f", "v"}), bulk("1-1"));
    Reply full = reply({"XINFO", "STREAM", "x", "FULL"});
    ASSERT_EQ(full.type, Reply::Type::Map);
    const Reply &groups = field(full, "groups");
    ASSERT_EQ(groups.elements.size(), 1u);
    EXPECT_EQ(groups.elements[0].type, Reply::Type::Map);
    Reply glist = reply({"XINFO", "GROUPS", "x"});
    ASSERT_EQ(glist.elements.size(), 1u);
    EXPECT_EQ(glist.elements[0].type, Reply::Type::Map);
    EXPECT_EQ(call({"XINFO", "CONSUMERS", "x", "g"}), EMPTY_ARRAY);
}

/* ========================================================================
 * Geo: coordinates are doubles, distances stay bulks
 * ====================================================================== */

TEST_P(Resp3Types, GeoCoordinatesAreDoubles) {
    ASSERT_EQ(call({"GEOADD", "g", "13.361389", "38.115556", "Palermo"}), integer(1));
    const std::string pos = array({dbl("13.36138933897018433"), dbl("38.11555639549629859")});
    EXPECT_EQ(call({"GEOPOS", "g", "Palermo", "nom"}), array({pos, NULL3}));
    EXPECT_EQ(call({"GEOSEARCH", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "WITHDIST", "WITHCOORD"}),
              array({array({bulk("Palermo"), bulk("190.4424"), pos})}));
    EXPECT_EQ(call({"GEORADIUS", "g", "15", "37", "200", "km", "WITHHASH", "WITHCOORD"}),
              array({array({bulk("Palermo"), integer(3479099956230698), pos})}));
    EXPECT_EQ(call({"GEODIST", "g", "Palermo", "Palermo"}), bulk("0.0000"));
    EXPECT_EQ(call({"GEODIST", "g", "Palermo", "nom"}), NULL3);
}

/* ========================================================================
 * The server's own tables: CONFIG GET, ACL GETUSER, COMMAND, FUNCTION
 * ====================================================================== */

TEST_P(Resp3Types, ConfigGetIsAMap) {
    EXPECT_EQ(call({"CONFIG", "GET", "maxmemory"}), map3({bulk("maxmemory"), bulk("0")}));
    EXPECT_EQ(call({"CONFIG", "GET", "nosuchconfig"}), map3({}));
}

TEST_P(Resp3Types, AclGetuserIsAMapWithASetOfFlags) {
    ASSERT_EQ(call({"ACL", "SETUSER", "bob", "on", "nopass", "~k*", "+get", "(~b* +set)"}), OK);
    Reply u = reply({"ACL", "GETUSER", "bob"});
    ASSERT_EQ(u.type, Reply::Type::Map);
    EXPECT_EQ(field(u, "flags").raw, set3({bulk("on"), bulk("nopass")}));
    EXPECT_EQ(field(u, "passwords").raw, EMPTY_ARRAY);
    const Reply &selectors = field(u, "selectors");
    ASSERT_EQ(selectors.elements.size(), 1u);
    EXPECT_EQ(selectors.elements[0].raw,
              map3({bulk("commands"), bulk("-@all +set"), bulk("keys"), bulk("~b*"), bulk("channels"), bulk("")}));
    ASSERT_EQ(call({"AUTH", "nobody", "x"}).substr(0, 10), "-WRONGPASS");
    Reply log = reply({"ACL", "LOG"});
    ASSERT_EQ(log.elements.size(), 1u);
    EXPECT_EQ(log.elements[0].type, Reply::Type::Map);
    EXPECT_EQ(field(log.elements[0], "age-seconds").type, Reply::Type::Double);
}

TEST_P(Resp3Types, CommandIntrospectionUsesSetsAndMaps) {
    /* GET's COMMAND INFO, byte for byte: flags, categories and tips are
     * sets, the key specs a set of maps, no subcommands an empty set. */
    const std::string getSpec =
        map3({bulk("flags"), set3({"+RO\r\n", "+access\r\n"}), bulk("begin_search"),
              map3({bulk("type"), bulk("index"), bulk("spec"), map3({bulk("index"), integer(1)})}), bulk("find_keys"),
              map3({bulk("type"), bulk("range"), bulk("spec"),
                    map3({bulk("lastkey"), integer(0), bulk("keystep"), integer(1), bulk("limit"), integer(0)})})});
    EXPECT_EQ(call({"COMMAND", "INFO", "get"}),
              array({array({bulk("get"), integer(2), set3({"+readonly\r\n", "+fast\r\n"}), integer(1), integer(1),
                            integer(1), set3({"+@read\r\n", "+@string\r\n", "+@fast\r\n"}), set3({}), set3({getSpec}),
                            set3({})})}));
    EXPECT_EQ(call({"COMMAND", "DOCS", "get"}),
              map3({bulk("get"),
                    map3({bulk("summary"), bulk("Get the value of a key"), bulk("since"), bulk("1.0.0"), bulk("group"),
                          bulk("string"), bulk("complexity"), bulk("O(1)"), bulk("arguments"),
                          array({map3({bulk("name"), bulk("key"), bulk("type"), bulk("key"), bulk("key_spec_index"),
                                       integer(0)})})})}));
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "LMOVE", "a", "b", "LEFT", "LEFT"}),
              array({array({bulk("a"), set3({"+RW\r\n", "+access\r\n", "+delete\r\n"})}),
                     array({bulk("b"), set3({"+RW\r\n", "+insert\r\n"})})}));
    /* Deeper docs: history a set, nested arguments maps with flag sets. */
    Reply set = reply({"COMMAND", "DOCS", "set"});
    const Reply &setDocs = field(set, "set");
    EXPECT_EQ(field(setDocs, "history").type, Reply::Type::Set);
    const Reply &args = field(setDocs, "arguments");
    ASSERT_GE(args.elements.size(), 3u);
    EXPECT_EQ(args.elements[2].type, Reply::Type::Map);
    EXPECT_EQ(field(args.elements[2], "flags").type, Reply::Type::Set);
    /* A container: subcommands an array of infos, a map of docs. */
    Reply xinfo = reply({"COMMAND", "INFO", "xinfo"});
    EXPECT_EQ(xinfo.elements.at(0).elements.at(9).type, Reply::Type::Array);
    Reply xinfoDocs = reply({"COMMAND", "DOCS", "xinfo"});
    EXPECT_EQ(field(field(xinfoDocs, "xinfo"), "subcommands").type, Reply::Type::Map);
}

TEST_P(Resp3Types, FunctionListIsMaps) {
    EXPECT_EQ(call({"FUNCTION", "LIST"}), EMPTY_ARRAY);
    ASSERT_EQ(call({"FUNCTION", "LOAD",
                    "#!lua name=lib\nredis.register_function{function_name='f', callback=function() return 1 end, "
                    "flags={'no-writes'}}"}),
              bulk("lib"));
    EXPECT_EQ(call({"FUNCTION", "LIST"}),
              array({map3({bulk("library_name"), bulk("lib"), bulk("engine"), bulk("LUA"), bulk("functions"),
                           array({map3({bulk("name"), bulk("f"), bulk("description"), NULL3, bulk("flags"),
                                        set3({"+no-writes\r\n"})})})})}));
    Reply stats = reply({"FUNCTION", "STATS"});
    ASSERT_EQ(stats.type, Reply::Type::Map);
    EXPECT_EQ(field(stats, "running_script").type, Reply::Type::Null);
    EXPECT_EQ(call({"SCRIPT", "EXISTS", "ffffffffffffffffffffffffffffffffffffffff"}), array({integer(0)}));
}

INSTANTIATE_TEST_SUITE_P(Servers, Resp3Types, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
