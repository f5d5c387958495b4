/* livetrace_blocking_test.cpp — the live trace (livetrace.h) of the request path
 * and of the blocking machinery, read as a learner reads it: with
 * PSUBSCRIBE __trace__:* after CONFIG SET trace-events. Seed 003's scenario
 * (A: BLPOP q 0 with a PING pipelined behind it; B: LPUSH q x) must show
 * the documented events in the documented order, and so must a chained
 * BRPOPLPUSH wake, a timeout (its time event returning AE_NOMORE), a
 * CLIENT UNBLOCK and a disconnect. The loop's own events show what
 * beforeSleep wrote, never counting the trace's reader; clientsCron's idle
 * timeout (docs chapter 6) shows whom it closed.
 *
 * Events are compared without their timestamp and iteration ("<s.us> #N "),
 * and without durations (us=..., late_us=...), which vary run to run. The
 * tests wait for trace lines and replies, never for time. */
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "integration/harness.h"

using namespace itest;

namespace {

/* A connection reading the trace: PSUBSCRIBE __trace__:* */
class TraceReader {
public:
    explicit TraceReader(TestServer &srv) : conn_(srv.connect()) {
        id_ = std::to_string(conn_.call({"CLIENT", "ID"}).integer);
        Reply r = conn_.call({"PSUBSCRIBE", "__trace__:*"});
        EXPECT_EQ(r.type, Reply::Type::Array);
    }
    const std::string &id() const { return id_; }
    /* The next event line as published. */
    std::string nextRaw() {
        Reply r = conn_.readReply();
        return r.type == Reply::Type::Array && r.elements.size() == 4 ? r.elements[3].str : "?" + toString(r);
    }
    /* The next event line, without timestamp and iteration, durations
     * masked; the reader's own PSUBSCRIBE (traced: it was no reader yet) skipped. */
    std::string next() {
        for (;;) {
            Reply r = conn_.readReply();
            if (r.type != Reply::Type::Array || r.elements.size() != 4) return "?" + toString(r);
            std::string line = normalize(r.elements[3].str);
            if (line.find(" cmd=psubscribe args=__trace__:* ") == std::string::npos) return line;
        }
    }
    /* Lines up to and including the first one that starts with `prefix`;
     * returns only those starting with one of `keep` (empty: all). */
    std::vector<std::string> until(const std::string &prefix, const std::vector<std::string> &keep = {}) {
        std::vector<std::string> out;
        for (;;) {
            std::string line = next();
            bool wanted = keep.empty();
            for (const std::string &k : keep) wanted = wanted || line.rfind(k, 0) == 0;
            if (wanted || line.rfind(prefix, 0) == 0) out.push_back(line);
            if (line.rfind(prefix, 0) == 0) return out;
        }
    }
    static std::string normalize(const std::string &line) {
        static const std::regex head(R"(^\d+\.\d{6} #\d+ )");
        static const std::regex times(R"(\b(us|late_us|timeout_us)=-?\d+)");
        return std::regex_replace(std::regex_replace(line, head, ""), times, "$1=N");
    }

private:
    RespConn conn_;
    std::string id_;
};

std::string id(RespConn &c) { return std::to_string(c.call({"CLIENT", "ID"}).integer); }

class TraceBlocking : public ::testing::Test {
protected:
    TestServer srv{{"--enable-debug-command", "yes"}};
    RespConn admin = srv.connect();

    void traceEvents(const std::string &categories) {
        ASSERT_EQ(admin.call({"CONFIG", "SET", "trace-events", categories}).str, "OK");
    }
};

/* Seed 003: the block, the wake, and the PING that waited behind the BLPOP
 * in A's query buffer, run by beforeSleep's processUnblockedClients. */
TEST_F(TraceBlocking, Seed003BlpopIsWokenByLpushAndThePipelinedPingRunsAfter) {
    RespConn a = srv.connect(), b = srv.connect();
    std::string ida = id(a), idb = id(b);
    traceEvents("cmd block");
    TraceReader trace(srv);

    a.send(encodeCommand({"BLPOP", "q", "0"}) + encodeCommand({"PING"}));
    EXPECT_EQ(trace.until("cmd processInputBuffer"),
              (std::vector<std::string>{
                  "block blockForKeys client=" + ida + " keys=q type=list timeout_ms=0",
                  "cmd call client=" + ida + " cmd=blpop args=\"q 0\" outcome=blocked us=N",
                  "cmd processInputBuffer client=" + ida + " pending_bytes=14 why=blocked",
              }));
    EXPECT_FALSE(a.waitReadable(Ms(0)));

    EXPECT_EQ(b.call({"LPUSH", "q", "x"}).integer, 1);
    EXPECT_EQ(trace.until("cmd call client=" + ida),
              (std::vector<std::string>{
                  "block signalKeyAsReady key=q db=0 by=lpush by_client=" + idb,
                  "cmd call client=" + idb + " cmd=lpush args=\"q x\" outcome=replied us=N",
                  "block handleClientsBlockedOnKeys client=" + ida +
                      " key=q round=1 result=\"served, key emptied\" reply=\"*2\\r\\n$1\\r\\nq\\r\\n$1\\r\\nx\\r\\n\"",
                  "block unblockClient client=" + ida + " reason=served",
                  "block queueClientForReprocessing client=" + ida + " pending_bytes=14",
                  "block processUnblockedClients client=" + ida + " pending_bytes=14",
                  "cmd call client=" + ida + " cmd=ping args=\"\" outcome=replied us=N",
              }));
    EXPECT_EQ(a.readReply().raw, "*2\r\n$1\r\nq\r\n$1\r\nx\r\n");
    EXPECT_EQ(a.readReply().raw, "+PONG\r\n");
}

/* LPUSH wakes a BRPOPLPUSH whose push wakes a BLPOP: the push signals dst
 * as the served BRPOPLPUSH's doing (it runs as its receiver), and dst's
 * waiter is served in a second round. */
TEST_F(TraceBlocking, ChainedBrpoplpushWakeIsASecondRound) {
    RespConn a = srv.connect(), c = srv.connect(), b = srv.connect();
    std::string ida = id(a), idc = id(c), idb = id(b);
    traceEvents("block");
    TraceReader trace(srv);
    a.cmd({"BRPOPLPUSH", "src", "dst", "0"});
    trace.until("block blockForKeys client=" + ida);
    c.cmd({"BLPOP", "dst", "0"});
    trace.until("block blockForKeys client=" + idc);

    EXPECT_EQ(b.call({"LPUSH", "src", "job"}).integer, 1);
    EXPECT_EQ(trace.until("block unblockClient client=" + idc, {"block signalKeyAsReady", "block handle",
                                                              "block unblockClient"}),
              (std::vector<std::string>{
                  "block signalKeyAsReady key=src db=0 by=lpush by_client=" + idb,
                  "block signalKeyAsReady key=dst db=0 by=brpoplpush by_client=" + ida,
                  "block handleClientsBlockedOnKeys client=" + ida +
                      " key=src round=1 result=\"served, key emptied\" reply=\"$3\\r\\njob\\r\\n\"",
                  "block unblockClient client=" + ida + " reason=served",
                  "block handleClientsBlockedOnKeys client=" + idc +
                      " key=dst round=2 result=\"served, key emptied\" reply=\"*2\\r\\n$3\\r\\ndst\\r\\n$3\\r\\njob\\r\\n\"",
                  "block unblockClient client=" + idc + " reason=served",
              }));
    EXPECT_EQ(a.readReply().raw, "$3\r\njob\r\n");
    EXPECT_EQ(c.readReply().raw, "*2\r\n$3\r\ndst\r\n$3\r\njob\r\n");
}

/* A timeout: the timeout table's time event fires, answers nil, and returns
 * AE_NOMORE (it is deleted; a new one is armed only for later deadlines). */
TEST_F(TraceBlocking, TimeoutIsATimeEventThatReturnsAeNomore) {
    RespConn a = srv.connect();
    std::string ida = id(a);
    traceEvents("loop block");
    TraceReader trace(srv);
    a.cmd({"BLPOP", "q", "0.05"});
    std::vector<std::string> lines =
        trace.until("block processUnblockedClients", {"block", "loop blockedClientsTimeoutProc"});
    ASSERT_EQ(lines.size(), 6u);
    EXPECT_TRUE(std::regex_match(lines[0], std::regex("block blockForKeys client=" + ida +
                                                      " keys=q type=list timeout_ms=50")))
        << lines[0];
    EXPECT_TRUE(std::regex_match(lines[1], std::regex(R"(loop blockedClientsTimeoutProc time_event=\d+ late_us=N)")))
        << lines[1];
    EXPECT_EQ(std::vector<std::string>(lines.begin() + 2, lines.end()),
              (std::vector<std::string>{
                  "block unblockClient client=" + ida + " reason=timeout",
                  "block queueClientForReprocessing client=" + ida + " pending_bytes=0",
                  "loop blockedClientsTimeoutProc end returned=AE_NOMORE then=deleted",
                  "block processUnblockedClients client=" + ida + " pending_bytes=0",
              }));
    EXPECT_EQ(a.readReply().raw, "*-1\r\n");
}

TEST_F(TraceBlocking, ClientUnblockAndDisconnectSayWhy) {
    RespConn a = srv.connect(), b = srv.connect();
    std::string ida = id(a), idb = id(b);
    traceEvents("block");
    TraceReader trace(srv);
    a.cmd({"BLPOP", "q", "0"});
    trace.until("block blockForKeys client=" + ida);
    EXPECT_EQ(admin.call({"CLIENT", "UNBLOCK", ida, "ERROR"}).integer, 1);
    EXPECT_EQ(trace.until("block unblockClient"),
              (std::vector<std::string>{"block unblockClient client=" + ida + " reason=\"CLIENT UNBLOCK ERROR\""}));
    EXPECT_EQ(a.readReply().raw, "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");

    b.cmd({"BLPOP", "q", "0"});
    trace.until("block blockForKeys client=" + idb);
    b.close();
    EXPECT_EQ(trace.until("block unblockClient"),
              (std::vector<std::string>{"block unblockClient client=" + idb + " reason=disconnect"}));
}

/* The wrong type, and an unknown command: errors, with their text. */
TEST_F(TraceBlocking, ErrorsAreTracedWithTheirText) {
    RespConn a = srv.connect();
    std::string ida = id(a);
    ASSERT_EQ(a.call({"SET", "s", "v"}).str, "OK");
    traceEvents("cmd");
    TraceReader trace(srv);
    a.call({"LPUSH", "s", "x"});
    EXPECT_EQ(trace.next(), "cmd call client=" + ida +
                                " cmd=lpush args=\"s x\" outcome=error error=\"-WRONGTYPE Operation against a key "
                                "holding the wrong kind of value\" us=N");
    a.call({"NOSUCH", "arg"});
    EXPECT_EQ(trace.next(), "cmd rejectCommand client=" + ida +
                                " cmd=NOSUCH args=arg error=\"unknown command 'NOSUCH', with args beginning with: "
                                "'arg' \"");
}

/* One request on one connection, as the loop shows it: the read, the call
 * nested in it, and beforeSleep writing the reply in the next iteration —
 * counting that client, not the trace's reader. */
TEST_F(TraceBlocking, LoopShowsTheReadTheCallAndBeforeSleepWritingTheReply) {
    RespConn a = srv.connect();
    std::string ida = id(a);
    traceEvents("loop cmd");
    TraceReader trace(srv);
    a.cmd({"PING"});
    std::vector<std::string> lines = trace.until("loop beforeSleep unblocked=0 aof_written=0 aof_fsynced=no "
                                                 "clients_written=1",
                                                 {"loop readQueryFromClient", "cmd", "loop beforeSleep"});
    ASSERT_GE(lines.size(), 3u);
    std::vector<std::string> last(lines.end() - 3, lines.end());
    EXPECT_TRUE(std::regex_match(last[0], std::regex(R"(loop readQueryFromClient fd=\d+ client=)" + ida +
                                                     " mask=readable")))
        << last[0];
    EXPECT_EQ(last[1], "cmd call client=" + ida + " cmd=ping args=\"\" outcome=replied us=N");
    EXPECT_EQ(last[2], "loop beforeSleep unblocked=0 aof_written=0 aof_fsynced=no clients_written=1 "
                       "bytes_written=7 us=N");
    EXPECT_EQ(a.readReply().raw, "+PONG\r\n");
}

}  // namespace

/* Seed 004: an idle client is closed by clientsCron once `timeout` has
 * passed; a blocked one (a BLPOP waits, it does not idle) is not. */
TEST_F(TraceBlocking, IdleTimeoutDisconnectIsClientsCronsDoing) {
    RespConn idle = srv.connect(), waiting = srv.connect();
    std::string idle_id = id(idle), waiting_id = id(waiting);
    waiting.cmd({"BLPOP", "q", "0"});
    ASSERT_EQ(admin.call({"CONFIG", "SET", "timeout", "1"}).str, "OK");
    traceEvents("cron block");
    TraceReader trace(srv);
    /* The admin connection idles too: whichever goes first, the idle one must
     * go, and the waiting one must not. */
    std::vector<std::string> closed;
    while (closed.size() < 2) {
        std::string line = trace.next();
        if (line.rfind("cron clientsCronHandleTimeout", 0) == 0) closed.push_back(line);
    }
    for (const std::string &line : closed) {
        EXPECT_TRUE(std::regex_match(line, std::regex(R"(cron clientsCronHandleTimeout client=\d+ idle_s=\d+ timeout_s=1)")))
            << line;
        EXPECT_EQ(line.find("client=" + waiting_id + " "), std::string::npos) << line;
    }
    EXPECT_TRUE(closed[0].find("client=" + idle_id + " ") != std::string::npos ||
                closed[1].find("client=" + idle_id + " ") != std::string::npos);
    idle.expectClosed();
}

/* No feedback: a reader too slow for its trace makes the server wait for
 * its socket (a write handler), yet none of that delivery shows in the
 * trace it reads — no sendReplyToClient of its own, even in iterations that
 * also serve another client. */
TEST_F(TraceBlocking, TheReadersOwnDeliveryIsNotTraced) {
    RespConn pinger = srv.connect();
    std::string idp = id(pinger);
    traceEvents("loop cmd");
    TraceReader trace(srv);
    /* Some 5 MB of trace, more than the sockets hold while nobody reads. */
    constexpr int kPings = 60000;
    std::string batch;
    for (int i = 0; i < kPings; i++) batch += "PING\r\n";
    pinger.send(batch);
    for (int i = 0; i < kPings; i++) ASSERT_EQ(pinger.readReply().raw, "+PONG\r\n");
    /* The reader's output waits for its socket: a write handler (events=rw). */
    ASSERT_TRUE(pollUntil([&] {
        return clientField(clientListLine(admin, "id", trace.id()), "events") == "rw";
    }));
    /* More requests while the reader drains, both ready when the server
     * wakes from a sleep: one iteration serves both. */
    admin.cmd({"DEBUG", "SLEEP", "0.2"});
    const std::string reader = "client=" + trace.id() + " ", ping = "cmd call client=" + idp + " cmd=ping";
    std::vector<std::string> lines;
    for (int i = 0; i < 50000; i++) lines.push_back(trace.nextRaw());
    pinger.send(batch);
    ASSERT_EQ(admin.readReply().raw, "+OK\r\n");
    int calls = 0;
    for (size_t i = 0; calls < 2 * kPings; i++) {
        std::string line = i < lines.size() ? lines[i] : trace.nextRaw();
        /* Its PSUBSCRIBE ran before it was a reader: a command like any. */
        if (line.find(" cmd=psubscribe args=__trace__:* ") == std::string::npos) {
            EXPECT_EQ(line.find(reader), std::string::npos) << line;
        }
        if (line.find(ping) != std::string::npos) calls++;
    }
    for (int i = 0; i < kPings; i++) ASSERT_EQ(pinger.readReply().raw, "+PONG\r\n");
}
