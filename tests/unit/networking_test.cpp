/* networking_test.cpp — the request parsers (processInlineBuffer,
 * processMultibulkBuffer) driven through processInputBuffer on a socketless
 * client: every request is fed whole, one byte at a time, and split at
 * every offset, and must give the same replies; every protocol error gives
 * Redis's text and marks the client to be closed after the reply.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "commands.h"
#include "server.h"
#include "server_main.h"

namespace {

class RequestParserTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (server.commands.empty()) initCommandTable();
        server.verbosity = LL_WARNING;
    }
    void SetUp() override { c_ = createClient(nullptr); }
    void TearDown() override { freeClient(c_); }

    /* Feeds the chunks one after the other, as separate reads would. */
    std::string feed(const std::vector<std::string> &chunks) {
        for (const std::string &chunk : chunks) {
            c_->querybuf.append(chunk);
            processInputBuffer(c_);
        }
        return clientOutputBytes(c_);
    }
    bool closing() const { return c_->flags & CLIENT_CLOSE_AFTER_REPLY; }

    client *c_ = nullptr;
};

std::string echoReq(const std::string &arg) {
    return "*2\r\n$4\r\nECHO\r\n$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
}
std::string bulk(const std::string &s) { return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n"; }

/* Small pieces: single bytes for short input, and at most 256 pieces for
 * long input (each read rescans the pending line, as in Redis). */
std::vector<std::string> bytewise(const std::string &s) {
    size_t step = std::max<size_t>(1, s.size() / 256);
    std::vector<std::string> v;
    for (size_t off = 0; off < s.size(); off += step) v.push_back(s.substr(off, step));
    return v;
}

TEST_F(RequestParserTest, MultibulkWhole) {
    EXPECT_EQ(feed({echoReq("hello")}), bulk("hello"));
}

TEST_F(RequestParserTest, MultibulkByteByByte) {
    EXPECT_EQ(feed(bytewise(echoReq("hello") + echoReq(""))), bulk("hello") + bulk(""));
}

TEST_F(RequestParserTest, PipelineSplitAtEveryOffset) {
    const std::string reqs = echoReq("a") + "PING\r\n" + echoReq("binary\r\n\0x") + "ECHO \"q s\"\n";
    const std::string want = bulk("a") + "+PONG\r\n" + bulk("binary\r\n\0x") + bulk("q s");
    for (size_t cut = 0; cut <= reqs.size(); cut++) {
        TearDown();
        SetUp();
        EXPECT_EQ(feed({reqs.substr(0, cut), reqs.substr(cut)}), want) << "split at " << cut;
    }
}

TEST_F(RequestParserTest, BigArgumentAcrossManyReads) {
    std::string big(200 * 1024, 'x');
    for (size_t i = 0; i < big.size(); i++) big[i] = static_cast<char>('a' + i % 26);
    const std::string req = echoReq(big);
    std::vector<std::string> chunks;
    for (size_t off = 0; off < req.size(); off += 7001) chunks.push_back(req.substr(off, 7001));
    EXPECT_EQ(feed(chunks), bulk(big));
}

TEST_F(RequestParserTest, InlineCommands) {
    EXPECT_EQ(feed({"PING\r\n", "ping\n", "\r\n", "\n", "ECHO 'it\\'s'\r\n"}),
              "+PONG\r\n+PONG\r\n" + bulk("it's"));
}

TEST_F(RequestParserTest, InlineQuotesAndEscapes) {
    EXPECT_EQ(feed({"ECHO \"a\\x41\\n\"\r\n"}), bulk("aA\n"));
}

TEST_F(RequestParserTest, EmptyMultibulkIsSkipped) {
    EXPECT_EQ(feed({"*0\r\n*-1\r\nPING\r\n"}), "+PONG\r\n");
}

struct ProtocolErrorCase {
    std::string input;
    std::string reply;
};

class RespProtocolErrorTest : public RequestParserTest,
                              public ::testing::WithParamInterface<ProtocolErrorCase> {};

TEST_P(RespProtocolErrorTest, RepliesAndCloses) {
    const auto &p = GetParam();
    EXPECT_EQ(feed({p.input}), p.reply);
    EXPECT_TRUE(closing());
    /* Whatever follows the bad request is never run. */
    EXPECT_EQ(feed({"PING\r\n"}), p.reply);
}

TEST_P(RespProtocolErrorTest, SameErrorByteByByte) {
    const auto &p = GetParam();
    EXPECT_EQ(feed(bytewise(p.input)), p.reply);
    EXPECT_TRUE(closing());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, RespProtocolErrorTest,
    ::testing::Values(
        ProtocolErrorCase{"*abc\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
        ProtocolErrorCase{"*3000000000\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
        ProtocolErrorCase{"*1\r\n$abc\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
        ProtocolErrorCase{"*1\r\n$-2\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
        ProtocolErrorCase{"*1\r\n$536870913\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
        ProtocolErrorCase{"*1\r\nx\r\n", "-ERR Protocol error: expected '$', got 'x'\r\n"},
        ProtocolErrorCase{"ECHO \"abc\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n"},
        ProtocolErrorCase{std::string(65 * 1024, 'a'), "-ERR Protocol error: too big inline request\r\n"},
        ProtocolErrorCase{"*" + std::string(65 * 1024, '1'), "-ERR Protocol error: too big mbulk count string\r\n"},
        ProtocolErrorCase{"*1\r\n$" + std::string(65 * 1024, '1'),
                          "-ERR Protocol error: too big bulk count string\r\n"}));

TEST_F(RequestParserTest, UnknownCommandAndArity) {
    EXPECT_EQ(feed({"FOO a b\r\n"}), "-ERR unknown command 'FOO', with args beginning with: 'a' 'b' \r\n");
    EXPECT_FALSE(closing());
    EXPECT_EQ(feed({"PING a b\r\n"}),
              "-ERR unknown command 'FOO', with args beginning with: 'a' 'b' \r\n"
              "-ERR wrong number of arguments for 'ping' command\r\n");
}

TEST_F(RequestParserTest, UnknownSubcommand) {
    EXPECT_EQ(feed({"CONFIG foo\r\n"}), "-ERR unknown subcommand 'foo'. Try CONFIG HELP.\r\n");
}

TEST_F(RequestParserTest, ManyRepliesSpillIntoTheReplyList) {
    std::string reqs;
    for (int i = 0; i < 5000; i++) reqs += echoReq(std::to_string(i));
    std::string want;
    for (int i = 0; i < 5000; i++) want += bulk(std::to_string(i));
    EXPECT_EQ(feed({reqs}), want);
    EXPECT_FALSE(c_->reply.empty()); /* more than the 16 KB static buffer */
}

}  // namespace
