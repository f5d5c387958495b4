/* db_test.cpp — integration tests of the databases and the keyspace
 * commands (issue 3, db.cpp): SELECT, DBSIZE, FLUSHDB, FLUSHALL, DEL,
 * UNLINK, EXISTS, TYPE, KEYS, SCAN, RANDOMKEY, RENAME, RENAMENX, MOVE, COPY,
 * INFO keyspace, WATCH invalidation by each of them, the SCAN guarantee
 * while the table grows and shrinks, and a byte-for-byte comparison with
 * Debian's Redis 7.0.15.
 *
 * Every expected error text was taken from Redis 7.0.15 answering the same
 * request; the suite passes against it when CPPREDIS_SERVER_BIN names
 * /usr/bin/redis-server. */
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string BADDB = "-ERR DB index is out of range\r\n";
const std::string SAMEOBJ = "-ERR source and destination objects are the same\r\n";

std::vector<std::string> strings(const Reply &r) {
    std::vector<std::string> out;
    for (const Reply &e : r.elements) out.push_back(e.str);
    return out;
}

std::set<std::string> keySet(RespConn &c, const std::string &pattern) {
    Reply r = c.call({"KEYS", pattern});
    EXPECT_EQ(r.type, Reply::Type::Array) << r;
    auto v = strings(r);
    EXPECT_EQ(std::set<std::string>(v.begin(), v.end()).size(), v.size()) << "KEYS repeated a key";
    return {v.begin(), v.end()};
}

/* Every key a full SCAN returns (with repeats merged). */
std::set<std::string> scanKeys(RespConn &c, const Args &options) {
    auto v = scanAll(c, {"SCAN"}, options);
    return {v.begin(), v.end()};
}

std::map<std::string, std::string> infoKeyspace(RespConn &c) { return info(c, {"keyspace"}).fields; }

long long usedMemory(RespConn &c) { return infoNumber(c, "memory", "used_memory"); }

}  // namespace

/* One shared server; each test starts from an empty keyspace. */
class Keyspace : public SharedServerTest {};

TEST_F(Keyspace, DelAndUnlinkCountWhatTheyDeleted) {
    RespConn c = conn();
    for (const char *cmd : {"DEL", "UNLINK"}) {
        pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "2"}, {"SET", "c", "3"}});
        EXPECT_EQ(c.call({cmd, "a", "b", "b", "nokey"}).raw, integer(2)) << cmd;
        EXPECT_EQ(c.call({"EXISTS", "a", "b"}).raw, integer(0));
        EXPECT_EQ(c.call({cmd, "a"}).raw, integer(0));
        EXPECT_EQ(c.call({cmd, "c"}).raw, integer(1));
        EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
    }
    EXPECT_EQ(c.call({"DEL"}).raw, arityErr("del"));
    EXPECT_EQ(c.call({"UNLINK"}).raw, arityErr("unlink"));
}

TEST_F(Keyspace, ExistsCountsRepeats) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "a", "1"}).raw, OK);
    EXPECT_EQ(c.call({"EXISTS", "a"}).raw, integer(1));
    EXPECT_EQ(c.call({"EXISTS", "a", "a", "a", "b"}).raw, integer(3));
    EXPECT_EQ(c.call({"EXISTS", "nokey"}).raw, integer(0));
    EXPECT_EQ(c.call({"EXISTS"}).raw, arityErr("exists"));
}

TEST_F(Keyspace, TypeOfEachKind) {
    RespConn c = conn();
    pipeline(c, {{"SET", "s", "hello"}, {"SET", "i", "12"}, {"RPUSH", "l", "a"}});
    EXPECT_EQ(c.call({"TYPE", "l"}).raw, "+list\r\n");
    EXPECT_EQ(c.call({"TYPE", "s"}).raw, "+string\r\n");
    EXPECT_EQ(c.call({"TYPE", "i"}).raw, "+string\r\n");
    EXPECT_EQ(c.call({"TYPE", "nokey"}).raw, "+none\r\n");
    EXPECT_EQ(c.call({"TYPE"}).raw, arityErr("type"));
    EXPECT_EQ(c.call({"TYPE", "a", "b"}).raw, arityErr("type"));
}

TEST_F(Keyspace, SelectIsolatesSixteenDatabases) {
    RespConn c = conn();
    for (int db = 0; db < 16; db++) {
        ASSERT_EQ(c.call({"SELECT", std::to_string(db)}).raw, OK);
        pipeline(c, {{"SET", "shared", "v" + std::to_string(db)}, {"SET", "only" + std::to_string(db), "x"}});
    }
    for (int db = 0; db < 16; db++) {
        ASSERT_EQ(c.call({"SELECT", std::to_string(db)}).raw, OK);
        EXPECT_EQ(c.call({"GET", "shared"}).raw, bulk("v" + std::to_string(db)));
        EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(2));
        for (int other = 0; other < 16; other++)
            EXPECT_EQ(c.call({"EXISTS", "only" + std::to_string(other)}).raw, integer(other == db)) << db;
    }
    auto ks = infoKeyspace(c);
    EXPECT_EQ(ks.size(), 16u);
    for (int db = 0; db < 16; db++)
        EXPECT_EQ(ks["db" + std::to_string(db)], "keys=2,expires=0,avg_ttl=0");

    /* The selection belongs to the connection. */
    RespConn other = conn();
    EXPECT_EQ(other.call({"GET", "shared"}).raw, bulk("v0"));

    /* FLUSHDB empties the selected database only. */
    ASSERT_EQ(c.call({"SELECT", "5"}).raw, OK);
    EXPECT_EQ(c.call({"FLUSHDB"}).raw, OK);
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
    EXPECT_EQ(other.call({"DBSIZE"}).raw, integer(2));
    ks = infoKeyspace(c);
    EXPECT_EQ(ks.size(), 15u);
    EXPECT_EQ(ks.count("db5"), 0u);

    /* FLUSHALL empties them all, whichever is selected. */
    EXPECT_EQ(c.call({"FLUSHALL"}).raw, OK);
    for (int db = 0; db < 16; db++) {
        ASSERT_EQ(c.call({"SELECT", std::to_string(db)}).raw, OK);
        EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
    }
    EXPECT_TRUE(infoKeyspace(c).empty());
}

TEST_F(Keyspace, SelectErrors) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"SELECT", "16"}).raw, BADDB);
    EXPECT_EQ(c.call({"SELECT", "-1"}).raw, BADDB);
    EXPECT_EQ(c.call({"SELECT", "abc"}).raw, NOT_INT);
    EXPECT_EQ(c.call({"SELECT", "1.5"}).raw, NOT_INT);
    EXPECT_EQ(c.call({"SELECT", ""}).raw, NOT_INT);
    EXPECT_EQ(c.call({"SELECT", "2147483648"}).raw,
              "-ERR value is out of range, value must between -2147483648 and 2147483647\r\n");
    EXPECT_EQ(c.call({"SELECT"}).raw, arityErr("select"));
    EXPECT_EQ(c.call({"SELECT", "1", "2"}).raw, arityErr("select"));
    /* A failed SELECT leaves the selection alone. */
    ASSERT_EQ(c.call({"SET", "k", "db0"}).raw, OK);
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("db0"));
}

TEST(KeyspaceDatabases, DatabasesDirectiveSetsTheCount) {
    TestServer s({"--databases", "4"});
    RespConn c = s.connect();
    EXPECT_EQ(c.call({"SELECT", "3"}).raw, OK);
    EXPECT_EQ(c.call({"SELECT", "4"}).raw, BADDB);
    EXPECT_EQ(c.call({"MOVE", "k", "4"}).raw, BADDB);
}

TEST_F(Keyspace, FlushOptions) {
    RespConn c = conn();
    for (const char *cmd : {"FLUSHDB", "FLUSHALL"}) {
        for (const char *opt : {"ASYNC", "sync", "async", "SYNC"}) {
            ASSERT_EQ(c.call({"SET", "k", "v"}).raw, OK);
            EXPECT_EQ(c.call({cmd, opt}).raw, OK) << cmd << " " << opt;
            EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
        }
        ASSERT_EQ(c.call({"SET", "k", "v"}).raw, OK);
        EXPECT_EQ(c.call({cmd, "foo"}).raw, SYNTAX);
        EXPECT_EQ(c.call({cmd, "sync", "async"}).raw, SYNTAX);
        EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(1)) << "a refused flush flushed";
    }
}

TEST_F(Keyspace, KeysUsesRedisGlob) {
    RespConn c = conn();
    const std::vector<std::string> names = {"hello", "hallo", "hxllo", "hllo", "heeeello", "h[llo", "a*b", "aXb", ""};
    for (const auto &k : names) ASSERT_EQ(c.call({"SET", k, "v"}).raw, OK);
    using S = std::set<std::string>;
    EXPECT_EQ(keySet(c, "*"), S(names.begin(), names.end()));
    EXPECT_EQ(keySet(c, "h?llo"), (S{"hello", "hallo", "hxllo", "h[llo"}));
    EXPECT_EQ(keySet(c, "h*llo"), (S{"hello", "hallo", "hxllo", "hllo", "heeeello", "h[llo"}));
    EXPECT_EQ(keySet(c, "h[ae]llo"), (S{"hello", "hallo"}));
    EXPECT_EQ(keySet(c, "h[^e]llo"), (S{"hallo", "hxllo", "h[llo"}));
    EXPECT_EQ(keySet(c, "h[a-e]llo"), (S{"hello", "hallo"}));
    EXPECT_EQ(keySet(c, "h\\[llo"), (S{"h[llo"}));
    EXPECT_EQ(keySet(c, "a\\*b"), (S{"a*b"}));
    EXPECT_EQ(keySet(c, "HELLO"), S{}) << "KEYS is case-sensitive";
    EXPECT_EQ(keySet(c, "nomatch*"), S{});
    EXPECT_EQ(c.call({"KEYS", "nomatch"}).raw, "*0\r\n");
    EXPECT_EQ(c.call({"KEYS"}).raw, arityErr("keys"));
}

TEST_F(Keyspace, KeysAndScanSkipExpiredKeys) {
    RespConn c = conn();
    pipeline(c, {{"SET", "live", "v"}, {"SET", "dead", "v"}, {"PEXPIRE", "dead", "1"}});
    waitMs(5);
    /* Whether the active cycle or these commands delete it, it never shows. */
    EXPECT_EQ(keySet(c, "*"), std::set<std::string>{"live"});
    EXPECT_EQ(scanKeys(c, {}), std::set<std::string>{"live"});
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(1)) << "SCAN deletes the expired keys it meets";
}

TEST_F(Keyspace, ScanIteratesEverythingOnce) {
    RespConn c = conn();
    std::vector<Args> sets;
    std::set<std::string> all;
    for (int i = 0; i < 500; i++) {
        sets.push_back({"SET", "key:" + std::to_string(i), "v"});
        all.insert("key:" + std::to_string(i));
    }
    pipeline(c, sets);
    /* A static table: each key exactly once, whatever the COUNT. */
    for (const char *count : {"1", "7", "10", "1000"}) {
        std::multiset<std::string> seen;
        std::string cursor = "0";
        do {
            Reply r = c.call({"SCAN", cursor, "COUNT", count});
            ASSERT_EQ(r.elements.size(), 2u) << r;
            for (const Reply &k : r.elements[1].elements) seen.insert(k.str);
            cursor = r.elements[0].str;
        } while (cursor != "0");
        EXPECT_EQ(seen.size(), all.size()) << "COUNT " << count;
        EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), all) << "COUNT " << count;
    }
    /* A large COUNT gets everything in one call. */
    Reply r = c.call({"SCAN", "0", "COUNT", "100000"});
    EXPECT_EQ(r.elements[0].raw, bulk("0"));
    EXPECT_EQ(r.elements[1].elements.size(), 500u);
}

TEST_F(Keyspace, ScanMatchAndType) {
    RespConn c = conn();
    pipeline(c, {{"SET", "user:1", "a"}, {"SET", "user:2", "b"}, {"SET", "item:1", "c"}, {"SET", "", "empty"}});
    using S = std::set<std::string>;
    EXPECT_EQ(scanKeys(c, {"MATCH", "user:*"}), (S{"user:1", "user:2"}));
    EXPECT_EQ(scanKeys(c, {"match", "*:1", "count", "1"}), (S{"user:1", "item:1"}));
    EXPECT_EQ(scanKeys(c, {"MATCH", "*"}), (S{"user:1", "user:2", "item:1", ""}));
    EXPECT_EQ(scanKeys(c, {"MATCH", ""}), S{""}) << "an empty pattern matches the empty key only";
    EXPECT_EQ(scanKeys(c, {"TYPE", "string"}), (S{"user:1", "user:2", "item:1", ""}));
    EXPECT_EQ(scanKeys(c, {"TYPE", "STRING", "MATCH", "item*"}), S{"item:1"});
    EXPECT_EQ(scanKeys(c, {"TYPE", "list"}), S{});
    ASSERT_EQ(c.call({"RPUSH", "queue", "job"}).raw, ":1\r\n");
    EXPECT_EQ(scanKeys(c, {"TYPE", "list"}), S{"queue"});
    EXPECT_EQ(scanKeys(c, {"TYPE", "List", "COUNT", "1"}), S{"queue"});
    EXPECT_EQ(scanKeys(c, {"TYPE", "string", "MATCH", "q*"}), S{});
    EXPECT_EQ(scanKeys(c, {"TYPE", "nosuchtype"}), S{});
    EXPECT_EQ(scanKeys(c, {"TYPE", ""}), S{});
    /* The last of a repeated option wins. */
    EXPECT_EQ(scanKeys(c, {"MATCH", "user:*", "MATCH", "item:*"}), S{"item:1"});
}

TEST_F(Keyspace, ScanErrors) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "k", "v"}).raw, OK);
    const std::string badCursor = "-ERR invalid cursor\r\n";
    for (const char *cursor : {"abc", " 1", "1a", "1 ", "18446744073709551616", "-", "0x10"})
        EXPECT_EQ(c.call({"SCAN", cursor}).raw, badCursor) << "cursor '" << cursor << "'";
    /* strtoul's reading, as Redis: '+', '-' (wrapping) and "" are cursors. */
    EXPECT_EQ(c.call({"SCAN", ""}).raw, "*2\r\n$1\r\n0\r\n*1\r\n$1\r\nk\r\n");
    EXPECT_EQ(c.call({"SCAN", "+0"}).raw, "*2\r\n$1\r\n0\r\n*1\r\n$1\r\nk\r\n");
    /* Which bucket the top cursor lands on depends on the hash seed, so
     * only the end of the scan is certain. */
    for (const char *top : {"18446744073709551615", "-1"}) {
        Reply r = c.call({"SCAN", top});
        ASSERT_EQ(r.elements.size(), 2u) << r;
        EXPECT_EQ(r.elements[0].str, "0") << top;
    }

    EXPECT_EQ(c.call({"SCAN", "0", "COUNT", "9223372036854775807"}).raw, "*2\r\n$1\r\n0\r\n*1\r\n$1\r\nk\r\n");
    EXPECT_EQ(c.call({"SCAN", "0", "COUNT", "9223372036854775808"}).raw, NOT_INT);
    EXPECT_EQ(c.call({"SCAN", "0", "COUNT", "0"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"SCAN", "0", "COUNT", "-1"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"SCAN", "0", "COUNT", "abc"}).raw, NOT_INT);
    EXPECT_EQ(c.call({"SCAN", "0", "COUNT"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"SCAN", "0", "MATCH"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"SCAN", "0", "TYPE"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"SCAN", "0", "foo", "bar"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"SCAN", "0", "MATCH", "*", "extra"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"SCAN"}).raw, arityErr("scan"));
}

/* The SCAN guarantee: a key present from the first call to the last is
 * returned at least once, even while other keys come and go between calls
 * so that the table grows (and rehashes) and then shrinks. Growth happens
 * as keys are added; shrinking is serverCron's job (at hz 500 here) once
 * the table is under 10% full, and is seen when the big bucket array is
 * freed: used_memory falls by more than 100 KB. */
TEST(KeyspaceScan, GuaranteeHoldsWhileTheTableGrowsAndShrinks) {
    TestServer s({"--hz", "500"});
    RespConn c = s.connect();
    const int kStable = 1000, kAddCalls = 60, kAddPerCall = 150, kDelPerCall = 300;
    std::vector<Args> cmds;
    for (int i = 0; i < kStable; i++) cmds.push_back({"SET", "stable:" + std::to_string(i), "v"});
    pipeline(c, cmds);

    std::set<std::string> seen;
    std::string cursor = "0";
    long long added = 0, deleted = 0, baseline = 0;
    int calls = 0, shrinks = 0;
    do {
        Reply r = c.call({"SCAN", cursor, "COUNT", "10"});
        ASSERT_EQ(r.elements.size(), 2u) << r;
        for (const Reply &k : r.elements[1].elements) {
            ASSERT_TRUE(k.str.rfind("stable:", 0) == 0 || k.str.rfind("churn:", 0) == 0) << k.str;
            seen.insert(k.str);
        }
        cursor = r.elements[0].str;

        /* Each cycle: 60 calls add 9,000 keys (the table grows to 16,384
         * buckets), then calls delete them all, then the table shrinks. */
        cmds.clear();
        if (calls++ % (kAddCalls + kAddCalls * kAddPerCall / kDelPerCall) < kAddCalls) {
            for (int i = 0; i < kAddPerCall; i++) cmds.push_back({"SET", "churn:" + std::to_string(added++), "v"});
        } else {
            /* The baseline is taken while the table is still over 10% full. */
            if (added - deleted == 3 * kDelPerCall) baseline = usedMemory(c);
            for (int i = 0; i < kDelPerCall; i++) cmds.push_back({"DEL", "churn:" + std::to_string(deleted++)});
        }
        pipeline(c, cmds);
        if (added == deleted) {
            /* The last 900 keys free ~50 KB; the shrink frees 120 KB more. */
            pollUntil([&] { return usedMemory(c) <= baseline - 100000; });
            EXPECT_LT(usedMemory(c), baseline - 100000) << "the emptied table did not shrink";
            shrinks++;
        }
        ASSERT_LT(calls, 100000) << "SCAN does not terminate";
    } while (cursor != "0");

    int missing = 0;
    for (int i = 0; i < kStable; i++) missing += !seen.count("stable:" + std::to_string(i));
    EXPECT_EQ(missing, 0) << "keys present for the whole scan were not returned (" << calls << " calls)";
    EXPECT_GE(shrinks, 1) << "the scan ended before a grow/shrink cycle (" << calls << " calls)";
}

TEST_F(Keyspace, RandomkeySkipsExpiredKeys) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"RANDOMKEY"}).raw, NIL);
    ASSERT_EQ(c.call({"SET", "only", "v"}).raw, OK);
    EXPECT_EQ(c.call({"RANDOMKEY"}).raw, bulk("only"));

    std::vector<Args> cmds;
    for (int i = 0; i < 200; i++) {
        cmds.push_back({"SET", "dead:" + std::to_string(i), "v"});
        cmds.push_back({"PEXPIRE", "dead:" + std::to_string(i), "1"});
    }
    pipeline(c, cmds);
    waitMs(5);
    for (int i = 0; i < 20; i++) EXPECT_EQ(c.call({"RANDOMKEY"}).raw, bulk("only"));

    ASSERT_EQ(c.call({"PEXPIRE", "only", "1"}).raw, integer(1));
    waitMs(5);
    EXPECT_EQ(c.call({"RANDOMKEY"}).raw, NIL);
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
    EXPECT_EQ(c.call({"RANDOMKEY", "x"}).raw, arityErr("randomkey"));
}

TEST_F(Keyspace, RandomkeyReturnsEveryKeyEventually) {
    RespConn c = conn();
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "2"}, {"SET", "c", "3"}});
    std::set<std::string> seen;
    for (int i = 0; i < 1000 && seen.size() < 3; i++) seen.insert(c.call({"RANDOMKEY"}).str);
    EXPECT_EQ(seen, (std::set<std::string>{"a", "b", "c"}));
}

TEST_F(Keyspace, RenameMovesValueAndTtl) {
    RespConn c = conn();
    pipeline(c, {{"SET", "src", "hello"}, {"PEXPIREAT", "src", "4102444800123"}, {"SET", "dst", "old"},
                 {"PEXPIREAT", "dst", "4102444800999"}});
    EXPECT_EQ(c.call({"RENAME", "src", "dst"}).raw, OK);
    EXPECT_EQ(c.call({"GET", "dst"}).raw, bulk("hello"));
    EXPECT_EQ(c.call({"PEXPIRETIME", "dst"}).raw, integer(4102444800123));
    EXPECT_EQ(c.call({"EXISTS", "src"}).raw, integer(0));

    /* No TTL on the source: none on the destination, even if it had one. */
    pipeline(c, {{"SET", "plain", "p"}, {"PEXPIRE", "dst", "100000"}});
    EXPECT_EQ(c.call({"RENAME", "plain", "dst"}).raw, OK);
    EXPECT_EQ(c.call({"TTL", "dst"}).raw, integer(-1));

    EXPECT_EQ(c.call({"RENAME", "nokey", "x"}).raw, NO_KEY);
    EXPECT_EQ(c.call({"RENAME", "nokey", "nokey"}).raw, NO_KEY);
    EXPECT_EQ(c.call({"RENAME", "a"}).raw, arityErr("rename"));
}

TEST_F(Keyspace, RenameOntoItselfKeepsTheKey) {
    RespConn c = conn();
    pipeline(c, {{"SET", "k", "v"}, {"PEXPIREAT", "k", "4102444800123"}});
    EXPECT_EQ(c.call({"RENAME", "k", "k"}).raw, OK);
    EXPECT_EQ(c.call({"RENAMENX", "k", "k"}).raw, integer(0));
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("v"));
    EXPECT_EQ(c.call({"PEXPIRETIME", "k"}).raw, integer(4102444800123));
    EXPECT_EQ(c.call({"RENAMENX", "nokey", "nokey"}).raw, NO_KEY);
}

TEST_F(Keyspace, RenamenxOnlyToAFreeName) {
    RespConn c = conn();
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "2"}});
    EXPECT_EQ(c.call({"RENAMENX", "a", "b"}).raw, integer(0));
    EXPECT_EQ(c.call({"GET", "a"}).raw, bulk("1"));
    EXPECT_EQ(c.call({"GET", "b"}).raw, bulk("2"));
    EXPECT_EQ(c.call({"RENAMENX", "a", "c"}).raw, integer(1));
    EXPECT_EQ(c.call({"GET", "c"}).raw, bulk("1"));
    EXPECT_EQ(c.call({"EXISTS", "a"}).raw, integer(0));
    EXPECT_EQ(c.call({"RENAMENX", "nokey", "d"}).raw, NO_KEY);
}

TEST_F(Keyspace, MoveBetweenDatabases) {
    RespConn c = conn();
    pipeline(c, {{"SET", "k", "v"}, {"PEXPIREAT", "k", "4102444800123"}});
    EXPECT_EQ(c.call({"MOVE", "k", "3"}).raw, integer(1));
    EXPECT_EQ(c.call({"EXISTS", "k"}).raw, integer(0));
    ASSERT_EQ(c.call({"SELECT", "3"}).raw, OK);
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("v"));
    EXPECT_EQ(c.call({"PEXPIRETIME", "k"}).raw, integer(4102444800123)) << "MOVE keeps the TTL";

    /* The target has the key: nothing moves. */
    ASSERT_EQ(c.call({"SELECT", "0"}).raw, OK);
    ASSERT_EQ(c.call({"SET", "k", "other"}).raw, OK);
    EXPECT_EQ(c.call({"MOVE", "k", "3"}).raw, integer(0));
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("other"));

    EXPECT_EQ(c.call({"MOVE", "nokey", "1"}).raw, integer(0));
    EXPECT_EQ(c.call({"MOVE", "k", "0"}).raw, SAMEOBJ);
    EXPECT_EQ(c.call({"MOVE", "nokey", "0"}).raw, SAMEOBJ);
    EXPECT_EQ(c.call({"MOVE", "k", "16"}).raw, BADDB);
    EXPECT_EQ(c.call({"MOVE", "k", "-1"}).raw, BADDB);
    EXPECT_EQ(c.call({"MOVE", "k", "abc"}).raw, NOT_INT);
    EXPECT_EQ(c.call({"MOVE", "k"}).raw, arityErr("move"));
}

TEST_F(Keyspace, CopyWithinAndAcrossDatabases) {
    RespConn c = conn();
    pipeline(c, {{"SET", "src", "hello"}, {"PEXPIREAT", "src", "4102444800123"}});
    EXPECT_EQ(c.call({"COPY", "src", "dst"}).raw, integer(1));
    EXPECT_EQ(c.call({"GET", "dst"}).raw, bulk("hello"));
    EXPECT_EQ(c.call({"PEXPIRETIME", "dst"}).raw, integer(4102444800123)) << "COPY keeps the TTL";
    /* An independent value: changing the copy leaves the source alone. */
    ASSERT_EQ(c.call({"APPEND", "dst", "!"}).raw, integer(6));
    EXPECT_EQ(c.call({"GET", "src"}).raw, bulk("hello"));

    EXPECT_EQ(c.call({"COPY", "src", "dst"}).raw, integer(0)) << "destination exists";
    EXPECT_EQ(c.call({"GET", "dst"}).raw, bulk("hello!"));
    EXPECT_EQ(c.call({"COPY", "src", "dst", "REPLACE"}).raw, integer(1));
    EXPECT_EQ(c.call({"GET", "dst"}).raw, bulk("hello"));

    /* To another database, with REPLACE and DB in either order. */
    EXPECT_EQ(c.call({"COPY", "src", "src", "DB", "2"}).raw, integer(1));
    EXPECT_EQ(c.call({"COPY", "src", "src", "db", "2"}).raw, integer(0));
    ASSERT_EQ(c.call({"SET", "src", "changed"}).raw, OK);
    EXPECT_EQ(c.call({"COPY", "src", "src", "REPLACE", "DB", "2"}).raw, integer(1));
    ASSERT_EQ(c.call({"SELECT", "2"}).raw, OK);
    EXPECT_EQ(c.call({"GET", "src"}).raw, bulk("changed"));
    EXPECT_EQ(c.call({"TTL", "src"}).raw, integer(-1));
    ASSERT_EQ(c.call({"SELECT", "0"}).raw, OK);

    /* Integers too (shared or not). */
    pipeline(c, {{"SET", "n", "12"}, {"SET", "big", "123456789"}});
    EXPECT_EQ(c.call({"COPY", "n", "n2"}).raw, integer(1));
    EXPECT_EQ(c.call({"COPY", "big", "big2"}).raw, integer(1));
    EXPECT_EQ(c.call({"INCR", "n2"}).raw, integer(13));
    EXPECT_EQ(c.call({"INCR", "big2"}).raw, integer(123456790));
    EXPECT_EQ(c.call({"GET", "n"}).raw, bulk("12"));
    EXPECT_EQ(c.call({"GET", "big"}).raw, bulk("123456789"));
}

TEST_F(Keyspace, CopyErrors) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "a", "1"}).raw, OK);
    EXPECT_EQ(c.call({"COPY", "nokey", "b"}).raw, integer(0));
    EXPECT_EQ(c.call({"COPY", "a", "a"}).raw, SAMEOBJ);
    EXPECT_EQ(c.call({"COPY", "nokey", "nokey"}).raw, SAMEOBJ);
    EXPECT_EQ(c.call({"COPY", "a", "a", "DB", "0"}).raw, SAMEOBJ);
    EXPECT_EQ(c.call({"COPY", "a", "b", "DB"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"COPY", "a", "b", "DB", "16"}).raw, BADDB);
    EXPECT_EQ(c.call({"COPY", "a", "b", "DB", "abc"}).raw, NOT_INT);
    EXPECT_EQ(c.call({"COPY", "a", "b", "foo"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"COPY", "a", "b", "REPLACE", "REPLACE"}).raw, integer(1));
    EXPECT_EQ(c.call({"COPY", "a"}).raw, arityErr("copy"));
}

TEST_F(Keyspace, DbsizeCountsKeysOfTheSelectedDatabase) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
    std::vector<Args> cmds;
    for (int i = 0; i < 100; i++) cmds.push_back({"SET", std::to_string(i), "v"});
    pipeline(c, cmds);
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(100));
    ASSERT_EQ(c.call({"SELECT", "1"}).raw, OK);
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
    EXPECT_EQ(c.call({"DBSIZE", "x"}).raw, arityErr("dbsize"));
}

TEST_F(Keyspace, InfoKeyspaceCountsKeysAndExpires) {
    RespConn c = conn();
    Reply r = c.call({"INFO", "keyspace"});
    EXPECT_EQ(r.str, "# Keyspace\r\n") << "no line for empty databases";
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "2"}, {"EXPIRE", "b", "1000"}, {"SELECT", "7"}, {"SET", "c", "3"}});
    auto ks = infoKeyspace(c);
    EXPECT_EQ(ks.size(), 2u);
    EXPECT_EQ(ks["db0"].rfind("keys=2,expires=1,avg_ttl=", 0), 0u) << ks["db0"];
    EXPECT_EQ(ks["db7"], "keys=1,expires=0,avg_ttl=0");
    /* Keyspace is a default section, the last one. */
    Reply all = c.call({"INFO"});
    size_t at = all.str.find("# Keyspace\r\n");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(all.str.find("\r\n# ", at + 1), std::string::npos) << "a section after Keyspace";
}

/* ------------------------------------------------------------------------
 * Every write of this file tells WATCHers (signalModifiedKey/FlushedDb).
 * ---------------------------------------------------------------------- */
struct WatchCase {
    const char *name;
    std::vector<Args> setup;    /* run in db 0 */
    int watchDb;
    std::string watchKey;
    std::vector<Args> touch;    /* run by another client, in db 0 */
};

class KeyspaceWatch : public Keyspace, public ::testing::WithParamInterface<WatchCase> {};

TEST_P(KeyspaceWatch, WriteAbortsTheTransaction) {
    const WatchCase &wc = GetParam();
    RespConn watcher = conn(), writer = conn();
    if (!wc.setup.empty()) pipeline(writer, wc.setup);
    ASSERT_EQ(watcher.call({"SELECT", std::to_string(wc.watchDb)}).raw, OK);
    ASSERT_EQ(watcher.call({"WATCH", wc.watchKey}).raw, OK);
    for (const Args &a : wc.touch) writer.call(a);
    ASSERT_EQ(watcher.call({"MULTI"}).raw, OK);
    ASSERT_EQ(watcher.call({"PING"}).raw, "+QUEUED\r\n");
    EXPECT_EQ(watcher.call({"EXEC"}).raw, "*-1\r\n") << wc.name;
}

INSTANTIATE_TEST_SUITE_P(
    Keyspace, KeyspaceWatch,
    ::testing::Values(
        WatchCase{"Del", {{"SET", "k", "v"}}, 0, "k", {{"DEL", "k"}}},
        WatchCase{"Unlink", {{"SET", "k", "v"}}, 0, "k", {{"UNLINK", "k"}}},
        WatchCase{"RenameSource", {{"SET", "k", "v"}}, 0, "k", {{"RENAME", "k", "n"}}},
        WatchCase{"RenameDestination", {{"SET", "k", "v"}}, 0, "n", {{"RENAME", "k", "n"}}},
        WatchCase{"RenamenxDestination", {{"SET", "k", "v"}}, 0, "n", {{"RENAMENX", "k", "n"}}},
        WatchCase{"MoveSource", {{"SET", "k", "v"}}, 0, "k", {{"MOVE", "k", "1"}}},
        WatchCase{"MoveDestination", {{"SET", "k", "v"}}, 1, "k", {{"MOVE", "k", "1"}}},
        WatchCase{"CopyDestination", {{"SET", "k", "v"}}, 0, "n", {{"COPY", "k", "n"}}},
        WatchCase{"CopyToOtherDb", {{"SET", "k", "v"}}, 2, "k", {{"COPY", "k", "k", "DB", "2"}}},
        WatchCase{"Flushdb", {{"SET", "k", "v"}}, 0, "k", {{"FLUSHDB"}}},
        WatchCase{"FlushallOtherDb", {{"SELECT", "4"}, {"SET", "k", "v"}}, 4, "k", {{"FLUSHALL"}}},
        WatchCase{"Expire", {{"SET", "k", "v"}}, 0, "k", {{"EXPIRE", "k", "100"}}},
        WatchCase{"ExpireInThePast", {{"SET", "k", "v"}}, 0, "k", {{"EXPIRE", "k", "-1"}}},
        WatchCase{"Persist", {{"SET", "k", "v"}, {"EXPIRE", "k", "100"}}, 0, "k", {{"PERSIST", "k"}}}),
    [](const ::testing::TestParamInfo<WatchCase> &info) { return std::string(info.param.name); });

TEST_F(Keyspace, NoOpWritesLeaveWatchersAlone) {
    RespConn watcher = conn(), writer = conn();
    ASSERT_EQ(writer.call({"SET", "k", "v"}).raw, OK);
    ASSERT_EQ(watcher.call({"WATCH", "k"}).raw, OK);
    writer.call({"DEL", "nokey"});
    writer.call({"RENAMENX", "k", "k"});
    writer.call({"PERSIST", "k"});
    writer.call({"MOVE", "nokey", "1"});
    writer.call({"COPY", "nokey", "k", "REPLACE"});
    writer.call({"EXPIRE", "k", "100", "XX"});
    ASSERT_EQ(watcher.call({"MULTI"}).raw, OK);
    ASSERT_EQ(watcher.call({"GET", "k"}).raw, "+QUEUED\r\n");
    EXPECT_EQ(watcher.call({"EXEC"}).raw, "*1\r\n$1\r\nv\r\n");
}

/* ------------------------------------------------------------------------
 * Differential: the same script to cppredis and to Redis 7.0.15. Only
 * deterministic replies: absolute expire times, and KEYS/SCAN/RANDOMKEY
 * only where at most one key can answer.
 * ---------------------------------------------------------------------- */
TEST(KeyspaceDifferential, SameRepliesAsRedis) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours;
    RedisReference ref;
    RespConn a = ours.connect(), b = ref.connect();
    const std::vector<Args> script = {
        {"SET", "a", "1"}, {"SET", "b", "two"}, {"SET", "c", "3"},
        {"EXISTS", "a", "a", "nokey", "b"}, {"EXISTS"}, {"TYPE", "a"}, {"TYPE", "nokey"}, {"TYPE"},
        {"DBSIZE"}, {"DBSIZE", "x"},
        {"DEL", "c", "c", "nokey"}, {"UNLINK", "c"}, {"DEL"}, {"UNLINK"},
        {"SELECT", "15"}, {"SET", "a", "db15"}, {"GET", "a"}, {"SELECT", "0"}, {"GET", "a"},
        {"SELECT", "16"}, {"SELECT", "-1"}, {"SELECT", "x"}, {"SELECT", "1.0"}, {"SELECT", "99999999999999999999"},
        {"SELECT", "2147483648"}, {"SELECT", "-2147483649"}, {"SELECT"},
        {"KEYS", "a"}, {"KEYS", "[ac]"}, {"KEYS", "[^a]"}, {"KEYS", "nomatch*"}, {"KEYS", "b*"}, {"KEYS", "\\a"},
        {"SCAN", "0", "MATCH", "b"}, {"SCAN", "0", "MATCH", "a", "COUNT", "100"}, {"SCAN", "0", "TYPE", "hash"},
        {"SCAN", "0", "TYPE", "string", "MATCH", "b*"}, {"SCAN", "x"}, {"SCAN", "1x"}, {"SCAN", "0", "COUNT", "0"},
        {"SCAN", "0", "COUNT", "x"}, {"SCAN", "0", "COUNT", "9223372036854775808"}, {"SCAN", "0", "BAD"},
        {"SCAN", "0", "MATCH"}, {"SCAN"},
        {"RENAME", "a", "a2"}, {"RENAME", "a", "x"}, {"RENAME", "a2", "a2"}, {"RENAMENX", "a2", "b"},
        {"RENAMENX", "a2", "a"}, {"RENAMENX", "nokey", "z"}, {"RENAME", "x"},
        {"PEXPIREAT", "a", "4102444800123"}, {"RENAME", "a", "r"}, {"PEXPIRETIME", "r"}, {"PEXPIRETIME", "a"},
        {"MOVE", "r", "1"}, {"MOVE", "r", "1"}, {"MOVE", "b", "0"}, {"MOVE", "b", "16"}, {"MOVE", "b", "x"},
        {"SELECT", "1"}, {"PEXPIRETIME", "r"}, {"MOVE", "r", "0"}, {"SELECT", "0"}, {"EXISTS", "r"},
        {"COPY", "r", "r2"}, {"COPY", "r", "r2"}, {"COPY", "r", "r2", "REPLACE"}, {"COPY", "r", "r", "DB", "3"},
        {"COPY", "r", "r", "DB", "0"}, {"COPY", "r", "r"}, {"COPY", "r", "x", "DB"}, {"COPY", "r", "x", "DB", "99"},
        {"COPY", "r", "x", "FOO"}, {"COPY", "nokey", "x"}, {"COPY", "r"}, {"PEXPIRETIME", "r2"},
        {"SELECT", "3"}, {"GET", "r"}, {"PEXPIRETIME", "r"}, {"RANDOMKEY"}, {"FLUSHDB"}, {"RANDOMKEY"},
        {"SELECT", "0"},
        {"FLUSHDB", "x"}, {"FLUSHDB", "ASYNC", "SYNC"}, {"FLUSHALL", "x"}, {"FLUSHDB", "sync"}, {"DBSIZE"},
        {"SET", "k", "v"}, {"FLUSHALL", "async"}, {"DBSIZE"}, {"FLUSHALL"}, {"FLUSHDB"},
    };
    expectSameScript(a, b, script);

    /* The statistics these commands feed match too. */
    for (const char *f : {"keyspace_hits", "keyspace_misses", "expired_keys"})
        EXPECT_EQ(infoNumber(a, "stats", f), infoNumber(b, "stats", f)) << f;
}
