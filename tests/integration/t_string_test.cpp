/* t_string_test.cpp — integration tests of the string commands (t_string.cpp):
 * every command, the option combinations of SET and GETEX, every error reply,
 * wrong types, the encodings (OBJECT ENCODING, DEBUG OBJECT), in-place
 * updates, and a scripted differential run against Debian's redis-server.
 *
 * Every expected byte below was taken from Redis 7.0.15 answering the same
 * request. */
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;
using namespace std::string_literals;

namespace {

const std::string TOO_BIG = "-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n";

class Strings : public FreshServerTest {
protected:
    /* DEBUG OBJECT's "Value at:0x..." — which robj the key holds. */
    std::string address(const std::string &key) { return debugField(key, "at"); }
};

/* ========================================================================
 * SET and GET
 * ====================================================================== */

TEST_F(Strings, SetGetRoundTripIsBinarySafe) {
    EXPECT_EQ(call({"GET", "missing"}), NIL);
    EXPECT_EQ(call({"SET", "k", "hello"}), OK);
    EXPECT_EQ(call({"GET", "k"}), bulk("hello"));
    EXPECT_EQ(call({"SET", "k", "world"}), OK);
    EXPECT_EQ(call({"GET", "k"}), bulk("world"));

    std::string all;
    for (int b = 0; b < 256; b++) all += static_cast<char>(b);
    std::string key = "key\0with\r\nbytes"s;
    EXPECT_EQ(call({"SET", key, all}), OK);
    EXPECT_EQ(call({"GET", key}), bulk(all));
    EXPECT_EQ(call({"STRLEN", key}), integer(256));

    EXPECT_EQ(call({"SET", "empty", ""}), OK);
    EXPECT_EQ(call({"GET", "empty"}), bulk(""));
    EXPECT_EQ(call({"STRLEN", "empty"}), integer(0));

    std::string big(1 << 20, 'x');
    big[12345] = '\0';
    EXPECT_EQ(call({"SET", "big", big}), OK);
    EXPECT_EQ(c.call({"GET", "big"}).str, big);
}

TEST_F(Strings, SetNxXx) {
    EXPECT_EQ(call({"SET", "k", "1", "XX"}), NIL);
    EXPECT_EQ(call({"GET", "k"}), NIL);
    EXPECT_EQ(call({"SET", "k", "1", "NX"}), OK);
    EXPECT_EQ(call({"SET", "k", "2", "nx"}), NIL);
    EXPECT_EQ(call({"GET", "k"}), bulk("1"));
    EXPECT_EQ(call({"SET", "k", "3", "xX"}), OK);
    EXPECT_EQ(call({"GET", "k"}), bulk("3"));
    /* An option may be repeated. */
    EXPECT_EQ(call({"SET", "k", "4", "XX", "XX"}), OK);
    EXPECT_EQ(call({"SET", "k", "5", "NX", "NX"}), NIL);
}

TEST_F(Strings, SetGetOption) {
    EXPECT_EQ(call({"SET", "k", "a", "GET"}), NIL);
    EXPECT_EQ(call({"SET", "k", "b", "GET"}), bulk("a"));
    EXPECT_EQ(call({"SET", "k", "c", "get", "GET"}), bulk("b"));
    /* With NX/XX the old value is the answer whether or not the write happens. */
    EXPECT_EQ(call({"SET", "k", "d", "NX", "GET"}), bulk("c"));
    EXPECT_EQ(call({"GET", "k"}), bulk("c"));
    EXPECT_EQ(call({"SET", "new", "d", "XX", "GET"}), NIL);
    EXPECT_EQ(call({"GET", "new"}), NIL);
    EXPECT_EQ(call({"SET", "new", "e", "GET", "NX"}), NIL);
    EXPECT_EQ(call({"GET", "new"}), bulk("e"));
    EXPECT_EQ(call({"SET", "new", "f", "XX", "GET"}), bulk("e"));
    EXPECT_EQ(call({"GET", "new"}), bulk("f"));
    /* An integer value is answered as a bulk. */
    EXPECT_EQ(call({"SET", "n", "42"}), OK);
    EXPECT_EQ(call({"SET", "n", "x", "GET"}), bulk("42"));
}

TEST_F(Strings, SetOptionConflictsAreSyntaxErrors) {
    EXPECT_EQ(call({"SET", "k", "old"}), OK);
    const std::vector<Args> bad = {
        {"SET", "k", "v", "NX", "XX"},       {"SET", "k", "v", "XX", "NX"},
        {"SET", "k", "v", "EX", "10", "PX", "100"}, {"SET", "k", "v", "PX", "100", "EX", "10"},
        {"SET", "k", "v", "EX", "10", "EXAT", "4102444800"}, {"SET", "k", "v", "EXAT", "4102444800", "PXAT", "4102444800000"},
        {"SET", "k", "v", "PXAT", "4102444800000", "PX", "5"}, {"SET", "k", "v", "EX", "10", "KEEPTTL"},
        {"SET", "k", "v", "KEEPTTL", "EX", "10"}, {"SET", "k", "v", "KEEPTTL", "PXAT", "4102444800000"},
        {"SET", "k", "v", "EX"},             {"SET", "k", "v", "PX"},
        {"SET", "k", "v", "EXAT"},           {"SET", "k", "v", "NX", "PXAT"},
        {"SET", "k", "v", "PERSIST"},        {"SET", "k", "v", "BAD"},
        {"SET", "k", "v", "N"},              {"SET", "k", "v", "NXX"},
        {"SET", "k", "v", ""},               {"SET", "k", "v", "EX", "10", "extra"},
    };
    for (const Args &args : bad) EXPECT_EQ(call(args), SYNTAX) << describe(args);
    EXPECT_EQ(call({"GET", "k"}), bulk("old"));
    /* A syntax error wins over a bad expire value, whatever the order. */
    EXPECT_EQ(call({"SET", "k", "v", "EX", "abc", "NX", "XX"}), SYNTAX);
    /* Allowed combinations. */
    EXPECT_EQ(call({"SET", "k", "v", "KEEPTTL", "KEEPTTL"}), OK);
    EXPECT_EQ(call({"SET", "k", "v", "EX", "10", "EX", "20", "XX", "GET"}), bulk("v"));
    EXPECT_EQ(call({"SET", "k", "v", "keepttl", "nx", "get"}), bulk("v"));
}

TEST_F(Strings, SetInvalidExpireTimes) {
    EXPECT_EQ(call({"SET", "k", "old"}), OK);
    const std::string set = expireTimeErr("set");
    EXPECT_EQ(call({"SET", "k", "v", "EX", "0"}), set);
    EXPECT_EQ(call({"SET", "k", "v", "EX", "-1"}), set);
    EXPECT_EQ(call({"SET", "k", "v", "PX", "0"}), set);
    EXPECT_EQ(call({"SET", "k", "v", "EXAT", "0"}), set);
    EXPECT_EQ(call({"SET", "k", "v", "PXAT", "-5"}), set);
    /* Seconds that overflow once in ms, ms that overflow once added to now. */
    EXPECT_EQ(call({"SET", "k", "v", "EX", "9223372036854775807"}), set);
    EXPECT_EQ(call({"SET", "k", "v", "EXAT", "9223372036854776"}), set);
    EXPECT_EQ(call({"SET", "k", "v", "PX", "9223372036854775807"}), set);
    EXPECT_EQ(call({"SET", "k", "v", "EX", "9223372036854775"}), set);
    /* Not a number at all is the integer error. */
    EXPECT_EQ(call({"SET", "k", "v", "EX", "abc"}), NOT_INT);
    EXPECT_EQ(call({"SET", "k", "v", "PX", "1.5"}), NOT_INT);
    EXPECT_EQ(call({"SET", "k", "v", "EX", "99999999999999999999"}), NOT_INT);
    EXPECT_EQ(call({"SET", "k", "v", "EX", " 10"}), NOT_INT);
    /* The expire is checked before GET answers: nothing else is replied. */
    EXPECT_EQ(call({"SET", "k", "v", "GET", "EX", "0"}), set);
    EXPECT_EQ(call({"GET", "k"}), bulk("old"));
    /* The largest times that fit are accepted. */
    EXPECT_EQ(call({"SET", "k", "v", "EXAT", "9223372036854775"}), OK);
    EXPECT_EQ(call({"SET", "k", "v", "PXAT", "9223372036854775807"}), OK);
    EXPECT_EQ(call({"GET", "k"}), bulk("v"));
}

TEST_F(Strings, SetExpiresLazilyAndWithAbsoluteTimesInThePast) {
    EXPECT_EQ(call({"SET", "past", "v", "EXAT", "1"}), OK);
    EXPECT_EQ(call({"GET", "past"}), NIL);
    EXPECT_EQ(call({"SET", "past", "v", "PXAT", "1000"}), OK);
    EXPECT_EQ(call({"GET", "past"}), NIL);

    EXPECT_EQ(call({"SET", "soon", "v", "PX", "1"}), OK);
    pollUntil([&] { return call({"GET", "soon"}) == NIL; }); /* expiry is time-driven */
    EXPECT_EQ(call({"GET", "soon"}), NIL);

    EXPECT_EQ(call({"SET", "later", "v", "EX", "100"}), OK);
    EXPECT_EQ(call({"GET", "later"}), bulk("v"));
}

TEST_F(Strings, SetTtlOptions) {
    EXPECT_EQ(call({"SET", "k", "v", "EX", "100"}), OK);
    EXPECT_EQ(call({"TTL", "k"}), integer(100));
    EXPECT_EQ(call({"SET", "k", "w", "KEEPTTL"}), OK);
    EXPECT_EQ(call({"TTL", "k"}), integer(100));
    EXPECT_EQ(call({"GET", "k"}), bulk("w"));
    EXPECT_EQ(call({"SET", "k", "x"}), OK); /* a plain SET drops the TTL */
    EXPECT_EQ(call({"TTL", "k"}), integer(-1));
    EXPECT_EQ(call({"SET", "k", "x", "PX", "100000"}), OK);
    EXPECT_EQ(call({"TTL", "k"}), integer(100));
    EXPECT_EQ(call({"SET", "k", "x", "EXAT", "4102444800"}), OK);
    EXPECT_EQ(call({"EXPIRETIME", "k"}), integer(4102444800));
    EXPECT_EQ(call({"SET", "k", "x", "PXAT", "4102444800123"}), OK);
    EXPECT_EQ(call({"PEXPIRETIME", "k"}), integer(4102444800123));
    /* A refused NX write leaves the TTL alone; XX applies it. */
    EXPECT_EQ(call({"SET", "k", "y", "NX", "EX", "5"}), NIL);
    EXPECT_EQ(call({"PEXPIRETIME", "k"}), integer(4102444800123));
    EXPECT_EQ(call({"SET", "k", "y", "XX", "EX", "50"}), OK);
    EXPECT_EQ(call({"TTL", "k"}), integer(50));
    EXPECT_EQ(call({"SET", "k", "z", "GET"}), bulk("y"));
    EXPECT_EQ(call({"TTL", "k"}), integer(-1));
}

/* ========================================================================
 * SETNX, SETEX, PSETEX, GETSET, GETDEL
 * ====================================================================== */

TEST_F(Strings, SetnxSetexPsetex) {
    EXPECT_EQ(call({"SETNX", "k", "1"}), integer(1));
    EXPECT_EQ(call({"SETNX", "k", "2"}), integer(0));
    EXPECT_EQ(call({"GET", "k"}), bulk("1"));

    EXPECT_EQ(call({"SETEX", "k", "100", "v"}), OK);
    EXPECT_EQ(call({"GET", "k"}), bulk("v"));
    EXPECT_EQ(call({"PSETEX", "k", "100000", "w"}), OK);
    EXPECT_EQ(call({"GET", "k"}), bulk("w"));
    EXPECT_EQ(call({"SETEX", "k", "0", "x"}), expireTimeErr("setex"));
    EXPECT_EQ(call({"SETEX", "k", "-10", "x"}), expireTimeErr("setex"));
    EXPECT_EQ(call({"SETEX", "k", "9223372036854775807", "x"}), expireTimeErr("setex"));
    EXPECT_EQ(call({"PSETEX", "k", "0", "x"}), expireTimeErr("psetex"));
    EXPECT_EQ(call({"PSETEX", "k", "9223372036854775807", "x"}), expireTimeErr("psetex"));
    EXPECT_EQ(call({"SETEX", "k", "ten", "x"}), NOT_INT);
    EXPECT_EQ(call({"PSETEX", "k", "", "x"}), NOT_INT);
    EXPECT_EQ(call({"GET", "k"}), bulk("w"));

    EXPECT_EQ(call({"SETEX", "k"}), err("ERR wrong number of arguments for 'setex' command"));
    EXPECT_EQ(call({"SETNX", "k", "v", "x"}), err("ERR wrong number of arguments for 'setnx' command"));

    EXPECT_EQ(call({"SETEX", "k", "100", "v"}), OK);
    EXPECT_EQ(call({"TTL", "k"}), integer(100));
    EXPECT_EQ(call({"PSETEX", "k", "50000", "v"}), OK);
    EXPECT_EQ(call({"TTL", "k"}), integer(50));
    EXPECT_EQ(call({"SETNX", "k2", "v"}), integer(1));
    EXPECT_EQ(call({"TTL", "k2"}), integer(-1));
}

TEST_F(Strings, GetsetAndGetdel) {
    EXPECT_EQ(call({"GETSET", "k", "a"}), NIL);
    EXPECT_EQ(call({"GETSET", "k", "b"}), bulk("a"));
    EXPECT_EQ(call({"GET", "k"}), bulk("b"));
    EXPECT_EQ(call({"GETDEL", "k"}), bulk("b"));
    EXPECT_EQ(call({"GET", "k"}), NIL);
    EXPECT_EQ(call({"GETDEL", "k"}), NIL);
    EXPECT_EQ(call({"DEBUG", "OBJECT", "k"}), err("ERR no such key"));
    EXPECT_EQ(call({"SET", "n", "12"}), OK);
    EXPECT_EQ(call({"GETDEL", "n"}), bulk("12"));

    EXPECT_EQ(call({"SET", "k", "v", "EX", "100"}), OK);
    EXPECT_EQ(call({"GETSET", "k", "w"}), bulk("v"));
    EXPECT_EQ(call({"TTL", "k"}), integer(-1));
}

/* ========================================================================
 * GETEX
 * ====================================================================== */

TEST_F(Strings, GetexRepliesAndErrors) {
    EXPECT_EQ(call({"GETEX", "missing"}), NIL);
    /* A missing key answers nil before the expire value is looked at. */
    EXPECT_EQ(call({"GETEX", "missing", "EX", "abc"}), NIL);
    EXPECT_EQ(call({"GETEX", "missing", "EX", "0"}), NIL);
    EXPECT_EQ(call({"SET", "k", "v"}), OK);
    EXPECT_EQ(call({"GETEX", "k"}), bulk("v"));
    EXPECT_EQ(call({"GETEX", "k", "EX", "abc"}), NOT_INT);
    EXPECT_EQ(call({"GETEX", "k", "EX", "0"}), expireTimeErr("getex"));
    EXPECT_EQ(call({"GETEX", "k", "PX", "-5"}), expireTimeErr("getex"));
    EXPECT_EQ(call({"GETEX", "k", "EXAT", "9223372036854776"}), expireTimeErr("getex"));
    EXPECT_EQ(call({"GETEX", "k", "PX", "9223372036854775807"}), expireTimeErr("getex"));
    for (const Args &args : std::vector<Args>{
             {"GETEX", "k", "NX"}, {"GETEX", "k", "XX"}, {"GETEX", "k", "GET"}, {"GETEX", "k", "KEEPTTL"},
             {"GETEX", "k", "EX"}, {"GETEX", "k", "PERSIST", "EX", "10"}, {"GETEX", "k", "EX", "10", "PERSIST"},
             {"GETEX", "k", "EX", "10", "PX", "10"}, {"GETEX", "k", "EXAT", "1", "PXAT", "1"}, {"GETEX", "k", "BAD"}})
        EXPECT_EQ(call(args), SYNTAX) << describe(args);
    /* Options are parsed before the key is looked up. */
    EXPECT_EQ(call({"GETEX", "missing", "BAD"}), SYNTAX);
    EXPECT_EQ(call({"GETEX", "k", "persist", "PERSIST"}), bulk("v"));
    EXPECT_EQ(call({"GETEX", "k", "EX", "100"}), bulk("v"));
    EXPECT_EQ(call({"GETEX", "k", "px", "100000", "PX", "5000000"}), bulk("v"));
    EXPECT_EQ(call({"GETEX"}), err("ERR wrong number of arguments for 'getex' command"));
}

TEST_F(Strings, GetexPastAbsoluteTimeDeletesTheKey) {
    EXPECT_EQ(call({"SET", "k", "v"}), OK);
    EXPECT_EQ(call({"GETEX", "k", "EXAT", "1"}), bulk("v"));
    /* Deleted, not merely expired: DEBUG OBJECT reads the dict directly. */
    EXPECT_EQ(call({"DEBUG", "OBJECT", "k"}), err("ERR no such key"));
    EXPECT_EQ(call({"SET", "k", "12345"}), OK);
    EXPECT_EQ(call({"GETEX", "k", "PXAT", "1000"}), bulk("12345"));
    EXPECT_EQ(call({"DEBUG", "OBJECT", "k"}), err("ERR no such key"));
    EXPECT_EQ(call({"GET", "k"}), NIL);
}

TEST_F(Strings, GetexChangesTheTtl) {
    EXPECT_EQ(call({"SET", "k", "v"}), OK);
    EXPECT_EQ(call({"GETEX", "k", "EX", "100"}), bulk("v"));
    EXPECT_EQ(call({"TTL", "k"}), integer(100));
    EXPECT_EQ(call({"GETEX", "k", "PX", "50000"}), bulk("v"));
    EXPECT_EQ(call({"TTL", "k"}), integer(50));
    EXPECT_EQ(call({"GETEX", "k", "EXAT", "4102444800"}), bulk("v"));
    EXPECT_EQ(call({"EXPIRETIME", "k"}), integer(4102444800));
    EXPECT_EQ(call({"GETEX", "k", "PXAT", "4102444800123"}), bulk("v"));
    EXPECT_EQ(call({"PEXPIRETIME", "k"}), integer(4102444800123));
    EXPECT_EQ(call({"GETEX", "k"}), bulk("v")); /* no option: TTL untouched */
    EXPECT_EQ(call({"PEXPIRETIME", "k"}), integer(4102444800123));
    EXPECT_EQ(call({"GETEX", "k", "PERSIST"}), bulk("v"));
    EXPECT_EQ(call({"TTL", "k"}), integer(-1));
    EXPECT_EQ(call({"GETEX", "k", "PERSIST"}), bulk("v"));
    EXPECT_EQ(call({"TTL", "k"}), integer(-1));
}

/* ========================================================================
 * MGET, MSET, MSETNX
 * ====================================================================== */

TEST_F(Strings, MgetMsetMsetnx) {
    EXPECT_EQ(call({"MSET", "a", "1", "b", "two", "c", ""}), OK);
    EXPECT_EQ(call({"MGET", "a", "b", "c", "missing", "a"}),
              array({bulk("1"), bulk("two"), bulk(""), NIL, bulk("1")}));
    EXPECT_EQ(call({"MGET", "missing"}), "*1\r\n" + NIL);
    /* A key given twice takes its last value. */
    EXPECT_EQ(call({"MSET", "d", "x", "d", "y"}), OK);
    EXPECT_EQ(call({"GET", "d"}), bulk("y"));

    EXPECT_EQ(call({"MSET", "a", "1", "b"}), err("ERR wrong number of arguments for 'mset' command"));
    EXPECT_EQ(call({"MSET", "a"}), err("ERR wrong number of arguments for 'mset' command"));
    EXPECT_EQ(call({"MSETNX", "a", "1", "b"}), err("ERR wrong number of arguments for 'msetnx' command"));
    EXPECT_EQ(call({"MGET"}), err("ERR wrong number of arguments for 'mget' command"));

    /* MSETNX writes all or nothing. */
    EXPECT_EQ(call({"MSETNX", "new1", "1", "a", "changed", "new2", "2"}), integer(0));
    EXPECT_EQ(call({"MGET", "new1", "a", "new2"}), "*3\r\n" + NIL + bulk("1") + NIL);
    EXPECT_EQ(call({"MSETNX", "new1", "1", "new2", "2"}), integer(1));
    EXPECT_EQ(call({"MGET", "new1", "new2"}), "*2\r\n" + bulk("1") + bulk("2"));
    EXPECT_EQ(call({"MSETNX", "dup", "1", "dup", "2"}), integer(1));
    EXPECT_EQ(call({"GET", "dup"}), bulk("2"));

    EXPECT_EQ(call({"SET", "t", "v", "EX", "100"}), OK);
    EXPECT_EQ(call({"MSET", "t", "w"}), OK);
    EXPECT_EQ(call({"TTL", "t"}), integer(-1));
}

/* ========================================================================
 * Counters
 * ====================================================================== */

TEST_F(Strings, IncrDecrFamily) {
    EXPECT_EQ(call({"INCR", "n"}), integer(1));
    EXPECT_EQ(call({"INCR", "n"}), integer(2));
    EXPECT_EQ(call({"DECR", "n"}), integer(1));
    EXPECT_EQ(call({"DECR", "m"}), integer(-1));
    EXPECT_EQ(call({"INCRBY", "n", "100"}), integer(101));
    EXPECT_EQ(call({"INCRBY", "n", "-200"}), integer(-99));
    EXPECT_EQ(call({"DECRBY", "n", "-99"}), integer(0));
    EXPECT_EQ(call({"DECRBY", "n", "5"}), integer(-5));
    EXPECT_EQ(call({"GET", "n"}), bulk("-5"));
    EXPECT_EQ(call({"INCRBY", "fresh", "-9223372036854775808"}), integer(LLONG_MIN));

    EXPECT_EQ(call({"SET", "big", "9223372036854775806"}), OK);
    EXPECT_EQ(call({"INCR", "big"}), integer(LLONG_MAX));
    EXPECT_EQ(call({"INCR", "big"}), err("ERR increment or decrement would overflow"));
    EXPECT_EQ(call({"INCRBY", "big", "9223372036854775807"}), err("ERR increment or decrement would overflow"));
    EXPECT_EQ(call({"GET", "big"}), bulk("9223372036854775807"));
    EXPECT_EQ(call({"SET", "small", "-9223372036854775807"}), OK);
    EXPECT_EQ(call({"DECR", "small"}), integer(LLONG_MIN));
    EXPECT_EQ(call({"DECR", "small"}), err("ERR increment or decrement would overflow"));
    EXPECT_EQ(call({"DECRBY", "small", "1"}), err("ERR increment or decrement would overflow"));
    EXPECT_EQ(call({"INCRBY", "small", "-1"}), err("ERR increment or decrement would overflow"));
    EXPECT_EQ(call({"DECRBY", "small", "-9223372036854775808"}), err("ERR decrement would overflow"));
    EXPECT_EQ(call({"DECRBY", "zero", "-9223372036854775808"}), err("ERR decrement would overflow"));
    EXPECT_EQ(call({"GET", "zero"}), NIL);

    for (const char *v : {"abc", "1.5", " 1", "1 ", "007", "+1", "-0", "", "9223372036854775808", "1e3"}) {
        EXPECT_EQ(call({"SET", "s", v}), OK);
        EXPECT_EQ(call({"INCR", "s"}), NOT_INT) << v;
        EXPECT_EQ(call({"INCRBY", "n", v}), NOT_INT) << v;
        EXPECT_EQ(call({"DECRBY", "n", v}), NOT_INT) << v;
        EXPECT_EQ(call({"GET", "s"}), bulk(v));
    }
    EXPECT_EQ(call({"INCR"}), err("ERR wrong number of arguments for 'incr' command"));
    EXPECT_EQ(call({"INCRBY", "n"}), err("ERR wrong number of arguments for 'incrby' command"));

    /* A number built by APPEND (a RAW string) counts too. */
    EXPECT_EQ(call({"SET", "r", "1"}), OK);
    EXPECT_EQ(call({"APPEND", "r", "23"}), integer(3));
    EXPECT_EQ(call({"INCR", "r"}), integer(124));

    EXPECT_EQ(call({"SET", "t", "10", "EX", "100"}), OK);
    EXPECT_EQ(call({"INCR", "t"}), integer(11));
    EXPECT_EQ(call({"TTL", "t"}), integer(100)); /* INCR keeps the TTL */
}

TEST_F(Strings, IncrUpdatesAnUnsharedIntInPlace) {
    EXPECT_EQ(call({"SET", "n", "100000"}), OK);
    std::string before = address("n");
    EXPECT_EQ(call({"INCR", "n"}), integer(100001));
    EXPECT_EQ(address("n"), before);
    EXPECT_EQ(debugField("n", "refcount"), "1");
    /* Into the shared range: the key points at a shared integer. */
    EXPECT_EQ(call({"SET", "s", "10000"}), OK);
    EXPECT_EQ(call({"DECR", "s"}), integer(9999));
    EXPECT_EQ(debugField("s", "refcount"), "2147483647");
    EXPECT_EQ(call({"DECR", "s"}), integer(9998));
    EXPECT_EQ(debugField("s", "refcount"), "2147483647");
    /* Out of it again: a new private object. */
    EXPECT_EQ(call({"DECRBY", "s", "10000"}), integer(-2));
    EXPECT_EQ(debugField("s", "refcount"), "1");
    EXPECT_EQ(encoding("s"), "int");
    /* A non-INT value is replaced by an INT one. */
    EXPECT_EQ(call({"SET", "r", "5"}), OK);
    EXPECT_EQ(call({"APPEND", "r", "00000"}), integer(6));
    EXPECT_EQ(encoding("r"), "raw");
    EXPECT_EQ(call({"INCR", "r"}), integer(500001));
    EXPECT_EQ(encoding("r"), "int");
}

TEST_F(Strings, Incrbyfloat) {
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "10.5"}), bulk("10.5"));
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "0.1"}), bulk("10.6"));
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "-10.6"}), bulk("0"));
    EXPECT_EQ(call({"SET", "f", "5.0e3"}), OK);
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "2.0e2"}), bulk("5200"));
    EXPECT_EQ(call({"SET", "f", "17179869184"}), OK);
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "1.5"}), bulk("17179869185.5"));
    EXPECT_EQ(call({"GET", "f"}), bulk("17179869185.5"));
    EXPECT_EQ(call({"INCRBYFLOAT", "i", "3"}), bulk("3"));
    EXPECT_EQ(encoding("i"), "embstr"); /* stored as text, even when integral */

    EXPECT_EQ(call({"INCRBYFLOAT", "f", "abc"}), NOT_FLOAT);
    EXPECT_EQ(call({"INCRBYFLOAT", "f", ""}), NOT_FLOAT);
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "nan"}), NOT_FLOAT);
    EXPECT_EQ(call({"INCRBYFLOAT", "f", " 1"}), NOT_FLOAT);
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "inf"}), err("ERR increment would produce NaN or Infinity"));
    EXPECT_EQ(call({"INCRBYFLOAT", "f", "-inf"}), err("ERR increment would produce NaN or Infinity"));
    EXPECT_EQ(call({"GET", "f"}), bulk("17179869185.5"));
    EXPECT_EQ(call({"SET", "s", "hello"}), OK);
    EXPECT_EQ(call({"INCRBYFLOAT", "s", "1"}), NOT_FLOAT);
    EXPECT_EQ(call({"INCRBYFLOAT", "s", "x"}), NOT_FLOAT);
    EXPECT_EQ(call({"INCRBYFLOAT", "missing", "x"}), NOT_FLOAT);
    EXPECT_EQ(call({"GET", "missing"}), NIL);
    EXPECT_EQ(call({"INCRBYFLOAT", "f"}), err("ERR wrong number of arguments for 'incrbyfloat' command"));

    EXPECT_EQ(call({"SET", "t", "1", "EX", "100"}), OK);
    EXPECT_EQ(call({"INCRBYFLOAT", "t", "1.5"}), bulk("2.5"));
    EXPECT_EQ(call({"TTL", "t"}), integer(100));
}

/* ========================================================================
 * APPEND, STRLEN, GETRANGE, SETRANGE
 * ====================================================================== */

TEST_F(Strings, AppendAndStrlen) {
    EXPECT_EQ(call({"STRLEN", "k"}), integer(0));
    EXPECT_EQ(call({"APPEND", "k", "hello"}), integer(5));
    EXPECT_EQ(call({"APPEND", "k", " world"}), integer(11));
    EXPECT_EQ(call({"APPEND", "k", ""}), integer(11));
    EXPECT_EQ(call({"GET", "k"}), bulk("hello world"));
    EXPECT_EQ(call({"STRLEN", "k"}), integer(11));
    EXPECT_EQ(call({"APPEND", "k", "\0\r\n"s}), integer(14));
    EXPECT_EQ(call({"GET", "k"}), bulk("hello world\0\r\n"s));

    EXPECT_EQ(call({"SET", "n", "-123"}), OK);
    EXPECT_EQ(call({"STRLEN", "n"}), integer(4));
    EXPECT_EQ(call({"APPEND", "n", "4"}), integer(5));
    EXPECT_EQ(call({"GET", "n"}), bulk("-1234"));

    EXPECT_EQ(call({"APPEND", "e", ""}), integer(0)); /* creates an empty string */
    EXPECT_EQ(call({"GET", "e"}), bulk(""));

    std::string chunk(100000, 'c');
    for (int i = 1; i <= 20; i++) EXPECT_EQ(call({"APPEND", "grow", chunk}), integer(100000LL * i));
    EXPECT_EQ(c.call({"GET", "grow"}).str, std::string(2000000, 'c'));
    EXPECT_EQ(call({"APPEND", "k"}), err("ERR wrong number of arguments for 'append' command"));
    EXPECT_EQ(call({"STRLEN", "k", "x"}), err("ERR wrong number of arguments for 'strlen' command"));
}

TEST_F(Strings, AppendLimitIsProtoMaxBulkLen) {
    EXPECT_EQ(call({"CONFIG", "SET", "proto-max-bulk-len", "1mb"}), OK);
    std::string half(600 * 1024, 'h');
    EXPECT_EQ(call({"APPEND", "k", half}), integer(600 * 1024));
    EXPECT_EQ(call({"APPEND", "k", half}), TOO_BIG);
    EXPECT_EQ(call({"STRLEN", "k"}), integer(600 * 1024));
    EXPECT_EQ(call({"APPEND", "k", std::string(1024 * 1024 - 600 * 1024, 'x')}), integer(1024 * 1024));
    EXPECT_EQ(call({"APPEND", "k", "y"}), TOO_BIG);
    EXPECT_EQ(call({"SETRANGE", "k", "1048575", "z"}), integer(1024 * 1024));
    EXPECT_EQ(call({"SETRANGE", "k", "1048576", "z"}), TOO_BIG);
    EXPECT_EQ(call({"SETRANGE", "new", "1048576", "z"}), TOO_BIG);
    EXPECT_EQ(call({"GET", "new"}), NIL);
}

TEST_F(Strings, Getrange) {
    EXPECT_EQ(call({"GETRANGE", "missing", "0", "-1"}), bulk(""));
    EXPECT_EQ(call({"SET", "k", "Hello World"}), OK);
    struct Case {
        const char *start, *end, *expect;
    };
    for (const Case &t : std::vector<Case>{{"0", "4", "Hello"},
                                           {"0", "-1", "Hello World"},
                                           {"-5", "-1", "World"},
                                           {"-1", "-5", ""},
                                           {"5", "3", ""},
                                           {"0", "100", "Hello World"},
                                           {"-100", "2", "Hel"},
                                           {"-100", "-100", "H"},
                                           {"10", "10", "d"},
                                           {"11", "20", ""},
                                           {"100", "200", ""},
                                           {"-9223372036854775808", "9223372036854775807", "Hello World"},
                                           {"3", "-9223372036854775808", ""}})
        EXPECT_EQ(call({"GETRANGE", "k", t.start, t.end}), bulk(t.expect)) << t.start << " " << t.end;
    EXPECT_EQ(call({"SET", "n", "1234567"}), OK);
    EXPECT_EQ(call({"GETRANGE", "n", "1", "-2"}), bulk("23456"));
    EXPECT_EQ(call({"SET", "e", ""}), OK);
    EXPECT_EQ(call({"GETRANGE", "e", "0", "-1"}), bulk(""));
    EXPECT_EQ(call({"GETRANGE", "e", "-1", "0"}), bulk(""));
    EXPECT_EQ(call({"GETRANGE", "k", "a", "1"}), NOT_INT);
    EXPECT_EQ(call({"GETRANGE", "k", "0", "1.0"}), NOT_INT);
    EXPECT_EQ(call({"GETRANGE", "missing", "x", "1"}), NOT_INT); /* checked before the lookup */
    EXPECT_EQ(call({"GETRANGE", "k", "0"}), err("ERR wrong number of arguments for 'getrange' command"));
}

TEST_F(Strings, Setrange) {
    EXPECT_EQ(call({"SETRANGE", "k", "0", "Hello"}), integer(5));
    EXPECT_EQ(call({"SETRANGE", "k", "6", "World"}), integer(11));
    EXPECT_EQ(call({"GET", "k"}), bulk("Hello\0World"s));
    EXPECT_EQ(call({"SETRANGE", "k", "1", "ipp"}), integer(11));
    EXPECT_EQ(call({"GET", "k"}), bulk("Hippo\0World"s));
    EXPECT_EQ(call({"SETRANGE", "pad", "3", "ab"}), integer(5));
    EXPECT_EQ(call({"GET", "pad"}), bulk("\0\0\0ab"s));

    /* An empty value writes nothing, creates nothing. */
    EXPECT_EQ(call({"SETRANGE", "none", "5", ""}), integer(0));
    EXPECT_EQ(call({"GET", "none"}), NIL);
    EXPECT_EQ(call({"SETRANGE", "none", "9223372036854775807", ""}), integer(0));
    EXPECT_EQ(call({"SETRANGE", "k", "100", ""}), integer(11));
    EXPECT_EQ(call({"STRLEN", "k"}), integer(11));

    EXPECT_EQ(call({"SET", "n", "12345"}), OK);
    EXPECT_EQ(call({"SETRANGE", "n", "5", "6"}), integer(6));
    EXPECT_EQ(call({"GET", "n"}), bulk("123456"));
    EXPECT_EQ(call({"SETRANGE", "n", "0", "9"}), integer(6));
    EXPECT_EQ(call({"INCR", "n"}), integer(923457));

    EXPECT_EQ(call({"SETRANGE", "k", "-1", "x"}), err("ERR offset is out of range"));
    EXPECT_EQ(call({"SETRANGE", "k", "abc", "x"}), NOT_INT);
    EXPECT_EQ(call({"SETRANGE", "k", "99999999999999999999", "x"}), NOT_INT);
    EXPECT_EQ(call({"SETRANGE", "k", "536870912", "x"}), TOO_BIG);
    EXPECT_EQ(call({"SETRANGE", "k", "536870911", "xy"}), TOO_BIG);
    EXPECT_EQ(call({"SETRANGE", "k", "9223372036854775807", "x"}), TOO_BIG);
    EXPECT_EQ(call({"SETRANGE", "k", "0"}), err("ERR wrong number of arguments for 'setrange' command"));
    EXPECT_EQ(call({"GET", "k"}), bulk("Hippo\0World"s));
}

/* ========================================================================
 * Encodings
 * ====================================================================== */

TEST_F(Strings, EncodingsFollowRedis) {
    const std::string s44(44, 'a'), s45(45, 'a');
    struct Case {
        std::string value, encoding;
    };
    for (const Case &t : std::vector<Case>{{"123", "int"},
                                           {"-5", "int"},
                                           {"0", "int"},
                                           {"12345678901", "int"},
                                           {"9223372036854775807", "int"},
                                           {"-9223372036854775808", "int"},
                                           {"9223372036854775808", "embstr"},
                                           {"007", "embstr"},
                                           {" 1", "embstr"},
                                           {"+1", "embstr"},
                                           {"-0", "embstr"},
                                           {"1.5", "embstr"},
                                           {"", "embstr"},
                                           {"hello", "embstr"},
                                           {s44, "embstr"},
                                           {s45, "raw"},
                                           {std::string(1000, 'z'), "raw"}}) {
        EXPECT_EQ(call({"SET", "k", t.value}), OK);
        EXPECT_EQ(encoding("k"), t.encoding) << "SET of \"" << t.value << "\"";
        EXPECT_EQ(call({"MSET", "m", t.value}), OK);
        EXPECT_EQ(encoding("m"), t.encoding) << "MSET of \"" << t.value << "\"";
        c.call({"GETSET", "g", t.value});
        EXPECT_EQ(encoding("g"), t.encoding) << "GETSET of \"" << t.value << "\"";
        EXPECT_EQ(call({"GET", "k"}), bulk(t.value));
    }
    EXPECT_EQ(call({"SETEX", "x", "100", "77"}), OK);
    EXPECT_EQ(encoding("x"), "int");
    EXPECT_EQ(call({"SETNX", "y", s45}), integer(1));
    EXPECT_EQ(encoding("y"), "raw");

    /* Shared integers 0..9999: one object for every key. */
    EXPECT_EQ(call({"SET", "a", "9999"}), OK);
    EXPECT_EQ(call({"OBJECT", "REFCOUNT", "a"}), integer(2147483647));
    EXPECT_EQ(call({"SET", "a", "10000"}), OK);
    EXPECT_EQ(call({"OBJECT", "REFCOUNT", "a"}), integer(1));
    EXPECT_EQ(call({"SET", "a", "-1"}), OK);
    EXPECT_EQ(call({"OBJECT", "REFCOUNT", "a"}), integer(1));
    EXPECT_EQ(call({"SET", "b", "5"}), OK);
    EXPECT_EQ(call({"SET", "c", "5"}), OK);
    EXPECT_EQ(address("b"), address("c"));
}

TEST_F(Strings, AppendAndSetrangeMakeTheValueRaw) {
    EXPECT_EQ(call({"APPEND", "n", "123"}), integer(3));
    EXPECT_EQ(encoding("n"), "int"); /* a new key is stored like SET's value */
    EXPECT_EQ(call({"APPEND", "n", "4"}), integer(4));
    EXPECT_EQ(encoding("n"), "raw");
    EXPECT_EQ(call({"APPEND", "e", "abc"}), integer(3));
    EXPECT_EQ(encoding("e"), "embstr");
    std::string before = address("e");
    EXPECT_EQ(call({"APPEND", "e", "d"}), integer(4));
    EXPECT_EQ(encoding("e"), "raw");
    EXPECT_NE(address("e"), before); /* a private RAW copy replaced the embstr */
    before = address("e");
    EXPECT_EQ(call({"APPEND", "e", "e"}), integer(5));
    EXPECT_EQ(address("e"), before); /* then grows in place */
    EXPECT_EQ(call({"GET", "e"}), bulk("abcde"));

    EXPECT_EQ(call({"SET", "s", "7"}), OK); /* shared integer */
    EXPECT_EQ(call({"SETRANGE", "s", "1", "8"}), integer(2));
    EXPECT_EQ(encoding("s"), "raw");
    EXPECT_EQ(call({"OBJECT", "REFCOUNT", "s"}), integer(1));
    EXPECT_EQ(call({"SET", "seven", "7"}), OK);
    EXPECT_EQ(call({"GET", "seven"}), bulk("7")); /* the shared 7 was not edited */
    EXPECT_EQ(call({"SET", "t", "short"}), OK);
    EXPECT_EQ(call({"SETRANGE", "t", "0", "S"}), integer(5));
    EXPECT_EQ(encoding("t"), "raw");
    EXPECT_EQ(call({"SETRANGE", "u", "2", "x"}), integer(3));
    EXPECT_EQ(encoding("u"), "raw");
    /* The value read back as a number is an INT again only once rewritten. */
    EXPECT_EQ(call({"SET", "u", "12"}), OK);
    EXPECT_EQ(encoding("u"), "int");
}

/* ========================================================================
 * Wrong types (against a list)
 * ====================================================================== */

TEST_F(Strings, WrongTypeReplies) {
    ASSERT_EQ(call({"LPUSH", "list", "a"}), integer(1));
    for (const Args &args : std::vector<Args>{{"GET", "list"},
                                              {"GETSET", "list", "v"},
                                              {"GETDEL", "list"},
                                              {"GETEX", "list"},
                                              {"GETEX", "list", "EX", "10"},
                                              {"GETEX", "list", "EX", "0"},
                                              {"SET", "list", "v", "GET"},
                                              {"SET", "list", "v", "NX", "GET"},
                                              {"SET", "list", "v", "XX", "GET", "EX", "10"},
                                              {"INCR", "list"},
                                              {"DECR", "list"},
                                              {"INCRBY", "list", "2"},
                                              {"DECRBY", "list", "2"},
                                              {"INCRBYFLOAT", "list", "1.5"},
                                              {"APPEND", "list", "x"},
                                              {"STRLEN", "list"},
                                              {"GETRANGE", "list", "0", "-1"},
                                              {"SETRANGE", "list", "0", "x"},
                                              {"SETRANGE", "list", "0", ""}})
        EXPECT_EQ(call(args), WRONGTYPE) << describe(args);
    /* Errors in the arguments come first where Redis checks them first. */
    EXPECT_EQ(call({"INCRBY", "list", "x"}), NOT_INT);
    EXPECT_EQ(call({"GETRANGE", "list", "x", "1"}), NOT_INT);
    EXPECT_EQ(call({"SETRANGE", "list", "-1", "x"}), err("ERR offset is out of range"));
    EXPECT_EQ(call({"SET", "list", "v", "GET", "EX", "0"}), expireTimeErr("set"));
    /* Nothing above replaced the list. */
    EXPECT_EQ(call({"GET", "list"}), WRONGTYPE);
    /* MGET reads other types as nil; SETNX/MSETNX see an existing key. */
    EXPECT_EQ(call({"MGET", "list", "nokey"}), "*2\r\n" + NIL + NIL);
    EXPECT_EQ(call({"SETNX", "list", "v"}), integer(0));
    EXPECT_EQ(call({"MSETNX", "other", "v", "list", "v"}), integer(0));
    EXPECT_EQ(call({"SET", "list", "v", "NX"}), NIL);
    EXPECT_EQ(call({"GET", "list"}), WRONGTYPE);
    /* Plain writes replace any type. */
    EXPECT_EQ(call({"SET", "list", "v"}), OK);
    EXPECT_EQ(call({"GET", "list"}), bulk("v"));
    for (const Args &args : std::vector<Args>{{"SETEX", "l2", "100", "v"}, {"MSET", "l2", "v"}, {"SET", "l2", "v", "XX"}}) {
        EXPECT_EQ(call({"DEL", "l2"}).front(), ':');
        ASSERT_EQ(call({"LPUSH", "l2", "a"}), integer(1));
        EXPECT_EQ(call(args), OK) << args[0];
        EXPECT_EQ(call({"GET", "l2"}), bulk("v")) << args[0];
    }
}

/* ========================================================================
 * Differential: the same script on cppredis and on Redis 7
 * ====================================================================== */

std::vector<Args> stringScript() {
    const std::string s44(44, 'q'), s45(45, 'r');
    std::vector<Args> script = {
        /* SET family and encodings */
        {"SET", "s", "hello"}, {"GET", "s"}, {"OBJECT", "ENCODING", "s"},
        {"SET", "i", "12345"}, {"OBJECT", "ENCODING", "i"}, {"OBJECT", "REFCOUNT", "i"},
        {"SET", "big", "12345678901"}, {"OBJECT", "ENCODING", "big"}, {"OBJECT", "REFCOUNT", "big"},
        {"SET", "lead", "007"}, {"OBJECT", "ENCODING", "lead"},
        {"SET", "sp", " 1"}, {"OBJECT", "ENCODING", "sp"},
        {"SET", "e44", s44}, {"OBJECT", "ENCODING", "e44"},
        {"SET", "r45", s45}, {"OBJECT", "ENCODING", "r45"},
        {"SET", "bin", "a\0b\r\nc"s}, {"GET", "bin"}, {"STRLEN", "bin"},
        {"SET", "s", "x", "NX"}, {"SET", "s", "x", "XX"}, {"SET", "nx", "x", "XX"}, {"GET", "nx"},
        {"SET", "s", "y", "GET"}, {"SET", "s", "z", "NX", "GET"}, {"SET", "nx", "z", "XX", "GET"},
        {"SET", "s", "v", "EX", "100"}, {"TTL", "s"}, {"SET", "s", "w", "KEEPTTL"}, {"TTL", "s"},
        {"SET", "s", "w", "PX", "100000"}, {"TTL", "s"}, {"SET", "s", "w"}, {"TTL", "s"},
        {"SET", "s", "w", "EXAT", "4102444800"}, {"EXPIRETIME", "s"}, {"SET", "s", "w", "PXAT", "4102444800123"},
        {"PEXPIRETIME", "s"},
        {"SET", "gone", "w", "EXAT", "1"}, {"GET", "gone"},
        {"SET", "s", "v", "NX", "XX"}, {"SET", "s", "v", "EX", "1", "PX", "1"}, {"SET", "s", "v", "KEEPTTL", "EX", "1"},
        {"SET", "s", "v", "EX"}, {"SET", "s", "v", "PERSIST"}, {"SET", "s", "v", "FOO"},
        {"SET", "s", "v", "EX", "0"}, {"SET", "s", "v", "EX", "-3"}, {"SET", "s", "v", "PX", "x"},
        {"SET", "s", "v", "EX", "9223372036854775807"}, {"SET", "s", "v", "PX", "9223372036854775807"},
        {"SET", "s", "v", "EXAT", "9223372036854776"}, {"SET", "s", "v", "PXAT", "9223372036854775807"},
        {"SET", "s"}, {"SET"},
        {"SETNX", "s", "1"}, {"SETNX", "snx", "1"}, {"OBJECT", "ENCODING", "snx"},
        {"SETEX", "sx", "100", "v"}, {"TTL", "sx"}, {"SETEX", "sx", "0", "v"}, {"SETEX", "sx", "x", "v"},
        {"PSETEX", "px", "100000", "v"}, {"TTL", "px"}, {"PSETEX", "px", "-1", "v"}, {"PSETEX", "px", "1"},
        /* GET family */
        {"GETSET", "gs", "1"}, {"GETSET", "gs", "2"}, {"OBJECT", "ENCODING", "gs"},
        {"GETDEL", "gs"}, {"GETDEL", "gs"}, {"GET", "gs"},
        {"SET", "ge", "v"}, {"GETEX", "ge"}, {"GETEX", "ge", "EX", "100"}, {"TTL", "ge"},
        {"GETEX", "ge", "PERSIST"}, {"TTL", "ge"}, {"GETEX", "ge", "PX", "100000"}, {"TTL", "ge"},
        {"GETEX", "ge", "EXAT", "4102444800"}, {"EXPIRETIME", "ge"}, {"GETEX", "ge", "PXAT", "4102444800123"},
        {"PEXPIRETIME", "ge"},
        {"GETEX", "ge", "EX", "0"}, {"GETEX", "ge", "EX", "x"}, {"GETEX", "ge", "NX"},
        {"GETEX", "ge", "PERSIST", "EX", "1"}, {"GETEX", "nokey", "EX", "x"}, {"GETEX", "nokey", "FOO"},
        {"GETEX", "ge", "EXAT", "1"}, {"GET", "ge"}, {"GETEX"},
        /* multiple keys */
        {"MSET", "m1", "1", "m2", "two", "m3", s45}, {"MGET", "m1", "m2", "m3", "nokey"},
        {"OBJECT", "ENCODING", "m1"}, {"OBJECT", "ENCODING", "m3"},
        {"MSET", "m1", "1", "m2"}, {"MSETNX", "m1", "x", "m4", "y"}, {"MGET", "m4"},
        {"MSETNX", "m4", "x", "m5", "y"}, {"MGET", "m4", "m5"}, {"MSETNX", "m6", "1", "m6", "2"}, {"GET", "m6"},
        /* counters */
        {"INCR", "c"}, {"INCR", "c"}, {"DECR", "c"}, {"INCRBY", "c", "10000"}, {"OBJECT", "ENCODING", "c"},
        {"OBJECT", "REFCOUNT", "c"}, {"DECRBY", "c", "10000"}, {"OBJECT", "REFCOUNT", "c"},
        {"INCRBY", "c", "x"}, {"DECRBY", "c", "-9223372036854775808"}, {"INCRBY", "c", "9223372036854775807"},
        {"INCR", "c"}, {"SET", "c", "-9223372036854775808"}, {"DECR", "c"}, {"INCR", "s"}, {"INCR", "lead"},
        {"INCR", "sp"}, {"SET", "c", "9223372036854775808"}, {"INCR", "c"}, {"SET", "c", "1.0"}, {"INCR", "c"},
        {"INCRBYFLOAT", "f", "10.5"}, {"INCRBYFLOAT", "f", "0.1"}, {"INCRBYFLOAT", "f", "-5e-1"},
        {"INCRBYFLOAT", "f", "1e10"}, {"INCRBYFLOAT", "f", "inf"}, {"INCRBYFLOAT", "f", "nan"},
        {"INCRBYFLOAT", "f", "x"}, {"INCRBYFLOAT", "s", "1"}, {"OBJECT", "ENCODING", "f"},
        {"INCRBYFLOAT", "f2", "3"}, {"OBJECT", "ENCODING", "f2"}, {"INCRBYFLOAT", "f2", "1e400"},
        {"INCRBYFLOAT", "f3", "0.1"}, {"INCRBYFLOAT", "f3", "0.2"}, {"INCRBYFLOAT", "f3", "-0.3"},
        {"INCRBYFLOAT", "f4", "-1.25"}, {"INCRBYFLOAT", "f4", "1.25"}, {"GET", "f4"},
        {"SET", "f5", "5.0e3"}, {"INCRBYFLOAT", "f5", "2.0e2"}, {"SET", "f6", "0x10"}, {"INCRBYFLOAT", "f6", "1"},
        {"INCRBYFLOAT", "f6", "0x10"}, {"INCRBYFLOAT", "f7", "1.23456789012345678901234567890"},
        /* append and ranges */
        {"APPEND", "a", "123"}, {"OBJECT", "ENCODING", "a"}, {"APPEND", "a", "4"}, {"OBJECT", "ENCODING", "a"},
        {"INCR", "a"}, {"OBJECT", "ENCODING", "a"}, {"APPEND", "a", ""}, {"APPEND", "bin", "\0"s}, {"GET", "bin"},
        {"STRLEN", "a"}, {"STRLEN", "nokey"}, {"STRLEN", "big"},
        {"GETRANGE", "bin", "0", "-1"}, {"GETRANGE", "bin", "-3", "-2"}, {"GETRANGE", "bin", "-2", "-3"},
        {"GETRANGE", "big", "2", "5"}, {"GETRANGE", "nokey", "0", "1"}, {"GETRANGE", "bin", "x", "1"},
        {"GETRANGE", "bin", "5", "1000"}, {"GETRANGE", "bin", "1000", "2000"},
        {"SETRANGE", "sr", "3", "abc"}, {"GET", "sr"}, {"OBJECT", "ENCODING", "sr"}, {"SETRANGE", "sr", "0", ""},
        {"SETRANGE", "nokey", "10", ""}, {"GET", "nokey"}, {"SETRANGE", "i", "0", "9"}, {"GET", "i"},
        {"OBJECT", "ENCODING", "i"}, {"SETRANGE", "sr", "-1", "x"}, {"SETRANGE", "sr", "x", "x"},
        {"SETRANGE", "sr", "536870912", "x"}, {"SETRANGE", "sr", "9223372036854775807", "x"},
        {"SETRANGE", "e44", "44", "!"}, {"OBJECT", "ENCODING", "e44"}, {"STRLEN", "e44"},
    };
    return script;
}

TEST(StringsDifferential, ScriptMatchesRedisByteForByte) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours;
    RedisReference ref;
    RespConn a = ours.connect(), b = ref.connect();
    for (const Args &args : stringScript()) expectSameReplies(a, b, encodeCommand(args));
    /* With another type. */
    expectSameScript(a, b, {{"LPUSH", "list", "x"}});
    expectSameScript(a, b, {{"GET", "list"}, {"SET", "list", "v", "GET"}, {"INCR", "list"}, {"APPEND", "list", "x"},
                            {"MGET", "list"}, {"SETRANGE", "list", "0", ""}, {"GETEX", "list", "EX", "0"},
                            {"SET", "list", "v"}, {"GET", "list"}});
}

}  // namespace
