/* service_test.cpp — running as a service (issue 21): what a supervisor
 * sees of the server. systemd's notifications (READY=1, the STATUS lines,
 * STOPPING=1) arrive on a datagram socket of the test's own, named by
 * NOTIFY_SOCKET as systemd names it (a path, or '@' for the abstract
 * namespace); upstart's readiness is the server stopping itself; SIGTERM
 * saves only with save points, SIGHUP changes nothing; `logfile` takes the
 * whole log; syslog-enabled copies it to /dev/log. Each test runs on cppredis and on Redis 7.0.15 (Debian's,
 * built with libsystemd) expecting the same.
 *
 * daemonize and pidfile are tested in config_test.cpp (StartupConfig.*). */
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "integration/harness.h"

using namespace itest;

namespace {

/* The socket systemd listens on for a unit's notifications: one datagram
 * per message. `name` is NOTIFY_SOCKET's value: a path, or "@name" in the
 * abstract namespace. */
class NotifySocket {
public:
    explicit NotifySocket(std::string name) : name_(std::move(name)) {
        fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd_ == -1) throw HarnessError("socket(AF_UNIX, SOCK_DGRAM) failed");
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        if (name_.size() >= sizeof(addr.sun_path)) throw HarnessError("socket name too long: " + name_);
        memcpy(addr.sun_path, name_.data(), name_.size());
        const bool abstract = name_[0] == '@';
        if (abstract) addr.sun_path[0] = '\0';
        const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name_.size() + (abstract ? 0 : 1));
        if (::bind(fd_, reinterpret_cast<sockaddr *>(&addr), len) == -1)
            throw HarnessError("bind " + name_ + ": " + strerror(errno));
    }
    ~NotifySocket() {
        ::close(fd_);
        if (name_[0] == '/') ::unlink(name_.c_str());
    }
    NotifySocket(const NotifySocket &) = delete;
    NotifySocket &operator=(const NotifySocket &) = delete;

    std::string env() const { return "NOTIFY_SOCKET=" + name_; }
    /* The next message; "" if none came within `wait`. */
    std::string receive(Ms wait = kDefaultTimeout) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(wait.count())) != 1) return "";
        char buf[4096];
        ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
        return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
    }
    /* The messages up to and including READY=1, as a systemd waiting for
     * a Type=notify unit's start reads them. */
    std::vector<std::string> receiveUntilReady() {
        std::vector<std::string> got;
        for (std::string m; got.size() < 10 && !(m = receive()).empty();) {
            got.push_back(m);
            if (m == "READY=1\n") break;
        }
        return got;
    }
    /* Everything already queued: the messages of a process that exited. */
    std::vector<std::string> receiveQueued() {
        std::vector<std::string> got;
        for (std::string m; !(m = receive(Ms{0})).empty();) got.push_back(m);
        return got;
    }

private:
    std::string name_;
    int fd_ = -1;
};

using Messages = std::vector<std::string>;
const Messages kStartMessages{"STATUS=Redis is loading...\n", "STATUS=Ready to accept connections\n", "READY=1\n"};

class Service : public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
    }
    std::string binary() const {
        return GetParam() == ServerImpl::Redis ? RedisReference::kBinary : CPPREDIS_SERVER_BIN;
    }
    std::unique_ptr<TestServer> start(std::vector<std::string> args, std::vector<std::string> env = {},
                                      std::string readyLine = "Ready to accept connections") {
        return std::make_unique<TestServer>(ServerOptions{.args = std::move(args),
                                                          .binary = binary(),
                                                          .env = std::move(env),
                                                          .readyLine = std::move(readyLine)});
    }
    /* The supervisor's variables, when the tests themselves run under one,
     * would reach every server they start. */
    static bool runnerSupervised() { return getenv("NOTIFY_SOCKET") || getenv("UPSTART_JOB"); }
    /* A name in the abstract namespace no other test run uses. */
    static std::string abstractName() {
        static int n = 0;
        return "@cppredis-service-test-" + std::to_string(::getpid()) + "-" + std::to_string(++n);
    }
};

INSTANTIATE_TEST_SUITE_P(Servers, Service, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace

/* ------------------------------------------------------------------------
 * supervised systemd and auto
 * ---------------------------------------------------------------------- */

/* The unit's start: loading, then ready; its stop: STOPPING=1, then the
 * final snapshot's status. Under a supervisor `daemonize yes` is ignored:
 * systemd waits for the process it started. */
TEST_P(Service, SystemdHearsReadyThenStoppingAndTheFinalSave) {
    TempDir dir;
    NotifySocket notify(dir.file("notify.sock"));
    auto srv = start({"--supervised", "systemd", "--daemonize", "yes", "--pidfile", dir.file("server.pid"), "--dir",
                      dir.path(), "--save", "3600 1"},
                     {notify.env()});
    EXPECT_EQ(notify.receiveUntilReady(), kStartMessages);
    EXPECT_TRUE(srv->waitForLog("Supervised by systemd. Please make sure you set appropriate values for "
                                "TimeoutStartSec and TimeoutStopSec in your service unit."));
    RespConn c = srv->connect();
    EXPECT_EQ(infoField(c, "server", "process_supervised"), "systemd");
    EXPECT_EQ(infoField(c, "server", "process_id"), std::to_string(srv->pid())) << "not daemonized";
    EXPECT_EQ(readFile(dir.file("server.pid")), std::to_string(srv->pid()) + "\n");
    EXPECT_EQ(srv->stop(), 0);
    EXPECT_EQ(notify.receiveQueued(), (Messages{"STOPPING=1\n", "STATUS=Saving the final RDB snapshot\n"}));
}

/* `supervised auto` finds systemd by NOTIFY_SOCKET, here an abstract
 * socket name ('@'); without save points the stop is STOPPING=1 alone. */
TEST_P(Service, AutoPicksSystemdFromAnAbstractNotifySocket) {
    if (runnerSupervised()) GTEST_SKIP() << "the tests run under a supervisor";
    NotifySocket notify(abstractName());
    auto srv = start({"--supervised", "auto", "--save", ""}, {notify.env()});
    EXPECT_EQ(notify.receiveUntilReady(), kStartMessages);
    RespConn c = srv->connect();
    EXPECT_EQ(infoField(c, "server", "process_supervised"), "systemd");
    EXPECT_EQ(c.call({"CONFIG", "GET", "supervised"}).raw, "*2\r\n$10\r\nsupervised\r\n$7\r\nsystemd\r\n")
        << "the mode found replaces auto";
    EXPECT_EQ(srv->stop(), 0);
    EXPECT_EQ(notify.receiveQueued(), Messages{"STOPPING=1\n"});
}

/* A replica is ready read-only at once, then says when the sync made it a
 * full copy of its master. */
TEST_P(Service, SystemdHearsAReplicaSyncFinish) {
    auto master = start({"--save", "", "--repl-diskless-sync-delay", "0"});
    TempDir dir;
    NotifySocket notify(dir.file("notify.sock"));
    auto replica = start({"--supervised", "systemd", "--save", "", "--dir", dir.path(), "--replicaof", "127.0.0.1",
                          std::to_string(master->port())},
                         {notify.env()});
    EXPECT_EQ(notify.receiveUntilReady(),
              (Messages{"STATUS=Redis is loading...\n",
                        "STATUS=Ready to accept connections in read-only mode. Waiting for MASTER <-> REPLICA sync\n",
                        "READY=1\n"}));
    EXPECT_EQ(notify.receive(),
              "STATUS=MASTER <-> REPLICA sync: Finished with success. Ready to accept connections in read-write mode.\n");
}

/* Asked for systemd with no NOTIFY_SOCKET: said in the log, and the server
 * runs unsupervised. */
TEST_P(Service, SystemdWithoutNotifySocketRunsUnsupervised) {
    if (runnerSupervised()) GTEST_SKIP() << "the tests run under a supervisor";
    auto srv = start({"--supervised", "systemd", "--save", ""});
    EXPECT_TRUE(srv->waitForLog("systemd supervision error: NOTIFY_SOCKET not found!"));
    RespConn c = srv->connect();
    EXPECT_EQ(infoField(c, "server", "process_supervised"), "no");
}

/* ------------------------------------------------------------------------
 * supervised upstart: the server stops itself once set up ("expect stop")
 * ---------------------------------------------------------------------- */

TEST_P(Service, UpstartSeesTheServerStopItselfThenResumesIt) {
    auto srv = start({"--supervised", "upstart", "--save", ""}, {"UPSTART_JOB=cppredis-test"},
                     "supervised by upstart, will stop to signal readiness.");
    int status = 0;
    ASSERT_TRUE(pollUntil([&] { return ::waitpid(srv->pid(), &status, WUNTRACED | WNOHANG) == srv->pid(); }));
    ASSERT_TRUE(WIFSTOPPED(status)) << status;
    EXPECT_EQ(WSTOPSIG(status), SIGSTOP);
    ASSERT_EQ(::kill(srv->pid(), SIGCONT), 0);
    ASSERT_TRUE(srv->waitForLog("Ready to accept connections"));
    RespConn c = srv->connect();
    EXPECT_EQ(infoField(c, "server", "process_supervised"), "upstart");
}

/* ------------------------------------------------------------------------
 * Signals
 * ---------------------------------------------------------------------- */

/* SIGTERM is a SHUTDOWN: the final snapshot is written if save points are
 * set, and only then. */
TEST_P(Service, SigtermSavesOnlyWithSavePoints) {
    for (const char *save : {"3600 1", ""}) {
        TempDir dir;
        auto srv = start({"--dir", dir.path(), "--save", save});
        RespConn c = srv->connect();
        EXPECT_EQ(c.call({"SET", "k", "v"}).raw, "+OK\r\n");
        EXPECT_EQ(srv->stop(), 0);
        const bool saved = *save != '\0';
        EXPECT_EQ(std::filesystem::exists(dir.file("dump.rdb")), saved) << "save '" << save << "'";
        EXPECT_EQ(srv->log().find("Saving the final RDB snapshot before exiting.") != std::string::npos, saved)
            << srv->log();
    }
}

/* Redis 7.0 ignores SIGHUP (no reload, no exit): the server keeps serving,
 * and then exits on SIGTERM with status 0, not killed by the HUP. */
TEST_P(Service, SighupIsIgnored) {
    auto srv = start({"--save", ""});
    ASSERT_EQ(::kill(srv->pid(), SIGHUP), 0);
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(srv->stop(), 0);
}

/* ------------------------------------------------------------------------
 * logfile: in the foreground, the whole log goes to the file, nothing to
 * the terminal — the signal handler's line included.
 * ---------------------------------------------------------------------- */

TEST_P(Service, LogfileTakesTheWholeLog) {
    TempDir dir;
    const std::string logfile = dir.file("server.log"), out = dir.file("stdout");
    const std::string port = std::to_string(pickFreePort());
    const std::vector<std::string> args{binary(), "--port", port, "--bind", "127.0.0.1", "--dir", dir.path(),
                                        "--save", "", "--logfile", logfile};
    std::vector<char *> argv;
    for (const std::string &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ASSERT_EQ(spawned, 0) << strerror(spawned);
    /* Whatever happens below, the server does not outlive the test. */
    struct Reaper {
        pid_t pid;
        int status = -1;
        int wait() {
            if (pid > 0 && ::waitpid(pid, &status, 0) == pid) pid = -1;
            return status;
        }
        ~Reaper() {
            if (pid > 0 && ::kill(pid, SIGKILL) == 0) wait();
        }
    } reaper{pid};

    auto logHas = [&](const char *line) { return readFile(logfile).find(line) != std::string::npos; };
    ASSERT_TRUE(pollUntil([&] { return logHas("Ready to accept connections"); }, kStartTimeout)) << readFile(logfile);
    RespConn c(std::stoi(port));
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    const int status = reaper.wait();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    for (const char *line : {"Server initialized", "Received SIGTERM scheduling shutdown...", "User requested shutdown...",
                             "is now ready to exit, bye bye..."})
        EXPECT_TRUE(logHas(line)) << line << " missing from:\n" << readFile(logfile);
    EXPECT_EQ(readFile(out), "") << "nothing to standard output";
}

/* ------------------------------------------------------------------------
 * syslog-enabled: each log line also goes to syslog, under syslog-ident at
 * syslog-facility, with the level as the priority. glibc's syslog() writes
 * to /dev/log: the test binds that socket itself, so it runs only as root
 * on a machine with no syslog daemon there (a fresh container, CI).
 * ---------------------------------------------------------------------- */

TEST_P(Service, SyslogGetsTheLogUnderItsIdentAndFacility) {
    if (::geteuid() != 0 || std::filesystem::exists("/dev/log"))
        GTEST_SKIP() << "needs root and no syslog daemon at /dev/log";
    NotifySocket devlog("/dev/log");
    const std::string ident = "cppredis-syslog-test-" + std::to_string(::getpid());
    auto srv = start({"--save", "", "--syslog-enabled", "yes", "--syslog-ident", ident, "--syslog-facility", "local3"});
    /* local3 is facility 19; "Ready to accept connections" is a notice (5):
     * priority 19 * 8 + 5, then glibc's timestamp, then "ident[pid]: ". */
    const std::string prefix = "<157>", tag = ident + "[" + std::to_string(srv->pid()) + "]: ";
    bool found = false;
    for (std::string m; !found && !(m = devlog.receive()).empty();)
        found = m.starts_with(prefix) && m.find(tag + "Ready to accept connections") != std::string::npos;
    EXPECT_TRUE(found) << "no '" << prefix << "... " << tag << "Ready to accept connections' on /dev/log";
    EXPECT_TRUE(srv->waitForLog("Ready to accept connections")) << "the log keeps every line too";
}
