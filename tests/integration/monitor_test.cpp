/* monitor_test.cpp — MONITOR (issue 20), each test on a fresh cppredis and
 * a fresh Redis 7.0.15 (EitherServerTest) with the same expectations: the
 * line format (timestamp, db, address or "lua", quoted arguments), what is
 * shown (MULTI/EXEC, the arguments as sent, not as rewritten) and hidden
 * (admin commands, rejected ones), AUTH's and HELLO's passwords redacted,
 * what a monitor may still do, RESET leaving monitor mode, and a monitor
 * that does not read closed by the normal class's output buffer limit. */
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

class Monitor : public EitherServerTest {
protected:
    /* A new connection in monitor mode. */
    RespConn startMonitor() {
        RespConn m = srv->connect();
        EXPECT_EQ(m.call({"MONITOR"}).raw, OK);
        return m;
    }
    /* The monitor's lines up to the one ending with `last`, each checked
     * for the "+<sec>.<usec> [" prefix and returned without it, with
     * `addr` written ADDR. */
    static std::vector<std::string> linesUntil(RespConn &m, const std::string &last, const std::string &addr) {
        static const std::regex prefix(R"x(^\d+\.\d{6} \[)x");
        std::vector<std::string> out;
        for (;;) {
            Reply r = m.readReply();
            EXPECT_EQ(r.type, Reply::Type::Status) << r;
            std::smatch mt;
            EXPECT_TRUE(std::regex_search(r.str, mt, prefix)) << r.str;
            std::string rest = r.str.substr(mt.length());
            if (size_t at = rest.find(addr); at != std::string::npos) rest.replace(at, addr.size(), "ADDR");
            out.push_back(rest);
            if (rest.ends_with(last)) return out;
        }
    }
};
INSTANTIATE_TEST_SUITE_P(Servers, Monitor, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* Every command a client runs, in order, as Redis prints it. */
TEST_P(Monitor, ShowsCommandsAsRedisPrintsThem) {
    RespConn m = startMonitor();
    RespConn w = srv->connect();
    const std::string addr = w.localAddr();
    std::vector<Args> script = {
        {"SET", "a", "1"},
        {"SET", "b", std::string("\x01\"q\n", 4)},
        {"MULTI"}, {"INCR", "a"}, {"EXEC"},
        {"EVAL", "redis.call('set','x','y') return 1", "0"},
        {"SET", "k", "v", "EX", "100"}, /* as sent, not as propagated */
        {"EXPIRE", "k", "100"},
        {"AUTH", "secret"},              /* fails: no password set; shown redacted */
        {"AUTH", "user", "secret"},
        {"HELLO", "2", "AUTH", "user", "secret"},
        {"CONFIG", "GET", "port"},       /* admin: hidden */
        {"CLIENT", "LIST"},              /* admin: hidden */
        {"GET"},                         /* rejected (arity): not run, not shown */
        {"NOSUCHCOMMAND"},
        {"SELECT", "3"},
        {"CLIENT", "SETNAME", "w"},
        {"PING", "end"},
    };
    for (const Args &cmd : script) w.call(cmd);
    std::vector<std::string> expected = {
        R"x(0 ADDR] "SET" "a" "1")x",
        R"x(0 ADDR] "SET" "b" "\x01\"q\n")x",
        R"x(0 ADDR] "MULTI")x",
        R"x(0 ADDR] "INCR" "a")x",
        R"x(0 ADDR] "EXEC")x",
        R"x(0 ADDR] "EVAL" "redis.call('set','x','y') return 1" "0")x",
        R"x(0 lua] "set" "x" "y")x",
        R"x(0 ADDR] "SET" "k" "v" "EX" "100")x",
        R"x(0 ADDR] "EXPIRE" "k" "100")x",
        R"x(0 ADDR] "AUTH" "(redacted)")x",
        R"x(0 ADDR] "AUTH" "(redacted)" "(redacted)")x",
        R"x(0 ADDR] "HELLO" "2" "AUTH" "(redacted)" "(redacted)")x",
        R"x(3 ADDR] "SELECT" "3")x",
        R"x(3 ADDR] "CLIENT" "SETNAME" "w")x",
        R"x(3 ADDR] "PING" "end")x",
    };
    EXPECT_EQ(linesUntil(m, R"x("PING" "end")x", addr), expected);
}

/* A monitor is a replica-like connection: MONITOR again is ignored (no
 * reply), keyspace commands are refused, others run and are shown to it
 * too; MONITOR inside MULTI is refused; RESET ends monitor mode. */
TEST_P(Monitor, MonitorConnectionState) {
    RespConn t = srv->connect();
    EXPECT_EQ(t.call({"MULTI"}).raw, OK);
    EXPECT_EQ(t.call({"MONITOR"}).raw, "+QUEUED\r\n");
    EXPECT_EQ(t.call({"EXEC"}).raw, "*1\r\n-ERR MONITOR isn't allowed for DENY BLOCKING client\r\n");

    RespConn m = startMonitor();
    const std::string addr = m.localAddr();
    m.cmd({"MONITOR"});
    EXPECT_EQ(m.call({"GET", "a"}).raw, "-ERR Replica can't interact with the keyspace\r\n");
    EXPECT_EQ(m.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(linesUntil(m, "\"PING\"", addr), std::vector<std::string>{"0 ADDR] \"PING\""});
    EXPECT_EQ(clientField(clientListLine(*c, "addr", addr), "flags"), "O");

    EXPECT_EQ(m.call({"RESET"}).raw, "+RESET\r\n");
    EXPECT_EQ(clientField(clientListLine(*c, "addr", addr), "flags"), "N");
    EXPECT_EQ(m.call({"SET", "a", "1"}).raw, OK);
    EXPECT_EQ(call({"SET", "b", "2"}), OK);
    EXPECT_EQ(m.call({"GET", "a"}).raw, "$1\r\n1\r\n"); /* nothing monitored came before it */
}

/* A monitor that stops reading is of the normal class: past its hard
 * limit it is closed, and the writer is not. */
TEST_P(Monitor, SlowMonitorIsClosedAtTheNormalClassLimit) {
    ASSERT_EQ(call({"CONFIG", "SET", "client-output-buffer-limit", "normal 262144 0 0"}), OK);
    RespConn m = startMonitor();
    const std::string addr = m.localAddr();
    RespConn w = srv->connect();
    const std::string value(100 * 1024, 'v');
    for (int i = 0; i < 300; i++) {
        ASSERT_EQ(w.call({"SET", "k", value}).raw, OK);
        std::string list = call({"CLIENT", "LIST"});
        if (list.find("addr=" + addr + " ") == std::string::npos) break;
    }
    EXPECT_EQ(call({"CLIENT", "LIST"}).find("addr=" + addr + " "), std::string::npos) << "the monitor is still there";
    EXPECT_TRUE(srv->waitForLog("for overcoming of output buffer limits"));
    m.readAllUntilClose();
}

}  // namespace
