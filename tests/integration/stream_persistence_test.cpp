/* stream_persistence_test.cpp — streams through RDB and AOF (issue 15,
 * point 4: rdb.cpp's stream type, aof.cpp's rewriteStreamObject).
 *
 *   StreamRdb       a stream with tombstones, several nodes, groups,
 *                   consumers with and without pending entries, an empty
 *                   stream with a group and an emptied one survive BGSAVE
 *                   and a restart, and DEBUG RELOAD, with XINFO STREAM FULL,
 *                   XRANGE and XPENDING equal before and after; the file
 *                   is version 10 only while a stream is in the dataset.
 *   StreamAof       the same dataset survives BGREWRITEAOF and a restart,
 *                   and the replay of the commands themselves.
 *   StreamInterop   against Debian's Redis 7.0.15: Redis loads cppredis's
 *                   dump, cppredis loads Redis's (also Redis 5/6's older
 *                   stream type), the value's bytes in cppredis's file are
 *                   Redis's, and a rewrite writes Redis's commands.
 *   StreamRdbBad    corrupt stream payloads stop start-up with the reason
 *                   logged, never a crash (ASan runs them too).
 *
 * Hand-built files (StreamFile) need none of the stream commands: they
 * prove the format on their own, and Redis 7.0.15 is the judge of what a
 * loaded-and-saved stream holds (XINFO STREAM FULL on Redis).
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/persistence_harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* ========================================================================
 * Helpers
 * ====================================================================== */

void waitRewriteDone(RespConn &c) {
    EXPECT_TRUE(pollUntil([&] {
        return infoField(c, "persistence", "aof_rewrite_in_progress") == "0" &&
               infoField(c, "persistence", "aof_rewrite_scheduled") == "0";
    }, Ms{20000}));
}

/* What differs legitimately between two servers holding the same stream. */
enum Mask {
    MASK_NONE = 0,
    /* A replayed XCLAIM or XGROUP CREATECONSUMER sees its consumer now. */
    MASK_SEEN_TIME = 1 << 0,
    /* The rax here counts its nodes otherwise than Redis's (rax.h): XINFO
     * STREAM's radix-tree-nodes differs between the servers. */
    MASK_RAX_NODES = 1 << 1,
    /* A stream rebuilt by XADDs packs its entries without the tombstones,
     * in other nodes. */
    MASK_REPACKED = 1 << 2,
};

/* A reply in redis-cli's words, the values after the masked field names
 * replaced by "<masked>". */
std::string render(const Reply &r, int mask) {
    if (r.type != Reply::Type::Array) return toString(r);
    std::string out = "[";
    for (size_t i = 0; i < r.elements.size(); i++) {
        const Reply &e = r.elements[i];
        out += i ? ", " : "";
        out += render(e, mask);
        const bool masked = (mask & MASK_SEEN_TIME && e.str == "seen-time") ||
                            (mask & (MASK_RAX_NODES | MASK_REPACKED) && e.str == "radix-tree-nodes") ||
                            (mask & MASK_REPACKED && e.str == "radix-tree-keys");
        if (e.type == Reply::Type::Bulk && masked && i + 1 < r.elements.size()) {
            out += ", <masked>";
            i++;
        }
    }
    return out + "]";
}

/* ------------------------------------------------------------------------
 * The dataset, built with commands (the same on both servers)
 * ---------------------------------------------------------------------- */

/* "s": 251 entries over three nodes (100 per node by default), some with
 * other fields than their node's master entry, three tombstones, a 3 KB
 * value (LZF in the file); groups g1 (consumers with pending entries, one
 * claimed with a retry count, one without any), g2 (nothing read) and "7"
 * (an integer name, entries_read unknown). "e": empty, with a group.
 * "emptied": empty, its last ID and greatest deleted ID 5-5. */
std::vector<Args> datasetCommands() {
    std::vector<Args> cmds;
    for (int i = 1; i <= 250; i++) {
        const std::string id = std::to_string(i) + "-1";
        if (i % 50 == 0) cmds.push_back({"XADD", "s", id, "other", "x" + std::to_string(i)});
        else cmds.push_back({"XADD", "s", id, "f", "v" + std::to_string(i), "g", std::to_string(i)});
    }
    cmds.push_back({"XADD", "s", "300-0", "big", std::string(3000, 'z')});
    cmds.push_back({"XDEL", "s", "2-1", "6-1", "150-1"});
    cmds.push_back({"XGROUP", "CREATE", "s", "g1", "0"});
    cmds.push_back({"XGROUP", "CREATE", "s", "g2", "5-1"});
    cmds.push_back({"XGROUP", "CREATE", "s", "7", "$", "ENTRIESREAD", "-1"});
    cmds.push_back({"XREADGROUP", "GROUP", "g1", "alice", "COUNT", "3", "STREAMS", "s", ">"});
    cmds.push_back({"XREADGROUP", "GROUP", "g1", "bob", "COUNT", "2", "STREAMS", "s", ">"});
    cmds.push_back({"XACK", "s", "g1", "3-1"});
    cmds.push_back({"XCLAIM", "s", "g1", "carol", "0", "4-1", "TIME", "1700000000000", "RETRYCOUNT", "5", "JUSTID"});
    cmds.push_back({"XGROUP", "CREATECONSUMER", "s", "g1", "idle"});
    cmds.push_back({"XGROUP", "CREATE", "e", "g", "$", "MKSTREAM"});
    cmds.push_back({"XADD", "emptied", "5-5", "a", "b"});
    cmds.push_back({"XDEL", "emptied", "5-5"});
    return cmds;
}

const std::vector<std::string> kDatasetKeys = {"s", "e", "emptied"};

/* Everything a client can see of the dataset's streams. */
std::string streamSnapshot(RespConn &c, int mask, const std::vector<std::string> &keys = kDatasetKeys) {
    std::string out;
    for (const std::string &k : keys) {
        out += k + ": " + render(c.call({"XINFO", "STREAM", k, "FULL"}), mask) + "\n";
        out += render(c.call({"XINFO", "GROUPS", k}), mask) + "\n";
        out += toString(c.call({"XRANGE", k, "-", "+"})) + "\n";
        out += toString(c.call({"XREVRANGE", k, "+", "-", "COUNT", "3"})) + "\n";
        out += toString(c.call({"TYPE", k})) + " " + toString(c.call({"XLEN", k})) + "\n";
    }
    if (std::find(keys.begin(), keys.end(), "s") != keys.end())
        for (const char *g : {"g1", "g2", "7"}) out += toString(c.call({"XPENDING", "s", g})) + "\n";
    return out;
}

/* ------------------------------------------------------------------------
 * Hand-built files
 * ---------------------------------------------------------------------- */

std::string hex(std::string_view s) {
    std::string out;
    for (size_t i = 0; i + 1 < s.size(); i += 3) out += static_cast<char>(std::stoi(std::string(s.substr(i, 2)), nullptr, 16));
    return out;
}

/* rdbSaveLen's four forms. */
std::string rdbLen(uint64_t n) {
    std::string out;
    if (n < 64) return std::string(1, static_cast<char>(n));
    if (n < 16384) return {static_cast<char>(0x40 | (n >> 8)), static_cast<char>(n & 0xff)};
    const int bytes = n <= UINT32_MAX ? 4 : 8;
    out += static_cast<char>(bytes == 4 ? 0x80 : 0x81);
    for (int i = bytes - 1; i >= 0; i--) out += static_cast<char>((n >> (8 * i)) & 0xff);
    return out;
}
std::string rdbStr(std::string_view s) { return rdbLen(s.size()) + std::string(s); }
/* A stream ID as a rax key: 16 bytes, big-endian. */
std::string rawID(uint64_t ms, uint64_t seq) {
    std::string out;
    for (uint64_t v : {ms, seq})
        for (int i = 7; i >= 0; i--) out += static_cast<char>((v >> (8 * i)) & 0xff);
    return out;
}
std::string ms8(uint64_t t) {
    std::string out;
    for (int i = 0; i < 8; i++) out += static_cast<char>((t >> (8 * i)) & 0xff);
    return out;
}
std::string lenID(uint64_t ms, uint64_t seq) { return rdbLen(ms) + rdbLen(seq); }

/* The node Redis 7.0.15 builds for XADD s 1-1 f v; XADD s 1-2 f v2;
 * XADD s 5-0 f 300 g x (listpack_test.cpp's golden): master ID 1-1. */
const std::string kNode = hex(
    "40 00 00 00 18 00 03 01 00 01 01 01 81 66 02 00 01 02 01 00 01 00 01 81 76 02 04 01 02 01 00 01 01 01 82 76 "
    "32 03 04 01 00 01 04 01 df ff 02 02 01 81 66 02 c1 2c 02 81 67 02 81 78 02 08 01 ff");

constexpr uint64_t kTime = 1700000000000;

/* A stream value field by field, so that each corruption is one change. */
struct StreamFile {
    struct Consumer {
        std::string name;
        std::vector<std::string> pel; /* raw IDs */
    };
    struct Group {
        std::string name;
        std::string last_id = lenID(1, 2);
        uint64_t entries_read = 2;
        std::vector<std::string> pel; /* raw IDs */
        std::vector<Consumer> consumers;
    };
    bool v1 = false; /* RDB_TYPE_STREAM_LISTPACKS (Redis 5, 6) */
    std::vector<std::pair<std::string, std::string>> nodes = {{rawID(1, 1), kNode}};
    uint64_t length = 3;
    std::string last_id = lenID(5, 0), first_id = lenID(1, 1), max_deleted = lenID(0, 0);
    uint64_t entries_added = 3;
    std::vector<Group> groups = {
        {"g", lenID(1, 2), 2, {rawID(1, 1), rawID(1, 2)}, {{"alice", {rawID(1, 1)}}, {"bob", {rawID(1, 2)}}}},
        {"idle", lenID(0, 0), 0, {}, {{"nobody", {}}}}};

    std::string value() const {
        std::string out = rdbLen(nodes.size());
        for (const auto &[key, lp] : nodes) out += rdbStr(key) + rdbStr(lp);
        out += rdbLen(length) + last_id;
        if (!v1) out += first_id + max_deleted + rdbLen(entries_added);
        out += rdbLen(groups.size());
        for (const Group &g : groups) {
            out += rdbStr(g.name) + g.last_id;
            if (!v1) out += rdbLen(g.entries_read);
            out += rdbLen(g.pel.size());
            for (const std::string &id : g.pel) out += id + ms8(kTime) + rdbLen(1);
            out += rdbLen(g.consumers.size());
            for (const Consumer &c : g.consumers) {
                out += rdbStr(c.name) + ms8(kTime + 5) + rdbLen(c.pel.size());
                for (const std::string &id : c.pel) out += id;
            }
        }
        return out;
    }
    /* A version 10 file holding this stream as "s" and the string "k",
     * its checksum 0 (not checked). */
    std::string file() const {
        return std::string("REDIS0010\xfe\x00", 11) + static_cast<char>(v1 ? 15 : 19) + rdbStr("s") + value() +
               std::string("\x00\x01k\x01v\xff", 6) + std::string(8, '\0');
    }
};

/* Starts cppredis on `bytes`: it must exit 1 with `logline` in its output,
 * leaving the file as it was. */
void expectRefused(const TempDir &dir, const std::string &bytes, const std::string &logline, const std::string &what) {
    const std::string path = dir.file("bad.rdb");
    writeFile(path, bytes);
    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--port", std::to_string(pickFreePort()), "--bind", "127.0.0.1",
                                  "--dir", dir.path(), "--dbfilename", "bad.rdb"});
    EXPECT_EQ(r.exitCode, 1) << what << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find(logline), std::string::npos) << what << ": no \"" << logline << "\" in\n" << r.out << r.err;
    EXPECT_EQ(r.out.find("Ready to accept connections"), std::string::npos) << what;
    EXPECT_EQ(readFile(path), bytes) << what << ": the file was changed";
}

/* ========================================================================
 * StreamRdb: cppredis's own round trips
 * ====================================================================== */

class StreamRdb : public ::testing::Test {
protected:
    TempDir dir;
};

/* Written by a BGSAVE child, loaded at start-up. */
TEST_F(StreamRdb, SurvivesBgsaveAndRestart) {
    std::string before;
    {
        auto srv = startServerInDir(ServerImpl::Cppredis, dir.path());
        RespConn c = srv->connect();
        pipeline(c, datasetCommands());
        before = streamSnapshot(c, MASK_NONE);
        EXPECT_EQ(c.call({"BGSAVE"}).raw, "+Background saving started\r\n");
        EXPECT_TRUE(pollUntil([&] { return infoField(c, "persistence", "rdb_bgsave_in_progress") == "0"; }));
        EXPECT_EQ(infoField(c, "persistence", "rdb_last_bgsave_status"), "ok");
        shutdownNosave(*srv);
    }
    EXPECT_EQ(readFile(dir.file("dump.rdb")).substr(0, 9), "REDIS0010");
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path());
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(3));
    EXPECT_EQ(streamSnapshot(c, MASK_NONE), before);
}

TEST_F(StreamRdb, SurvivesDebugReload) {
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path());
    RespConn c = srv->connect();
    pipeline(c, datasetCommands());
    const std::string before = streamSnapshot(c, MASK_NONE);
    auto serialized = [&] {
        std::string out;
        for (const std::string &k : kDatasetKeys) {
            std::string line = c.call({"DEBUG", "OBJECT", k}).str;
            out += line.substr(line.find("serializedlength:"), line.find(" lru:") - line.find("serializedlength:")) + "\n";
        }
        return out;
    };
    const std::string lengths = serialized();
    EXPECT_EQ(c.call({"DEBUG", "RELOAD"}).raw, OK);
    EXPECT_EQ(streamSnapshot(c, MASK_NONE), before);
    EXPECT_EQ(serialized(), lengths);
    /* The loaded stream takes new entries, groups and deliveries. */
    EXPECT_EQ(c.call({"XADD", "s", "301-0", "f", "new"}).raw, bulk("301-0"));
    EXPECT_EQ(c.call({"XADD", "emptied", "*", "a", "b"}).isError(), false);
    EXPECT_EQ(c.call({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "e", ">"}).raw, NIL_ARRAY);
    EXPECT_EQ(c.call({"XREADGROUP", "GROUP", "g2", "c", "COUNT", "1", "STREAMS", "s", ">"}).elements.size(), 1u);
}

/* A file without streams keeps version 6, which every Redis since 2.6
 * reads; with one it is version 10, the first with Redis 7.0's stream
 * type; without it again, 6. */
TEST_F(StreamRdb, VersionTenOnlyWithAStream) {
    writeFile(dir.file("dump.rdb"), StreamFile{}.file());
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path());
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(2));
    EXPECT_EQ(c.call({"SAVE"}).raw, OK);
    EXPECT_EQ(readFile(dir.file("dump.rdb")).substr(0, 9), "REDIS0010");
    EXPECT_EQ(c.call({"DEL", "s"}).raw, integer(1));
    EXPECT_EQ(c.call({"SAVE"}).raw, OK);
    EXPECT_EQ(readFile(dir.file("dump.rdb")).substr(0, 9), "REDIS0006");
}

/* ========================================================================
 * StreamAof: the rewrite and the replay
 * ====================================================================== */

/* A base of commands (aof-use-rdb-preamble no), which the tests read. */
std::vector<std::string> aofArgs() {
    return {"--appendonly", "yes", "--appendfsync", "always", "--save", "", "--aof-use-rdb-preamble", "no"};
}

TEST(StreamAof, SurvivesRewriteAndRestart) {
    TempDir dir;
    std::string before;
    {
        auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), aofArgs());
        RespConn c = srv->connect();
        pipeline(c, datasetCommands());
        before = streamSnapshot(c, MASK_SEEN_TIME | MASK_REPACKED);
        EXPECT_EQ(c.call({"BGREWRITEAOF"}).raw, "+Background append only file rewriting started\r\n");
        waitRewriteDone(c);
        const std::string aof = readFile(dir.file("appendonlydir/appendonly.aof.2.base.aof"));
        EXPECT_NE(aof.find(encodeCommand({"XGROUP", "CREATECONSUMER", "s", "g1", "idle"})), std::string::npos);
        EXPECT_EQ(aof.find("XREADGROUP"), std::string::npos) << "not the rewritten file";
        shutdownNosave(*srv);
    }
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), aofArgs());
    RespConn c = srv->connect();
    EXPECT_EQ(streamSnapshot(c, MASK_SEEN_TIME | MASK_REPACKED), before);
}

TEST(StreamAof, SurvivesReplay) {
    TempDir dir;
    std::string before;
    {
        auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), aofArgs());
        RespConn c = srv->connect();
        pipeline(c, datasetCommands());
        before = streamSnapshot(c, MASK_SEEN_TIME);
        shutdownNosave(*srv);
    }
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), aofArgs());
    RespConn c = srv->connect();
    EXPECT_EQ(streamSnapshot(c, MASK_SEEN_TIME), before);
}

/* ========================================================================
 * StreamInterop: Debian's Redis 7.0.15
 * ====================================================================== */

class StreamInterop : public ::testing::Test {
protected:
    TempDir dir;
    void SetUp() override { REQUIRE_REDIS_REFERENCE(); }

    /* XINFO STREAM s FULL etc. on Redis 7.0.15 loading `file`. */
    std::string redisView(const std::string &file, const std::vector<std::string> &keys) {
        writeFile(dir.file("view.rdb"), file);
        auto ref = startServerInDir(ServerImpl::Redis, dir.path(), {"--dbfilename", "view.rdb"});
        RespConn r = ref->connect();
        std::string view = streamSnapshotOnRedis(r, keys);
        shutdownNosave(*ref);
        return view;
    }
    static std::string streamSnapshotOnRedis(RespConn &r, const std::vector<std::string> &keys) {
        std::string out;
        for (const std::string &k : keys) {
            out += k + ": " + render(r.call({"XINFO", "STREAM", k, "FULL"}), MASK_NONE) + "\n";
            out += render(r.call({"XINFO", "GROUPS", k}), MASK_NONE) + "\n";
        }
        return out;
    }
    /* cppredis started on `file` (compression off), SAVEd: its dump;
     * with `lengths`, each of `keys`' DEBUG OBJECT serializedlength. */
    std::string throughCppredis(const std::string &file, const std::vector<std::string> &keys = {},
                                std::map<std::string, size_t> *lengths = nullptr) {
        writeFile(dir.file("in.rdb"), file);
        auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(),
                               {"--dbfilename", "in.rdb", "--save", "", "--rdbcompression", "no"});
        RespConn c = srv->connect();
        for (const std::string &k : keys) {
            const std::string line = c.call({"DEBUG", "OBJECT", k}).str;
            const size_t at = line.find("serializedlength:");
            EXPECT_NE(at, std::string::npos) << line;
            if (lengths && at != std::string::npos) (*lengths)[k] = std::stoul(line.substr(at + 17));
        }
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        std::string out = readFile(dir.file("in.rdb"));
        shutdownNosave(*srv);
        return out;
    }
};

/* The hand-built stream: cppredis loads it and writes the same value
 * bytes (uncompressed) and Redis sees the same stream in both files. */
TEST_F(StreamInterop, HandBuiltStreamRoundTrip) {
    const std::string file = StreamFile{}.file();
    const std::string ours = throughCppredis(file);
    EXPECT_EQ(ours.substr(0, 9), "REDIS0010");
    const std::string value = StreamFile{}.value();
    EXPECT_NE(ours.find(std::string("\x13\x01s", 3) + value), std::string::npos)
        << escape(ours, 1 << 16) << "\nexpected the value\n" << escape(value, 1 << 16);
    EXPECT_EQ(redisView(ours, {"s"}), redisView(file, {"s"}));
}

/* Redis 5/6's stream type: cppredis derives entries_added, the first ID
 * and each group's entries_read as Redis 7.0 does, so that Redis sees the
 * same stream in cppredis's (version 10) file as in the old one. */
TEST_F(StreamInterop, OldStreamTypeLoadsAsRedis7Loads) {
    StreamFile old;
    old.v1 = true;
    const std::string ours = throughCppredis(old.file());
    EXPECT_EQ(redisView(ours, {"s"}), redisView(old.file(), {"s"}));
}

/* Redis writes the dataset; cppredis loads it and saves it; Redis loads
 * cppredis's file and sees every stream as it was, and the values' bytes
 * are the same in both files (compression off on both). */
TEST_F(StreamInterop, RedisDumpThroughCppredisBackToRedis) {
    std::string redisFile;
    {
        auto ref = startServerInDir(ServerImpl::Redis, dir.path(), {"--dbfilename", "redis.rdb", "--rdbcompression", "no"});
        RespConn r = ref->connect();
        pipeline(r, datasetCommands());
        EXPECT_EQ(r.call({"SAVE"}).raw, OK);
        redisFile = readFile(dir.file("redis.rdb"));
        shutdownNosave(*ref);
    }
    std::map<std::string, size_t> lengths;
    const std::string ours = throughCppredis(redisFile, kDatasetKeys, &lengths);
    EXPECT_EQ(ours.substr(0, 9), "REDIS0010");
    EXPECT_EQ(redisView(ours, kDatasetKeys), redisView(redisFile, kDatasetKeys));
    /* Each stream's type, name and value as cppredis wrote it (its length
     * from DEBUG OBJECT) is in Redis's file too. */
    for (const std::string &k : kDatasetKeys) {
        const std::string head = std::string("\x13", 1) + rdbStr(k);
        const size_t at = ours.find(head);
        ASSERT_NE(at, std::string::npos) << k;
        const std::string record = ours.substr(at, head.size() + lengths[k]);
        EXPECT_NE(redisFile.find(record), std::string::npos) << k << ": " << escape(record, 1 << 16);
    }
}

/* Redis 7.0's XSETID checks the last ID against the live entries only, so
 * a stream's last ID may lie below a tombstone: such a file loads. */
TEST_F(StreamInterop, LastIdBelowATombstoneLoads) {
    std::string redisFile;
    {
        auto ref = startServerInDir(ServerImpl::Redis, dir.path(), {"--dbfilename", "redis.rdb"});
        RespConn r = ref->connect();
        pipeline(r, {{"XADD", "s", "1-0", "a", "b"}, {"XADD", "s", "5-0", "a", "b"}, {"XDEL", "s", "5-0"},
                     {"XSETID", "s", "3-0"}});
        EXPECT_EQ(r.call({"SAVE"}).raw, OK);
        redisFile = readFile(dir.file("redis.rdb"));
        shutdownNosave(*ref);
    }
    const std::string ours = throughCppredis(redisFile);
    EXPECT_EQ(redisView(ours, {"s"}), redisView(redisFile, {"s"}));
}

/* cppredis's own streams, built with its commands, load into Redis. */
TEST_F(StreamInterop, CppredisDumpLoadsIntoRedis) {
    std::string ours, view;
    {
        auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--save", ""});
        RespConn c = srv->connect();
        pipeline(c, datasetCommands());
        view = streamSnapshot(c, MASK_RAX_NODES);
        EXPECT_EQ(c.call({"SAVE"}).raw, OK);
        ours = readFile(dir.file("dump.rdb"));
        shutdownNosave(*srv);
    }
    SKIP_UNLESS_PACKAGE("redis-tools", haveProgram("redis-check-rdb"));
    ProcessResult check = runProcess({"redis-check-rdb", dir.file("dump.rdb")});
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
    EXPECT_NE(check.out.find("RDB looks OK"), std::string::npos) << check.out;
    writeFile(dir.file("view.rdb"), ours);
    auto ref = startServerInDir(ServerImpl::Redis, dir.path(), {"--dbfilename", "view.rdb"});
    RespConn r = ref->connect();
    EXPECT_EQ(streamSnapshot(r, MASK_RAX_NODES), view);
}

/* Redis's streams load into cppredis: the same replies as on Redis. */
TEST_F(StreamInterop, RedisDumpLoadsIntoCppredis) {
    std::string view;
    {
        auto ref = startServerInDir(ServerImpl::Redis, dir.path(), {"--dbfilename", "redis.rdb"});
        RespConn r = ref->connect();
        pipeline(r, datasetCommands());
        view = streamSnapshot(r, MASK_RAX_NODES);
        EXPECT_EQ(r.call({"SAVE"}).raw, OK);
        shutdownNosave(*ref);
    }
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--dbfilename", "redis.rdb", "--save", ""});
    EXPECT_TRUE(srv->waitForLog("Loading RDB produced by version 7."));
    RespConn c = srv->connect();
    EXPECT_EQ(streamSnapshot(c, MASK_RAX_NODES), view);
}

/* The commands of an AOF file, in order. */
std::vector<Args> parseAof(const std::string &aof) {
    std::vector<Args> out;
    size_t pos = 0;
    auto line = [&]() {
        size_t end = aof.find("\r\n", pos);
        std::string l = aof.substr(pos, end - pos);
        pos = end + 2;
        return l;
    };
    while (pos < aof.size()) {
        const std::string head = line();
        if (head.empty() || head[0] != '*') break;
        Args args;
        for (long n = std::stol(head.substr(1)); n > 0; n--) {
            const size_t len = std::stoul(line().substr(1));
            args.push_back(aof.substr(pos, len));
            pos += len + 2;
        }
        out.push_back(args);
    }
    return out;
}

/* Per key, the commands a rewrite wrote for it (keys come in hash table
 * order, which differs between the servers). */
std::map<std::string, std::vector<Args>> commandsByKey(const std::string &aof) {
    std::map<std::string, std::vector<Args>> out;
    for (const Args &a : parseAof(aof)) {
        if (a[0] == "SELECT") continue;
        out[a[0] == "XGROUP" ? a[2] : a[1]].push_back(a);
    }
    return out;
}

/* Both servers load the same file written by Redis, and both rewrite
 * their AOF from it: the same commands, key by key (both without the RDB
 * preamble, so that their base files are commands). */
TEST_F(StreamInterop, RewriteWritesRedisCommands) {
    {
        auto ref = startServerInDir(ServerImpl::Redis, dir.path());
        RespConn r = ref->connect();
        pipeline(r, datasetCommands());
        EXPECT_EQ(r.call({"SAVE"}).raw, OK);
        shutdownNosave(*ref);
    }
    TempDir theirs;
    std::filesystem::copy_file(dir.file("dump.rdb"), theirs.file("dump.rdb"));
    std::string ours_aof, theirs_aof;
    {
        auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--save", "", "--aof-use-rdb-preamble", "no"});
        RespConn c = srv->connect();
        EXPECT_EQ(c.call({"CONFIG", "SET", "appendonly", "yes"}).raw, OK);
        waitRewriteDone(c);
        ours_aof = readFile(dir.file("appendonlydir/appendonly.aof.1.base.aof"));
        shutdownNosave(*srv);
    }
    {
        auto ref = startServerInDir(ServerImpl::Redis, theirs.path(), {"--aof-use-rdb-preamble", "no"});
        RespConn r = ref->connect();
        EXPECT_EQ(r.call({"CONFIG", "SET", "appendonly", "yes"}).raw, OK);
        waitRewriteDone(r);
        theirs_aof = readFile(theirs.file("appendonlydir/appendonly.aof.1.base.aof"));
        shutdownNosave(*ref);
    }
    ASSERT_FALSE(theirs_aof.empty());
    auto ours = commandsByKey(ours_aof), expected = commandsByKey(theirs_aof);
    EXPECT_EQ(ours.size(), expected.size());
    for (const auto &[key, cmds] : expected) {
        std::string a, b;
        for (const Args &x : ours[key]) a += describe(x) + "\n";
        for (const Args &x : cmds) b += describe(x) + "\n";
        EXPECT_EQ(a, b) << key;
    }
}

/* ========================================================================
 * StreamRdbBad: corrupt stream payloads
 * ====================================================================== */

class StreamRdbBad : public ::testing::Test {
protected:
    TempDir dir;
};

/* The well-formed file loads (the corrupt ones below are one change away),
 * and DEBUG OBJECT's serializedlength is the length of its value. */
TEST_F(StreamRdbBad, TheWellFormedFileLoads) {
    writeFile(dir.file("dump.rdb"), StreamFile{}.file());
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--rdbcompression", "no"});
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(2));
    const std::string line = c.call({"DEBUG", "OBJECT", "s"}).str;
    EXPECT_NE(line.find("serializedlength:" + std::to_string(StreamFile{}.value().size()) + " "), std::string::npos)
        << line;
}

/* A node whose entries are all tombstones (count 0, deleted 3, each
 * entry's flags with DELETED) is what Redis 7.0 leaves after an XDEL and an
 * exact XTRIM MINID (stream_test's StreamTrim), and writes: it loads. */
TEST_F(StreamRdbBad, ANodeOfTombstonesLoads) {
    StreamFile f;
    std::string &lp = f.nodes[0].second;
    lp[6] = 0;
    lp[8] = 3;
    lp[17] = lp[28] = 3;
    lp[40] = 1;
    f.length = 0;
    writeFile(dir.file("dump.rdb"), f.file());
    auto srv = startServerInDir(ServerImpl::Cppredis, dir.path(), {"--rdbcompression", "no"});
    RespConn c = srv->connect();
    EXPECT_EQ(c.call({"XLEN", "s"}).raw, integer(0));
    EXPECT_EQ(c.call({"XRANGE", "s", "-", "+"}).raw, EMPTY_ARRAY);
    EXPECT_EQ(c.call({"XREVRANGE", "s", "+", "-"}).raw, EMPTY_ARRAY);
}

TEST_F(StreamRdbBad, CorruptPayloadsAreRefused) {
    const std::string integrity = "Stream listpack integrity check failed.";
    auto refused = [&](const StreamFile &f, const std::string &logline, const std::string &what) {
        expectRefused(dir, f.file(), logline, what);
    };
    {
        StreamFile f;
        f.nodes[0].first.pop_back();
        refused(f, "Stream node key entry is not the size of a stream ID", "a 15-byte node key");
    }
    {
        StreamFile f;
        f.nodes[0].second[0] = 0x41;
        refused(f, integrity, "a listpack whose header lies");
    }
    {
        StreamFile f;
        f.nodes[0].second = hex("07 00 00 00 00 00 ff");
        refused(f, "Empty listpack inside stream", "an empty listpack");
    }
    {
        StreamFile f;
        f.nodes[0].second[f.nodes[0].second.size() - 3] = 9; /* the last lp-count */
        refused(f, integrity, "an entry's lp-count");
    }
    {
        StreamFile f;
        f.nodes.push_back(f.nodes[0]);
        refused(f, "Listpack re-added with existing key", "two nodes under one key");
    }
    {
        StreamFile f;
        f.length = 4;
        refused(f, "Stream length inconsistent with rax entries", "a length above the entries");
    }
    {
        StreamFile f;
        f.last_id = lenID(1, 5);
        refused(f, "Stream entry ID above the stream's last ID", "a last ID below the last entry");
    }
    {
        StreamFile f;
        f.groups[1].name = "g";
        refused(f, "Duplicated consumer group name g", "two groups of one name");
    }
    {
        StreamFile f;
        f.groups[0].pel.push_back(rawID(1, 1));
        refused(f, "Duplicated global PEL entry loading stream consumer group", "an ID twice in a group's PEL");
    }
    {
        StreamFile f;
        f.groups[0].consumers[1].name = "alice";
        refused(f, "Duplicate stream consumer detected.", "two consumers of one name");
    }
    {
        StreamFile f;
        f.groups[0].consumers[0].pel.push_back(rawID(5, 0));
        refused(f, "Consumer entry not found in group global PEL", "a consumer's ID not in its group's PEL");
    }
    {
        StreamFile f;
        f.groups[0].consumers[1].pel.push_back(rawID(1, 1));
        refused(f, "Duplicated consumer PEL entry", "an ID pending for two consumers");
    }
    {
        StreamFile f;
        f.groups[0].consumers[1].pel.clear();
        refused(f, "Stream CG PEL entry without consumer", "an ID pending for no consumer");
    }
}

/* The file cut anywhere inside the stream: a short read or a corrupt
 * value, reported, never a crash or a read past the data. */
TEST_F(StreamRdbBad, TruncatedPayloads) {
    const std::string file = StreamFile{}.file();
    const size_t begin = file.find(std::string("\x13\x01s", 3)) + 3, end = file.size() - 14;
    for (size_t cut = begin; cut < end; cut += 9) {
        const std::string bytes = file.substr(0, cut);
        writeFile(dir.file("cut.rdb"), bytes);
        ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--port", std::to_string(pickFreePort()), "--bind",
                                      "127.0.0.1", "--dir", dir.path(), "--dbfilename", "cut.rdb"});
        EXPECT_EQ(r.exitCode, 1) << "cut at " << cut << "\n" << r.out << r.err;
        EXPECT_TRUE(r.out.find("Short read or OOM loading DB") != std::string::npos ||
                    r.out.find("Internal error in RDB reading offset") != std::string::npos)
            << "cut at " << cut << "\n" << r.out;
    }
}

}  // namespace
