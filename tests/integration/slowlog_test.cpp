/* slowlog_test.cpp — SLOWLOG (Redis's slowlog.c): each test runs on a fresh
 * cppredis and a fresh Redis 7.0.15 (EitherServerTest) with the same
 * expectations. With slowlog-log-slower-than 0 every command is logged, so
 * the entries are deterministic but for their id, time and duration, which
 * are checked for shape only; arguments, truncation, client address and
 * name are compared byte for byte. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* One SLOWLOG GET entry without what varies: its arguments, peer and name. */
struct Entry {
    std::vector<std::string> args;
    std::string peer, name;
    bool operator==(const Entry &) const = default;
};

std::ostream &operator<<(std::ostream &os, const Entry &e) {
    os << "{";
    for (const std::string &a : e.args) os << '"' << escape(a, 200) << "\" ";
    return os << "peer=" << e.peer << " name=" << e.name << "}";
}

class Slowlog : public EitherServerTest {
protected:
    void SetUp() override {
        EitherServerTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        ASSERT_EQ(call({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), OK);
        ASSERT_EQ(call({"SLOWLOG", "RESET"}), OK);
    }

    /* SLOWLOG GET count on `on`, newest first, each entry's id, time and
     * duration checked for shape (ids descending by one). */
    std::vector<Entry> entries(RespConn &on, const std::string &count = "-1") {
        Reply r = on.call({"SLOWLOG", "GET", count});
        EXPECT_EQ(r.type, Reply::Type::Array) << r;
        std::vector<Entry> out;
        long long prev_id = -1;
        for (const Reply &e : r.elements) {
            EXPECT_EQ(e.elements.size(), 6u) << e;
            if (e.elements.size() != 6) continue;
            EXPECT_EQ(e.elements[0].type, Reply::Type::Integer) << e;
            if (prev_id != -1) {
                EXPECT_EQ(e.elements[0].integer, prev_id - 1) << e;
            }
            prev_id = e.elements[0].integer;
            EXPECT_GT(e.elements[1].integer, 1600000000) << e; /* unix time */
            EXPECT_GE(e.elements[2].integer, 0) << e;          /* µs */
            Entry en;
            for (const Reply &a : e.elements[3].elements) en.args.push_back(a.str);
            en.peer = e.elements[4].str;
            en.name = e.elements[5].str;
            out.push_back(en);
        }
        return out;
    }
    std::vector<Entry> entries() { return entries(*c); }
};
INSTANTIATE_TEST_SUITE_P(Servers, Slowlog, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* An entry holds at most 32 arguments, the last saying how many more there
 * were, each cut to 128 bytes saying how many more bytes; the client's
 * address and name come last. */
TEST_P(Slowlog, EntriesTruncatedAsRedis) {
    const std::string me = c->localAddr();
    ASSERT_EQ(call({"CLIENT", "SETNAME", "cli"}), OK);
    std::string big(200, 'x');
    ASSERT_EQ(call({"SET", "big", big}), OK);
    Args rpush = {"RPUSH", "l"};
    for (int i = 1; i <= 40; i++) rpush.push_back(std::to_string(i));
    ASSERT_EQ(call(rpush), integer(40));
    Args exact = {"RPUSH", "m"};
    for (int i = 1; i <= 30; i++) exact.push_back(std::to_string(i));
    ASSERT_EQ(call(exact), integer(30)); /* 32 arguments: all kept */

    Args rpush_logged(rpush.begin(), rpush.begin() + 31);
    rpush_logged.push_back("... (11 more arguments)");
    std::vector<Entry> want = {
        {exact, me, "cli"},
        {rpush_logged, me, "cli"},
        {{"SET", "big", std::string(128, 'x') + "... (72 more bytes)"}, me, "cli"},
        {{"CLIENT", "SETNAME", "cli"}, me, "cli"}, /* the name once it ran */
        {{"SLOWLOG", "RESET"}, me, ""},
    };
    EXPECT_EQ(entries(), want);
    EXPECT_EQ(call({"SLOWLOG", "LEN"}), integer(6)); /* with the GET */
    EXPECT_EQ(entries(*c, "2").size(), 2u);
    EXPECT_EQ(call({"SLOWLOG", "GET", "0"}), EMPTY_ARRAY);
    EXPECT_EQ(entries(*c, "100").size(), 9u); /* all there are */
    EXPECT_EQ(c->call({"SLOWLOG", "GET"}).elements.size(), 10u); /* the default count */
}

/* Several clients: each entry names its own sender. */
TEST_P(Slowlog, EachClientItsAddress) {
    RespConn a = srv->connect(), b = srv->connect();
    ASSERT_EQ(a.call({"CLIENT", "SETNAME", "a"}).raw, OK);
    ASSERT_EQ(a.call({"INCR", "n"}).raw, integer(1));
    ASSERT_EQ(b.call({"INCR", "n"}).raw, integer(2));
    std::vector<Entry> got = entries();
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(got[0], (Entry{{"INCR", "n"}, b.localAddr(), ""}));
    EXPECT_EQ(got[1], (Entry{{"INCR", "n"}, a.localAddr(), "a"}));
}

/* Passwords never reach the slow log: AUTH's arguments, HELLO's AUTH pair,
 * ACL SETUSER's rules (and user name), a sensitive config's value, even
 * when the command fails. */
TEST_P(Slowlog, SecretsRedacted) {
    const std::string me = c->localAddr();
    EXPECT_EQ(call({"AUTH", "nopass-configured"}).substr(0, 5), "-ERR ");
    EXPECT_EQ(call({"AUTH", "alice", "wrong"}), err("WRONGPASS invalid username-password pair or user is disabled."));
    EXPECT_EQ(call({"HELLO", "2", "AUTH", "alice", "wrong"}),
              err("WRONGPASS invalid username-password pair or user is disabled."));
    ASSERT_EQ(call({"ACL", "SETUSER", "bob", "on", ">pw"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "masterauth", "s3cret", "slowlog-max-len", "100"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "requirepass", ""}), OK);
    const std::string R = "(redacted)";
    std::vector<Entry> want = {
        {{"CONFIG", "SET", "requirepass", R}, me, ""},
        {{"CONFIG", "SET", "masterauth", R, "slowlog-max-len", "100"}, me, ""},
        {{"ACL", "SETUSER", R, R, R}, me, ""},
        {{"HELLO", "2", "AUTH", R, R}, me, ""},
        {{"AUTH", R, R}, me, ""},
        {{"AUTH", R}, me, ""},
        {{"SLOWLOG", "RESET"}, me, ""},
    };
    EXPECT_EQ(entries(), want);
}

/* A transaction's commands are logged one by one, EXEC itself not; a
 * script's commands come from its client, which has no address ("?:0"),
 * before the script. */
TEST_P(Slowlog, TransactionsAndScripts) {
    const std::string me = c->localAddr();
    ASSERT_EQ(call({"MULTI"}), OK);
    ASSERT_EQ(call({"SET", "a", "1"}), QUEUED);
    ASSERT_EQ(call({"GET", "a"}), QUEUED);
    ASSERT_EQ(call({"EXEC"}), array({OK, bulk("1")}));
    ASSERT_EQ(call({"EVAL", "redis.call('set',KEYS[1],'v'); return redis.call('get',KEYS[1])", "1", "k"}),
              bulk("v"));
    std::vector<Entry> want = {
        {{"EVAL", "redis.call('set',KEYS[1],'v'); return redis.call('get',KEYS[1])", "1", "k"}, me, ""},
        {{"get", "k"}, "?:0", ""},
        {{"set", "k", "v"}, "?:0", ""},
        {{"GET", "a"}, me, ""},
        {{"SET", "a", "1"}, me, ""},
        {{"MULTI"}, me, ""},
        {{"SLOWLOG", "RESET"}, me, ""},
    };
    EXPECT_EQ(entries(), want);
}

/* A blocked command is logged once, when it is served, after the command
 * that served it; one that times out is not logged. */
TEST_P(Slowlog, BlockedCommandLoggedWhenServed) {
    RespConn waiter = srv->connect(), pusher = srv->connect();
    waiter.cmd({"BLPOP", "q", "0"});
    ASSERT_TRUE(pollUntil([&] { return infoNumber(*c, "clients", "blocked_clients") == 1; }));
    ASSERT_EQ(pusher.call({"RPUSH", "q", "job"}).raw, integer(1));
    EXPECT_EQ(waiter.readReply().raw, array({bulk("q"), bulk("job")}));
    EXPECT_EQ(waiter.call({"BLPOP", "q", "0.01"}).raw, NIL_ARRAY); /* times out */
    std::vector<Entry> got = entries();
    std::vector<Entry> want = {
        {{"BLPOP", "q", "0"}, waiter.localAddr(), ""},
        {{"RPUSH", "q", "job"}, pusher.localAddr(), ""},
    };
    /* Before them: the INFO calls polled for the block, and the reset. */
    ASSERT_GE(got.size(), 2u);
    EXPECT_EQ(std::vector<Entry>(got.begin(), got.begin() + 2), want);
    for (size_t i = 2; i < got.size(); i++) EXPECT_NE(got[i].args[0], "BLPOP") << got[i];
}

/* slowlog-log-slower-than is a threshold in µs (-1: nothing is logged);
 * lowering slowlog-max-len trims at the next logged command, the CONFIG
 * SET itself. */
TEST_P(Slowlog, ThresholdAndMaxLen) {
    ASSERT_EQ(call({"CONFIG", "SET", "slowlog-log-slower-than", "20000"}), OK);
    ASSERT_EQ(call({"SLOWLOG", "RESET"}), OK);
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0"}), OK);
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0.03"}), OK);
    std::vector<Entry> got = entries();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].args, (std::vector<std::string>{"DEBUG", "SLEEP", "0.03"}));
    Reply r = c->call({"SLOWLOG", "GET"});
    EXPECT_GE(r.elements[0].elements[2].integer, 30000);

    ASSERT_EQ(call({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), OK);
    for (int i = 0; i < 5; i++) ASSERT_EQ(call({"PING"}), "+PONG\r\n");
    EXPECT_EQ(call({"SLOWLOG", "LEN"}), integer(7)); /* a command is logged after it ran */
    ASSERT_EQ(call({"CONFIG", "SET", "slowlog-max-len", "3"}), OK);
    EXPECT_EQ(call({"SLOWLOG", "LEN"}), integer(3));

    ASSERT_EQ(call({"CONFIG", "SET", "slowlog-log-slower-than", "-1"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "slowlog-max-len", "1"}), OK);
    EXPECT_EQ(call({"SLOWLOG", "LEN"}), integer(3)); /* disabled: not even trimmed */
    ASSERT_EQ(call({"SLOWLOG", "RESET"}), OK);
    EXPECT_EQ(call({"SLOWLOG", "LEN"}), integer(0));
}

TEST_P(Slowlog, ErrorsAndHelp) {
    const std::string count_err = err("ERR count should be greater than or equal to -1");
    EXPECT_EQ(call({"SLOWLOG", "GET", "-2"}), count_err);
    EXPECT_EQ(call({"SLOWLOG", "GET", "abc"}), count_err);
    EXPECT_EQ(call({"SLOWLOG", "GET", "1", "2"}),
              err("ERR unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG HELP."));
    EXPECT_EQ(call({"SLOWLOG", "LEN", "x"}), arityErr("slowlog|len"));
    EXPECT_EQ(call({"SLOWLOG", "RESET", "x"}), arityErr("slowlog|reset"));
    EXPECT_EQ(call({"SLOWLOG", "FOO"}), err("ERR unknown subcommand 'FOO'. Try SLOWLOG HELP."));
    EXPECT_EQ(call({"SLOWLOG"}), arityErr("slowlog"));
    Reply help = c->call({"SLOWLOG", "HELP"});
    ASSERT_EQ(help.elements.size(), 12u) << help;
    EXPECT_EQ(help.elements[0].str, "SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
    EXPECT_EQ(help.elements[1].str, "GET [<count>]");
    EXPECT_EQ(help.elements[2].str, "    Return top <count> entries from the slowlog (default: 10, -1 mean all).");
    EXPECT_EQ(help.elements[11].str, "    Prints this help.");
}

}  // namespace
