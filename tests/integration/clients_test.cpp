/* clients_test.cpp — real queue libraries end to end against cppredis
 * (issue 15): python-rq (Debian's python3-rq 1.13, which stores each job's
 * result with XADD ... MAXLEN ~ once the server says it is Redis >= 5) and
 * BullMQ 5 (npm; its Lua scripts write an event stream with XADD/XTRIM and
 * its QueueEvents read it with XREAD BLOCK). Each runs its script from
 * tests/clients/ against a cppredis started here, with several workers at
 * once, and the script checks that every job ran exactly once and left its
 * result; the test passes when the script says so (exit status 0).
 *
 * A library that is not installed skips its test (fails it under CI), as
 * the Redis reference does elsewhere: tools/install_deps.sh test installs
 * python3-rq, and make test runs npm ci in tests/clients. */
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "integration/harness.h"
#include "integration/subprocess.h"

using namespace itest;

namespace {

std::filesystem::path clientsDir() { return repoDir() / "tests" / "clients"; }

TEST(Clients, PythonRqRunsEveryJobOnceWithItsResult) {
    std::string ignored;
    SKIP_UNLESS_PACKAGE("python3-rq", runCommand("/usr/bin/python3 -c 'import rq'", &ignored) == 0);
    TestServer srv;
    std::string out;
    int rc = runCommand("/usr/bin/python3 " + (clientsDir() / "rq_e2e.py").string() + " " + std::to_string(srv.port()) +
                     " 200 3",
                 &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("200 finished exactly once with their result"), std::string::npos) << out;
}

TEST(Clients, BullmqRunsEveryJobOnceWithItsResult) {
    SKIP_UNLESS_PACKAGE("npm:bullmq", std::filesystem::exists(clientsDir() / "node_modules" / "bullmq"));
    TestServer srv;
    std::string out;
    int rc = runCommand("node " + (clientsDir() / "bullmq_e2e.mjs").string() + " " + std::to_string(srv.port()) + " 200 2 4",
                 &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("200 completed exactly once with their result, 200 completed events"), std::string::npos)
        << out;
}

}  // namespace

/* ------------------------------------------------------------------------
 * The CLIENT subcommands operators use (issue 20), each test on a fresh
 * cppredis and a fresh Redis 7.0.15 with the same expectations.
 * ---------------------------------------------------------------------- */
namespace {

class ClientCommands : public EitherServerTest {};
INSTANTIATE_TEST_SUITE_P(Servers, ClientCommands, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* OFF silences every reply (its own too) until ON; SKIP the next one only. */
TEST_P(ClientCommands, ReplyOffSkipOn) {
    c->cmd({"CLIENT", "REPLY", "OFF"});
    c->cmd({"SET", "a", "1"});
    c->cmd({"CLIENT", "REPLY", "SKIP"}); /* ignored while OFF */
    c->cmd({"GET", "a"});
    EXPECT_EQ(call({"CLIENT", "REPLY", "ON"}), "+OK\r\n");
    c->cmd({"CLIENT", "REPLY", "SKIP"});
    c->cmd({"INCR", "a"});
    EXPECT_EQ(call({"GET", "a"}), "$1\r\n2\r\n");
    c->cmd({"CLIENT", "REPLY", "SKIP"}); /* a blocked command's reply comes later: skipped too */
    c->cmd({"BLPOP", "nolist", "0.05"});
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");
    EXPECT_EQ(call({"CLIENT", "REPLY", "MAYBE"}), "-ERR syntax error\r\n");
}

/* CLIENT HELP: Redis 7.0.15's lines, PAUSE, REPLY and NO-EVICT among them. */
TEST_P(ClientCommands, HelpAsRedis) {
    Reply help = c->call({"CLIENT", "HELP"});
    ASSERT_EQ(help.type, Reply::Type::Array);
    std::vector<std::string> lines;
    for (const Reply &r : help.elements) lines.push_back(r.str);
    ASSERT_EQ(lines.size(), 48u);
    EXPECT_EQ(lines[29], "UNPAUSE");
    EXPECT_EQ(lines[31], "PAUSE <timeout> [WRITE|ALL]");
    EXPECT_EQ(lines[33], "REPLY (ON|OFF|SKIP)");
    EXPECT_EQ(lines[45], "    Protect current client connection from eviction.");
}

TEST_P(ClientCommands, NoEvictFlag) {
    EXPECT_EQ(call({"CLIENT", "NO-EVICT", "on"}), "+OK\r\n");
    EXPECT_EQ(clientField(parseClientList(c->call({"CLIENT", "INFO"}).str).at(0), "flags"), "e");
    EXPECT_EQ(call({"CLIENT", "NO-EVICT", "off"}), "+OK\r\n");
    EXPECT_EQ(clientField(parseClientList(c->call({"CLIENT", "INFO"}).str).at(0), "flags"), "N");
    EXPECT_EQ(call({"CLIENT", "NO-EVICT", "maybe"}), "-ERR syntax error\r\n");
}

/* CLIENT INFO and CLIENT LIST: Redis 7.0.15's fields, in its order, with
 * the values that can be compared across servers. */
TEST_P(ClientCommands, InfoFieldsAsRedis) {
    ASSERT_EQ(call({"CLIENT", "SETNAME", "me"}), "+OK\r\n");
    ASSERT_EQ(call({"SELECT", "2"}), "+OK\r\n");
    ASSERT_EQ(call({"SUBSCRIBE", "x"}).substr(0, 4), "*3\r\n");
    ASSERT_EQ(call({"PSUBSCRIBE", "y*"}).substr(0, 4), "*3\r\n");
    RespConn other = srv->connect();
    ClientFields line = clientListLine(other, "name", "me");
    std::vector<std::string> names;
    for (const auto &[k, v] : line) names.push_back(k);
    EXPECT_EQ(names, (std::vector<std::string>{"id", "addr", "laddr", "fd", "name", "age", "idle", "flags", "db",
                                                "sub", "psub", "ssub", "multi", "qbuf", "qbuf-free", "argv-mem",
                                                "multi-mem", "rbs", "rbp", "obl", "oll", "omem", "tot-mem",
                                                "events", "cmd", "user", "redir", "resp"}));
    EXPECT_EQ(clientField(line, "flags"), "P");
    EXPECT_EQ(clientField(line, "db"), "2");
    EXPECT_EQ(clientField(line, "sub"), "1");
    EXPECT_EQ(clientField(line, "psub"), "1");
    EXPECT_EQ(clientField(line, "ssub"), "0");
    EXPECT_EQ(clientField(line, "multi"), "-1");
    EXPECT_EQ(clientField(line, "cmd"), "psubscribe");
    EXPECT_EQ(clientField(line, "redir"), "-1");
    EXPECT_EQ(clientField(line, "events"), "r");
    EXPECT_EQ(clientField(line, "omem"), "0");
    /* TYPE filters by class; a subscriber is pubsub, not normal. */
    EXPECT_NE(other.call({"CLIENT", "LIST", "TYPE", "pubsub"}).str.find("name=me "), std::string::npos);
    EXPECT_EQ(other.call({"CLIENT", "LIST", "TYPE", "normal"}).str.find("name=me "), std::string::npos);
    EXPECT_EQ(other.call({"CLIENT", "LIST", "TYPE", "bogus"}).raw, "-ERR Unknown client type 'bogus'\r\n");
}

/* RESET: the connection as accepted — out of MULTI (unwatched), pub/sub,
 * CLIENT REPLY OFF, db 0, no name, the default user — and +RESET. */
TEST_P(ClientCommands, ResetClearsTheConnectionState) {
    ASSERT_EQ(call({"ACL", "SETUSER", "u", "on", ">pw", "+@all", "~*", "&*"}), "+OK\r\n");
    ASSERT_EQ(call({"CONFIG", "SET", "requirepass", "pw0"}), "+OK\r\n");
    ASSERT_EQ(call({"AUTH", "u", "pw"}), "+OK\r\n");
    ASSERT_EQ(call({"CLIENT", "SETNAME", "n"}), "+OK\r\n");
    ASSERT_EQ(call({"SELECT", "5"}), "+OK\r\n");
    ASSERT_EQ(call({"WATCH", "w"}), "+OK\r\n");
    ASSERT_EQ(call({"MULTI"}), "+OK\r\n");
    ASSERT_EQ(call({"SET", "a", "1"}), "+QUEUED\r\n");
    EXPECT_EQ(call({"RESET"}), "+RESET\r\n"); /* not queued */
    EXPECT_EQ(call({"PING"}), "-NOAUTH Authentication required.\r\n");
    ASSERT_EQ(call({"AUTH", "pw0"}), "+OK\r\n");
    ClientFields line = parseClientList(c->call({"CLIENT", "INFO"}).str).at(0);
    EXPECT_EQ(clientField(line, "name"), "");
    EXPECT_EQ(clientField(line, "db"), "0");
    EXPECT_EQ(clientField(line, "user"), "default");
    EXPECT_EQ(clientField(line, "multi"), "-1");
    EXPECT_EQ(call({"EXEC"}), "-ERR EXEC without MULTI\r\n");

    ASSERT_EQ(call({"SUBSCRIBE", "ch"}).substr(0, 4), "*3\r\n");
    EXPECT_EQ(call({"RESET"}), "+RESET\r\n");
    ASSERT_EQ(call({"AUTH", "pw0"}), "+OK\r\n");
    EXPECT_EQ(call({"PUBSUB", "NUMSUB", "ch"}), "*2\r\n$2\r\nch\r\n:0\r\n");
    c->cmd({"CLIENT", "REPLY", "OFF"});
    EXPECT_EQ(call({"RESET"}), "+RESET\r\n"); /* replies are on again before RESET's own */
}

}  // namespace
