/* fsync_test.cpp — what reaches the disk, seen through the LD_PRELOAD shim
 * build/libfsync_shim.so (tests/fault/fsync_shim.cpp), which logs every
 * write, fsync, fdatasync and rename the server makes on a file and can make
 * them fail (issue 13). A kill -9 keeps the page cache, so the crash tests in
 * aof_test.cpp pass without a single fsync; these fail then.
 *
 *   FsyncAlways    each acknowledged write is covered by a successful fsync
 *                  of the AOF before its reply; a failed fsync stops the
 *                  server before it acknowledges anything more.
 *   FsyncEverysec  a failed background fsync (EIO) refuses writes with
 *                  -MISCONF and INFO says err, until a later fsync succeeds.
 *   FsyncDiskFull  ENOSPC while writing the AOF: under everysec writes are
 *                  refused and then accepted again once space is back, under
 *                  always the server exits without acknowledging; either
 *                  way a restart finds every acknowledged write.
 *   FsyncRewrite   the multi-part AOF (appendonlydir, issue 32): a new base
 *                  file is fsynced whole before its rename; a new manifest is
 *                  renamed into place and then its directory fsynced before
 *                  writes go into the incr file it names (start-up,
 *                  BGREWRITEAOF's reply) or INFO reports the rewrite done.
 *   FsyncManifestFault  the temp manifest cannot be renamed or fsynced: at
 *                  BGREWRITEAOF's start the rewrite is refused and writes go
 *                  on into the old incr file; at its end the new base is
 *                  removed, the rewrite counts as failed and the manifest on
 *                  disk still loads; at start-up the server exits 1.
 *
 * All run on cppredis and on Redis 7.0.15 (the same shim preloaded into
 * /usr/bin/redis-server), so each expectation is Redis's own. The shim's
 * client side (its log, its rules, the manifest) is fsync_shim.h.
 *
 * A sanitized server gets ASan's runtime preloaded ahead of the shim (ASan
 * insists on coming first); the shim itself is never sanitized.
 */
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "integration/fsync_shim.h"
#include "integration/harness.h"

using namespace itest;

namespace {

std::string misconf(const std::string &why) { return "-MISCONF Errors writing to the AOF file: " + why + "\r\n"; }

/* Restarted without the shim on the files in `dir`: each key has its value. */
void expectAllAcknowledged(ServerImpl impl, const TempDir &dir, const std::map<std::string, std::string> &acked) {
    auto srv = startAofServer(impl, dir.path(), "everysec", nullptr);
    RespConn c = srv->connect();
    for (const auto &[key, value] : acked)
        EXPECT_EQ(c.call({"GET", key}).str, value) << key << " was acknowledged, and is lost after a restart";
}

class FsyncTest : public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
    }
    ServerImpl impl() const { return GetParam(); }

    TempDir dir;
    Shim shim;
};

/* ========================================================================
 * FsyncAlways
 * ====================================================================== */

/* Each reply is read, then the file and the event log: the write it
 * acknowledges must lie within what a successful fsync of the AOF made
 * durable. Several clients, pipelined, so that replies also leave for
 * commands that ran in the same event-loop iteration. */
using FsyncAlways = FsyncTest;
TEST_P(FsyncAlways, EveryAcknowledgedWriteIsFsyncedBeforeItsReply) {
    auto srv = startAofServer(impl(), dir.path(), "always", &shim);
    const std::string aof = aofFile(dir.path());
    const long long ino = inode(aof);
    std::vector<RespConn> conns;
    for (int i = 0; i < 3; i++) conns.push_back(srv->connect());
    for (int round = 1; round <= 20; round++) {
        for (size_t i = 0; i < conns.size(); i++) conns[i].cmd({"INCR", "n" + std::to_string(i)});
        for (size_t i = 0; i < conns.size(); i++) {
            Reply r = conns[i].readReply();
            ASSERT_EQ(r.integer, round) << r;
            /* Where the round-th INCR of this key ends in the file. */
            std::string file = readFile(aof), write = encodeCommand({"INCR", "n" + std::to_string(i)});
            size_t end = 0;
            for (int k = 0; k < round && end != std::string::npos; k++) {
                end = file.find(write, end);
                if (end != std::string::npos) end += write.size();
            }
            ASSERT_NE(end, std::string::npos) << "INCR n" << i << " #" << round << " acknowledged, not in the file";
            ASSERT_GE(durableSize(shim.events(), ino, SIZE_MAX), static_cast<long long>(end))
                << "INCR n" << i << " #" << round << " acknowledged before an fsync of the AOF covered it";
        }
    }
}

/* Redis's contract under always: what is acknowledged is on disk, so a
 * failed fsync must stop the server before the reply leaves. */
TEST_P(FsyncAlways, FailedFsyncExitsWithoutReplying) {
    auto srv = startAofServer(impl(), dir.path(), "always", &shim);
    RespConn c = srv->connect();
    ASSERT_EQ(c.call({"SET", "k", "1"}).raw, "+OK\r\n");
    shim.inject("sync EIO " + aofFile(dir.path()));
    c.cmd({"SET", "k", "2"});
    c.expectClosed();
    EXPECT_EQ(srv->waitExit(), 1);
    EXPECT_TRUE(srv->waitForLog("Can't persist AOF for fsync error when the AOF fsync policy is 'always': "
                                "Input/output error. Exiting..."))
        << srv->log();
}

/* ========================================================================
 * FsyncEverysec
 * ====================================================================== */

/* Writes are refused while the last background fsync failed; only a later
 * successful fsync lifts that, and in Redis 7.0 one runs only once something
 * is appended again. The refused writes append nothing, but expiring keys
 * do (their DEL): keys expiring every half second bring the next fsync. */
using FsyncEverysec = FsyncTest;
TEST_P(FsyncEverysec, FailedBackgroundFsyncRefusesWritesUntilAnFsyncSucceeds) {
    auto srv = startAofServer(impl(), dir.path(), "everysec", &shim);
    RespConn c = srv->connect();
    for (int i = 0; i < 40; i++)
        ASSERT_EQ(c.call({"SET", "expiring:" + std::to_string(i), "x", "PX", std::to_string(1500 + 500 * i)}).raw,
                  "+OK\r\n");
    const std::string aof = aofFile(dir.path());
    const long long ino = inode(aof);
    shim.inject("sync EIO " + aof);
    ASSERT_EQ(c.call({"SET", "before", "1"}).raw, "+OK\r\n"); /* in the file, waiting for its fsync */

    std::optional<Event> failed;
    ASSERT_TRUE(pollUntil([&] {
        for (const Event &e : shim.events())
            if (e.isSync() && e.ino == ino && !e.ok()) failed = e;
        return failed.has_value();
    })) << "no fsync of the AOF within 5 s of a write under everysec";
    EXPECT_EQ(failed->err, "EIO");
    EXPECT_NE(failed->tid, failed->pid) << "the everysec fsync ran on the main thread";

    ASSERT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_last_write_status") == "err"; }))
        << "INFO aof_last_write_status stays ok after a failed fsync";
    EXPECT_EQ(c.call({"SET", "refused", "1"}).raw, misconf("Input/output error"));
    EXPECT_TRUE(c.call({"GET", "refused"}).isNil());
    EXPECT_EQ(c.call({"GET", "before"}).str, "1") << "reads go on";

    shim.clear();
    ASSERT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_last_write_status") == "ok"; }, Ms{15000}))
        << "writes still refused 15 s after fsyncs work again";
    EXPECT_EQ(c.call({"SET", "after", "1"}).raw, "+OK\r\n");
    std::vector<Event> events = shim.events();
    EXPECT_GE(durableSize(events, ino, events.size()), failed->size) << "accepted again with no fsync having succeeded";
}

/* ========================================================================
 * FsyncDiskFull
 * ====================================================================== */

/* The disk fills up inside a write: the file may grow by 10 more bytes, so
 * the next write is short (the partial command must be cut off again) and
 * the ones after fail. */
std::string diskFullRule(const std::string &aof) {
    return "write ENOSPC " + aof + " " + std::to_string(fileSize(aof) + 10);
}

/* The write that hits the full disk is acknowledged (its reply was queued
 * before the flush) and stays in the AOF buffer; then writes are refused
 * until a retry succeeds. A kill -9 after that, and a restart, must find
 * every acknowledged write in a file that loads. */
using FsyncDiskFull = FsyncTest;
TEST_P(FsyncDiskFull, EverysecRefusesWritesThenRecoversLosingNothingAcknowledged) {
    auto srv = startAofServer(impl(), dir.path(), "everysec", &shim);
    RespConn c = srv->connect();
    std::map<std::string, std::string> acked;
    auto set = [&](const std::string &key, const std::string &value) {
        Reply r = c.call({"SET", key, value});
        if (r.raw == "+OK\r\n") acked[key] = value;
        return r;
    };
    for (int i = 0; i < 10; i++) ASSERT_EQ(set("before:" + std::to_string(i), std::to_string(i)).raw, "+OK\r\n");
    const std::string aof = aofFile(dir.path());
    shim.inject(diskFullRule(aof));

    Reply refused;
    for (int i = 0; i < 50 && !refused.isError(); i++) refused = set("full:" + std::to_string(i), std::string(40, 'x'));
    EXPECT_EQ(refused.raw, misconf("No space left on device"));
    EXPECT_EQ(infoField(c, "persistence", "aof_last_write_status"), "err");

    shim.clear();
    ASSERT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_last_write_status") == "ok"; }))
        << "writes still refused 5 s after the disk has space again";
    EXPECT_TRUE(srv->waitForLog("AOF write error looks solved, Redis can write again."));
    EXPECT_EQ(set("after", "1").raw, "+OK\r\n");
    srv->kill9();
    expectAllAcknowledged(impl(), dir, acked);
}

/* Under always a write that cannot be written cannot be acknowledged, and
 * the command has already run: the server exits, as Redis does, and the
 * reply never leaves. */
TEST_P(FsyncDiskFull, AlwaysExitsWithoutAcknowledgingAndLosesNothing) {
    auto srv = startAofServer(impl(), dir.path(), "always", &shim);
    RespConn c = srv->connect();
    std::map<std::string, std::string> acked;
    for (int i = 0; i < 10; i++) {
        std::string key = "before:" + std::to_string(i);
        ASSERT_EQ(c.call({"SET", key, std::to_string(i)}).raw, "+OK\r\n");
        acked[key] = std::to_string(i);
    }
    shim.inject(diskFullRule(aofFile(dir.path())));
    c.cmd({"SET", "full", std::string(40, 'x')});
    c.expectClosed();
    EXPECT_EQ(srv->waitExit(), 1);
    EXPECT_TRUE(srv->waitForLog("Can't recover from AOF write error when the AOF fsync policy is 'always'. "
                                "Exiting..."))
        << srv->log();
    expectAllAcknowledged(impl(), dir, acked);
}

INSTANTIATE_TEST_SUITE_P(Servers, FsyncAlways, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);
INSTANTIATE_TEST_SUITE_P(Servers, FsyncEverysec, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);
INSTANTIATE_TEST_SUITE_P(Servers, FsyncDiskFull, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * FsyncRewrite: a new file of the multi-part AOF is durable before it counts
 * ====================================================================== */

/* A successful rename of the temp manifest onto appendonly.aof.manifest in
 * `aofDir`, and a successful sync of that directory itself. */
auto manifestRenamed(const std::string &aofDir) {
    return [aofDir](const Event &e) {
        return e.op == "rename" && e.ok() && e.to == aofDir + "/appendonly.aof.manifest";
    };
}
auto directorySynced(long long dirIno) {
    return [dirIno](const Event &e) { return e.isSync() && e.ok() && e.ino == dirIno; };
}
auto writtenTo(const std::string &path) {
    return [path](const Event &e) { return e.op == "write" && e.path == path; };
}

/* The base file of the manifest was fsynced whole under its first name (the
 * rewrite's temp file, renamed in the end into appendonlydir) before its
 * first rename, and is in place before the rename of the manifest naming it
 * at `manifest`. Inodes are reused as files come and go: the base's is
 * followed back through its renames, and its fsyncs told by their path. */
void expectBaseDurableBeforeItsRename(const std::vector<Event> &ev, const TempDir &dir, size_t manifest) {
    AofManifest m = readManifest(dir.path());
    ASSERT_FALSE(m.base.empty()) << "no base file in the manifest:\n" << m.text;
    const std::string base = aofDirPath(dir.path()) + "/" + m.base;
    const long long ino = inode(base);
    size_t placed = ev.size();
    for (size_t i = std::min(manifest, ev.size()); i-- > 0 && placed == ev.size();)
        if (ev[i].op == "rename" && ev[i].ok() && ev[i].ino == ino && ev[i].to == base) placed = i;
    ASSERT_LT(placed, ev.size()) << "the base " << m.base << " was not renamed into place before the manifest";
    size_t first = placed;
    std::string name = ev[placed].from;
    for (size_t i = placed; i-- > 0;)
        if (ev[i].op == "rename" && ev[i].ok() && ev[i].ino == ino && ev[i].to == name) first = i, name = ev[i].from;
    long long durable = -1;
    for (size_t i = 0; i < first; i++)
        if (ev[i].isSync() && ev[i].ok() && ev[i].ino == ino && ev[i].path == name) durable = std::max(durable, ev[i].size);
    EXPECT_GE(durable, fileSize(base)) << "the base " << m.base << ", written as " << name
                                       << ", was renamed before an fsync covered all of it";
}

using FsyncRewrite = FsyncTest;

/* Start-up on an empty directory makes a base, an incr file and the
 * manifest naming both: the base fsynced before its rename, the manifest
 * renamed and then its directory fsynced (that makes the new files' names
 * durable) before the first write goes into the incr file. */
TEST_P(FsyncRewrite, StartupMakesItsFilesDurableBeforeWritingIntoThem) {
    auto srv = startAofServer(impl(), dir.path(), "always", &shim);
    RespConn c = srv->connect();
    ASSERT_EQ(c.call({"SET", "k", "v"}).raw, "+OK\r\n");
    const std::vector<Event> ev = shim.events();
    const std::string aofDir = aofDirPath(dir.path());
    size_t renamed = findEvent(ev, manifestRenamed(aofDir));
    ASSERT_LT(renamed, ev.size()) << "no manifest renamed into " << aofDir;
    size_t synced = findEvent(ev, directorySynced(inode(aofDir)), renamed + 1);
    EXPECT_LT(synced, ev.size()) << "appendonlydir was not fsynced after the manifest's rename";
    size_t written = findEvent(ev, writtenTo(aofFile(dir.path())));
    ASSERT_LT(written, ev.size()) << "the SET is not in the incr file";
    EXPECT_GT(written, synced) << "a write went into the incr file before the manifest naming it was durable";
    expectBaseDurableBeforeItsRename(ev, dir, renamed);
}

/* BGREWRITEAOF's start: the parent opens a new incr file and persists a
 * manifest naming it; that manifest's rename and its directory's fsync come
 * before the reply, and before any write goes into the new file. */
TEST_P(FsyncRewrite, StartMakesTheNewIncrFileDurableBeforeWritingIntoIt) {
    auto srv = startAofServer(impl(), dir.path(), "always", &shim, {"--rdb-key-save-delay", "20000"});
    RespConn c = srv->connect();
    pipeline(c, {{"SET", "a", "1"}, {"SET", "b", "1"}, {"SET", "c", "1"}});
    const size_t before = shim.events().size();
    ASSERT_EQ(c.call({"BGREWRITEAOF"}).raw, "+Background append only file rewriting started\r\n");
    const std::vector<Event> atReply = shim.events();
    const std::string aofDir = aofDirPath(dir.path());
    size_t renamed = findEvent(atReply, manifestRenamed(aofDir), before);
    ASSERT_LT(renamed, atReply.size()) << "BGREWRITEAOF replied before a manifest naming the new incr file was in place";
    size_t synced = findEvent(atReply, directorySynced(inode(aofDir)), renamed + 1);
    EXPECT_LT(synced, atReply.size()) << "BGREWRITEAOF replied before appendonlydir was fsynced";
    EXPECT_EQ(readManifest(dir.path()).incrs.size(), 2u) << readManifest(dir.path()).text;
    for (int i = 0; i < 5; i++) ASSERT_EQ(c.call({"SET", "during:" + std::to_string(i), "1"}).raw, "+OK\r\n");
    const std::vector<Event> ev = shim.events();
    size_t written = findEvent(ev, writtenTo(aofFile(dir.path())));
    ASSERT_LT(written, ev.size()) << "the writes during the rewrite are not in the new incr file";
    EXPECT_GT(written, synced) << "a write went into the new incr file before the manifest naming it was durable";
    EXPECT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_rewrite_in_progress") == "0"; }));
}

/* BGREWRITEAOF's end, under everysec (the base must be durable whatever the
 * policy): the child's file fsynced whole before its rename; the manifest
 * naming it renamed, and its directory fsynced, before INFO reports the
 * rewrite done. */
TEST_P(FsyncRewrite, EndMakesTheNewBaseDurableBeforeTheRewriteIsDone) {
    auto srv = startAofServer(impl(), dir.path(), "everysec", &shim, {"--rdb-key-save-delay", "20000"});
    RespConn c = srv->connect();
    std::vector<Args> keys;
    for (int i = 0; i < 20; i++) keys.push_back({"SET", "key:" + std::to_string(i), std::string(100, 'v')});
    pipeline(c, keys);
    ASSERT_EQ(c.call({"BGREWRITEAOF"}).raw, "+Background append only file rewriting started\r\n");
    const size_t started = shim.events().size();
    for (int i = 0; i < 5; i++) ASSERT_EQ(c.call({"SET", "during:" + std::to_string(i), "1"}).raw, "+OK\r\n");
    EXPECT_EQ(infoField(c, "persistence", "aof_rewrite_in_progress"), "1") << "the rewrite ended too early to test";
    ASSERT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_rewrite_in_progress") == "0"; }, Ms{10000}));
    const std::vector<Event> ev = shim.events();
    EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "ok");
    const std::string aofDir = aofDirPath(dir.path());
    size_t renamed = findEvent(ev, manifestRenamed(aofDir), started);
    ASSERT_LT(renamed, ev.size()) << "the rewrite was reported done before a manifest naming the new base was in place";
    size_t synced = findEvent(ev, directorySynced(inode(aofDir)), renamed + 1);
    EXPECT_LT(synced, ev.size()) << "the rewrite was reported done before appendonlydir was fsynced";
    expectBaseDurableBeforeItsRename(ev, dir, renamed);
}

/* ========================================================================
 * FsyncManifestFault: the manifest cannot be persisted
 * ====================================================================== */

/* A temp manifest that cannot be renamed, or fsynced, and Redis's line. */
struct ManifestFault {
    const char *rule;
    const char *logLine;
};
const ManifestFault kManifestFaults[] = {
    {"rename EIO temp-appendonly.aof.manifest",
     "Error trying to rename the temporary AOF manifest file temp-appendonly.aof.manifest into "
     "appendonly.aof.manifest: Input/output error"},
    {"sync EIO temp-appendonly.aof.manifest",
     "Fail to fsync the temp AOF file temp-appendonly.aof.manifest: Input/output error."},
};

const char *const kRewriteRefused =
    "-ERR Can't execute an AOF background rewriting. Please check the server logs for more information.\r\n";

using FsyncManifestFault = FsyncTest;

/* At BGREWRITEAOF's start: the rewrite is refused, the manifest stays as it
 * was, writes keep going to the old incr file, and nothing is lost. */
TEST_P(FsyncManifestFault, AtTheRewritesStartTheRewriteIsRefused) {
    auto srv = startAofServer(impl(), dir.path(), "always", &shim);
    RespConn c = srv->connect();
    std::map<std::string, std::string> acked;
    for (const ManifestFault &fault : kManifestFaults) {
        SCOPED_TRACE(fault.rule);
        ASSERT_EQ(c.call({"SET", std::string("before:") + fault.rule, "1"}).raw, "+OK\r\n");
        acked[std::string("before:") + fault.rule] = "1";
        const AofManifest manifest = readManifest(dir.path());
        const std::string incr = aofFile(dir.path());
        shim.inject(fault.rule);
        EXPECT_EQ(c.call({"BGREWRITEAOF"}).raw, kRewriteRefused);
        EXPECT_TRUE(srv->waitForLog(fault.logLine)) << srv->log();
        EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "err");
        EXPECT_EQ(infoField(c, "persistence", "aof_rewrite_in_progress"), "0");
        shim.clear();
        const Args after{"SET", std::string("after:") + fault.rule, "1"};
        ASSERT_EQ(c.call(after).raw, "+OK\r\n");
        acked[after[1]] = "1";
        EXPECT_EQ(readManifest(dir.path()).text, manifest.text) << "the manifest changed";
        EXPECT_TRUE(readFile(incr).ends_with(encodeCommand(after))) << "the write after the refusal is not in " << incr;
    }
    srv->kill9();
    expectAllAcknowledged(impl(), dir, acked);
}

/* At its end, after the new base's rename into appendonlydir: the base is
 * removed, the rewrite counts as failed, the manifest on disk is still the
 * one its start persisted (which loads), and nothing is lost. */
TEST_P(FsyncManifestFault, AtTheRewritesEndTheNewBaseIsRemoved) {
    auto srv = startAofServer(impl(), dir.path(), "always", &shim, {"--rdb-key-save-delay", "20000"});
    RespConn c = srv->connect();
    std::map<std::string, std::string> acked;
    auto set = [&](const std::string &key) {
        ASSERT_EQ(c.call({"SET", key, "1"}).raw, "+OK\r\n");
        acked[key] = "1";
    };
    for (int i = 0; i < 10; i++) set("key:" + std::to_string(i));
    long long failures = 0;
    for (const ManifestFault &fault : kManifestFaults) {
        SCOPED_TRACE(fault.rule);
        ASSERT_EQ(c.call({"BGREWRITEAOF"}).raw, "+Background append only file rewriting started\r\n");
        const AofManifest manifest = readManifest(dir.path());
        shim.inject(fault.rule);
        for (int i = 0; i < 5; i++) set(std::string("during:") + fault.rule + ":" + std::to_string(i));
        EXPECT_EQ(infoField(c, "persistence", "aof_rewrite_in_progress"), "1") << "the rewrite ended too early to test";
        ASSERT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_rewrite_in_progress") == "0"; }, Ms{10000}));
        EXPECT_TRUE(srv->waitForLog(fault.logLine)) << srv->log();
        EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "err");
        EXPECT_EQ(infoNumber(c, "persistence", "aof_rewrites_consecutive_failures"), ++failures);
        const std::vector<Event> ev = shim.events();
        auto base = std::find_if(ev.rbegin(), ev.rend(), [&](const Event &e) {
            return e.op == "rename" && e.ok() && e.to.starts_with(aofDirPath(dir.path()) + "/") &&
                   e.to.find(".base.") != std::string::npos;
        });
        ASSERT_NE(base, ev.rend()) << "the new base was never renamed into appendonlydir";
        EXPECT_TRUE(pollUntil([&] { return !std::filesystem::exists(base->to); })) << base->to << " is left behind";
        EXPECT_EQ(readManifest(dir.path()).text, manifest.text) << "the manifest is not the one of the rewrite's start";
        shim.clear();
        set(std::string("after:") + fault.rule);
    }
    srv->kill9();
    expectAllAcknowledged(impl(), dir, acked);
}

/* At start-up on an empty directory (the first manifest): the server
 * exits 1, and leaves no manifest. */
TEST_P(FsyncManifestFault, AtStartupTheServerExits) {
    for (const ManifestFault &fault : kManifestFaults) {
        SCOPED_TRACE(fault.rule);
        TempDir fresh;
        Shim faulty;
        faulty.inject(fault.rule);
        ServerOptions opts = aofServerOptions(impl(), fresh.path(), "always");
        std::vector<std::string> argv{"env"};
        for (const std::string &var : faulty.env(impl())) argv.push_back(var);
        argv.insert(argv.end(), {opts.binary, "--port", std::to_string(pickFreePort()), "--bind", "127.0.0.1"});
        argv.insert(argv.end(), opts.args.begin(), opts.args.end());
        ProcessResult r = runProcess(argv, {}, kStartTimeout);
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        EXPECT_NE((r.out + r.err).find(fault.logLine), std::string::npos) << r.out << r.err;
        EXPECT_FALSE(std::filesystem::exists(aofDirPath(fresh.path()) + "/appendonly.aof.manifest"));
    }
}

INSTANTIATE_TEST_SUITE_P(Servers, FsyncRewrite, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);
INSTANTIATE_TEST_SUITE_P(Servers, FsyncManifestFault, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
