/* aof_test.cpp — the append-only file (issue 7, points 3 to 6; aof.cpp and
 * the propagation in server.cpp's call()).
 *
 *   AofFile       what is written: the same bytes Redis 7.0.15 writes for
 *                 the same commands (relative expiries as PXAT/PEXPIREAT,
 *                 INCRBYFLOAT as SET, SPOP as SREM, served blocking pops as
 *                 their non-blocking twins, EXEC as MULTI ... EXEC, SELECT
 *                 when the db changes), lazy and active expiry as DEL;
 *                 INFO persistence's aof_* fields and BGREWRITEAOF's replies
 *                 as Redis's.
 *   AofReplay     the file rebuilds the dataset (DEBUG DIGEST before and
 *                 after): restart, kill -9, DEBUG LOADAOF, BGREWRITEAOF
 *                 (also while writes continue), CONFIG SET appendonly.
 *   AofLoad       an old single appendonly.aof (Redis ≤ 6.2), moved into
 *                 the AOF directory as its base, with or without an RDB
 *                 preamble; damaged files: a torn last command or
 *                 transaction is cut off (or stops start-up with
 *                 aof-load-truncated no), a damaged middle stops start-up
 *                 and leaves the file alone; redis-check-aof accepts the
 *                 multi-part AOF cppredis writes. (aof_multipart_test.cpp
 *                 has the layout itself, on both servers.)
 *   AofFsync      under appendfsync always, a reply arrives only once its
 *                 write is in the file.
 *   AofCrash      the crash test, on cppredis and on Redis 7.0.15: writers
 *                 on several connections (crash_writers.h), kill -9 at
 *                 random moments, also with BGREWRITEAOF after BGREWRITEAOF
 *                 so that kills land inside rewrites, restart on the same
 *                 directory, and no acknowledged write lost (always), or
 *                 only from the last seconds (everysec). CRASH_CYCLES=N runs
 *                 N cycles of each (bench/crash_test.sh); the kill at each
 *                 single step of a rewrite is aof_crash_test.cpp's.
 *
 * Every server of a test runs in a directory the test owns (--dir), so a
 * restart finds the files. Nothing sleeps to let something happen: tests
 * wait for replies, log lines, or INFO fields.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "integration/crash_writers.h"
#include "integration/harness.h"
#include "integration/persistence_harness.h"
#include "integration/replies.h"

using namespace itest;
using Clock = std::chrono::steady_clock;

namespace {

/* ========================================================================
 * Helpers
 * ====================================================================== */

/* The RESP of a command: what the AOF holds for it. */
std::string cmd(const Args &args) { return encodeCommand(args); }

/* The options of a cppredis with its AOF in `dir`. */
std::vector<std::string> aofArgs(const TempDir &dir, const std::string &fsync = "always",
                                 std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--dir", dir.path(), "--appendonly", "yes", "--appendfsync", fsync,
                                  "--save", "", "--enable-debug-command", "yes"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

/* The incr file writes go to until a rewrite: the first one. */
std::string aofPath(const TempDir &dir) { return aofIncrFile(dir); }
std::string manifest(const TempDir &dir) { return readFile(dir.file("appendonlydir/appendonly.aof.manifest")); }
/* An AOF of Redis ≤ 6.2 (one file in `dir`), which start-up moves into
 * the AOF directory as its base. */
std::string oldStyleAofPath(const TempDir &dir) { return dir.file("appendonly.aof"); }
std::string upgradedAofPath(const TempDir &dir) { return dir.file("appendonlydir/appendonly.aof"); }

std::string digest(RespConn &c) { return c.call({"DEBUG", "DIGEST"}).str; }

/* A server restarted on the files in `dir` holds the dataset of digest
 * `live`. */
void expectDigestAfterRestart(const TempDir &dir, const std::string &live, const char *after) {
    TestServer srv(aofArgs(dir));
    RespConn c = srv.connect();
    EXPECT_EQ(digest(c), live) << "after " << after;
}

/* The bytes the file grew by since `before`. */
std::string aofSince(const TempDir &dir, size_t before) { return readFile(aofPath(dir)).substr(before); }

void waitRewriteDone(RespConn &c) {
    EXPECT_TRUE(pollUntil([&] {
        return infoField(c, "persistence", "aof_rewrite_in_progress") == "0" &&
               infoField(c, "persistence", "aof_rewrite_scheduled") == "0";
    }, Ms{20000}));
}

/* A server run to completion that must refuse to start: its exit code and
 * everything it logged. */
ProcessResult startExpectingFailure(const std::vector<std::string> &args) {
    std::vector<std::string> argv{CPPREDIS_SERVER_BIN, "--port", std::to_string(pickFreePort()), "--bind", "127.0.0.1"};
    argv.insert(argv.end(), args.begin(), args.end());
    return runProcess(argv);
}

/* Sends `blocking` on `waiter`, waits until the server counts it blocked,
 * runs `writes` on `admin`, and returns the waiter's reply. */
std::string serveBlocked(RespConn &admin, RespConn &waiter, const Args &blocking, const std::vector<Args> &writes) {
    waiter.cmd(blocking);
    EXPECT_TRUE(pollUntil([&] { return infoNumber(admin, "clients", "blocked_clients") == 1; }));
    for (const Args &w : writes) admin.call(w);
    return waiter.readReply().raw;
}

/* ========================================================================
 * AofFile: what is written, compared with Redis 7.0.15
 * ====================================================================== */

/* One session of commands whose propagation Redis 7 rewrites, run on a
 * server whose AOF is then read back. Nothing random (SPOP of a whole set
 * or of its only member), no short TTLs (active expiry would race). */
void runPropagationScript(RespConn &c, RespConn &waiter) {
    const std::vector<Args> script = {
        {"SET", "a", "1"}, {"SET", "b", "2", "EX", "100"}, {"SET", "b", "2", "PX", "100000"},
        {"SET", "b", "2", "EXAT", "2000000000"}, {"SET", "b", "2", "PXAT", "2000000000000"},
        {"SET", "b", "2", "KEEPTTL"}, {"SET", "b", "3", "GET"}, {"set", "b", "4", "get", "xx"},
        {"SET", "b", "3", "NX", "GET"}, {"SETEX", "c", "100", "v"}, {"PSETEX", "c", "100000", "v"},
        {"EXPIRE", "a", "100"}, {"PEXPIRE", "a", "100000"}, {"EXPIREAT", "a", "2000000000"},
        {"PEXPIREAT", "a", "2000000000000"}, {"EXPIRE", "a", "100", "GT"}, {"PEXPIRE", "a", "100000", "nx"},
        {"PERSIST", "a"}, {"PERSIST", "a"}, {"EXPIRE", "a", "-1"}, {"EXPIRE", "nokey", "10"},
        {"SET", "a", "1"}, {"GETEX", "a", "EX", "100"}, {"GETEX", "a", "PERSIST"}, {"GETEX", "a"},
        {"GETEX", "a", "PXAT", "1"}, {"SET", "a", "1"}, {"GETDEL", "a"}, {"GETDEL", "a"}, {"GETSET", "a", "5"},
        {"INCRBYFLOAT", "f", "1.5"}, {"INCRBYFLOAT", "f", "1e3"}, {"HINCRBYFLOAT", "h", "f", "2.5"},
        {"SADD", "s", "1"}, {"SPOP", "s"}, {"SADD", "s", "1", "2", "3"}, {"SPOP", "s", "5"}, {"SPOP", "s", "0"},
        {"INCR", "i"}, {"DEL", "nothing"},
        /* Transactions: one write is not wrapped, several are. */
        {"MULTI"}, {"SET", "a", "1"}, {"GET", "a"}, {"EXEC"},
        {"MULTI"}, {"SET", "a", "1"}, {"INCR", "a"}, {"EXEC"},
        {"MULTI"}, {"GET", "a"}, {"EXEC"},
        {"SELECT", "2"}, {"MULTI"}, {"SET", "a", "1"}, {"SELECT", "3"}, {"SET", "b", "1"}, {"EXEC"},
        {"SELECT", "5"}, {"SET", "q", "1"}, {"SELECT", "0"},
        {"MULTI"}, {"INCRBYFLOAT", "a", "1.5"}, {"SETEX", "x", "100", "y"}, {"EXEC"},
        {"MULTI"}, {"SET", "a", "1"}, {"INCR", "notanint"}, {"EXEC"},
        /* Blocking commands that find their key: their non-blocking twins. */
        {"RPUSH", "l", "a", "b", "c", "d", "e", "f", "g"}, {"BLPOP", "l", "0"}, {"BRPOP", "l", "0"},
        {"BRPOPLPUSH", "l", "l2", "0"}, {"BLMOVE", "l", "l2", "left", "right", "0"},
        {"BLMOVE", "l", "l2", "LEFT", "RIGHT", "0"}, {"BLMPOP", "0", "1", "l", "LEFT"},
        {"BLMPOP", "0", "1", "l", "RIGHT", "COUNT", "5"}, {"LMPOP", "1", "l2", "left", "COUNT", "2"},
        {"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"}, {"BZPOPMIN", "z", "0"},
        {"BZPOPMAX", "z", "0"}, {"BZMPOP", "0", "1", "z", "MIN", "COUNT", "2"},
        {"ZMPOP", "1", "z", "MAX", "COUNT", "7"},
        {"ZPOPMIN", "nothing"}, {"FLUSHDB"}, {"FLUSHDB"}, {"FLUSHALL"},
    };
    for (const Args &a : script) c.call(a);
    /* Blocked, then served by another client's write. */
    serveBlocked(c, waiter, {"BLPOP", "q", "0"}, {{"LPUSH", "q", "x"}});
    serveBlocked(c, waiter, {"BRPOP", "q", "0"}, {{"LPUSH", "q", "x", "y"}, {"DEL", "q"}});
    serveBlocked(c, waiter, {"BLMPOP", "0", "1", "q", "LEFT", "COUNT", "5"}, {{"RPUSH", "q", "a", "b", "c"}});
    serveBlocked(c, waiter, {"BLMPOP", "0", "1", "q2", "RIGHT"}, {{"RPUSH", "q2", "a", "b", "c"}, {"DEL", "q2"}});
    serveBlocked(c, waiter, {"BRPOPLPUSH", "q3", "d", "0"}, {{"RPUSH", "q3", "a", "b"}, {"DEL", "q3", "d"}});
    serveBlocked(c, waiter, {"BLMOVE", "q4", "d", "RIGHT", "LEFT", "0"},
                 {{"RPUSH", "q4", "a", "b"}, {"DEL", "q4", "d"}});
    serveBlocked(c, waiter, {"BZPOPMIN", "z", "0"}, {{"ZADD", "z", "1", "a", "2", "b"}, {"DEL", "z"}});
    serveBlocked(c, waiter, {"BZMPOP", "0", "1", "z2", "MAX", "COUNT", "5"}, {{"ZADD", "z2", "1", "a", "2", "b"}});
    serveBlocked(c, waiter, {"BZPOPMAX", "z3", "0"},
                 {{"MULTI"}, {"ZADD", "z3", "1", "a"}, {"ZADD", "z3", "2", "b"}, {"EXEC"}, {"DEL", "z3"}});
    serveBlocked(c, waiter, {"BLPOP", "q5", "0"},
                 {{"MULTI"}, {"RPUSH", "q5", "a"}, {"RPUSH", "q5", "b"}, {"DEL", "q5"}, {"RPUSH", "q5", "c"},
                  {"EXEC"}});
    /* In another db: the served pop's SELECT. */
    waiter.call({"SELECT", "4"});
    c.call({"SELECT", "4"});
    serveBlocked(c, waiter, {"BLMOVE", "q6", "q7", "LEFT", "LEFT", "0"}, {{"RPUSH", "q6", "a"}});
}

TEST(AofFile, SameBytesAsRedis7) {
    REQUIRE_REDIS_REFERENCE();
    std::string theirs = aofWrittenBy(ServerImpl::Redis, runPropagationScript);
    ASSERT_FALSE(theirs.empty());
    EXPECT_EQ(escape(maskUnixMs(aofWrittenBy(ServerImpl::Cppredis, runPropagationScript)), 1 << 20),
              escape(maskUnixMs(theirs), 1 << 20));
}

/* SPOP with a count below the set's size: an SREM per member popped, in one
 * MULTI, the members those of the reply (Redis 7.0). */
TEST(AofFile, SpopWithCountIsSremsInOneTransaction) {
    TempDir dir;
    TestServer srv(aofArgs(dir));
    RespConn c = srv.connect();
    c.call({"SADD", "s", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"});
    for (const char *count : {"3", "6"}) { /* pops at random, then keeps at random */
        size_t before = readFile(aofPath(dir)).size();
        Reply popped = c.call({"SPOP", "s", count});
        std::string expected = cmd({"MULTI"});
        for (const Reply &m : popped.elements) expected += cmd({"SREM", "s", m.str});
        expected += cmd({"EXEC"});
        EXPECT_EQ(escape(aofSince(dir, before)), escape(expected)) << "SPOP s " << count;
    }
}

/* A key expired when a write looks it up: the DEL and the write in one
 * MULTI, as Redis 7.0 writes it; a read alone: the DEL. At hz 1 the active
 * cycle rarely deletes the key first; when it does, the test tries again. */
TEST(AofFile, LazyExpiryIsADelBeforeTheCommand) {
    TempDir dir;
    TestServer srv(aofArgs(dir, "always", {"--hz", "1"}));
    RespConn c = srv.connect();
    const std::string expected =
        cmd({"MULTI"}) + cmd({"DEL", "k"}) + cmd({"SET", "k", "v2"}) + cmd({"EXEC"}) + cmd({"DEL", "r"});
    std::string grown;
    for (int attempt = 0; attempt < 5 && grown != expected; attempt++) {
        c.call({"SET", "k", "v", "PX", "1"});
        c.call({"SET", "r", "v", "PX", "1"});
        waitMs(3);
        size_t before = readFile(aofPath(dir)).size();
        long long expired = infoNumber(c, "stats", "expired_keys");
        c.call({"SET", "k", "v2"});
        c.call({"GET", "r"});
        grown = aofSince(dir, before);
        /* Another shape is a failure unless the active cycle won the race. */
        if (grown != expected && infoNumber(c, "stats", "expired_keys") == expired + 2) break;
    }
    EXPECT_EQ(escape(grown), escape(expected));
}

/* The active cycle's expiry is a DEL of its own, outside any command. */
TEST(AofFile, ActiveExpiryIsADel) {
    TempDir dir;
    TestServer srv(aofArgs(dir, "always", {"--hz", "100"}));
    RespConn c = srv.connect();
    size_t before = readFile(aofPath(dir)).size();
    c.call({"SET", "k", "v", "PX", "1"});
    ASSERT_TRUE(pollUntil([&] { return infoNumber(c, "stats", "expired_keys") == 1; }));
    c.call({"PING"}); /* the DEL is written before this reply leaves */
    EXPECT_EQ(escape(maskUnixMs(aofSince(dir, before))),
              escape(maskUnixMs(cmd({"SELECT", "0"}) + cmd({"SET", "k", "v", "PXAT", "1000000000000"}) +
                               cmd({"DEL", "k"}))));
}

/* With the AOF off nothing is written, nor created. */
TEST(AofFile, NothingWithTheAofOff) {
    TempDir dir;
    TestServer srv({"--dir", dir.path(), "--save", ""});
    RespConn c = srv.connect();
    c.call({"SET", "a", "1"});
    EXPECT_FALSE(std::filesystem::exists(dir.file("appendonlydir")));
}

/* INFO persistence: the aof_* fields of Redis 7.0, in its order, with the
 * AOF off and on. */
TEST(AofFile, InfoPersistenceFieldsAsRedis7) {
    REQUIRE_REDIS_REFERENCE();
    TempDir ours, theirs;
    auto names = [](RespConn &c) {
        std::string text = c.call({"INFO", "persistence"}).str;
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (line.starts_with("aof_") || line.starts_with("module_fork"))
                out.push_back(line.substr(0, line.find(':')));
        return out;
    };
    for (bool on : {false, true}) {
        TestServer srv({"--dir", ours.path(), "--save", "", "--appendonly", on ? "yes" : "no"});
        RedisReference ref({"--dir", theirs.path(), "--appendonly", on ? "yes" : "no"});
        RespConn a = srv.connect(), b = ref.connect();
        EXPECT_EQ(names(a), names(b)) << "appendonly " << (on ? "yes" : "no");
        EXPECT_EQ(infoField(a, "persistence", "aof_enabled"), on ? "1" : "0");
    }
}

/* BGREWRITEAOF: started; already in progress while the child runs;
 * scheduled inside a transaction (the fork waits for EXEC's end). */
class AofRewriteReplies : public EitherServerTest {};

TEST_P(AofRewriteReplies, StartedInProgressScheduled) {
    call({"SET", "a", "1"});
    call({"SET", "b", "1"});
    call({"CONFIG", "SET", "rdb-key-save-delay", "200000"}); /* 0.2 s per key: the child runs a while */
    EXPECT_EQ(call({"BGREWRITEAOF"}), "+Background append only file rewriting started\r\n");
    EXPECT_EQ(call({"BGREWRITEAOF"}), err("ERR Background append only file rewriting already in progress"));
    EXPECT_EQ(infoField(*c, "persistence", "aof_rewrite_in_progress"), "1");
    call({"CONFIG", "SET", "rdb-key-save-delay", "0"});
    waitRewriteDone(*c);
    call({"MULTI"});
    call({"BGREWRITEAOF"});
    EXPECT_EQ(call({"EXEC"}), array({"+Background append only file rewriting scheduled\r\n"}));
    waitRewriteDone(*c);
    EXPECT_EQ(infoField(*c, "persistence", "aof_rewrites"), "2");
    EXPECT_EQ(infoField(*c, "persistence", "aof_last_bgrewrite_status"), "ok");
}

/* One child at a time: behind a BGSAVE, the rewrite is scheduled and starts
 * when the save is over. */
TEST_P(AofRewriteReplies, ScheduledBehindABgsave) {
    call({"SET", "a", "1"});
    call({"CONFIG", "SET", "rdb-key-save-delay", "200000"});
    EXPECT_EQ(call({"BGSAVE"}), "+Background saving started\r\n");
    EXPECT_EQ(call({"BGREWRITEAOF"}), "+Background append only file rewriting scheduled\r\n");
    EXPECT_EQ(infoField(*c, "persistence", "aof_rewrite_scheduled"), "1");
    call({"CONFIG", "SET", "rdb-key-save-delay", "0"});
    waitRewriteDone(*c);
    EXPECT_EQ(infoField(*c, "persistence", "aof_rewrites"), "1");
    EXPECT_EQ(infoField(*c, "persistence", "rdb_last_bgsave_status"), "ok");
}

/* SHUTDOWN while `appendonly yes` waits for its first rewrite would lose
 * the data (the file does not hold it yet): refused, as Redis 7.0 does. */
TEST_P(AofRewriteReplies, ShutdownRefusedWhileTheFirstRewriteRuns) {
    call({"SET", "a", "1"});
    call({"SET", "b", "1"});
    call({"CONFIG", "SET", "rdb-key-save-delay", "200000"});
    EXPECT_EQ(call({"CONFIG", "SET", "appendonly", "yes"}), OK);
    EXPECT_EQ(infoField(*c, "persistence", "aof_rewrite_in_progress"), "1");
    EXPECT_EQ(call({"SHUTDOWN"}), err("ERR Errors trying to SHUTDOWN. Check logs."));
    EXPECT_TRUE(srv->waitForLog("Writing initial AOF, can't exit."));
    call({"CONFIG", "SET", "rdb-key-save-delay", "0"});
    waitRewriteDone(*c);
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");
}

/* SHUTDOWN FORCE exits all the same (the rewrite child is killed), with
 * Redis 7.0's log line. */
TEST_P(AofRewriteReplies, ShutdownForceExitsWhileTheFirstRewriteRuns) {
    call({"SET", "a", "1"});
    call({"SET", "b", "1"});
    call({"CONFIG", "SET", "rdb-key-save-delay", "200000"});
    EXPECT_EQ(call({"CONFIG", "SET", "appendonly", "yes"}), OK);
    EXPECT_EQ(infoField(*c, "persistence", "aof_rewrite_in_progress"), "1");
    c->cmd({"SHUTDOWN", "FORCE"});
    c->expectClosed();
    EXPECT_EQ(srv->waitExit(), 0);
    EXPECT_NE(srv->log().find("Writing initial AOF. Exit anyway."), std::string::npos) << srv->log();
    EXPECT_NE(srv->log().find("There is a child rewriting the AOF. Killing it!"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Servers, AofRewriteReplies, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* The AOF directives, their values and errors, as Redis 7.0's. */
TEST(AofFile, ConfigDirectivesAsRedis7) {
    REQUIRE_REDIS_REFERENCE();
    TestServer srv;
    RedisReference ref;
    RespConn ours = srv.connect(), theirs = ref.connect();
    expectSameScript(ours, theirs,
                     {{"CONFIG", "SET", "appendfsync", "bad"}, {"CONFIG", "SET", "appendfsync", "ALWAYS"},
                      {"CONFIG", "GET", "appendfsync"}, {"CONFIG", "SET", "appendfilename", "x"},
                      {"CONFIG", "GET", "appendfilename"}, {"CONFIG", "SET", "auto-aof-rewrite-percentage", "-1"},
                      {"CONFIG", "SET", "auto-aof-rewrite-min-size", "1x"},
                      {"CONFIG", "SET", "auto-aof-rewrite-min-size", "1mb"},
                      {"CONFIG", "GET", "auto-aof-rewrite-min-size"},
                      {"CONFIG", "GET", "auto-aof-rewrite-percentage"},
                      {"CONFIG", "SET", "appendonly", "maybe"}, {"CONFIG", "SET", "aof-load-truncated", "2"},
                      {"CONFIG", "GET", "aof-load-truncated"}, {"CONFIG", "GET", "no-appendfsync-on-rewrite"},
                      {"CONFIG", "GET", "aof-rewrite-incremental-fsync"}, {"BGREWRITEAOF", "x"}});
}

/* ========================================================================
 * AofReplay: the file rebuilds the dataset
 * ====================================================================== */

/* Every type and encoding (lists, hashes, sets and sorted sets across their
 * conversion thresholds), expiries, several dbs, transactions, served
 * blocking pops, SPOP, float increments, keyspace commands. */
void runMixedWorkload(RespConn &c, RespConn &waiter) {
    std::vector<Args> cmds;
    for (int db : {0, 3, 15}) {
        std::string n = std::to_string(db);
        cmds.push_back({"SELECT", n});
        cmds.push_back({"SET", "str" + n, "hello"});
        cmds.push_back({"SET", "int" + n, "12345"});
        cmds.push_back({"SET", "ttl" + n, "v", "EX", "1000"});
        cmds.push_back({"SETEX", "ttl2" + n, "500", "v"});
        cmds.push_back({"INCRBYFLOAT", "float" + n, "3.0e-1"});
        cmds.push_back({"APPEND", "str" + n, " world"});
        Args small{"RPUSH", "list" + n}, big{"RPUSH", "biglist" + n}, ints{"SADD", "intset" + n},
            strs{"SADD", "set" + n}, zs{"ZADD", "zset" + n}, bigz{"ZADD", "bigzset" + n}, hs{"HSET", "hash" + n},
            bigh{"HSET", "bighash" + n};
        for (int i = 0; i < 600; i++) {
            std::string v = std::to_string(i);
            if (i < 10) small.push_back("e" + v);
            big.push_back(i == 300 ? std::string(65, 'x') : v);
            if (i < 513) ints.push_back(v);
            if (i < 20) strs.push_back("m" + v);
            if (i < 20) zs.insert(zs.end(), {std::to_string(i * 1.5), "z" + v});
            if (i < 129) bigz.insert(bigz.end(), {v, "member" + v});
            if (i < 10) hs.insert(hs.end(), {"f" + v, v});
            if (i < 513) bigh.insert(bigh.end(), {"field" + v, "value" + v});
        }
        for (Args *a : {&small, &big, &ints, &strs, &zs, &bigz, &hs, &bigh}) cmds.push_back(*a);
        cmds.push_back({"EXPIRE", "list" + n, "3000"});
        cmds.push_back({"HINCRBYFLOAT", "hash" + n, "f1", "0.25"});
        cmds.push_back({"ZINCRBY", "zset" + n, "2.5", "z3"});
        cmds.push_back({"SPOP", "set" + n, "3"});
        cmds.push_back({"LPOP", "biglist" + n, "5"});
        cmds.push_back({"LSET", "list" + n, "0", "first"});
        cmds.push_back({"MULTI"});
        cmds.push_back({"INCR", "counter" + n});
        cmds.push_back({"RPUSH", "list" + n, "in-multi"});
        cmds.push_back({"PEXPIRE", "str" + n, "900000"});
        cmds.push_back({"EXEC"});
        cmds.push_back({"RENAME", "int" + n, "renamed" + n});
        cmds.push_back({"COPY", "hash" + n, "hashcopy" + n});
        cmds.push_back({"GETEX", "float" + n, "PERSIST"});
    }
    cmds.push_back({"SELECT", "0"});
    cmds.push_back({"MOVE", "str0", "7"});
    cmds.push_back({"SET", "gone", "x"});
    cmds.push_back({"SELECT", "9"});
    cmds.push_back({"SET", "dropped", "x"});
    cmds.push_back({"FLUSHDB"});
    cmds.push_back({"SELECT", "0"});
    pipeline(c, cmds);
    c.call({"DEL", "gone"});
    serveBlocked(c, waiter, {"BLPOP", "queue", "0"}, {{"RPUSH", "queue", "a", "b", "c"}});
    serveBlocked(c, waiter, {"BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"}, {{"RPUSH", "src", "x", "y"}});
    serveBlocked(c, waiter, {"BZPOPMIN", "zq", "0"}, {{"ZADD", "zq", "1", "a", "2", "b"}});
}

TEST(AofReplay, MixedWorkloadReplaysToTheSameDigest) {
    TempDir dir;
    std::string live;
    {
        TestServer srv(aofArgs(dir));
        RespConn c = srv.connect(), w = srv.connect();
        runMixedWorkload(c, w);
        live = digest(c);
        ASSERT_NE(live, std::string(40, '0'));
        EXPECT_EQ(c.call({"DEBUG", "LOADAOF"}).raw, OK);
        EXPECT_EQ(digest(c), live) << "after DEBUG LOADAOF";
        EXPECT_TRUE(srv.waitForLog("Append Only File loaded by DEBUG LOADAOF"));
    }
    {
        TestServer srv(aofArgs(dir)); /* restarted after SIGTERM */
        RespConn c = srv.connect();
        EXPECT_EQ(digest(c), live) << "after a restart";
        EXPECT_TRUE(srv.waitForLog("DB loaded from append only file"));
        c.call({"SET", "after", "restart"});
        live = digest(c);
        srv.kill9();
    }
    {
        TestServer srv(aofArgs(dir));
        RespConn c = srv.connect();
        EXPECT_EQ(digest(c), live) << "after kill -9";
        EXPECT_EQ(c.call({"BGREWRITEAOF"}).str, "Background append only file rewriting started");
        waitRewriteDone(c);
        EXPECT_TRUE(srv.waitForLog("Background AOF rewrite finished successfully"));
        EXPECT_TRUE(readFile(dir.file("appendonlydir/appendonly.aof.2.base.rdb")).starts_with("REDIS"))
            << "no RDB base: " << manifest(dir);
        c.call({"SET", "after", "rewrite"});
        live = digest(c);
    }
    expectDigestAfterRestart(dir, live, "BGREWRITEAOF");
}

/* The rewrite child works on the dataset of the fork while writes go on:
 * those land in the incr file opened at the fork, which the new manifest
 * keeps after the child's base. rdb-key-save-delay slows the child down so
 * that the writes surely overlap it. The base is commands here
 * (aof-use-rdb-preamble no), to be read. */
TEST(AofReplay, RewriteWhileWritesContinue) {
    TempDir dir;
    std::string live;
    long long during = 0;
    {
        TestServer srv(aofArgs(dir, "everysec", {"--aof-use-rdb-preamble", "no"}));
        RespConn c = srv.connect();
        std::vector<Args> fill;
        for (int i = 0; i < 200; i++) fill.push_back({"RPUSH", "list" + std::to_string(i % 10), std::to_string(i)});
        pipeline(c, fill);
        c.call({"CONFIG", "SET", "rdb-key-save-delay", "20000"}); /* 10 keys: 0.2 s */
        std::atomic<bool> stop = false;
        std::atomic<long long> acked = 0;
        std::thread writer([&] {
            RespConn w = srv.connect();
            for (long long i = 1; !stop; i++) {
                pipeline(w, {{"INCR", "counter"}, {"RPUSH", "list" + std::to_string(i % 12), "w" + std::to_string(i)}});
                acked = i;
            }
        });
        pollUntil([&] { return acked > 50; });
        EXPECT_EQ(c.call({"BGREWRITEAOF"}).str, "Background append only file rewriting started");
        long long at_fork = acked;
        waitRewriteDone(c);
        during = acked - at_fork;
        stop = true;
        writer.join();
        EXPECT_TRUE(srv.waitForLog("Background AOF rewrite finished successfully"));
        EXPECT_EQ(c.call({"GET", "counter"}).str, std::to_string(acked.load()));
        live = digest(c);
    }
    EXPECT_GT(during, 0) << "no write happened while the child rewrote";
    /* The child wrote the counter as the value it saw, a SET. */
    EXPECT_NE(readFile(dir.file("appendonlydir/appendonly.aof.2.base.aof")).find("*3\r\n$3\r\nSET\r\n$7\r\ncounter\r\n"),
              std::string::npos) << "not a rewritten base: " << manifest(dir);
    EXPECT_EQ(manifest(dir), "file appendonly.aof.2.base.aof seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n");
    EXPECT_NE(readFile(dir.file("appendonlydir/appendonly.aof.2.incr.aof")).find("INCR"), std::string::npos)
        << "the writes made during the rewrite are not in the new incr file";
    expectDigestAfterRestart(dir, live, "the rewrite");
}

/* A file grown past auto-aof-rewrite-min-size by auto-aof-rewrite-percentage
 * since the last rewrite (or start-up) is rewritten on its own. */
TEST(AofReplay, AutomaticRewriteOnGrowth) {
    TempDir dir;
    std::string live;
    {
        TestServer srv(aofArgs(dir, "everysec",
                               {"--auto-aof-rewrite-min-size", "4kb", "--hz", "100", "--aof-use-rdb-preamble", "no"}));
        RespConn c = srv.connect();
        std::vector<Args> writes;
        for (int i = 0; i < 300; i++) writes.push_back({"INCR", "counter"});
        pipeline(c, writes);
        EXPECT_TRUE(srv.waitForLog("Starting automatic rewriting of AOF on"));
        EXPECT_TRUE(srv.waitForLog("Background AOF rewrite finished successfully"));
        EXPECT_EQ(infoField(c, "persistence", "aof_base_size"), infoField(c, "persistence", "aof_current_size"));
        c.call({"INCR", "counter"});
        live = digest(c);
    }
    EXPECT_TRUE(readFile(dir.file("appendonlydir/appendonly.aof.2.base.aof"))
                    .starts_with(cmd({"SELECT", "0"}) + cmd({"SET", "counter", "300"})))
        << manifest(dir);
    expectDigestAfterRestart(dir, live, "the automatic rewrite");
}

/* CONFIG SET appendonly yes writes the file from the dataset (a rewrite),
 * then appends; appendonly no closes it: later writes are not in it. */
TEST(AofReplay, ConfigSetAppendonly) {
    TempDir dir;
    std::string live;
    {
        TestServer srv({"--dir", dir.path(), "--save", "", "--enable-debug-command", "yes"});
        RespConn c = srv.connect(), w = srv.connect();
        runMixedWorkload(c, w);
        EXPECT_EQ(c.call({"CONFIG", "SET", "appendonly", "yes"}).raw, OK);
        waitRewriteDone(c);
        EXPECT_EQ(infoField(c, "persistence", "aof_enabled"), "1");
        c.call({"SET", "after", "enable"});
        live = digest(c);
        EXPECT_EQ(c.call({"CONFIG", "SET", "appendonly", "no"}).raw, OK);
        EXPECT_EQ(infoField(c, "persistence", "aof_enabled"), "0");
        c.call({"SET", "after", "disable"}); /* not in the file: the digest says "enable" */
    }
    expectDigestAfterRestart(dir, live, "CONFIG SET appendonly");
}

/* ========================================================================
 * AofLoad: damaged files, redis-check-aof
 * ====================================================================== */

const std::string kGoodAof = cmd({"SELECT", "0"}) + cmd({"SET", "a", "1"}) + cmd({"RPUSH", "l", "x", "y"});

/* These start on an old single appendonly.aof (Redis ≤ 6.2's layout): the
 * upgrade moves it into the AOF directory as the only file, the last one,
 * which aof-load-truncated may cut. */
TEST(AofLoad, TornLastCommandIsCutOff) {
    TempDir dir;
    std::string torn = cmd({"SET", "b", "2"}).substr(0, 17);
    writeFile(oldStyleAofPath(dir), kGoodAof + torn);
    TestServer srv(aofArgs(dir));
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"GET", "a"}).str, "1");
    EXPECT_EQ(c.call({"EXISTS", "b"}).integer, 0);
    EXPECT_TRUE(srv.waitForLog("Successfully migrated an old-style AOF file (appendonly.aof) into the AOF directory "
                               "(appendonlydir)."));
    EXPECT_TRUE(srv.waitForLog("!!! Warning: short read while loading the AOF file appendonly.aof!!!"));
    EXPECT_TRUE(srv.waitForLog("!!! Truncating the AOF appendonly.aof at offset " + std::to_string(kGoodAof.size()) +
                               " !!!"));
    EXPECT_TRUE(srv.waitForLog("AOF appendonly.aof loaded anyway because aof-load-truncated is enabled"));
    c.call({"SET", "c", "3"}); /* in the new incr file */
    EXPECT_EQ(escape(readFile(upgradedAofPath(dir))), escape(kGoodAof));
    EXPECT_EQ(escape(readFile(aofPath(dir))), escape(cmd({"SELECT", "0"}) + cmd({"SET", "c", "3"})));
    EXPECT_EQ(manifest(dir), "file appendonly.aof seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n");
}

TEST(AofLoad, TornTailStopsStartupWithoutAofLoadTruncated) {
    TempDir dir;
    std::string file = kGoodAof + "*2\r\n$3\r\nDEL";
    writeFile(oldStyleAofPath(dir), file);
    ProcessResult r = startExpectingFailure(aofArgs(dir, "always", {"--aof-load-truncated", "no"}));
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("Unexpected end of file reading the append only file appendonly.aof. You can: 1) Make a "
                         "backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>."),
              std::string::npos) << r.out;
    EXPECT_EQ(readFile(upgradedAofPath(dir)), file) << "the file must be left as it was";
}

/* A file that ends inside MULTI: the transaction never ran; it goes. */
TEST(AofLoad, IncompleteTransactionIsReverted) {
    TempDir dir;
    writeFile(oldStyleAofPath(dir), kGoodAof + cmd({"MULTI"}) + cmd({"INCR", "n"}) + cmd({"INCR", "n"}));
    TestServer srv(aofArgs(dir));
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"EXISTS", "n"}).integer, 0);
    EXPECT_EQ(c.call({"LRANGE", "l", "0", "-1"}).raw, bulks({"x", "y"}));
    EXPECT_TRUE(srv.waitForLog("Revert incomplete MULTI/EXEC transaction in AOF file appendonly.aof"));
    EXPECT_EQ(readFile(upgradedAofPath(dir)), kGoodAof);
}

/* Damage in the middle is not a crash's torn tail: start-up stops, the file
 * stays as it is, whatever aof-load-truncated says. */
TEST(AofLoad, DamagedMiddleStopsStartup) {
    TempDir dir;
    std::string file = kGoodAof + "*3\r\n$3\r\nSET\r\n$1\r\nb\r\nX1\r\nv\r\n" + kGoodAof;
    writeFile(oldStyleAofPath(dir), file);
    ProcessResult r = startExpectingFailure(aofArgs(dir));
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("Bad file format reading the append only file appendonly.aof: make a backup of your AOF "
                         "file, then use ./redis-check-aof --fix <filename.manifest>"),
              std::string::npos) << r.out;
    EXPECT_EQ(readFile(upgradedAofPath(dir)), file);
}

TEST(AofLoad, UnknownCommandOrArityStopsStartup) {
    for (const auto &[bad, message] :
         std::vector<std::pair<std::string, std::string>>{
             {cmd({"NOSUCHCMD", "x"}), "Unknown command 'NOSUCHCMD' reading the append only file appendonly.aof"},
             {cmd({"SET", "x"}), "Wrong number of arguments for 'set' reading the append only file appendonly.aof"}}) {
        TempDir dir;
        writeFile(oldStyleAofPath(dir), kGoodAof + bad + kGoodAof);
        ProcessResult r = startExpectingFailure(aofArgs(dir));
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_NE(r.out.find(message), std::string::npos) << r.out;
    }
}

/* A Redis 4-6.2 AOF with its RDB preamble (aof-use-rdb-preamble, the
 * default since 5.0): the RDB, then the commands after it. */
TEST(AofLoad, OldStyleRdbPreambleThenItsTail) {
    TempDir dir;
    {
        TestServer srv({"--dir", dir.path(), "--save", ""});
        RespConn c = srv.connect();
        c.call({"SET", "a", "1"});
        c.call({"RPUSH", "l", "x", "y"});
        ASSERT_EQ(c.call({"SAVE"}).raw, OK);
    }
    writeFile(oldStyleAofPath(dir), readFile(dir.file("dump.rdb")) + cmd({"SELECT", "0"}) + cmd({"SET", "b", "2"}));
    std::filesystem::remove(dir.file("dump.rdb"));
    TestServer srv(aofArgs(dir));
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"MGET", "a", "b"}).raw, bulks({"1", "2"}));
    EXPECT_EQ(c.call({"LRANGE", "l", "0", "-1"}).raw, bulks({"x", "y"}));
    EXPECT_TRUE(srv.waitForLog("Reading RDB preamble from AOF file..."));
    EXPECT_TRUE(srv.waitForLog("Reading the remaining AOF tail..."));
}

/* No AOF: a first base (the empty dataset) and incr file are made; on
 * the next start they load nothing. */
TEST(AofLoad, MissingOrEmptyFileStartsEmpty) {
    TempDir dir;
    for (int round = 0; round < 2; round++) {
        TestServer srv(aofArgs(dir));
        RespConn c = srv.connect();
        EXPECT_EQ(c.call({"DBSIZE"}).integer, 0);
        EXPECT_EQ(manifest(dir), "file appendonly.aof.1.base.rdb seq 1 type b\n"
                                 "file appendonly.aof.1.incr.aof seq 1 type i\n") << "round " << round;
        EXPECT_EQ(readFile(aofPath(dir)), "");
        EXPECT_TRUE(srv.waitForLog(round == 0 ? "Creating AOF incr file appendonly.aof.1.incr.aof on server start"
                                              : "Opening AOF incr file appendonly.aof.1.incr.aof on server start"));
    }
}

TEST(AofLoad, RedisCheckAofAcceptsOurFiles) {
    SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-check-aof"));
    TempDir dir;
    TestServer srv(aofArgs(dir));
    RespConn c = srv.connect(), w = srv.connect();
    runMixedWorkload(c, w);
    auto check = [&](const char *when) {
        ProcessResult r = runProcess({"redis-check-aof", dir.file("appendonlydir/appendonly.aof.manifest")});
        EXPECT_EQ(r.exitCode, 0) << when << ":\n" << r.out << r.err;
        EXPECT_NE(r.out.find("All AOF files and manifest are valid"), std::string::npos) << when << ":\n" << r.out;
    };
    check("after the workload");
    c.call({"BGREWRITEAOF"});
    waitRewriteDone(c);
    check("after BGREWRITEAOF");
}

/* ========================================================================
 * AofFsync: a reply leaves after its write is in the file
 * ====================================================================== */

/* Each reply is read, then the file: it must already end with the write.
 * The INCRs come from several clients, pipelined, so that replies also
 * leave for clients whose commands ran in the same event-loop iteration. */
TEST(AofFsync, AlwaysRepliesOnlyOnceTheWriteIsInTheFile) {
    TempDir dir;
    TestServer srv(aofArgs(dir, "always"));
    std::vector<RespConn> conns;
    for (int i = 0; i < 4; i++) conns.push_back(srv.connect());
    for (int round = 0; round < 50; round++) {
        for (size_t i = 0; i < conns.size(); i++) conns[i].cmd({"INCR", "n" + std::to_string(i)});
        for (size_t i = 0; i < conns.size(); i++) {
            Reply r = conns[i].readReply();
            std::string file = readFile(aofPath(dir));
            std::string write = cmd({"INCR", "n" + std::to_string(i)});
            size_t count = 0;
            for (size_t pos = file.find(write); pos != std::string::npos; pos = file.find(write, pos + 1)) count++;
            ASSERT_GE(count, static_cast<size_t>(r.integer)) << "reply " << r.integer << " to INCR n" << i
                                                             << " arrived before its write was in the file";
        }
    }
}

/* ========================================================================
 * AofCrash: kill -9 at random moments
 * ====================================================================== */

struct CrashStats {
    int cycles = 0, truncations = 0, killedInRewrite = 0;
    long long acked = 0, lost = 0;
    double worst_loss_window_ms = 0; /* kill time minus ack time of the oldest lost write */
};

/* After the restart: n must cover every acknowledged round (under
 * everysec, losses are counted instead); a round torn by the kill is
 * completed, so the next cycle starts from n in all three keys. */
void verifyWriter(RespConn &c, CrashWriter &w, bool always, Clock::time_point killed, CrashStats &stats) {
    WriterHeld h = checkCrashWriter(c, w);
    if (always) {
        EXPECT_EQ(h.lost, 0) << "list:" << w.id << ": acknowledged writes lost under appendfsync always";
    }
    if (h.lost && !w.ack_times.empty()) { /* (more than this cycle's: the oldest ack of the cycle) */
        size_t first_lost = static_cast<size_t>(std::max(0LL, w.acked - h.lost));
        double window = std::chrono::duration<double, std::milli>(killed - w.ack_times[first_lost]).count();
        stats.worst_loss_window_ms = std::max(stats.worst_loss_window_ms, window);
    }
    stats.lost += h.lost;
    stats.acked += w.acked;
    if (!h.whole) {
        std::string id = std::to_string(w.id);
        c.call({"SET", "counter:" + id, std::to_string(h.n)});
        c.call({"SET", "last:" + id, std::to_string(h.n)});
    }
    w.base = h.n;
}

/* BGREWRITEAOF again and again, each once the last is over, until the
 * server dies: with rdb-key-save-delay the server is rewriting most of the
 * time, so most kills land inside a rewrite, at any of its steps. */
void runRewriter(int port) {
    try {
        RespConn c(port, Ms{2000});
        for (;;) {
            c.call({"BGREWRITEAOF"});
            pollUntil([&] { return infoField(c, "persistence", "aof_rewrite_in_progress") == "0"; }, Ms{2000});
        }
    } catch (const HarnessError &) {
        /* the server died */
    }
}

/* The last rewrite the server's log says it started has not ended. */
bool diedInARewrite(const std::string &log) {
    auto last = [&](const char *line) {
        size_t at = log.rfind(line);
        return at == std::string::npos ? -1LL : static_cast<long long>(at);
    };
    return last("Background append only file rewriting started") >
           std::max(last("Background AOF rewrite finished"), last("Background AOF rewrite terminated"));
}

/* `cycles` kill/restart cycles of `impl` on one directory. Each cycle
 * starts the server on the files the last one left, lets three writers run
 * until a random number of rounds is acknowledged, kill -9s the server (and
 * its rewrite child), restarts it and checks the data. Every seventh cycle
 * starts a BGREWRITEAOF first; `rewriting`, a rewrite is running nearly all
 * the time. */
CrashStats runCrashCycles(ServerImpl impl, const std::string &fsync, int cycles, bool rewriting = false) {
    TempDir dir;
    std::vector<std::string> args{"--appendonly", "yes", "--appendfsync", fsync, "--save", ""};
    if (rewriting) args.insert(args.end(), {"--rdb-key-save-delay", "2000"});
    std::mt19937 rng(std::random_device{}());
    CrashWriters writers(3);
    CrashStats stats;
    auto srv = startServerInDir(impl, dir.path(), args);
    for (int cycle = 0; cycle < cycles && !::testing::Test::HasFatalFailure(); cycle++) {
        if (cycle % 7 == 6 && !rewriting) srv->connect().call({"BGREWRITEAOF"});
        long long target = std::uniform_int_distribution<long long>(5, 300)(rng);
        writers.start(srv->port());
        std::thread rewriter;
        if (rewriting) rewriter = std::thread(runRewriter, srv->port());
        EXPECT_TRUE(pollUntil([&] { return writers.acked() >= target; }, Ms{10000})) << "cycle " << cycle
                                                                                    << ": no progress";
        srv->kill9();
        Clock::time_point killed = Clock::now();
        killRewriteChildren(*srv);
        if (diedInARewrite(srv->log())) stats.killedInRewrite++;
        writers.join();
        if (rewriter.joinable()) rewriter.join();
        srv = startServerInDir(impl, dir.path(), args); /* the files must always load */
        if (srv->log().find("Truncating the AOF") != std::string::npos) stats.truncations++;
        RespConn c = srv->connect();
        for (CrashWriter &w : writers.all()) verifyWriter(c, w, fsync == "always", killed, stats);
        stats.cycles++;
    }
    return stats;
}

/* CRASH_CYCLES, or `fallback` (halved on Redis, whose runs only prove the
 * expectation, to keep make test short). */
int crashCycles(ServerImpl impl, int fallback) {
    const char *env = std::getenv("CRASH_CYCLES");
    return env ? std::max(1, std::atoi(env)) : impl == ServerImpl::Redis ? fallback / 2 : fallback;
}

void reportCrashStats(ServerImpl impl, const std::string &what, const CrashStats &s) {
    std::cout << "[ crash    ] " << (impl == ServerImpl::Redis ? "Redis 7.0.15" : "cppredis") << ", " << what << ": "
              << s.cycles << " kill -9 cycles (" << s.killedInRewrite << " during a rewrite), " << s.acked
              << " acknowledged rounds, " << s.lost << " lost (worst window " << s.worst_loss_window_ms
              << " ms), torn tails cut at load: " << s.truncations << std::endl;
    ::testing::Test::RecordProperty("cycles", s.cycles);
    ::testing::Test::RecordProperty("lost", static_cast<int>(s.lost));
}

class AofCrash : public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
    }
};

TEST_P(AofCrash, AlwaysLosesNoAcknowledgedWrite) {
    CrashStats s = runCrashCycles(GetParam(), "always", crashCycles(GetParam(), 40));
    reportCrashStats(GetParam(), "appendfsync always", s);
    EXPECT_EQ(s.lost, 0);
}

/* A kill -9 loses no write that was written, and everysec writes before
 * replying too: only what the kernel had not flushed when the machine itself
 * died would be lost, at most the last two seconds (Redis's contract). */
TEST_P(AofCrash, EverysecLosesAtMostTheLastTwoSeconds) {
    CrashStats s = runCrashCycles(GetParam(), "everysec", crashCycles(GetParam(), 20));
    reportCrashStats(GetParam(), "appendfsync everysec", s);
    EXPECT_LE(s.worst_loss_window_ms, 2000.0);
}

/* The kills land inside rewrites, at whatever step each has reached (the
 * new incr file and its manifest, the child's base, its rename and the
 * manifest naming it, the removal of the history): nothing acknowledged is
 * lost, and the directory loads every time. */
TEST_P(AofCrash, AlwaysWhileRewritingLosesNoAcknowledgedWrite) {
    CrashStats s = runCrashCycles(GetParam(), "always", crashCycles(GetParam(), 10), true);
    reportCrashStats(GetParam(), "appendfsync always, BGREWRITEAOF after BGREWRITEAOF", s);
    EXPECT_EQ(s.lost, 0);
    if (s.cycles >= 5) {
        EXPECT_GT(s.killedInRewrite, 0) << "no kill landed inside a rewrite";
    }
}

INSTANTIATE_TEST_SUITE_P(Servers, AofCrash, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
