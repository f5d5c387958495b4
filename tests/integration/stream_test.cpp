/* stream_test.cpp — integration tests of the stream type's plain commands
 * (t_stream.cpp, section 1): XADD with every option and ID form, XRANGE,
 * XREVRANGE, XLEN, XDEL, XTRIM, XSETID, XREAD and XREADGROUP served at once
 * (the blocking forms are blocking_test's), with every error text; what a
 * stream is to the keyspace (TYPE, OBJECT ENCODING, SCAN TYPE, COPY,
 * RENAME, MEMORY USAGE against Redis's, DEBUG OBJECT), its keyspace
 * events, its counters (XINFO STREAM's), its node settings
 * (stream-node-max-bytes/-entries, nodes split small), and what XADD,
 * XTRIM and XREADGROUP write to the AOF (StreamPropagation).
 *
 * The scenarios run twice, against cppredis and against Debian's Redis
 * 7.0.15 (skipped if it is missing), expecting the same bytes, so every
 * expectation is Redis 7.0's behaviour. IDs are given explicitly wherever
 * a reply shows them: "*" takes the clock's milliseconds. */
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/persistence_harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string INVALID_ID = err("ERR Invalid stream ID specified as stream command argument");
const std::string ID_NOT_GREATER =
    err("ERR The ID specified in XADD is equal or smaller than the target stream top item");

/* One entry as XRANGE replies it: [id, [field, value ...]]. */
std::string entry(const std::string &id, const std::vector<std::string> &fields_values) {
    return array({bulk(id), bulks(fields_values)});
}
/* XREAD's reply for one stream: [key, entries]. */
std::string streamReply(const std::string &key, const std::vector<std::string> &entries) {
    return array({bulk(key), array(entries)});
}

class Streams : public EitherServerTest {
protected:
    /* XADD key id f<i> v<i>, the reply checked. */
    void add(const std::string &key, const std::string &id, const std::vector<std::string> &fields_values) {
        Args a{"XADD", key, id};
        a.insert(a.end(), fields_values.begin(), fields_values.end());
        ASSERT_EQ(call(a), bulk(id)) << describe(a);
    }
    /* Entries 1-0 .. n-0 of "key" with fields {"f", "<i>"}. */
    void fill(const std::string &key, int n) {
        for (int i = 1; i <= n; i++) add(key, std::to_string(i) + "-0", {"f", std::to_string(i)});
    }
    std::string ids(const std::string &key) {
        std::string out;
        for (const Reply &e : c->call({"XRANGE", key, "-", "+"}).elements) out += e.elements.at(0).str + " ";
        return out;
    }
};

INSTANTIATE_TEST_SUITE_P(Servers, Streams, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * XADD
 * ====================================================================== */

TEST_P(Streams, XaddCreatesAStreamAndXrangeReadsItBack) {
    EXPECT_EQ(call({"XADD", "s", "1-1", "name", "alice", "age", "30"}), bulk("1-1"));
    EXPECT_EQ(call({"XADD", "s", "1-2", "name", "bob", "age", "31"}), bulk("1-2")); /* the master's fields */
    EXPECT_EQ(call({"XADD", "s", "2-0", "other", "", std::string("b\0n", 3), "-12"}), bulk("2-0"));
    EXPECT_EQ(call({"XADD", "s", "3", "n", "9223372036854775807", "m", "-9223372036854775808", "x", "007"}),
              bulk("3-0"));
    EXPECT_EQ(call({"XRANGE", "s", "-", "+"}),
              array({entry("1-1", {"name", "alice", "age", "30"}), entry("1-2", {"name", "bob", "age", "31"}),
                     entry("2-0", {"other", "", std::string("b\0n", 3), "-12"}),
                     entry("3-0", {"n", "9223372036854775807", "m", "-9223372036854775808", "x", "007"})}));
    EXPECT_EQ(call({"XLEN", "s"}), integer(4));
    EXPECT_EQ(call({"TYPE", "s"}), "+stream\r\n");
    EXPECT_EQ(call({"OBJECT", "ENCODING", "s"}), bulk("stream"));
    EXPECT_EQ(call({"EXISTS", "s"}), integer(1));
}

TEST_P(Streams, XaddStarIdsGrowFromTheClock) {
    Reply first = c->call({"XADD", "s", "*", "f", "v"});
    ASSERT_EQ(first.type, Reply::Type::Bulk);
    size_t dash = first.str.find('-');
    ASSERT_NE(dash, std::string::npos);
    EXPECT_TRUE(isDigits(first.str.substr(0, dash)) && isDigits(first.str.substr(dash + 1))) << first.str;
    /* A last ID in the future: "*" takes the next ID after it. */
    EXPECT_EQ(call({"XADD", "f", "18446744073709551614-18446744073709551615", "f", "v"}),
              bulk("18446744073709551614-18446744073709551615"));
    EXPECT_EQ(call({"XADD", "f", "*", "f", "v"}), bulk("18446744073709551615-0"));
    EXPECT_EQ(call({"XADD", "f", "*", "f", "v"}), bulk("18446744073709551615-1"));
}

TEST_P(Streams, XaddIdForms) {
    EXPECT_EQ(call({"XADD", "s", "0-*", "f", "v"}), bulk("0-1")); /* 0-0 is never an entry */
    EXPECT_EQ(call({"XADD", "s", "5-*", "f", "v"}), bulk("5-0"));
    EXPECT_EQ(call({"XADD", "s", "5-*", "f", "v"}), bulk("5-1"));
    EXPECT_EQ(call({"XADD", "s", "5", "f", "v"}), ID_NOT_GREATER); /* 5-0 */
    EXPECT_EQ(call({"XADD", "s", "5-1", "f", "v"}), ID_NOT_GREATER);
    EXPECT_EQ(call({"XADD", "s", "4-*", "f", "v"}), ID_NOT_GREATER);
    EXPECT_EQ(call({"XADD", "s", "5-18446744073709551615", "f", "v"}), bulk("5-18446744073709551615"));
    /* No sequence left in 5: Redis 7.0.15 fails this append without
     * setting errno, so it answers with the other error's text. */
    EXPECT_EQ(call({"XADD", "s", "5-*", "f", "v"}), err("ERR Elements are too large to be stored"));
    EXPECT_EQ(call({"XADD", "s", "6", "f", "v"}), bulk("6-0"));
    /* strtoull's leniency, as Redis: blanks, '+' and zeros in front. */
    EXPECT_EQ(call({"XADD", "s", " 7", "f", "v"}), bulk("7-0"));
    EXPECT_EQ(call({"XADD", "s", "+8-01", "f", "v"}), bulk("8-1"));
    EXPECT_EQ(call({"XADD", "s", "009", "f", "v"}), bulk("9-0"));
    for (const char *bad : {"1-", "-1", "1-2-3", "*-1", "-", "+", "abc", "", "18446744073709551616", "1-x",
                            "1.5", "1--1"}) {
        EXPECT_EQ(call({"XADD", "s", bad, "f", "v"}), INVALID_ID) << bad;
    }
    EXPECT_EQ(call({"XLEN", "s"}), integer(8));
    EXPECT_EQ(call({"XADD", "s", std::string(128, '1'), "f", "v"}), INVALID_ID);
}

TEST_P(Streams, XaddZeroIdIsRefusedWithoutCreatingTheKey) {
    const std::string zero = err("ERR The ID specified in XADD must be greater than 0-0");
    EXPECT_EQ(call({"XADD", "s", "0-0", "f", "v"}), zero);
    EXPECT_EQ(call({"XADD", "s", "0", "f", "v"}), zero);
    EXPECT_EQ(call({"XADD", "s", "-0", "f", "v"}), INVALID_ID);
    EXPECT_EQ(call({"EXISTS", "s"}), integer(0));
}

TEST_P(Streams, XaddAtTheLastPossibleId) {
    const std::string max = "18446744073709551615-18446744073709551615";
    EXPECT_EQ(call({"XADD", "s", "18446744073709551615-*", "f", "v"}), bulk("18446744073709551615-0"));
    EXPECT_EQ(call({"XADD", "s", max, "f", "v"}), bulk(max));
    const std::string exhausted = err("ERR The stream has exhausted the last possible ID, unable to add more items");
    EXPECT_EQ(call({"XADD", "s", "*", "f", "v"}), exhausted);
    EXPECT_EQ(call({"XADD", "s", "18446744073709551615-*", "f", "v"}), exhausted);
    EXPECT_EQ(call({"XADD", "s", "1-1", "f", "v"}), exhausted);
    EXPECT_EQ(call({"XRANGE", "s", "18446744073709551615", "+"}),
              array({entry("18446744073709551615-0", {"f", "v"}), entry(max, {"f", "v"})}));
}

TEST_P(Streams, XaddNomkstream) {
    EXPECT_EQ(call({"XADD", "s", "NOMKSTREAM", "1-0", "f", "v"}), NIL);
    EXPECT_EQ(call({"XADD", "s", "nomkstream", "*", "f", "v"}), NIL);
    EXPECT_EQ(call({"EXISTS", "s"}), integer(0));
    add("s", "1-0", {"f", "v"});
    EXPECT_EQ(call({"XADD", "s", "NOMKSTREAM", "2-0", "f", "v"}), bulk("2-0"));
    EXPECT_EQ(call({"XLEN", "s"}), integer(2));
}

TEST_P(Streams, XaddArgumentErrors) {
    EXPECT_EQ(call({"XADD", "s", "1-0", "f"}), arityErr("xadd"));
    EXPECT_EQ(call({"XADD", "s", "1-0", "f", "v", "g"}), arityErr("xadd"));
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "5", "1-0", "f"}), arityErr("xadd"));
    EXPECT_EQ(call({"XADD", "s", "*"}), arityErr("xadd"));
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "5", "f", "v"}), INVALID_ID); /* "f" taken as the ID */
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "-1", "*", "f", "v"}), err("ERR The MAXLEN argument must be >= 0."));
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "x", "*", "f", "v"}), NOT_INT);
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "~", "x", "*", "f", "v"}), NOT_INT);
    EXPECT_EQ(call({"XADD", "s", "MINID", "+", "*", "f", "v"}), INVALID_ID);
    EXPECT_EQ(call({"XADD", "s", "MINID", "x", "*", "f", "v"}), INVALID_ID);
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "1", "MINID", "1", "*", "f", "v"}),
              err("ERR syntax error, MAXLEN and MINID options at the same time are not compatible"));
    EXPECT_EQ(call({"XADD", "s", "MINID", "1", "MAXLEN", "1", "*", "f", "v"}),
              err("ERR syntax error, MAXLEN and MINID options at the same time are not compatible"));
    EXPECT_EQ(call({"XADD", "s", "LIMIT", "10", "*", "f", "v"}),
              err("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"));
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "1", "LIMIT", "10", "*", "f", "v"}),
              err("ERR syntax error, LIMIT cannot be used without the special ~ option"));
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "=", "1", "LIMIT", "10", "*", "f", "v"}),
              err("ERR syntax error, LIMIT cannot be used without the special ~ option"));
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "~", "1", "LIMIT", "-1", "*", "f", "v"}),
              err("ERR The LIMIT argument must be >= 0."));
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "~", "1", "LIMIT", "x", "*", "f", "v"}), NOT_INT);
    /* LIMIT 0 with no strategy gets past the first check, not the second. */
    EXPECT_EQ(call({"XADD", "s", "LIMIT", "0", "1-0", "f", "v"}),
              err("ERR syntax error, LIMIT cannot be used without the special ~ option"));
    EXPECT_EQ(call({"SET", "str", "x"}), OK);
    EXPECT_EQ(call({"XADD", "str", "*", "f", "v"}), WRONGTYPE);
    EXPECT_EQ(call({"XADD", "str", "NOMKSTREAM", "*", "f", "v"}), WRONGTYPE);
}

/* ========================================================================
 * Trimming: XADD MAXLEN/MINID and XTRIM
 * ====================================================================== */

TEST_P(Streams, ExactTrimming) {
    fill("s", 10);
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "5", "11-0", "f", "11"}), bulk("11-0"));
    EXPECT_EQ(ids("s"), "7-0 8-0 9-0 10-0 11-0 ");
    EXPECT_EQ(call({"XADD", "s", "maxlen", "=", "3", "12-0", "f", "12"}), bulk("12-0"));
    EXPECT_EQ(ids("s"), "10-0 11-0 12-0 ");
    EXPECT_EQ(call({"XTRIM", "s", "MINID", "11"}), integer(1));
    EXPECT_EQ(ids("s"), "11-0 12-0 ");
    EXPECT_EQ(call({"XTRIM", "s", "MINID", "=", "11-0"}), integer(0));
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "5"}), integer(0));
    EXPECT_EQ(call({"XADD", "s", "MINID", "13", "13-0", "f", "13"}), bulk("13-0"));
    EXPECT_EQ(ids("s"), "13-0 ");
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "0"}), integer(1));
    EXPECT_EQ(call({"XTRIM", "missing", "MAXLEN", "0"}), integer(0));
}

TEST_P(Streams, MaxlenZeroKeepsAnEmptyStreamAndItsLastId) {
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "0", "5-0", "f", "v"}), bulk("5-0"));
    EXPECT_EQ(call({"EXISTS", "s"}), integer(1));
    EXPECT_EQ(call({"XLEN", "s"}), integer(0));
    EXPECT_EQ(call({"XRANGE", "s", "-", "+"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"TYPE", "s"}), "+stream\r\n");
    EXPECT_EQ(call({"XADD", "s", "5-0", "f", "v"}), ID_NOT_GREATER);
    EXPECT_EQ(call({"XADD", "s", "5-*", "f", "v"}), bulk("5-1"));
}

/* With "~" only whole nodes go: stream-node-max-entries 10 makes nodes of
 * ten entries. */
TEST_P(Streams, ApproximateTrimmingRemovesWholeNodes) {
    ASSERT_EQ(call({"CONFIG", "SET", "stream-node-max-entries", "10"}), OK);
    fill("s", 35);
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "~", "30"}), integer(0)); /* 5 over, a node is 10 */
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "~", "24"}), integer(10));
    EXPECT_EQ(call({"XLEN", "s"}), integer(25));
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT", "1"}), array({entry("11-0", {"f", "11"})}));
    /* LIMIT caps what goes, in whole nodes. */
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "~", "0", "LIMIT", "15"}), integer(10));
    EXPECT_EQ(call({"XLEN", "s"}), integer(15));
    EXPECT_EQ(call({"XTRIM", "s", "MINID", "~", "33", "LIMIT", "5"}), integer(0));
    EXPECT_EQ(call({"XTRIM", "s", "MINID", "~", "33"}), integer(10));
    EXPECT_EQ(ids("s"), "31-0 32-0 33-0 34-0 35-0 ");
    /* The node in the middle of a trim stays whole. */
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "~", "1", "36-0", "f", "36"}), bulk("36-0"));
    EXPECT_EQ(call({"XLEN", "s"}), integer(6));
    /* LIMIT 0: no limit. */
    fill("t", 35);
    EXPECT_EQ(call({"XTRIM", "t", "MAXLEN", "~", "0", "LIMIT", "0"}), integer(35));
}

TEST_P(Streams, XtrimArgumentErrors) {
    fill("s", 3);
    EXPECT_EQ(call({"XTRIM", "s"}), arityErr("xtrim"));
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN"}), arityErr("xtrim"));
    EXPECT_EQ(call({"XTRIM", "s", "LIMIT", "1"}),
              err("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"));
    EXPECT_EQ(call({"XTRIM", "s", "NOMKSTREAM", "1"}), SYNTAX);
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "1", "junk"}), SYNTAX);
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "~", "1", "LIMIT"}), SYNTAX);
    EXPECT_EQ(call({"XTRIM", "s", "FOO", "1"}), SYNTAX);
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "-5"}), err("ERR The MAXLEN argument must be >= 0."));
    EXPECT_EQ(call({"XTRIM", "s", "MINID", "-"}), INVALID_ID);
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "1", "LIMIT", "1"}),
              err("ERR syntax error, LIMIT cannot be used without the special ~ option"));
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "1", "MINID", "1"}),
              err("ERR syntax error, MAXLEN and MINID options at the same time are not compatible"));
    EXPECT_EQ(call({"XLEN", "s"}), integer(3));
    EXPECT_EQ(call({"SET", "str", "x"}), OK);
    EXPECT_EQ(call({"XTRIM", "str", "MAXLEN", "1"}), WRONGTYPE);
    /* Errors in the options come before the key is looked at. */
    EXPECT_EQ(call({"XTRIM", "missing", "MAXLEN", "x"}), NOT_INT);
}

/* ========================================================================
 * XRANGE, XREVRANGE, XLEN
 * ====================================================================== */

TEST_P(Streams, XrangeBounds) {
    for (const char *id : {"1-0", "1-1", "1-2", "2-0", "2-5", "3-0"}) add("s", id, {"f", id});
    EXPECT_EQ(ids("s"), "1-0 1-1 1-2 2-0 2-5 3-0 ");
    /* A start without sequence is ms-0, an end ms-max. */
    EXPECT_EQ(call({"XRANGE", "s", "1", "1"}),
              array({entry("1-0", {"f", "1-0"}), entry("1-1", {"f", "1-1"}), entry("1-2", {"f", "1-2"})}));
    EXPECT_EQ(call({"XRANGE", "s", "(1-1", "(2-5"}), array({entry("1-2", {"f", "1-2"}), entry("2-0", {"f", "2-0"})}));
    EXPECT_EQ(call({"XRANGE", "s", "(1", "2"}), array({entry("1-1", {"f", "1-1"}), entry("1-2", {"f", "1-2"}),
                                                       entry("2-0", {"f", "2-0"}), entry("2-5", {"f", "2-5"})}));
    EXPECT_EQ(call({"XRANGE", "s", "2-1", "2-4"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"XRANGE", "s", "3", "1"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"XRANGE", "s", "(-", "+"}), INVALID_ID); /* "(" then the strict form */
    EXPECT_EQ(call({"XRANGE", "s", "-", "(+"}), INVALID_ID);
    EXPECT_EQ(call({"XRANGE", "s", "(", "+"}), INVALID_ID);
    EXPECT_EQ(call({"XRANGE", "s", "(0-0", "(1-1"}), array({entry("1-0", {"f", "1-0"})}));
    EXPECT_EQ(call({"XRANGE", "s", "(18446744073709551615-18446744073709551615", "+"}),
              err("ERR invalid start ID for the interval"));
    EXPECT_EQ(call({"XRANGE", "s", "-", "(0-0"}), err("ERR invalid end ID for the interval"));
    EXPECT_EQ(call({"XRANGE", "s", "(0", "(0"}), EMPTY_ARRAY); /* the end is 0-max */
    EXPECT_EQ(call({"XRANGE", "s", "x", "+"}), INVALID_ID);
    EXPECT_EQ(call({"XRANGE", "s", "-", "1-x"}), INVALID_ID);
    EXPECT_EQ(call({"XREVRANGE", "s", "+", "-", "COUNT", "2"}),
              array({entry("3-0", {"f", "3-0"}), entry("2-5", {"f", "2-5"})}));
    EXPECT_EQ(call({"XREVRANGE", "s", "(2-5", "(1-1"}), array({entry("2-0", {"f", "2-0"}), entry("1-2", {"f", "1-2"})}));
    EXPECT_EQ(call({"XREVRANGE", "s", "-", "+"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"XREVRANGE", "s", "(-", "+"}), INVALID_ID);
}

TEST_P(Streams, XrangeCountAndErrors) {
    fill("s", 5);
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT", "2"}), array({entry("1-0", {"f", "1"}), entry("2-0", {"f", "2"})}));
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "count", "2", "COUNT", "1"}), array({entry("1-0", {"f", "1"})}));
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT", "0"}), NIL_ARRAY);
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT", "-3"}), NIL_ARRAY);
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT", "100"}).size(), call({"XRANGE", "s", "-", "+"}).size());
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT", "x"}), NOT_INT);
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT"}), SYNTAX);
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "LIMIT", "1"}), SYNTAX);
    EXPECT_EQ(call({"XRANGE", "s", "-"}), arityErr("xrange"));
    EXPECT_EQ(call({"XREVRANGE", "s", "+"}), arityErr("xrevrange"));
    EXPECT_EQ(call({"XRANGE", "missing", "-", "+"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"XRANGE", "missing", "-", "+", "COUNT", "0"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"XRANGE", "missing", "x", "+"}), INVALID_ID); /* the IDs are parsed first */
    EXPECT_EQ(call({"XLEN", "missing"}), integer(0));
    EXPECT_EQ(call({"SET", "str", "x"}), OK);
    EXPECT_EQ(call({"XRANGE", "str", "-", "+"}), WRONGTYPE);
    EXPECT_EQ(call({"XREVRANGE", "str", "+", "-"}), WRONGTYPE);
    EXPECT_EQ(call({"XLEN", "str"}), WRONGTYPE);
    EXPECT_EQ(call({"XLEN", "s", "x"}), arityErr("xlen"));
}

/* ========================================================================
 * XDEL
 * ====================================================================== */

TEST_P(Streams, XdelDeletesWhatIsThereAndKeepsTheStream) {
    fill("s", 5);
    EXPECT_EQ(call({"XDEL", "s", "2-0", "4", "9-0", "2-0"}), integer(2));
    EXPECT_EQ(ids("s"), "1-0 3-0 5-0 ");
    EXPECT_EQ(call({"XLEN", "s"}), integer(3));
    /* One bad ID and nothing is deleted. */
    EXPECT_EQ(call({"XDEL", "s", "1-0", "x"}), INVALID_ID);
    EXPECT_EQ(call({"XDEL", "s", "1-0", "+"}), INVALID_ID);
    EXPECT_EQ(call({"XLEN", "s"}), integer(3));
    EXPECT_EQ(call({"XDEL", "s", "1-0", "3-0", "5-0"}), integer(3));
    EXPECT_EQ(call({"EXISTS", "s"}), integer(1));
    EXPECT_EQ(call({"XLEN", "s"}), integer(0));
    EXPECT_EQ(call({"XADD", "s", "5-0", "f", "v"}), ID_NOT_GREATER); /* the last ID stays */
    EXPECT_EQ(call({"XADD", "s", "6-0", "f", "v"}), bulk("6-0"));
    EXPECT_EQ(call({"XRANGE", "s", "-", "+"}), array({entry("6-0", {"f", "v"})}));
    EXPECT_EQ(call({"XDEL", "missing", "x"}), integer(0)); /* the key first */
    EXPECT_EQ(call({"XDEL", "s"}), arityErr("xdel"));
    EXPECT_EQ(call({"SET", "str", "x"}), OK);
    EXPECT_EQ(call({"XDEL", "str", "1-0"}), WRONGTYPE);
}

/* Deleting the first entry moves the stream's first ID on: XADD MINID and
 * ranges see the rest. */
TEST_P(Streams, XdelOfTheFirstEntries) {
    fill("s", 4);
    EXPECT_EQ(call({"XDEL", "s", "1-0", "2-0"}), integer(2));
    EXPECT_EQ(call({"XRANGE", "s", "-", "+", "COUNT", "1"}), array({entry("3-0", {"f", "3"})}));
    EXPECT_EQ(call({"XREVRANGE", "s", "+", "-", "COUNT", "1"}), array({entry("4-0", {"f", "4"})}));
    EXPECT_EQ(call({"XDEL", "s", "4-0"}), integer(1));
    EXPECT_EQ(call({"XREVRANGE", "s", "+", "-", "COUNT", "1"}), array({entry("3-0", {"f", "3"})}));
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "0"}), integer(1));
    EXPECT_EQ(call({"XLEN", "s"}), integer(0));
}

/* ========================================================================
 * XSETID
 * ====================================================================== */

TEST_P(Streams, XsetidMovesTheLastId) {
    fill("s", 3);
    EXPECT_EQ(call({"XSETID", "s", "100-5"}), OK);
    EXPECT_EQ(call({"XADD", "s", "100-5", "f", "v"}), ID_NOT_GREATER);
    EXPECT_EQ(call({"XADD", "s", "100-*", "f", "v"}), bulk("100-6"));
    EXPECT_EQ(call({"XSETID", "s", "99"}),
              err("ERR The ID specified in XSETID is smaller than the target stream top item"));
    EXPECT_EQ(call({"XSETID", "s", "100-6"}), OK); /* equal to the top item */
    EXPECT_EQ(call({"XSETID", "s", "200", "ENTRIESADDED", "4", "MAXDELETEDID", "150"}), OK);
    EXPECT_EQ(call({"XSETID", "s", "200", "ENTRIESADDED", "3"}),
              err("ERR The entries_added specified in XSETID is smaller than the target stream length"));
    EXPECT_EQ(call({"XSETID", "s", "200", "ENTRIESADDED", "-1"}), err("ERR entries_added must be positive"));
    EXPECT_EQ(call({"XSETID", "s", "200", "ENTRIESADDED", "x"}), NOT_INT);
    EXPECT_EQ(call({"XSETID", "s", "200", "MAXDELETEDID", "201"}),
              err("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id"));
    EXPECT_EQ(call({"XSETID", "s", "200", "MAXDELETEDID", "-"}), INVALID_ID);
    EXPECT_EQ(call({"XSETID", "s", "200", "ENTRIESADDED"}), SYNTAX);
    EXPECT_EQ(call({"XSETID", "s", "200", "FOO", "1"}), SYNTAX);
    EXPECT_EQ(call({"XSETID", "s", "+"}), INVALID_ID);
    EXPECT_EQ(call({"XSETID", "missing", "1-1"}), NO_KEY);
    EXPECT_EQ(call({"XSETID", "missing", "x"}), INVALID_ID);
    EXPECT_EQ(call({"XSETID", "s"}), arityErr("xsetid"));
    /* An empty stream may go anywhere, even back. */
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "0"}), integer(4));
    EXPECT_EQ(call({"XSETID", "s", "5", "ENTRIESADDED", "0"}), OK);
    EXPECT_EQ(call({"XADD", "s", "5-*", "f", "v"}), bulk("5-1"));
    EXPECT_EQ(call({"SET", "str", "x"}), OK);
    EXPECT_EQ(call({"XSETID", "str", "1"}), WRONGTYPE);
}

/* The counters XINFO STREAM shows, kept by XADD, XDEL, XTRIM and XSETID:
 * "length entries-added last-generated-id max-deleted-entry-id
 * recorded-first-entry-id". */
TEST_P(Streams, CountersKeptByEveryWrite) {
    auto counters = [&] {
        Reply r = c->call({"XINFO", "STREAM", "s"});
        std::string out;
        for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
            const std::string &name = r.elements[i].str;
            const Reply &v = r.elements[i + 1];
            if (name == "length" || name == "entries-added") out += std::to_string(v.integer) + " ";
            if (name == "last-generated-id" || name == "max-deleted-entry-id" || name == "recorded-first-entry-id")
                out += v.str + " ";
        }
        return out;
    };
    fill("s", 5);
    EXPECT_EQ(counters(), "5 5-0 0-0 5 1-0 ");
    EXPECT_EQ(call({"XDEL", "s", "3-0"}), integer(1));
    EXPECT_EQ(counters(), "4 5-0 3-0 5 1-0 ");
    EXPECT_EQ(call({"XDEL", "s", "1-0"}), integer(1));
    EXPECT_EQ(counters(), "3 5-0 3-0 5 2-0 ");
    EXPECT_EQ(call({"XTRIM", "s", "MAXLEN", "1"}), integer(2)); /* trimming leaves max-deleted-entry-id */
    EXPECT_EQ(counters(), "1 5-0 3-0 5 5-0 ");
    EXPECT_EQ(call({"XSETID", "s", "10-0", "ENTRIESADDED", "20", "MAXDELETEDID", "9-0"}), OK);
    EXPECT_EQ(counters(), "1 10-0 9-0 20 5-0 ");
    EXPECT_EQ(call({"XADD", "s", "MAXLEN", "0", "11-0", "f", "v"}), bulk("11-0"));
    EXPECT_EQ(counters(), "0 11-0 9-0 21 0-0 ");
    EXPECT_EQ(call({"XSETID", "s", "11-0", "MAXDELETEDID", "0-0"}), OK); /* 0-0 leaves it */
    EXPECT_EQ(counters(), "0 11-0 9-0 21 0-0 ");
}

/* ========================================================================
 * Nodes: stream-node-max-entries / -bytes split the stream
 * ====================================================================== */

/* Small nodes, entries with the master's fields and with others, deletes
 * across node boundaries: every range still reads the same entries. */
TEST_P(Streams, SmallNodesReadAsOneStream) {
    ASSERT_EQ(call({"CONFIG", "SET", "stream-node-max-entries", "3"}), OK);
    std::vector<std::string> all;
    for (int i = 1; i <= 20; i++) {
        std::string id = std::to_string(i) + "-" + std::to_string(i % 3);
        std::vector<std::string> fv = i % 4 == 0 ? std::vector<std::string>{"other", std::to_string(i)}
                                                 : std::vector<std::string>{"f", std::to_string(i), "g", "x"};
        add("s", id, fv);
        all.push_back(entry(id, fv));
    }
    EXPECT_EQ(call({"XRANGE", "s", "-", "+"}), array(all));
    std::vector<std::string> rev(all.rbegin(), all.rend());
    EXPECT_EQ(call({"XREVRANGE", "s", "+", "-"}), array(rev));
    EXPECT_EQ(call({"XRANGE", "s", "5", "9"}), array({all.begin() + 4, all.begin() + 9}));
    EXPECT_EQ(call({"XDEL", "s", "4-1", "5-2", "6-0", "7-1"}), integer(4)); /* a whole node and more */
    all.erase(all.begin() + 3, all.begin() + 7);
    EXPECT_EQ(call({"XRANGE", "s", "-", "+"}), array(all));
    EXPECT_EQ(call({"XRANGE", "s", "3", "9", "COUNT", "2"}), array({all[2], all[3]}));
    EXPECT_EQ(call({"XREVRANGE", "s", "9", "3", "COUNT", "2"}), array({all[4], all[3]}));
    EXPECT_EQ(call({"XLEN", "s"}), integer(16));

    ASSERT_EQ(call({"CONFIG", "SET", "stream-node-max-entries", "0"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "stream-node-max-bytes", "60"}), OK);
    std::vector<std::string> big;
    for (int i = 1; i <= 10; i++) {
        std::string id = std::to_string(i) + "-0";
        add("b", id, {"field", std::string(i * 7, 'x')});
        big.push_back(entry(id, {"field", std::string(i * 7, 'x')}));
    }
    EXPECT_EQ(call({"XRANGE", "b", "-", "+"}), array(big));
    /* Nodes of 60 bytes: the entries past the first few get one each. */
    EXPECT_EQ(call({"XTRIM", "b", "MAXLEN", "~", "2"}), integer(8));
    EXPECT_EQ(call({"XRANGE", "b", "-", "+"}), array({big.begin() + 8, big.end()}));
}

TEST_P(Streams, NodeSettingsThroughConfig) {
    EXPECT_EQ(call({"CONFIG", "GET", "stream-node-max-bytes"}), bulks({"stream-node-max-bytes", "4096"}));
    EXPECT_EQ(call({"CONFIG", "GET", "stream-node-max-entries"}), bulks({"stream-node-max-entries", "100"}));
    EXPECT_EQ(call({"CONFIG", "SET", "stream-node-max-bytes", "8kb"}), OK);
    EXPECT_EQ(call({"CONFIG", "GET", "stream-node-max-bytes"}), bulks({"stream-node-max-bytes", "8192"}));
    EXPECT_EQ(call({"CONFIG", "SET", "stream-node-max-entries", "-1"}),
              err("ERR CONFIG SET failed (possibly related to argument 'stream-node-max-entries') - argument must "
                  "be between 0 and 9223372036854775807 inclusive"));
    EXPECT_EQ(call({"CONFIG", "SET", "stream-node-max-bytes", "x"}),
              err("ERR CONFIG SET failed (possibly related to argument 'stream-node-max-bytes') - argument must be "
                  "a memory value"));
}

/* ========================================================================
 * XREAD and XREADGROUP, served at once
 * ====================================================================== */

TEST_P(Streams, XreadReadsPastEachId) {
    fill("a", 3);
    add("b", "10-0", {"x", "y"});
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "b", "1", "0"}),
              array({streamReply("a", {entry("2-0", {"f", "2"}), entry("3-0", {"f", "3"})}),
                     streamReply("b", {entry("10-0", {"x", "y"})})}));
    EXPECT_EQ(call({"XREAD", "COUNT", "1", "STREAMS", "a", "missing", "b", "0-0", "0", "10"}),
              array({streamReply("a", {entry("1-0", {"f", "1"})})}));
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "b", "$", "$"}), NIL_ARRAY);
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "3"}), NIL_ARRAY);
    EXPECT_EQ(call({"XREAD", "STREAMS", "missing", "0"}), NIL_ARRAY);
    EXPECT_EQ(call({"XREAD", "streams", "a", "2-0"}), array({streamReply("a", {entry("3-0", {"f", "3"})})}));
    EXPECT_EQ(call({"XREAD", "COUNT", "-5", "STREAMS", "a", "2"}), array({streamReply("a", {entry("3-0", {"f", "3"})})}));
    EXPECT_EQ(call({"XREAD", "COUNT", "0", "BLOCK", "10", "COUNT", "1", "STREAMS", "a", "0"}),
              array({streamReply("a", {entry("1-0", {"f", "1"})})}));
    /* Deleted entries past the ID do not count. */
    EXPECT_EQ(call({"XDEL", "a", "3-0"}), integer(1));
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "2"}), NIL_ARRAY);
    /* A key named twice is read twice. */
    EXPECT_EQ(call({"XREAD", "STREAMS", "b", "b", "0", "0"}),
              array({streamReply("b", {entry("10-0", {"x", "y"})}), streamReply("b", {entry("10-0", {"x", "y"})})}));
}

TEST_P(Streams, XreadArgumentErrors) {
    fill("a", 1);
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "b", "0"}),
              err("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified."));
    EXPECT_EQ(call({"XREAD", "COUNT", "1", "a", "0"}), SYNTAX);
    EXPECT_EQ(call({"XREAD", "COUNT", "x", "STREAMS", "a", "0"}), NOT_INT);
    EXPECT_EQ(call({"XREAD", "BLOCK", "x", "STREAMS", "a", "0"}), err("ERR timeout is not an integer or out of range"));
    EXPECT_EQ(call({"XREAD", "BLOCK", "1.5", "STREAMS", "a", "0"}), err("ERR timeout is not an integer or out of range"));
    EXPECT_EQ(call({"XREAD", "BLOCK", "-1", "STREAMS", "a", "0"}), err("ERR timeout is negative"));
    EXPECT_EQ(call({"XREAD", "GROUP", "g", "c", "STREAMS", "a", "0"}),
              err("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead."));
    EXPECT_EQ(call({"XREAD", "NOACK", "STREAMS", "a", "0"}),
              err("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead."));
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", ">"}),
              err("ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> "
                  "option."));
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "+"}), INVALID_ID);
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "x"}), INVALID_ID);
    EXPECT_EQ(call({"XREAD", "STREAMS", "a"}), arityErr("xread"));
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "0", "COUNT"}),
              err("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified."));
    EXPECT_EQ(call({"SET", "str", "x"}), OK);
    EXPECT_EQ(call({"XREAD", "STREAMS", "a", "str", "0", "0"}), WRONGTYPE);
    EXPECT_EQ(call({"XREAD", "STREAMS", "str", "x"}), WRONGTYPE); /* the type before the ID */
    EXPECT_EQ(call({"XREADGROUP", "COUNT", "1", "STREAMS", "a", "b", "0", "0"}),
              err("ERR Missing GROUP option for XREADGROUP"));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "a", ">"}),
              err("NOGROUP No such key 'a' or consumer group 'g' in XREADGROUP with GROUP option"));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "missing", ">"}),
              err("NOGROUP No such key 'missing' or consumer group 'g' in XREADGROUP with GROUP option"));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "STREAMS", "a", ">"}), arityErr("xreadgroup"));
}

/* A client that may not block gets the null array at once: inside MULTI;
 * a script gets an error. */
TEST_P(Streams, XreadBlockWhereItMayNotBlock) {
    fill("a", 1);
    EXPECT_EQ(call({"MULTI"}), OK);
    EXPECT_EQ(call({"XREAD", "BLOCK", "0", "STREAMS", "a", "$"}), QUEUED);
    EXPECT_EQ(call({"XREAD", "BLOCK", "0", "STREAMS", "a", "0"}), QUEUED);
    EXPECT_EQ(call({"EXEC"}), array({NIL_ARRAY, array({streamReply("a", {entry("1-0", {"f", "1"})})})}));
    EXPECT_EQ(call({"EVAL", "return redis.call('XREAD', 'STREAMS', 'a', '$')", "0"}), NIL);
    EXPECT_EQ(call({"EVAL", "return redis.call('XREAD', 'STREAMS', 'a', '0')", "0"}),
              array({streamReply("a", {entry("1-0", {"f", "1"})})}));
    Reply r = c->call({"EVAL", "return redis.call('xread', 'BLOCK', '0', 'STREAMS', 'a', '$')", "0"});
    EXPECT_TRUE(r.isError());
    EXPECT_TRUE(r.str.starts_with("ERR xread command is not allowed with BLOCK option from scripts")) << r.str;
    EXPECT_EQ(call({"XREAD", "BLOCK", "1", "STREAMS", "a", "$"}), NIL_ARRAY); /* a real wait, timed out */
}

TEST_P(Streams, XreadgroupReadsNewEntriesAndItsHistory) {
    fill("s", 4);
    ASSERT_EQ(call({"XGROUP", "CREATE", "s", "g", "0"}), OK);
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">"}),
              array({streamReply("s", {entry("1-0", {"f", "1"}), entry("2-0", {"f", "2"})})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "bob", "COUNT", "1", "STREAMS", "s", ">"}),
              array({streamReply("s", {entry("3-0", {"f", "3"})})}));
    /* The history: the consumer's own pending entries, from an ID. */
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"}),
              array({streamReply("s", {entry("1-0", {"f", "1"}), entry("2-0", {"f", "2"})})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "1-0"}),
              array({streamReply("s", {entry("2-0", {"f", "2"})})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "bob", "COUNT", "5", "STREAMS", "s", "0"}),
              array({streamReply("s", {entry("3-0", {"f", "3"})})}));
    /* A pending entry deleted meanwhile: its ID, no fields. */
    EXPECT_EQ(call({"XDEL", "s", "1-0"}), integer(1));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"}),
              array({streamReply("s", {array({bulk("1-0"), NIL_ARRAY}), entry("2-0", {"f", "2"})})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "carol", "STREAMS", "s", "0"}), array({streamReply("s", {})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "carol", "NOACK", "STREAMS", "s", ">"}),
              array({streamReply("s", {entry("4-0", {"f", "4"})})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "carol", "STREAMS", "s", "0"}), array({streamReply("s", {})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "carol", "STREAMS", "s", ">"}), NIL_ARRAY);
    /* Pending: alice 2 (1-0 and 2-0), bob 1 (3-0), carol none (NOACK). */
    EXPECT_EQ(call({"XPENDING", "s", "g"}),
              array({integer(3), bulk("1-0"), bulk("3-0"),
                     array({array({bulk("alice"), bulk("2")}), array({bulk("bob"), bulk("1")})})}));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "$"}),
              err("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this "
                  "consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just "
                  "return an empty result set."));
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "nope", "alice", "STREAMS", "s", ">"}),
              err("NOGROUP No such key 's' or consumer group 'nope' in XREADGROUP with GROUP option"));
}

/* XGROUP SETID back: an entry pending for one consumer changes hands
 * when another reads it, its delivery count starting over. */
TEST_P(Streams, XreadgroupTakesOverAnEntryPendingForAnother) {
    fill("s", 2);
    ASSERT_EQ(call({"XGROUP", "CREATE", "s", "g", "0"}), OK);
    call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"}); /* delivered twice */
    ASSERT_EQ(call({"XGROUP", "SETID", "s", "g", "0"}), OK);
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "bob", "COUNT", "1", "STREAMS", "s", ">"}),
              array({streamReply("s", {entry("1-0", {"f", "1"})})}));
    Reply pending = c->call({"XPENDING", "s", "g", "-", "+", "10"});
    ASSERT_EQ(pending.elements.size(), 2u) << pending;
    EXPECT_EQ(pending.elements[0].elements[1].str, "bob");
    EXPECT_EQ(pending.elements[0].elements[3].integer, 1);
    EXPECT_EQ(pending.elements[1].elements[1].str, "alice");
    EXPECT_EQ(pending.elements[1].elements[3].integer, 2);
    EXPECT_EQ(call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"}),
              array({streamReply("s", {entry("2-0", {"f", "2"})})}));
}

/* ========================================================================
 * The keyspace: TYPE, SCAN TYPE, COPY, RENAME, MEMORY USAGE
 * ====================================================================== */

TEST_P(Streams, CopyIsDeepAndRenameMoves) {
    fill("s", 3);
    ASSERT_EQ(call({"XGROUP", "CREATE", "s", "g", "0"}), OK);
    call({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">"});
    EXPECT_EQ(call({"COPY", "s", "t"}), integer(1));
    EXPECT_EQ(call({"XADD", "t", "4-0", "f", "4"}), bulk("4-0"));
    EXPECT_EQ(call({"XDEL", "t", "1-0"}), integer(1));
    call({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "t", ">"});
    EXPECT_EQ(ids("s"), "1-0 2-0 3-0 ");
    EXPECT_EQ(ids("t"), "2-0 3-0 4-0 ");
    EXPECT_EQ(call({"XPENDING", "s", "g"}),
              array({integer(1), bulk("1-0"), bulk("1-0"), array({array({bulk("alice"), bulk("1")})})}));
    EXPECT_EQ(call({"XPENDING", "t", "g"}),
              array({integer(4), bulk("1-0"), bulk("4-0"),
                     array({array({bulk("alice"), bulk("1")}), array({bulk("bob"), bulk("3")})})}));
    EXPECT_EQ(call({"XADD", "s", "3-0", "f", "v"}), ID_NOT_GREATER); /* its last ID came along */
    EXPECT_EQ(call({"RENAME", "t", "u"}), OK);
    EXPECT_EQ(call({"TYPE", "t"}), "+none\r\n");
    EXPECT_EQ(call({"TYPE", "u"}), "+stream\r\n");
    EXPECT_EQ(ids("u"), "2-0 3-0 4-0 ");
    EXPECT_EQ(call({"SET", "str", "x"}), OK);
    std::vector<std::string> keys = scanAll(*c, {"SCAN"}, {"TYPE", "stream"});
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(keys, (std::vector<std::string>{"s", "u"}));
    EXPECT_EQ(call({"OBJECT", "ENCODING", "u"}), bulk("stream"));
}

TEST_P(Streams, MemoryUsageGrowsWithTheEntries) {
    add("s", "1-0", {"f", "v"});
    long long one = c->call({"MEMORY", "USAGE", "s"}).integer;
    Args many{"XADD", "s", "", "field", std::string(50, 'x')};
    for (int i = 2; i <= 300; i++) {
        many[2] = std::to_string(i) + "-0";
        ASSERT_EQ(call(many), bulk(many[2]));
    }
    long long all = c->call({"MEMORY", "USAGE", "s", "SAMPLES", "0"}).integer;
    EXPECT_GT(one, 16);
    EXPECT_GT(all, one + 299 * 50); /* at least the values' bytes */
    EXPECT_LT(all, one + 299 * 200);
    ASSERT_EQ(call({"XGROUP", "CREATE", "s", "g", "0"}), OK);
    call({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    EXPECT_GT(c->call({"MEMORY", "USAGE", "s", "SAMPLES", "0"}).integer, all + 300 * 16); /* the NACKs */
}

TEST_P(Streams, WritesTouchWatchedKeys) {
    RespConn other = srv->connect();
    fill("s", 3);
    ASSERT_EQ(call({"XGROUP", "CREATE", "s", "g", "0"}), OK);
    for (const Args &write :
         std::vector<Args>{{"XADD", "s", "10-0", "f", "v"}, {"XDEL", "s", "1-0"}, {"XTRIM", "s", "MAXLEN", "1"}}) {
        SCOPED_TRACE(describe(write));
        call({"WATCH", "s"});
        EXPECT_FALSE(other.call(write).isError());
        call({"MULTI"});
        call({"XLEN", "s"});
        EXPECT_EQ(call({"EXEC"}), NIL_ARRAY);
    }
    /* What changes nothing lets the transaction through. */
    for (const Args &noop : std::vector<Args>{{"XDEL", "s", "1-0"}, {"XTRIM", "s", "MAXLEN", "5"},
                                              {"XRANGE", "s", "-", "+"}, {"XREAD", "STREAMS", "s", "0"}}) {
        SCOPED_TRACE(describe(noop));
        call({"WATCH", "s"});
        other.call(noop);
        call({"MULTI"});
        call({"XLEN", "s"});
        EXPECT_EQ(call({"EXEC"}), array({integer(1)}));
    }
}

/* ========================================================================
 * Keyspace events
 * ====================================================================== */

TEST_P(Streams, KeyspaceEvents) {
    RespConn sub = srv->connect();
    ASSERT_EQ(sub.call({"PSUBSCRIBE", "__keyevent@0__:*"}).raw,
              array({bulk("psubscribe"), bulk("__keyevent@0__:*"), integer(1)}));
    ASSERT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", "Et"}), OK);
    /* Every event, then a marker, the events read up to the marker. */
    auto events = [&](const Args &cmd) {
        c->call(cmd);
        call({"XADD", "marker", "*", "f", "v"});
        std::vector<std::string> out;
        for (;;) {
            Reply r = sub.readReply();
            std::string event = r.elements.at(2).str.substr(std::string("__keyevent@0__:").size());
            if (r.elements.at(3).str == "marker") break;
            out.push_back(event + " " + r.elements.at(3).str);
        }
        return out;
    };
    using Ev = std::vector<std::string>;
    EXPECT_EQ(events({"XADD", "s", "1-0", "f", "v"}), (Ev{"xadd s"}));
    EXPECT_EQ(events({"XADD", "s", "MAXLEN", "1", "2-0", "f", "v"}), (Ev{"xadd s", "xtrim s"}));
    EXPECT_EQ(events({"XADD", "s", "MAXLEN", "5", "3-0", "f", "v"}), (Ev{"xadd s"}));
    EXPECT_EQ(events({"XADD", "s", "3-0", "f", "v"}), Ev{}); /* refused */
    EXPECT_EQ(events({"XADD", "s", "NOMKSTREAM", "MAXLEN", "0", "4-0", "f", "v"}), (Ev{"xadd s", "xtrim s"}));
    EXPECT_EQ(events({"XDEL", "s", "4-0"}), Ev{});
    EXPECT_EQ(events({"XADD", "s", "5-0", "f", "v"}), (Ev{"xadd s"}));
    EXPECT_EQ(events({"XDEL", "s", "5-0", "6-0"}), (Ev{"xdel s"}));
    EXPECT_EQ(events({"XADD", "s", "6-0", "f", "v"}), (Ev{"xadd s"}));
    EXPECT_EQ(events({"XTRIM", "s", "MAXLEN", "1"}), Ev{});
    EXPECT_EQ(events({"XTRIM", "s", "MAXLEN", "0"}), (Ev{"xtrim s"}));
    EXPECT_EQ(events({"XSETID", "s", "9"}), (Ev{"xsetid s"}));
    EXPECT_EQ(events({"XSETID", "s", "x"}), Ev{});
    EXPECT_EQ(events({"XADD", "s", "10-0", "f", "v"}), (Ev{"xadd s"}));
    EXPECT_EQ(events({"XRANGE", "s", "-", "+"}), Ev{});
    EXPECT_EQ(events({"XGROUP", "CREATE", "s", "g", "0"}), (Ev{"xgroup-create s"}));
    EXPECT_EQ(events({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"}), (Ev{"xgroup-createconsumer s"}));
    EXPECT_EQ(events({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"}), Ev{});
    EXPECT_EQ(events({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"}), Ev{}); /* nothing for bob */
    EXPECT_EQ(events({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", "0"}), (Ev{"xgroup-createconsumer s"}));
}

}  // namespace

namespace {

/* ========================================================================
 * Introspection: DEBUG OBJECT (cppredis only: Redis's has DEBUG off), and
 * MEMORY USAGE against Redis's
 * ====================================================================== */

class StreamsIntrospection : public FreshServerTest {};

TEST_F(StreamsIntrospection, DebugObjectNamesTheEncoding) {
    call({"XADD", "s", "1-1", "f", "v"});
    EXPECT_EQ(debugField("s", "encoding"), "stream");
    EXPECT_FALSE(debugField("s", "serializedlength").empty());
}

/* A stream costs no more than Redis 7.0 says its own does: the same
 * nodes, and a rax measured rather than estimated. */
TEST(StreamsMemory, UsageNoMoreThanRedis) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours;
    RedisReference ref;
    RespConn a = ours.connect(), b = ref.connect();
    for (RespConn *c : {&a, &b}) {
        std::string wire;
        for (int i = 1; i <= 1000; i++)
            wire += encodeCommand({"XADD", "s", std::to_string(i) + "-0", "field", "value" + std::to_string(i)});
        c->send(wire);
        for (int i = 0; i < 1000; i++) ASSERT_FALSE(c->readReply().isError());
        ASSERT_EQ(c->call({"XGROUP", "CREATE", "s", "g", "0"}).raw, OK);
        ASSERT_FALSE(c->call({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "100", "STREAMS", "s", ">"}).isError());
    }
    for (const Args &usage : std::vector<Args>{{"MEMORY", "USAGE", "s"}, {"MEMORY", "USAGE", "s", "SAMPLES", "0"}}) {
        long long mine = a.call(usage).integer, redis = b.call(usage).integer;
        EXPECT_GT(mine, 1000 * 10) << describe(usage);
        EXPECT_LE(mine, redis) << describe(usage);
    }
}

/* ========================================================================
 * Propagation: what the AOF gets, compared with Redis 7.0.15's
 * ====================================================================== */

/* Commands whose propagation Redis 7.0 rewrites: XADD with the ID it
 * produced, approximate trims as the exact ones they were, XREADGROUP as
 * XCLAIMs, XGROUP CREATECONSUMER and SETID (a served waiter's too), and
 * what changes nothing not at all. */
void runStreamPropagationScript(RespConn &c, RespConn &waiter) {
    std::vector<Args> script = {
        {"SELECT", "3"},
        {"CONFIG", "SET", "stream-node-max-entries", "2"},
        {"XADD", "s", "1-0", "f", "v"},
        {"XADD", "s", "*", "f", "v"},
        {"XADD", "t", "5-*", "a", "1"},
        {"XADD", "t", "5-*", "a", "2"},
        {"XADD", "t", "5", "a", "3"},
        {"XADD", "t", "NOMKSTREAM", "6-*", "a", "3"},
        {"XADD", "missing", "NOMKSTREAM", "*", "a", "3"},
        {"XADD", "u", "1-0", "f", "v"}, {"XADD", "u", "2-0", "f", "v"}, {"XADD", "u", "3-0", "f", "v"},
        {"XADD", "u", "4-0", "f", "v"}, {"XADD", "u", "5-0", "f", "v"}, {"XADD", "u", "6-0", "f", "v"},
        {"XADD", "u", "MAXLEN", "~", "3", "7-0", "f", "v"},
        {"XADD", "u", "MAXLEN", "~", "100", "8-0", "f", "v"},
        {"XADD", "u", "MAXLEN", "~", "2", "LIMIT", "1", "*", "f", "v"},
        {"XTRIM", "u", "MINID", "~", "8"},
        {"XTRIM", "u", "MAXLEN", "~", "50"},
        {"XTRIM", "u", "MAXLEN", "=", "1"},
        {"XDEL", "u", "1-0"},
        {"XDEL", "t", "5-0", "5-1"},
        {"XSETID", "t", "9-9", "ENTRIESADDED", "7", "MAXDELETEDID", "5-1"},
        {"XREAD", "STREAMS", "s", "0"},
        {"XGROUP", "CREATE", "s", "g", "0"},
        {"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">"},
        {"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"},
        {"XREADGROUP", "GROUP", "g", "bob", "NOACK", "STREAMS", "s", ">"},
        {"XREADGROUP", "GROUP", "g", "carol", "STREAMS", "s", ">"},
        {"XGROUP", "CREATE", "t", "g", "$"},
    };
    for (const Args &cmd : script) c.call(cmd);
    waiter.call({"SELECT", "3"});
    waiter.cmd({"XREADGROUP", "GROUP", "g", "dave", "BLOCK", "0", "STREAMS", "t", ">"});
    EXPECT_TRUE(pollUntil([&] { return infoNumber(c, "clients", "blocked_clients") == 1; }));
    c.call({"XADD", "t", "10-0", "f", "v"});
    EXPECT_FALSE(waiter.readReply().isError());
    waiter.cmd({"XREADGROUP", "GROUP", "g", "erin", "NOACK", "BLOCK", "0", "STREAMS", "t", ">"});
    EXPECT_TRUE(pollUntil([&] { return infoNumber(c, "clients", "blocked_clients") == 1; }));
    c.call({"XADD", "t", "11-0", "f", "v"});
    EXPECT_FALSE(waiter.readReply().isError());
}

TEST(StreamPropagation, AofSameBytesAsRedis7) {
    REQUIRE_REDIS_REFERENCE();
    std::string theirs = aofWrittenBy(ServerImpl::Redis, runStreamPropagationScript);
    ASSERT_FALSE(theirs.empty());
    EXPECT_EQ(escape(maskUnixMs(aofWrittenBy(ServerImpl::Cppredis, runStreamPropagationScript)), 1 << 20),
              escape(maskUnixMs(theirs), 1 << 20));
}

}  // namespace
