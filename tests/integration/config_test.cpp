/* config_test.cpp — integration tests of what the network and process
 * configs do on a running server (issue 13): CONFIG SET port / bind re-bind
 * the listeners and roll back on failure, port 0 means no TCP socket,
 * protected mode refuses non-loopback peers, pidfile and daemonize, and
 * AUTH / HELLO AUTH answering as Redis with no users configured.
 *
 * The EitherServerTest cases run once on cppredis and once on Redis 7.0.15
 * with the same expected bytes. Every address used is a loopback one. */
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <string>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* A socket fd closed on scope exit. */
struct Socket {
    int fd = -1;
    explicit Socket(int f) : fd(f) {}
    ~Socket() {
        if (fd != -1) ::close(fd);
    }
    Socket(const Socket &) = delete;
    Socket &operator=(const Socket &) = delete;
};

sockaddr_in loopbackAddr(const std::string &ip, int port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    if (::inet_pton(AF_INET, ip.c_str(), &a.sin_addr) != 1) throw HarnessError("bad address " + ip);
    return a;
}

/* A TCP connection to ip:port from source address `from`; -1 if refused. */
int connectFrom(const std::string &from, const std::string &ip, int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd == -1) throw HarnessError("socket failed");
    sockaddr_in src = loopbackAddr(from, 0), dst = loopbackAddr(ip, port);
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    if (::bind(fd, reinterpret_cast<sockaddr *>(&src), sizeof(src)) == -1 ||
        ::connect(fd, reinterpret_cast<sockaddr *>(&dst), sizeof(dst)) == -1) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/* Everything the peer sends until it closes (or 5 s pass without a byte). */
std::string readUntilClose(int fd) {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof(buf))) > 0;) out.append(buf, static_cast<size_t>(n));
    return out;
}

/* "+PONG\r\n" if a new connection from 127.0.0.1 to ip:port is served,
 * "refused" if nothing listens there. */
std::string pingNewConnection(const std::string &ip, int port) {
    Socket s(connectFrom("127.0.0.1", ip, port));
    if (s.fd == -1) return "refused";
    if (::write(s.fd, "PING\r\n", 6) != 6) return "write failed";
    char buf[64];
    ssize_t n = ::read(s.fd, buf, sizeof(buf));
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "closed";
}

/* A port of 127.0.0.1 nobody listens on right now. */
int freePort() {
    Socket s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in a = loopbackAddr("127.0.0.1", 0);
    socklen_t len = sizeof(a);
    if (::bind(s.fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) == -1 ||
        ::getsockname(s.fd, reinterpret_cast<sockaddr *>(&a), &len) == -1)
        throw HarnessError("bind 127.0.0.1:0 failed");
    return ntohs(a.sin_port);
}

/* A socket of our own listening on ip:port (0: any free port), so that the
 * server can't bind it. */
struct Squatter {
    Socket sock{::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)};
    int port = 0;
    Squatter(const std::string &ip, int wanted_port) {
        sockaddr_in a = loopbackAddr(ip, wanted_port);
        socklen_t len = sizeof(a);
        if (::bind(sock.fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) == -1 || ::listen(sock.fd, 1) == -1 ||
            ::getsockname(sock.fd, reinterpret_cast<sockaddr *>(&a), &len) == -1)
            throw HarnessError("can't listen on " + ip + ":" + std::to_string(wanted_port));
        port = ntohs(a.sin_port);
    }
};

/* The process is gone (or a zombie nobody reaped yet: it has exited). */
bool processExited(pid_t pid) {
    std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
    if (stat.empty()) return true;
    size_t paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

}  // namespace

/* ------------------------------------------------------------------------
 * CONFIG SET port / bind, on cppredis and on Redis 7.0.15
 * ---------------------------------------------------------------------- */

class NetConfig : public EitherServerTest {};
INSTANTIATE_TEST_SUITE_P(Servers, NetConfig, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

TEST_P(NetConfig, SetPortMovesTheListener) {
    const int p1 = srv->port(), p2 = freePort();
    EXPECT_EQ(call({"CONFIG", "SET", "port", std::to_string(p2)}), "+OK\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.1", p2), "+PONG\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.1", p1), "refused");
    EXPECT_EQ(call({"CONFIG", "GET", "port"}), "*2\r\n$4\r\nport\r\n" + bulk(std::to_string(p2)));
    EXPECT_EQ(infoField(*c, "server", "tcp_port"), std::to_string(p2));
    EXPECT_EQ(call({"PING"}), "+PONG\r\n") << "a connected client stays";
}

TEST_P(NetConfig, SetPortToABusyPortFailsAndKeepsTheOldOne) {
    const int p1 = srv->port();
    Squatter busy("127.0.0.1", 0);
    EXPECT_EQ(call({"CONFIG", "SET", "port", std::to_string(busy.port)}),
              err("ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port. "
                  "Check server logs."));
    EXPECT_EQ(call({"CONFIG", "GET", "port"}), "*2\r\n$4\r\nport\r\n" + bulk(std::to_string(p1)));
    EXPECT_EQ(infoField(*c, "server", "tcp_port"), std::to_string(p1));
    EXPECT_EQ(pingNewConnection("127.0.0.1", p1), "+PONG\r\n");
}

/* Port 0 closes TCP: connected clients stay, new ones find nothing. */
TEST_P(NetConfig, SetPortZeroClosesTheListener) {
    const int p1 = srv->port();
    EXPECT_EQ(call({"CONFIG", "SET", "port", "0"}), "+OK\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.1", p1), "refused");
    EXPECT_EQ(infoField(*c, "server", "tcp_port"), "0");
    EXPECT_EQ(call({"CONFIG", "SET", "port", std::to_string(p1)}), "+OK\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.1", p1), "+PONG\r\n");
}

TEST_P(NetConfig, SetBindMovesTheListener) {
    const int port = srv->port();
    EXPECT_EQ(call({"CONFIG", "SET", "bind", "127.0.0.2"}), "+OK\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.2", port), "+PONG\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.1", port), "refused");
    EXPECT_EQ(call({"CONFIG", "GET", "bind"}), "*2\r\n$4\r\nbind\r\n" + bulk("127.0.0.2"));
    EXPECT_EQ(call({"CONFIG", "SET", "bind", "127.0.0.1 127.0.0.2"}), "+OK\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.1", port), "+PONG\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.2", port), "+PONG\r\n");
}

TEST_P(NetConfig, SetBindToABusyAddressFailsAndKeepsTheOldOnes) {
    const int port = srv->port();
    Squatter busy("127.0.0.3", port);
    EXPECT_EQ(call({"CONFIG", "SET", "bind", "127.0.0.2 127.0.0.3"}),
              err("ERR CONFIG SET failed (possibly related to argument 'bind') - Failed to bind to specified "
                  "addresses."));
    EXPECT_EQ(call({"CONFIG", "GET", "bind"}), "*2\r\n$4\r\nbind\r\n" + bulk("127.0.0.1"));
    EXPECT_EQ(pingNewConnection("127.0.0.1", port), "+PONG\r\n");
    EXPECT_EQ(pingNewConnection("127.0.0.2", port), "refused") << "the new addresses were all undone";
}

/* ------------------------------------------------------------------------
 * Protected mode: while the default user has no password, only 127.0.0.1
 * and ::1 are served
 * ---------------------------------------------------------------------- */

TEST_P(NetConfig, ProtectedModeRefusesANonLoopbackPeer) {
    const int port = srv->port();
    /* 127.0.0.2 is on the loopback interface, but it is not 127.0.0.1. */
    {
        Socket s(connectFrom("127.0.0.2", "127.0.0.1", port));
        ASSERT_NE(s.fd, -1);
        EXPECT_EQ(readUntilClose(s.fd), PROTECTED_MODE_DENIED);
    }
    EXPECT_EQ(infoField(*c, "stats", "rejected_connections"), "1");
    /* A password on the default user lifts protected mode: the peer is
     * served, and asked to authenticate. */
    EXPECT_EQ(call({"CONFIG", "SET", "requirepass", "pw"}), "+OK\r\n");
    {
        Socket s(connectFrom("127.0.0.2", "127.0.0.1", port));
        ASSERT_NE(s.fd, -1);
        ASSERT_EQ(::write(s.fd, "PING\r\n", 6), 6);
        char buf[64];
        EXPECT_EQ(std::string(buf, static_cast<size_t>(std::max<ssize_t>(0, ::read(s.fd, buf, sizeof(buf))))),
                  "-NOAUTH Authentication required.\r\n");
    }
    EXPECT_EQ(call({"CONFIG", "SET", "requirepass", ""}), "+OK\r\n"); /* c connected before: still authenticated */
    EXPECT_EQ(call({"CONFIG", "SET", "protected-mode", "no"}), "+OK\r\n");
    Socket s(connectFrom("127.0.0.2", "127.0.0.1", port));
    ASSERT_NE(s.fd, -1);
    ASSERT_EQ(::write(s.fd, "PING\r\n", 6), 6);
    char buf[16];
    EXPECT_EQ(std::string(buf, static_cast<size_t>(std::max<ssize_t>(0, ::read(s.fd, buf, sizeof(buf))))),
              "+PONG\r\n");
}

/* ------------------------------------------------------------------------
 * AUTH and HELLO AUTH with no users configured: only "default", nopass
 * ---------------------------------------------------------------------- */

TEST_P(NetConfig, AuthAnswersAsWithNoPasswordConfigured) {
    const std::string wrongpass = err("WRONGPASS invalid username-password pair or user is disabled.");
    EXPECT_EQ(call({"AUTH", "x"}), err("ERR AUTH <password> called without any password configured for the "
                                       "default user. Are you sure your configuration is correct?"));
    EXPECT_EQ(call({"AUTH", "default", "anything"}), "+OK\r\n");
    EXPECT_EQ(call({"AUTH", "a", "b"}), wrongpass);
    EXPECT_EQ(call({"AUTH", "Default", "b"}), wrongpass) << "user names are case-sensitive";
    EXPECT_EQ(call({"AUTH", "a", "b", "c"}), err("ERR syntax error"));
    EXPECT_EQ(call({"AUTH"}), err("ERR wrong number of arguments for 'auth' command"));

    EXPECT_EQ(call({"HELLO", "2", "AUTH", "other", "pw"}), wrongpass);
    EXPECT_EQ(call({"HELLO", "2", "AUTH", "default"}), err("ERR Syntax error in HELLO option 'AUTH'"));
    const std::string hello = call({"HELLO", "2", "AUTH", "default", "anything"});
    EXPECT_EQ(hello.substr(0, 5), "*14\r\n") << hello;
    /* Options act in order: a SETNAME before a failing AUTH is kept. */
    EXPECT_EQ(call({"HELLO", "2", "SETNAME", "first", "AUTH", "other", "pw", "SETNAME", "second"}), wrongpass);
    EXPECT_EQ(call({"CLIENT", "GETNAME"}), bulk("first"));
}

/* ------------------------------------------------------------------------
 * Client limits: a query buffer past client-query-buffer-limit closes the
 * client (without a reply); a bulk longer than proto-max-bulk-len is a
 * protocol error. Both can be changed at run time.
 * ---------------------------------------------------------------------- */

TEST_P(NetConfig, QueryBufferLimitClosesTheClient) {
    EXPECT_EQ(call({"CONFIG", "SET", "client-query-buffer-limit", "1mb"}), "+OK\r\n");
    RespConn big = srv->connect();
    /* A 3 MB argument still arriving: the buffer passes 1 MB first. */
    big.send("*2\r\n$3\r\nSET\r\n$3000000\r\n" + std::string(1536 * 1024, 'x'));
    EXPECT_EQ(escape(big.readAllUntilClose()), "");
    EXPECT_EQ(call({"PING"}), "+PONG\r\n") << "the others are served on";
}

TEST_P(NetConfig, ProtoMaxBulkLenRefusesALongerBulk) {
    EXPECT_EQ(call({"CONFIG", "SET", "proto-max-bulk-len", "1mb"}), "+OK\r\n");
    RespConn big = srv->connect();
    big.send("*2\r\n$4\r\nECHO\r\n$1048577\r\n");
    EXPECT_EQ(escape(big.readAllUntilClose()), escape("-ERR Protocol error: invalid bulk length\r\n"));
    EXPECT_EQ(call({"ECHO", std::string(1024 * 1024, 'y')}).size(), 1024u * 1024 + 12) << "1 MB itself is allowed";
}

/* ------------------------------------------------------------------------
 * Start-up: port 0, pidfile, daemonize
 * ---------------------------------------------------------------------- */

/* Without a TCP port (and no unix socket) nobody could connect: both
 * servers refuse to start rather than open an ephemeral port. */
TEST(StartupConfig, NoTcpPortAndNoUnixSocketExits) {
    REQUIRE_REDIS_REFERENCE();
    const std::vector<std::string> binaries{CPPREDIS_SERVER_BIN, RedisReference::kBinary};
    for (const std::string &bin : binaries) {
        for (const std::vector<std::string> &args : {std::vector<std::string>{"--port", "0"},
                                                     std::vector<std::string>{"--bind", ""}}) {
            TempDir dir;
            std::vector<std::string> argv{bin, "--port", std::to_string(freePort()), "--save", "", "--dir",
                                          dir.path()};
            argv.insert(argv.end(), args.begin(), args.end());
            ProcessResult r = runProcess(argv, {}, Ms{10000});
            EXPECT_EQ(r.exitCode, 1) << bin << " " << args[0];
            EXPECT_NE(r.out.find("Configured to not listen anywhere, exiting."), std::string::npos)
                << bin << " " << args[0] << ":\n" << r.out << r.err;
        }
    }
}

TEST(StartupConfig, PidfileIsWrittenAndRemovedAtShutdown) {
    TempDir dir;
    const std::string pidfile = dir.file("server.pid");
    TestServer s({"--pidfile", pidfile});
    EXPECT_EQ(readFile(pidfile), std::to_string(s.pid()) + "\n");
    EXPECT_EQ(s.stop(), 0);
    EXPECT_FALSE(std::filesystem::exists(pidfile));
}

/* A pidfile the server could not write is not its own: if another process
 * writes that path later, shutdown leaves the file alone. */
TEST(StartupConfig, PidfileTheServerDidNotWriteIsNotRemoved) {
    TempDir dir;
    const std::string pidfile = dir.file("missing-dir/server.pid");
    TestServer s({"--pidfile", pidfile});
    EXPECT_TRUE(s.waitForLog("Failed to write PID file: No such file or directory"));
    std::filesystem::create_directory(dir.file("missing-dir"));
    writeFile(pidfile, "12345\n");
    EXPECT_EQ(s.stop(), 0);
    EXPECT_EQ(readFile(pidfile), "12345\n");
}

/* daemonize yes: the command returns to the shell at once and the daemon,
 * in a session of its own, serves and writes its pid file. */
TEST(StartupConfig, DaemonizeReturnsAndTheDaemonServes) {
    TempDir dir;
    const std::string pidfile = dir.file("daemon.pid"), logfile = dir.file("daemon.log");
    const int port = freePort();
    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--daemonize", "yes", "--port", std::to_string(port), "--bind",
                                  "127.0.0.1", "--pidfile", pidfile, "--logfile", logfile, "--dir", dir.path(),
                                  "--save", ""},
                                 {}, Ms{10000});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(r.out + r.err, "") << "a daemon writes nothing to the terminal";

    ASSERT_TRUE(pollUntil([&] { return readFile(pidfile).ends_with("\n"); })) << readFile(logfile);
    const pid_t pid = std::stoi(readFile(pidfile));
    ASSERT_GT(pid, 1);
    /* Whatever happens below, the daemon is stopped by the pid it wrote. */
    struct Reaper {
        pid_t pid;
        ~Reaper() {
            if (!processExited(pid)) ::kill(pid, SIGKILL);
        }
    } reaper{pid};

    EXPECT_EQ(::getsid(pid), pid) << "the daemon leads its own session";
    ASSERT_TRUE(pollUntil([&] { return readFile(logfile).find("Ready to accept connections") != std::string::npos; }))
        << readFile(logfile);
    EXPECT_EQ(pingNewConnection("127.0.0.1", port), "+PONG\r\n");
    {
        RespConn c(port);
        EXPECT_EQ(infoField(c, "server", "process_id"), std::to_string(pid));
    }
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    EXPECT_TRUE(pollUntil([&] { return processExited(pid); }, kStopTimeout)) << readFile(logfile);
    EXPECT_FALSE(std::filesystem::exists(pidfile));
}
