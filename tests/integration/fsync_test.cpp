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
 *   FsyncRewrite   BGREWRITEAOF: the new file is fsynced before it is renamed
 *                  over the AOF, and its directory after, before INFO reports
 *                  the rewrite finished.
 *
 * All but FsyncRewrite run on cppredis and on Redis 7.0.15 (the same shim
 * preloaded into /usr/bin/redis-server), so each expectation is Redis's own.
 * FsyncRewrite is cppredis's alone: Redis 7's rewrite makes a new base file
 * and manifest in appendonlydir, a different sequence of files.
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

#include "integration/harness.h"

#ifndef CPPREDIS_FSYNC_SHIM
#error "CPPREDIS_FSYNC_SHIM must name the shim library (the Makefile defines it)"
#endif

using namespace itest;

namespace {

/* ========================================================================
 * The shim's side: its event log and control file
 * ====================================================================== */

/* One line of the event log (see fsync_shim.cpp). */
struct Event {
    std::string op, err, path, from, to;
    long long pid = 0, tid = 0, ino = 0, size = 0, ret = 0;

    bool isSync() const { return op == "fsync" || op == "fdatasync"; }
    bool ok() const { return ret != -1; }
};

Event parseEvent(const std::string &line) {
    std::istringstream in(line);
    Event e;
    in >> e.op;
    std::map<std::string, std::string> kv;
    for (std::string word; in >> word;) {
        size_t eq = word.find('=');
        if (eq != std::string::npos) kv[word.substr(0, eq)] = word.substr(eq + 1);
    }
    auto num = [&](const char *key) { return kv.count(key) ? std::stoll(kv[key]) : 0; };
    e.pid = num("pid"), e.tid = num("tid"), e.ino = num("ino"), e.size = num("size"), e.ret = num("ret");
    e.err = kv["err"], e.path = kv["path"], e.from = kv["from"], e.to = kv["to"];
    return e;
}

/* The event log and the control file of one server, in a directory apart
 * from the server's own (whose fsyncs the tests count). */
class Shim {
public:
    Shim() { inject(""); }

    /* LD_PRELOAD and the shim's variables; the sanitized cppredis needs
     * ASan's runtime first. */
    std::vector<std::string> env(ServerImpl impl) const {
        std::string preload = CPPREDIS_FSYNC_SHIM;
        if (impl == ServerImpl::Cppredis && sanitizedBuild()) preload = std::string(CPPREDIS_ASAN_RUNTIME) + " " + preload;
        return {"LD_PRELOAD=" + preload, "FSYNC_SHIM_LOG=" + files_.file("events.log"),
                "FSYNC_SHIM_CTL=" + files_.file("control")};
    }

    /* Replaces the fault rules (one per line: "<op> <ERRNO> <path> [max-size]");
     * by a rename, so the server never reads half a file. */
    void inject(const std::string &rules) {
        writeFile(files_.file("control.new"), rules);
        std::filesystem::rename(files_.file("control.new"), files_.file("control"));
    }
    void clear() { inject(""); }

    std::vector<Event> events() const {
        std::vector<Event> out;
        std::istringstream in(readFile(files_.file("events.log")));
        for (std::string line; std::getline(in, line);) out.push_back(parseEvent(line));
        return out;
    }

private:
    TempDir files_;
};

long long inode(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_ino) : -1;
}

long long fileSize(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : -1;
}

/* The largest size of `ino` that a successful fsync made durable among
 * events[0, end); -1 if none. */
long long durableSize(const std::vector<Event> &events, long long ino, size_t end) {
    long long durable = -1;
    for (size_t i = 0; i < end && i < events.size(); i++)
        if (events[i].isSync() && events[i].ok() && events[i].ino == ino) durable = std::max(durable, events[i].size);
    return durable;
}

/* ========================================================================
 * The server's side
 * ====================================================================== */

/* A server (cppredis or Redis 7.0.15) with its AOF in `dir`, under `shim`
 * if given. */
std::unique_ptr<TestServer> startServer(ServerImpl impl, const TempDir &dir, const std::string &fsync,
                                        const Shim *shim, std::vector<std::string> extra = {}) {
    ServerOptions opts;
    opts.args = {"--dir", dir.path(), "--appendonly", "yes", "--appendfsync", fsync, "--save", ""};
    opts.args.insert(opts.args.end(), extra.begin(), extra.end());
    if (impl == ServerImpl::Redis) opts.binary = RedisReference::kBinary;
    if (shim) opts.env = shim->env(impl);
    return std::make_unique<TestServer>(opts);
}

/* The file the server appends commands to, as an absolute path without
 * symlinks (as the shim reports it): cppredis's appendonly.aof, Redis 7's
 * incremental file in appendonlydir. */
std::string aofFile(ServerImpl impl, const TempDir &dir) {
    namespace fs = std::filesystem;
    fs::path base = fs::canonical(dir.path());
    if (impl == ServerImpl::Cppredis) return (base / "appendonly.aof").string();
    for (const auto &entry : fs::directory_iterator(base / "appendonlydir"))
        if (entry.path().string().ends_with(".incr.aof")) return entry.path().string();
    ADD_FAILURE() << "no incremental AOF file in " << (base / "appendonlydir");
    return {};
}

std::string misconf(const std::string &why) { return "-MISCONF Errors writing to the AOF file: " + why + "\r\n"; }

/* Restarted without the shim on the files in `dir`: each key has its value. */
void expectAllAcknowledged(ServerImpl impl, const TempDir &dir, const std::map<std::string, std::string> &acked) {
    auto srv = startServer(impl, dir, "everysec", nullptr);
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
    auto srv = startServer(impl(), dir, "always", &shim);
    const std::string aof = aofFile(impl(), dir);
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
    auto srv = startServer(impl(), dir, "always", &shim);
    RespConn c = srv->connect();
    ASSERT_EQ(c.call({"SET", "k", "1"}).raw, "+OK\r\n");
    shim.inject("sync EIO " + aofFile(impl(), dir));
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
    auto srv = startServer(impl(), dir, "everysec", &shim);
    RespConn c = srv->connect();
    for (int i = 0; i < 40; i++)
        ASSERT_EQ(c.call({"SET", "expiring:" + std::to_string(i), "x", "PX", std::to_string(1500 + 500 * i)}).raw,
                  "+OK\r\n");
    const std::string aof = aofFile(impl(), dir);
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
    auto srv = startServer(impl(), dir, "everysec", &shim);
    RespConn c = srv->connect();
    std::map<std::string, std::string> acked;
    auto set = [&](const std::string &key, const std::string &value) {
        Reply r = c.call({"SET", key, value});
        if (r.raw == "+OK\r\n") acked[key] = value;
        return r;
    };
    for (int i = 0; i < 10; i++) ASSERT_EQ(set("before:" + std::to_string(i), std::to_string(i)).raw, "+OK\r\n");
    const std::string aof = aofFile(impl(), dir);
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
    auto srv = startServer(impl(), dir, "always", &shim);
    RespConn c = srv->connect();
    std::map<std::string, std::string> acked;
    for (int i = 0; i < 10; i++) {
        std::string key = "before:" + std::to_string(i);
        ASSERT_EQ(c.call({"SET", key, std::to_string(i)}).raw, "+OK\r\n");
        acked[key] = std::to_string(i);
    }
    shim.inject(diskFullRule(aofFile(impl(), dir)));
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
 * FsyncRewrite (cppredis only)
 * ====================================================================== */

/* What the shim saw of one BGREWRITEAOF under `fsync`, slowed down by
 * rdb-key-save-delay and with writes while the child works (so the parent
 * appends them to the new file): the events up to the moment INFO first
 * reported the rewrite finished, the new AOF's inode, the index of its
 * rename over the AOF (events.size() if none), and the parent's pid. */
struct RewriteSeen {
    std::vector<Event> events;
    long long ino = -1;
    size_t rename = 0;
    long long parent = 0;
};

RewriteSeen observeRewrite(const std::string &fsync) {
    TempDir dir;
    Shim shim;
    auto srv = startServer(ServerImpl::Cppredis, dir, fsync, &shim, {"--rdb-key-save-delay", "20000"});
    const std::string aof = aofFile(ServerImpl::Cppredis, dir);
    RespConn c = srv->connect();
    std::vector<Args> keys;
    for (int i = 0; i < 40; i++) keys.push_back({"SET", "key:" + std::to_string(i), std::string(100, 'v')});
    pipeline(c, keys);
    EXPECT_EQ(c.call({"BGREWRITEAOF"}).raw, "+Background append only file rewriting started\r\n");
    for (int i = 0; i < 10; i++) EXPECT_EQ(c.call({"SET", "during:" + std::to_string(i), "1"}).raw, "+OK\r\n");
    EXPECT_EQ(infoField(c, "persistence", "aof_rewrite_in_progress"), "1") << "the rewrite ended too early to test";
    EXPECT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_rewrite_in_progress") == "0"; }, Ms{30000}));
    RewriteSeen seen{shim.events(), inode(aof), 0, srv->pid()};
    EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "ok");
    const std::vector<Event> &ev = seen.events;
    for (seen.rename = 0; seen.rename < ev.size(); seen.rename++) {
        const Event &e = ev[seen.rename];
        if (e.op == "rename" && e.ino == seen.ino && e.to == aof && e.ok()) break;
    }
    EXPECT_LT(seen.rename, ev.size()) << "no rename of the rewritten file to " << aof;
    /* The directory holding the AOF, fsynced after the rename. */
    const long long dirIno = inode(dir.path());
    bool dirFsynced = false;
    for (size_t i = seen.rename + 1; i < ev.size(); i++)
        if (ev[i].isSync() && ev[i].ok() && ev[i].ino == dirIno) dirFsynced = true;
    EXPECT_TRUE(dirFsynced) << "the directory was not fsynced after the rename, before the rewrite was reported done";
    return seen;
}

/* The size of the new file after the last write to it before the rename
 * by a process `by` accepts; 0 if none. */
template <typename By>
long long writtenBeforeRename(const RewriteSeen &seen, By by) {
    long long size = 0;
    for (size_t i = 0; i < seen.rename; i++) {
        const Event &e = seen.events[i];
        if (e.op == "write" && e.ino == seen.ino && e.ok() && by(e)) size = e.size;
    }
    return size;
}

/* Under always, the whole new file — the child's dataset and the writes
 * the parent appended — is durable before the rename can make it the AOF
 * (Redis 7 fsyncs each file before the manifest names it), and the rename
 * itself is made durable by fsyncing the directory; both before the rewrite
 * is reported done. */
TEST(FsyncRewrite, AlwaysFsyncsTheNewFileBeforeItsRenameAndTheDirectoryAfter) {
    RewriteSeen seen = observeRewrite("always");
    ASSERT_LT(seen.rename, seen.events.size());
    EXPECT_GT(writtenBeforeRename(seen, [&](const Event &e) { return e.pid == seen.parent; }), 0)
        << "the writes made during the rewrite were not appended to the new file";
    long long whole = writtenBeforeRename(seen, [](const Event &) { return true; });
    EXPECT_GE(durableSize(seen.events, seen.ino, seen.rename), whole)
        << "the new AOF was renamed before an fsync covered all of it";
}

/* Under everysec the writes appended by the parent may wait for the next
 * background fsync, as any other write; the child's dataset may not, and the
 * rename must be durable before the rewrite is reported done. */
TEST(FsyncRewrite, EverysecFsyncsTheChildsFileBeforeItsRenameAndTheDirectoryAfter) {
    RewriteSeen seen = observeRewrite("everysec");
    ASSERT_LT(seen.rename, seen.events.size());
    long long childWrote = writtenBeforeRename(seen, [&](const Event &e) { return e.pid != seen.parent; });
    EXPECT_GT(childWrote, 0) << "no write of the child seen";
    EXPECT_GE(durableSize(seen.events, seen.ino, seen.rename), childWrote)
        << "the child's file was renamed before an fsync covered it";
}

}  // namespace
