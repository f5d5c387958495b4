/* request_parser_test.cpp — the request parser alone (request_parser.h): it is
 * linked with nothing but request_parser.o and util.o (see the Makefile), so
 * it cannot grow a dependency on the server unnoticed. Every request is fed
 * whole, one byte at a time, and split at every offset, and must give the
 * same arguments; every malformed request gives Redis's error text. The
 * client-level behaviour (replies, closing after an error) is tested
 * through processInputBuffer in networking_test.cpp.
 */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "request_parser.h"

namespace {

constexpr long long kMaxBulk = 512LL * 1024 * 1024; /* proto-max-bulk-len's default */

/* Feeds `chunks` as separate reads would arrive and collects every request
 * parsed, as its arguments; stops at the first error. */
struct Feeder {
    QueryBuffer qb;
    RequestParser r;
    std::vector<std::vector<std::string>> requests;
    std::string err;

    void feed(const std::vector<std::string> &chunks) {
        for (const std::string &chunk : chunks) {
            qb.append(chunk);
            if (!drain()) return;
        }
    }
    /* Parses every whole request buffered; false after an error. */
    bool drain() {
        while (r.pos < qb.size()) {
            if (!r.reqtype) r.reqtype = qb.data()[r.pos] == '*' ? PROTO_REQ_MULTIBULK : PROTO_REQ_INLINE;
            ParseStatus st = r.reqtype == PROTO_REQ_INLINE ? parseInlineRequest(qb, r, err)
                                                           : parseMultibulkRequest(qb, r, kMaxBulk, err);
            if (st == PARSE_ERROR) return false;
            if (st == PARSE_NEED_MORE) return true;
            std::vector<std::string> args;
            for (auto [off, len] : r.argspan) args.emplace_back(qb.data() + off, len);
            if (!args.empty()) requests.push_back(std::move(args));
            size_t done = r.pos;
            r = RequestParser{};
            qb.consume(done);
        }
        return true;
    }
};

std::string multibulk(const std::vector<std::string> &args) {
    std::string s = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string &a : args) s += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
    return s;
}

using Requests = std::vector<std::vector<std::string>>;

TEST(RequestParser, MultibulkWholeAndByteByByte) {
    const std::string req = multibulk({"SET", "k", std::string("a\r\n\0b", 5)});
    const Requests want{{"SET", "k", std::string("a\r\n\0b", 5)}};
    Feeder whole;
    whole.feed({req});
    EXPECT_EQ(whole.requests, want);
    Feeder bytes;
    std::vector<std::string> chunks;
    for (char ch : req) chunks.emplace_back(1, ch);
    bytes.feed(chunks);
    EXPECT_EQ(bytes.requests, want);
}

TEST(RequestParser, PipelineSplitAtEveryOffset) {
    const std::string reqs = multibulk({"ECHO", "a"}) + "PING\r\n" + "*0\r\n" + "ECHO \"q s\"\n" + multibulk({"GET", ""});
    const Requests want{{"ECHO", "a"}, {"PING"}, {"ECHO", "q s"}, {"GET", ""}};
    for (size_t cut = 0; cut <= reqs.size(); cut++) {
        Feeder f;
        f.feed({reqs.substr(0, cut), reqs.substr(cut)});
        EXPECT_EQ(f.requests, want) << "split at " << cut;
        EXPECT_EQ(f.err, "") << "split at " << cut;
    }
}

/* A bulk past PROTO_MBULK_BIG_ARG makes the parser size the buffer for it
 * at once, so the reads that follow land without any reallocation. */
TEST(RequestParser, BigArgumentIsSizedOnce) {
    const std::string big(PROTO_MBULK_BIG_ARG * 4, 'x');
    const std::string req = multibulk({"SET", "k", big});
    const size_t header = req.size() - big.size() - 2;
    Feeder f;
    f.feed({req.substr(0, header)});
    const size_t cap = f.qb.capacity();
    EXPECT_GE(cap, req.size());
    f.feed({req.substr(header)});
    EXPECT_EQ(f.qb.capacity(), cap);
    ASSERT_EQ(f.requests.size(), 1u);
    EXPECT_EQ(f.requests[0][2], big);
}

TEST(RequestParser, InlineQuotingAndEmptyLines) {
    Feeder f;
    f.feed({"PING\r\n", "\r\n", "\n", "ECHO 'it\\'s' \"a\\x41\\n\"\r\n"});
    EXPECT_EQ(f.requests, (Requests{{"PING"}, {"ECHO", "it's", "aA\n"}}));
}

struct ErrorCase {
    std::string input;
    std::string err;
};

class RequestParserError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(RequestParserError, WholeAndByteByByte) {
    const ErrorCase &p = GetParam();
    Feeder whole;
    whole.feed({p.input});
    EXPECT_EQ(whole.err, p.err);
    Feeder bytes;
    std::vector<std::string> chunks;
    for (size_t off = 0; off < p.input.size(); off += std::max<size_t>(1, p.input.size() / 256))
        chunks.push_back(p.input.substr(off, std::max<size_t>(1, p.input.size() / 256)));
    bytes.feed(chunks);
    EXPECT_EQ(bytes.err, p.err);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, RequestParserError,
    ::testing::Values(ErrorCase{"*abc\r\n", "invalid multibulk length"},
                      ErrorCase{"*3000000000\r\n", "invalid multibulk length"},
                      ErrorCase{"*1\r\n$abc\r\n", "invalid bulk length"},
                      ErrorCase{"*1\r\n$-2\r\n", "invalid bulk length"},
                      ErrorCase{"*1\r\n$536870913\r\n", "invalid bulk length"},
                      /* As Redis: the '$' is checked once the line is in. */
                      ErrorCase{"*1\r\nx\r\n", "expected '$', got 'x'"},
                      ErrorCase{"*1\r\nx" + std::string(65 * 1024, 'y'), "too big bulk count string"},
                      /* As Redis's strchr: a NUL hides the end of a line. */
                      ErrorCase{std::string("PING\0\r\n", 7) + std::string(65 * 1024, 'a'), "too big inline request"},
                      ErrorCase{std::string("*1\0\r\n", 5) + std::string(65 * 1024, 'a'), "too big mbulk count string"},
                      ErrorCase{"ECHO \"abc\r\n", "unbalanced quotes in request"},
                      ErrorCase{std::string(65 * 1024, 'a'), "too big inline request"},
                      ErrorCase{"*" + std::string(65 * 1024, '1'), "too big mbulk count string"},
                      ErrorCase{"*1\r\n$" + std::string(65 * 1024, '1'), "too big bulk count string"}));

}  // namespace
