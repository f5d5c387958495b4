/* bitops_test.cpp — integration tests of the bitmap commands (bitops.cpp:
 * SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD, BITFIELD_RO) and of
 * LCS (t_string.cpp): each command's replies, errors, arities and wrong
 * types; how strings grow (zero padding, proto-max-bulk-len); negative
 * ranges and BYTE/BIT units; BITFIELD's overflow modes at the edges of i64,
 * u63 and i1; BITOP over missing keys and different lengths; LCS with all
 * its options; and the side effects: the dirty count (which decides
 * propagation), keyspace events and WATCH.
 *
 * Each scenario runs twice, against cppredis and against Debian's Redis
 * 7.0.15 (the Servers/ instantiations), so every expected byte below is
 * proven against Redis by the same test. */
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string BAD_OFFSET = err("ERR bit offset is not an integer or out of range");
const std::string BAD_BIT = err("ERR bit is not an integer or out of range");
const std::string BAD_TYPE =
    err("ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.");
const std::string LCS_WRONGTYPE = err("ERR The specified keys must contain string values");

class Bitops : public EitherServerTest {
protected:
    long long dirty() { return infoNumber(*c, "persistence", "rdb_changes_since_last_save"); }
};

/* Bytes whose bits are easy to spell: "\xff\x00\xf0\x0f\x01". */
std::string bytes(std::initializer_list<unsigned> values) {
    std::string s;
    for (unsigned v : values) s.push_back(static_cast<char>(v));
    return s;
}

/* ========================================================================
 * SETBIT, GETBIT
 * ====================================================================== */

TEST_P(Bitops, SetbitGrowsTheStringWithZeroBytes) {
    EXPECT_EQ(call({"SETBIT", "b", "7", "1"}), integer(0));
    EXPECT_EQ(call({"GET", "b"}), bulk(bytes({0x01})));
    EXPECT_EQ(call({"SETBIT", "b", "0", "1"}), integer(0));
    EXPECT_EQ(call({"SETBIT", "b", "0", "1"}), integer(1));
    EXPECT_EQ(call({"GET", "b"}), bulk(bytes({0x81})));
    EXPECT_EQ(call({"SETBIT", "b", "33", "0"}), integer(0)); /* grows even to store a zero */
    EXPECT_EQ(call({"GET", "b"}), bulk(bytes({0x81, 0, 0, 0, 0})));
    EXPECT_EQ(call({"SETBIT", "b", "0", "0"}), integer(1));
    EXPECT_EQ(call({"GET", "b"}), bulk(bytes({0x01, 0, 0, 0, 0})));
    EXPECT_EQ(encoding("b"), "raw");
    EXPECT_EQ(call({"GETBIT", "b", "7"}), integer(1));
    EXPECT_EQ(call({"GETBIT", "b", "6"}), integer(0));
    EXPECT_EQ(call({"GETBIT", "b", "40"}), integer(0)); /* past the end */
    EXPECT_EQ(call({"GETBIT", "b", "4294967295"}), integer(0));
    EXPECT_EQ(call({"GETBIT", "nokey", "0"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "nokey"}), integer(0));
}

TEST_P(Bitops, SetbitAndGetbitOnOtherEncodings) {
    EXPECT_EQ(call({"SET", "n", "12"}), OK); /* int-encoded: read as "12", 0x31 0x32 */
    EXPECT_EQ(call({"GETBIT", "n", "2"}), integer(1));
    EXPECT_EQ(call({"GETBIT", "n", "7"}), integer(1));
    EXPECT_EQ(call({"GETBIT", "n", "14"}), integer(1));
    EXPECT_EQ(call({"GETBIT", "n", "15"}), integer(0));
    EXPECT_EQ(call({"SETBIT", "n", "15", "1"}), integer(0));
    EXPECT_EQ(call({"GET", "n"}), bulk("13"));
    EXPECT_EQ(encoding("n"), "raw");
    EXPECT_EQ(call({"SET", "e", "embedded"}), OK);
    EXPECT_EQ(call({"SETBIT", "e", "2", "0"}), integer(1));
    EXPECT_EQ(call({"GET", "e"}), bulk("Embedded"));
    EXPECT_EQ(encoding("e"), "raw");
}

TEST_P(Bitops, SetbitAndGetbitErrors) {
    for (const char *off : {"-1", "x", "1.5", "", "#1", "4294967296", "9223372036854775807"}) {
        EXPECT_EQ(call({"SETBIT", "b", off, "1"}), BAD_OFFSET) << off;
        EXPECT_EQ(call({"GETBIT", "b", off}), BAD_OFFSET) << off;
    }
    for (const char *bit : {"2", "-1", "x", "", "1.0"}) EXPECT_EQ(call({"SETBIT", "b", "0", bit}), BAD_BIT) << bit;
    EXPECT_EQ(call({"EXISTS", "b"}), integer(0));
    EXPECT_EQ(call({"RPUSH", "l", "a"}), integer(1));
    EXPECT_EQ(call({"SETBIT", "l", "0", "1"}), WRONGTYPE);
    EXPECT_EQ(call({"GETBIT", "l", "0"}), WRONGTYPE);
    EXPECT_EQ(call({"GETBIT", "l", "x"}), BAD_OFFSET); /* the offset is checked first */
    EXPECT_EQ(call({"SETBIT", "b", "0"}), arityErr("setbit"));
    EXPECT_EQ(call({"SETBIT", "b", "0", "1", "1"}), arityErr("setbit"));
    EXPECT_EQ(call({"GETBIT", "b"}), arityErr("getbit"));
}

/* The last addressable byte is proto-max-bulk-len - 1, for SETBIT and GETBIT
 * alike (BITFIELD's offsets too). */
TEST_P(Bitops, OffsetsStopAtProtoMaxBulkLen) {
    EXPECT_EQ(call({"CONFIG", "SET", "proto-max-bulk-len", "1048576"}), OK);
    EXPECT_EQ(call({"SETBIT", "b", "8388608", "1"}), BAD_OFFSET);
    EXPECT_EQ(call({"GETBIT", "b", "8388608"}), BAD_OFFSET);
    EXPECT_EQ(call({"BITFIELD", "b", "SET", "u8", "8388608", "1"}), BAD_OFFSET);
    EXPECT_EQ(call({"BITFIELD", "b", "GET", "u8", "#1048576"}), BAD_OFFSET);
    EXPECT_EQ(call({"SETBIT", "b", "8388607", "1"}), integer(0));
    EXPECT_EQ(call({"STRLEN", "b"}), integer(1048576));
    EXPECT_EQ(call({"BITCOUNT", "b"}), integer(1));
    EXPECT_EQ(call({"BITPOS", "b", "1"}), integer(8388607));
    /* A field that starts in the last byte may run past it: the string grows. */
    EXPECT_EQ(call({"BITFIELD", "b", "SET", "u8", "8388607", "255"}), array({integer(128)}));
    EXPECT_EQ(call({"STRLEN", "b"}), integer(1048577));
}

/* ========================================================================
 * BITCOUNT
 * ====================================================================== */

TEST_P(Bitops, BitcountByteAndBitRanges) {
    EXPECT_EQ(call({"SET", "s", bytes({0xff, 0x00, 0xf0, 0x0f, 0x01})}), OK);
    EXPECT_EQ(call({"BITCOUNT", "s"}), integer(17));
    EXPECT_EQ(call({"BITCOUNT", "s", "0", "-1"}), integer(17));
    EXPECT_EQ(call({"BITCOUNT", "s", "1", "2"}), integer(4));
    EXPECT_EQ(call({"BITCOUNT", "s", "-2", "-1"}), integer(5));
    EXPECT_EQ(call({"BITCOUNT", "s", "-100", "100"}), integer(17));
    EXPECT_EQ(call({"BITCOUNT", "s", "3", "1"}), integer(0));
    EXPECT_EQ(call({"BITCOUNT", "s", "5", "10"}), integer(0));
    EXPECT_EQ(call({"BITCOUNT", "s", "0", "0", "byte"}), integer(8));
    EXPECT_EQ(call({"BITCOUNT", "s", "0", "0", "BIT"}), integer(1));
    EXPECT_EQ(call({"BITCOUNT", "s", "4", "19", "bit"}), integer(8));
    EXPECT_EQ(call({"BITCOUNT", "s", "18", "29", "bit"}), integer(4));
    EXPECT_EQ(call({"BITCOUNT", "s", "-1", "-1", "bit"}), integer(1));
    EXPECT_EQ(call({"BITCOUNT", "s", "-9", "-2", "bit"}), integer(1));
    EXPECT_EQ(call({"BITCOUNT", "s", "0", "1000", "bit"}), integer(17));
    EXPECT_EQ(call({"BITCOUNT", "s", "9", "9", "bit"}), integer(0));
    EXPECT_EQ(call({"BITCOUNT", "s", "10", "9", "bit"}), integer(0));
    EXPECT_EQ(call({"SET", "n", "-12"}), OK); /* "-12": 0x2d 0x31 0x32 */
    EXPECT_EQ(call({"BITCOUNT", "n"}), integer(10));
    EXPECT_EQ(call({"BITCOUNT", "n", "1", "1"}), integer(3));
    EXPECT_EQ(call({"SET", "empty", ""}), OK);
    EXPECT_EQ(call({"BITCOUNT", "empty"}), integer(0));
    EXPECT_EQ(call({"BITCOUNT", "empty", "0", "-1", "bit"}), integer(0));
    EXPECT_EQ(call({"BITCOUNT", "nokey"}), integer(0));
}

/* Word-at-a-time counting, at every alignment and length around a word. */
TEST_P(Bitops, BitcountOfLongStrings) {
    std::string s;
    for (int i = 0; i < 1000; i++) s.push_back(static_cast<char>((i * 37 + 11) & 0xff));
    EXPECT_EQ(call({"SET", "s", s}), OK);
    auto popcount = [&](size_t from, size_t to) {
        long long n = 0;
        for (size_t i = from; i <= to; i++) n += __builtin_popcount(static_cast<unsigned char>(s[i]));
        return n;
    };
    EXPECT_EQ(call({"BITCOUNT", "s"}), integer(popcount(0, 999)));
    for (size_t from : {0, 1, 3, 7, 8, 9, 31, 33}) {
        for (size_t to : {from + 6, from + 7, from + 8, from + 31, from + 32, from + 65, size_t{999}}) {
            EXPECT_EQ(call({"BITCOUNT", "s", std::to_string(from), std::to_string(to)}), integer(popcount(from, to)))
                << from << ".." << to;
        }
    }
}

TEST_P(Bitops, BitcountErrors) {
    EXPECT_EQ(call({"SET", "s", "foobar"}), OK);
    EXPECT_EQ(call({"BITCOUNT", "s", "0"}), SYNTAX);
    EXPECT_EQ(call({"BITCOUNT", "s", "0", "1", "bit", "x"}), SYNTAX);
    EXPECT_EQ(call({"BITCOUNT", "s", "0", "1", "bits"}), SYNTAX);
    EXPECT_EQ(call({"BITCOUNT", "s", "x", "1"}), NOT_INT);
    EXPECT_EQ(call({"BITCOUNT", "s", "0", "1.5"}), NOT_INT);
    /* Crossed negative indexes answer 0 before the unit is read. */
    EXPECT_EQ(call({"BITCOUNT", "s", "-1", "-2", "nonsense"}), integer(0));
    /* A missing key answers 0 before its arguments are read. */
    EXPECT_EQ(call({"BITCOUNT", "nokey", "0"}), integer(0));
    EXPECT_EQ(call({"BITCOUNT", "nokey", "x", "y", "z"}), integer(0));
    EXPECT_EQ(call({"RPUSH", "l", "a"}), integer(1));
    EXPECT_EQ(call({"BITCOUNT", "l"}), WRONGTYPE);
    EXPECT_EQ(call({"BITCOUNT", "l", "x"}), WRONGTYPE);
    EXPECT_EQ(call({"BITCOUNT"}), arityErr("bitcount"));
}

/* ========================================================================
 * BITPOS
 * ====================================================================== */

TEST_P(Bitops, BitposFindsSetAndClearBits) {
    EXPECT_EQ(call({"SET", "s", bytes({0xff, 0xf0, 0x00})}), OK);
    EXPECT_EQ(call({"BITPOS", "s", "0"}), integer(12));
    EXPECT_EQ(call({"BITPOS", "s", "1"}), integer(0));
    EXPECT_EQ(call({"BITPOS", "s", "1", "1"}), integer(8));
    EXPECT_EQ(call({"BITPOS", "s", "1", "2"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "s", "0", "-1"}), integer(16));
    EXPECT_EQ(call({"BITPOS", "s", "1", "-2", "-1"}), integer(8));
    EXPECT_EQ(call({"BITPOS", "s", "1", "5", "100", "bit"}), integer(5));
    EXPECT_EQ(call({"BITPOS", "s", "0", "5", "100", "BIT"}), integer(12));
    EXPECT_EQ(call({"BITPOS", "s", "1", "12", "-1", "bit"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "s", "0", "3", "10", "bit"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "s", "0", "3", "12", "bit"}), integer(12));
    EXPECT_EQ(call({"BITPOS", "s", "1", "0", "0", "byte"}), integer(0));
    EXPECT_EQ(call({"BITPOS", "s", "1", "2", "1"}), integer(-1)); /* empty range */
    EXPECT_EQ(call({"BITPOS", "s", "1", "-1", "-2", "bit"}), integer(-1));
    EXPECT_EQ(call({"SET", "n", "0"}), OK); /* int-encoded "0": 0x30 */
    EXPECT_EQ(call({"BITPOS", "n", "1"}), integer(2));
    EXPECT_EQ(call({"BITPOS", "n", "0", "0", "-1", "bit"}), integer(0));
}

/* A string is followed by endless zero bits: a clear bit is found just past
 * a string of ones, unless an end was given (then -1). */
TEST_P(Bitops, BitposClearBitPastAllOnes) {
    EXPECT_EQ(call({"SET", "ones", bytes({0xff, 0xff, 0xff})}), OK);
    EXPECT_EQ(call({"BITPOS", "ones", "0"}), integer(24));
    EXPECT_EQ(call({"BITPOS", "ones", "0", "1"}), integer(24));
    EXPECT_EQ(call({"BITPOS", "ones", "0", "-1"}), integer(24));
    EXPECT_EQ(call({"BITPOS", "ones", "0", "0", "-1"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "ones", "0", "0", "2"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "ones", "0", "3", "20", "bit"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "ones", "0", "3", "200", "bit"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "nokey", "0"}), integer(0));
    EXPECT_EQ(call({"BITPOS", "nokey", "1"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "nokey", "0", "5", "10"}), integer(0));
    EXPECT_EQ(call({"SET", "empty", ""}), OK);
    EXPECT_EQ(call({"BITPOS", "empty", "0"}), integer(-1));
    EXPECT_EQ(call({"BITPOS", "empty", "1"}), integer(-1));
    std::string longer(100, '\xff');
    longer[77] = '\xfe';
    EXPECT_EQ(call({"SET", "long", longer}), OK);
    EXPECT_EQ(call({"BITPOS", "long", "0"}), integer(77 * 8 + 7));
    EXPECT_EQ(call({"BITPOS", "long", "0", "78"}), integer(800));
    EXPECT_EQ(call({"BITPOS", "long", "1", "3"}), integer(24));
}

TEST_P(Bitops, BitposErrors) {
    EXPECT_EQ(call({"SET", "s", "abc"}), OK);
    for (const char *bit : {"2", "-1", "x"})
        EXPECT_EQ(call({"BITPOS", "s", bit}), bit[0] == 'x' ? NOT_INT : err("ERR The bit argument must be 1 or 0."));
    EXPECT_EQ(call({"BITPOS", "nokey", "2"}), err("ERR The bit argument must be 1 or 0."));
    EXPECT_EQ(call({"BITPOS", "s", "1", "x"}), NOT_INT);
    EXPECT_EQ(call({"BITPOS", "s", "1", "0", "x"}), NOT_INT);
    EXPECT_EQ(call({"BITPOS", "s", "1", "0", "1", "bits"}), SYNTAX);
    EXPECT_EQ(call({"BITPOS", "s", "1", "0", "x", "bits"}), SYNTAX); /* the unit is read before the end */
    EXPECT_EQ(call({"BITPOS", "s", "1", "0", "1", "bit", "x"}), SYNTAX);
    EXPECT_EQ(call({"BITPOS", "nokey", "1", "x"}), integer(-1)); /* a missing key answers first */
    EXPECT_EQ(call({"RPUSH", "l", "a"}), integer(1));
    EXPECT_EQ(call({"BITPOS", "l", "1"}), WRONGTYPE);
    EXPECT_EQ(call({"BITPOS", "s"}), arityErr("bitpos"));
}

/* ========================================================================
 * BITOP
 * ====================================================================== */

TEST_P(Bitops, BitopPadsShorterSourcesWithZeros) {
    EXPECT_EQ(call({"SET", "a", bytes({0xff, 0x0f, 0xaa})}), OK);
    EXPECT_EQ(call({"SET", "b", bytes({0xf0, 0xff})}), OK);
    EXPECT_EQ(call({"BITOP", "AND", "d", "a", "b"}), integer(3));
    EXPECT_EQ(call({"GET", "d"}), bulk(bytes({0xf0, 0x0f, 0x00})));
    EXPECT_EQ(call({"BITOP", "or", "d", "a", "b"}), integer(3));
    EXPECT_EQ(call({"GET", "d"}), bulk(bytes({0xff, 0xff, 0xaa})));
    EXPECT_EQ(call({"BITOP", "Xor", "d", "a", "b"}), integer(3));
    EXPECT_EQ(call({"GET", "d"}), bulk(bytes({0x0f, 0xf0, 0xaa})));
    EXPECT_EQ(call({"BITOP", "NOT", "d", "b"}), integer(2));
    EXPECT_EQ(call({"GET", "d"}), bulk(bytes({0x0f, 0x00})));
    EXPECT_EQ(encoding("d"), "raw");
    /* Missing keys are empty strings. */
    EXPECT_EQ(call({"BITOP", "AND", "d", "a", "nokey"}), integer(3));
    EXPECT_EQ(call({"GET", "d"}), bulk(bytes({0, 0, 0})));
    EXPECT_EQ(call({"BITOP", "OR", "d", "nokey", "b"}), integer(2));
    EXPECT_EQ(call({"GET", "d"}), bulk(bytes({0xf0, 0xff})));
    /* The destination may be a source; an int-encoded source is its text. */
    EXPECT_EQ(call({"SET", "n", "12"}), OK);
    EXPECT_EQ(call({"BITOP", "XOR", "n", "n", "b"}), integer(2));
    EXPECT_EQ(call({"GET", "n"}), bulk(bytes({0x31 ^ 0xf0, 0x32 ^ 0xff})));
}

/* An empty result deletes the destination (whatever type it held). */
TEST_P(Bitops, BitopEmptyResultDeletesTheDestination) {
    EXPECT_EQ(call({"RPUSH", "d", "x"}), integer(1));
    EXPECT_EQ(call({"BITOP", "OR", "d", "nokey", "nokey2"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "d"}), integer(0));
    EXPECT_EQ(call({"SET", "e", ""}), OK);
    EXPECT_EQ(call({"SET", "d", "x"}), OK);
    EXPECT_EQ(call({"BITOP", "NOT", "d", "e"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "d"}), integer(0));
    EXPECT_EQ(call({"RPUSH", "l", "x"}), integer(1));
    EXPECT_EQ(call({"SET", "s", "x"}), OK);
    EXPECT_EQ(call({"BITOP", "OR", "l", "s"}), integer(1)); /* a destination of another type is replaced */
    EXPECT_EQ(call({"TYPE", "l"}), "+string\r\n");
}

/* Sources longer than the word-at-a-time loop's blocks, of different
 * lengths, with a TTL on the destination that the new value clears. */
TEST_P(Bitops, BitopOfLongStrings) {
    std::string a, b, c2;
    for (int i = 0; i < 203; i++) a.push_back(static_cast<char>(i * 7));
    for (int i = 0; i < 150; i++) b.push_back(static_cast<char>(i * 13 + 5));
    for (int i = 0; i < 97; i++) c2.push_back(static_cast<char>(255 - i));
    EXPECT_EQ(call({"MSET", "a", a, "b", b, "c", c2}), OK);
    EXPECT_EQ(call({"SET", "d", "old", "EX", "1000"}), OK);
    for (const std::string op : {"AND", "OR", "XOR"}) {
        std::string want(203, '\0');
        for (size_t i = 0; i < want.size(); i++) {
            unsigned char x = static_cast<unsigned char>(a[i]), y = i < b.size() ? b[i] : 0,
                          z = i < c2.size() ? c2[i] : 0;
            want[i] = static_cast<char>(op == "AND" ? x & y & z : op == "OR" ? x | y | z : x ^ y ^ z);
        }
        EXPECT_EQ(call({"BITOP", op, "d", "a", "b", "c"}), integer(203)) << op;
        EXPECT_EQ(call({"GET", "d"}), bulk(want)) << op;
    }
    EXPECT_EQ(call({"TTL", "d"}), integer(-1));
    std::string nota = a;
    for (char &ch : nota) ch = static_cast<char>(~ch);
    EXPECT_EQ(call({"BITOP", "NOT", "d", "a"}), integer(203));
    EXPECT_EQ(call({"GET", "d"}), bulk(nota));
}

TEST_P(Bitops, BitopErrors) {
    EXPECT_EQ(call({"SET", "s", "x"}), OK);
    EXPECT_EQ(call({"RPUSH", "l", "x"}), integer(1));
    EXPECT_EQ(call({"BITOP", "NAND", "d", "s"}), SYNTAX);
    EXPECT_EQ(call({"BITOP", "NOT", "d", "s", "s"}), err("ERR BITOP NOT must be called with a single source key."));
    EXPECT_EQ(call({"BITOP", "AND", "d", "s", "l"}), WRONGTYPE);
    EXPECT_EQ(call({"BITOP", "NOT", "d", "l"}), WRONGTYPE);
    EXPECT_EQ(call({"EXISTS", "d"}), integer(0));
    EXPECT_EQ(call({"BITOP", "AND", "d"}), arityErr("bitop"));
}

/* ========================================================================
 * BITFIELD
 * ====================================================================== */

TEST_P(Bitops, BitfieldGetSetIncrby) {
    EXPECT_EQ(call({"BITFIELD", "bf", "SET", "i8", "0", "-100", "GET", "i8", "0", "GET", "u8", "0", "INCRBY", "u4",
                    "4", "3", "GET", "u16", "#0"}),
              array({integer(0), integer(-100), integer(156), integer(15), integer(0x9f00)}));
    EXPECT_EQ(call({"GET", "bf"}), bulk(bytes({0x9f})));
    /* #N is the N-th field of the type's width; fields may cross bytes. */
    EXPECT_EQ(call({"BITFIELD", "bf", "SET", "u12", "#2", "4095", "GET", "u12", "#2", "GET", "u4", "20", "GET", "u8",
                    "28"}),
              array({integer(0), integer(4095), integer(0), integer(0xff)}));
    EXPECT_EQ(call({"STRLEN", "bf"}), integer(5));
    EXPECT_EQ(call({"BITFIELD", "bf", "GET", "i64", "0", "GET", "u63", "1", "GET", "i1", "24", "GET", "u1", "1000"}),
              array({integer(static_cast<long long>(0x9f0000fff0000000ULL)), integer(0x1f0000fff0000000LL),
                     integer(-1), integer(0)}));
    EXPECT_EQ(call({"BITFIELD", "bf"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"BITFIELD", "nokey", "GET", "u8", "100"}), array({integer(0)}));
    EXPECT_EQ(call({"EXISTS", "nokey"}), integer(0));
    EXPECT_EQ(call({"SET", "n", "65"}), OK); /* int-encoded "65": 0x36 0x35 */
    EXPECT_EQ(call({"BITFIELD", "n", "GET", "u16", "0", "INCRBY", "u8", "#1", "1"}),
              array({integer(0x3635), integer(0x36)}));
    EXPECT_EQ(call({"GET", "n"}), bulk("66"));
}

TEST_P(Bitops, BitfieldOverflowI64) {
    const std::string MAX = "9223372036854775807", MIN = "-9223372036854775808";
    EXPECT_EQ(call({"BITFIELD", "f", "SET", "i64", "0", MAX, "INCRBY", "i64", "0", "1", "INCRBY", "i64", "0", "-1"}),
              array({integer(0), integer(LLONG_MIN), integer(LLONG_MAX)}));
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW", "SAT", "INCRBY", "i64", "0", MAX, "SET", "i64", "0", MIN, "INCRBY",
                    "i64", "0", "-1", "INCRBY", "i64", "0", MIN}),
              array({integer(LLONG_MAX), integer(LLONG_MAX), integer(LLONG_MIN), integer(LLONG_MIN)}));
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW", "FAIL", "INCRBY", "i64", "0", "-1", "INCRBY", "i64", "0", MAX,
                    "INCRBY", "i64", "0", MIN, "GET", "i64", "0"}),
              array({NIL, integer(-1), NIL, integer(-1)}));
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW", "WRAP", "INCRBY", "i64", "0", MIN, "INCRBY", "i64", "0", MIN}),
              array({integer(LLONG_MAX), integer(-1)}));
}

TEST_P(Bitops, BitfieldOverflowU63) {
    const std::string MAX = "9223372036854775807";
    EXPECT_EQ(call({"BITFIELD", "f", "SET", "u63", "#1", MAX, "GET", "u63", "#1", "INCRBY", "u63", "#1", "1"}),
              array({integer(0), integer(LLONG_MAX), integer(0)}));
    EXPECT_EQ(call({"BITFIELD", "f", "INCRBY", "u63", "#1", "-1", "OVERFLOW", "SAT", "INCRBY", "u63", "#1", "5",
                    "INCRBY", "u63", "#1", "-9223372036854775808", "SET", "u63", "#1", "-1", "GET", "u63", "#1"}),
              array({integer(LLONG_MAX), integer(LLONG_MAX), integer(0), integer(0), integer(LLONG_MAX)}));
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW", "FAIL", "INCRBY", "u63", "#1", "1", "SET", "u63", "#1", "-1",
                    "INCRBY", "u63", "#1", "-9223372036854775808", "INCRBY", "u63", "#1", "-4611686018427387903"}),
              array({NIL, NIL, NIL, integer(0x4000000000000000LL)}));
    EXPECT_EQ(call({"BITFIELD", "f", "GET", "u64", "0"}), BAD_TYPE);
}

TEST_P(Bitops, BitfieldOverflowI1AndNarrowFields) {
    EXPECT_EQ(call({"BITFIELD", "f", "SET", "i1", "0", "1", "GET", "i1", "0", "INCRBY", "i1", "0", "1", "INCRBY", "i1",
                    "0", "1"}),
              array({integer(0), integer(-1), integer(0), integer(-1)}));
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW", "SAT", "INCRBY", "i1", "0", "5", "INCRBY", "i1", "0", "-5", "SET",
                    "i1", "0", "7", "OVERFLOW", "FAIL", "INCRBY", "i1", "0", "1", "INCRBY", "i1", "0", "-1"}),
              array({integer(0), integer(-1), integer(-1), NIL, integer(-1)}));
    /* SET of an out-of-range value: WRAP keeps the low bits, SAT the nearer
     * limit (a negative value into an unsigned field is a huge one: the
     * maximum), FAIL writes nothing. */
    EXPECT_EQ(call({"BITFIELD", "g", "SET", "u8", "0", "-1", "SET", "i8", "0", "1000", "GET", "i8", "0", "OVERFLOW",
                    "SAT", "SET", "u8", "0", "-1", "SET", "i8", "0", "-1000", "SET", "i8", "0", "1000", "OVERFLOW",
                    "FAIL", "SET", "u8", "0", "256", "SET", "i8", "0", "-129", "SET", "i8", "0", "-128"}),
              array({integer(0), integer(-1), integer(-24), integer(232), integer(-1), integer(-128), NIL, NIL,
                     integer(127)}));
    /* Redis's quirk: a value within the field's maximum of INT64_MIN counts as
     * overflowing upwards, so SAT stores the maximum. */
    EXPECT_EQ(call({"BITFIELD", "g", "OVERFLOW", "SAT", "SET", "i8", "0", "-9223372036854775808", "GET", "i8", "0",
                    "SET", "i8", "0", "-9223372036854775000", "GET", "i8", "0"}),
              array({integer(-128), integer(127), integer(127), integer(-128)}));
}

TEST_P(Bitops, BitfieldErrors) {
    for (const char *type : {"u64", "i65", "i0", "u0", "x8", "I8", "", "i", "i8x", "i-8"})
        EXPECT_EQ(call({"BITFIELD", "f", "GET", type, "0"}), BAD_TYPE) << type;
    for (const char *off : {"-1", "#-1", "##1", "x", "#", "4294967296", "#536870912"})
        EXPECT_EQ(call({"BITFIELD", "f", "GET", "u8", off}), BAD_OFFSET) << off;
    EXPECT_EQ(call({"BITFIELD", "f", "SET", "i8", "0", "x"}), NOT_INT);
    EXPECT_EQ(call({"BITFIELD", "f", "INCRBY", "i8", "0"}), SYNTAX);
    EXPECT_EQ(call({"BITFIELD", "f", "GET", "i8"}), SYNTAX);
    EXPECT_EQ(call({"BITFIELD", "f", "FOO"}), SYNTAX);
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW"}), SYNTAX);
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW", "SATURATE", "GET", "i8", "0"}),
              err("ERR Invalid OVERFLOW type specified"));
    /* Every subcommand is parsed before anything runs. */
    EXPECT_EQ(call({"BITFIELD", "f", "SET", "i8", "0", "1", "GET", "u64", "0"}), BAD_TYPE);
    EXPECT_EQ(call({"EXISTS", "f"}), integer(0));
    EXPECT_EQ(call({"RPUSH", "l", "x"}), integer(1));
    EXPECT_EQ(call({"BITFIELD", "l", "GET", "i8", "0"}), WRONGTYPE);
    EXPECT_EQ(call({"BITFIELD", "l", "SET", "i8", "0", "1"}), WRONGTYPE);
    EXPECT_EQ(call({"BITFIELD", "l"}), WRONGTYPE);
    EXPECT_EQ(call({"BITFIELD"}), arityErr("bitfield"));
}

/* OVERFLOW FAIL refuses the write, yet the string was already grown for
 * it: the key exists afterwards, as in Redis, with nothing counted dirty. */
TEST_P(Bitops, BitfieldFailStillGrowsTheString) {
    long long before = dirty();
    EXPECT_EQ(call({"BITFIELD", "f", "OVERFLOW", "FAIL", "INCRBY", "u2", "100", "5"}), array({NIL}));
    EXPECT_EQ(call({"GET", "f"}), bulk(std::string(13, '\0')));
    EXPECT_EQ(dirty(), before);
}

TEST_P(Bitops, BitfieldRoOnlyGets) {
    EXPECT_EQ(call({"SET", "s", bytes({0x80, 0x01})}), OK);
    EXPECT_EQ(call({"BITFIELD_RO", "s", "GET", "i8", "0", "GET", "u16", "#0", "OVERFLOW", "SAT", "GET", "u1", "15"}),
              array({integer(-128), integer(0x8001), integer(1)}));
    EXPECT_EQ(call({"BITFIELD_RO", "s"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"BITFIELD_RO", "nokey", "GET", "i8", "0"}), array({integer(0)}));
    const std::string RO_ONLY = err("ERR BITFIELD_RO only supports the GET subcommand");
    EXPECT_EQ(call({"BITFIELD_RO", "s", "SET", "i8", "0", "1"}), RO_ONLY);
    EXPECT_EQ(call({"BITFIELD_RO", "s", "GET", "i8", "0", "INCRBY", "i8", "0", "1"}), RO_ONLY);
    EXPECT_EQ(call({"BITFIELD_RO", "s", "SET", "i8", "0", "x"}), NOT_INT);
    EXPECT_EQ(call({"BITFIELD_RO", "s", "FOO"}), SYNTAX);
    EXPECT_EQ(call({"RPUSH", "l", "x"}), integer(1));
    EXPECT_EQ(call({"BITFIELD_RO", "l", "GET", "i8", "0"}), WRONGTYPE);
    EXPECT_EQ(call({"BITFIELD_RO", "l", "SET", "i8", "0", "1"}), RO_ONLY);
    EXPECT_EQ(call({"BITFIELD_RO"}), arityErr("bitfield_ro"));
    EXPECT_EQ(call({"GET", "s"}), bulk(bytes({0x80, 0x01})));
}

/* bitfieldGetKeys: the key is read-only when every subcommand is a GET. */
TEST_P(Bitops, BitfieldKeyFlags) {
    const std::string RO = array({array({bulk("k"), array({"+RO\r\n", "+access\r\n"})})});
    const std::string RW = array({array({bulk("k"), array({"+RW\r\n", "+access\r\n", "+update\r\n"})})});
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "BITFIELD", "k", "GET", "i8", "0", "OVERFLOW", "SAT"}), RO);
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "BITFIELD", "k"}), RO);
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "BITFIELD", "k", "GET", "i8", "0", "INCRBY", "i8", "0", "1"}), RW);
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "BITFIELD", "k", "SET", "i8", "0", "1", "GET", "i8", "0"}), RW);
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "BITFIELD", "k", "GET", "i8"}), RW); /* unparsable */
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "BITFIELD_RO", "k", "GET", "i8", "0"}), RO);
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "BITFIELD", "k", "SET", "i8", "0", "1"}), bulks({"k"}));
}

/* ========================================================================
 * Side effects: dirty (what is propagated), keyspace events, WATCH
 * ====================================================================== */

/* server.dirty moves only when something changed: that is what the AOF and
 * the replicas get (BITFIELD with only GETs, SETBIT of a bit to its value
 * are not propagated). */
TEST_P(Bitops, DirtyCountsOnlyChanges) {
    long long d = dirty();
    EXPECT_EQ(call({"SETBIT", "b", "10", "1"}), integer(0));
    EXPECT_EQ(dirty(), d += 1);
    EXPECT_EQ(call({"SETBIT", "b", "10", "1"}), integer(1));
    EXPECT_EQ(call({"SETBIT", "b", "11", "0"}), integer(0));
    EXPECT_EQ(dirty(), d);
    EXPECT_EQ(call({"SETBIT", "b", "100", "0"}), integer(0)); /* grows: a change */
    EXPECT_EQ(dirty(), d += 1);
    EXPECT_EQ(call({"BITFIELD", "b", "GET", "u8", "0", "SET", "u8", "0", "32", "SET", "u8", "8", "1", "INCRBY", "u4",
                    "0", "0"}),
              array({integer(0), integer(0), integer(32), integer(2)}));
    EXPECT_EQ(dirty(), d += 2);
    EXPECT_EQ(call({"BITFIELD", "b", "SET", "u8", "1000", "0", "SET", "u8", "1000", "0"}),
              array({integer(0), integer(0)})); /* grown: both writes count */
    EXPECT_EQ(dirty(), d += 2);
    EXPECT_EQ(call({"BITFIELD", "b", "GET", "u8", "0"}), array({integer(32)}));
    EXPECT_EQ(call({"BITFIELD_RO", "b", "GET", "u8", "0"}), array({integer(32)}));
    EXPECT_EQ(dirty(), d);
    EXPECT_EQ(call({"BITOP", "NOT", "d", "b"}), integer(126));
    EXPECT_EQ(dirty(), d += 1);
    EXPECT_EQ(call({"BITOP", "AND", "d", "nokey"}), integer(0)); /* deletes d */
    EXPECT_EQ(dirty(), d += 1);
    EXPECT_EQ(call({"BITOP", "AND", "d", "nokey"}), integer(0));
    EXPECT_EQ(call({"BITCOUNT", "b"}), integer(2));
    EXPECT_EQ(call({"LCS", "b", "b", "LEN"}), integer(126));
    EXPECT_EQ(dirty(), d);
}

TEST_P(Bitops, KeyspaceEvents) {
    RespConn sub = srv->connect();
    EXPECT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", "E$g"}), OK);
    ASSERT_EQ(sub.call({"PSUBSCRIBE", "__keyevent@0__:*"}).raw,
              array({bulk("psubscribe"), bulk("__keyevent@0__:*"), integer(1)}));
    EXPECT_EQ(call({"SETBIT", "b", "1", "1"}), integer(0));
    EXPECT_EQ(call({"SETBIT", "b", "1", "1"}), integer(1)); /* no event */
    EXPECT_EQ(call({"BITFIELD", "b", "GET", "u8", "0"}), array({integer(64)})); /* no event */
    EXPECT_EQ(call({"BITFIELD", "b", "INCRBY", "u8", "0", "1", "INCRBY", "u8", "0", "1"}),
              array({integer(65), integer(66)}));
    EXPECT_EQ(call({"BITOP", "OR", "d", "b"}), integer(1));
    EXPECT_EQ(call({"BITOP", "OR", "d", "nokey"}), integer(0));
    auto event = [](const std::string &name, const std::string &key) {
        return array({bulk("pmessage"), bulk("__keyevent@0__:*"), bulk("__keyevent@0__:" + name), bulk(key)});
    };
    /* One setbit event for the two INCRBYs, none for what changed nothing;
     * the marker published last ends the events. */
    EXPECT_EQ(call({"PUBLISH", "__keyevent@0__:marker", "end"}), integer(1));
    for (const auto &[name, key] : std::vector<std::pair<std::string, std::string>>{
             {"setbit", "b"}, {"setbit", "b"}, {"set", "d"}, {"del", "d"}, {"marker", "end"}})
        EXPECT_EQ(sub.readReply().raw, event(name, key));
}

TEST_P(Bitops, WatchSeesOnlyChanges) {
    EXPECT_EQ(call({"SETBIT", "b", "3", "1"}), integer(0));
    RespConn other = srv->connect();
    for (const auto &[cmd, aborts] : std::vector<std::pair<Args, bool>>{
             {{"SETBIT", "b", "3", "1"}, false},
             {{"BITFIELD", "b", "GET", "u8", "0"}, false},
             {{"BITFIELD", "b", "SET", "u4", "0", "1"}, false},
             {{"SETBIT", "b", "3", "0"}, true},
             {{"BITFIELD", "b", "SET", "u4", "0", "2"}, true},
             {{"BITOP", "NOT", "b", "b"}, true},
         }) {
        EXPECT_EQ(call({"WATCH", "b"}), OK);
        other.call(cmd);
        EXPECT_EQ(call({"MULTI"}), OK);
        EXPECT_EQ(call({"PING"}), QUEUED);
        EXPECT_EQ(call({"EXEC"}), aborts ? NIL_ARRAY : array({"+PONG\r\n"})) << describe(cmd);
    }
}

/* ========================================================================
 * LCS
 * ====================================================================== */

TEST_P(Bitops, LcsStringAndLength) {
    EXPECT_EQ(call({"MSET", "a", "ohmytext", "b", "mynewtext"}), OK);
    EXPECT_EQ(call({"LCS", "a", "b"}), bulk("mytext"));
    EXPECT_EQ(call({"LCS", "b", "a"}), bulk("mytext"));
    EXPECT_EQ(call({"LCS", "a", "b", "LEN"}), integer(6));
    EXPECT_EQ(call({"LCS", "a", "nokey"}), bulk(""));
    EXPECT_EQ(call({"LCS", "nokey", "nokey", "len"}), integer(0));
    EXPECT_EQ(call({"MSET", "n1", "123456", "n2", "2461"}), OK); /* int-encoded */
    EXPECT_EQ(call({"LCS", "n1", "n2"}), bulk("246"));
    EXPECT_EQ(call({"LCS", "a", "a"}), bulk("ohmytext"));
}

TEST_P(Bitops, LcsIdx) {
    EXPECT_EQ(call({"MSET", "a", "ohmytext", "b", "mynewtext"}), OK);
    auto match = [](long long a1, long long a2, long long b1, long long b2, long long len = -1) {
        std::vector<std::string> m{array({integer(a1), integer(a2)}), array({integer(b1), integer(b2)})};
        if (len >= 0) m.push_back(integer(len));
        return array(m);
    };
    EXPECT_EQ(call({"LCS", "a", "b", "IDX"}),
              array({bulk("matches"), array({match(4, 7, 5, 8), match(2, 3, 0, 1)}), bulk("len"), integer(6)}));
    EXPECT_EQ(call({"LCS", "a", "b", "idx", "MINMATCHLEN", "4"}),
              array({bulk("matches"), array({match(4, 7, 5, 8)}), bulk("len"), integer(6)}));
    EXPECT_EQ(call({"LCS", "a", "b", "IDX", "MINMATCHLEN", "-3", "WITHMATCHLEN"}),
              array({bulk("matches"), array({match(4, 7, 5, 8, 4), match(2, 3, 0, 1, 2)}), bulk("len"), integer(6)}));
    EXPECT_EQ(call({"LCS", "a", "b", "WITHMATCHLEN", "IDX", "MINMATCHLEN", "5"}),
              array({bulk("matches"), EMPTY_ARRAY, bulk("len"), integer(6)}));
    EXPECT_EQ(call({"LCS", "a", "nokey", "IDX"}), array({bulk("matches"), EMPTY_ARRAY, bulk("len"), integer(0)}));
    /* Options other than IDX and LEN are accepted and ignored without IDX. */
    EXPECT_EQ(call({"LCS", "a", "b", "MINMATCHLEN", "10", "WITHMATCHLEN"}), bulk("mytext"));
    EXPECT_EQ(call({"MSET", "x", "abcXdefYghi", "y", "abcdefghi"}), OK);
    EXPECT_EQ(call({"LCS", "x", "y", "IDX", "WITHMATCHLEN"}),
              array({bulk("matches"), array({match(8, 10, 6, 8, 3), match(4, 6, 3, 5, 3), match(0, 2, 0, 2, 3)}),
                     bulk("len"), integer(9)}));
}

TEST_P(Bitops, LcsErrors) {
    EXPECT_EQ(call({"MSET", "a", "abc", "b", "abd"}), OK);
    EXPECT_EQ(call({"RPUSH", "l", "x"}), integer(1));
    EXPECT_EQ(call({"LCS", "a", "b", "LEN", "IDX"}),
              err("ERR If you want both the length and indexes, please just use IDX."));
    EXPECT_EQ(call({"LCS", "a", "b", "MINMATCHLEN"}), SYNTAX);
    EXPECT_EQ(call({"LCS", "a", "b", "MINMATCHLEN", "x"}), NOT_INT);
    EXPECT_EQ(call({"LCS", "a", "b", "FOO"}), SYNTAX);
    EXPECT_EQ(call({"LCS", "a", "l"}), LCS_WRONGTYPE);
    EXPECT_EQ(call({"LCS", "l", "a", "FOO"}), LCS_WRONGTYPE); /* the types are checked first */
    EXPECT_EQ(call({"LCS", "a"}), arityErr("lcs"));
    /* The table's (len1 + 1) * (len2 + 1) * 4 bytes are bounded by proto-max-bulk-len. */
    EXPECT_EQ(call({"CONFIG", "SET", "proto-max-bulk-len", "1048576"}), OK);
    EXPECT_EQ(call({"MSET", "big1", std::string(600, 'a'), "big2", std::string(600, 'a')}), OK);
    EXPECT_EQ(call({"LCS", "big1", "big2", "LEN"}),
              err("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len"));
    EXPECT_EQ(call({"LCS", "big1", "b", "LEN"}), integer(1));
}

INSTANTIATE_TEST_SUITE_P(Servers, Bitops, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
