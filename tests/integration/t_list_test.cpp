/* t_list_test.cpp — integration tests of the list type (t_list.cpp): every
 * list command with its errors, wrong types, ranges, counts of 0 and
 * negative, the LPOS options; every ziplist -> linkedlist conversion trigger
 * (a 65-byte value, a 513th entry) through each command that adds, checked
 * with OBJECT ENCODING, and that a linkedlist stays one; the introspection
 * (DEBUG OBJECT, DEBUG ZIPLIST, MEMORY USAGE, CONFIG); and differential runs
 * against Debian's redis-server, byte for byte, encodings aside (Redis 7
 * answers quicklist where cppredis answers ziplist or linkedlist).
 *
 * Every expected byte below was taken from Redis 7.0.15 answering the same
 * request. */
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

class Lists : public FreshServerTest {
protected:
    std::string range(const std::string &key) { return call({"LRANGE", key, "0", "-1"}); }
    /* A new list of n elements "e0".."e<n-1>", pushed by one RPUSH. */
    void fill(const std::string &key, int n, const std::string &prefix = "e") {
        Args args{"RPUSH", key};
        for (int i = 0; i < n; i++) args.push_back(prefix + std::to_string(i));
        ASSERT_EQ(call(args), integer(n)) << "fill " << key;
    }
};

/* ========================================================================
 * Pushing
 * ====================================================================== */

TEST_F(Lists, PushAddsAtEitherEndAndRepliesTheLength) {
    EXPECT_EQ(call({"LPUSH", "l", "a", "b", "c"}), integer(3));
    EXPECT_EQ(call({"RPUSH", "l", "x", "y"}), integer(5));
    EXPECT_EQ(range("l"), bulks({"c", "b", "a", "x", "y"}));
    EXPECT_EQ(call({"TYPE", "l"}), "+list\r\n");
    EXPECT_EQ(encoding("l"), "ziplist");
    /* Numbers are stored as integers in the ziplist and read back as given. */
    EXPECT_EQ(call({"RPUSH", "n", "0", "12", "-1", "255", "70000", "-9223372036854775808", "007", "+1", "1.5", ""}),
              integer(10));
    EXPECT_EQ(range("n"), bulks({"0", "12", "-1", "255", "70000", "-9223372036854775808", "007", "+1", "1.5", ""}));
    EXPECT_EQ(call({"LPUSH", "bin", std::string("a\0b\r\n", 5)}), integer(1));
    EXPECT_EQ(call({"LINDEX", "bin", "0"}), bulk(std::string("a\0b\r\n", 5)));
}

TEST_F(Lists, PushxOnlyPushesOntoAnExistingList) {
    EXPECT_EQ(call({"LPUSHX", "l", "a"}), integer(0));
    EXPECT_EQ(call({"RPUSHX", "l", "a", "b"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
    call({"RPUSH", "l", "m"});
    EXPECT_EQ(call({"LPUSHX", "l", "a", "b"}), integer(3));
    EXPECT_EQ(call({"RPUSHX", "l", "y", "z"}), integer(5));
    EXPECT_EQ(range("l"), bulks({"b", "a", "m", "y", "z"}));
}

TEST_F(Lists, WrongTypeAndArity) {
    call({"SET", "s", "v"});
    for (const Args &args : std::vector<Args>{
             {"LPUSH", "s", "a"}, {"RPUSH", "s", "a"}, {"LPUSHX", "s", "a"}, {"RPUSHX", "s", "a"},
             {"LINSERT", "s", "BEFORE", "a", "b"}, {"LLEN", "s"}, {"LINDEX", "s", "0"}, {"LSET", "s", "0", "a"},
             {"LRANGE", "s", "0", "1"}, {"LTRIM", "s", "0", "1"}, {"LREM", "s", "0", "a"}, {"LPOP", "s"},
             {"RPOP", "s", "2"}, {"RPOPLPUSH", "s", "d"}, {"LMOVE", "s", "d", "LEFT", "RIGHT"}, {"LPOS", "s", "a"},
             {"LMPOP", "1", "s", "LEFT"}})
        EXPECT_EQ(call(args), WRONGTYPE) << describe(args);
    EXPECT_EQ(call({"GET", "s"}), bulk("v"));
    call({"RPUSH", "l", "a"});
    EXPECT_EQ(call({"GET", "l"}), WRONGTYPE);
    EXPECT_EQ(call({"LPUSH", "l"}), err("ERR wrong number of arguments for 'lpush' command"));
    EXPECT_EQ(call({"LPOP", "l", "1", "2"}), err("ERR wrong number of arguments for 'lpop' command"));
    EXPECT_EQ(call({"LINSERT", "l", "BEFORE", "a"}), err("ERR wrong number of arguments for 'linsert' command"));
    EXPECT_EQ(call({"LMPOP", "1", "l"}), err("ERR wrong number of arguments for 'lmpop' command"));
}

/* ========================================================================
 * LINSERT, LSET, LINDEX, LLEN
 * ====================================================================== */

TEST_F(Lists, Linsert) {
    EXPECT_EQ(call({"LINSERT", "l", "BEFORE", "a", "x"}), integer(0)); /* missing key */
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
    call({"RPUSH", "l", "a", "b", "a"});
    EXPECT_EQ(call({"LINSERT", "l", "before", "a", "x"}), integer(4)); /* the first match */
    EXPECT_EQ(call({"LINSERT", "l", "AFTER", "a", "y"}), integer(5));
    EXPECT_EQ(call({"LINSERT", "l", "After", "b", "z"}), integer(6));
    EXPECT_EQ(call({"LINSERT", "l", "AFTER", "nothere", "z"}), integer(-1));
    EXPECT_EQ(range("l"), bulks({"x", "a", "y", "b", "z", "a"}));
    /* After the tail is a push; numbers match whatever their encoding. */
    call({"RPUSH", "n", "1", "100"});
    EXPECT_EQ(call({"LINSERT", "n", "AFTER", "100", "end"}), integer(3));
    EXPECT_EQ(call({"LINSERT", "n", "BEFORE", "1", "start"}), integer(4));
    EXPECT_EQ(call({"LINSERT", "n", "BEFORE", "01", "no"}), integer(-1));
    EXPECT_EQ(range("n"), bulks({"start", "1", "100", "end"}));
    /* The syntax is checked before the key. */
    EXPECT_EQ(call({"LINSERT", "l", "MIDDLE", "a", "b"}), SYNTAX);
    EXPECT_EQ(call({"LINSERT", "nokey", "MIDDLE", "a", "b"}), SYNTAX);
}

TEST_F(Lists, LsetLindexLlen) {
    EXPECT_EQ(call({"LSET", "l", "0", "x"}), NO_KEY);
    EXPECT_EQ(call({"LSET", "l", "x", "x"}), NO_KEY); /* the key is looked up first */
    EXPECT_EQ(call({"LLEN", "l"}), integer(0));
    EXPECT_EQ(call({"LINDEX", "l", "0"}), NIL);
    EXPECT_EQ(call({"LINDEX", "l", "x"}), NIL);
    call({"RPUSH", "l", "a", "b", "c"});
    EXPECT_EQ(call({"LLEN", "l"}), integer(3));
    EXPECT_EQ(call({"LINDEX", "l", "0"}), bulk("a"));
    EXPECT_EQ(call({"LINDEX", "l", "-1"}), bulk("c"));
    EXPECT_EQ(call({"LINDEX", "l", "-3"}), bulk("a"));
    EXPECT_EQ(call({"LINDEX", "l", "3"}), NIL);
    EXPECT_EQ(call({"LINDEX", "l", "-4"}), NIL);
    EXPECT_EQ(call({"LINDEX", "l", "x"}), NOT_INT);
    EXPECT_EQ(call({"LINDEX", "l", "9223372036854775808"}), NOT_INT);
    EXPECT_EQ(call({"LSET", "l", "1", "B"}), OK);
    EXPECT_EQ(call({"LSET", "l", "-1", "12345"}), OK);
    EXPECT_EQ(call({"LSET", "l", "0", "a-much-longer-value"}), OK);
    EXPECT_EQ(range("l"), bulks({"a-much-longer-value", "B", "12345"}));
    EXPECT_EQ(call({"LSET", "l", "3", "x"}), OUT_OF_RANGE);
    EXPECT_EQ(call({"LSET", "l", "-4", "x"}), OUT_OF_RANGE);
    EXPECT_EQ(call({"LSET", "l", "x", "x"}), NOT_INT);
}

/* ========================================================================
 * LRANGE, LTRIM, LREM
 * ====================================================================== */

TEST_F(Lists, LrangeClampsItsRange) {
    EXPECT_EQ(call({"LRANGE", "l", "0", "-1"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"LRANGE", "l", "x", "1"}), NOT_INT); /* parsed before the lookup */
    call({"RPUSH", "l", "a", "b", "c", "d"});
    EXPECT_EQ(call({"LRANGE", "l", "1", "2"}), bulks({"b", "c"}));
    EXPECT_EQ(call({"LRANGE", "l", "-2", "100"}), bulks({"c", "d"}));
    EXPECT_EQ(call({"LRANGE", "l", "-100", "0"}), bulks({"a"}));
    EXPECT_EQ(call({"LRANGE", "l", "2", "1"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"LRANGE", "l", "4", "10"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"LRANGE", "l", "0", "-5"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"LRANGE", "l", "-9223372036854775808", "9223372036854775807"}), bulks({"a", "b", "c", "d"}));
    EXPECT_EQ(call({"LRANGE", "l", "0", "1.5"}), NOT_INT);
}

TEST_F(Lists, LtrimKeepsTheRangeAndDeletesAnEmptiedList) {
    EXPECT_EQ(call({"LTRIM", "l", "0", "1"}), OK);
    EXPECT_EQ(call({"LTRIM", "l", "x", "1"}), NOT_INT);
    fill("l", 6);
    EXPECT_EQ(call({"LTRIM", "l", "1", "-2"}), OK);
    EXPECT_EQ(range("l"), bulks({"e1", "e2", "e3", "e4"}));
    EXPECT_EQ(call({"LTRIM", "l", "-100", "100"}), OK);
    EXPECT_EQ(call({"LLEN", "l"}), integer(4));
    EXPECT_EQ(call({"LTRIM", "l", "2", "1"}), OK);
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
}

TEST_F(Lists, LremFromEitherEnd) {
    EXPECT_EQ(call({"LREM", "l", "0", "a"}), integer(0));
    EXPECT_EQ(call({"LREM", "l", "x", "a"}), NOT_INT);
    call({"RPUSH", "l", "a", "b", "a", "c", "a", "1"});
    EXPECT_EQ(call({"LREM", "l", "-2", "a"}), integer(2));
    EXPECT_EQ(range("l"), bulks({"a", "b", "c", "1"}));
    EXPECT_EQ(call({"LREM", "l", "1", "01"}), integer(0));
    EXPECT_EQ(call({"LREM", "l", "5", "1"}), integer(1));
    EXPECT_EQ(call({"LREM", "l", "0", "nothere"}), integer(0));
    EXPECT_EQ(call({"RPUSH", "l", "a", "a"}), integer(5));
    EXPECT_EQ(call({"LREM", "l", "0", "a"}), integer(3));
    EXPECT_EQ(range("l"), bulks({"b", "c"}));
    /* Redis 7.0 negates LONG_MIN by wrapping around: every match goes. */
    call({"RPUSH", "l", "b", "b"});
    EXPECT_EQ(call({"LREM", "l", "-9223372036854775808", "b"}), integer(3));
    EXPECT_EQ(call({"LREM", "l", "1", "c"}), integer(1));
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
}

/* ========================================================================
 * Popping and moving
 * ====================================================================== */

TEST_F(Lists, PopWithAndWithoutCount) {
    EXPECT_EQ(call({"LPOP", "l"}), NIL);
    EXPECT_EQ(call({"RPOP", "l", "2"}), NIL_ARRAY);
    EXPECT_EQ(call({"LPOP", "l", "0"}), NIL_ARRAY);
    EXPECT_EQ(call({"LPOP", "l", "-1"}), NOT_POSITIVE); /* parsed before the lookup */
    EXPECT_EQ(call({"LPOP", "l", "x"}), NOT_POSITIVE);
    fill("l", 6);
    EXPECT_EQ(call({"LPOP", "l"}), bulk("e0"));
    EXPECT_EQ(call({"RPOP", "l"}), bulk("e5"));
    EXPECT_EQ(call({"LPOP", "l", "0"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"RPOP", "l", "-5"}), NOT_POSITIVE);
    EXPECT_EQ(call({"LPOP", "l", "2"}), bulks({"e1", "e2"}));
    EXPECT_EQ(call({"RPOP", "l", "1"}), bulks({"e4"}));
    EXPECT_EQ(call({"RPOP", "l", "100"}), bulks({"e3"}));
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
    call({"RPUSH", "l", "1", "2", "3"});
    EXPECT_EQ(call({"RPOP", "l", "9223372036854775807"}), bulks({"3", "2", "1"}));
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
    call({"RPUSH", "l", "only"});
    EXPECT_EQ(call({"RPOP", "l"}), bulk("only"));
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
}

TEST_F(Lists, RpoplpushAndLmove) {
    EXPECT_EQ(call({"RPOPLPUSH", "src", "dst"}), NIL);
    EXPECT_EQ(call({"LMOVE", "src", "dst", "LEFT", "RIGHT"}), NIL);
    EXPECT_EQ(call({"EXISTS", "dst"}), integer(0));
    call({"RPUSH", "src", "a", "b", "c"});
    EXPECT_EQ(call({"RPOPLPUSH", "src", "dst"}), bulk("c"));
    EXPECT_EQ(call({"LMOVE", "src", "dst", "left", "right"}), bulk("a"));
    EXPECT_EQ(call({"LMOVE", "src", "dst", "RIGHT", "LEFT"}), bulk("b"));
    EXPECT_EQ(call({"EXISTS", "src"}), integer(0)); /* emptied, so deleted */
    EXPECT_EQ(range("dst"), bulks({"b", "c", "a"}));
    /* The same list: a rotation. */
    EXPECT_EQ(call({"RPOPLPUSH", "dst", "dst"}), bulk("a"));
    EXPECT_EQ(call({"LMOVE", "dst", "dst", "LEFT", "RIGHT"}), bulk("a"));
    EXPECT_EQ(range("dst"), bulks({"b", "c", "a"}));
    call({"RPUSH", "one", "x"});
    EXPECT_EQ(call({"LMOVE", "one", "one", "LEFT", "LEFT"}), bulk("x"));
    EXPECT_EQ(range("one"), bulks({"x"}));
    /* Errors: the directions first, then the types of both keys. */
    EXPECT_EQ(call({"LMOVE", "dst", "x", "UP", "LEFT"}), SYNTAX);
    EXPECT_EQ(call({"LMOVE", "dst", "x", "LEFT", "DOWN"}), SYNTAX);
    EXPECT_EQ(call({"LMOVE", "nokey", "x", "LEFT", "DOWN"}), SYNTAX);
    call({"SET", "s", "v"});
    EXPECT_EQ(call({"RPOPLPUSH", "dst", "s"}), WRONGTYPE);
    EXPECT_EQ(call({"RPOPLPUSH", "s", "dst"}), WRONGTYPE);
    EXPECT_EQ(call({"RPOPLPUSH", "nokey", "s"}), NIL);
    EXPECT_EQ(range("dst"), bulks({"b", "c", "a"})); /* nothing popped on error */
}

TEST_F(Lists, Lmpop) {
    EXPECT_EQ(call({"LMPOP", "2", "a", "b", "LEFT"}), NIL_ARRAY);
    call({"RPUSH", "b", "1", "2", "3"});
    EXPECT_EQ(call({"LMPOP", "2", "a", "b", "LEFT"}), array({bulk("b"), bulks({"1"})}));
    EXPECT_EQ(call({"LMPOP", "2", "a", "b", "RIGHT", "COUNT", "5"}), array({bulk("b"), bulks({"3", "2"})}));
    EXPECT_EQ(call({"EXISTS", "b"}), integer(0));
    const std::string NUMKEYS = err("ERR numkeys should be greater than 0");
    const std::string COUNT = err("ERR count should be greater than 0");
    for (const Args &args : std::vector<Args>{{"LMPOP", "0", "a", "LEFT"}, {"LMPOP", "-1", "a", "LEFT"},
                                              {"LMPOP", "x", "a", "LEFT"}})
        EXPECT_EQ(call(args), NUMKEYS) << describe(args);
    for (const Args &args : std::vector<Args>{
             {"LMPOP", "2", "a", "LEFT"}, {"LMPOP", "9223372036854775807", "a", "LEFT"}, {"LMPOP", "1", "a", "UP"},
             {"LMPOP", "1", "a", "LEFT", "COUNT"}, {"LMPOP", "1", "a", "LEFT", "COUNT", "1", "COUNT", "1"},
             {"LMPOP", "1", "a", "LEFT", "BOGUS"}})
        EXPECT_EQ(call(args), SYNTAX) << describe(args);
    EXPECT_EQ(call({"LMPOP", "1", "a", "LEFT", "COUNT", "0"}), COUNT);
    EXPECT_EQ(call({"LMPOP", "1", "a", "LEFT", "COUNT", "x"}), COUNT);
    /* A key of another type stops the search, even after missing keys. */
    call({"SET", "s", "v"});
    call({"RPUSH", "c", "x"});
    EXPECT_EQ(call({"LMPOP", "3", "a", "s", "c", "LEFT"}), WRONGTYPE);
    EXPECT_EQ(call({"LMPOP", "3", "a", "c", "s", "LEFT"}), array({bulk("c"), bulks({"x"})}));
    /* Its keys are found by parsing numkeys, which COMMAND INFO tells. */
    const std::string info = "*1\r\n*10\r\n$5\r\nlmpop\r\n:-4\r\n*2\r\n+write\r\n+movablekeys\r\n:0\r\n:0\r\n:0\r\n";
    EXPECT_EQ(call({"COMMAND", "INFO", "LMPOP"}).substr(0, info.size()), info);
}

/* ========================================================================
 * LPOS
 * ====================================================================== */

TEST_F(Lists, LposOptions) {
    EXPECT_EQ(call({"LPOS", "l", "a"}), NIL);
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "1"}), EMPTY_ARRAY);
    call({"RPUSH", "l", "a", "b", "a", "c", "a", "1"});
    EXPECT_EQ(call({"LPOS", "l", "a"}), integer(0));
    EXPECT_EQ(call({"LPOS", "l", "1"}), integer(5));
    EXPECT_EQ(call({"LPOS", "l", "z"}), NIL);
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "2"}), integer(2));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "-1"}), integer(4));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "-3"}), integer(0));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "4"}), NIL);
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "0"}), array({integer(0), integer(2), integer(4)}));
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "2"}), array({integer(0), integer(2)}));
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "2", "RANK", "-1"}), array({integer(4), integer(2)}));
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "0", "MAXLEN", "3"}), array({integer(0), integer(2)}));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "-1", "MAXLEN", "2"}), integer(4));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "-1", "MAXLEN", "1"}), NIL);
    EXPECT_EQ(call({"LPOS", "l", "c", "MAXLEN", "3"}), NIL);
    EXPECT_EQ(call({"LPOS", "l", "z", "COUNT", "0"}), EMPTY_ARRAY);
    /* Redis 7.0's wrap-around of RANK -LONG_MIN: all matches from the tail. */
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "-9223372036854775808", "COUNT", "1"}),
              array({integer(4), integer(2), integer(0)}));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "9223372036854775807"}), NIL);
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "0"}),
              err("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use "
                  "negative to start from the end of the list"));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK", "x"}), NOT_INT);
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "-1"}), err("ERR COUNT can't be negative"));
    EXPECT_EQ(call({"LPOS", "l", "a", "COUNT", "x"}), err("ERR COUNT can't be negative"));
    EXPECT_EQ(call({"LPOS", "l", "a", "MAXLEN", "-1"}), err("ERR MAXLEN can't be negative"));
    EXPECT_EQ(call({"LPOS", "l", "a", "RANK"}), SYNTAX);
    EXPECT_EQ(call({"LPOS", "l", "a", "BOGUS", "1"}), SYNTAX);
    EXPECT_EQ(call({"LPOS", "nokey", "a", "RANK", "0"}).substr(0, 20), "-ERR RANK can't be z"); /* options first */
}

/* ========================================================================
 * Conversions: a 65-byte value or a 513th entry, through every command
 * that adds, turns the ziplist into a linkedlist for good.
 * ====================================================================== */

const std::string v64(64, 'v'), v65(65, 'w');

TEST_F(Lists, LongValueConvertsThroughEveryCommandThatAdds) {
    struct Case {
        const char *name;
        Args prepare; /* leaves key "l" a ziplist */
        Args add64, add65;
        Args source = {"RPUSH", "src", v64, v65}; /* for the moves, in the order they pop */
    };
    const std::vector<Case> cases = {
        {"LPUSH", {"RPUSH", "l", "a"}, {"LPUSH", "l", v64}, {"LPUSH", "l", v65}},
        {"RPUSH", {"RPUSH", "l", "a"}, {"RPUSH", "l", v64}, {"RPUSH", "l", "b", v65}},
        {"LPUSHX", {"RPUSH", "l", "a"}, {"LPUSHX", "l", v64}, {"LPUSHX", "l", v65}},
        {"RPUSHX", {"RPUSH", "l", "a"}, {"RPUSHX", "l", v64}, {"RPUSHX", "l", v65}},
        {"LINSERT", {"RPUSH", "l", "a"}, {"LINSERT", "l", "BEFORE", "a", v64}, {"LINSERT", "l", "AFTER", "a", v65}},
        {"LSET", {"RPUSH", "l", "a", "b"}, {"LSET", "l", "0", v64}, {"LSET", "l", "-1", v65}},
        {"RPOPLPUSH", {"RPUSH", "l", "a"}, {"RPOPLPUSH", "src", "l"}, {"RPOPLPUSH", "src", "l"}, {"LPUSH", "src", v64, v65}},
        {"LMOVE", {"RPUSH", "l", "a"}, {"LMOVE", "src", "l", "LEFT", "RIGHT"}, {"LMOVE", "src", "l", "LEFT", "LEFT"}},
    };
    for (const Case &k : cases) {
        SCOPED_TRACE(k.name);
        call({"DEL", "l", "src"});
        call(k.source);
        call(k.prepare);
        EXPECT_FALSE(c.call(k.add64).isError());
        EXPECT_EQ(encoding("l"), "ziplist") << "a 64-byte value fits";
        EXPECT_FALSE(c.call(k.add65).isError());
        EXPECT_EQ(encoding("l"), "linkedlist") << "a 65-byte value does not";
        std::string all = range("l");
        EXPECT_NE(all.find(v64), std::string::npos);
        EXPECT_NE(all.find(v65), std::string::npos);
    }
    /* A new list takes the encoding of its first value. */
    call({"DEL", "l"});
    call({"RPUSH", "l", v65});
    EXPECT_EQ(encoding("l"), "linkedlist");
}

TEST_F(Lists, FiveHundredThirteenthEntryConvertsThroughEveryCommandThatAdds) {
    struct Case {
        const char *name;
        Args add513; /* key "l" holds 512 entries e0..e511 */
    };
    const std::vector<Case> cases = {
        {"LPUSH", {"LPUSH", "l", "x"}},
        {"RPUSH", {"RPUSH", "l", "x"}},
        {"LPUSHX", {"LPUSHX", "l", "x"}},
        {"RPUSHX", {"RPUSHX", "l", "x"}},
        {"LINSERT", {"LINSERT", "l", "AFTER", "e100", "x"}},
        {"RPOPLPUSH", {"RPOPLPUSH", "src", "l"}},
        {"LMOVE", {"LMOVE", "src", "l", "RIGHT", "RIGHT"}},
    };
    for (const Case &k : cases) {
        SCOPED_TRACE(k.name);
        call({"DEL", "l", "src"});
        call({"RPUSH", "src", "x"});
        fill("l", 512);
        EXPECT_EQ(encoding("l"), "ziplist");
        EXPECT_EQ(call(k.add513).substr(0, 1), k.add513[0] == "RPOPLPUSH" || k.add513[0] == "LMOVE" ? "$" : ":");
        EXPECT_EQ(call({"LLEN", "l"}), integer(513));
        EXPECT_EQ(encoding("l"), "linkedlist");
    }
    /* One command pushing past the limit converts halfway, losing nothing. */
    call({"DEL", "l"});
    Args many{"RPUSH", "l"};
    for (int i = 0; i < 600; i++) many.push_back(std::to_string(i));
    EXPECT_EQ(call(many), integer(600));
    EXPECT_EQ(encoding("l"), "linkedlist");
    EXPECT_EQ(call({"LINDEX", "l", "511"}), bulk("511"));
    EXPECT_EQ(call({"LINDEX", "l", "599"}), bulk("599"));
}

TEST_F(Lists, OnlyAValueReallyAddedConverts) {
    call({"RPUSH", "l", "a"});
    EXPECT_EQ(call({"LINSERT", "l", "BEFORE", "nothere", v65}), integer(-1));
    EXPECT_EQ(call({"LSET", "l", "5", v65}), OUT_OF_RANGE);
    EXPECT_EQ(call({"LPUSHX", "nokey", v65}), integer(0));
    EXPECT_EQ(encoding("l"), "ziplist");
    /* Moving a short value does not convert either list. */
    call({"RPUSH", "src", "x"});
    call({"RPOPLPUSH", "src", "l"});
    EXPECT_EQ(encoding("l"), "ziplist");
}

TEST_F(Lists, LinkedlistNeverConvertsBack) {
    fill("l", 513);
    call({"RPUSH", "big", v65, "a"});
    ASSERT_EQ(encoding("l"), "linkedlist");
    ASSERT_EQ(encoding("big"), "linkedlist");
    EXPECT_EQ(call({"LTRIM", "l", "0", "1"}), OK);
    EXPECT_EQ(call({"LPOP", "big"}), bulk(v65));
    EXPECT_EQ(call({"LLEN", "l"}), integer(2));
    EXPECT_EQ(encoding("l"), "linkedlist");
    EXPECT_EQ(encoding("big"), "linkedlist");
    /* Every command still works on it. */
    EXPECT_EQ(call({"LINSERT", "l", "BEFORE", "e1", "m"}), integer(3));
    EXPECT_EQ(call({"LSET", "l", "0", "first"}), OK);
    EXPECT_EQ(range("l"), bulks({"first", "m", "e1"}));
    EXPECT_EQ(call({"LPOS", "l", "e1"}), integer(2));
    EXPECT_EQ(call({"LREM", "l", "0", "m"}), integer(1));
    EXPECT_EQ(call({"RPOP", "l", "5"}), bulks({"e1", "first"}));
    EXPECT_EQ(call({"EXISTS", "l"}), integer(0));
    /* A deleted list starts over as a ziplist. */
    call({"RPUSH", "l", "a"});
    EXPECT_EQ(encoding("l"), "ziplist");
}

TEST_F(Lists, ThresholdsAreConfigurable) {
    EXPECT_EQ(call({"CONFIG", "GET", "list-max-ziplist-*"}),
              bulks({"list-max-ziplist-entries", "512", "list-max-ziplist-value", "64", "list-max-ziplist-size", "-2"}));
    EXPECT_EQ(call({"CONFIG", "SET", "list-max-ziplist-entries", "3", "list-max-ziplist-value", "4"}), OK);
    call({"RPUSH", "a", "1", "2", "3"});
    EXPECT_EQ(encoding("a"), "ziplist");
    call({"RPUSH", "a", "4"});
    EXPECT_EQ(encoding("a"), "linkedlist");
    call({"RPUSH", "b", "abcd"});
    EXPECT_EQ(encoding("b"), "ziplist");
    call({"RPUSH", "b", "abcde"});
    EXPECT_EQ(encoding("b"), "linkedlist");
    /* A list already past the new limit stays as it is until it grows. */
    EXPECT_EQ(call({"CONFIG", "SET", "list-max-ziplist-entries", "1"}), OK);
    call({"RPUSH", "c", "1"});
    EXPECT_EQ(encoding("c"), "ziplist");
    EXPECT_EQ(call({"CONFIG", "SET", "list-max-ziplist-entries", "-1"}),
              err("ERR CONFIG SET failed (possibly related to argument 'list-max-ziplist-entries') - argument must "
                  "be between 0 and 9223372036854775807 inclusive"));
    EXPECT_EQ(call({"CONFIG", "SET", "list-max-ziplist-value", "abc"}),
              err("ERR CONFIG SET failed (possibly related to argument 'list-max-ziplist-value') - argument "
                  "couldn't be parsed into an integer"));
}

TEST(ListsConfig, ThresholdsFromTheCommandLineAndRedisConf) {
    TempFile conf("list-max-ziplist-entries 2\n");
    TestServer srv(ServerOptions{{"--list-max-ziplist-value", "3"}, conf.path()});
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"CONFIG", "GET", "list-max-ziplist-*"}).raw,
              bulks({"list-max-ziplist-entries", "2", "list-max-ziplist-value", "3", "list-max-ziplist-size", "-2"}));
    c.call({"RPUSH", "a", "abc", "2"});
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "a"}).str, "ziplist");
    c.call({"RPUSH", "a", "3"});
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "a"}).str, "linkedlist");
}

/* ========================================================================
 * Introspection
 * ====================================================================== */

TEST_F(Lists, DebugObjectShowsEncodingAndSerializedLength) {
    call({"RPUSH", "l", "a", "b", "c"});
    EXPECT_EQ(debugField("l", "encoding"), "ziplist");
    /* The ziplist is saved as one string: 20 bytes, after a 1-byte length. */
    EXPECT_EQ(debugField("l", "serializedlength"), "21");
    call({"CONFIG", "SET", "list-max-ziplist-value", "1"});
    call({"RPUSH", "k", "aa", "12", "70000"});
    EXPECT_EQ(debugField("k", "encoding"), "linkedlist");
    /* Length (1) + "aa" (1 + 2) + 12 as int8 (2) + 70000 as int32 (5). */
    EXPECT_EQ(debugField("k", "serializedlength"), "11");
}

TEST_F(Lists, DebugZiplistLogsTheEntries) {
    call({"RPUSH", "l", "a", "1", "-300"});
    EXPECT_EQ(call({"DEBUG", "ZIPLIST", "l"}), "+Ziplist structure printed on stdout\r\n");
    EXPECT_TRUE(srv.waitForLog("{total bytes 20} {num entries 3}"));
    EXPECT_TRUE(srv.waitForLog("{index 2, offset 15, rawlen 4, prevrawlen 2, prevrawlensize 1, encoding ZIP_INT_16B"));
    EXPECT_TRUE(srv.waitForLog("[int] -300}\n{end}"));
    EXPECT_EQ(call({"DEBUG", "ZIPLIST", "nokey"}), NO_KEY);
    call({"SET", "s", "v"});
    EXPECT_EQ(call({"DEBUG", "ZIPLIST", "s"}), err("ERR Not a ziplist encoded object."));
    call({"RPUSH", "big", v65});
    EXPECT_EQ(call({"DEBUG", "ZIPLIST", "big"}), err("ERR Not a ziplist encoded object."));
    /* A table far longer than one log message arrives whole. */
    fill("long", 500, "a-longer-element-name-");
    EXPECT_EQ(call({"DEBUG", "ZIPLIST", "long"}), "+Ziplist structure printed on stdout\r\n");
    EXPECT_TRUE(srv.waitForLog("{index 499, "));
}

TEST_F(Lists, MemoryUsageCountsTheElements) {
    call({"RPUSH", "small", "a"});
    fill("zl", 100);
    long long small = c.call({"MEMORY", "USAGE", "small"}).integer;
    long long zl = c.call({"MEMORY", "USAGE", "zl"}).integer;
    EXPECT_GT(zl, small + 300);
    fill("ll", 600);
    long long ll = c.call({"MEMORY", "USAGE", "ll"}).integer;
    long long all = c.call({"MEMORY", "USAGE", "ll", "SAMPLES", "0"}).integer;
    EXPECT_GT(ll, 600 * 24);
    EXPECT_GT(all, 600 * 24);
    EXPECT_EQ(call({"MEMORY", "USAGE", "ll", "SAMPLES", "-1"}), SYNTAX);
}

TEST_F(Lists, WritesTouchWatchedKeys) {
    RespConn other = srv.connect();
    call({"RPUSH", "l", "a", "b"});
    for (const Args &write : std::vector<Args>{{"LPUSH", "l", "x"}, {"LPOP", "l"}, {"LTRIM", "l", "0", "-1"},
                                               {"LSET", "l", "0", "y"}, {"RPOPLPUSH", "l", "l"}}) {
        SCOPED_TRACE(describe(write));
        call({"WATCH", "l"});
        EXPECT_FALSE(other.call(write).isError());
        call({"MULTI"});
        call({"LLEN", "l"});
        EXPECT_EQ(call({"EXEC"}), NIL_ARRAY);
    }
    /* A failed LINSERT changes nothing, so the transaction goes through. */
    call({"WATCH", "l"});
    other.call({"LINSERT", "l", "BEFORE", "nothere", "x"});
    call({"MULTI"});
    call({"LLEN", "l"});
    EXPECT_EQ(call({"EXEC"}), array({integer(2)}));
}

TEST_F(Lists, CopyIsDeep) {
    call({"RPUSH", "zl", "a", "1"});
    call({"RPUSH", "ll", v65, "b"});
    EXPECT_EQ(call({"COPY", "zl", "zl2"}), integer(1));
    EXPECT_EQ(call({"COPY", "ll", "ll2"}), integer(1));
    call({"RPUSH", "zl2", "more"});
    call({"LPOP", "ll2"});
    EXPECT_EQ(range("zl"), bulks({"a", "1"}));
    EXPECT_EQ(range("ll"), bulks({v65, "b"}));
    EXPECT_EQ(encoding("zl2"), "ziplist");
    EXPECT_EQ(encoding("ll2"), "linkedlist");
}

/* ========================================================================
 * Differential: the same commands on cppredis and on Redis 7
 * ====================================================================== */

std::vector<Args> listScript() {
    std::vector<Args> script = {
        {"LPUSH", "l", "a", "b", "c", "1", "2", "3"}, {"RPUSH", "l", "x", "y", "123456789012", "-5", v64, v65},
        {"LRANGE", "l", "0", "-1"}, {"LRANGE", "l", "-3", "100"}, {"LRANGE", "l", "5", "2"}, {"LLEN", "l"},
        {"LINDEX", "l", "0"}, {"LINDEX", "l", "-1"}, {"LINDEX", "l", "100"}, {"LINDEX", "nokey", "x"},
        {"LSET", "l", "0", "new"}, {"LSET", "l", "100", "x"}, {"LSET", "nokey", "0", "x"}, {"LSET", "l", "x", "y"},
        {"LINSERT", "l", "BEFORE", "new", "pivot"}, {"LINSERT", "l", "AFTER", "-5", "end"},
        {"LINSERT", "l", "AFTER", "nothere", "z"}, {"LINSERT", "l", "MIDDLE", "a", "b"}, {"LRANGE", "l", "0", "-1"},
        {"LREM", "l", "0", "a"}, {"LREM", "l", "1", "b"}, {"LREM", "l", "-1", "c"}, {"LTRIM", "l", "1", "-2"},
        {"LRANGE", "l", "0", "-1"}, {"LTRIM", "l", "5", "1"}, {"EXISTS", "l"},
        {"RPUSH", "l", "a", "b", "c", "d", "e", "f"}, {"LPOP", "l"}, {"RPOP", "l"}, {"LPOP", "l", "2"},
        {"RPOP", "l", "2"}, {"LPOP", "l", "0"}, {"LPOP", "l", "-1"}, {"LPOP", "nokey", "2"}, {"LPOP", "nokey", "0"},
        {"LPOP", "l", "5"}, {"EXISTS", "l"},
        {"RPUSH", "l", "a", "b", "c"}, {"RPOPLPUSH", "l", "l"}, {"RPOPLPUSH", "l", "m"},
        {"LMOVE", "l", "m", "LEFT", "RIGHT"}, {"LMOVE", "m", "l", "RIGHT", "LEFT"}, {"LMOVE", "l", "m", "UP", "LEFT"},
        {"LRANGE", "l", "0", "-1"}, {"LRANGE", "m", "0", "-1"},
        {"RPUSH", "p", "a", "b", "a", "c", "a", "b"}, {"LPOS", "p", "a", "RANK", "-2", "COUNT", "2", "MAXLEN", "3"},
        {"LPOS", "p", "b", "COUNT", "0"}, {"LPOS", "p", "a", "RANK", "-9223372036854775808"},
        {"LMPOP", "2", "nokey", "p", "LEFT"}, {"LMPOP", "2", "nokey", "p", "RIGHT", "COUNT", "3"},
        {"LMPOP", "1", "p", "LEFT", "COUNT", "100"}, {"EXISTS", "p"},
        {"SET", "s", "v"}, {"LPUSH", "s", "x"}, {"LMPOP", "2", "nokey", "s", "LEFT"}, {"RPOPLPUSH", "m", "s"},
        {"TYPE", "m"}, {"OBJECT", "REFCOUNT", "m"}, {"DEL", "m"}, {"LLEN", "m"},
    };
    /* Past 512 entries, through pushes and an insert. */
    Args big{"RPUSH", "big"};
    for (int i = 0; i < 520; i++) big.push_back(std::to_string(i * 7919));
    script.push_back(big);
    for (const Args &args : std::vector<Args>{{"LINSERT", "big", "BEFORE", "7919", "i"}, {"LINDEX", "big", "300"},
                                              {"LRANGE", "big", "-5", "-1"}, {"LRANGE", "big", "250", "260"},
                                              {"LREM", "big", "-2", "0"}, {"LPOS", "big", "15838"},
                                              {"LTRIM", "big", "10", "20"}, {"LRANGE", "big", "0", "-1"},
                                              {"RPOP", "big", "3"}, {"LMPOP", "1", "big", "RIGHT", "COUNT", "2"}})
        script.push_back(args);
    return script;
}

TEST(ListsDifferential, ScriptMatchesRedisByteForByte) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours;
    RedisReference ref;
    RespConn a = ours.connect(), b = ref.connect();
    expectSameScript(a, b, listScript());
}

/* A random stream of list commands on a few keys, values from a pool that
 * straddles the conversion thresholds. On cppredis the thresholds are
 * lowered (4 entries, 8 bytes) in one run so that lists convert all the
 * time; Redis's replies must not notice either way. */
class ListsRandomDifferential : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(ListsRandomDifferential, RepliesMatchRedis) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours(GetParam());
    RedisReference ref;
    RespConn a = ours.connect(), b = ref.connect();
    std::mt19937_64 rng(20260401);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    const std::vector<std::string> values = {"a", "b", "0", "1", "-1", "12", "255", "70000", "007", "1.5",
                                             "9223372036854775807", "", std::string(8, 'v'), std::string(9, 'w'),
                                             v64, v65, std::string(300, 'x')};
    const std::vector<std::string> ends = {"LEFT", "RIGHT"};
    auto key = [&] { return "k" + std::to_string(pick(3)); };
    auto value = [&] { return values[pick(values.size())]; };
    auto index = [&] { return std::to_string(static_cast<long>(pick(24)) - 12); };
    for (int i = 0; i < 6000; i++) {
        Args args;
        switch (pick(18)) {
        case 0: args = {"LPUSH", key(), value(), value()}; break;
        case 1: args = {"RPUSH", key(), value(), value(), value()}; break;
        case 2: args = {pick(2) ? "LPUSHX" : "RPUSHX", key(), value()}; break;
        case 3: args = {"LINSERT", key(), pick(2) ? "BEFORE" : "AFTER", value(), value()}; break;
        case 4: args = {"LSET", key(), index(), value()}; break;
        case 5: args = {"LINDEX", key(), index()}; break;
        case 6: args = {"LRANGE", key(), index(), index()}; break;
        case 7: args = {"LTRIM", key(), index(), std::to_string(pick(40))}; break;
        case 8: args = {"LREM", key(), index(), value()}; break;
        case 9: args = {pick(2) ? "LPOP" : "RPOP", key()}; break;
        case 10: args = {pick(2) ? "LPOP" : "RPOP", key(), std::to_string(pick(4))}; break;
        case 11: args = {"RPOPLPUSH", key(), key()}; break;
        case 12: args = {"LMOVE", key(), key(), ends[pick(2)], ends[pick(2)]}; break;
        case 13: args = {"LPOS", key(), value(), "RANK", pick(2) ? "1" : "-2", "COUNT", std::to_string(pick(3))}; break;
        case 14: args = {"LMPOP", "2", key(), key(), ends[pick(2)], "COUNT", std::to_string(pick(3) + 1)}; break;
        case 15: args = {"LLEN", key()}; break;
        case 16: args = pick(10) ? Args{"RPUSH", key(), value(), value(), value(), value(), value(), value()}
                                 : Args{"SET", key(), value()};
            break;
        default: args = {"LRANGE", key(), "0", "-1"}; break;
        }
        a.cmd(args);
        b.cmd(args);
        Reply ra = a.readReply(), rb = b.readReply();
        ASSERT_EQ(escape(ra.raw), escape(rb.raw)) << "command #" << i << ": " << describe(args);
    }
}

INSTANTIATE_TEST_SUITE_P(Thresholds, ListsRandomDifferential,
                         ::testing::Values(std::vector<std::string>{},
                                           std::vector<std::string>{"--list-max-ziplist-entries", "4",
                                                                    "--list-max-ziplist-value", "8"}));

}  // namespace
