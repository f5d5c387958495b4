/* t_zset_test.cpp — integration tests of the sorted set type (t_zset.cpp):
 * every sorted-set command with its options, errors, wrong types and
 * arities; how scores print and parse (inf, -0, 17 digits, "(1.5", "",
 * "0x10", lex bounds); every ziplist -> skiplist conversion trigger (a 129th
 * member, a 65-byte member) through each command that adds (ZADD, ZINCRBY,
 * the results of ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE, ZRANGESTORE, which
 * take the encoding their size calls for), and that a skiplist never turns
 * back; ZRANDMEMBER's properties; ZSCAN; COPY, TYPE, SCAN TYPE, MEMORY
 * USAGE, DEBUG OBJECT; and a randomized differential run of the commands
 * against Redis, byte for byte.
 *
 * Each scenario runs twice, against cppredis and against Debian's Redis
 * 7.0.15 (the Servers/ instantiations), so every expected byte below is
 * proven against Redis by the same test. The one difference by design is
 * the encoding's name: Redis 7 says "listpack" where cppredis keeps Redis
 * 2.6's "ziplist"; encoding() reports the reference's in cppredis's words.
 * Replies whose order Redis leaves to chance (ZRANDMEMBER, ZSCAN of a hash
 * table) are checked by their properties. */
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string NOT_A_FLOAT_RANGE = err("ERR min or max is not a float");
const std::string NOT_A_LEX_RANGE = err("ERR min or max not valid string range item");
const std::string NAN_RESULT = err("ERR resulting score is not a number (NaN)");

/* A reply of member/score pairs, scores spelled as Redis prints them. */
std::string pairs(const std::vector<std::pair<std::string, std::string>> &items) {
    std::vector<std::string> flat;
    for (const auto &[member, score] : items) {
        flat.push_back(member);
        flat.push_back(score);
    }
    return bulks(flat);
}

/* "ZADD z 1 a" -> {"ZADD", "z", "1", "a"}: for arguments without blanks. */
Args words(std::string_view line) {
    Args out;
    for (size_t at = 0; at < line.size();) {
        size_t end = line.find(' ', at);
        if (end == std::string_view::npos) end = line.size();
        out.emplace_back(line.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

Args operator+(Args a, const Args &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

/* One request and the reply Redis 7.0.15 gives it. */
struct Step {
    Args args;
    std::string reply;
    Step(std::string_view line, std::string r) : args(words(line)), reply(std::move(r)) {}
    Step(Args a, std::string r) : args(std::move(a)), reply(std::move(r)) {}
};

class Zsets : public EitherServerTest {
protected:
    using EitherServerTest::call;
    std::string call(std::string_view line) { return call(words(line)); }
    void run(const std::vector<Step> &steps) {
        for (const Step &s : steps) EXPECT_EQ(call(s.args), s.reply) << describe(s.args);
    }
    /* ZADD key with scores 0..n-1 for members prefix0..prefix<n-1>. */
    void fill(const std::string &key, int n, const std::string &prefix = "m", int from = 0) {
        Args args{"ZADD", key};
        for (int i = from; i < from + n; i++) {
            args.push_back(std::to_string(i));
            args.push_back(prefix + std::to_string(i));
        }
        ASSERT_EQ(call(args), integer(n)) << "fill " << key;
    }
    std::vector<std::string> strings(const Args &args) {
        Reply r = c->call(args);
        EXPECT_EQ(r.type, Reply::Type::Array) << describe(args) << " -> " << r;
        std::vector<std::string> out;
        for (const Reply &e : r.elements) out.push_back(e.str);
        return out;
    }
};

/* ========================================================================
 * ZADD and ZINCRBY
 * ====================================================================== */

TEST_P(Zsets, ZaddAddsUpdatesAndCounts) {
    run({
        {"ZADD z 1 a 2 b", integer(2)},
        {"ZADD z 3 a 2 b 4 c", integer(1)}, /* only c is new */
        {"ZADD z CH 5 a 2 b 6 d", integer(2)}, /* a updated, d added, b unchanged */
        {"ZRANGE z 0 -1 WITHSCORES", pairs({{"b", "2"}, {"c", "4"}, {"a", "5"}, {"d", "6"}})},
        {"ZADD z 1 x 1 x 2 x", integer(1)}, /* the last score wins */
        {"ZSCORE z x", bulk("2")},
        {"TYPE z", "+zset\r\n"},
        {"ZADD z nx 10 a 10 e", integer(1)},
        {"ZADD z xx ch 11 a 11 f", integer(1)},
        {"EXISTS f", integer(0)},
        {"ZADD z gt ch 1 a 12 b", integer(1)},
        {"ZADD z lt ch 1 a 12 c", integer(1)},
        {"ZADD z gt 5 new", integer(1)}, /* GT/LT never stop an addition */
        {"ZRANGE z 0 -1 WITHSCORES",
         pairs({{"a", "1"}, {"x", "2"}, {"c", "4"}, {"new", "5"}, {"d", "6"}, {"e", "10"}, {"b", "12"}})},
        {"ZADD nokey xx 1 a", integer(0)},
        {"ZADD nokey xx incr 1 a", NIL},
        {"EXISTS nokey", integer(0)}, /* XX on a missing key creates nothing */
        {"ZADD z NX XX 1 a", err("ERR XX and NX options at the same time are not compatible")},
        {"ZADD z gt lt 1 a", err("ERR GT, LT, and/or NX options at the same time are not compatible")},
        {"ZADD z nx gt 1 a", err("ERR GT, LT, and/or NX options at the same time are not compatible")},
        {"ZADD z nx lt 1 a", err("ERR GT, LT, and/or NX options at the same time are not compatible")},
        {"ZADD z incr 1 a 2 b", err("ERR INCR option supports a single increment-element pair")},
        {"ZADD z xx 1", SYNTAX},
        {"ZADD z 1 a 2", SYNTAX},
        {"ZADD z foo 1 a", SYNTAX},
        {"ZADD z foo a", NOT_FLOAT},
        {"ZADD z 1 a x b", NOT_FLOAT}, /* every score is checked before anything is added */
        {"ZSCORE z b", bulk("12")},
        {"ZADD z nan a", NOT_FLOAT},
        {"ZADD z 1e400 a", NOT_FLOAT},
        {Args{"ZADD", "z", " 1", "a"}, NOT_FLOAT},
        {Args{"ZADD", "z", "", "a"}, NOT_FLOAT},
        {"ZADD z", arityErr("zadd")},
        {"ZADD z xx", arityErr("zadd")},
        {"ZADD z 1", arityErr("zadd")},
    });
}

TEST_P(Zsets, ZaddIncrAndZincrby) {
    run({
        {"ZINCRBY z 1.5 a", bulk("1.5")},
        {"ZINCRBY z -3 a", bulk("-1.5")},
        {"ZADD z INCR 2 a", bulk("0.5")},
        {"ZADD z gt incr 0 a", NIL}, /* not greater: nothing done */
        {"ZADD z gt incr 1 a", bulk("1.5")},
        {"ZADD z lt incr 1 a", NIL},
        {"ZADD z xx incr 1 nothere", NIL},
        {"ZADD z nx incr 1 a", NIL},
        {"ZADD z incr 0 a", bulk("1.5")},
        {"ZADD z incr inf a", bulk("inf")},
        {"ZADD z incr -inf a", NAN_RESULT},
        {"ZINCRBY z -inf a", NAN_RESULT},
        {"ZSCORE z a", bulk("inf")}, /* unchanged by the failures */
        {"ZINCRBY z abc a", NOT_FLOAT},
        {"ZINCRBY z nan a", NOT_FLOAT},
        {"ZINCRBY z nx a", SYNTAX}, /* ZINCRBY is ZADD INCR: the option words are read as options */
        {"ZINCRBY z incr a", SYNTAX},
        {"ZINCRBY z 1 ch", bulk("1")},
        {"ZINCRBY z -0.0 m0", bulk("-0")}, /* the reply is the sum; stored as 0 (next test) */
        {"ZINCRBY z 1", arityErr("zincrby")},
        {"ZINCRBY z 1 a b", arityErr("zincrby")},
    });
}

/* Redis 7.0's addReplyDouble: "inf", integers without ".0", else %.17g. The
 * ziplist keeps a whole score as an integer (so -0 comes back as 0, and
 * ZSCAN shows 123456789012345680 where ZSCORE says 1.2345678901234568e+17);
 * a skiplist keeps the double as it is. */
TEST_P(Zsets, ScoresPrintAsRedis7) {
    run({
        {"ZADD z 0.1 p 1e300 q -0.0 r 3.0000000000000004 s -inf t 1e-320 u 123456789012345678 v", integer(7)},
        {"ZRANGE z 0 -1 WITHSCORES",
         pairs({{"t", "-inf"}, {"r", "0"}, {"u", "9.9998886718268301e-321"}, {"p", "0.10000000000000001"},
                {"s", "3.0000000000000004"}, {"v", "1.2345678901234568e+17"}, {"q", "1.0000000000000001e+300"}})},
        {"ZSCORE z r", bulk("0")},
        {"ZADD b 4503599627370496 p52 -4503599627370495 n52 4611686018427387904 p62 4611686018427388928 p62b "
         "-4611686018427387904 n62 -4611686018427388928 n62b 9.3e18 huge",
         integer(7)},
        {"ZSCAN b 0", array({bulk("0"), bulks({"n62b", "-4.6116860184273889e+18", "n62", "-4611686018427387904",
                                               "n52", "-4503599627370495", "p52", "4503599627370496", "p62",
                                               "4611686018427387904", "p62b", "4.6116860184273889e+18", "huge",
                                               "9.3e+18"})})},
        {"ZSCAN z 0 MATCH v", array({bulk("0"), bulks({"v", "123456789012345680"})})},
        {"CONFIG SET zset-max-ziplist-entries 0", OK},
        {"ZADD sk -0.0 x 123456789012345678 v", integer(2)},
        {"ZSCORE sk x", bulk("-0")},
        {"ZSCAN sk 0 MATCH v", array({bulk("0"), bulks({"v", "1.2345678901234568e+17"})})},
        {"ZSCAN sk 0 MATCH x", array({bulk("0"), bulks({"x", "-0"})})},
    });
    EXPECT_EQ(encoding("sk"), "skiplist");
}

/* ========================================================================
 * Reading: ZSCORE, ZMSCORE, ZCARD, ZRANK, ZREVRANK, ZCOUNT, ZLEXCOUNT
 * ====================================================================== */

TEST_P(Zsets, ReadingMembers) {
    run({
        {"ZADD z 1 a 2 b 3 c 4 d", integer(4)},
        {"ZSCORE z c", bulk("3")},
        {"ZSCORE z x", NIL},
        {"ZSCORE nokey a", NIL},
        {"ZMSCORE z a x c", array({bulk("1"), NIL, bulk("3")})},
        {"ZMSCORE nokey a b", array({NIL, NIL})},
        {"ZCARD z", integer(4)},
        {"ZCARD nokey", integer(0)},
        {"ZRANK z a", integer(0)},
        {"ZRANK z c", integer(2)},
        {"ZREVRANK z c", integer(1)},
        {"ZREVRANK z a", integer(3)},
        {"ZRANK z x", NIL},
        {"ZRANK nokey x", NIL},
        {"ZCOUNT z -inf +inf", integer(4)},
        {"ZCOUNT z (1 (4", integer(2)},
        {"ZCOUNT z 2 2", integer(1)},
        {"ZCOUNT z (2 2", integer(0)},
        {"ZCOUNT z 3 1", integer(0)},
        {"ZCOUNT nokey 0 1", integer(0)},
        {"ZCOUNT nokey a b", NOT_A_FLOAT_RANGE}, /* the range is checked first */
        {"ZSCORE z", arityErr("zscore")},
        {"ZMSCORE z", arityErr("zmscore")},
        {"ZCARD z x", arityErr("zcard")},
        {"ZRANK z c withscore", arityErr("zrank")},
        {"ZREVRANK z", arityErr("zrevrank")},
        {"ZCOUNT z 1", arityErr("zcount")},
        {"ZLEXCOUNT z -", arityErr("zlexcount")},
    });
}

/* Score bounds are read by strtod on the argument as a C string, as in
 * Redis: blanks, hex, "" and an embedded NUL pass; NaN and trailing bytes
 * do not. */
TEST_P(Zsets, ScoreRangeParsing) {
    run({
        {"ZADD z 0 zero 1 a 2 b 16 h", integer(4)},
        {"ZCOUNT z ( 5", integer(2)},   /* "(" is "(0" */
        {Args{"ZCOUNT", "z", "", "1"}, integer(2)},
        {Args{"ZCOUNT", "z", " 1", "2"}, integer(2)},
        {"ZCOUNT z 0x10 0x10", integer(1)},
        {"ZCOUNT z 1e-999 1e999", integer(4)}, /* underflow is 0, overflow inf */
        {"ZCOUNT z -1e999 +inf", integer(4)},
        {Args{"ZCOUNT", "z", std::string("1\0junk", 6), "1"}, integer(1)},
        {"ZCOUNT z (nan 5", NOT_A_FLOAT_RANGE},
        {"ZCOUNT z nan 5", NOT_A_FLOAT_RANGE},
        {"ZCOUNT z 1x 5", NOT_A_FLOAT_RANGE},
        {Args{"ZCOUNT", "z", "1", "2 "}, NOT_A_FLOAT_RANGE},
        {"ZCOUNT z ((1 5", NOT_A_FLOAT_RANGE},
        {"ZRANGEBYSCORE z (0 (16", bulks({"a", "b"})},
        {"ZREVRANGEBYSCORE z (16 (0", bulks({"b", "a"})},
    });
}

TEST_P(Zsets, LexRanges) {
    run({
        {"ZADD z 0 a 0 b 0 c 0 d 0 e", integer(5)},
        {"ZRANGEBYLEX z - +", bulks({"a", "b", "c", "d", "e"})},
        {"ZRANGEBYLEX z (a [c", bulks({"b", "c"})},
        {"ZRANGEBYLEX z [c (a", EMPTY_ARRAY},
        {"ZRANGEBYLEX z + -", EMPTY_ARRAY},
        {"ZRANGEBYLEX z - -", EMPTY_ARRAY},
        {"ZRANGEBYLEX z [b [b", bulks({"b"})},
        {"ZRANGEBYLEX z (b [b", EMPTY_ARRAY},
        {"ZRANGEBYLEX z [ +", bulks({"a", "b", "c", "d", "e"})},
        {"ZRANGEBYLEX z ( (b", bulks({"a"})},
        {"ZRANGEBYLEX z - + LIMIT 1 2", bulks({"b", "c"})},
        {"ZRANGEBYLEX z - + LIMIT 3 -1", bulks({"d", "e"})},
        {"ZREVRANGEBYLEX z + - LIMIT 0 2", bulks({"e", "d"})},
        {"ZREVRANGEBYLEX z (d [b", bulks({"c", "b"})},
        {"ZLEXCOUNT z - +", integer(5)},
        {"ZLEXCOUNT z [b (d", integer(2)},
        {"ZLEXCOUNT nokey - +", integer(0)},
        {Args{"ZLEXCOUNT", "z", std::string("+\0x", 3), "-"}, integer(0)}, /* read as a C string: "+" */
        {Args{"ZLEXCOUNT", "z", "-", std::string("+\0x", 3)}, integer(5)},
        {"ZRANGEBYLEX z a +", NOT_A_LEX_RANGE},
        {"ZRANGEBYLEX z [a +x", NOT_A_LEX_RANGE},
        {"ZRANGEBYLEX z - +inf", NOT_A_LEX_RANGE},
        {Args{"ZRANGEBYLEX", "z", "", "+"}, NOT_A_LEX_RANGE},
        {"ZLEXCOUNT nokey a b", NOT_A_LEX_RANGE},
        {"ZRANGEBYLEX z - + WITHSCORES", err("ERR syntax error, WITHSCORES not supported in combination with BYLEX")},
        {"ZRANGEBYLEX z - + LIMIT 0", SYNTAX},
        {"ZRANGEBYLEX z -", arityErr("zrangebylex")},
    });
}

/* ========================================================================
 * The ZRANGE family
 * ====================================================================== */

TEST_P(Zsets, RangesByRank) {
    run({
        {"ZADD z 1 a 2 b 3 c 4 d", integer(4)},
        {"ZRANGE z 0 -1", bulks({"a", "b", "c", "d"})},
        {"ZRANGE z 1 2 WITHSCORES", pairs({{"b", "2"}, {"c", "3"}})},
        {"ZRANGE z -2 -1", bulks({"c", "d"})},
        {"ZRANGE z -100 100", bulks({"a", "b", "c", "d"})},
        {"ZRANGE z 2 1", EMPTY_ARRAY},
        {"ZRANGE z 4 10", EMPTY_ARRAY},
        {"ZRANGE z 0 -1 REV", bulks({"d", "c", "b", "a"})},
        {"ZRANGE z 0 0 REV WITHSCORES", pairs({{"d", "4"}})},
        {"ZREVRANGE z 0 -1 WITHSCORES", pairs({{"d", "4"}, {"c", "3"}, {"b", "2"}, {"a", "1"}})},
        {"ZREVRANGE z 1 -100", EMPTY_ARRAY},
        {"ZRANGE z 0 -1 withscores withscores", pairs({{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}})},
        {"ZRANGE z 0 -1 LIMIT 0 -1", bulks({"a", "b", "c", "d"})}, /* a count of -1 is "no LIMIT" */
        {"ZRANGE nokey 0 -1", EMPTY_ARRAY},
        {"ZRANGE nokey a b", NOT_INT}, /* the range is checked before the key */
        {"ZRANGE z a b", NOT_INT},
        {"ZRANGE z 0 b", NOT_INT},
        {"ZRANGE z 0 -1 LIMIT 0 1",
         err("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")},
        {"ZREVRANGE z 0 -1 LIMIT 0 1",
         err("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")},
        {"ZRANGE z 0 -1 rev rev", SYNTAX},
        {"ZRANGE z 0 -1 foo", SYNTAX},
        {"ZREVRANGE z 0 -1 REV", SYNTAX},
        {"ZREVRANGE z 0 -1 BYSCORE", SYNTAX},
        {"ZRANGE z 0", arityErr("zrange")},
        {"ZREVRANGE z 0", arityErr("zrevrange")},
    });
}

TEST_P(Zsets, RangesByScoreAndLexThroughZrange) {
    run({
        {"ZADD z 1 a 2 b 3 c 4 d", integer(4)},
        {"ZRANGE z (1 +inf BYSCORE", bulks({"b", "c", "d"})},
        {"ZRANGE z +inf (1 BYSCORE REV WITHSCORES", pairs({{"d", "4"}, {"c", "3"}, {"b", "2"}})},
        {"ZRANGE z (1 +inf BYSCORE REV", EMPTY_ARRAY}, /* reversed ranges are written max first */
        {"ZRANGE z -inf +inf BYSCORE LIMIT 1 2", bulks({"b", "c"})},
        {"ZRANGE z -inf +inf BYSCORE LIMIT 1 2 LIMIT 2 1", bulks({"c"})}, /* the last LIMIT wins */
        {"ZRANGE z - + BYLEX", bulks({"a", "b", "c", "d"})},
        {"ZRANGE z + [c BYLEX REV", bulks({"d", "c"})},
        {"ZRANGEBYSCORE z -inf +inf LIMIT 1 -1", bulks({"b", "c", "d"})},
        {"ZRANGEBYSCORE z -inf +inf LIMIT 0 0", EMPTY_ARRAY},
        {"ZRANGEBYSCORE z -inf +inf LIMIT -1 1", EMPTY_ARRAY}, /* a negative offset returns nothing */
        {"ZRANGEBYSCORE z -inf +inf LIMIT -9223372036854775808 -9223372036854775808", EMPTY_ARRAY},
        {"ZRANGEBYSCORE z -inf +inf LIMIT 4 1", EMPTY_ARRAY},
        {"ZRANGEBYSCORE z -inf +inf WITHSCORES LIMIT 0 2", pairs({{"a", "1"}, {"b", "2"}})},
        {"ZREVRANGEBYSCORE z 3 -inf LIMIT 1 5 WITHSCORES", pairs({{"b", "2"}, {"a", "1"}})},
        {"ZRANGE z 0 -1 BYLEX", NOT_A_LEX_RANGE},
        {"ZRANGE z [a + BYSCORE", NOT_A_FLOAT_RANGE},
        {"ZRANGE z 0 1 BYSCORE BYLEX", SYNTAX},
        {"ZRANGE z 0 -1 BYSCORE BYSCORE", SYNTAX},
        {"ZRANGE z 0 -1 BYSCORE LIMIT 0", SYNTAX},
        {"ZRANGE z 0 -1 BYSCORE LIMIT a 1", NOT_INT},
        {"ZRANGE z 0 -1 BYSCORE LIMIT 0 b", NOT_INT},
        {"ZRANGE z - + BYLEX WITHSCORES", err("ERR syntax error, WITHSCORES not supported in combination with BYLEX")},
        {"ZRANGEBYSCORE z -inf +inf REV", SYNTAX},
        {"ZRANGEBYSCORE z -inf +inf BYLEX", SYNTAX},
        {"ZRANGEBYSCORE z -inf", arityErr("zrangebyscore")},
        {"ZREVRANGEBYSCORE z -inf", arityErr("zrevrangebyscore")},
        {"ZREVRANGEBYLEX z -", arityErr("zrevrangebylex")},
    });
}

TEST_P(Zsets, Zrangestore) {
    run({
        {"ZADD z 1 a 2 b 3 c", integer(3)},
        {"ZRANGESTORE d z 0 -1 REV", integer(3)},
        {"ZRANGE d 0 -1 WITHSCORES", pairs({{"a", "1"}, {"b", "2"}, {"c", "3"}})},
        {"ZRANGESTORE d z - + BYLEX", integer(3)},
        {"ZRANGE d 0 -1 WITHSCORES", pairs({{"a", "1"}, {"b", "2"}, {"c", "3"}})}, /* scores come along */
        {"ZRANGESTORE d z + [b BYLEX REV", integer(2)},
        {"ZRANGE d 0 -1 WITHSCORES", pairs({{"b", "2"}, {"c", "3"}})},
        {"ZRANGESTORE d z (1 3 BYSCORE LIMIT 1 1", integer(1)},
        {"ZRANGE d 0 -1 WITHSCORES", pairs({{"c", "3"}})},
        {"ZRANGESTORE d z 5 6", integer(0)}, /* an empty result deletes the destination */
        {"EXISTS d", integer(0)},
        {"ZRANGESTORE d nokey 0 -1", integer(0)},
        {"SET d x", OK},
        {"EXPIRE d 100", integer(1)},
        {"ZRANGESTORE d z 0 0", integer(1)}, /* any type is overwritten, the TTL dropped */
        {"TYPE d", "+zset\r\n"},
        {"TTL d", integer(-1)},
        {"ZRANGESTORE z z 1 1", integer(1)}, /* source and destination may be one key */
        {"ZRANGE z 0 -1", bulks({"b"})},
        {"SET s v", OK},
        {"ZRANGESTORE d s 0 -1", WRONGTYPE},
        {"ZRANGESTORE d z 0 -1 WITHSCORES", SYNTAX},
        {"ZRANGESTORE d z 0 -1 LIMIT 0 1",
         err("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")},
        {"ZRANGESTORE d z 0 -1 REV BYLEX", NOT_A_LEX_RANGE},
        {"ZRANGESTORE d z 0", arityErr("zrangestore")},
    });
}

/* ========================================================================
 * Removing: ZREM, ZREMRANGEBY*, ZPOPMIN, ZPOPMAX, ZMPOP
 * ====================================================================== */

TEST_P(Zsets, Removing) {
    run({
        {"ZADD z 1 a 2 b 3 c", integer(3)},
        {"ZREM z a x b", integer(2)},
        {"ZREM nokey a", integer(0)},
        {"ZREM z c", integer(1)},
        {"EXISTS z", integer(0)}, /* an emptied sorted set is deleted */
        {"ZADD z 1 a 2 b 3 c 4 d 5 e", integer(5)},
        {"ZREMRANGEBYSCORE z (1 2", integer(1)},
        {"ZREMRANGEBYSCORE z a 2", NOT_A_FLOAT_RANGE},
        {"ZREMRANGEBYSCORE nokey 1 2", integer(0)},
        {"ZREMRANGEBYRANK z 0 0", integer(1)},
        {"ZREMRANGEBYRANK z a 0", NOT_INT},
        {"ZREMRANGEBYRANK z 5 10", integer(0)},
        {"ZREMRANGEBYRANK z -1 -1", integer(1)},
        {"ZREMRANGEBYRANK nokey 0 1", integer(0)},
        {"ZRANGE z 0 -1", bulks({"c", "d"})},
        {"ZREMRANGEBYLEX z a c", NOT_A_LEX_RANGE},
        {"ZREMRANGEBYLEX z [a [c", integer(1)},
        {"ZREMRANGEBYLEX z - +", integer(1)},
        {"EXISTS z", integer(0)},
        {"ZADD z 1 a 2 b 3 c", integer(3)},
        {"ZREMRANGEBYRANK z 0 -1", integer(3)},
        {"EXISTS z", integer(0)},
        {"ZREM z", arityErr("zrem")},
        {"ZREMRANGEBYRANK z 0", arityErr("zremrangebyrank")},
        {"ZREMRANGEBYSCORE z 0 1 2", arityErr("zremrangebyscore")},
        {"ZREMRANGEBYLEX z -", arityErr("zremrangebylex")},
    });
}

TEST_P(Zsets, Pops) {
    run({
        {"ZADD z 1 a 2 b 3 c 4 d", integer(4)},
        {"ZPOPMIN z", pairs({{"a", "1"}})},
        {"ZPOPMIN z 0", EMPTY_ARRAY},
        {"ZPOPMAX z 2", pairs({{"d", "4"}, {"c", "3"}})},
        {"ZPOPMAX nokey", EMPTY_ARRAY},
        {"ZPOPMAX nokey 2", EMPTY_ARRAY},
        {"ZPOPMIN z -1", NOT_POSITIVE},
        {"ZPOPMIN z abc", NOT_POSITIVE},
        {"ZPOPMIN nokey abc", NOT_POSITIVE},
        {"ZPOPMAX z 1 2", SYNTAX},
        {"ZPOPMAX z 100", pairs({{"b", "2"}})},
        {"EXISTS z", integer(0)},
        {"ZADD z 1 a 2 b 3 c 4 d", integer(4)},
        {"ZMPOP 1 z MIN", array({bulk("z"), array({bulks({"a", "1"})})})},
        {"ZMPOP 1 z max COUNT 2", array({bulk("z"), array({bulks({"d", "4"}), bulks({"c", "3"})})})},
        {"ZMPOP 2 nokey z MIN COUNT 10", array({bulk("z"), array({bulks({"b", "2"})})})},
        {"EXISTS z", integer(0)},
        {"ZMPOP 1 nokey MIN", NIL_ARRAY},
        {"ZMPOP 0 z MIN", err("ERR numkeys should be greater than 0")},
        {"ZMPOP -1 z MIN", err("ERR numkeys should be greater than 0")},
        {"ZMPOP abc z MIN", err("ERR numkeys should be greater than 0")},
        {"ZMPOP 2 z MIN", SYNTAX},
        {"ZMPOP 9223372036854775807 z MIN", SYNTAX},
        {"ZMPOP 1 z FOO", SYNTAX},
        {"ZMPOP 1 z MIN COUNT 0", err("ERR count should be greater than 0")},
        {"ZMPOP 1 z MIN COUNT -1", err("ERR count should be greater than 0")},
        {"ZMPOP 1 z MIN COUNT 1 COUNT 1", SYNTAX},
        {"ZMPOP 1 z MIN FOO 1", SYNTAX},
        {"ZMPOP 1 z MIN COUNT", SYNTAX},
        {"ZMPOP 1 z", arityErr("zmpop")},
        {"ZPOPMIN", arityErr("zpopmin")},
    });
}

/* ========================================================================
 * ZRANDMEMBER
 * ====================================================================== */

TEST_P(Zsets, ZrandmemberErrorsAndEdges) {
    run({
        {"ZADD z 1 a 2 b 3 c 4 d", integer(4)},
        {"ZRANDMEMBER nokey", NIL},
        {"ZRANDMEMBER nokey 2", EMPTY_ARRAY},
        {"ZRANDMEMBER nokey 2 WITHSCORES", EMPTY_ARRAY},
        {"ZRANDMEMBER nokey abc", NOT_INT},
        {"ZRANDMEMBER z 0", EMPTY_ARRAY},
        {"ZRANDMEMBER z 0 WITHSCORES", EMPTY_ARRAY},
        {"ZRANDMEMBER z 1 foo", SYNTAX},
        {"ZRANDMEMBER z 1 WITHSCORES foo", SYNTAX},
        {"ZRANDMEMBER z -9223372036854775808",
         err("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")},
        {"ZRANDMEMBER z -4611686018427387904 WITHSCORES", err("ERR value is out of range")},
        {"ZRANDMEMBER z 4611686018427387904 WITHSCORES", err("ERR value is out of range")},
        /* More than there are: the whole set, highest score first. */
        {"ZRANDMEMBER z 9223372036854775807", bulks({"d", "c", "b", "a"})},
        {"ZRANDMEMBER z 4611686018427387903 WITHSCORES", pairs({{"d", "4"}, {"c", "3"}, {"b", "2"}, {"a", "1"}})},
        {"ZRANDMEMBER z 1 2 3", SYNTAX},
    });
    call("CONFIG SET zset-max-ziplist-entries 0");
    run({{"ZADD sk 1 a 2 b 3 c", integer(3)},
         {"ZRANDMEMBER sk 5 WITHSCORES", pairs({{"c", "3"}, {"b", "2"}, {"a", "1"}})}});
}

/* The four strategies (repetitions, whole set, copy then remove, pick
 * until distinct) on both encodings: right counts, real members with their
 * scores, distinct when the count is positive, and every member turns up. */
TEST_P(Zsets, ZrandmemberProperties) {
    for (const char *entries : {"128", "0"}) {
        ASSERT_EQ(call({"CONFIG", "SET", "zset-max-ziplist-entries", entries}), OK);
        call("DEL z");
        fill("z", 100);
        std::set<std::string> seen;
        for (long count : {-1L, -5L, -300L, 1L, 5L, 40L, 90L, 99L}) {
            Reply r = c->call({"ZRANDMEMBER", "z", std::to_string(count), "WITHSCORES"});
            ASSERT_EQ(r.elements.size(), 2 * static_cast<size_t>(std::abs(count))) << count;
            std::set<std::string> distinct;
            for (size_t i = 0; i < r.elements.size(); i += 2) {
                const std::string &m = r.elements[i].str;
                ASSERT_EQ(m.substr(0, 1), "m");
                EXPECT_EQ(r.elements[i + 1].str, m.substr(1)) << "the member's own score";
                distinct.insert(m);
                seen.insert(m);
            }
            size_t want = count > 0 ? static_cast<size_t>(count) : distinct.size();
            EXPECT_EQ(distinct.size(), want) << "distinct members for a positive count";
        }
        for (int i = 0; i < 200 && seen.size() < 100; i++)
            for (const std::string &m : strings({"ZRANDMEMBER", "z", "-50"})) seen.insert(m);
        EXPECT_EQ(seen.size(), 100u) << "every member can be drawn (" << entries << ")";
        std::string one = c->call({"ZRANDMEMBER", "z"}).str;
        EXPECT_EQ(call({"ZSCORE", "z", one}), bulk(one.substr(1)));
    }
}

/* ========================================================================
 * ZUNION, ZINTER, ZDIFF, their STORE forms, ZINTERCARD
 * ====================================================================== */

TEST_P(Zsets, SetOperations) {
    run({
        {"ZADD z 1 a 2 b 3 c 4 d", integer(4)},
        {"ZADD y 10 b 20 c 30 x", integer(3)},
        {"SADD st c x q", integer(3)}, /* a plain set: every member scores 1 */
        {"ZUNION 2 z y", bulks({"a", "d", "b", "c", "x"})},
        {"ZUNION 2 z y WITHSCORES", pairs({{"a", "1"}, {"d", "4"}, {"b", "12"}, {"c", "23"}, {"x", "30"}})},
        {"ZUNION 2 z y WEIGHTS 1 2 WITHSCORES", pairs({{"a", "1"}, {"d", "4"}, {"b", "22"}, {"c", "43"}, {"x", "60"}})},
        {"ZUNION 2 z y AGGREGATE MIN WITHSCORES", pairs({{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}, {"x", "30"}})},
        {"ZUNION 2 z y aggregate max withscores",
         pairs({{"a", "1"}, {"d", "4"}, {"b", "10"}, {"c", "20"}, {"x", "30"}})},
        {"ZUNION 2 z st WITHSCORES", pairs({{"a", "1"}, {"q", "1"}, {"x", "1"}, {"b", "2"}, {"c", "4"}, {"d", "4"}})},
        {"ZUNION 3 z st y AGGREGATE MAX WEIGHTS 1 2 3 WITHSCORES WITHSCORES",
         pairs({{"a", "1"}, {"q", "2"}, {"d", "4"}, {"b", "30"}, {"c", "60"}, {"x", "90"}})},
        {"ZINTER 2 z y WITHSCORES", pairs({{"b", "12"}, {"c", "23"}})},
        {"ZINTER 2 z st WITHSCORES", pairs({{"c", "4"}})},
        {"ZINTER 2 z nokey WITHSCORES", EMPTY_ARRAY},
        {"ZDIFF 2 z y WITHSCORES", pairs({{"a", "1"}, {"d", "4"}})},
        {"ZDIFF 2 st z WITHSCORES", pairs({{"q", "1"}, {"x", "1"}})},
        {"ZDIFF 1 z", bulks({"a", "b", "c", "d"})},
        {"ZUNIONSTORE d 2 z y", integer(5)},
        {"ZRANGE d 0 -1 WITHSCORES", pairs({{"a", "1"}, {"d", "4"}, {"b", "12"}, {"c", "23"}, {"x", "30"}})},
        {"ZINTERSTORE d 2 z y WEIGHTS 2 3", integer(2)},
        {"ZRANGE d 0 -1 WITHSCORES", pairs({{"b", "34"}, {"c", "66"}})},
        {"ZDIFFSTORE d 2 z y", integer(2)},
        {"ZRANGE d 0 -1 WITHSCORES", pairs({{"a", "1"}, {"d", "4"}})},
        {"ZINTERSTORE d 2 nokey y", integer(0)}, /* an empty result deletes the destination */
        {"EXISTS d", integer(0)},
        {"ZUNIONSTORE z 2 z y", integer(5)}, /* a source may be the destination */
        {"ZCARD z", integer(5)},
        {"ZINTERCARD 2 z y", integer(3)},
        {"ZINTERCARD 2 z y LIMIT 1", integer(1)},
        {"ZINTERCARD 2 z y LIMIT 0", integer(3)},
        {"ZINTERCARD 2 z st", integer(2)},
        {"ZINTERCARD 1 nokey", integer(0)},
    });
}

/* NaN never comes out: 0 * inf counts as 0, and inf + -inf sums to 0. */
TEST_P(Zsets, SetOperationsWithInfinities) {
    run({
        {"ZADD z 1 a 2 b", integer(2)},
        {"ZADD y 10 b 30 x", integer(2)},
        {"ZUNION 2 z y WEIGHTS 1 inf WITHSCORES", pairs({{"a", "1"}, {"b", "inf"}, {"x", "inf"}})},
        {"ZUNION 2 z y WEIGHTS 0 inf WITHSCORES", pairs({{"a", "0"}, {"b", "inf"}, {"x", "inf"}})},
        {"ZINTER 2 z y WEIGHTS inf -inf WITHSCORES", pairs({{"b", "0"}})},
        {"ZADD inf +inf a -inf b", integer(2)},
        {"ZUNION 2 inf inf WITHSCORES", pairs({{"b", "-inf"}, {"a", "inf"}})},
        {"ZUNION 2 inf inf WEIGHTS 1 -1 WITHSCORES", pairs({{"a", "0"}, {"b", "0"}})},
        {"ZUNION 2 inf inf WEIGHTS 0 0 WITHSCORES", pairs({{"a", "0"}, {"b", "0"}})},
        {"ZINTER 2 inf inf WEIGHTS 1 -1 AGGREGATE MAX WITHSCORES", pairs({{"a", "inf"}, {"b", "inf"}})},
        {"ZUNION 2 z y WEIGHTS 1 nan", err("ERR weight value is not a float")},
    });
}

TEST_P(Zsets, SetOperationErrors) {
    run({
        {"ZADD z 1 a", integer(1)},
        {"SET s v", OK},
        {"ZUNION 0 z", err("ERR at least 1 input key is needed for 'zunion' command")},
        {"ZUNION -1 z", err("ERR at least 1 input key is needed for 'zunion' command")},
        {"ZUNIONSTORE d 0 z", err("ERR at least 1 input key is needed for 'zunionstore' command")},
        {"ZINTERSTORE d 0 z", err("ERR at least 1 input key is needed for 'zinterstore' command")},
        {"ZDIFFSTORE d 0 z", err("ERR at least 1 input key is needed for 'zdiffstore' command")},
        {"ZINTER 0 z", err("ERR at least 1 input key is needed for 'zinter' command")},
        {"ZDIFF 0 z", err("ERR at least 1 input key is needed for 'zdiff' command")},
        {"ZINTERCARD 0 z", err("ERR at least 1 input key is needed for 'zintercard' command")},
        {"ZUNION abc z", NOT_INT},
        {"ZUNION 3 z y", SYNTAX},
        {"ZUNION 2 z s", WRONGTYPE},
        {"ZUNION 2 z s AGGREGATE foo", WRONGTYPE}, /* the keys are checked before the options */
        {"ZUNION 1 z WEIGHTS 1 2", SYNTAX},
        {"ZUNION 2 z y WEIGHTS 1 WITHSCORES", err("ERR weight value is not a float")},
        {"ZUNION 2 z y WEIGHTS 1 a", err("ERR weight value is not a float")},
        {"ZUNION 2 z y WEIGHTS 1", SYNTAX},
        {"ZUNION 2 z y AGGREGATE foo", SYNTAX},
        {"ZUNION 2 z y AGGREGATE", SYNTAX},
        {"ZUNIONSTORE d 2 z y WITHSCORES", SYNTAX},
        {"ZDIFF 2 z y WEIGHTS 1 2", SYNTAX},
        {"ZDIFF 2 z y AGGREGATE MIN", SYNTAX},
        {"ZDIFFSTORE d 2 z y WITHSCORES", SYNTAX},
        {"ZINTERCARD 2 z y LIMIT -1", err("ERR LIMIT can't be negative")},
        {"ZINTERCARD 2 z y LIMIT a", err("ERR LIMIT can't be negative")},
        {"ZINTERCARD 2 z y WITHSCORES", SYNTAX},
        {"ZINTERCARD 2 z y WEIGHTS 1 1", SYNTAX},
        {"ZINTERCARD 2 z s", WRONGTYPE},
        {"ZINTERCARD 3 z y", SYNTAX},
        {"ZUNION 1", arityErr("zunion")},
        {"ZUNIONSTORE d 1", arityErr("zunionstore")},
        {"ZINTERCARD 1", arityErr("zintercard")},
    });
}

/* ========================================================================
 * ZSCAN, wrong types, and the keyspace around a sorted set
 * ====================================================================== */

TEST_P(Zsets, Zscan) {
    run({
        {"ZADD z 1 a 2 b 0 c", integer(3)},
        {"ZSCAN z 0", array({bulk("0"), pairs({{"c", "0"}, {"a", "1"}, {"b", "2"}})})},
        {"ZSCAN z 0 MATCH a*", array({bulk("0"), pairs({{"a", "1"}})})},
        {"ZSCAN z 0 COUNT 1", array({bulk("0"), pairs({{"c", "0"}, {"a", "1"}, {"b", "2"}})})},
        {"ZSCAN z 0 COUNT 0", SYNTAX},
        {"ZSCAN z abc", err("ERR invalid cursor")},
        {"ZSCAN z 0 foo", SYNTAX},
        {"ZSCAN z 0 TYPE zset", SYNTAX},
        {"ZSCAN nokey 0", EMPTY_SCAN},
        {"ZSCAN nokey 0 foo", EMPTY_SCAN},
        {"ZSCAN z", arityErr("zscan")},
    });
    /* A skiplist is scanned through its dict: every member once, with its
     * score, across the cursor's calls. */
    call("CONFIG SET zset-max-ziplist-entries 0");
    fill("big", 300);
    std::map<std::string, std::string> got;
    std::string cursor = "0";
    do {
        Reply r = c->call({"ZSCAN", "big", cursor, "COUNT", "20"});
        ASSERT_EQ(r.elements.size(), 2u);
        cursor = r.elements[0].str;
        for (size_t i = 0; i + 1 < r.elements[1].elements.size(); i += 2)
            got[r.elements[1].elements[i].str] = r.elements[1].elements[i + 1].str;
    } while (cursor != "0");
    ASSERT_EQ(got.size(), 300u);
    for (const auto &[member, score] : got) EXPECT_EQ(score, member.substr(1));
}

TEST_P(Zsets, WrongType) {
    call("SET s v");
    for (const char *line :
         {"ZADD s 1 a", "ZINCRBY s 1 a", "ZREM s a", "ZSCORE s a", "ZMSCORE s a", "ZCARD s", "ZCOUNT s 0 1",
          "ZLEXCOUNT s - +", "ZRANK s a", "ZREVRANK s a", "ZRANGE s 0 -1", "ZRANGE s 0 1 BYSCORE", "ZREVRANGE s 0 1",
          "ZRANGEBYSCORE s 0 1", "ZREVRANGEBYSCORE s 1 0", "ZRANGEBYLEX s - +", "ZREVRANGEBYLEX s + -",
          "ZRANGESTORE d s 0 -1", "ZREMRANGEBYSCORE s 0 1", "ZREMRANGEBYRANK s 0 1", "ZREMRANGEBYLEX s - +",
          "ZPOPMIN s", "ZPOPMAX s 2", "ZMPOP 2 nokey s MIN", "ZRANDMEMBER s", "ZRANDMEMBER s 2", "ZUNION 1 s",
          "ZINTERSTORE d 1 s", "ZDIFF 2 nokey s", "ZINTERCARD 1 s", "ZSCAN s 0"})
        EXPECT_EQ(call(line), WRONGTYPE) << line;
    EXPECT_EQ(call("GET s"), bulk("v"));
    call("ZADD z 1 a");
    EXPECT_EQ(call("GET z"), WRONGTYPE);
    EXPECT_EQ(call("LPUSH z a"), WRONGTYPE);
    EXPECT_EQ(call("SADD z a"), WRONGTYPE);
}

TEST_P(Zsets, KeyspaceCommands) {
    run({
        {"ZADD z 1 a 2 b", integer(2)},
        {"TYPE z", "+zset\r\n"},
        {"COPY z z2", integer(1)},
        {"ZADD z 5 a", integer(0)},
        {"ZREM z b", integer(1)},
        {"ZRANGE z2 0 -1 WITHSCORES", pairs({{"a", "1"}, {"b", "2"}})}, /* a deep copy */
        {"RENAME z2 z3", OK},
        {"ZSCORE z3 b", bulk("2")},
        {"SET s v", OK},
    });
    Reply r = c->call({"SCAN", "0", "TYPE", "zset", "COUNT", "100"});
    std::vector<std::string> zkeys;
    for (const Reply &k : r.elements[1].elements) zkeys.push_back(k.str);
    std::sort(zkeys.begin(), zkeys.end());
    EXPECT_EQ(zkeys, (std::vector<std::string>{"z", "z3"}));
    EXPECT_GT(c->call({"MEMORY", "USAGE", "z3"}).integer, 0);
    run({{"MULTI", OK}, {"ZADD m 1 a", QUEUED}, {"ZINCRBY m 2 a", QUEUED}, {"EXEC", array({integer(1), bulk("3")})}});
}

/* ========================================================================
 * Encodings: ziplist -> skiplist through each command that adds
 * ====================================================================== */

TEST_P(Zsets, ZaddConvertsPastTheLimitsAndNeverBack) {
    fill("z", 128);
    EXPECT_EQ(encoding("z"), "ziplist");
    EXPECT_EQ(call("ZADD z 1 m1"), integer(0));      /* an update adds nothing */
    EXPECT_EQ(call("ZADD z XX 1 new"), integer(0));  /* nor does XX */
    EXPECT_EQ(encoding("z"), "ziplist");
    EXPECT_EQ(call("ZADD z 1 new"), integer(1));     /* the 129th */
    EXPECT_EQ(encoding("z"), "skiplist");
    EXPECT_EQ(call("ZREMRANGEBYSCORE z 2 +inf"), integer(126));
    EXPECT_EQ(call("ZPOPMIN z"), pairs({{"m0", "0"}}));
    EXPECT_EQ(call("ZREM z m1"), integer(1));
    EXPECT_EQ(call("ZCARD z"), integer(1));
    EXPECT_EQ(encoding("z"), "skiplist"); /* never back, however small */

    EXPECT_EQ(call({"ZADD", "v", "1", std::string(64, 'a')}), integer(1));
    EXPECT_EQ(encoding("v"), "ziplist");
    EXPECT_EQ(call({"ZADD", "v", "2", std::string(65, 'b')}), integer(1));
    EXPECT_EQ(encoding("v"), "skiplist");
    EXPECT_EQ(call({"ZREM", "v", std::string(65, 'b')}), integer(1));
    EXPECT_EQ(encoding("v"), "skiplist");
    /* A new key whose first member is too long starts as a skiplist; one
     * ZADD of 129 copies of one member stays a ziplist (the length is what
     * counts, as in Redis). */
    EXPECT_EQ(call({"ZADD", "first", "1", std::string(65, 'c'), "2", "short"}), integer(2));
    EXPECT_EQ(encoding("first"), "skiplist");
    Args same{"ZADD", "same"};
    for (int i = 0; i < 129; i++) same.insert(same.end(), {"1", "a"});
    EXPECT_EQ(call(same), integer(1));
    EXPECT_EQ(encoding("same"), "ziplist");
}

TEST_P(Zsets, ZincrbyConverts) {
    fill("z", 128);
    EXPECT_EQ(call("ZINCRBY z 1 m5"), bulk("6"));
    EXPECT_EQ(encoding("z"), "ziplist");
    EXPECT_EQ(call("ZINCRBY z 1 new"), bulk("1"));
    EXPECT_EQ(encoding("z"), "skiplist");
    EXPECT_EQ(call({"ZINCRBY", "v", "1", std::string(64, 'a')}), bulk("1"));
    EXPECT_EQ(encoding("v"), "ziplist");
    EXPECT_EQ(call({"ZINCRBY", "v", "1", std::string(65, 'a')}), bulk("1"));
    EXPECT_EQ(encoding("v"), "skiplist");
    EXPECT_EQ(call({"ZINCRBY", "n", "1", std::string(65, 'a')}), bulk("1"));
    EXPECT_EQ(encoding("n"), "skiplist");
}

/* A stored result takes the encoding its size calls for, whatever its
 * inputs were: a small result of big inputs is a ziplist again. */
TEST_P(Zsets, StoredResultsTakeTheEncodingTheirSizeCallsFor) {
    fill("big", 129);
    EXPECT_EQ(encoding("big"), "skiplist");
    fill("small", 128);
    EXPECT_EQ(call("ZRANGESTORE d big 0 127"), integer(128));
    EXPECT_EQ(encoding("d"), "ziplist");
    EXPECT_EQ(call("ZRANGESTORE d big 0 -1"), integer(129));
    EXPECT_EQ(encoding("d"), "skiplist");
    EXPECT_EQ(call("ZRANGESTORE d small -inf +inf BYSCORE"), integer(128));
    EXPECT_EQ(encoding("d"), "ziplist");
    EXPECT_EQ(call("ZRANGESTORE d big -inf +inf BYSCORE"), integer(129));
    EXPECT_EQ(encoding("d"), "skiplist");
    EXPECT_EQ(call("ZRANGESTORE d big - + BYLEX LIMIT 0 10"), integer(10));
    EXPECT_EQ(encoding("d"), "ziplist");

    EXPECT_EQ(call("ZUNIONSTORE u 1 big"), integer(129));
    EXPECT_EQ(encoding("u"), "skiplist");
    EXPECT_EQ(call("ZUNIONSTORE u 1 small"), integer(128));
    EXPECT_EQ(encoding("u"), "ziplist");
    EXPECT_EQ(call("ZINTERSTORE u 2 big small"), integer(128));
    EXPECT_EQ(encoding("u"), "ziplist");
    EXPECT_EQ(call("ZUNIONSTORE u 2 big small"), integer(129));
    EXPECT_EQ(encoding("u"), "skiplist");
    EXPECT_EQ(call("ZDIFFSTORE u 2 big small"), integer(1));
    EXPECT_EQ(encoding("u"), "ziplist");
    fill("one", 1, "o", 500);
    EXPECT_EQ(call("ZUNIONSTORE u 2 small one"), integer(129));
    EXPECT_EQ(encoding("u"), "skiplist");

    EXPECT_EQ(call({"ZADD", "long", "1", std::string(65, 'x')}), integer(1));
    EXPECT_EQ(call({"ZADD", "edge", "1", std::string(64, 'x')}), integer(1));
    EXPECT_EQ(call("ZUNIONSTORE u 2 small long"), integer(129));
    EXPECT_EQ(call("ZUNIONSTORE u 1 long"), integer(1));
    EXPECT_EQ(encoding("u"), "skiplist"); /* one member, but 65 bytes */
    EXPECT_EQ(call("ZUNIONSTORE u 1 edge"), integer(1));
    EXPECT_EQ(encoding("u"), "ziplist");
    EXPECT_EQ(call("ZRANGESTORE u long 0 -1"), integer(1));
    EXPECT_EQ(encoding("u"), "skiplist");
    EXPECT_EQ(call("ZRANGESTORE u edge 0 -1"), integer(1));
    EXPECT_EQ(encoding("u"), "ziplist");
    /* A small result of sets too. */
    EXPECT_EQ(call("SADD st a b"), integer(2));
    EXPECT_EQ(call("ZUNIONSTORE u 1 st"), integer(2));
    EXPECT_EQ(encoding("u"), "ziplist");
}

TEST_P(Zsets, LimitsAreConfigurable) {
    run({
        {"CONFIG SET zset-max-ziplist-entries 2", OK},
        {"CONFIG SET zset-max-ziplist-value 3", OK},
        {"CONFIG GET zset-max-ziplist-entries", bulks({"zset-max-ziplist-entries", "2"})},
        {"ZADD a 1 x 2 y", integer(2)},
        {"ZADD b 1 abc", integer(1)},
        {"ZADD c 1 abcd", integer(1)},
    });
    EXPECT_EQ(encoding("a"), "ziplist");
    EXPECT_EQ(encoding("b"), "ziplist");
    EXPECT_EQ(encoding("c"), "skiplist");
    EXPECT_EQ(call("ZADD a 3 z"), integer(1));
    EXPECT_EQ(encoding("a"), "skiplist");
    run({{"CONFIG SET zset-max-ziplist-entries 0", OK}, {"ZADD d 1 x", integer(1)}});
    EXPECT_EQ(encoding("d"), "skiplist");
    run({{"CONFIG SET zset-max-ziplist-entries 128", OK}, {"CONFIG SET zset-max-ziplist-value 0", OK},
         {Args{"ZADD", "e", "1", ""}, integer(1)}, {"ZADD f 1 a", integer(1)}});
    EXPECT_EQ(encoding("e"), "ziplist");
    EXPECT_EQ(encoding("f"), "skiplist");
}

/* Every command reads a skiplist as it reads a ziplist: the same scenario,
 * forced into each encoding, gives the same bytes. (Lex ranges are asked of
 * a set whose scores are all equal: otherwise their answer is undefined,
 * and a skiplist's depends on its random levels.) */
TEST_P(Zsets, BothEncodingsAnswerAlike) {
    const std::vector<std::string> script = {
        "ZADD z 1 a 1 b 2 c 3 d 3 e 5 f 0 g -1 h", "ZRANGE z 0 -1 WITHSCORES", "ZRANGE z 2 -3 REV",
        "ZRANGE z (1 3 BYSCORE LIMIT 1 2", "ZRANGE z 5 (1 BYSCORE REV WITHSCORES", "ZADD lex 0 e 0 b 0 d 0 a 0 c",
        "ZRANGEBYLEX lex [b (e", "ZREVRANGEBYLEX lex (e - LIMIT 1 10", "ZLEXCOUNT lex - [c",
        "ZREMRANGEBYLEX lex (a [c", "ZRANGE lex 0 -1", "ZCOUNT z (1 3", "ZRANK z e", "ZREVRANK z e",
        "ZSCORE z f", "ZMSCORE z a zz f", "ZINCRBY z 10 a", "ZRANGE z -2 -1 WITHSCORES", "ZREM z a b",
        "ZREMRANGEBYSCORE z (0 2", "ZREMRANGEBYRANK z 0 0", "ZRANGE z 0 -1 WITHSCORES",
        "ZPOPMAX z 2", "ZMPOP 1 z MIN COUNT 1", "ZUNION 2 z z WITHSCORES", "ZINTER 2 z z AGGREGATE MAX WITHSCORES",
        "ZDIFF 1 z WITHSCORES", "ZRANGESTORE d z 0 -1", "ZRANGE d 0 -1 WITHSCORES", "ZCARD z",
        "ZRANDMEMBER z 100 WITHSCORES"};
    std::vector<std::string> replies[2];
    for (int pass = 0; pass < 2; pass++) {
        call("FLUSHALL");
        call({"CONFIG", "SET", "zset-max-ziplist-entries", pass ? "0" : "128"});
        for (const std::string &line : script) replies[pass].push_back(call(line));
        EXPECT_EQ(encoding("d"), pass ? "skiplist" : "ziplist");
    }
    for (size_t i = 0; i < script.size(); i++) EXPECT_EQ(replies[0][i], replies[1][i]) << script[i];
}

/* cppredis's own introspection: DEBUG OBJECT gives Redis 2.6's RDB size
 * (a ziplist as one string; a skiplist as a count, then each member and
 * its score as a length-prefixed text, inf in one byte), DEBUG ZIPLIST
 * dumps a small sorted set, MEMORY USAGE counts a skiplist's nodes. */
TEST_P(Zsets, CppredisIntrospection) {
    if (!cppredis()) GTEST_SKIP() << "cppredis's Redis 2.6 encodings only";
    auto serialized = [&](const std::string &key) {
        std::string line = c->call({"DEBUG", "OBJECT", key}).str;
        size_t at = line.find("serializedlength:") + 17;
        return line.substr(at, line.find(' ', at) - at);
    };
    call("ZADD z 1 a");
    EXPECT_EQ(serialized("z"), "17"); /* a 16-byte ziplist: header 10, "a" 3, score 1 as an integer 2, end 1 */
    EXPECT_EQ(call("DEBUG ZIPLIST z"), "+Ziplist structure printed on stdout\r\n");
    call("CONFIG SET zset-max-ziplist-entries 0");
    call("ZADD s 1 a 2.5 b inf c -0.0 d");
    EXPECT_EQ(serialized("s"), "19"); /* 1 + (2+2) + (2+4) + (2+1) + (2+3): -0 is saved as "-0" (rdb.cpp) */
    EXPECT_EQ(call("DEBUG ZIPLIST s"), err("ERR Not a ziplist encoded object."));
    long long small = c->call({"MEMORY", "USAGE", "s"}).integer;
    fill("s", 1000, "member-", 10);
    EXPECT_GT(c->call({"MEMORY", "USAGE", "s", "SAMPLES", "0"}).integer, small + 1000 * 40);
}

INSTANTIATE_TEST_SUITE_P(Servers, Zsets, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * Randomized differential run: the same command stream to both servers
 * ====================================================================== */

/* Sorted-set commands over a few keys (a plain set and a string among
 * them), members and scores chosen to collide, tie and hit the edges
 * (integers in the ziplist, 65-byte members, inf, NaN, malformed bounds).
 * Lex ranges read the key "lex", whose scores are all 0: on mixed scores
 * their answer is undefined (a skiplist's depends on its random levels).
 * ZRANDMEMBER and ZSCAN are left out: their order is Redis's to choose. */
class ZsetCommandGenerator {
public:
    explicit ZsetCommandGenerator(uint64_t seed) : rng_(seed) {}

    Args next() {
        static const std::vector<std::function<Args(ZsetCommandGenerator &)>> kCommands = {
            [](ZsetCommandGenerator &g) {
                Args a{"ZADD", g.key()};
                for (const char *opt : {"NX", "XX", "GT", "LT", "CH", "INCR"})
                    if (g.pick(6) == 0) a.push_back(opt);
                for (size_t n = 1 + g.pick(3); n; n--) a.insert(a.end(), {g.score(), g.member()});
                return a;
            },
            [](ZsetCommandGenerator &g) { return Args{"ZINCRBY", g.key(), g.score(), g.member()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZREM", g.key(), g.member(), g.member()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZSCORE", g.key(), g.member()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZMSCORE", g.key(), g.member(), g.member()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZCARD", g.key()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZCOUNT", g.key(), g.bound(), g.bound()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZLEXCOUNT", "lex", g.lex(), g.lex()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZADD", "lex", "0", g.member()}; },
            [](ZsetCommandGenerator &g) { return Args{g.pick(2) ? "ZREM" : "ZSCORE", "lex", g.member()}; },
            [](ZsetCommandGenerator &g) { return Args{g.pick(2) ? "ZRANK" : "ZREVRANK", g.key(), g.member()}; },
            [](ZsetCommandGenerator &g) {
                return g.options(Args{"ZRANGE", g.key(), g.index(), g.index()}, {"REV", "WITHSCORES"});
            },
            [](ZsetCommandGenerator &g) {
                Args a{"ZRANGE", g.key(), g.bound(), g.bound(), "BYSCORE"};
                return g.limit(g.options(a, {"REV", "WITHSCORES"}));
            },
            [](ZsetCommandGenerator &g) {
                return g.limit(g.options(Args{"ZRANGE", "lex", g.lex(), g.lex(), "BYLEX"}, {"REV"}));
            },
            [](ZsetCommandGenerator &g) {
                return g.options(Args{"ZREVRANGE", g.key(), g.index(), g.index()}, {"WITHSCORES"});
            },
            [](ZsetCommandGenerator &g) {
                Args a{g.pick(2) ? "ZRANGEBYSCORE" : "ZREVRANGEBYSCORE", g.key(), g.bound(), g.bound()};
                return g.limit(g.options(a, {"WITHSCORES"}));
            },
            [](ZsetCommandGenerator &g) {
                return g.limit(Args{g.pick(2) ? "ZRANGEBYLEX" : "ZREVRANGEBYLEX", "lex", g.lex(), g.lex()});
            },
            [](ZsetCommandGenerator &g) {
                Args a{"ZRANGESTORE", g.key()};
                switch (g.pick(3)) {
                case 0: return g.options(a + Args{g.key(), g.index(), g.index()}, {"REV"});
                case 1: return g.limit(g.options(a + Args{g.key(), g.bound(), g.bound(), "BYSCORE"}, {"REV"}));
                default: return g.limit(g.options(a + Args{"lex", g.lex(), g.lex(), "BYLEX"}, {"REV"}));
                }
            },
            [](ZsetCommandGenerator &g) { return Args{"ZREMRANGEBYSCORE", g.key(), g.bound(), g.bound()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZREMRANGEBYRANK", g.key(), g.index(), g.index()}; },
            [](ZsetCommandGenerator &g) { return Args{"ZREMRANGEBYLEX", "lex", g.lex(), g.lex()}; },
            [](ZsetCommandGenerator &g) {
                Args a{g.pick(2) ? "ZPOPMIN" : "ZPOPMAX", g.key()};
                if (g.pick(2)) a.push_back(g.pickOf({"0", "1", "2", "5", "-1", "x"}));
                return a;
            },
            [](ZsetCommandGenerator &g) {
                Args a = g.keys({"ZMPOP"});
                a.push_back(g.pick(2) ? "MIN" : "MAX");
                if (g.pick(2)) a.insert(a.end(), {"COUNT", g.pickOf({"1", "2", "9", "0"})});
                return a;
            },
            [](ZsetCommandGenerator &g) {
                Args a = g.setOp(g.keys({g.pickOf({"ZUNION", "ZINTER"})}));
                if (g.pick(2)) a.push_back("WITHSCORES");
                return a;
            },
            [](ZsetCommandGenerator &g) {
                return g.setOp(g.keys({g.pickOf({"ZUNIONSTORE", "ZINTERSTORE"}), g.key()}));
            },
            [](ZsetCommandGenerator &g) {
                Args a = g.keys({"ZDIFF"});
                if (g.pick(2)) a.push_back("WITHSCORES");
                return a;
            },
            [](ZsetCommandGenerator &g) { return g.keys({"ZDIFFSTORE", g.key()}); },
            [](ZsetCommandGenerator &g) {
                Args a = g.keys({"ZINTERCARD"});
                if (g.pick(2)) a.insert(a.end(), {"LIMIT", g.pickOf({"0", "1", "2", "-1"})});
                return a;
            },
            [](ZsetCommandGenerator &g) { return Args{"SADD", "set", g.member()}; },
            [](ZsetCommandGenerator &) { return Args{"SET", "str", "v"}; },
            [](ZsetCommandGenerator &g) { return Args{g.pick(8) ? "TYPE" : "DEL", g.key()}; },
            [](ZsetCommandGenerator &g) { return Args{"OBJECT", "ENCODING", g.key()}; },
            [](ZsetCommandGenerator &g) { return Args{"COPY", g.key(), g.key(), "REPLACE"}; },
        };
        return kCommands[pick(kCommands.size())](*this);
    }

private:
    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
    std::string pickOf(std::initializer_list<const char *> options) {
        return *(options.begin() + pick(options.size()));
    }
    std::string key() { return pickOf({"z1", "z2", "z3", "z4", "set", "str"}); }
    std::string member() {
        static const std::vector<std::string> kMembers = {
            "a", "b", "c", "d", "e", "f", "10", "-5", "007", "", std::string(9, 'x'), std::string(65, 'y'),
            "1.5", std::string("m\0n", 3)};
        return kMembers[pick(kMembers.size())];
    }
    std::string score() {
        return pickOf({"0", "1", "-1", "2.5", "-2.5", "inf", "-inf", "+inf", "1e300", "0.1", "3", "nan", "abc",
                       "-0", "4611686018427387904", "9007199254740993", "1e-320"});
    }
    std::string bound() {
        return pickOf({"-inf", "+inf", "0", "1", "(1", "2.5", "(2.5", "-1", "(-inf", "3", "abc", "(", ""});
    }
    std::string lex() { return pickOf({"-", "+", "[a", "(a", "[c", "(d", "[", "(", "a", "[10", "(x", "[y"}); }
    std::string index() { return std::to_string(static_cast<int>(pick(17)) - 8); }
    Args options(Args a, std::initializer_list<const char *> opts) {
        for (const char *o : opts)
            if (pick(3) == 0) a.push_back(o);
        return a;
    }
    Args limit(Args a) {
        if (pick(3) == 0) a.insert(a.end(), {"LIMIT", index(), index()});
        return a;
    }
    /* numkeys and 1 to 3 keys after the given head. */
    Args keys(Args head) {
        size_t n = 1 + pick(3);
        head.push_back(std::to_string(n));
        for (size_t i = 0; i < n; i++) head.push_back(key());
        return head;
    }
    Args setOp(Args a) {
        size_t n = std::stoul(a[a[0].find("STORE") != std::string::npos ? 2 : 1]);
        if (pick(3) == 0) {
            a.push_back("WEIGHTS");
            for (size_t i = 0; i < n; i++) a.push_back(pickOf({"1", "2", "-1", "0", "inf", "0.5"}));
        }
        if (pick(3) == 0) a.insert(a.end(), {"AGGREGATE", pickOf({"SUM", "MIN", "MAX"})});
        return a;
    }

    std::mt19937_64 rng_;
};

/* Redis 7 names the compact encoding "listpack"; cppredis, "ziplist". */
std::string comparable(std::string raw) {
    const std::string listpack = "$8\r\nlistpack\r\n", ziplist = "$7\r\nziplist\r\n";
    for (size_t at; (at = raw.find(listpack)) != std::string::npos;) raw.replace(at, listpack.size(), ziplist);
    return escape(raw);
}

class ZsetDifferential : public ::testing::TestWithParam<uint64_t> {};

/* Small limits (4 members, 8 bytes) make conversions frequent; each run
 * also goes once with the default ones. */
TEST_P(ZsetDifferential, SameRepliesAsRedis) {
    REQUIRE_REDIS_REFERENCE();
    for (bool small : {true, false}) {
        TestServer ours;
        RedisReference ref;
        RespConn a = ours.connect(), b = ref.connect();
        for (RespConn *conn : {&a, &b}) {
            ASSERT_EQ(conn->call({"CONFIG", "SET", "zset-max-ziplist-entries", small ? "4" : "128"}).raw, OK);
            ASSERT_EQ(conn->call({"CONFIG", "SET", "zset-max-ziplist-value", small ? "8" : "64"}).raw, OK);
        }
        ZsetCommandGenerator gen(GetParam() * 2 + small);
        constexpr int kBatch = 64, kCount = 3000;
        for (int done = 0; done < kCount; done += kBatch) {
            std::vector<Args> batch;
            std::string wire;
            for (int i = 0; i < kBatch; i++) {
                batch.push_back(gen.next());
                wire += encodeCommand(batch.back());
            }
            a.send(wire);
            b.send(wire);
            for (int i = 0; i < kBatch; i++) {
                Reply ra = a.readReply(), rb = b.readReply();
                ASSERT_EQ(comparable(ra.raw), comparable(rb.raw))
                    << "seed " << GetParam() << (small ? " (small limits)" : "") << ", command #" << done + i << ": "
                    << describe(batch[i]);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds, ZsetDifferential, ::testing::Values(1, 2, 3, 42));

}  // namespace
