/* harness_test.cpp — tests of the test harness itself, against fakes (a
 * listening socket that writes canned bytes, shell scripts posing as servers),
 * so that a harness bug cannot make a networking test pass or hang. */
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <thread>

#include "integration/harness.h"

using namespace itest;

namespace {

/* A one-connection TCP server on 127.0.0.1 whose replies the test scripts. */
class FakePeer {
public:
    FakePeer() {
        listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (listen_ < 0 || ::bind(listen_, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0 ||
            ::listen(listen_, 1) < 0 || ::getsockname(listen_, reinterpret_cast<sockaddr *>(&a), &len) < 0)
            throw HarnessError("FakePeer: cannot listen");
        port_ = ntohs(a.sin_port);
    }
    ~FakePeer() {
        closePeer();
        ::close(listen_);
    }
    int port() const { return port_; }
    void accept() { peer_ = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC); }
    void write(std::string_view s) {
        while (!s.empty()) {
            ssize_t n = ::send(peer_, s.data(), s.size(), MSG_NOSIGNAL);
            if (n <= 0) return;
            s.remove_prefix(static_cast<size_t>(n));
        }
    }
    /* Exactly n bytes the client sent (blocking). */
    std::string read(size_t n) {
        std::string in(n, '\0');
        size_t got = 0;
        while (got < n) {
            ssize_t r = ::recv(peer_, in.data() + got, n - got, 0);
            if (r <= 0) break;
            got += static_cast<size_t>(r);
        }
        return in.substr(0, got);
    }
    void closePeer() {
        if (peer_ >= 0) ::close(peer_);
        peer_ = -1;
    }

private:
    int listen_ = -1, peer_ = -1, port_ = 0;
};

/* A shell script standing in for a server binary. */
class FakeServerScript {
public:
    explicit FakeServerScript(std::string_view body) : file_("#!/bin/sh\n" + std::string(body), ".sh") {
        ::chmod(file_.path().c_str(), 0700);
    }
    ServerOptions options(Ms readyTimeout = kStartTimeout) const {
        return ServerOptions{.binary = file_.path(), .readyTimeout = readyTimeout};
    }

private:
    TempFile file_;
};

}  // namespace

TEST(Harness, ParsesEveryResp2Type) {
    FakePeer peer;
    RespConn c(peer.port());
    peer.accept();
    peer.write("+OK\r\n-ERR bad thing\r\n:-42\r\n$4\r\na\r\nb\r\n$-1\r\n*-1\r\n*0\r\n"
               "*3\r\n:1\r\n*2\r\n$0\r\n\r\n$-1\r\n+x\r\n");
    Reply r = c.readReply();
    EXPECT_EQ(r.type, Reply::Type::Status);
    EXPECT_EQ(r.str, "OK");
    r = c.readReply();
    EXPECT_TRUE(r.isError());
    EXPECT_EQ(r.str, "ERR bad thing");
    EXPECT_EQ(c.readReply().integer, -42);
    r = c.readReply();
    EXPECT_EQ(r.type, Reply::Type::Bulk);
    EXPECT_EQ(r.str, "a\r\nb");
    EXPECT_EQ(c.readReply().type, Reply::Type::Nil);
    EXPECT_EQ(c.readReply().type, Reply::Type::NilArray);
    r = c.readReply();
    EXPECT_EQ(r.type, Reply::Type::Array);
    EXPECT_TRUE(r.elements.empty());
    r = c.readReply();
    EXPECT_EQ(r.raw, "*3\r\n:1\r\n*2\r\n$0\r\n\r\n$-1\r\n+x\r\n");
    ASSERT_EQ(r.elements.size(), 3u);
    EXPECT_EQ(r.elements[1].raw, "*2\r\n$0\r\n\r\n$-1\r\n");
    EXPECT_EQ(toString(r), "[(integer) 1, [\"\", (nil)], x]");
}

TEST(Harness, ParsesRepliesArrivingByteByByte) {
    FakePeer peer;
    RespConn c(peer.port());
    peer.accept();
    const std::string reply = "*2\r\n$11\r\nhello world\r\n:7\r\n";
    std::thread writer([&] {
        for (char ch : reply) peer.write(std::string_view(&ch, 1));
    });
    Reply r = c.readReply();
    writer.join();
    EXPECT_EQ(r.raw, reply);
    EXPECT_EQ(toString(r), "[\"hello world\", (integer) 7]");
}

TEST(Harness, SilentServerTimesOutInsteadOfHanging) {
    FakePeer peer;
    RespConn c(peer.port(), Ms{100});
    peer.accept();
    peer.write("$5\r\nab");
    try {
        c.readReply();
        FAIL() << "no exception";
    } catch (const HarnessError &e) {
        EXPECT_NE(std::string(e.what()).find("timed out after 100 ms"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("ab"), std::string::npos) << "shows the bytes: " << e.what();
    }
}

TEST(Harness, CloseMidReplyThrows) {
    FakePeer peer;
    RespConn c(peer.port());
    peer.accept();
    peer.write("$5\r\nab");
    peer.closePeer();
    EXPECT_THROW(c.readReply(), HarnessError);
}

TEST(Harness, ReadAllUntilCloseAndExpectClosed) {
    FakePeer peer;
    RespConn c(peer.port()), d(peer.port());
    peer.accept();
    peer.write("-ERR bye\r\n");
    peer.closePeer();
    EXPECT_EQ(c.readAllUntilClose(), "-ERR bye\r\n");
    peer.accept();
    peer.write("unexpected");
    peer.closePeer();
    EXPECT_NONFATAL_FAILURE(d.expectClosed(), "unexpected");
}

TEST(Harness, EncodesCommands) {
    EXPECT_EQ(encodeCommand({"SET", "k", ""}), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n");
    EXPECT_EQ(escape("a\r\n\x01\"", 100), "a\\r\\n\\x01\\\"");
    EXPECT_EQ(escape("abcdef", 3), "abc...(3 more bytes)");
}

TEST(Harness, ServerExitingBeforeReadyReportsStatusAndLog) {
    FakeServerScript script("echo 'cannot start: no such directive' >&2\nexit 1\n");
    try {
        TestServer s(script.options());
        FAIL() << "no exception";
    } catch (const HarnessError &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("exited with status 1"), std::string::npos) << what;
        EXPECT_NE(what.find("cannot start: no such directive"), std::string::npos) << what;
    }
}

TEST(Harness, ServerNeverReadyTimesOut) {
    FakeServerScript script("exec sleep 30\n");
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(TestServer s(script.options(Ms{200})), HarnessError);
    EXPECT_LT(std::chrono::steady_clock::now() - start, Ms{5000}) << "the sleeping server was not killed";
}

TEST(Harness, NonZeroExitOnSigtermFailsTheTest) {
    /* Stands for a sanitized server that finds a leak at exit. */
    FakeServerScript script(
        "echo \"args: $*\"\n"
        "sleep 30 & p=$!\n"
        "trap 'kill $p; echo leak found >&2; exit 23' TERM\n"
        "echo 'Ready to accept connections'\n"
        "wait $p\n");
    EXPECT_NONFATAL_FAILURE({ TestServer s(script.options()); }, "exited with status 23");
}

TEST(Harness, StopReturnsTheExitCodeAndKeepsTheLog) {
    FakeServerScript script(
        "echo \"args: $*\"\n"
        "sleep 30 & p=$!\n"
        "trap 'kill $p; echo goodbye; exit 0' TERM\n"
        "echo 'Ready to accept connections'\n"
        "wait $p\n");
    TestServer s(ServerOptions{.args = {"--hz", "20"}, .binary = script.options().binary});
    EXPECT_TRUE(s.running());
    EXPECT_TRUE(s.waitForLog("args: --port " + std::to_string(s.port()) + " --bind 127.0.0.1 --hz 20"))
        << s.log();
    EXPECT_EQ(s.stop(), 0);
    EXPECT_FALSE(s.running());
    EXPECT_NE(s.log().find("goodbye"), std::string::npos) << s.log();
}

TEST(Harness, Kill9IsNotJudged) {
    FakeServerScript script("echo 'Ready to accept connections'\nexec sleep 30\n");
    TestServer s(script.options());
    s.kill9();
    EXPECT_FALSE(s.running());
    EXPECT_EQ(s.stop(), 128 + 9);
}

TEST(Harness, RunProcessCapturesBothStreamsAndStdin) {
    ProcessResult r = runProcess({"sh", "-c", "cat; echo err >&2; exit 4"}, "from stdin\n");
    EXPECT_EQ(r.exitCode, 4);
    EXPECT_EQ(r.out, "from stdin\n");
    EXPECT_EQ(r.err, "err\n");
    EXPECT_THROW(runProcess({"sleep", "30"}, {}, Ms{100}), HarnessError);
    EXPECT_TRUE(haveProgram("sh"));
    EXPECT_FALSE(haveProgram("no-such-program-xyz"));
}

/* ------------------------------------------------------------------------
 * The helpers suites share.
 * ---------------------------------------------------------------------- */
TEST(Harness, ScanAllFollowsTheCursorBackToZero) {
    FakePeer peer;
    RespConn c(peer.port());
    peer.accept();
    peer.write("*2\r\n$2\r\n17\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n"
               "*2\r\n$1\r\n0\r\n*1\r\n$1\r\na\r\n");
    EXPECT_EQ(scanAll(c, {"HSCAN", "h"}, {"COUNT", "2"}), (std::vector<std::string>{"a", "b", "a"}));
    const std::string sent = encodeCommand({"HSCAN", "h", "0", "COUNT", "2"}) +
                             encodeCommand({"HSCAN", "h", "17", "COUNT", "2"});
    EXPECT_EQ(peer.read(sent.size()), sent);
}

TEST(Harness, ParsesInfoSectionsAndFields) {
    Info in = parseInfo("# Server\r\nredis_version:7.0.15\r\nhz:10\r\n\r\n# Keyspace\r\ndb0:keys=1,expires=0\r\n");
    EXPECT_EQ(in.sections, (std::vector<std::string>{"# Server", "# Keyspace"}));
    EXPECT_EQ(in.fields, (std::map<std::string, std::string>{
                             {"redis_version", "7.0.15"}, {"hz", "10"}, {"db0", "keys=1,expires=0"}}));
    EXPECT_NONFATAL_FAILURE(parseInfo("no colon\r\n"), "INFO line without a colon");
}

TEST(Harness, ParsesClientListLinesInOrder) {
    auto lines = parseClientList("id=3 addr=127.0.0.1:5 name= cmd=client|list\nid=4 name=y\n");
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], (ClientFields{{"id", "3"}, {"addr", "127.0.0.1:5"}, {"name", ""}, {"cmd", "client|list"}}));
    EXPECT_EQ(clientField(lines[1], "name"), "y");
    EXPECT_NONFATAL_FAILURE(clientField(lines[1], "db"), "no field db");
    EXPECT_NONFATAL_FAILURE(parseClientList("id=3"), "not ended by");
    EXPECT_NONFATAL_FAILURE(parseClientList("id=3 oops\n"), "field without '='");
}

TEST(Harness, PollUntilStopsWhenTheConditionHoldsOrTimeRunsOut) {
    int calls = 0;
    EXPECT_TRUE(pollUntil([&] { return ++calls == 3; }));
    EXPECT_EQ(calls, 3);
    EXPECT_FALSE(pollUntil([] { return false; }, Ms{20}));
}
