/* fuzz_regression_test.cpp — what the fuzz targets (tests/fuzz/) found,
 * replayed over a socket to the built server, and to Redis 7.0.15 to prove
 * the expected bytes.
 *
 * request_parser_fuzz compares the request parser with Redis's parsing of the
 * same stream. It found two differences, both in how a line's end is found:
 *  - Redis searches its query buffer (an sds) with strchr, so a NUL byte
 *    before a line's end hides the end: the request waits for more bytes
 *    (an error only past the 64 KB line limit). cppredis ran "PING\0\r\n"
 *    as PING and refused "*1\0\r\n" as an invalid multibulk length.
 *  - Redis checks a bulk's '$' once its whole length line is in; cppredis
 *    refused "*1\r\nX..." at once, where Redis waits for the line (and
 *    says "too big bulk count string" past the limit).
 * Each stream below ends with more than 64 KB without the awaited byte, so
 * the server's verdict comes as a protocol error and a close, with no wait
 * on a timer. */
#include <gtest/gtest.h>

#include <string>

#include "harness.h"

using namespace itest;
using namespace std::string_literals;

namespace {

class FuzzRegression : public SharedServerTest {
protected:
    static void SetUpTestSuite() { startSharedServer({.flushBeforeEachTest = false, .withReference = true}); }

    /* Everything the server sends for `request` until it closes, on
     * cppredis, then on Redis (the test skips without it). */
    static void expectRepliesThenClose(const std::string &request, const std::string &reply) {
        RespConn c = conn();
        c.send(request);
        EXPECT_EQ(escape(c.readAllUntilClose()), escape(reply)) << "cppredis";
        SKIP_UNLESS_PACKAGE("redis-server", haveRef()); /* after cppredis's check */
        RespConn r = refConn();
        r.send(request);
        EXPECT_EQ(escape(r.readAllUntilClose()), escape(reply)) << "Redis 7.0.15";
    }
};

const std::string kPE = "-ERR Protocol error: ";
const std::string kPastLineLimit(65 * 1024, 'z'); /* PROTO_INLINE_MAX_SIZE is 64 KB */

TEST_F(FuzzRegression, NulBeforeTheNewlineHidesAnInlineRequestsEnd) {
    expectRepliesThenClose("PING\r\nPING\0\r\n"s + kPastLineLimit, "+PONG\r\n" + kPE + "too big inline request\r\n");
}

TEST_F(FuzzRegression, NulInTheMultibulkCountHidesItsEnd) {
    expectRepliesThenClose("*1\0\r\n$4\r\nPING\r\n"s + kPastLineLimit, kPE + "too big mbulk count string\r\n");
}

TEST_F(FuzzRegression, NulInABulkLengthHidesItsEnd) {
    expectRepliesThenClose("*1\r\n$4\0\r\nPING\r\n"s + kPastLineLimit, kPE + "too big bulk count string\r\n");
}

TEST_F(FuzzRegression, DollarIsCheckedOnceTheLengthLineIsIn) {
    expectRepliesThenClose("*1\r\nX" + kPastLineLimit, kPE + "too big bulk count string\r\n");
    expectRepliesThenClose("*1\r\nX\r\n", kPE + "expected '$', got 'X'\r\n");
}

/* The bulk itself may hold NUL bytes: only line searches stop at one. */
TEST_F(FuzzRegression, NulInsideABulkIsData) {
    RespConn c = conn();
    c.send("*2\r\n$4\r\nECHO\r\n$3\r\na\0b\r\n"s);
    EXPECT_EQ(escape(c.readReply().raw), escape("$3\r\na\0b\r\n"s));
}

}  // namespace
