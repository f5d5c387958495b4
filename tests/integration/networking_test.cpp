/* networking_test.cpp — integration tests of the networking core (issue 2):
 * the RESP parser (multibulk and inline, pipelining, any segmentation, huge
 * arguments, every protocol error), connection handling (QUIT, maxclients,
 * idle timeout, 1,000 clients), real clients (redis-cli, redis-benchmark),
 * the connection/introspection commands (CLIENT, HELLO, INFO, CONFIG, TIME,
 * COMMAND, DEBUG SLEEP) and shutdown (SHUTDOWN, SIGTERM, bad config).
 *
 * Every expected byte below was taken from Debian's Redis 7.0.15 answering
 * the same request; the suite passes against it when CPPREDIS_SERVER_BIN
 * names /usr/bin/redis-server. */
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <ctime>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;
using namespace std::string_literals;
using Clock = std::chrono::steady_clock;

namespace {

bool isInteger(std::string_view s) { return isDigits(s.substr(!s.empty() && s[0] == '-')); }

/* redis-benchmark -q's final line for a test: "<TEST>: 12345.67 requests per second, ...". */
bool hasRateLine(const std::string &out, const std::string &test) {
    const std::string head = test + ": ", tailText = " requests per second";
    for (size_t at = out.find(head); at != std::string::npos; at = out.find(head, at + 1)) {
        size_t num = at + head.size(), end = out.find_first_not_of("0123456789.", num);
        if (end != std::string::npos && end > num && out.compare(end, tailText.size(), tailText) == 0)
            return true;
    }
    return false;
}

/* The field names of a CLIENT LIST line in Redis 7.0, in order. */
const std::vector<std::string> kClientFieldNames = {
    "id",   "addr",  "laddr",    "fd",        "name",      "age", "idle", "flags",
    "db",   "sub",   "psub",     "ssub",      "multi",     "qbuf", "qbuf-free", "argv-mem",
    "multi-mem", "rbs", "rbp",   "obl",       "oll",       "omem", "tot-mem", "events",
    "cmd",  "user",  "redir",    "resp"};

std::vector<std::string> keysOf(const ClientFields &f) {
    std::vector<std::string> keys;
    for (const auto &kv : f) keys.push_back(kv.first);
    return keys;
}

}  // namespace

/* Most tests share one server (its keys kept from test to test); a test
 * needing its own configuration starts its own. After each test the shared
 * server must still answer. */
class Networking : public SharedServerTest {
protected:
    static void SetUpTestSuite() { startSharedServer({.flushBeforeEachTest = false}); }
};

/* ------------------------------------------------------------------------
 * Parsing requests.
 * ---------------------------------------------------------------------- */
TEST_F(Networking, PingAndEchoOverMultibulk) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(c.call({"ping"}).raw, "+PONG\r\n");
    EXPECT_EQ(c.call({"PING", "hello"}).raw, "$5\r\nhello\r\n");
    EXPECT_EQ(c.call({"ECHO", "hello world"}).raw, "$11\r\nhello world\r\n");
    EXPECT_EQ(c.call({"ECHO", ""}).raw, "$0\r\n\r\n");
    const std::string binary("a\0b\r\n\xff*1\r\n$", 11);
    EXPECT_EQ(c.call({"EcHo", binary}).raw, bulk(binary));
}

TEST_F(Networking, PingAndEchoOverInline) {
    RespConn c = conn();
    c.send("PING\r\n");
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
    c.send("ping\n"); /* a bare LF ends an inline request too */
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
    c.send("ping  \r\n");
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
    c.send("PING hello\r\n");
    EXPECT_EQ(c.readReply().raw, "$5\r\nhello\r\n");
    c.send("ECHO \"a b\"\r\n");
    EXPECT_EQ(c.readReply().raw, "$3\r\na b\r\n");
    c.send("ECHO 'a b'\r\n");
    EXPECT_EQ(c.readReply().raw, "$3\r\na b\r\n");
    c.send("ECHO \"a\\x41\\n\"\r\n"); /* escapes inside double quotes */
    EXPECT_EQ(c.readReply().raw, "$3\r\naA\n\r\n");
    c.send("ECHO   spaced    out\r\n"); /* two arguments: arity error */
    EXPECT_EQ(c.readReply().raw, err("ERR wrong number of arguments for 'echo' command"));
}

TEST_F(Networking, EmptyInlineLinesAreIgnored) {
    RespConn c = conn();
    c.send("\r\n\r\n\n   \r\nPING\r\n");
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
    /* Had an empty line produced a reply, it would come before this one. */
    c.send("\r\nECHO next\r\n");
    EXPECT_EQ(c.readReply().raw, "$4\r\nnext\r\n");
    /* Redis also ignores *0 and *-1 headers. */
    c.send("*0\r\n*-1\r\nPING\r\n");
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
}

TEST_F(Networking, TenThousandPipelinedCommandsInOneWrite) {
    constexpr int kCommands = 10000;
    std::string batch, expected;
    for (int i = 0; i < kCommands; i++) {
        std::string n = std::to_string(i);
        switch (i % 4) {
        case 0: batch += encodeCommand({"PING"}); expected += "+PONG\r\n"; break;
        case 1: batch += encodeCommand({"ECHO", n}); expected += bulk(n); break;
        case 2: batch += "ECHO " + n + "\r\n"; expected += bulk(n); break;
        case 3: batch += "PING\n"; expected += "+PONG\r\n"; break;
        }
    }
    RespConn c = conn();
    c.send(batch);
    std::string got;
    for (int i = 0; i < kCommands; i++) {
        Reply r = c.readReply();
        got += r.raw;
        if (r.raw != expected.substr(got.size() - r.raw.size(), r.raw.size())) {
            FAIL() << "reply #" << i << " is " << r << ", out of order or wrong";
        }
    }
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_FALSE(c.waitReadable(Ms{0})) << "more replies than commands";
}

TEST_F(Networking, HundredMegabyteBulkRoundTrips) {
    constexpr size_t kSize = 100 * 1024 * 1024;
    /* A pattern whose period (a prime) shares no factor with the chunk sizes,
     * so a lost, repeated or reordered chunk cannot go unnoticed. */
    constexpr size_t kPeriod = 1000003;
    std::string pattern(kPeriod, '\0');
    for (size_t i = 0; i < kPeriod; i++) pattern[i] = static_cast<char>('!' + (i * 7 + i / 251) % 90);
    pattern += pattern; /* any slice of up to kPeriod bytes is contiguous */
    auto slice = [&](size_t offset, size_t n) {
        return std::string_view(pattern).substr(offset % kPeriod, n);
    };

    RespConn c = conn();
    c.setTimeout(Ms{30000}); /* ASan copies 100 MB a few times */
    c.send("*2\r\n$4\r\nECHO\r\n$" + std::to_string(kSize) + "\r\n");
    constexpr size_t kSendChunk = 999983;
    for (size_t off = 0; off < kSize; off += kSendChunk) c.send(slice(off, std::min(kSendChunk, kSize - off)));
    c.send("\r\n");

    ASSERT_EQ(c.readLine(), "$" + std::to_string(kSize));
    constexpr size_t kReadChunk = 1 << 19;
    for (size_t off = 0; off < kSize; off += kReadChunk) {
        size_t n = std::min(kReadChunk, kSize - off);
        std::string got = c.readRaw(n);
        if (got != slice(off, n)) FAIL() << "echoed bytes differ in the chunk at offset " << off;
    }
    EXPECT_EQ(c.readRaw(2), "\r\n");
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
}

TEST_F(Networking, RequestSplitAtEveryByteOffset) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {encodeCommand({"ECHO", "0123456789abcdefghij"}), bulk("0123456789abcdefghij")},
        {encodeCommand({"ECHO", ""}), "$0\r\n\r\n"},
        {encodeCommand({"PING"}) + "ECHO \"x y\"\r\n", "+PONG\r\n$3\r\nx y\r\n"},
        {"ECHO inline-arg\r\n", bulk("inline-arg")},
    };
    RespConn c = conn();
    for (const auto &[req, want] : cases) {
        for (size_t k = 1; k < req.size(); k++) {
            c.send(std::string_view(req).substr(0, k));
            c.send(std::string_view(req).substr(k));
            std::string got = c.readRaw(want.size());
            ASSERT_EQ(got, want) << "request \"" << escape(req) << "\" split after byte " << k;
        }
    }
    EXPECT_FALSE(c.waitReadable(Ms{0})) << "extra reply bytes";
}

TEST_F(Networking, RequestSentOneByteAtATime) {
    const std::string big(300, 'z');
    const std::string req = encodeCommand({"ECHO", big}) + "PING\r\n" +
                            encodeCommand({"PING", "last"});
    RespConn c = conn(); /* TCP_NODELAY: each byte goes out in its own segment */
    for (char ch : req) c.send(std::string_view(&ch, 1));
    EXPECT_EQ(c.readReply().raw, bulk(big));
    EXPECT_EQ(c.readReply().raw, "+PONG\r\n");
    EXPECT_EQ(c.readReply().raw, "$4\r\nlast\r\n");
}

TEST_F(Networking, HalfSentRequestDoesNotBlockOtherClients) {
    RespConn slow = conn(), fast = conn();
    slow.send("*2\r\n$4\r\nECHO\r\n$5\r\nhel");
    EXPECT_EQ(fast.call({"PING"}).raw, "+PONG\r\n");
    slow.send("lo\r\n");
    EXPECT_EQ(slow.readReply().raw, "$5\r\nhello\r\n");
}

/* ------------------------------------------------------------------------
 * Protocol errors: the exact error, then the connection closes.
 * ---------------------------------------------------------------------- */
struct ProtocolErrorCase {
    const char *name;
    std::string request;
    std::string reply; /* everything sent before the close */
};

class ProtocolError : public Networking, public ::testing::WithParamInterface<ProtocolErrorCase> {};

TEST_P(ProtocolError, RepliesThenCloses) {
    RespConn c = conn();
    c.send(GetParam().request);
    EXPECT_EQ(escape(c.readAllUntilClose()), escape(GetParam().reply));
}

const std::string kPE = "-ERR Protocol error: ";

INSTANTIATE_TEST_SUITE_P(
    Networking, ProtocolError,
    ::testing::Values(
        ProtocolErrorCase{"MultibulkLengthNotANumber", "*abc\r\n", kPE + "invalid multibulk length\r\n"},
        ProtocolErrorCase{"MultibulkLengthEmpty", "*\r\n", kPE + "invalid multibulk length\r\n"},
        ProtocolErrorCase{"MultibulkLengthAboveIntMax", "*2147483648\r\n",
                          kPE + "invalid multibulk length\r\n"},
        ProtocolErrorCase{"BulkLengthNotANumber", "*1\r\n$abc\r\n", kPE + "invalid bulk length\r\n"},
        ProtocolErrorCase{"BulkLengthNegative", "*1\r\n$-1\r\n", kPE + "invalid bulk length\r\n"},
        ProtocolErrorCase{"BulkLengthAboveProtoMaxBulkLen", "*1\r\n$536870913\r\n",
                          kPE + "invalid bulk length\r\n"},
        ProtocolErrorCase{"DollarExpected", "*1\r\nx\r\n", kPE + "expected '$', got 'x'\r\n"},
        /* The CR is shown as a space: Redis keeps error replies on one line. */
        ProtocolErrorCase{"DollarExpectedGotCR", "*1\r\n\r\n", kPE + "expected '$', got ' '\r\n"},
        ProtocolErrorCase{"InlineTooBig", std::string(65537, 'a'), kPE + "too big inline request\r\n"},
        ProtocolErrorCase{"MultibulkCountLineTooBig", "*" + std::string(70000, '1'),
                          kPE + "too big mbulk count string\r\n"},
        ProtocolErrorCase{"BulkCountLineTooBig", "*1\r\n$" + std::string(70000, '1'),
                          kPE + "too big bulk count string\r\n"},
        ProtocolErrorCase{"UnbalancedQuotes", "ECHO \"abc\r\n", kPE + "unbalanced quotes in request\r\n"},
        ProtocolErrorCase{"QuoteNotFollowedBySpace", "ECHO \"a\"b\r\n",
                          kPE + "unbalanced quotes in request\r\n"},
        ProtocolErrorCase{"CommandsBeforeTheErrorAreAnswered", "*1\r\n$4\r\nPING\r\n*abc\r\nPING\r\n",
                          "+PONG\r\n" + kPE + "invalid multibulk length\r\n"},
        ProtocolErrorCase{"InlineTooBigAfterAValidCommand", "PING\r\n" + std::string(70000, 'a'),
                          "+PONG\r\n" + kPE + "too big inline request\r\n"}),
    [](const ::testing::TestParamInfo<ProtocolErrorCase> &info) { return std::string(info.param.name); });

/* ------------------------------------------------------------------------
 * Command errors keep the connection open.
 * ---------------------------------------------------------------------- */
TEST_F(Networking, UnknownCommand) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"FOO", "a", "b"}).raw,
              err("ERR unknown command 'FOO', with args beginning with: 'a' 'b' "));
    c.send("foo a\r\n");
    EXPECT_EQ(c.readReply().raw, err("ERR unknown command 'foo', with args beginning with: 'a' "));
    EXPECT_EQ(c.call({"FOO"}).raw, err("ERR unknown command 'FOO', with args beginning with: "));
    /* Newlines in the echoed arguments become spaces. */
    EXPECT_EQ(c.call({"FOO", "a\r\n"}).raw,
              err("ERR unknown command 'FOO', with args beginning with: 'a  ' "));
    /* The name and the arguments are cut at 128 characters. */
    const std::string n200(200, 'n'), n128(128, 'n');
    EXPECT_EQ(c.call({n200, "a"}).raw,
              err("ERR unknown command '" + n128 + "', with args beginning with: 'a' "));
    EXPECT_EQ(c.call({"FOO", n200, n200}).raw,
              err("ERR unknown command 'FOO', with args beginning with: '" + n128 + "' "));
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
}

TEST_F(Networking, WrongNumberOfArguments) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"PING", "a", "b"}).raw, err("ERR wrong number of arguments for 'ping' command"));
    EXPECT_EQ(c.call({"ECHO"}).raw, err("ERR wrong number of arguments for 'echo' command"));
    EXPECT_EQ(c.call({"ECHO", "a", "b"}).raw, err("ERR wrong number of arguments for 'echo' command"));
    EXPECT_EQ(c.call({"TIME", "x"}).raw, err("ERR wrong number of arguments for 'time' command"));
    /* Subcommands are named container|sub. */
    EXPECT_EQ(c.call({"CONFIG", "GET"}).raw, err("ERR wrong number of arguments for 'config|get' command"));
    EXPECT_EQ(c.call({"CONFIG"}).raw, err("ERR wrong number of arguments for 'config' command"));
    EXPECT_EQ(c.call({"CLIENT", "KILL"}).raw, err("ERR wrong number of arguments for 'client|kill' command"));
    EXPECT_EQ(c.call({"CLIENT", "SETNAME"}).raw,
              err("ERR wrong number of arguments for 'client|setname' command"));
    EXPECT_EQ(c.call({"COMMAND", "COUNT", "x"}).raw,
              err("ERR wrong number of arguments for 'command|count' command"));
    EXPECT_EQ(c.call({"CLIENT", "FOO"}).raw, err("ERR unknown subcommand 'FOO'. Try CLIENT HELP."));
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
}

TEST_F(Networking, QuitRepliesOkThenCloses) {
    RespConn c = conn();
    c.send("QUIT\r\nPING\r\n"); /* nothing after QUIT runs */
    EXPECT_EQ(escape(c.readAllUntilClose()), escape("+OK\r\n"));
    RespConn m = conn();
    m.cmd({"QUIT"});
    EXPECT_EQ(escape(m.readAllUntilClose()), escape("+OK\r\n"));
}

/* ------------------------------------------------------------------------
 * Many clients, limits and timeouts.
 * ---------------------------------------------------------------------- */
TEST_F(Networking, ThousandConcurrentConnections) {
    rlimit rl{};
    ::getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur < 1100) GTEST_SKIP() << "RLIMIT_NOFILE is " << rl.rlim_cur << ": too low for 1,000 clients";
    constexpr int kClients = 1000;
    std::vector<RespConn> conns;
    conns.reserve(kClients);
    for (int i = 0; i < kClients; i++) conns.push_back(conn());
    /* All requests first, so the server holds every request at once. */
    for (int i = 0; i < kClients; i++) conns[i].cmd({"ECHO", std::to_string(i)});
    for (int i = 0; i < kClients; i++)
        ASSERT_EQ(conns[i].readReply().raw, bulk(std::to_string(i))) << "client #" << i;
    Info in = info(conns[0], {"clients"});
    EXPECT_GE(std::stoll(in.fields["connected_clients"]), kClients);
}

TEST(NetworkingLimits, MaxClientsRejectsTheEleventh) {
    TestServer s({"--maxclients", "10"});
    std::vector<RespConn> conns;
    for (int i = 0; i < 10; i++) {
        conns.push_back(s.connect());
        ASSERT_EQ(conns.back().call({"PING"}).raw, "+PONG\r\n") << "client #" << i;
    }
    RespConn eleventh = s.connect();
    EXPECT_EQ(escape(eleventh.readAllUntilClose()), escape("-ERR max number of clients reached\r\n"));
    Info in = info(conns[0]);
    EXPECT_EQ(in.fields["rejected_connections"], "1");
    EXPECT_EQ(in.fields["connected_clients"], "10");
    EXPECT_EQ(in.fields["maxclients"], "10");
}

TEST(NetworkingLimits, IdleClientIsClosedAfterTimeout) {
    TestServer s({"--timeout", "1"});
    RespConn idle = s.connect(), active = s.connect();
    ASSERT_EQ(idle.call({"PING"}).raw, "+PONG\r\n");
    const auto start = Clock::now();
    /* Wait for the idle client's EOF; meanwhile the active one keeps talking. */
    bool closed = false;
    while (!closed && Clock::now() - start < Ms{4000}) {
        closed = idle.waitReadable(Ms{200});
        ASSERT_EQ(active.call({"PING"}).raw, "+PONG\r\n") << "the active client was disconnected";
    }
    const auto elapsed = std::chrono::duration_cast<Ms>(Clock::now() - start);
    ASSERT_TRUE(closed) << "idle client still open after " << elapsed.count() << " ms";
    idle.expectClosed();
    EXPECT_GE(elapsed.count(), 900) << "closed before the 1 s timeout";
    EXPECT_LE(elapsed.count(), 3000) << "closed long after the 1 s timeout";
    EXPECT_EQ(active.call({"PING"}).raw, "+PONG\r\n");
}

/* ------------------------------------------------------------------------
 * Real clients.
 * ---------------------------------------------------------------------- */
TEST_F(Networking, RedisCliPingAndStdin) {
    SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-cli"));
    const std::string port = std::to_string(srv().port());
    ProcessResult r = runProcess({"redis-cli", "-p", port, "ping"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "PONG\n");
    r = runProcess({"redis-cli", "-p", port}, "PING\nECHO hello\nECHO \"a b\"\n");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "PONG\nhello\na b\n");
}

TEST_F(Networking, RedisBenchmarkPingRunsToTheEnd) {
    SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-benchmark"));
    ProcessResult r = runProcess(
        {"redis-benchmark", "-p", std::to_string(srv().port()), "-q", "-n", "10000", "-t", "ping"}, {},
        Ms{60000});
    EXPECT_EQ(r.exitCode, 0) << "stdout:\n" << r.out << "\nstderr:\n" << r.err;
    EXPECT_TRUE(hasRateLine(r.out, "PING_INLINE")) << r.out;
    EXPECT_TRUE(hasRateLine(r.out, "PING_MBULK")) << r.out;
    /* redis-benchmark starts with CONFIG GET save / appendonly. */
    EXPECT_EQ((r.out + r.err).find("Could not fetch server CONFIG"), std::string::npos)
        << r.out << r.err;
}

/* ------------------------------------------------------------------------
 * CLIENT
 * ---------------------------------------------------------------------- */
TEST_F(Networking, ClientIdIsUniqueAndIncreasing) {
    RespConn a = conn(), b = conn();
    Reply ia = a.call({"CLIENT", "ID"}), ib = b.call({"CLIENT", "ID"});
    ASSERT_EQ(ia.type, Reply::Type::Integer) << ia;
    ASSERT_EQ(ib.type, Reply::Type::Integer) << ib;
    EXPECT_GT(ia.integer, 0);
    EXPECT_GT(ib.integer, ia.integer);
    EXPECT_EQ(a.call({"CLIENT", "ID"}).integer, ia.integer);
}

TEST_F(Networking, ClientSetnameGetname) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"CLIENT", "GETNAME"}).raw, "$-1\r\n");
    EXPECT_EQ(c.call({"CLIENT", "SETNAME", "worker-1"}).raw, "+OK\r\n");
    EXPECT_EQ(c.call({"CLIENT", "GETNAME"}).raw, "$8\r\nworker-1\r\n");
    const std::string bad = err("ERR Client names cannot contain spaces, newlines or special characters.");
    EXPECT_EQ(c.call({"CLIENT", "SETNAME", "a b"}).raw, bad);
    EXPECT_EQ(c.call({"CLIENT", "SETNAME", "a\nb"}).raw, bad);
    EXPECT_EQ(c.call({"CLIENT", "SETNAME", "a\x01"}).raw, bad);
    EXPECT_EQ(c.call({"CLIENT", "GETNAME"}).raw, "$8\r\nworker-1\r\n") << "a rejected name must not stick";
    EXPECT_EQ(c.call({"CLIENT", "SETNAME", ""}).raw, "+OK\r\n"); /* clears it */
    EXPECT_EQ(c.call({"CLIENT", "GETNAME"}).raw, "$-1\r\n");
    EXPECT_EQ(c.call({"CLIENT", "GETNAME", "x"}).raw,
              err("ERR wrong number of arguments for 'client|getname' command"));
}

TEST_F(Networking, ClientListFormat) {
    RespConn me = conn(), other = conn();
    ASSERT_EQ(other.call({"CLIENT", "SETNAME", "other"}).raw, "+OK\r\n");
    ASSERT_EQ(other.call({"PING"}).raw, "+PONG\r\n");
    const long long myId = me.call({"CLIENT", "ID"}).integer;
    const long long otherId = other.call({"CLIENT", "ID"}).integer;
    ASSERT_EQ(other.call({"PING"}).raw, "+PONG\r\n"); /* its last command is ping */

    Reply list = me.call({"CLIENT", "LIST"});
    ASSERT_EQ(list.type, Reply::Type::Bulk) << list;
    bool sawMe = false, sawOther = false;
    for (const ClientFields &f : parseClientList(list.str)) {
        EXPECT_EQ(keysOf(f), kClientFieldNames);
        for (const char *k : {"id", "fd", "age", "idle", "db", "sub", "psub", "ssub", "multi", "qbuf",
                              "qbuf-free", "argv-mem", "multi-mem", "rbs", "rbp", "obl", "oll", "omem",
                              "tot-mem", "redir", "resp"})
            EXPECT_TRUE(isInteger(clientField(f, k))) << k << "=" << clientField(f, k);
        const long long id = std::stoll(clientField(f, "id"));
        if (id != myId && id != otherId) continue;
        const bool mine = id == myId;
        (mine ? sawMe : sawOther) = true;
        RespConn &c = mine ? me : other;
        EXPECT_EQ(clientField(f, "addr"), c.localAddr());
        EXPECT_EQ(clientField(f, "laddr"), "127.0.0.1:" + std::to_string(srv().port()));
        EXPECT_EQ(clientField(f, "name"), mine ? "" : "other");
        EXPECT_EQ(clientField(f, "flags"), "N");
        EXPECT_EQ(clientField(f, "db"), "0");
        EXPECT_EQ(clientField(f, "multi"), "-1");
        EXPECT_EQ(clientField(f, "events"), "r");
        EXPECT_EQ(clientField(f, "cmd"), mine ? "client|list" : "ping");
        EXPECT_EQ(clientField(f, "user"), "default");
        EXPECT_EQ(clientField(f, "redir"), "-1");
        EXPECT_EQ(clientField(f, "resp"), "2");
        EXPECT_LE(std::stoll(clientField(f, "age")), 5);
    }
    EXPECT_TRUE(sawMe) << list.str;
    EXPECT_TRUE(sawOther) << list.str;
}

TEST_F(Networking, ClientInfoDescribesTheCaller) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"CLIENT", "SETNAME", "me"}).raw, "+OK\r\n");
    const long long id = c.call({"CLIENT", "ID"}).integer;
    Reply r = c.call({"CLIENT", "INFO"});
    ASSERT_EQ(r.type, Reply::Type::Bulk) << r;
    auto lines = parseClientList(r.str);
    ASSERT_EQ(lines.size(), 1u) << r.str;
    EXPECT_EQ(keysOf(lines[0]), kClientFieldNames);
    EXPECT_EQ(clientField(lines[0], "id"), std::to_string(id));
    EXPECT_EQ(clientField(lines[0], "addr"), c.localAddr());
    EXPECT_EQ(clientField(lines[0], "name"), "me");
    EXPECT_EQ(clientField(lines[0], "cmd"), "client|info");
}

TEST_F(Networking, ClientKillById) {
    RespConn killer = conn(), victim = conn();
    const long long id = victim.call({"CLIENT", "ID"}).integer;
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "ID", std::to_string(id)}).raw, ":1\r\n");
    victim.expectClosed();
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "ID", std::to_string(id)}).raw, ":0\r\n");
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "ID", "abc"}).raw,
              err("ERR client-id should be greater than 0"));
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "ID", "0"}).raw, err("ERR client-id should be greater than 0"));
}

TEST_F(Networking, ClientKillByAddr) {
    RespConn killer = conn(), v1 = conn(), v2 = conn();
    ASSERT_EQ(v1.call({"PING"}).raw, "+PONG\r\n"); /* make sure both are accepted */
    ASSERT_EQ(v2.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "ADDR", v1.localAddr()}).raw, ":1\r\n");
    v1.expectClosed();
    /* The old form: CLIENT KILL ip:port replies +OK or an error. */
    EXPECT_EQ(killer.call({"CLIENT", "KILL", v2.localAddr()}).raw, "+OK\r\n");
    v2.expectClosed();
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "ADDR", "127.0.0.1:1"}).raw, ":0\r\n");
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "127.0.0.1:1"}).raw, err("ERR No such client"));
    /* Three arguments are the old form, so "ADDR" is taken for an address. */
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "ADDR"}).raw, err("ERR No such client"));
    EXPECT_EQ(killer.call({"CLIENT", "KILL", "127.0.0.1:1", "extra"}).raw, err("ERR syntax error"));
    EXPECT_EQ(killer.call({"PING"}).raw, "+PONG\r\n");
}

/* ------------------------------------------------------------------------
 * HELLO
 * ---------------------------------------------------------------------- */
TEST_F(Networking, HelloRepliesTheServerMapAsAFlatArray) {
    RespConn c = conn();
    const long long id = c.call({"CLIENT", "ID"}).integer;
    const std::string version = info(c, {"server"}).fields["redis_version"];
    ASSERT_EQ(version.substr(0, 2), "7.") << "redis_version " << version;
    const std::string expected = "*14\r\n" + bulk("server") + bulk("redis") + bulk("version") + bulk(version) +
                                 bulk("proto") + ":2\r\n" + bulk("id") + ":" + std::to_string(id) + "\r\n" +
                                 bulk("mode") + bulk("standalone") + bulk("role") + bulk("master") +
                                 bulk("modules") + "*0\r\n";
    EXPECT_EQ(c.call({"HELLO"}).raw, expected);
    EXPECT_EQ(c.call({"HELLO", "2"}).raw, expected);
    EXPECT_EQ(c.call({"HELLO", "2", "SETNAME", "helloname"}).raw, expected);
    EXPECT_EQ(c.call({"CLIENT", "GETNAME"}).raw, bulk("helloname"));
    EXPECT_EQ(c.call({"HELLO", "4"}).raw, err("NOPROTO unsupported protocol version"));
    EXPECT_EQ(c.call({"HELLO", "abc"}).raw, err("ERR Protocol version is not an integer or out of range"));
}

TEST_F(Networking, Hello3EitherSwitchesToResp3OrIsRefused) {
    RespConn c = conn();
    c.cmd({"HELLO", "3"});
    const std::string first = c.readLine();
    if (first == "%7") return; /* RESP3 supported, as in Redis 7 */
    EXPECT_EQ(first, "-NOPROTO unsupported protocol version");
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n") << "still RESP2 after a refused HELLO 3";
}

/* ------------------------------------------------------------------------
 * INFO
 * ---------------------------------------------------------------------- */
TEST(NetworkingInfo, SectionsAndFields) {
    TestServer s; /* its own server: the client counts below are exact */
    RespConn c = s.connect();
    Reply all = c.call({"INFO"});
    ASSERT_EQ(all.type, Reply::Type::Bulk) << all;
    /* Sections are CRLF lines, separated by one empty line; no trailing one. */
    EXPECT_EQ(all.str.substr(0, 10), "# Server\r\n");
    EXPECT_EQ(all.str.substr(all.str.size() - 2), "\r\n");
    EXPECT_NE(all.str.substr(all.str.size() - 4), "\r\n\r\n");
    EXPECT_NE(all.str.find("\r\n\r\n# Clients\r\n"), std::string::npos);
    EXPECT_EQ(all.str.find('\n'), all.str.find("\r\n") + 1) << "bare LF in INFO";

    Info in = parseInfo(all.str);
    auto at = [&](const std::string &name) {
        auto it = std::find(in.sections.begin(), in.sections.end(), name);
        EXPECT_NE(it, in.sections.end()) << "no section " << name;
        return it - in.sections.begin();
    };
    EXPECT_LT(at("# Server"), at("# Clients"));
    EXPECT_LT(at("# Clients"), at("# Memory"));
    EXPECT_LT(at("# Memory"), at("# Stats"));

    for (const char *k : {"redis_version", "redis_mode", "os", "arch_bits", "multiplexing_api",
                          "process_id", "run_id", "tcp_port", "uptime_in_seconds", "uptime_in_days", "hz",
                          "configured_hz", "executable", "config_file", "connected_clients", "maxclients",
                          "blocked_clients", "used_memory", "used_memory_human", "used_memory_peak",
                          "total_connections_received", "total_commands_processed",
                          "instantaneous_ops_per_sec", "total_net_input_bytes", "total_net_output_bytes",
                          "rejected_connections", "total_error_replies"})
        EXPECT_TRUE(in.fields.count(k)) << "INFO lacks " << k;
    EXPECT_EQ(in.fields["redis_mode"], "standalone");
    EXPECT_EQ(in.fields["tcp_port"], std::to_string(s.port()));
    EXPECT_EQ(in.fields["process_id"], std::to_string(s.pid()));
    EXPECT_EQ(in.fields["connected_clients"], "1");
    EXPECT_EQ(in.fields["maxclients"], "10000");
    EXPECT_EQ(in.fields["hz"], "10");
    EXPECT_EQ(in.fields["run_id"].size(), 40u);
    for (const char *k : {"uptime_in_seconds", "used_memory", "total_commands_processed",
                          "total_connections_received", "instantaneous_ops_per_sec"})
        EXPECT_TRUE(isInteger(in.fields[k])) << k << ":" << in.fields[k];
    EXPECT_GT(std::stoll(in.fields["used_memory"]), 0);

    /* Counters: a command is counted once it has run, so the first INFO is
     * not in its own total; a connection once accepted. */
    const long long cmds = std::stoll(in.fields["total_commands_processed"]);
    const long long conns = std::stoll(in.fields["total_connections_received"]);
    RespConn second = s.connect();
    ASSERT_EQ(second.call({"PING"}).raw, "+PONG\r\n");
    Info after = info(c);
    EXPECT_EQ(std::stoll(after.fields["total_commands_processed"]), cmds + 2);
    EXPECT_EQ(std::stoll(after.fields["total_connections_received"]), conns + 1);
    EXPECT_EQ(after.fields["connected_clients"], "2");
}

TEST_F(Networking, InfoSectionSelection) {
    RespConn c = conn();
    Reply r = c.call({"INFO", "clients"});
    ASSERT_EQ(r.type, Reply::Type::Bulk) << r;
    Info in = parseInfo(r.str);
    EXPECT_EQ(in.sections, std::vector<std::string>{"# Clients"});
    EXPECT_TRUE(in.fields.count("connected_clients"));
    EXPECT_FALSE(in.fields.count("redis_version"));
    EXPECT_NE(r.str.substr(r.str.size() - 4), "\r\n\r\n");

    EXPECT_EQ(info(c, {"CLIENTS"}).sections, std::vector<std::string>{"# Clients"});
    EXPECT_EQ(info(c, {"server", "clients"}).sections,
              (std::vector<std::string>{"# Server", "# Clients"}));
    EXPECT_EQ(c.call({"INFO", "nosuchsection"}).raw, "$0\r\n\r\n");
}

/* ------------------------------------------------------------------------
 * CONFIG
 * ---------------------------------------------------------------------- */
/* adjustOpenFilesLimit: the server raises its soft RLIMIT_NOFILE to fit
 * maxclients plus its own descriptors when the hard limit allows, and
 * otherwise lowers maxclients to what fits, saying so as Redis does. The
 * server runs under prlimit (a wrapper script) with the limits given. */
struct LimitedServer {
    TempDir dir;
    std::unique_ptr<TestServer> srv;
    LimitedServer(const std::string &nofile, const std::string &maxclients) {
        const std::string wrapper = dir.file("limited-server");
        writeFile(wrapper, "#!/bin/sh\nexec prlimit --nofile=" + nofile + " " + std::string(CPPREDIS_SERVER_BIN) + " \"$@\"\n");
        ::chmod(wrapper.c_str(), 0700);
        srv = std::make_unique<TestServer>(ServerOptions{.args = {"--maxclients", maxclients}, .binary = wrapper});
    }
    std::string softNofile() const {
        std::string limits = readFile("/proc/" + std::to_string(srv->pid()) + "/limits");
        size_t at = limits.find("Max open files");
        std::istringstream fields(limits.substr(at + 14));
        std::string soft;
        fields >> soft;
        return soft;
    }
};

TEST(NetworkingLimits, OpenFilesLimitIsRaisedForMaxclients) {
    SKIP_UNLESS_PACKAGE("util-linux", haveProgram("prlimit"));
    LimitedServer s("1024:4096", "2000");
    RespConn c = s.srv->connect();
    EXPECT_EQ(c.call({"CONFIG", "GET", "maxclients"}).raw, "*2\r\n" + bulk("maxclients") + bulk("2000"));
    EXPECT_EQ(s.softNofile(), "2032") << "maxclients + 32 reserved descriptors";
}

TEST(NetworkingLimits, MaxclientsIsLoweredToTheHardFileLimit) {
    SKIP_UNLESS_PACKAGE("util-linux", haveProgram("prlimit"));
    LimitedServer s("100:100", "10000");
    RespConn c = s.srv->connect();
    EXPECT_EQ(c.call({"CONFIG", "GET", "maxclients"}).raw, "*2\r\n" + bulk("maxclients") + bulk("68"));
    EXPECT_TRUE(s.srv->waitForLog("Current maximum open files is 100. maxclients has been reduced to 68 to "
                                  "compensate for low ulimit. If you need higher maxclients increase 'ulimit -n'."))
        << s.srv->log();
}

TEST_F(Networking, ConfigGet) {
    RespConn c = conn();
    const std::string port = std::to_string(srv().port());
    EXPECT_EQ(c.call({"CONFIG", "GET", "port"}).raw, "*2\r\n" + bulk("port") + bulk(port));
    EXPECT_EQ(c.call({"CONFIG", "GET", "nosuch"}).raw, "*0\r\n");
    EXPECT_EQ(c.call({"CONFIG", "GET", "nosuch*"}).raw, "*0\r\n");

    auto asMap = [](const Reply &r) {
        std::map<std::string, std::string> m;
        EXPECT_EQ(r.type, Reply::Type::Array) << r;
        EXPECT_EQ(r.elements.size() % 2, 0u) << r;
        for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
            EXPECT_TRUE(m.emplace(r.elements[i].str, r.elements[i + 1].str).second)
                << "duplicate " << r.elements[i].str;
        }
        return m;
    };
    /* Several parameters at once (Redis 7); the order is not specified. */
    auto two = asMap(c.call({"CONFIG", "GET", "port", "bind"}));
    EXPECT_EQ(two, (std::map<std::string, std::string>{{"port", port}, {"bind", "127.0.0.1"}}));

    auto max = asMap(c.call({"CONFIG", "GET", "*max*"}));
    for (const auto &[k, v] : max) EXPECT_NE(k.find("max"), std::string::npos) << k;
    EXPECT_EQ(max["maxclients"], "10000");
    EXPECT_EQ(max["proto-max-bulk-len"], "536870912");
    EXPECT_FALSE(max.count("port"));
}

TEST_F(Networking, ConfigSet) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"CONFIG", "SET", "hz", "50"}).raw, "+OK\r\n");
    EXPECT_EQ(c.call({"CONFIG", "GET", "hz"}).raw, "*2\r\n" + bulk("hz") + bulk("50"));
    EXPECT_EQ(info(c, {"server"}).fields["hz"], "50");
    /* hz is clamped to 1..500. */
    EXPECT_EQ(c.call({"CONFIG", "SET", "hz", "1000"}).raw, "+OK\r\n");
    EXPECT_EQ(c.call({"CONFIG", "GET", "hz"}).raw, "*2\r\n" + bulk("hz") + bulk("500"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "hz", "10"}).raw, "+OK\r\n");
    EXPECT_EQ(c.call({"CONFIG", "GET", "hz"}).raw, "*2\r\n" + bulk("hz") + bulk("10"));

    EXPECT_EQ(c.call({"CONFIG", "SET", "hz", "abc"}).raw,
              err("ERR CONFIG SET failed (possibly related to argument 'hz') - argument couldn't be "
                  "parsed into an integer"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "timeout", "-1"}).raw,
              err("ERR CONFIG SET failed (possibly related to argument 'timeout') - argument must be "
                  "between 0 and 2147483647 inclusive"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "nosuch", "1"}).raw,
              err("ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "hz", "5", "maxclients"}).raw, err("ERR syntax error"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "hz"}).raw, err("ERR wrong number of arguments for 'config|set' command"));
    EXPECT_EQ(c.call({"CONFIG", "GET", "hz"}).raw, "*2\r\n" + bulk("hz") + bulk("10"))
        << "a failed CONFIG SET must not change the value";
}

TEST(NetworkingConfig, ConfigFileIsRead) {
    TempFile conf("# a comment\n\nmaxclients 7\nhz 20\n");
    TestServer s(ServerOptions{.configFile = conf.path()});
    RespConn c = s.connect();
    EXPECT_EQ(c.call({"CONFIG", "GET", "maxclients"}).raw, "*2\r\n" + bulk("maxclients") + bulk("7"));
    EXPECT_EQ(c.call({"CONFIG", "GET", "hz"}).raw, "*2\r\n" + bulk("hz") + bulk("20"));
    EXPECT_EQ(info(c, {"server"}).fields["config_file"], conf.path());
}

TEST(NetworkingConfig, BadPortOnTheCommandLineIsFatal) {
    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--port", "99999"}, {}, Ms{10000});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("*** FATAL CONFIG FILE ERROR"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(">>> 'port \"99999\"'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("argument must be between 0 and 65535 inclusive"), std::string::npos) << r.err;
}

TEST(NetworkingConfig, UnknownDirectiveOnTheCommandLineIsFatal) {
    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--port", "0", "--nosuchdirective", "5"}, {},
                                 Ms{10000});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("*** FATAL CONFIG FILE ERROR"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(">>> 'nosuchdirective \"5\"'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Bad directive or wrong number of arguments"), std::string::npos) << r.err;
}

TEST(NetworkingConfig, BadLineInTheConfigFileIsFatal) {
    TempFile conf("port 0\n\nmaxclients abc\n");
    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, conf.path()}, {}, Ms{10000});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("*** FATAL CONFIG FILE ERROR"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Reading the configuration file, at line 3"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(">>> 'maxclients abc'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("argument couldn't be parsed into an integer"), std::string::npos) << r.err;
}

/* ------------------------------------------------------------------------
 * TIME, COMMAND, DEBUG
 * ---------------------------------------------------------------------- */
TEST_F(Networking, TimeIsTwoIntegerBulks) {
    RespConn c = conn();
    Reply r = c.call({"TIME"});
    ASSERT_EQ(r.type, Reply::Type::Array) << r;
    ASSERT_EQ(r.elements.size(), 2u) << r;
    for (const Reply &e : r.elements) {
        ASSERT_EQ(e.type, Reply::Type::Bulk) << r;
        ASSERT_TRUE(isDigits(e.str)) << r;
    }
    EXPECT_LE(std::llabs(std::stoll(r.elements[0].str) - static_cast<long long>(std::time(nullptr))), 2);
    EXPECT_LT(std::stoll(r.elements[1].str), 1000000);
}

TEST_F(Networking, CommandCountMatchesCommand) {
    RespConn c = conn();
    Reply count = c.call({"COMMAND", "COUNT"});
    ASSERT_EQ(count.type, Reply::Type::Integer) << count;
    EXPECT_GT(count.integer, 0);
    Reply all = c.call({"COMMAND"});
    ASSERT_EQ(all.type, Reply::Type::Array);
    EXPECT_EQ(static_cast<long long>(all.elements.size()), count.integer);
    std::set<std::string> names;
    for (const Reply &e : all.elements) {
        ASSERT_EQ(e.type, Reply::Type::Array);
        ASSERT_EQ(e.elements.size(), 10u) << e;
        names.insert(e.elements[0].str);
    }
    for (const char *n : {"ping", "echo", "quit", "hello", "client", "config", "info", "command", "time"})
        EXPECT_TRUE(names.count(n)) << "COMMAND lacks " << n;
}

/* Redis 7.0.15's exact COMMAND INFO replies. */
const std::string kCommandInfoPing =
    "*10\r\n$4\r\nping\r\n:-1\r\n*1\r\n+fast\r\n:0\r\n:0\r\n:0\r\n*2\r\n+@fast\r\n+@connection\r\n"
    "*2\r\n$25\r\nrequest_policy:all_shards\r\n$29\r\nresponse_policy:all_succeeded\r\n*0\r\n*0\r\n";
const std::string kCommandInfoEcho =
    "*10\r\n$4\r\necho\r\n:2\r\n*3\r\n+loading\r\n+stale\r\n+fast\r\n:0\r\n:0\r\n:0\r\n"
    "*2\r\n+@fast\r\n+@connection\r\n*0\r\n*0\r\n*0\r\n";
const std::string kCommandInfoGet =
    "*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n"
    "*3\r\n+@read\r\n+@string\r\n+@fast\r\n*0\r\n"
    "*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RO\r\n+access\r\n"
    "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n"
    "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n"
    "*6\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n*0\r\n";

TEST_F(Networking, CommandInfoOfConnectionCommands) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"COMMAND", "INFO", "ping"}).raw, "*1\r\n" + kCommandInfoPing);
    EXPECT_EQ(c.call({"COMMAND", "INFO", "ECHO"}).raw, "*1\r\n" + kCommandInfoEcho);
    EXPECT_EQ(c.call({"COMMAND", "INFO", "ping", "nosuch"}).raw, "*2\r\n" + kCommandInfoPing + "$-1\r\n");
    EXPECT_EQ(c.call({"COMMAND", "INFO", "nosuch"}).raw, "*1\r\n$-1\r\n");
}

/* A command with key specs. */
TEST_F(Networking, CommandInfoGet) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"COMMAND", "INFO", "get"}).raw, "*1\r\n" + kCommandInfoGet);
}

TEST(NetworkingDebug, DebugSleepBlocksTheWholeServer) {
    /* Redis 7 refuses DEBUG unless enable-debug-command allows it. */
    TestServer s({"--enable-debug-command", "yes"});
    RespConn a = s.connect(), b = s.connect();
    EXPECT_EQ(a.call({"DEBUG", "SLEEP", "0"}).raw, "+OK\r\n");
    /* One event loop: b's PING waits for a's sleep to end. */
    const auto start = Clock::now();
    a.cmd({"DEBUG", "SLEEP", "0.3"});
    b.cmd({"PING"});
    EXPECT_EQ(b.readReply().raw, "+PONG\r\n");
    EXPECT_GE(std::chrono::duration_cast<Ms>(Clock::now() - start).count(), 250);
    EXPECT_EQ(a.readReply().raw, "+OK\r\n");
}

/* ------------------------------------------------------------------------
 * Shutdown.
 * ---------------------------------------------------------------------- */
TEST(NetworkingShutdown, ShutdownCommandExitsZero) {
    TestServer s;
    RespConn c = s.connect(), bystander = s.connect();
    ASSERT_EQ(bystander.call({"PING"}).raw, "+PONG\r\n");
    c.cmd({"SHUTDOWN"});
    /* On success nothing is replied: the connection just closes. */
    EXPECT_EQ(escape(c.readAllUntilClose()), "");
    EXPECT_EQ(s.waitExit(), 0) << s.log();
    bystander.expectClosed();
    EXPECT_NE(s.log().find("User requested shutdown..."), std::string::npos) << s.log();
    EXPECT_NE(s.log().find("Redis is now ready to exit, bye bye..."), std::string::npos) << s.log();
}

TEST(NetworkingShutdown, SigtermExitsZeroAndSaysGoodbye) {
    TestServer s;
    RespConn c = s.connect();
    ASSERT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(s.stop(), 0) << s.log();
    const std::string log = s.log();
    EXPECT_NE(log.find("Received SIGTERM scheduling shutdown..."), std::string::npos) << log;
    EXPECT_NE(log.find("Redis is now ready to exit, bye bye..."), std::string::npos) << log;
    c.expectClosed();
}

/* ------------------------------------------------------------------------
 * Differential: the same bytes to cppredis and to real Redis.
 * ---------------------------------------------------------------------- */
TEST(NetworkingDifferential, ConnectionCommandsMatchRedis) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours;
    RedisReference ref;
    RespConn a = ours.connect(), b = ref.connect();
    for (const std::string &req :
         {"PING\r\n"s, "ping hello\r\n"s, encodeCommand({"ECHO", std::string("\0\r\n", 3)}),
          "ECHO \"\\x00\\t\"\r\n"s, "FOO a b\r\n"s, "PING a b\r\n"s, "ECHO\r\n"s,
          encodeCommand({"CLIENT", "FOO"}), encodeCommand({"CLIENT", "GETNAME"}),
          encodeCommand({"CLIENT", "SETNAME", "x y"}), encodeCommand({"CONFIG", "GET", "maxclients"}),
          encodeCommand({"CONFIG", "SET", "hz", "x"}), encodeCommand({"COMMAND", "INFO", "echo"}),
          encodeCommand({"HELLO", "4"}), encodeCommand({"INFO", "nosuch"})})
        expectSameReplies(a, b, req);
}
