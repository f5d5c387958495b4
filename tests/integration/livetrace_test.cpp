/* livetrace_test.cpp — integration tests of the trace's outputs (livetrace_output.cpp):
 * CONFIG SET trace-events and the lines it publishes on __trace__:<category>
 * (nothing while off, a slow reader cut off by the pubsub output limit); the
 * TRACE command's file in Chrome's Trace Event Format (valid JSON, commands
 * on the loop's and their client's tracks, a blocked client's span and wake
 * arrow, MAXSIZE, completed at shutdown) and its errors; and
 * tools/trace_timeline.py drawing such a file.
 *
 * Nothing sleeps: the tests wait for replies and messages, poll TRACE
 * STATUS or PUBSUB NUMSUB, or run python3 to the end. */
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string kCategories = "loop cmd block encoding dict cron child";

std::string repoRoot() {
    return std::filesystem::absolute(std::filesystem::path(__FILE__)).parent_path().parent_path().parent_path();
}

/* python3 on `script` with the file as argv[1]: its stdout, or the failure. */
std::string python(const std::string &script, const std::string &path) {
    ProcessResult r = runProcess({"python3", "-c", script, path});
    if (r.exitCode != 0) return "python3 failed (" + std::to_string(r.exitCode) + "): " + r.err;
    return r.out;
}

/* "ok" if the file is one JSON document. */
std::string jsonCheck(const std::string &path) {
    return python("import json,sys; json.load(open(sys.argv[1])); print('ok', end='')", path);
}

class TraceTest : public FreshServerTest {
protected:
    TempDir dir;

    std::map<std::string, Reply> status() {
        Reply r = c.call({"TRACE", "STATUS"});
        std::map<std::string, Reply> fields;
        for (size_t i = 0; i + 1 < r.elements.size(); i += 2) fields[r.elements[i].str] = r.elements[i + 1];
        return fields;
    }
    bool fileOpen() { return status()["file-open"].str == "yes"; }
};

class TraceEvents : public TraceTest {};
class TraceFile : public TraceTest {};
class TraceTimeline : public TraceTest {};

/* ========================================================================
 * Live: trace-events and __trace__:<category>
 * ====================================================================== */

TEST_F(TraceEvents, ConfigSetRefusesAnUnknownCategory) {
    const std::string refused = err(
        "ERR CONFIG SET failed (possibly related to argument 'trace-events') - Invalid trace category 'loops'. "
        "Use 'all' or some of '" + kCategories + "'.");
    EXPECT_EQ(call({"CONFIG", "SET", "trace-events", "cmd loops"}), refused);
    EXPECT_EQ(call({"CONFIG", "GET", "trace-events"}), array({bulk("trace-events"), bulk("")}));
}

TEST_F(TraceEvents, ConfigGetReturnsTheCanonicalString) {
    auto roundTrip = [&](const std::string &set) {
        EXPECT_EQ(call({"CONFIG", "SET", "trace-events", set}), OK) << set;
        return c.call({"CONFIG", "GET", "trace-events"}).elements.at(1).str;
    };
    EXPECT_EQ(roundTrip("block,loop"), "loop block");
    EXPECT_EQ(roundTrip(" cmd  cmd "), "cmd");
    EXPECT_EQ(roundTrip("all"), kCategories);
    EXPECT_EQ(roundTrip(""), "");
}

/* While off nothing reaches a pattern subscriber: a message published
 * after the commands is the next thing it gets. On, their calls come. */
TEST_F(TraceEvents, PublishedOnlyWhileOn) {
    RespConn reader = srv.connect();
    reader.call({"PSUBSCRIBE", "__trace__:*"});
    RespConn other = srv.connect();
    auto nextChannelAfterCommands = [&](const std::string &marker) {
        pipeline(other, {{"SET", "k", "v"}, {"LPUSH", "l", "x"}, {"GET", "k"}});
        EXPECT_EQ(other.call({"PUBLISH", "__trace__:marker", marker}).raw, integer(1));
        return reader.readReply().elements.at(2).str;
    };
    EXPECT_EQ(nextChannelAfterCommands("off"), "__trace__:marker") << "an event was published while off";

    ASSERT_EQ(call({"CONFIG", "SET", "trace-events", "cmd"}), OK);
    other.call({"SET", "k", "v2"});
    bool seen = false;
    for (int i = 0; i < 10 && !seen; i++) {
        Reply m = reader.readReply();
        ASSERT_EQ(m.elements.at(2).str, "__trace__:cmd") << m;
        seen = m.elements.at(3).str.find(" cmd call client=") != std::string::npos &&
               m.elements.at(3).str.find("cmd=set") != std::string::npos;
    }
    EXPECT_TRUE(seen) << "no line for the SET";

    ASSERT_EQ(call({"CONFIG", "SET", "trace-events", ""}), OK);
    /* What was published before it went off is read first. */
    for (int i = 0; i < 20; i++) {
        std::string channel = nextChannelAfterCommands("off again");
        if (channel == "__trace__:marker") return;
        ASSERT_EQ(channel, "__trace__:cmd");
    }
    FAIL() << "still published after trace-events \"\"";
}

/* A reader that does not read is disconnected at the pubsub class's limit,
 * as any subscriber, and the server carries on. */
TEST_F(TraceEvents, SlowReaderIsCutOffByThePubsubLimit) {
    ASSERT_EQ(call({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 64kb 0 0"}), OK);
    RespConn slow = srv.connect();
    int small = 4096;
    setsockopt(slow.fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    slow.call({"SUBSCRIBE", "__trace__:cmd"});
    ASSERT_EQ(call({"CONFIG", "SET", "trace-events", "cmd"}), OK);
    RespConn worker = srv.connect();
    const std::vector<Args> batch(100, Args{"SET", "key", std::string(64, 'v')});
    auto readers = [&] { return c.call({"PUBSUB", "NUMSUB", "__trace__:cmd"}).elements.at(1).integer; };
    int batches = 0;
    for (; batches < 3000 && readers() == 1; batches++) pipeline(worker, batch);
    EXPECT_LT(batches, 3000) << "the reader was never cut off";
    EXPECT_TRUE(srv.waitForLog("for overcoming of output buffer limits."));
    EXPECT_EQ(worker.call({"PING"}).raw, "+PONG\r\n");
}

/* ========================================================================
 * The file: TRACE START / STOP / STATUS
 * ====================================================================== */

TEST_F(TraceFile, StartTwiceIsRefused) {
    const std::string first = dir.file("one.json");
    ASSERT_EQ(call({"TRACE", "START", first}), OK);
    EXPECT_EQ(call({"TRACE", "START", dir.file("two.json")}),
              err("ERR Tracing to a file is already on (" + first + "): TRACE STOP it first"));
    EXPECT_FALSE(std::filesystem::exists(dir.file("two.json")));
    EXPECT_EQ(call({"TRACE", "STOP"}), OK);
    EXPECT_EQ(jsonCheck(first), "ok");
}

TEST_F(TraceFile, UnwritablePathIsAnErrorAndTheServerCarriesOn) {
    const std::string path = dir.file("missing-dir/trace.json");
    EXPECT_EQ(call({"TRACE", "START", path}),
              err("ERR Can't open the trace file " + path + ": No such file or directory"));
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");
    EXPECT_FALSE(fileOpen());
    EXPECT_EQ(call({"TRACE", "STOP"}), err("ERR Tracing to a file is not on (TRACE START <path> starts it)"));
}

TEST_F(TraceFile, BadArgumentsAreRefused) {
    const std::string path = dir.file("t.json");
    EXPECT_EQ(call({"TRACE", "STOP"}), err("ERR Tracing to a file is not on (TRACE START <path> starts it)"));
    EXPECT_EQ(call({"TRACE", "START", path, "CATEGORIES", "cmd", "nope"}),
              err("ERR Invalid trace category 'nope'. Use 'all' or some of '" + kCategories + "'."));
    for (const char *bad : {"abc", "100", "-1mb"})
        EXPECT_EQ(call({"TRACE", "START", path, "MAXSIZE", bad}),
                  err(std::string("ERR Invalid MAXSIZE '") + bad +
                      "': a size in bytes (units kb, mb, gb allowed) of at least 1024"));
    EXPECT_EQ(call({"TRACE", "START", path, "CATEGORIES"}), SYNTAX);
    EXPECT_EQ(call({"TRACE", "START", path, "CATEGORIES", "MAXSIZE", "1mb"}), SYNTAX);
    EXPECT_EQ(call({"TRACE", "START", path, "FOREVER"}), SYNTAX);
    EXPECT_EQ(call({"TRACE", "START"}), err("ERR wrong number of arguments for 'trace|start' command"));
    EXPECT_FALSE(std::filesystem::exists(path)) << "a refused START created the file";
    EXPECT_FALSE(fileOpen());
}

/* A trace of some commands loads as JSON; each call is on the loop's track
 * and on its client's, which is named. */
TEST_F(TraceFile, TraceOfCommandsIsValidJsonWithTracks) {
    const std::string path = dir.file("t.json");
    RespConn other = srv.connect();
    const long long id = other.call({"CLIENT", "ID"}).integer;
    const long long own = c.call({"CLIENT", "ID"}).integer; /* TRACE STATUS is traced too */
    ASSERT_EQ(call({"TRACE", "START", path, "CATEGORIES", "loop", "cmd", "MAXSIZE", "10mb"}), OK);
    pipeline(other, {{"SET", "k", "quote\" tab\t bin\x01\xff"}, {"LPUSH", "l", "x"}, {"GET", "k"}});
    std::map<std::string, Reply> st = status();
    EXPECT_EQ(st["file-path"].str, path);
    EXPECT_EQ(st["file-categories"].str, "loop cmd");
    EXPECT_EQ(st["file-maxsize"].integer, 10 * 1024 * 1024);
    EXPECT_GT(st["file-events"].integer, 0);
    ASSERT_EQ(call({"TRACE", "STOP"}), OK);
    EXPECT_EQ(python("import json,sys\n"
                     "ev = json.load(open(sys.argv[1]))\n"
                     "calls = sorted({e['tid'] for e in ev if e.get('name') == 'call' and e['ph'] == 'X'})\n"
                     "names = sorted(e['args']['name'] for e in ev if e.get('name') == 'thread_name')\n"
                     "sets = [e['args']['args'] for e in ev if e.get('name') == 'call' and e['args'].get('cmd') == 'set']\n"
                     "print(calls, names, sets[0])",
                     path),
              "[0, " + std::to_string(own + 1) + ", " + std::to_string(id + 1) + "] ['client " + std::to_string(own) +
                  "', 'client " + std::to_string(id) + "', 'event loop'] " +
                  "k quote\" tab. bin..\n");
    st = status();
    EXPECT_EQ(st["file-open"].str, "no");
    EXPECT_EQ(st["file-bytes"].integer, static_cast<long long>(std::filesystem::file_size(path)));
}

/* BLPOP blocks, LPUSH wakes it: an async span from blockForKeys to
 * unblockClient on the waiter's track, an arrow from the signal to the
 * serving. The key's bytes (a tab, a control byte, one that is not UTF-8, a
 * quote) come out of the JSON as they went in. */
TEST_F(TraceFile, BlockedClientIsASpanAndTheWakeAFlow) {
    const std::string path = dir.file("t.json");
    const std::string key = "q\t\x01\xff\"";
    RespConn waiter = srv.connect();
    const long long id = waiter.call({"CLIENT", "ID"}).integer;
    ASSERT_EQ(call({"TRACE", "START", path, "CATEGORIES", "all"}), OK);
    waiter.cmd({"BLPOP", key, "0"});
    ASSERT_TRUE(pollUntil([&] { return infoNumber(c, "clients", "blocked_clients") == 1; }));
    EXPECT_EQ(call({"LPUSH", key, "x"}), integer(1));
    EXPECT_EQ(waiter.readReply().raw, array({bulk(key), bulk("x")}));
    ASSERT_EQ(call({"TRACE", "STOP"}), OK);
    char span[32];
    snprintf(span, sizeof span, "0x%llx", id);
    const std::string track = std::to_string(id + 1);
    EXPECT_EQ(python("import json,sys\n"
                     "ev = json.load(open(sys.argv[1]))\n"
                     "for e in ev:\n"
                     "    if e['ph'] in 'besf': print(e['ph'], e['name'], e['cat'], e['tid'], e['id'], e.get('bp', '-'))\n"
                     "print(ascii([e['args']['key'] for e in ev if e['name'] == 'signalKeyAsReady']))\n",
                     path),
              "b blocked block " + track + " " + span + " -\n" +
                  "s wake block 0 0x1 -\n" +
                  "f wake block " + track + " 0x1 e\n" +
                  "e blocked block " + track + " " + span + " -\n" +
                  "['q\\t\\x01\\xff\"']\n");
}

TEST_F(TraceFile, MaxsizeTruncatesAndTheFileStaysValid) {
    const std::string path = dir.file("t.json");
    ASSERT_EQ(call({"TRACE", "START", path, "MAXSIZE", "4kb", "CATEGORIES", "loop", "cmd"}), OK);
    RespConn other = srv.connect();
    for (int i = 0; i < 1000 && fileOpen(); i++) other.call({"SET", "k", "v"});
    std::map<std::string, Reply> st = status();
    ASSERT_EQ(st["file-open"].str, "no") << "never truncated";
    EXPECT_EQ(st["file-truncated"].str, "yes");
    EXPECT_LE(std::filesystem::file_size(path), 4096u);
    EXPECT_EQ(python("import json,sys; ev = json.load(open(sys.argv[1])); print(ev[-1]['name'], ev[-1]['args'])",
                     path),
              "trace truncated at MAXSIZE {'maxsize': 4096}\n");
    EXPECT_TRUE(srv.waitForLog("reached its MAXSIZE (4096 bytes): truncated and closed."));
    EXPECT_EQ(call({"TRACE", "STOP"}), err("ERR Tracing to a file is not on (TRACE START <path> starts it)"));
    EXPECT_EQ(call({"TRACE", "START", path}), OK) << "a new trace may start";
}

/* /dev/full opens and refuses every write: the first flush fails, the file
 * is closed and logged, and the server carries on; STOP says so if its own
 * flush is the one that fails. */
TEST_F(TraceFile, WriteErrorStopsTheFileAndTheServerCarriesOn) {
    ASSERT_EQ(call({"TRACE", "START", "/dev/full", "CATEGORIES", "loop", "cmd"}), OK);
    EXPECT_EQ(call({"TRACE", "STOP"}),
              err("ERR Error writing the trace file /dev/full: it is closed, incomplete. Check the server logs."));
    EXPECT_TRUE(srv.waitForLog("Error writing to the trace file /dev/full: No space left on device. "
                               "Tracing to the file stopped."));
    ASSERT_EQ(call({"TRACE", "START", "/dev/full", "CATEGORIES", "loop", "cmd"}), OK);
    RespConn other = srv.connect();
    const std::vector<Args> batch(100, Args{"SET", "key", std::string(64, 'v')});
    for (int i = 0; i < 1000 && fileOpen(); i++) pipeline(other, batch);
    std::map<std::string, Reply> st = status();
    EXPECT_EQ(st["file-open"].str, "no") << "the 64 KB buffer was never written";
    EXPECT_EQ(st["file-bytes"].integer, 0) << "nothing reached the file";
    EXPECT_EQ(other.call({"PING"}).raw, "+PONG\r\n");
}

TEST_F(TraceFile, ShutdownCompletesTheFile) {
    const std::string path = dir.file("t.json");
    ASSERT_EQ(call({"TRACE", "START", path}), OK);
    EXPECT_EQ(call({"SET", "k", "v"}), OK);
    c.send(encodeCommand({"SHUTDOWN", "NOSAVE"}));
    EXPECT_EQ(srv.waitExit(), 0);
    EXPECT_EQ(jsonCheck(path), "ok");
    EXPECT_NE(srv.log().find("Closing the trace file " + path), std::string::npos);
}

/* ========================================================================
 * tools/trace_timeline.py
 * ====================================================================== */

TEST_F(TraceTimeline, DrawsTheFileAsSvg) {
    const std::string path = dir.file("t.json");
    ASSERT_EQ(call({"TRACE", "START", path}), OK);
    pipeline(c, {{"SET", "k", "v"}, {"GET", "k"}});
    ASSERT_EQ(call({"TRACE", "STOP"}), OK);
    /* Also a file cut short, as a server that died leaves it. */
    std::string text = readFile(path);
    writeFile(dir.file("cut.json"), text.substr(0, text.rfind(']')));
    for (const std::string &in : {path, dir.file("cut.json")}) {
        const std::string out = in + ".svg";
        ProcessResult r = runProcess({"python3", repoRoot() + "/tools/trace_timeline.py", in, "-o", out});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        std::string svg = readFile(out);
        EXPECT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 200);
        EXPECT_NE(svg.find(">event loop<"), std::string::npos);
        EXPECT_NE(svg.find("</svg>"), std::string::npos);
    }
}

}  // namespace
