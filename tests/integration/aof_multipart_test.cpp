/* aof_multipart_test.cpp — the multi-part append-only file of Redis 7.0
 * (issue 32): the directory `appenddirname` inside `dir`, its manifest
 * (`<appendfilename>.manifest`, lines "file <name> seq <n> type b|h|i"), the
 * base file (an RDB with aof-use-rdb-preamble yes, commands with no) and
 * the incremental files; a rewrite opens a new incr file, the child writes
 * the new base, the manifest is swapped and the history deleted (unless
 * aof-disable-auto-gc yes).
 *
 *   AofMultipartLayout     the files and manifest bytes at start, after
 *                          BGREWRITEAOF (history gone, or kept as type h),
 *                          custom names, CONFIG SET appendonly yes.
 *   AofMultipartLoad       a restart rebuilds every type (DEBUG DIGEST and
 *                          FUNCTION LIST), with and without the preamble;
 *                          the AOF wins over dump.rdb.
 *   AofMultipartUpgrade    a 6.x-style single appendonly.aof (commands, or
 *                          an RDB preamble and commands) is moved into the
 *                          directory as the base.
 *   AofMultipartBadInput   broken manifests and files stop start-up with
 *                          Redis's message and leave the files alone; torn
 *                          tails as aof-load-truncated says.
 *   AofMultipartCheckAof   redis-check-aof accepts what the server writes,
 *                          reports a torn incr file, and --fix repairs it.
 *   AofMultipartInfo       INFO persistence's rewrite fields and sizes.
 *   AofMultipartCrossServer / AofMultipartSameAsRedis (both binaries):
 *                          one server's directory opened by the other, and
 *                          the same file names and manifests for the same
 *                          commands.
 *
 * The parametrized suites run on cppredis and on Redis 7.0.15, which proves
 * each expectation. Every server works in a TempDir of the test; nothing
 * sleeps: tests wait for INFO fields, replies and files. */
#include <gtest/gtest.h>
#include <sys/types.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <random>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/persistence_harness.h"
#include "integration/replies.h"

using namespace itest;
namespace fs = std::filesystem;

namespace {

/* ========================================================================
 * Helpers
 * ====================================================================== */

const std::string kAofDir = "appendonlydir";
const std::string kManifest = "appendonly.aof.manifest";

std::string cmd(const Args &args) { return encodeCommand(args); }

/* One manifest line as Redis 7.0 writes it. */
std::string manifestLine(const std::string &name, int seq, char type) {
    return "file " + name + " seq " + std::to_string(seq) + " type " + type + "\n";
}

/* The AOF on, every write in the file before its reply, no RDB saves. */
std::vector<std::string> aofOn(const std::vector<std::string> &extra = {}) {
    std::vector<std::string> args{"--appendonly", "yes", "--appendfsync", "always", "--save", ""};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

std::vector<std::string> preambleArg(bool preamble) { return {"--aof-use-rdb-preamble", preamble ? "yes" : "no"}; }

std::unique_ptr<TestServer> startAof(ServerImpl impl, const TempDir &dir, const std::vector<std::string> &extra = {}) {
    return startServerInDir(impl, dir.path(), aofOn(extra));
}

/* The server `impl` run to completion on `dir`: for those that must refuse
 * to start. */
ProcessResult runToExit(ServerImpl impl, const TempDir &dir, const std::vector<std::string> &extra = {}) {
    std::vector<std::string> argv{impl == ServerImpl::Redis ? RedisReference::kBinary : CPPREDIS_SERVER_BIN,
                                  "--port", std::to_string(pickFreePort()), "--bind", "127.0.0.1",
                                  "--dir", dir.path()};
    std::vector<std::string> args = aofOn(extra);
    argv.insert(argv.end(), args.begin(), args.end());
    return runProcess(argv, {}, Ms{5000}); /* a refusal takes milliseconds */
}

std::string aofFile(const TempDir &dir, const std::string &name, const std::string &aofDir = kAofDir) {
    return dir.file(aofDir + "/" + name);
}
std::string manifestOf(const TempDir &dir) { return readFile(aofFile(dir, kManifest)); }

/* The names in a directory, sorted ({} if it does not exist). */
std::vector<std::string> namesIn(const std::string &path) {
    std::vector<std::string> names;
    if (!fs::is_directory(path)) return names;
    for (const fs::directory_entry &e : fs::directory_iterator(path)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/* Every regular file under `root` by its path relative to it, with its
 * bytes: what a refused start must leave as it was. */
std::map<std::string, std::string> filesUnder(const std::string &root) {
    std::map<std::string, std::string> files;
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file()) files[fs::relative(e.path(), root).string()] = readFile(e.path().string());
    return files;
}

/* The file names a manifest lists, in its order. */
std::vector<std::string> namesInManifest(const std::string &manifest) {
    std::vector<std::string> names;
    std::istringstream in(manifest);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string key, name;
        if (words >> key >> name) names.push_back(name);
    }
    return names;
}

/* The AOF directory holds the manifest and exactly the files it names (once
 * the history files, which are unlinked in the background, are gone). */
bool aofDirMatchesManifest(const TempDir &dir) {
    std::vector<std::string> expected = namesInManifest(manifestOf(dir));
    expected.push_back(kManifest);
    std::sort(expected.begin(), expected.end());
    return namesIn(dir.file(kAofDir)) == expected;
}
void waitHistoryGone(const TempDir &dir) {
    EXPECT_TRUE(pollUntil([&] { return aofDirMatchesManifest(dir); }))
        << "files: " << ::testing::PrintToString(namesIn(dir.file(kAofDir))) << "\nmanifest:\n" << manifestOf(dir);
}

/* No temp- file of a rewrite (temp-rewriteaof-bg-<pid>.aof in dir,
 * temp-appendonly.aof.incr or the manifest's temp in the AOF dir) left. */
void expectNoTempFiles(const TempDir &dir) {
    for (const std::string &where : {dir.path(), dir.file(kAofDir)})
        for (const std::string &name : namesIn(where))
            EXPECT_FALSE(name.starts_with("temp-")) << name << " left in " << where;
}

std::string digest(RespConn &c) { return c.call({"DEBUG", "DIGEST"}).str; }

/* The log holds `line`. Every caller has already seen the event the line
 * reports (the server is ready, INFO says the rewrite is over): the short
 * wait only covers the harness's thread that drains the log. */
bool logged(const TestServer &srv, const std::string &line) { return srv.waitForLog(line, Ms{1000}); }

/* What a reload must give back: the keyspace's digest and the libraries. */
std::string dataset(RespConn &c) {
    return digest(c) + "\n" + c.call({"FUNCTION", "LIST", "WITHCODE"}).raw;
}

void waitRewriteDone(RespConn &c) {
    EXPECT_TRUE(pollUntil([&] {
        return infoField(c, "persistence", "aof_rewrite_in_progress") == "0" &&
               infoField(c, "persistence", "aof_rewrite_scheduled") == "0";
    }, Ms{20000}));
}

/* BGREWRITEAOF, to its successful end. */
void rewriteNow(RespConn &c) {
    EXPECT_EQ(c.call({"BGREWRITEAOF"}).str, "Background append only file rewriting started");
    waitRewriteDone(c);
    EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "ok");
}

/* Keys of every type and encoding (strings int/embstr/raw, small and big
 * lists, intset and hashtable sets, small and big sorted sets and hashes,
 * a stream with a group and a pending entry, TTLs) in dbs 0 and 9, named
 * after `tag`; and a function library once. */
void buildEveryType(RespConn &c, const std::string &tag) {
    std::vector<Args> cmds;
    for (const char *db : {"0", "9"}) {
        const std::string p = tag + ":" + db + ":";
        cmds.push_back({"SELECT", db});
        cmds.push_back({"SET", p + "int", "12345"});
        cmds.push_back({"SET", p + "embstr", "hello"});
        cmds.push_back({"SET", p + "raw", std::string(100, 'r')});
        Args list{"RPUSH", p + "list"}, bigList{"RPUSH", p + "biglist"}, intset{"SADD", p + "intset"},
            set{"SADD", p + "set"}, zset{"ZADD", p + "zset"}, bigZset{"ZADD", p + "bigzset"}, hash{"HSET", p + "hash"},
            bigHash{"HSET", p + "bighash"};
        for (int i = 0; i < 300; i++) {
            const std::string v = std::to_string(i);
            if (i < 5) list.push_back("e" + v);
            if (i < 5) hash.insert(hash.end(), {"f" + v, v});
            if (i < 5) zset.insert(zset.end(), {v + ".5", "m" + v});
            if (i < 20) intset.push_back(v);
            if (i < 20) set.push_back("s" + v);
            bigList.push_back(i == 100 ? std::string(70, 'x') : v);
            bigZset.insert(bigZset.end(), {v, "member" + v});
            bigHash.insert(bigHash.end(), {"field" + v, "value" + v});
        }
        for (const Args &a : {list, bigList, intset, set, zset, bigZset, hash, bigHash}) cmds.push_back(a);
        cmds.push_back({"XADD", p + "stream", "1-1", "a", "1"});
        cmds.push_back({"XADD", p + "stream", "2-1", "b", "2"});
        cmds.push_back({"XGROUP", "CREATE", p + "stream", "g", "0"});
        cmds.push_back({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", p + "stream", ">"});
        cmds.push_back({"SET", p + "ttl", "v", "EX", "100000"});
        cmds.push_back({"PEXPIRE", p + "hash", "90000000"});
    }
    cmds.push_back({"SELECT", "0"});
    pipeline(c, cmds);
    if (c.call({"FUNCTION", "LIST"}).elements.empty())
        c.call({"FUNCTION", "LOAD",
                "#!lua name=mylib\nredis.register_function('echo1', function(keys, args) return args[1] end)"});
}

/* Writes to what buildEveryType(c, tag) made: after a rewrite, the incr
 * file changes keys the base holds. */
void changeEveryType(RespConn &c, const std::string &tag) {
    const std::string p = tag + ":0:";
    pipeline(c, {{"INCR", p + "int"}, {"APPEND", p + "embstr", " world"}, {"LPOP", p + "biglist", "3"},
                 {"SREM", p + "intset", "4"}, {"ZINCRBY", p + "bigzset", "2.5", "member7"}, {"HDEL", p + "bighash", "field1"},
                 {"XACK", p + "stream", "g", "1-1"}, {"XADD", p + "stream", "3-1", "c", "3"}, {"PERSIST", p + "ttl"},
                 {"SELECT", "9"}, {"DEL", tag + ":9:set"}, {"EXPIRE", tag + ":9:list", "50000"}, {"SELECT", "0"}});
}

/* A dataset with a rewrite in the middle: every type, BGREWRITEAOF, more of
 * every type and changes to the first. */
void buildAcrossARewrite(RespConn &c) {
    buildEveryType(c, "a");
    rewriteNow(c);
    buildEveryType(c, "b");
    changeEveryType(c, "a");
    EXPECT_NE(digest(c), std::string(40, '0'));
}

/* The suites below run each test on cppredis and on Redis 7.0.15. */
class AofMultipart : public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) {
            REQUIRE_REDIS_REFERENCE();
        }
    }
    ServerImpl impl() const { return GetParam(); }
    std::unique_ptr<TestServer> start(const std::vector<std::string> &extra = {}) { return startAof(impl(), dir, extra); }

    TempDir dir;
};

/* ========================================================================
 * AofMultipartLayout: the files and the manifest
 * ====================================================================== */

class AofMultipartLayout : public AofMultipart {};

TEST_P(AofMultipartLayout, FreshStartMakesBaseIncrAndManifest) {
    auto srv = start();
    RespConn c = srv->connect();
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{kAofDir});
    EXPECT_EQ(namesIn(dir.file(kAofDir)),
              (std::vector<std::string>{"appendonly.aof.1.base.rdb", "appendonly.aof.1.incr.aof", kManifest}));
    EXPECT_EQ(manifestOf(dir), "file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n");
    EXPECT_TRUE(readFile(aofFile(dir, "appendonly.aof.1.base.rdb")).starts_with("REDIS"));
    EXPECT_EQ(readFile(aofFile(dir, "appendonly.aof.1.incr.aof")), "");
    EXPECT_TRUE(logged(*srv, "Creating AOF base file appendonly.aof.1.base.rdb on server start"));
    EXPECT_TRUE(logged(*srv, "Creating AOF incr file appendonly.aof.1.incr.aof on server start"));
    c.call({"SET", "a", "1"});
    EXPECT_EQ(escape(readFile(aofFile(dir, "appendonly.aof.1.incr.aof"))),
              escape(cmd({"SELECT", "0"}) + cmd({"SET", "a", "1"})));
}

/* With aof-use-rdb-preamble no the base is made of commands: empty at
 * first, the dataset's commands after a rewrite. */
TEST_P(AofMultipartLayout, WithoutPreambleTheBaseIsCommands) {
    auto srv = start(preambleArg(false));
    RespConn c = srv->connect();
    EXPECT_EQ(manifestOf(dir), "file appendonly.aof.1.base.aof seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n");
    EXPECT_EQ(readFile(aofFile(dir, "appendonly.aof.1.base.aof")), "");
    c.call({"SET", "a", "1"});
    rewriteNow(c);
    EXPECT_EQ(manifestOf(dir), "file appendonly.aof.2.base.aof seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n");
    EXPECT_EQ(escape(readFile(aofFile(dir, "appendonly.aof.2.base.aof"))),
              escape(cmd({"SELECT", "0"}) + cmd({"SET", "a", "1"})));
}

/* BGREWRITEAOF: a new incr file first, then the new base; the manifest
 * names the two, and the seq-1 files are deleted. */
TEST_P(AofMultipartLayout, RewriteSwapsTheManifestAndDeletesTheHistory) {
    auto srv = start();
    RespConn c = srv->connect();
    pipeline(c, {{"SET", "a", "1"}, {"RPUSH", "l", "x", "y"}});
    rewriteNow(c);
    EXPECT_EQ(manifestOf(dir), "file appendonly.aof.2.base.rdb seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n");
    waitHistoryGone(dir);
    EXPECT_EQ(namesIn(dir.file(kAofDir)),
              (std::vector<std::string>{"appendonly.aof.2.base.rdb", "appendonly.aof.2.incr.aof", kManifest}));
    EXPECT_TRUE(logged(*srv, "Creating AOF incr file appendonly.aof.2.incr.aof on background rewrite"));
    EXPECT_TRUE(logged(*srv, "Removing the history file appendonly.aof.1.incr.aof in the background"));
    EXPECT_TRUE(logged(*srv, "Removing the history file appendonly.aof.1.base.rdb in the background"));
    EXPECT_TRUE(logged(*srv, "Background AOF rewrite finished successfully"));
    EXPECT_TRUE(readFile(aofFile(dir, "appendonly.aof.2.base.rdb")).starts_with("REDIS"));
    expectNoTempFiles(dir);
    c.call({"SET", "b", "2"});
    EXPECT_EQ(escape(readFile(aofFile(dir, "appendonly.aof.2.incr.aof"))),
              escape(cmd({"SELECT", "0"}) + cmd({"SET", "b", "2"})));
}

/* aof-disable-auto-gc yes: the old base and incr stay, listed as history
 * (the old incr first, then the old base, between the base and the incr). */
TEST_P(AofMultipartLayout, DisabledAutoGcKeepsTheHistory) {
    auto srv = start({"--aof-disable-auto-gc", "yes"});
    RespConn c = srv->connect();
    c.call({"SET", "a", "1"});
    rewriteNow(c);
    EXPECT_EQ(manifestOf(dir), "file appendonly.aof.2.base.rdb seq 2 type b\n"
                               "file appendonly.aof.1.incr.aof seq 1 type h\n"
                               "file appendonly.aof.1.base.rdb seq 1 type h\n"
                               "file appendonly.aof.2.incr.aof seq 2 type i\n");
    EXPECT_TRUE(aofDirMatchesManifest(dir)) << ::testing::PrintToString(namesIn(dir.file(kAofDir)));
    EXPECT_EQ(srv->log().find("Removing the history file"), std::string::npos);
    expectNoTempFiles(dir);
}

TEST_P(AofMultipartLayout, CustomDirectoryAndFileName) {
    auto srv = start({"--appenddirname", "mydir", "--appendfilename", "my.aof"});
    RespConn c = srv->connect();
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"mydir"});
    EXPECT_EQ(namesIn(dir.file("mydir")),
              (std::vector<std::string>{"my.aof.1.base.rdb", "my.aof.1.incr.aof", "my.aof.manifest"}));
    EXPECT_EQ(readFile(aofFile(dir, "my.aof.manifest", "mydir")),
              "file my.aof.1.base.rdb seq 1 type b\nfile my.aof.1.incr.aof seq 1 type i\n");
    c.call({"SET", "a", "1"});
    rewriteNow(c);
    EXPECT_EQ(readFile(aofFile(dir, "my.aof.manifest", "mydir")),
              "file my.aof.2.base.rdb seq 2 type b\nfile my.aof.2.incr.aof seq 2 type i\n");
    EXPECT_EQ(c.call({"CONFIG", "GET", "appenddirname"}).raw, bulks({"appenddirname", "mydir"}));
}

/* CONFIG SET appendonly yes on a server holding data: the first base comes
 * from a rewrite (the incr file accumulates as a temp file meanwhile), then
 * base seq 1 and incr seq 1; the data loads back after a restart. */
TEST_P(AofMultipartLayout, ConfigSetAppendonlyBuildsTheFirstBase) {
    std::string live;
    {
        auto srv = startServerInDir(impl(), dir.path(), {"--save", ""});
        RespConn c = srv->connect();
        buildEveryType(c, "a");
        EXPECT_FALSE(fs::exists(dir.file(kAofDir)));
        EXPECT_EQ(c.call({"CONFIG", "SET", "appendonly", "yes"}).raw, OK);
        waitRewriteDone(c);
        EXPECT_EQ(infoField(c, "persistence", "aof_enabled"), "1");
        EXPECT_EQ(manifestOf(dir), "file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n");
        EXPECT_EQ(namesIn(dir.file(kAofDir)),
                  (std::vector<std::string>{"appendonly.aof.1.base.rdb", "appendonly.aof.1.incr.aof", kManifest}));
        expectNoTempFiles(dir);
        changeEveryType(c, "a");
        live = dataset(c);
        shutdownNosave(*srv);
    }
    auto srv = start();
    RespConn c = srv->connect();
    EXPECT_EQ(dataset(c), live);
}

INSTANTIATE_TEST_SUITE_P(Servers, AofMultipartLayout, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * AofMultipartLoad: a restart rebuilds the dataset
 * ====================================================================== */

class AofMultipartLoad : public AofMultipart {
protected:
    /* The dataset across a rewrite, then a restart on the directory. */
    void expectReloaded(bool preamble) {
        const std::string base = preamble ? "appendonly.aof.2.base.rdb" : "appendonly.aof.2.base.aof";
        std::string live;
        {
            auto srv = start(preambleArg(preamble));
            RespConn c = srv->connect();
            buildAcrossARewrite(c);
            live = dataset(c);
        }
        auto srv = start(preambleArg(preamble));
        RespConn c = srv->connect();
        EXPECT_EQ(dataset(c), live) << "preamble " << preamble;
        EXPECT_EQ(c.call({"FCALL", "echo1", "0", "hi"}).str, "hi");
        EXPECT_TRUE(logged(*srv, "DB loaded from base file " + base));
        EXPECT_TRUE(logged(*srv, "DB loaded from incr file appendonly.aof.2.incr.aof"));
        EXPECT_TRUE(logged(*srv, "DB loaded from append only file"));
        EXPECT_TRUE(logged(*srv, "Opening AOF incr file appendonly.aof.2.incr.aof on server start"));
        if (preamble) {
            EXPECT_TRUE(logged(*srv, "Reading RDB base file on AOF loading..."));
        }
    }
};

TEST_P(AofMultipartLoad, RestartRebuildsEveryTypeWithPreamble) { expectReloaded(true); }
TEST_P(AofMultipartLoad, RestartRebuildsEveryTypeWithoutPreamble) { expectReloaded(false); }

/* With appendonly yes the AOF is loaded, not dump.rdb beside it. */
TEST_P(AofMultipartLoad, AofWinsOverDumpRdb) {
    {
        auto srv = start();
        RespConn c = srv->connect();
        c.call({"SET", "k", "from-rdb"});
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        c.call({"SET", "k", "from-aof"});
        shutdownNosave(*srv);
    }
    ASSERT_TRUE(fs::exists(dir.file("dump.rdb")));
    {
        auto srv = start();
        RespConn c = srv->connect();
        EXPECT_EQ(c.call({"GET", "k"}).str, "from-aof");
        EXPECT_TRUE(logged(*srv, "DB loaded from append only file"));
    }
    auto srv = startServerInDir(impl(), dir.path(), {"--save", ""}); /* appendonly no: the RDB */
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"GET", "k"}).str, "from-rdb");
}

INSTANTIATE_TEST_SUITE_P(Servers, AofMultipartLoad, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * AofMultipartUpgrade: a 6.x appendonly.aof moved into the directory
 * ====================================================================== */

class AofMultipartUpgrade : public AofMultipart {
protected:
    /* `old` as dir/appendonly.aof, then a start: the file is the base,
     * seq 1, of a new manifest, beside a new incr file. */
    std::unique_ptr<TestServer> startOnOldStyleFile(const std::string &old) {
        writeFile(dir.file("appendonly.aof"), old);
        auto srv = start();
        EXPECT_FALSE(fs::exists(dir.file("appendonly.aof")));
        EXPECT_EQ(namesIn(dir.file(kAofDir)),
                  (std::vector<std::string>{"appendonly.aof", "appendonly.aof.1.incr.aof", kManifest}));
        EXPECT_EQ(readFile(aofFile(dir, "appendonly.aof")), old);
        EXPECT_EQ(manifestOf(dir), "file appendonly.aof seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n");
        EXPECT_TRUE(logged(*srv, "Successfully migrated an old-style AOF file (appendonly.aof) into the AOF "
                                    "directory (appendonlydir)."));
        EXPECT_TRUE(logged(*srv, "DB loaded from base file appendonly.aof"));
        return srv;
    }
};

TEST_P(AofMultipartUpgrade, CommandsOnlyFile) {
    {
        auto srv = startOnOldStyleFile(cmd({"SELECT", "0"}) + cmd({"SET", "a", "1"}) + cmd({"RPUSH", "l", "x", "y"}));
        RespConn c = srv->connect();
        EXPECT_EQ(c.call({"GET", "a"}).str, "1");
        EXPECT_EQ(c.call({"LRANGE", "l", "0", "-1"}).raw, bulks({"x", "y"}));
        c.call({"SET", "b", "2"});
    }
    auto srv = start(); /* no second migration: the manifest is there */
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"MGET", "a", "b"}).raw, bulks({"1", "2"}));
    EXPECT_EQ(srv->log().find("migrated"), std::string::npos);
}

/* The preamble is the RDB Redis 7.0.15 saves, followed by commands. */
TEST_P(AofMultipartUpgrade, RdbPreambleAndCommandsFile) {
    REQUIRE_REDIS_REFERENCE();
    std::string rdb, live;
    {
        TempDir rdbDir;
        RedisReference ref({"--dir", rdbDir.path(), "--enable-debug-command", "yes"});
        RespConn c = ref.connect();
        buildEveryType(c, "a");
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        rdb = readFile(rdbDir.file("dump.rdb"));
        c.call({"SET", "tail", "1"});
        live = digest(c);
    }
    ASSERT_TRUE(rdb.starts_with("REDIS"));
    auto srv = startOnOldStyleFile(rdb + cmd({"SELECT", "0"}) + cmd({"SET", "tail", "1"}));
    RespConn c = srv->connect();
    EXPECT_EQ(digest(c), live);
    EXPECT_TRUE(logged(*srv, "Reading RDB preamble from AOF file..."));
    EXPECT_TRUE(logged(*srv, "Reading the remaining AOF tail..."));
}

INSTANTIATE_TEST_SUITE_P(Servers, AofMultipartUpgrade, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * AofMultipartBadInput: refused, with the files left alone
 * ====================================================================== */

const std::string kBase = cmd({"SELECT", "0"}) + cmd({"SET", "a", "1"});
const std::string kIncr1 = cmd({"SELECT", "0"}) + cmd({"SET", "b", "2"});
const std::string kIncr2 = cmd({"SELECT", "0"}) + cmd({"SET", "c", "3"});
const std::string kTorn = cmd({"SET", "d", "4"}).substr(0, 17);

class AofMultipartBadInput : public AofMultipart {
protected:
    /* The AOF directory with `manifest` and the three files above (incr 1
     * with `incr1Tail` after it). */
    void writeAofDir(const std::string &manifest, const std::string &incr1Tail = "") {
        fs::create_directory(dir.file(kAofDir));
        writeFile(aofFile(dir, kManifest), manifest);
        writeFile(aofFile(dir, "appendonly.aof.1.base.aof"), kBase);
        writeFile(aofFile(dir, "appendonly.aof.1.incr.aof"), kIncr1 + incr1Tail);
        writeFile(aofFile(dir, "appendonly.aof.2.incr.aof"), kIncr2);
    }

    /* A start that must fail: exit 1 with `message` logged. */
    ProcessResult expectExit1(const std::string &message, const std::vector<std::string> &extra = {}) {
        ProcessResult r = runToExit(impl(), dir, extra);
        const std::string out = r.out + r.err;
        EXPECT_EQ(r.exitCode, 1) << out;
        EXPECT_NE(out.find(message), std::string::npos) << "no \"" << message << "\" in\n" << out;
        EXPECT_EQ(out.find("Ready to accept connections"), std::string::npos) << out;
        return r;
    }

    /* ... and every file under dir as it was. */
    void expectRefused(const std::string &message, const std::vector<std::string> &extra = {}) {
        const std::map<std::string, std::string> before = filesUnder(dir.path());
        expectExit1(message, extra);
        EXPECT_TRUE(filesUnder(dir.path()) == before) << "a file was changed";
    }
};

const std::string kBaseLine = manifestLine("appendonly.aof.1.base.aof", 1, 'b');
const std::string kIncr1Line = manifestLine("appendonly.aof.1.incr.aof", 1, 'i');
const std::string kIncr2Line = manifestLine("appendonly.aof.2.incr.aof", 2, 'i');

TEST_P(AofMultipartBadInput, UnknownFileType) {
    writeAofDir(kBaseLine + manifestLine("appendonly.aof.1.incr.aof", 1, 'x'));
    expectRefused("Unknown AOF file type");
}

TEST_P(AofMultipartBadInput, DuplicateBase) {
    writeAofDir(kBaseLine + manifestLine("appendonly.aof.1.incr.aof", 2, 'b'));
    expectRefused("Found duplicate base file information");
}

TEST_P(AofMultipartBadInput, NonMonotonicIncrSequence) {
    writeAofDir(kBaseLine + manifestLine("appendonly.aof.2.incr.aof", 2, 'i') + kIncr1Line);
    expectRefused("Found a non-monotonic sequence number");
}

TEST_P(AofMultipartBadInput, EmptyManifest) {
    writeAofDir("");
    expectRefused("Found an empty AOF manifest");
}

TEST_P(AofMultipartBadInput, NameWithAPath) {
    writeAofDir(manifestLine("sub/appendonly.aof.1.base.aof", 1, 'b') + kIncr1Line);
    expectRefused("File can't be a path, just a filename");
}

TEST_P(AofMultipartBadInput, MissingListedFile) {
    writeAofDir(kBaseLine + kIncr1Line + kIncr2Line + manifestLine("appendonly.aof.3.incr.aof", 3, 'i'));
    expectRefused("Unable to obtain the AOF file appendonly.aof.3.incr.aof length. stat: No such file or directory");
}

/* A base RDB cut short, written by the server itself across a rewrite; the
 * cut falls inside the one big string (a cut inside a stream, say, is
 * reported as a corruption instead). */
TEST_P(AofMultipartBadInput, TruncatedRdbBase) {
    {
        auto srv = start();
        RespConn c = srv->connect();
        std::string big(2000, ' ');
        std::mt19937 random(32);
        for (char &ch : big) ch = static_cast<char>('a' + random() % 26); /* incompressible: the base is big */
        c.call({"SET", "big", big});
        rewriteNow(c);
        c.call({"SET", "after", "1"});
    }
    const std::string base = aofFile(dir, "appendonly.aof.2.base.rdb");
    const std::string bytes = readFile(base);
    ASSERT_GT(bytes.size(), 100u);
    writeFile(base, bytes.substr(0, bytes.size() / 2));
    expectRefused("Short read or OOM loading DB. Unrecoverable error, aborting now.");
}

/* A torn last incr file: cut at its last whole command and loaded. */
TEST_P(AofMultipartBadInput, TornLastIncrIsCutWithAofLoadTruncated) {
    writeAofDir(kBaseLine + kIncr1Line, kTorn);
    fs::remove(aofFile(dir, "appendonly.aof.2.incr.aof"));
    auto srv = start({"--aof-load-truncated", "yes"});
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"MGET", "a", "b", "d"}).raw, "*3\r\n$1\r\n1\r\n$1\r\n2\r\n$-1\r\n");
    EXPECT_TRUE(logged(*srv, "!!! Truncating the AOF appendonly.aof.1.incr.aof at offset " +
                                std::to_string(kIncr1.size()) + " !!!"));
    EXPECT_TRUE(logged(*srv, "AOF appendonly.aof.1.incr.aof loaded anyway because aof-load-truncated is enabled"));
    EXPECT_EQ(escape(readFile(aofFile(dir, "appendonly.aof.1.incr.aof"))), escape(kIncr1));
}

TEST_P(AofMultipartBadInput, TornLastIncrIsRefusedWithoutAofLoadTruncated) {
    writeAofDir(kBaseLine + kIncr1Line + kIncr2Line);
    writeFile(aofFile(dir, "appendonly.aof.2.incr.aof"), kIncr2 + kTorn);
    expectRefused("Unexpected end of file reading the append only file appendonly.aof.2.incr.aof. You can: 1) Make a "
                  "backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>.",
                  {"--aof-load-truncated", "no"});
}

/* A torn incr file with another after it is no crash's tail: fatal. Redis
 * 7.0.15 has cut that file at its last whole command by then (it truncates
 * before it looks whether the file was the last); cppredis leaves every
 * file as it was (the cut would drop what lay after the tear). */
TEST_P(AofMultipartBadInput, TornIncrThatIsNotTheLastIsFatal) {
    writeAofDir(kBaseLine + kIncr1Line + kIncr2Line, kTorn);
    std::map<std::string, std::string> expected = filesUnder(dir.path());
    if (impl() == ServerImpl::Redis) expected[kAofDir + "/appendonly.aof.1.incr.aof"] = kIncr1;
    expectExit1("Fatal error: the truncated file is not the last file", {"--aof-load-truncated", "yes"});
    EXPECT_TRUE(filesUnder(dir.path()) == expected) << "files changed";
}

INSTANTIATE_TEST_SUITE_P(Servers, AofMultipartBadInput, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * AofMultipartCheckAof: redis-check-aof on what the server writes
 * ====================================================================== */

class AofMultipartCheckAof : public AofMultipart {
protected:
    ProcessResult checkAof(const std::vector<std::string> &flags = {}, std::string_view input = {}) {
        std::vector<std::string> argv{"redis-check-aof"};
        argv.insert(argv.end(), flags.begin(), flags.end());
        argv.push_back(aofFile(dir, kManifest));
        return runProcess(argv, input);
    }

    void expectValidThenFixed(bool preamble) {
        SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-check-aof"));
        const std::vector<std::string> args = preambleArg(preamble);
        {
            auto srv = start(args);
            RespConn c = srv->connect();
            buildEveryType(c, "a");
            rewriteNow(c);
            pipeline(c, {{"SET", "b", "2"}, {"SET", "c", "3"}});
        }
        ProcessResult r = checkAof();
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_NE(r.out.find(std::string("Start to check BASE AOF (") + (preamble ? "RDB" : "RESP") + " format)."),
                  std::string::npos) << r.out;
        EXPECT_NE(r.out.find("INCR AOF appendonly.aof.2.incr.aof is valid"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("All AOF files and manifest are valid"), std::string::npos) << r.out;

        const std::string incr = aofFile(dir, "appendonly.aof.2.incr.aof");
        const std::string bytes = readFile(incr);
        ASSERT_TRUE(bytes.ends_with(cmd({"SET", "c", "3"})));
        writeFile(incr, bytes.substr(0, bytes.size() - 5)); /* inside SET c 3 */
        r = checkAof();
        EXPECT_EQ(r.exitCode, 1) << r.out;
        EXPECT_NE(r.out.find("AOF appendonly.aof.2.incr.aof is not valid. Use the --fix option to try fixing it."),
                  std::string::npos) << r.out;
        r = checkAof({"--fix"}, "y\n");
        EXPECT_EQ(r.exitCode, 0) << r.out;
        EXPECT_NE(r.out.find("Successfully truncated AOF appendonly.aof.2.incr.aof"), std::string::npos) << r.out;

        std::vector<std::string> strict = args;
        strict.insert(strict.end(), {"--aof-load-truncated", "no"});
        auto srv = start(strict);
        RespConn c = srv->connect();
        EXPECT_EQ(c.call({"MGET", "a:0:int", "b", "c"}).raw, "*3\r\n$5\r\n12345\r\n$1\r\n2\r\n$-1\r\n");
    }
};

TEST_P(AofMultipartCheckAof, ValidWithPreambleAndFixesATornIncr) { expectValidThenFixed(true); }
TEST_P(AofMultipartCheckAof, ValidWithoutPreambleAndFixesATornIncr) { expectValidThenFixed(false); }

INSTANTIATE_TEST_SUITE_P(Servers, AofMultipartCheckAof, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * AofMultipartInfo: INFO persistence around rewrites
 * ====================================================================== */

class AofMultipartInfo : public AofMultipart {
protected:
    long long sizeOf(const std::string &name) { return static_cast<long long>(readFile(aofFile(dir, name)).size()); }
    long long field(RespConn &c, const std::string &name) { return infoNumber(c, "persistence", name); }

    /* The pid of the rewrite child the log names last. */
    pid_t rewriteChild(const TestServer &srv) {
        static const std::regex started("Background append only file rewriting started by pid ([0-9]+)");
        pid_t pid = -1;
        const std::string log = srv.log();
        for (std::sregex_iterator it(log.begin(), log.end(), started), end; it != end; ++it)
            pid = static_cast<pid_t>(std::stol((*it)[1].str()));
        return pid;
    }
};

TEST_P(AofMultipartInfo, RewriteCountersAndSizes) {
    auto srv = start();
    RespConn c = srv->connect();
    EXPECT_EQ(field(c, "aof_rewrites"), 0);
    EXPECT_EQ(field(c, "aof_rewrites_consecutive_failures"), 0);
    EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "ok");
    c.call({"SET", "a", "1"});
    /* On a first start Redis counts only what was appended, not the base
     * it has just created. */
    EXPECT_EQ(field(c, "aof_current_size"), sizeOf("appendonly.aof.1.incr.aof"));
    EXPECT_EQ(field(c, "aof_base_size"), 0);

    /* A slow child; writes meanwhile go to the new incr file. */
    pipeline(c, {{"SET", "b", "2"}, {"SET", "c", "3"}, {"CONFIG", "SET", "rdb-key-save-delay", "100000"}});
    EXPECT_EQ(c.call({"BGREWRITEAOF"}).str, "Background append only file rewriting started");
    EXPECT_EQ(infoField(c, "persistence", "aof_rewrite_in_progress"), "1");
    EXPECT_EQ(field(c, "aof_rewrites"), 1);
    long long before = field(c, "aof_current_size");
    c.call({"SET", "during", "rewrite"});
    EXPECT_EQ(field(c, "aof_current_size"), before + sizeOf("appendonly.aof.2.incr.aof"));
    c.call({"CONFIG", "SET", "rdb-key-save-delay", "0"});
    waitRewriteDone(c);
    EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "ok");
    /* The base size is the AOF's size when the rewrite ended: base and incr. */
    const long long afterRewrite = sizeOf("appendonly.aof.2.base.rdb") + sizeOf("appendonly.aof.2.incr.aof");
    EXPECT_EQ(field(c, "aof_base_size"), afterRewrite) << manifestOf(dir);
    EXPECT_EQ(field(c, "aof_current_size"), afterRewrite);
    c.call({"SET", "after", "rewrite"});
    EXPECT_EQ(field(c, "aof_current_size"), sizeOf("appendonly.aof.2.base.rdb") + sizeOf("appendonly.aof.2.incr.aof"));
    EXPECT_EQ(field(c, "aof_base_size"), afterRewrite);
}

/* A rewrite child killed: the failure counted, no temp file left; the
 * next rewrite that succeeds resets the count. */
TEST_P(AofMultipartInfo, FailedRewriteIsCounted) {
    auto srv = start();
    RespConn c = srv->connect();
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "2"}, {"CONFIG", "SET", "rdb-key-save-delay", "1000000"}});
    EXPECT_EQ(c.call({"BGREWRITEAOF"}).str, "Background append only file rewriting started");
    ASSERT_TRUE(logged(*srv, "Background append only file rewriting started by pid"));
    const pid_t child = rewriteChild(*srv);
    ASSERT_GT(child, 0) << srv->log();
    ASSERT_EQ(::kill(child, SIGKILL), 0);
    waitRewriteDone(c);
    EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "err");
    EXPECT_EQ(field(c, "aof_rewrites_consecutive_failures"), 1);
    EXPECT_EQ(field(c, "aof_rewrites"), 1);
    EXPECT_TRUE(logged(*srv, "Background AOF rewrite terminated by signal 9"));
    expectNoTempFiles(dir);
    c.call({"CONFIG", "SET", "rdb-key-save-delay", "0"});
    rewriteNow(c);
    EXPECT_EQ(field(c, "aof_rewrites_consecutive_failures"), 0);
    EXPECT_EQ(field(c, "aof_rewrites"), 2);
    /* The killed rewrite's incr file (seq 2) stays in use until the next. */
    EXPECT_EQ(manifestOf(dir), "file appendonly.aof.2.base.rdb seq 2 type b\nfile appendonly.aof.3.incr.aof seq 3 type i\n");
}

INSTANTIATE_TEST_SUITE_P(Servers, AofMultipartInfo, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * Both binaries: one server's directory read by the other; the same files
 * ====================================================================== */

/* `writer` builds the dataset across a rewrite in dir and stops (SHUTDOWN
 * NOSAVE or kill -9); `reader` started with the same options on the same
 * dir holds the same dataset. */
void expectReadByTheOther(ServerImpl writer, ServerImpl reader, bool preamble, bool kill9) {
    TempDir dir;
    std::string live;
    {
        auto srv = startAof(writer, dir, preambleArg(preamble));
        RespConn c = srv->connect();
        buildAcrossARewrite(c);
        live = dataset(c);
        if (kill9) srv->kill9();
        else shutdownNosave(*srv);
    }
    const std::string how = std::string("preamble ") + (preamble ? "yes" : "no") + (kill9 ? ", kill -9" : ", SHUTDOWN NOSAVE");
    /* The writer left the multi-part layout, not a file the reader migrates. */
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{kAofDir}) << how;
    EXPECT_EQ(manifestOf(dir), manifestLine(preamble ? "appendonly.aof.2.base.rdb" : "appendonly.aof.2.base.aof", 2, 'b') +
                                   manifestLine("appendonly.aof.2.incr.aof", 2, 'i')) << how;
    auto srv = startAof(reader, dir, preambleArg(preamble));
    RespConn c = srv->connect();
    EXPECT_EQ(dataset(c), live) << how;
    EXPECT_TRUE(logged(*srv, "DB loaded from incr file appendonly.aof.2.incr.aof")) << how;
    EXPECT_EQ(srv->log().find("migrated"), std::string::npos) << how;
}

TEST(AofMultipartCrossServer, RedisDirectoryLoadsIntoCppredis) {
    REQUIRE_REDIS_REFERENCE();
    for (bool preamble : {true, false})
        for (bool kill9 : {false, true}) expectReadByTheOther(ServerImpl::Redis, ServerImpl::Cppredis, preamble, kill9);
}

TEST(AofMultipartCrossServer, CppredisDirectoryLoadsIntoRedis) {
    REQUIRE_REDIS_REFERENCE();
    for (bool preamble : {true, false})
        for (bool kill9 : {false, true}) expectReadByTheOther(ServerImpl::Cppredis, ServerImpl::Redis, preamble, kill9);
}

/* The names under dir and the manifest after each step of one session:
 * start, writes, a rewrite, writes, a rewrite with aof-disable-auto-gc yes,
 * auto gc back on (which deletes the history kept). */
std::vector<std::string> layoutAfterEachStep(ServerImpl impl) {
    TempDir dir;
    auto srv = startAof(impl, dir);
    RespConn c = srv->connect();
    std::vector<std::string> steps;
    auto record = [&](const std::string &step) {
        std::string names;
        for (const auto &[path, bytes] : filesUnder(dir.path())) names += path + "\n";
        steps.push_back(step + ":\n" + names + "manifest:\n" + manifestOf(dir));
    };
    record("start");
    pipeline(c, {{"SET", "a", "1"}, {"RPUSH", "l", "x", "y"}});
    record("writes");
    rewriteNow(c);
    waitHistoryGone(dir);
    record("rewrite");
    pipeline(c, {{"SET", "b", "2"}, {"CONFIG", "SET", "aof-disable-auto-gc", "yes"}});
    rewriteNow(c);
    record("rewrite without auto gc");
    pipeline(c, {{"SET", "c", "3"}, {"CONFIG", "SET", "aof-disable-auto-gc", "no"}});
    waitHistoryGone(dir);
    record("auto gc on again");
    return steps;
}

TEST(AofMultipartSameAsRedis, FileNamesAndManifests) {
    REQUIRE_REDIS_REFERENCE();
    std::vector<std::string> theirs = layoutAfterEachStep(ServerImpl::Redis);
    ASSERT_EQ(theirs.size(), 5u);
    EXPECT_NE(theirs[3].find(" type h\n"), std::string::npos) << theirs[3];
    EXPECT_EQ(layoutAfterEachStep(ServerImpl::Cppredis), theirs);
}

}  // namespace
