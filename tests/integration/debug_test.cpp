/* debug_test.cpp — the DEBUG subcommands test suites and operators use
 * (PROTOCOL, POPULATE, SET-ACTIVE-EXPIRE, HTSTATS, HTSTATS-KEY, LISTPACK,
 * CHANGE-REPL-ID, MALLCTL, STRINGMATCH-TEST, HELP) and MEMORY DOCTOR, STATS,
 * MALLOC-STATS, PURGE. Each test runs on a fresh cppredis and a fresh Redis
 * 7.0.15 (EitherServerTest) with the same expectations, except where
 * cppredis differs on purpose (said at each place). */
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

std::string subcommandErr(const std::string &sub) {
    return "-ERR unknown subcommand or wrong number of arguments for '" + sub + "'. Try DEBUG HELP.\r\n";
}

class Debug : public EitherServerTest {
protected:
    void hello3() { ASSERT_EQ(c->call({"HELLO", "3"}).type, Reply::Type::Map); }
    bool jemalloc() { return infoField(*c, "memory", "mem_allocator").starts_with("jemalloc"); }
    /* A map reply's keys, in order. */
    static std::vector<std::string> mapKeys(const Reply &r) {
        std::vector<std::string> keys;
        for (size_t j = 0; j < r.elements.size(); j += 2) keys.push_back(r.elements[j].str);
        return keys;
    }
    static const Reply *mapValue(const Reply &r, const std::string &key) {
        for (size_t j = 0; j + 1 < r.elements.size(); j += 2)
            if (r.elements[j].str == key) return &r.elements[j + 1];
        return nullptr;
    }
};
INSTANTIATE_TEST_SUITE_P(Servers, Debug, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

const std::string kWrongProtocolType =
    "-ERR Wrong protocol type name. Please use one of the following: "
    "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false\r\n";

/* Every type in its RESP2 form: sets and maps as arrays, the double and
 * the big number as bulks, booleans as integers, no attribute, no push. */
TEST_P(Debug, ProtocolResp2) {
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "string"}), "$11\r\nHello World\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "integer"}), ":12345\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "double"}), "$5\r\n3.141\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "bignum"}), "$37\r\n1234567999999999999999999999999999999\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "null"}), "$-1\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "array"}), "*3\r\n:0\r\n:1\r\n:2\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "set"}), "*3\r\n:0\r\n:1\r\n:2\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "map"}), "*6\r\n:0\r\n:0\r\n:1\r\n:1\r\n:2\r\n:0\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "attrib"}), "$39\r\nSome real reply following the attribute\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "push"}), "-ERR RESP2 is not supported by this command\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "verbatim"}), "$25\r\nThis is a verbatim\nstring\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "true"}), ":1\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "FALSE"}), ":0\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "bogus"}), kWrongProtocolType);
    EXPECT_EQ(call({"DEBUG", "PROTOCOL"}), subcommandErr("PROTOCOL"));
}

/* Each RESP3 type on the wire; the attribute and the push come before a
 * real reply, which the client reads next. */
TEST_P(Debug, ProtocolResp3) {
    hello3();
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "string"}), "$11\r\nHello World\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "integer"}), ":12345\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "double"}), ",3.141\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "bignum"}), "(1234567999999999999999999999999999999\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "null"}), "_\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "array"}), "*3\r\n:0\r\n:1\r\n:2\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "set"}), "~3\r\n:0\r\n:1\r\n:2\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "map"}), "%3\r\n:0\r\n#f\r\n:1\r\n#t\r\n:2\r\n#f\r\n");
    Reply attrib = c->call({"DEBUG", "PROTOCOL", "attrib"});
    EXPECT_EQ(attrib.raw, "|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n");
    EXPECT_EQ(c->readReply().raw, "$39\r\nSome real reply following the attribute\r\n");
    Reply push = c->call({"DEBUG", "PROTOCOL", "push"});
    EXPECT_EQ(push.type, Reply::Type::Push);
    EXPECT_EQ(push.raw, ">2\r\n$16\r\nserver-cpu-usage\r\n:42\r\n");
    EXPECT_EQ(c->readReply().raw, "$40\r\nSome real reply following the push reply\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "verbatim"}), "=29\r\ntxt:This is a verbatim\nstring\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "true"}), "#t\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "false"}), "#f\r\n");
    EXPECT_EQ(call({"DEBUG", "PROTOCOL", "bogus"}), kWrongProtocolType);
    EXPECT_EQ(call({"PING"}), "+PONG\r\n"); /* nothing left over */
}

/* key:<n> = value:<n>; a prefix; a size pads with zero bytes or cuts;
 * existing keys stay as they are; the arguments are checked as Redis's. */
TEST_P(Debug, Populate) {
    ASSERT_EQ(call({"SET", "key:3", "mine"}), OK);
    EXPECT_EQ(call({"DEBUG", "POPULATE", "10"}), OK);
    EXPECT_EQ(call({"DBSIZE"}), integer(10));
    EXPECT_EQ(call({"GET", "key:0"}), bulk("value:0"));
    EXPECT_EQ(call({"GET", "key:9"}), bulk("value:9"));
    EXPECT_EQ(call({"GET", "key:3"}), bulk("mine"));
    EXPECT_EQ(call({"DEBUG", "POPULATE", "3", "p", "12"}), OK);
    EXPECT_EQ(call({"GET", "p:1"}), bulk(std::string("value:1\0\0\0\0\0", 12)));
    EXPECT_EQ(call({"DEBUG", "POPULATE", "2", "q", "3"}), OK);
    EXPECT_EQ(call({"GET", "q:1"}), bulk("val"));
    EXPECT_EQ(call({"DEBUG", "POPULATE", "2", "z", "0"}), OK);
    EXPECT_EQ(call({"GET", "z:1"}), bulk("value:1"));
    EXPECT_EQ(call({"DBSIZE"}), integer(17));
    EXPECT_EQ(call({"DEBUG", "POPULATE", "0"}), OK);
    EXPECT_EQ(call({"DEBUG", "POPULATE", "-1"}), NOT_POSITIVE);
    EXPECT_EQ(call({"DEBUG", "POPULATE", "abc"}), NOT_POSITIVE);
    EXPECT_EQ(call({"DEBUG", "POPULATE", "2", "k", "-3"}), NOT_POSITIVE);
    EXPECT_EQ(call({"DEBUG", "POPULATE", "1", "a", "2", "x"}), subcommandErr("POPULATE"));
    EXPECT_EQ(call({"DBSIZE"}), integer(17));
}

/* With the active cycle off, an expired key nobody reads stays (DBSIZE
 * does not look keys up); turned back on, the cycle removes it. */
TEST_P(Debug, SetActiveExpire) {
    ASSERT_EQ(call({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), OK);
    ASSERT_EQ(call({"SET", "k", "v", "PX", "10"}), OK);
    /* At hz 10 the cycle would have run three times over this wait. */
    waitMs(300);
    EXPECT_EQ(call({"DBSIZE"}), integer(1));
    EXPECT_EQ(call({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), OK);
    EXPECT_TRUE(pollUntil([&] { return call({"DBSIZE"}) == integer(0); }));
    EXPECT_EQ(call({"DEBUG", "SET-ACTIVE-EXPIRE"}), subcommandErr("SET-ACTIVE-EXPIRE"));
}

/* The figures that do not depend on the hash seed: table sizes, element
 * counts, the section headers; the rest in Redis's format. */
TEST_P(Debug, Htstats) {
    const std::string empty = "Hash table 0 stats (main hash table):\nNo stats available for empty dictionaries\n";
    EXPECT_EQ(c->call({"DEBUG", "HTSTATS", "0"}).str, "[Dictionary HT]\n" + empty + "[Expires HT]\n" + empty);
    ASSERT_EQ(call({"DEBUG", "POPULATE", "15"}), OK);
    ASSERT_EQ(call({"EXPIRE", "key:1", "100"}), integer(1));
    std::string stats = c->call({"DEBUG", "HTSTATS", "0"}).str;
    const std::regex table(
        "Hash table 0 stats \\(main hash table\\):\n table size: (\\d+)\n number of elements: (\\d+)\n"
        " different slots: \\d+\n max chain length: \\d+\n avg chain length \\(counted\\): \\d+\\.\\d\\d\n"
        " avg chain length \\(computed\\): \\d+\\.\\d\\d\n Chain length distribution:\n"
        "(   \\d+: \\d+ \\(\\d+\\.\\d\\d%\\)\n)+");
    std::smatch m;
    size_t split = stats.find("[Expires HT]\n");
    ASSERT_NE(split, std::string::npos) << stats;
    std::string main = stats.substr(std::string("[Dictionary HT]\n").size(), split - 16);
    std::string expires = stats.substr(split + 13);
    ASSERT_TRUE(std::regex_match(main, m, table)) << main;
    EXPECT_EQ(m[1], "16");
    EXPECT_EQ(m[2], "15");
    ASSERT_TRUE(std::regex_match(expires, m, table)) << expires;
    EXPECT_EQ(m[1], "4");
    EXPECT_EQ(m[2], "1");
    hello3();
    EXPECT_EQ(c->call({"DEBUG", "HTSTATS", "0"}).type, Reply::Type::Verbatim);
    EXPECT_EQ(call({"DEBUG", "HTSTATS", "16"}), err("ERR Out of range database"));
    EXPECT_EQ(call({"DEBUG", "HTSTATS", "-1"}), err("ERR Out of range database"));
    EXPECT_EQ(call({"DEBUG", "HTSTATS", "x"}), NOT_INT);
    EXPECT_EQ(call({"DEBUG", "HTSTATS", "0", "full"}), subcommandErr("HTSTATS"));
}

/* A set of strings and a big sorted set have a table; a compact hash and
 * a string do not. */
TEST_P(Debug, HtstatsKey) {
    ASSERT_EQ(call({"SADD", "s", "a", "b", "c"}), integer(3));
    std::string stats = c->call({"DEBUG", "HTSTATS-KEY", "s"}).str;
    EXPECT_TRUE(stats.starts_with("Hash table 0 stats (main hash table):\n table size: 4\n number of elements: 3\n"))
        << stats;
    for (int j = 0; j < 200; j++) c->cmd({"ZADD", "z", std::to_string(j), "m" + std::to_string(j)});
    for (int j = 0; j < 200; j++) c->readReply();
    stats = c->call({"DEBUG", "HTSTATS-KEY", "z"}).str;
    EXPECT_TRUE(
        stats.starts_with("Hash table 0 stats (main hash table):\n table size: 256\n number of elements: 200\n"))
        << stats;
    ASSERT_EQ(call({"HSET", "h", "f", "v"}), integer(1));
    const std::string no_table =
        err("ERR The value stored at the specified key is not represented using an hash table");
    EXPECT_EQ(call({"DEBUG", "HTSTATS-KEY", "h"}), no_table);
    ASSERT_EQ(call({"SET", "str", "v"}), OK);
    EXPECT_EQ(call({"DEBUG", "HTSTATS-KEY", "str"}), no_table);
    EXPECT_EQ(call({"DEBUG", "HTSTATS-KEY", "nokey"}), NO_KEY);
}

/* Redis 7.0's compact encoding is the listpack, cppredis's the ziplist
 * (OBJECT ENCODING says so): DEBUG LISTPACK refuses every cppredis value,
 * and DEBUG ZIPLIST (Redis 6.2's) dumps cppredis's, which Redis 7.0 no
 * longer has. */
TEST_P(Debug, ListpackAndZiplist) {
    ASSERT_EQ(call({"HSET", "h", "f", "v"}), integer(1));
    ASSERT_EQ(call({"SET", "str", "v"}), OK);
    EXPECT_EQ(call({"DEBUG", "LISTPACK", "nokey"}), NO_KEY);
    EXPECT_EQ(call({"DEBUG", "LISTPACK", "str"}), err("ERR Not a listpack encoded object."));
    if (cppredis()) {
        EXPECT_EQ(call({"DEBUG", "LISTPACK", "h"}), err("ERR Not a listpack encoded object."));
        EXPECT_EQ(call({"DEBUG", "ZIPLIST", "h"}), "+Ziplist structure printed on stdout\r\n");
        EXPECT_TRUE(srv->waitForLog("DEBUG ZIPLIST h"));
        EXPECT_EQ(call({"DEBUG", "ZIPLIST", "str"}), err("ERR Not a ziplist encoded object."));
    } else {
        EXPECT_EQ(call({"DEBUG", "LISTPACK", "h"}), "+Listpack structure printed on stdout\r\n");
        EXPECT_EQ(call({"DEBUG", "ZIPLIST", "h"}), subcommandErr("ZIPLIST"));
    }
}

/* A new replication ID, no secondary one, and the log line. */
TEST_P(Debug, ChangeReplId) {
    std::string before = infoField(*c, "replication", "master_replid");
    ASSERT_EQ(before.size(), 40u);
    EXPECT_EQ(call({"DEBUG", "CHANGE-REPL-ID"}), OK);
    std::string after = infoField(*c, "replication", "master_replid");
    EXPECT_EQ(after.size(), 40u);
    EXPECT_NE(after, before);
    EXPECT_EQ(infoField(*c, "replication", "master_replid2"), std::string(40, '0'));
    EXPECT_TRUE(srv->waitForLog("Changing replication IDs after receiving DEBUG change-repl-id"));
    EXPECT_EQ(call({"DEBUG", "CHANGE-REPL-ID", "x"}), subcommandErr("CHANGE-REPL-ID"));
}

/* jemalloc's options read and written by name, errors as strerror's
 * text; without jemalloc (sanitizer builds) the subcommands do not exist,
 * as in a Redis built without it. */
TEST_P(Debug, Mallctl) {
    if (!jemalloc()) {
        EXPECT_EQ(call({"DEBUG", "MALLCTL", "arenas.dirty_decay_ms"}), subcommandErr("MALLCTL"));
        EXPECT_EQ(call({"DEBUG", "MALLCTL-STR", "opt.thp"}), subcommandErr("MALLCTL-STR"));
        return;
    }
    Reply decay = c->call({"DEBUG", "MALLCTL", "arenas.dirty_decay_ms"});
    ASSERT_EQ(decay.type, Reply::Type::Integer) << decay;
    EXPECT_EQ(call({"DEBUG", "MALLCTL", "arenas.dirty_decay_ms", "5000"}), integer(decay.integer));
    EXPECT_EQ(call({"DEBUG", "MALLCTL", "arenas.dirty_decay_ms"}), integer(5000));
    EXPECT_EQ(call({"DEBUG", "MALLCTL", "arenas.dirty_decay_ms", "abc"}), NOT_INT);
    EXPECT_EQ(call({"DEBUG", "MALLCTL", "no.such.option"}), err("ERR No such file or directory"));
    EXPECT_EQ(call({"DEBUG", "MALLCTL-STR", "no.such.option"}), err("ERR No such file or directory"));
    EXPECT_EQ(c->call({"DEBUG", "MALLCTL-STR", "version"}).str.substr(0, 2), "5.");
    EXPECT_EQ(call({"DEBUG", "MALLCTL-STR", "thread.tcache.flush", "VOID"}), OK);
    EXPECT_EQ(call({"DEBUG", "MALLCTL"}), subcommandErr("MALLCTL"));
}

/* DEBUG HELP lists what exists, in Redis 7.0's words and order (the
 * MALLCTLs with jemalloc only). cppredis has no quicklist, so no
 * packed/plain threshold: it refuses QUICKLIST-PACKED-THRESHOLD as Redis
 * refuses a subcommand it was built without. STRINGMATCH-TEST (ten
 * million random patterns against random strings) takes over a minute
 * here on either server: only its arity is tested. */
TEST_P(Debug, Help) {
    Reply help = c->call({"DEBUG", "HELP"});
    ASSERT_EQ(help.type, Reply::Type::Array);
    std::vector<std::string> names;
    for (const Reply &line : help.elements)
        if (!line.str.starts_with(" ")) names.push_back(line.str.substr(0, line.str.find(' ')));
    EXPECT_EQ(help.elements[0].str, "DEBUG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
    std::vector<std::string> expected = {"DEBUG", "CHANGE-REPL-ID", "DIGEST", "DIGEST-VALUE", "HTSTATS",
                                         "HTSTATS-KEY", "LOADAOF"};
    if (jemalloc()) expected.insert(expected.end(), {"MALLCTL", "MALLCTL-STR"});
    expected.insert(expected.end(), {"OBJECT", "POPULATE", "PROTOCOL", "RELOAD", "SET-ACTIVE-EXPIRE", "SLEEP",
                                     "STRINGMATCH-TEST", "LISTPACK"});
    EXPECT_EQ(call({"DEBUG", "STRINGMATCH-TEST", "x"}), subcommandErr("STRINGMATCH-TEST"));
    EXPECT_EQ(call({"DEBUG", "STRINGMATCH-LEN"}), subcommandErr("STRINGMATCH-LEN"));
    if (cppredis()) {
        expected.insert(expected.end(), {"ZIPLIST", "HELP"});
        EXPECT_EQ(names, expected);
        EXPECT_EQ(call({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100"}), subcommandErr("QUICKLIST-PACKED-THRESHOLD"));
    } else {
        EXPECT_EQ(call({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100"}), OK);
        /* Redis has more: ours are a subsequence of its list. */
        std::set<std::string> redis(names.begin(), names.end());
        for (const std::string &name : expected) EXPECT_TRUE(redis.contains(name)) << name;
    }
}

/* ---- MEMORY ------------------------------------------------------------ */

TEST_P(Debug, MemoryHelp) {
    EXPECT_EQ(call({"MEMORY", "HELP"}),
              "*14\r\n+MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+DOCTOR\r\n"
              "+    Return memory problems reports.\r\n+MALLOC-STATS\r\n"
              "+    Return internal statistics report from the memory allocator.\r\n+PURGE\r\n"
              "+    Attempt to purge dirty pages for reclamation by the allocator.\r\n+STATS\r\n"
              "+    Return information about the memory usage of the server.\r\n+USAGE <key> [SAMPLES <count>]\r\n"
              "+    Return memory in bytes used by <key> and its value. Nested values are\r\n"
              "+    sampled up to <count> times (default: 5, 0 means sample all).\r\n+HELP\r\n"
              "+    Prints this help.\r\n");
}

/* Redis 7.0's fields in its order, less the two script caches cppredis
 * does not measure; the key counts and the per-db overhead as they are. */
TEST_P(Debug, MemoryStats) {
    ASSERT_EQ(call({"DEBUG", "POPULATE", "100"}), OK);
    ASSERT_EQ(call({"EXPIRE", "key:1", "100"}), integer(1));
    ASSERT_EQ(call({"SELECT", "2"}), OK);
    ASSERT_EQ(call({"SET", "x", "y"}), OK);
    hello3();
    Reply stats = c->call({"MEMORY", "STATS"});
    ASSERT_EQ(stats.type, Reply::Type::Map) << stats;
    std::vector<std::string> expected = {
        "peak.allocated", "total.allocated", "startup.allocated", "replication.backlog", "clients.slaves",
        "clients.normal", "cluster.links", "aof.buffer", "lua.caches", "functions.caches", "db.0", "db.2",
        "overhead.total", "keys.count", "keys.bytes-per-key", "dataset.bytes", "dataset.percentage",
        "peak.percentage", "allocator.allocated", "allocator.active", "allocator.resident",
        "allocator-fragmentation.ratio", "allocator-fragmentation.bytes", "allocator-rss.ratio",
        "allocator-rss.bytes", "rss-overhead.ratio", "rss-overhead.bytes", "fragmentation", "fragmentation.bytes"};
    if (cppredis()) std::erase_if(expected, [](const std::string &k) { return k.ends_with(".caches"); });
    EXPECT_EQ(mapKeys(stats), expected);
    EXPECT_EQ(mapValue(stats, "keys.count")->integer, 101);
    EXPECT_EQ(mapValue(stats, "cluster.links")->integer, 0);
    EXPECT_EQ(mapValue(stats, "dataset.percentage")->type, Reply::Type::Double);
    EXPECT_EQ(mapValue(stats, "fragmentation")->type, Reply::Type::Double);
    const Reply *db0 = mapValue(stats, "db.0");
    ASSERT_EQ(db0->type, Reply::Type::Map);
    EXPECT_EQ(mapKeys(*db0), (std::vector<std::string>{"overhead.hashtable.main", "overhead.hashtable.expires",
                                                        "overhead.hashtable.slot-to-keys"}));
    EXPECT_GT(mapValue(*db0, "overhead.hashtable.main")->integer, 100 * 24);
    EXPECT_GT(mapValue(*db0, "overhead.hashtable.expires")->integer, 0);
    EXPECT_EQ(mapValue(*db0, "overhead.hashtable.slot-to-keys")->integer, 0);
    long long total = mapValue(stats, "total.allocated")->integer;
    EXPECT_GE(mapValue(stats, "peak.allocated")->integer, total);
    EXPECT_GT(mapValue(stats, "startup.allocated")->integer, 0);
    /* Redis sums what clientsCron last measured (0 in a server's first
     * second); cppredis measures the clients when asked. */
    if (cppredis()) {
        EXPECT_GT(mapValue(stats, "clients.normal")->integer, 0);
    }
    EXPECT_EQ(mapValue(stats, "overhead.total")->integer + mapValue(stats, "dataset.bytes")->integer, total);
    EXPECT_EQ(call({"MEMORY", "STATS", "x"}), arityErr("memory|stats"));
}

/* A small instance gets Redis's "empty" report, verbatim in RESP3. */
TEST_P(Debug, MemoryDoctor) {
    const std::string report =
        "Hi Sam, this instance is empty or is using very little memory, my issues detector can't be used in "
        "these conditions. Please, leave for your mission on Earth and fill it with some data. The new Sam and I "
        "will be back to our programming as soon as I finished rebooting.\n";
    EXPECT_EQ(call({"MEMORY", "DOCTOR"}), bulk(report));
    hello3();
    EXPECT_EQ(call({"MEMORY", "DOCTOR"}), "=" + std::to_string(report.size() + 4) + "\r\ntxt:" + report + "\r\n");
}

TEST_P(Debug, MemoryMallocStatsAndPurge) {
    std::string stats = c->call({"MEMORY", "MALLOC-STATS"}).str;
    if (jemalloc()) {
        EXPECT_TRUE(stats.starts_with("___ Begin jemalloc statistics ___\n")) << stats.substr(0, 200);
        EXPECT_TRUE(stats.ends_with("--- End jemalloc statistics ---\n")) << stats.substr(stats.size() - 200);
    } else {
        EXPECT_EQ(stats, "Stats not supported for the current allocator");
    }
    EXPECT_EQ(call({"MEMORY", "PURGE"}), OK);
    EXPECT_EQ(call({"MEMORY", "PURGE", "x"}), arityErr("memory|purge"));
}

}  // namespace
