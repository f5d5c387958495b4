/* unixsocket_test.cpp — clients through a unix domain socket (`unixsocket`,
 * `unixsocketperm`), each test once on cppredis and once on Redis 7.0.15:
 * the socket's file and its mode, a server with no TCP at all, how a
 * unix client shows in CLIENT LIST, MONITOR and SLOWLOG (the path for an
 * address), that it counts as local (protected mode, enable-debug-command
 * local), redis-cli -s and redis-benchmark -s, the file replaced at start
 * and removed at shutdown.
 */
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

class UnixSocket : public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
    }

    /* A server listening at sock (mode 700), and on TCP too unless
     * `tcp` is false (--port 0); `extra` arguments come last. */
    std::unique_ptr<TestServer> start(bool tcp, std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"--save", "", "--appendonly", "no", "--unixsocket", sock,
                                      "--unixsocketperm", "700"};
        if (!tcp) args.insert(args.end(), {"--port", "0"});
        args.insert(args.end(), extra.begin(), extra.end());
        return std::make_unique<TestServer>(ServerOptions{
            .args = std::move(args),
            .binary = GetParam() == ServerImpl::Redis ? RedisReference::kBinary : CPPREDIS_SERVER_BIN,
            .readyLine = "The server is now ready to accept connections at " + sock});
    }
    RespConn connectUnix() const { return RespConn(UnixSocketPath{sock}); }

    TempDir dir;
    const std::string sock = dir.file("s.sock");
    const std::string addr = sock + ":0"; /* a unix client's addr and laddr */
};
INSTANTIATE_TEST_SUITE_P(Servers, UnixSocket, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* stat() of path: false if there is nothing there. */
bool statPath(const std::string &path, struct stat &st) { return ::stat(path.c_str(), &st) == 0; }

}  // namespace

/* With port 0 the unix socket is the only way in; its file has the mode
 * asked; the configs are immutable. */
TEST_P(UnixSocket, ServesWithoutTcp) {
    auto srv = start(false);
    EXPECT_EQ(srv->log().find("Ready to accept connections"), std::string::npos) << "no TCP listener";
    struct stat st {};
    ASSERT_TRUE(statPath(sock, st));
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    RespConn c = connectUnix();
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(c.call({"SET", "k", "v"}).raw, OK);
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("v"));
    EXPECT_EQ(c.call({"CONFIG", "GET", "unixsocket"}).raw, bulks({"unixsocket", sock}));
    EXPECT_EQ(c.call({"CONFIG", "GET", "unixsocketperm"}).raw, bulks({"unixsocketperm", "700"}));
    EXPECT_EQ(infoField(c, "server", "tcp_port"), "0");
    for (const char *name : {"unixsocket", "unixsocketperm"})
        EXPECT_EQ(c.call({"CONFIG", "SET", name, "0"}).raw,
                  err(std::string("ERR CONFIG SET failed (possibly related to argument '") + name +
                      "') - can't set immutable config"));
}

/* A unix client's address, both ends, is the socket's path with port 0, as
 * CLIENT KILL ADDR / LADDR take it; its flags say U. */
TEST_P(UnixSocket, ClientListShowsThePath) {
    auto srv = start(true);
    RespConn tcp = srv->connect();
    RespConn u = connectUnix();
    ClientFields me = parseClientList(u.call({"CLIENT", "INFO"}).str).at(0);
    EXPECT_EQ(clientField(me, "addr"), addr);
    EXPECT_EQ(clientField(me, "laddr"), addr);
    EXPECT_EQ(clientField(me, "flags"), "U");
    EXPECT_EQ(clientField(clientListLine(tcp, "addr", tcp.localAddr()), "flags"), "N");
    EXPECT_EQ(tcp.call({"CLIENT", "KILL", "ADDR", addr}).raw, ":1\r\n");
    u.expectClosed();
    RespConn u2 = connectUnix();
    EXPECT_EQ(u2.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(tcp.call({"CLIENT", "KILL", "LADDR", addr}).raw, ":1\r\n");
    u2.expectClosed();
    RespConn u3 = connectUnix();
    EXPECT_EQ(u3.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(tcp.call({"CLIENT", "KILL", addr}).raw, OK) << "the old form";
    u3.expectClosed();
}

/* MONITOR names a unix client "unix:<path>"; SLOWLOG gives its addr. */
TEST_P(UnixSocket, MonitorAndSlowlogShowThePath) {
    auto srv = start(true, {"--slowlog-log-slower-than", "0"});
    RespConn monitor = srv->connect();
    ASSERT_EQ(monitor.call({"MONITOR"}).raw, OK);
    RespConn u = connectUnix();
    ASSERT_EQ(u.call({"SET", "k", "v"}).raw, OK);
    std::string line = monitor.readLine();
    EXPECT_NE(line.find(" [0 unix:" + sock + "] \"SET\" \"k\" \"v\""), std::string::npos) << line;
    Reply entries = u.call({"SLOWLOG", "GET", "1"});
    ASSERT_EQ(entries.elements.size(), 1u) << entries;
    ASSERT_EQ(entries.elements[0].elements.size(), 6u) << entries;
    EXPECT_EQ(entries.elements[0].elements[3].elements.at(0).str, "SET");
    EXPECT_EQ(entries.elements[0].elements[4].str, addr);
}

/* A replica on the socket (here a client sending SYNC) has no IP: INFO
 * replication names it "/unixsocket", as Redis's connPeerToString does. */
TEST_P(UnixSocket, AReplicaOnTheSocketIsNamedUnixsocket) {
    auto srv = start(false);
    RespConn replica = connectUnix();
    replica.cmd({"SYNC"});
    RespConn u = connectUnix();
    ASSERT_TRUE(pollUntil([&] { return infoField(u, "replication", "connected_slaves") == "1"; }));
    EXPECT_EQ(infoField(u, "replication", "slave0").substr(0, 19), "ip=/unixsocket,port") << info(u).fields["slave0"];
}

/* Protected mode (on, no password) refuses a TCP peer that is not
 * 127.0.0.1 but serves the unix socket's clients, which are local for
 * enable-debug-command / enable-protected-configs local too. */
TEST_P(UnixSocket, UnixClientsAreLocal) {
    auto srv = start(true, {"--bind", "127.0.0.1 127.0.0.2", "--enable-debug-command", "local",
                            "--enable-protected-configs", "local"});
    RespConn far(LoopbackRoute{.from = "127.0.0.2", .to = "127.0.0.2"}, srv->port());
    EXPECT_EQ(far.readAllUntilClose(), PROTECTED_MODE_DENIED);
    RespConn u = connectUnix();
    EXPECT_EQ(u.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(u.call({"DEBUG", "SLEEP", "0"}).raw, OK);
    EXPECT_EQ(u.call({"CONFIG", "SET", "dir", dir.path()}).raw, OK);
    EXPECT_EQ(infoField(u, "stats", "rejected_connections"), "1");
}

/* redis-cli -s and redis-benchmark -s. */
TEST_P(UnixSocket, RedisCliAndBenchmark) {
    SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-cli") && haveProgram("redis-benchmark"));
    auto srv = start(false);
    ProcessResult cli = runProcess({"redis-cli", "-s", sock, "SET", "k", "v"});
    EXPECT_EQ(cli.exitCode, 0) << cli.err;
    EXPECT_EQ(cli.out, "OK\n");
    cli = runProcess({"redis-cli", "-s", sock, "GET", "k"});
    EXPECT_EQ(cli.out, "v\n");
    ProcessResult bench = runProcess({"redis-benchmark", "-s", sock, "-n", "1000", "-t", "ping", "-q"});
    EXPECT_EQ(bench.exitCode, 0) << bench.out << bench.err;
    EXPECT_NE(bench.out.find("PING_MBULK: "), std::string::npos) << bench.out;
    RespConn u = connectUnix();
    EXPECT_GE(std::stoll(infoField(u, "stats", "total_commands_processed")), 2000);
}

/* A file left at the path (a server killed before its shutdown) is
 * replaced; the socket's file is removed at shutdown, by SHUTDOWN or
 * SIGTERM. */
TEST_P(UnixSocket, FileReplacedAtStartAndRemovedAtShutdown) {
    writeFile(sock, "stale");
    {
        auto srv = start(false);
        struct stat st {};
        ASSERT_TRUE(statPath(sock, st));
        EXPECT_TRUE(S_ISSOCK(st.st_mode));
        RespConn u = connectUnix();
        u.cmd({"SHUTDOWN", "NOSAVE"});
        u.expectClosed();
        EXPECT_EQ(srv->waitExit(), 0) << srv->log();
        EXPECT_NE(srv->log().find("Removing the unix socket file."), std::string::npos) << srv->log();
        EXPECT_FALSE(statPath(sock, st));
    }
    auto srv = start(false);
    EXPECT_EQ(srv->stop(), 0);
    struct stat st {};
    EXPECT_FALSE(statPath(sock, st));
}

/* A path where no socket can be made: the server says why and exits. */
TEST_P(UnixSocket, UnusablePathExits) {
    const std::string binary = GetParam() == ServerImpl::Redis ? RedisReference::kBinary : CPPREDIS_SERVER_BIN;
    ProcessResult r = runProcess({binary, "--port", "0", "--save", "", "--unixsocket", dir.file("none/s.sock")});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("Failed opening Unix socket: bind: No such file or directory"), std::string::npos)
        << r.out;
}
