/* rdb_test.cpp — integration tests of RDB persistence (rdb.cpp): round
 * trips of every type and encoding (ziplist lists at 64/65-byte values and
 * 512/513 entries, 16/32/64-bit intsets, ziplist and hashtable hashes,
 * ziplist and skiplist sorted sets, strings of every encoding), expiries
 * kept and expired ones dropped at load, the empty dataset, all 16
 * databases, through DEBUG RELOAD and through a restart, with DEBUG DIGEST
 * equal before and after; the conversions a load makes for this server's
 * limits; corrupt, truncated and unknown files stopping start-up and left
 * untouched.
 *
 * The behaviour of the commands — SAVE, BGSAVE (while clients write),
 * LASTSAVE, the save points and the back-off after a failed BGSAVE,
 * MISCONF, SHUTDOWN SAVE/NOSAVE and SIGTERM, FLUSHALL and the dirty
 * counter, DEBUG RELOAD's options — runs on cppredis and on Debian's Redis
 * 7.0.15 alike (the Servers/ instantiations), so the expected bytes are
 * proven against Redis by the same test.
 *
 * Interoperability: a file cppredis writes passes redis-check-rdb and
 * loads into redis-server with every key, value and TTL intact, and a file
 * Redis 7 writes (listpacks, quicklists with packed and plain nodes)
 * loads into cppredis intact; both compared key by key through commands and
 * by DEBUG DIGEST, which is the same number on both servers. */
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/persistence_harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string ZERO_DIGEST(40, '0');
const std::string MISCONF =
    err("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. "
        "Commands that may modify the data set are disabled, because this instance is configured to report "
        "errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the "
        "Redis logs for details about the RDB error.");
const std::string BGSAVE_RUNNING = err("ERR Background save already in progress");

bool fileExists(const std::string &path) { return std::filesystem::exists(path); }

std::string digest(RespConn &c) { return c.call({"DEBUG", "DIGEST"}).str; }

/* ------------------------------------------------------------------------
 * A dataset with every type and encoding, on db 0 (plus TTLs and keys in
 * other databases), and the encoding cppredis gives each key.
 * ---------------------------------------------------------------------- */

struct Sample {
    std::string key;
    std::string encoding;
    std::vector<Args> build;
};

/* `cmd key` then n generated arguments. */
Args numbered(const Args &head, int n, const std::function<Args(int)> &gen) {
    Args args = head;
    for (int i = 0; i < n; i++) {
        Args more = gen(i);
        args.insert(args.end(), more.begin(), more.end());
    }
    return args;
}

std::string noise(size_t n) {
    std::string s;
    for (uint32_t i = 0, x = 7; i < n; i++) s += static_cast<char>((x = x * 1103515245 + 12345) >> 16);
    return s;
}

const std::vector<Sample> &samples() {
    static const std::vector<Sample> all = [] {
        const std::string v64(64, 'x'), v65(65, 'y');
        auto item = [](int i) { return Args{"item-" + std::to_string(i)}; };
        auto num = [](int i) { return Args{std::to_string(i * 3)}; };
        auto field = [](int i) { return Args{"f" + std::to_string(i), "v" + std::to_string(i)}; };
        auto member = [](int i) { return Args{std::to_string(i * 0.5), "m" + std::to_string(i)}; };
        return std::vector<Sample>{
            {"str:int", "int", {{"SET", "str:int", "12345"}}},
            {"str:neg", "int", {{"SET", "str:neg", "-7"}}},
            {"str:maxll", "int", {{"SET", "str:maxll", "9223372036854775807"}}},
            {"str:2p31", "int", {{"SET", "str:2p31", "2147483648"}}},
            {"str:embstr", "embstr", {{"SET", "str:embstr", "hello"}}},
            {"str:empty", "embstr", {{"SET", "str:empty", ""}}},
            {"str:binary", "embstr", {{"SET", "str:binary", std::string("a\0b\r\n\xff", 6)}}},
            {"str:raw", "raw", {{"SET", "str:raw", std::string(100, 'a')}}},
            {"str:noise", "raw", {{"SET", "str:noise", noise(200)}}},
            {"list:zl64", "ziplist", {{"RPUSH", "list:zl64", v64, v64, "7", "-3"}}},
            {"list:ll65", "linkedlist", {{"RPUSH", "list:ll65", "a", v65, "12"}}},
            {"list:zl512", "ziplist", {numbered({"RPUSH", "list:zl512"}, 512, item)}},
            {"list:ll513", "linkedlist", {numbered({"RPUSH", "list:ll513"}, 513, item)}},
            {"set:i16", "intset", {{"SADD", "set:i16", "1", "2", "3", "-5"}}},
            {"set:i32", "intset", {{"SADD", "set:i32", "1", "70000"}}},
            {"set:i64", "intset", {{"SADD", "set:i64", "1", "5000000000", "-5000000000"}}},
            {"set:i64shrunk", "intset", {{"SADD", "set:i64shrunk", "1", "5000000000"}, {"SREM", "set:i64shrunk", "5000000000"}}},
            {"set:ht", "hashtable", {{"SADD", "set:ht", "a", "b", "c", "1"}}},
            {"set:ht513", "hashtable", {numbered({"SADD", "set:ht513"}, 513, num)}},
            {"hash:zl", "ziplist", {{"HSET", "hash:zl", "f1", "v1", "n", "42", "neg", "-1"}}},
            {"hash:zl64", "ziplist", {{"HSET", "hash:zl64", "f", v64}}},
            {"hash:ht65", "hashtable", {{"HSET", "hash:ht65", "f", v65, "g", "1"}}},
            {"hash:ht513", "hashtable", {numbered({"HSET", "hash:ht513"}, 513, field)}},
            {"zset:zl", "ziplist", {{"ZADD", "zset:zl", "1", "a", "2.5", "b", "-3", "c", "inf", "d", "-inf", "e", "0.1", "f"}}},
            {"zset:zl128", "ziplist", {numbered({"ZADD", "zset:zl128"}, 128, member)}},
            {"zset:sl129", "skiplist", {numbered({"ZADD", "zset:sl129"}, 129, member)}},
            {"zset:sl65", "skiplist",
             {{"ZADD", "zset:sl65", "1", v65, "1e-300", "tiny", "-0", "zero", "inf", "top", "3.141592653589793", "pi"}}},
            {"ttl:str", "embstr", {{"SET", "ttl:str", "v"}, {"PEXPIRE", "ttl:str", "100000000"}}},
            {"ttl:list", "ziplist", {{"RPUSH", "ttl:list", "a", "b"}, {"PEXPIRE", "ttl:list", "200000000"}}},
        };
    }();
    return all;
}

/* The samples on db 0, and a few keys in databases 7 and 15. */
void buildSamples(RespConn &c) {
    std::vector<Args> cmds;
    for (const Sample &s : samples()) cmds.insert(cmds.end(), s.build.begin(), s.build.end());
    cmds.push_back({"SELECT", "7"});
    cmds.push_back({"SET", "db7:k", "seven"});
    cmds.push_back({"HSET", "db7:h", "a", "b"});
    cmds.push_back({"SELECT", "15"});
    cmds.push_back({"RPUSH", "db15:l", "x", "y"});
    cmds.push_back({"SELECT", "0"});
    pipeline(c, cmds);
}

std::map<std::string, std::string> sampleEncodings(RespConn &c) {
    std::map<std::string, std::string> out;
    for (const Sample &s : samples()) out[s.key] = c.call({"OBJECT", "ENCODING", s.key}).str;
    return out;
}

std::map<std::string, std::string> expectedEncodings() {
    std::map<std::string, std::string> out;
    for (const Sample &s : samples()) out[s.key] = s.encoding;
    return out;
}

/* DEBUG OBJECT's serializedlength of every sample: equal lengths after a
 * reload mean the same blobs (an intset keeps its width, a ziplist its
 * bytes). */
std::map<std::string, std::string> serializedLengths(RespConn &c) {
    std::map<std::string, std::string> out;
    for (const Sample &s : samples()) {
        std::string line = c.call({"DEBUG", "OBJECT", s.key}).str;
        size_t at = line.find("serializedlength:");
        out[s.key] = at == std::string::npos ? line : line.substr(at, line.find(' ', at) - at);
    }
    return out;
}

/* Every key of every database, its value read through the type's commands
 * (unordered collections sorted) and its absolute expire time: what must
 * be identical on two servers holding the same data. */
std::string dumpDataset(RespConn &c) {
    std::string out;
    auto sorted = [&](const Args &cmd) {
        std::vector<std::string> items;
        for (const Reply &e : c.call(cmd).elements) items.push_back(escape(e.str));
        std::sort(items.begin(), items.end());
        std::string joined;
        for (const std::string &i : items) joined += i + ",";
        return joined;
    };
    auto pairs = [&](const Args &cmd) {
        Reply r = c.call(cmd);
        std::vector<std::string> items;
        for (size_t i = 0; i + 1 < r.elements.size(); i += 2)
            items.push_back(escape(r.elements[i].str) + "=" + escape(r.elements[i + 1].str));
        std::sort(items.begin(), items.end());
        std::string joined;
        for (const std::string &i : items) joined += i + ",";
        return joined;
    };
    for (int db = 0; db < 16; db++) {
        c.call({"SELECT", std::to_string(db)});
        std::vector<std::string> keys;
        for (const Reply &k : c.call({"KEYS", "*"}).elements) keys.push_back(k.str);
        std::sort(keys.begin(), keys.end());
        for (const std::string &key : keys) {
            std::string type = c.call({"TYPE", key}).str, value;
            if (type == "string") value = escape(c.call({"GET", key}).str);
            else if (type == "list") value = escape(c.call({"LRANGE", key, "0", "-1"}).raw);
            else if (type == "set") value = sorted({"SMEMBERS", key});
            else if (type == "hash") value = pairs({"HGETALL", key});
            else if (type == "zset") value = escape(c.call({"ZRANGE", key, "0", "-1", "WITHSCORES"}).raw);
            out += "db" + std::to_string(db) + " " + escape(key) + " " + type + " " + value + " expire=" +
                   std::to_string(c.call({"PEXPIRETIME", key}).integer) + "\n";
        }
    }
    c.call({"SELECT", "0"});
    return out;
}

/* ========================================================================
 * Round trips on cppredis: DEBUG RELOAD and restarts
 * ====================================================================== */

class RdbRoundTrip : public ::testing::Test {
protected:
    TempDir dir;
    std::unique_ptr<TestServer> start(const std::vector<std::string> &extra = {}) {
        return startServerInDir(ServerImpl::Cppredis, dir.path(), extra);
    }
};

TEST_F(RdbRoundTrip, EveryEncodingThroughDebugReload) {
    auto srv = start();
    RespConn c = srv->connect();
    buildSamples(c);
    ASSERT_EQ(sampleEncodings(c), expectedEncodings());
    std::string before = digest(c), dataset = dumpDataset(c);
    auto lengths = serializedLengths(c);
    EXPECT_NE(before, ZERO_DIGEST);

    EXPECT_EQ(c.call({"DEBUG", "RELOAD"}).raw, OK);
    EXPECT_EQ(digest(c), before);
    EXPECT_EQ(sampleEncodings(c), expectedEncodings());
    EXPECT_EQ(serializedLengths(c), lengths);
    EXPECT_EQ(dumpDataset(c), dataset);
    EXPECT_EQ(infoField(c, "persistence", "rdb_changes_since_last_save"), "0");
    EXPECT_EQ(infoField(c, "persistence", "rdb_last_load_keys_loaded"), std::to_string(samples().size() + 3));
}

/* Plain SHUTDOWN saves (the default save points are set), the next server
 * loads the file at start-up. */
TEST_F(RdbRoundTrip, EveryEncodingThroughRestart) {
    std::string before, dataset;
    std::map<std::string, std::string> lengths;
    {
        auto srv = start();
        RespConn c = srv->connect();
        buildSamples(c);
        before = digest(c);
        dataset = dumpDataset(c);
        lengths = serializedLengths(c);
        c.cmd({"SHUTDOWN"});
        c.expectClosed();
        EXPECT_EQ(srv->waitExit(), 0);
        EXPECT_TRUE(srv->waitForLog("DB saved on disk"));
    }
    auto srv = start();
    EXPECT_TRUE(srv->waitForLog("DB loaded from disk: "));
    RespConn c = srv->connect();
    EXPECT_EQ(digest(c), before);
    EXPECT_EQ(sampleEncodings(c), expectedEncodings());
    EXPECT_EQ(serializedLengths(c), lengths);
    EXPECT_EQ(dumpDataset(c), dataset);
}

/* "REDIS0006", EOF and the checksum: 18 bytes, and it loads back. */
TEST_F(RdbRoundTrip, EmptyDataset) {
    auto srv = start();
    RespConn c = srv->connect();
    EXPECT_EQ(digest(c), ZERO_DIGEST);
    EXPECT_EQ(c.call({"SAVE"}).raw, OK);
    std::string file = readFile(dir.file("dump.rdb"));
    EXPECT_EQ(file.size(), 18u);
    EXPECT_EQ(file.substr(0, 10), std::string("REDIS0006\xff", 10));
    EXPECT_EQ(c.call({"DEBUG", "RELOAD"}).raw, OK);
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0));
    EXPECT_EQ(digest(c), ZERO_DIGEST);
}

TEST_F(RdbRoundTrip, AllSixteenDatabases) {
    {
        auto srv = start();
        RespConn c = srv->connect();
        for (int db = 0; db < 16; db++)
            pipeline(c, {{"SELECT", std::to_string(db)}, {"SET", "key" + std::to_string(db), std::to_string(db * 100)}});
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        shutdownNosave(*srv);
    }
    auto srv = start();
    RespConn c = srv->connect();
    for (int db = 0; db < 16; db++) {
        c.call({"SELECT", std::to_string(db)});
        EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(1)) << "db " << db;
        EXPECT_EQ(c.call({"GET", "key" + std::to_string(db)}).raw, bulk(std::to_string(db * 100))) << "db " << db;
    }
}

/* The server's clock (TIME), in ms: the one its expiry and save points
 * run on. */
long long serverTimeMs(RespConn &c) {
    Reply now = c.call({"TIME"});
    return std::stoll(now.elements[0].str) * 1000 + std::stoll(now.elements[1].str) / 1000;
}

/* A key whose time passed while the file waited is not loaded; the others
 * keep their absolute deadline. "dying" must still live when SAVE writes
 * it: if it did not (a slow machine), it is set again with a deadline twice
 * as far and saved again. */
TEST_F(RdbRoundTrip, ExpiredKeysAreDroppedAtLoad) {
    auto srv = start();
    RespConn c = srv->connect();
    pipeline(c, {{"SET", "live", "v"}, {"PEXPIRE", "live", "100000000"}, {"SET", "forever", "v"}});
    long long liveAt = c.call({"PEXPIRETIME", "live"}).integer;
    long long deadline = 0, ahead = 250;
    for (;; ahead *= 2) {
        ASSERT_LE(ahead, 64000) << "a SAVE never finished within a minute";
        deadline = serverTimeMs(c) + ahead;
        pipeline(c, {{"SET", "dying", "v"}, {"PEXPIREAT", "dying", std::to_string(deadline)}});
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        if (c.call({"EXISTS", "dying"}).integer == 1) break; /* alive after the SAVE, so saved alive */
    }
    ASSERT_TRUE(pollUntil([&] { return serverTimeMs(c) > deadline; }, Ms{ahead + 5000}));
    EXPECT_EQ(c.call({"DEBUG", "RELOAD", "NOSAVE"}).raw, OK);
    EXPECT_EQ(c.call({"EXISTS", "dying"}).raw, integer(0));
    EXPECT_EQ(c.call({"PEXPIRETIME", "live"}).raw, integer(liveAt));
    EXPECT_EQ(c.call({"PEXPIRETIME", "forever"}).raw, integer(-1));
    EXPECT_EQ(infoField(c, "persistence", "rdb_last_load_keys_expired"), "1");
    EXPECT_EQ(infoField(c, "persistence", "rdb_last_load_keys_loaded"), "2");
}

/* A load builds the encodings this server's limits call for: compact ones
 * past smaller limits convert, and (as Redis) a linkedlist or hash table
 * that fits becomes compact again. */
TEST_F(RdbRoundTrip, LoadHonorsTheLimits) {
    std::string before;
    {
        auto srv = start();
        RespConn c = srv->connect();
        pipeline(c, {numbered({"RPUSH", "l"}, 10, [](int i) { return Args{std::to_string(i)}; }),
                      {"RPUSH", "longvalue", "abcdef"},
                      {"HSET", "h", "a", "1", "b", "2", "c", "3"},
                      {"ZADD", "z", "1", "a", "2", "b", "3", "c"},
                      {"SADD", "s", "1", "2", "3", "4", "5", "6"},
                      {"RPUSH", "back", std::string(65, 'v')},
                      {"LSET", "back", "0", "short"}});
        ASSERT_EQ(c.call({"OBJECT", "ENCODING", "back"}).str, "linkedlist");
        before = digest(c);
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        shutdownNosave(*srv);
    }
    auto srv = start({"--list-max-ziplist-entries", "5", "--list-max-ziplist-value", "5",
                      "--hash-max-ziplist-entries", "2", "--zset-max-ziplist-entries", "2", "--set-max-intset-entries", "5"});
    RespConn c = srv->connect();
    EXPECT_EQ(digest(c), before);
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "l"}).str, "linkedlist");
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "longvalue"}).str, "linkedlist");
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "h"}).str, "hashtable");
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "z"}).str, "skiplist");
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "s"}).str, "hashtable");
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "back"}).str, "ziplist");
}

/* rdbchecksum no writes a zero checksum, which a later load accepts
 * without checking (as Redis, with a log line). */
TEST_F(RdbRoundTrip, ChecksumDisabled) {
    {
        auto srv = start({"--rdbchecksum", "no"});
        RespConn c = srv->connect();
        c.call({"SET", "k", "v"});
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        shutdownNosave(*srv);
    }
    std::string file = readFile(dir.file("dump.rdb"));
    EXPECT_EQ(file.substr(file.size() - 8), std::string(8, '\0'));
    auto srv = start();
    EXPECT_TRUE(srv->waitForLog("RDB file was saved with checksum disabled: no check performed."));
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("v"));
}

/* ========================================================================
 * Files that must not load: start-up stops (exit 1) with a clear log line
 * and the file is left as it was.
 * ====================================================================== */

class RdbBadFiles : public ::testing::Test {
protected:
    TempDir dir;

    /* A valid file with a few keys, as cppredis writes it. */
    std::string validFile() {
        {
            auto srv = startServerInDir(ServerImpl::Cppredis, dir.path());
            RespConn c = srv->connect();
            pipeline(c, {{"SET", "k", "value"}, {"RPUSH", "l", "a", "b"}, {"SET", "big", std::string(1000, 'z')}});
            EXPECT_EQ(c.call({"SAVE"}).raw, OK);
            shutdownNosave(*srv);
        }
        return readFile(dir.file("dump.rdb"));
    }

    /* Starts cppredis on `bytes`: it must exit 1 with `logline` in its
     * output, leaving the file unchanged. */
    void expectRefused(const std::string &bytes, const std::string &logline, const std::string &what) {
        const std::string path = dir.file("bad.rdb");
        writeFile(path, bytes);
        ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--port", std::to_string(pickFreePort()), "--bind", "127.0.0.1", "--dir", dir.path(),
                                      "--dbfilename", "bad.rdb"});
        EXPECT_EQ(r.exitCode, 1) << what << "\n" << r.out << r.err;
        EXPECT_NE(r.out.find(logline), std::string::npos) << what << ": no \"" << logline << "\" in\n" << r.out;
        EXPECT_EQ(r.out.find("Ready to accept connections"), std::string::npos) << what;
        EXPECT_EQ(readFile(path), bytes) << what << ": the file was changed";
    }
};

TEST_F(RdbBadFiles, TruncatedFiles) {
    std::string file = validFile();
    for (size_t cut : {size_t{0}, size_t{5}, size_t{9}, size_t{14}, file.size() / 2, file.size() - 9, file.size() - 1})
        expectRefused(file.substr(0, cut), "Short read or OOM loading DB. Unrecoverable error, aborting now.",
                      "cut at " + std::to_string(cut));
}

TEST_F(RdbBadFiles, WrongChecksum) {
    std::string file = validFile();
    file[file.find("value")] = 'V';
    expectRefused(file, "Wrong RDB checksum expected: (", "a byte changed");
    std::string crc = validFile();
    crc.back() ^= 1;
    expectRefused(crc, "Wrong RDB checksum expected: (", "the checksum changed");
}

TEST_F(RdbBadFiles, UnknownVersionSignatureAndTypes) {
    std::string file = validFile();
    expectRefused("REDIS0011" + file.substr(9), "Can't handle RDB format version 11", "version 11");
    expectRefused("REDIS0000" + file.substr(9), "Can't handle RDB format version 0", "version 0");
    expectRefused("RUDIS0006" + file.substr(9), "Wrong signature trying to load DB from file", "signature");
    expectRefused(std::string("REDIS0006\x08\x01k\x01v\xff", 14), "Unknown RDB encoding type 8", "type 8");
    expectRefused(std::string("REDIS0006\xfe\x10\xff", 12),
                  "Data file was created with a Redis server configured to handle more than 16 databases",
                  "SELECTDB 16");
    /* A ziplist blob whose header lies about its size. */
    expectRefused(std::string("REDIS0006\x0a\x01l\x0b\x0c\x00\x00\x00\x0a\x00\x00\x00\x00\x00\xff\xff", 26),
                  "Ziplist integrity check failed.", "bad ziplist");
}

/* ========================================================================
 * The commands, on cppredis and on Redis 7.0.15
 * ====================================================================== */

class RdbServers : public ::testing::TestWithParam<ServerImpl> {
protected:
    TempDir dir;
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
    }
    std::unique_ptr<TestServer> start(const std::vector<std::string> &extra = {}) {
        return startServerInDir(GetParam(), dir.path(), extra);
    }
    std::string persistence(RespConn &c, const std::string &field) { return infoField(c, "persistence", field); }
    bool bgsaveRunning(RespConn &c) { return persistence(c, "rdb_bgsave_in_progress") == "1"; }
    bool waitBgsaveDone(RespConn &c) { return pollUntil([&] { return !bgsaveRunning(c); }, Ms{10000}); }
};

TEST_P(RdbServers, CommandsAndTheirErrors) {
    auto srv = start({"--save", ""});
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"SAVE", "x"}).raw, arityErr("save"));
    EXPECT_EQ(c.call({"LASTSAVE", "x"}).raw, arityErr("lastsave"));
    EXPECT_EQ(c.call({"BGSAVE", "foo"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"BGSAVE", "SCHEDULE", "x"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"DEBUG", "RELOAD", "foo"}).raw,
              err("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options."));
    EXPECT_EQ(c.call({"DEBUG", "DIGEST", "x"}).raw,
              err("ERR unknown subcommand or wrong number of arguments for 'DIGEST'. Try DEBUG HELP."));
    EXPECT_EQ(c.call({"DEBUG", "DIGEST"}).raw, "+" + ZERO_DIGEST + "\r\n");
    EXPECT_EQ(c.call({"DEBUG", "DIGEST-VALUE"}).raw, EMPTY_ARRAY);
    EXPECT_EQ(c.call({"DEBUG", "DIGEST-VALUE", "nokey"}).raw, array({"+" + ZERO_DIGEST + "\r\n"}));
    /* Nothing saved yet: RELOAD NOSAVE has no file to load. */
    EXPECT_EQ(c.call({"DEBUG", "RELOAD", "NOSAVE"}).raw, err("ERR Error trying to load the RDB dump"));

    /* CONFIG save: Redis 7's format, and its one error. */
    EXPECT_EQ(c.call({"CONFIG", "SET", "save", "100 10 20 0"}).raw, OK);
    EXPECT_EQ(c.call({"CONFIG", "GET", "save"}).raw, bulks({"save", "100 10 20 0"}));
    for (const char *bad : {"100", "0 1", "abc 1", "10 -1", "10  1"})
        EXPECT_EQ(c.call({"CONFIG", "SET", "save", bad}).raw,
                  err("ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters"))
            << bad;
    EXPECT_EQ(c.call({"CONFIG", "SET", "save", ""}).raw, OK);
    EXPECT_EQ(c.call({"CONFIG", "GET", "save"}).raw, bulks({"save", ""}));
    EXPECT_EQ(c.call({"CONFIG", "SET", "dir", "/tmp"}).raw,
              err("ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config"));
    EXPECT_EQ(c.call({"CONFIG", "SET", "rdbchecksum", "no"}).raw,
              err("ERR CONFIG SET failed (possibly related to argument 'rdbchecksum') - can't set immutable config"));
    EXPECT_EQ(c.call({"CONFIG", "GET", "dir"}).raw, bulks({"dir", dir.path()}));

    /* SAVE moves LASTSAVE to the save's time and zeroes the changes. */
    c.call({"SET", "k", "v"});
    EXPECT_EQ(infoField(c, "persistence", "rdb_changes_since_last_save"), "1");
    long long before = c.call({"LASTSAVE"}).integer;
    EXPECT_EQ(c.call({"SAVE"}).raw, OK);
    long long after = c.call({"LASTSAVE"}).integer;
    EXPECT_GE(after, before);
    EXPECT_EQ(std::to_string(after), persistence(c, "rdb_last_save_time"));
    EXPECT_EQ(persistence(c, "rdb_changes_since_last_save"), "0");
    EXPECT_EQ(persistence(c, "rdb_saves"), "1");
    EXPECT_TRUE(fileExists(dir.file("dump.rdb")));

    /* Inside MULTI: SAVE is refused, BGSAVE is scheduled. */
    EXPECT_EQ(c.call({"MULTI"}).raw, OK);
    EXPECT_EQ(c.call({"SAVE"}).raw, err("ERR Command not allowed inside a transaction"));
    EXPECT_EQ(c.call({"DISCARD"}).raw, OK);
    EXPECT_EQ(c.call({"MULTI"}).raw, OK);
    EXPECT_EQ(c.call({"BGSAVE"}).raw, QUEUED);
    EXPECT_EQ(c.call({"EXEC"}).raw, array({"+Background saving scheduled\r\n"}));
    EXPECT_TRUE(pollUntil([&] { return persistence(c, "rdb_saves") == "2" && !bgsaveRunning(c); }, Ms{10000}));
    EXPECT_EQ(persistence(c, "rdb_last_bgsave_status"), "ok");
}

/* DEBUG RELOAD's options: NOSAVE loads the file as it is; NOFLUSH MERGE
 * adds it to the dataset, the file's values winning. */
TEST_P(RdbServers, DebugReloadOptions) {
    auto srv = start({"--save", ""});
    RespConn c = srv->connect();
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "1"}});
    EXPECT_EQ(c.call({"SAVE"}).raw, OK);
    pipeline(c, {{"SET", "a", "2"}, {"SET", "c", "2"}});
    EXPECT_EQ(c.call({"DEBUG", "RELOAD", "NOSAVE", "NOFLUSH", "MERGE"}).raw, OK);
    EXPECT_EQ(c.call({"MGET", "a", "b", "c"}).raw, bulks({"1", "1", "2"}));
    EXPECT_EQ(c.call({"DEBUG", "RELOAD", "NOSAVE"}).raw, OK);
    EXPECT_EQ(c.call({"MGET", "a", "b", "c"}).raw, array({bulk("1"), bulk("1"), NIL}));
}

/* The parent keeps serving while its child writes the snapshot, which is
 * the data at the fork: INFO shows the save in progress, then ok, and the
 * changes made meanwhile stay counted. */
TEST_P(RdbServers, BgsaveWhileClientsWrite) {
    auto srv = start({"--save", "", "--rdb-key-save-delay", "20000"}); /* 20 ms per key */
    RespConn c = srv->connect(), writer = srv->connect();
    pipeline(c, {numbered({"MSET"}, 10, [](int i) { return Args{"k" + std::to_string(i), std::to_string(i)}; })});
    EXPECT_EQ(c.call({"BGSAVE"}).raw, "+Background saving started\r\n");
    EXPECT_EQ(persistence(c, "rdb_bgsave_in_progress"), "1");
    EXPECT_EQ(persistence(c, "current_save_keys_total"), "10");
    EXPECT_NE(persistence(c, "rdb_current_bgsave_time_sec"), "-1");
    EXPECT_EQ(c.call({"BGSAVE"}).raw, BGSAVE_RUNNING);
    EXPECT_EQ(c.call({"BGSAVE", "SCHEDULE"}).raw, BGSAVE_RUNNING);
    EXPECT_EQ(c.call({"SAVE"}).raw, BGSAVE_RUNNING);
    for (int i = 0; i < 100; i++) ASSERT_EQ(writer.call({"SET", "w" + std::to_string(i), "x"}).raw, OK);
    EXPECT_EQ(persistence(c, "rdb_bgsave_in_progress"), "1") << "the writes were not served during the save";
    ASSERT_TRUE(waitBgsaveDone(c));
    EXPECT_EQ(persistence(c, "rdb_last_bgsave_status"), "ok");
    EXPECT_EQ(persistence(c, "rdb_changes_since_last_save"), "100");
    EXPECT_EQ(persistence(c, "rdb_current_bgsave_time_sec"), "-1");
    EXPECT_NE(persistence(c, "rdb_last_bgsave_time_sec"), "-1");
    EXPECT_EQ(persistence(c, "rdb_saves"), "1");
    EXPECT_TRUE(srv->waitForLog("Background saving terminated with success"));

    EXPECT_EQ(c.call({"DEBUG", "RELOAD", "NOSAVE"}).raw, OK);
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(10));
    EXPECT_EQ(c.call({"GET", "k9"}).raw, bulk("9"));
}

/* `save 1 1` fires a BGSAVE once a change is more than a second old. A
 * failed BGSAVE is not retried for 5 seconds, however many save points are
 * due (another server, started at the same time). Both rules count whole
 * seconds of the server's clock (unixtime - lastsave > 1, unixtime -
 * lastbgsave_try > 5), so the test reads that clock (TIME) to know when the
 * save point has been due for a second and the retry not yet allowed. */
TEST_P(RdbServers, SavePointsFireAndBackOffAfterAFailure) {
    TempDir failing;
    auto ok = start({"--save", "1 1"});
    /* No save point yet, so that none fires before the BGSAVE below. */
    auto bad = startServerInDir(GetParam(), failing.path(), {"--save", ""});
    RespConn c = ok->connect(), b = bad->connect();
    long long badStartedS = serverTimeMs(b) / 1000; /* no earlier than its lastsave */
    c.call({"SET", "k", "v"});
    b.call({"SET", "k", "v"});
    std::filesystem::remove_all(failing.path());
    long long triedS = serverTimeMs(b) / 1000; /* no later than its lastbgsave_try */
    EXPECT_EQ(b.call({"BGSAVE"}).raw, "+Background saving started\r\n");
    ASSERT_TRUE(waitBgsaveDone(b));
    EXPECT_EQ(persistence(b, "rdb_last_bgsave_status"), "err");
    EXPECT_EQ(b.call({"CONFIG", "SET", "save", "1 1"}).raw, OK);
    long long dueMs = std::max(serverTimeMs(b), (badStartedS + 2) * 1000);

    ASSERT_TRUE(pollUntil([&] { return persistence(c, "rdb_saves") == "1" && !bgsaveRunning(c); }, Ms{10000}));
    EXPECT_TRUE(ok->waitForLog("1 changes in 1 seconds. Saving..."));
    EXPECT_EQ(persistence(c, "rdb_last_bgsave_status"), "ok");
    EXPECT_EQ(persistence(c, "rdb_changes_since_last_save"), "0");
    EXPECT_TRUE(fileExists(dir.file("dump.rdb")));

    /* The failing server's save point has been due for a second (ten cron
     * ticks) at least, and its try is four seconds old, one before a retry
     * may come: still one attempt. */
    long long checkMs = std::max(dueMs + 1000, (triedS + 4) * 1000);
    ASSERT_TRUE(pollUntil([&] { return serverTimeMs(b) >= checkMs; }, Ms{10000}));
    EXPECT_EQ(persistence(b, "rdb_saves"), "1");
    EXPECT_LE(serverTimeMs(b) / 1000, triedS + 5) << "the test stalled past the retry delay: a retry was allowed";
    shutdownNosave(*bad);
}

/* After a failed BGSAVE, with save points set, writes (and PING) get
 * MISCONF; reads go on; stop-writes-on-bgsave-error no, or no save point,
 * lifts it. */
TEST_P(RdbServers, MisconfAfterAFailedBgsave) {
    auto srv = start({"--save", "3600 1"});
    RespConn c = srv->connect();
    c.call({"SET", "k", "v"});
    std::filesystem::remove_all(dir.path());
    EXPECT_EQ(c.call({"SAVE"}).raw, err("ERR"));
    EXPECT_EQ(c.call({"SET", "k", "v2"}).raw, OK) << "a failed SAVE is not a failed BGSAVE";
    EXPECT_EQ(c.call({"BGSAVE"}).raw, "+Background saving started\r\n");
    ASSERT_TRUE(waitBgsaveDone(c));
    EXPECT_EQ(persistence(c, "rdb_last_bgsave_status"), "err");
    EXPECT_TRUE(srv->waitForLog("Background saving error"));

    EXPECT_EQ(c.call({"SET", "k", "v3"}).raw, MISCONF);
    EXPECT_EQ(c.call({"PING"}).raw, MISCONF);
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("v2"));
    EXPECT_EQ(c.call({"MULTI"}).raw, OK);
    EXPECT_EQ(c.call({"INCR", "n"}).raw, MISCONF);
    EXPECT_EQ(c.call({"EXEC"}).raw, err("EXECABORT Transaction discarded because of previous errors."));
    EXPECT_EQ(c.call({"CONFIG", "SET", "stop-writes-on-bgsave-error", "no"}).raw, OK);
    EXPECT_EQ(c.call({"SET", "k", "v4"}).raw, OK);
    EXPECT_EQ(c.call({"CONFIG", "SET", "stop-writes-on-bgsave-error", "yes"}).raw, OK);
    EXPECT_EQ(c.call({"DEL", "k"}).raw, MISCONF);
    EXPECT_EQ(c.call({"CONFIG", "SET", "save", ""}).raw, OK);
    EXPECT_EQ(c.call({"DEL", "k"}).raw, integer(1));
    shutdownNosave(*srv);
}

TEST_P(RdbServers, ShutdownSaveAndNosave) {
    {   /* NOSAVE: no file, though save points are set. */
        auto srv = start({"--save", "3600 1"});
        RespConn c = srv->connect();
        c.call({"SET", "k", "v"});
        shutdownNosave(*srv);
        EXPECT_FALSE(fileExists(dir.file("dump.rdb")));
    }
    {   /* SAVE: a file, though no save point is set. */
        auto srv = start({"--save", ""});
        RespConn c = srv->connect();
        c.call({"SET", "k", "saved"});
        c.cmd({"SHUTDOWN", "SAVE"});
        c.expectClosed();
        EXPECT_EQ(srv->waitExit(), 0);
        EXPECT_TRUE(fileExists(dir.file("dump.rdb")));
    }
    {   /* SIGTERM with save points: saves, and the next start loads it. */
        auto srv = start({"--save", "3600 1"});
        RespConn c = srv->connect();
        EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("saved"));
        c.call({"SET", "k", "sigterm"});
        EXPECT_EQ(srv->stop(), 0);
        EXPECT_TRUE(srv->waitForLog("Saving the final RDB snapshot before exiting."));
    }
    auto srv = start({"--save", "3600 1"});
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("sigterm"));
    /* A save that fails stops the shutdown: the data would be lost. */
    std::filesystem::remove_all(dir.path());
    EXPECT_EQ(c.call({"SHUTDOWN"}).raw, err("ERR Errors trying to SHUTDOWN. Check logs."));
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    ::kill(srv->pid(), SIGTERM); /* the same refusal, logged a second time */
    auto refusals = [&] {
        std::string log = srv->log();
        size_t n = 0;
        for (size_t at = 0; (at = log.find("Errors trying to shut down the server", at)) != std::string::npos; at++) n++;
        return n;
    };
    EXPECT_TRUE(pollUntil([&] { return refusals() == 2; }));
    EXPECT_EQ(c.call({"GET", "k"}).raw, bulk("sigterm"));
    shutdownNosave(*srv);
}

/* Redis 7.0: the keys FLUSHALL removes count as changes; with save points
 * it saves the empty dataset at once, zeroing them; a running BGSAVE is
 * killed (it would write the old data). */
TEST_P(RdbServers, FlushallAndTheDirtyCounter) {
    auto srv = start({"--save", "", "--rdb-key-save-delay", "100000"});
    RespConn c = srv->connect();
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "2"}});
    EXPECT_EQ(c.call({"FLUSHALL"}).raw, OK);
    EXPECT_EQ(persistence(c, "rdb_changes_since_last_save"), "4");
    EXPECT_EQ(c.call({"FLUSHALL"}).raw, OK);
    EXPECT_EQ(persistence(c, "rdb_changes_since_last_save"), "4");
    EXPECT_FALSE(fileExists(dir.file("dump.rdb")));

    EXPECT_EQ(c.call({"CONFIG", "SET", "save", "3600 1"}).raw, OK);
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "2"}});
    EXPECT_EQ(c.call({"BGSAVE"}).raw, "+Background saving started\r\n");
    EXPECT_EQ(c.call({"FLUSHALL"}).raw, OK);
    EXPECT_EQ(persistence(c, "rdb_changes_since_last_save"), "0");
    EXPECT_EQ(persistence(c, "rdb_saves"), "1") << "FLUSHALL's save is not counted";
    EXPECT_TRUE(srv->waitForLog("Background saving terminated by signal 10"));
    ASSERT_TRUE(waitBgsaveDone(c));
    EXPECT_EQ(persistence(c, "rdb_last_bgsave_status"), "ok");
    EXPECT_EQ(c.call({"CONFIG", "SET", "rdb-key-save-delay", "0"}).raw, OK);
    EXPECT_EQ(c.call({"DEBUG", "RELOAD", "NOSAVE"}).raw, OK);
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0)) << "the killed child's file replaced FLUSHALL's";
}

INSTANTIATE_TEST_SUITE_P(Servers, RdbServers, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * Interoperability with Debian's Redis 7 and redis-check-rdb
 * ====================================================================== */

class RdbInterop : public ::testing::Test {
protected:
    TempDir dir;
    void SetUp() override { REQUIRE_REDIS_REFERENCE(); }
};

/* The same data gives the same DEBUG DIGEST, and the same DIGEST-VALUE
 * for every key, on both servers, whatever their encodings. */
TEST_F(RdbInterop, DigestEqualsRedis) {
    auto ours = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--save", ""});
    auto ref = startServerInDir(ServerImpl::Redis, dir.path());
    RespConn a = ours->connect(), b = ref->connect();
    buildSamples(a);
    buildSamples(b);
    EXPECT_EQ(digest(a), digest(b));
    for (const Sample &s : samples())
        EXPECT_EQ(a.call({"DEBUG", "DIGEST-VALUE", s.key}).raw, b.call({"DEBUG", "DIGEST-VALUE", s.key}).raw) << s.key;
    EXPECT_EQ(a.call({"DEBUG", "DIGEST-VALUE", "str:int", "nokey"}).raw,
              b.call({"DEBUG", "DIGEST-VALUE", "str:int", "nokey"}).raw);
}

/* INFO persistence: Redis 7.0's fields, in its order; the values that
 * mean the same on both servers compared too. */
TEST_F(RdbInterop, InfoPersistenceAsRedis) {
    auto ours = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--save", ""});
    auto ref = startServerInDir(ServerImpl::Redis, dir.path());
    RespConn a = ours->connect(), b = ref->connect();
    Info x = info(a, {"persistence"}), y = info(b, {"persistence"});
    auto names = [](RespConn &c) {
        std::vector<std::string> out;
        std::istringstream in(c.call({"INFO", "persistence"}).str);
        for (std::string line; std::getline(in, line);)
            if (line.find(':') != std::string::npos) out.push_back(line.substr(0, line.find(':')));
        return out;
    };
    EXPECT_EQ(names(a), names(b));
    for (const char *f : {"loading", "rdb_changes_since_last_save", "rdb_bgsave_in_progress", "rdb_last_bgsave_status",
                          "rdb_last_bgsave_time_sec", "rdb_current_bgsave_time_sec", "rdb_saves"})
        EXPECT_EQ(x.fields[f], y.fields[f]) << f;
}

/* cppredis's file: redis-check-rdb accepts it, redis-server loads it with
 * every key, value and TTL. */
TEST_F(RdbInterop, CppredisFileLoadsIntoRedis) {
    std::string dataset, before;
    {
        auto ours = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--save", ""});
        RespConn c = ours->connect();
        buildSamples(c);
        dataset = dumpDataset(c);
        before = digest(c);
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        shutdownNosave(*ours);
    }
    SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-check-rdb"));
    ProcessResult check = runProcess({"redis-check-rdb", dir.file("dump.rdb")});
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
    EXPECT_NE(check.out.find("RDB looks OK"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find(std::to_string(samples().size() + 3) + " keys read"), std::string::npos) << check.out;
    auto ref = startServerInDir(ServerImpl::Redis, dir.path());
    RespConn r = ref->connect();
    EXPECT_EQ(dumpDataset(r), dataset);
    EXPECT_EQ(digest(r), before);
}

/* Redis 7's file (version 10: listpacks, quicklists with packed and plain
 * nodes, RESIZEDB and AUX fields) loads into cppredis intact, in
 * cppredis's encodings. */
TEST_F(RdbInterop, RedisFileLoadsIntoCppredis) {
    std::string dataset, before;
    {
        auto ref = startServerInDir(ServerImpl::Redis, dir.path(), {"--dbfilename", "redis.rdb"});
        RespConn r = ref->connect();
        buildSamples(r);
        /* A list node holding one big element as a PLAIN node. */
        EXPECT_EQ(r.call({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100"}).raw, OK);
        pipeline(r, {{"RPUSH", "list:plain", "a", std::string(300, 'p'), "b"}});
        dataset = dumpDataset(r);
        before = digest(r);
        EXPECT_EQ(r.call({"SAVE"}).raw, OK);
        shutdownNosave(*ref);
    }
    ASSERT_EQ(readFile(dir.file("redis.rdb")).substr(0, 9), "REDIS0010");
    auto ours = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--dbfilename", "redis.rdb"});
    EXPECT_TRUE(ours->waitForLog("Loading RDB produced by version 7."));
    RespConn c = ours->connect();
    EXPECT_EQ(dumpDataset(c), dataset);
    EXPECT_EQ(digest(c), before);
    EXPECT_EQ(sampleEncodings(c), expectedEncodings());
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "list:plain"}).str, "linkedlist");
}

/* An RDB file of Redis 7.0 holding a function library (RDB_OPCODE_FUNCTION2)
 * loads: the library and the keys are back (functions_test.cpp tests the
 * rest of functions' persistence). */
TEST_F(RdbInterop, FunctionsLoadFromRedis) {
    const std::string lib = "#!lua name=lib\nredis.register_function('f', function(keys) return redis.call('get', keys[1]) end)";
    {
        auto ref = startServerInDir(ServerImpl::Redis, dir.path());
        RespConn r = ref->connect();
        ASSERT_EQ(r.call({"FUNCTION", "LOAD", lib}).raw, bulk("lib"));
        r.call({"SET", "k", "v"});
        EXPECT_EQ(r.call({"SAVE"}).raw, OK);
        shutdownNosave(*ref);
    }
    auto ours = startServerInDir(ServerImpl::Cppredis, dir.path());
    RespConn c = ours->connect();
    EXPECT_EQ(c.call({"FCALL", "f", "1", "k"}).raw, bulk("v"));
}

}  // namespace
