/* aof_crash_test.cpp — nothing acknowledged is lost when the server dies at
 * any step of a BGREWRITEAOF of the multi-part AOF (issue 32, point 4).
 *
 * Three writers acknowledge writes under appendfsync always (crash_writers.h)
 * while a BGREWRITEAOF runs, its child slowed by rdb-key-save-delay; the
 * shim (fsync_shim.h) freezes the server or its child right at one step
 * (a stop rule: SIGSTOP before the call, seen as state T), and the test
 * kill -9s it there:
 *
 *   BeforeTheNewIncrManifestRename   the parent has created the new incr
 *                                    file and written the temp manifest
 *                                    naming it, not renamed it yet;
 *   AfterTheNewIncrManifestRename    renamed, its directory not fsynced yet;
 *   WhileTheChildWritesTheBase       the child stopped at the rename of its
 *                                    temp-rewriteaof-<pid>.aof, the writes
 *                                    going on into the new incr file;
 *   BetweenTheBaseRenameAndTheManifestRename  the new base is in
 *                                    appendonlydir, the manifest not yet;
 *   AfterTheNewBaseManifestRename    that manifest renamed, its directory not
 *                                    fsynced, the old files not yet removed;
 *   AfterTheRewrite                  all done, writes going on.
 *
 * After each, the directory must load with every acknowledged write: on the
 * same server's binary, and on the other one's (on a copy taken right after
 * the kill), since cppredis keeps the files exactly as Redis 7.0.15 does.
 * Every step runs on both servers; on Redis each expectation is Redis's own.
 * A kill -9 keeps the page cache: what must be fsynced before which step is
 * fsync_test.cpp's FsyncRewrite.
 */
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "integration/crash_writers.h"
#include "integration/fsync_shim.h"
#include "integration/harness.h"

using namespace itest;

namespace {

/* One step of the rewrite to die at: the stop rule that freezes there,
 * set before BGREWRITEAOF or once it has replied, and whether it is the
 * child that stops (no rule: die once the rewrite is over); then what the
 * kill leaves in appendonlydir, Redis 7.0.15's files on a directory that
 * started empty: the manifest, and every file (nullptr: not checked, the
 * history files going in the background). */
struct CrashStep {
    const char *name;
    const char *rule;
    bool afterReply = false;
    bool child = false;
    const char *manifest;
    const char *files;
};

#define BASE(n) "file appendonly.aof." #n ".base.rdb seq " #n " type b\n"
#define INCR(n) "file appendonly.aof." #n ".incr.aof seq " #n " type i\n"
#define HIST(n, kind) "file appendonly.aof." #n "." #kind " seq " #n " type h\n"
const CrashStep kBeforeTheNewIncrManifestRename{
    .name = "BeforeTheNewIncrManifestRename",
    .rule = "stop rename temp-appendonly.aof.manifest",
    .manifest = BASE(1) INCR(1),
    .files = "appendonly.aof.1.base.rdb appendonly.aof.1.incr.aof appendonly.aof.2.incr.aof appendonly.aof.manifest "
             "temp-appendonly.aof.manifest"};
const CrashStep kAfterTheNewIncrManifestRename{
    .name = "AfterTheNewIncrManifestRename",
    .rule = "stop sync appendonlydir$",
    .manifest = BASE(1) INCR(1) INCR(2),
    .files = "appendonly.aof.1.base.rdb appendonly.aof.1.incr.aof appendonly.aof.2.incr.aof appendonly.aof.manifest"};
const CrashStep kWhileTheChildWritesTheBase{
    .name = "WhileTheChildWritesTheBase",
    .rule = "stop rename temp-rewriteaof-",
    .child = true,
    .manifest = BASE(1) INCR(1) INCR(2),
    .files = "appendonly.aof.1.base.rdb appendonly.aof.1.incr.aof appendonly.aof.2.incr.aof appendonly.aof.manifest"};
const CrashStep kBetweenTheBaseRenameAndTheManifestRename{
    .name = "BetweenTheBaseRenameAndTheManifestRename",
    .rule = "stop rename temp-appendonly.aof.manifest",
    .afterReply = true,
    .manifest = BASE(1) INCR(1) INCR(2),
    .files = "appendonly.aof.1.base.rdb appendonly.aof.1.incr.aof appendonly.aof.2.base.rdb appendonly.aof.2.incr.aof "
             "appendonly.aof.manifest temp-appendonly.aof.manifest"};
const CrashStep kAfterTheNewBaseManifestRename{
    .name = "AfterTheNewBaseManifestRename",
    .rule = "stop sync appendonlydir$",
    .afterReply = true,
    .manifest = BASE(2) HIST(1, incr.aof) HIST(1, base.rdb) INCR(2),
    .files = "appendonly.aof.1.base.rdb appendonly.aof.1.incr.aof appendonly.aof.2.base.rdb appendonly.aof.2.incr.aof "
             "appendonly.aof.manifest"};
const CrashStep kAfterTheRewrite{
    .name = "AfterTheRewrite", .rule = nullptr, .afterReply = true, .manifest = BASE(2) INCR(2), .files = nullptr};
#undef BASE
#undef INCR
#undef HIST

/* The names in appendonlydir, sorted, space-separated ("" without one). */
std::string aofDirListing(const std::string &dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(aofDirPath(dir), ec))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const std::string &n : names) out += (out.empty() ? "" : " ") + n;
    return out;
}

/* Keys beyond the writers' nine, so that the child (20 ms a key) works for
 * about half a second, during which the writers go on. */
constexpr int kFillerKeys = 15;

class AofCrashStep : public ::testing::TestWithParam<ServerImpl> {
protected:
    /* Redis runs in every test: it loads cppredis's files too. */
    void SetUp() override { REQUIRE_REDIS_REFERENCE(); }
    /* A test that failed with a process still frozen: SIGTERM would wait
     * on it forever. */
    void TearDown() override {
        if (frozen <= 0 || processState(frozen) != 'T') return;
        if (srv && frozen == srv->pid()) srv->kill9();
        else ::kill(frozen, SIGKILL);
    }
    ServerImpl impl() const { return GetParam(); }
    const CrashStep &step() const { return *step_; }

    /* The server under the shim, some data, the writers running. */
    void start() {
        srv = startAofServer(impl(), dir.path(), "always", &shim, {"--rdb-key-save-delay", "20000"});
        RespConn c = srv->connect();
        std::vector<Args> fill;
        for (int i = 0; i < kFillerKeys; i++) fill.push_back({"SET", "filler:" + std::to_string(i), "x"});
        pipeline(c, fill);
        writers.start(srv->port());
        ASSERT_TRUE(writers.awaitMoreAcked(20)) << "the writers make no progress";
    }

    /* Dies at the step: BGREWRITEAOF, the stop (or the rewrite's end), a
     * kill -9 of the server and of its stopped child. */
    void crashAtStep() {
        RespConn admin = srv->connect();
        if (step().rule && !step().afterReply) shim.inject(step().rule);
        admin.cmd({"BGREWRITEAOF"});
        if (step().afterReply || !step().rule) {
            ASSERT_EQ(admin.readReply().raw, "+Background append only file rewriting started\r\n");
            ASSERT_TRUE(writers.awaitMoreAcked(10)) << "no write acknowledged while the child works";
        }
        if (step().rule && step().afterReply) shim.inject(step().rule);
        std::optional<Event> stop;
        if (step().rule) {
            stop = shim.awaitStop(Ms{10000});
            ASSERT_TRUE(stop) << "the server never reached the step (" << step().rule << ")\n" << srv->log();
            frozen = static_cast<pid_t>(stop->pid);
            EXPECT_EQ(stop->pid != srv->pid(), step().child)
                << "stopped in the " << (step().child ? "server, not its child" : "child, not the server") << ": "
                << stop->call << " " << stop->path;
            if (step().child) {
                ASSERT_TRUE(writers.awaitMoreAcked(10)) << "no write acknowledged with the child frozen";
            }
        } else {
            RespConn c = srv->connect();
            ASSERT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_rewrite_in_progress") == "0"; },
                                  Ms{10000}));
            EXPECT_EQ(infoField(c, "persistence", "aof_last_bgrewrite_status"), "ok");
            ASSERT_TRUE(writers.awaitMoreAcked(10));
        }
        srv->kill9();
        if (stop && step().child) ::kill(static_cast<pid_t>(stop->pid), SIGKILL);
        killRewriteChildren(*srv);
        writers.join();
        expectFilesOfTheStep(stop);
    }

    /* The kill fell where the step says: the files it left. */
    void expectFilesOfTheStep(const std::optional<Event> &stop) {
        EXPECT_EQ(readManifest(dir.path()).text, step().manifest) << "the manifest left at " << step().name;
        if (step().files) {
            EXPECT_EQ(aofDirListing(dir.path()), step().files) << "the files left at " << step().name;
        }
        if (stop && stop->call == "rename") {
            EXPECT_TRUE(std::filesystem::exists(stop->path)) << "the step's " << stop->path << " is gone";
        }
    }

    /* The files as the kill left them, loaded by `loader` in `where`. */
    void expectEveryAcknowledgedWrite(ServerImpl loader, const std::string &where) {
        std::string who = std::string(implName(loader)) + " loading " + implName(impl()) + "'s files (" +
                          step().name + ")";
        auto restarted = startAofServer(loader, where, "always", nullptr);
        EXPECT_TRUE(restarted->waitForLog("DB loaded from append only file")) << who << "\n" << restarted->log();
        RespConn c = restarted->connect();
        writers.expectAllHeld(c, who);
    }

    /* The whole test at `at`: the crash, then both binaries on the files. */
    void crashAt(const CrashStep &at) {
        step_ = &at;
        ASSERT_NO_FATAL_FAILURE(start());
        ASSERT_NO_FATAL_FAILURE(crashAtStep());
        ASSERT_GT(writers.acked(), 0);
        TempDir copy;
        std::filesystem::copy(dir.path(), copy.path(),
                              std::filesystem::copy_options::recursive |
                                  std::filesystem::copy_options::overwrite_existing);
        expectEveryAcknowledgedWrite(impl(), dir.path());
        expectEveryAcknowledgedWrite(otherImpl(impl()), copy.path());
    }

    TempDir dir;
    Shim shim;
    CrashWriters writers{3}; /* before srv: they run until it is gone */
    std::unique_ptr<TestServer> srv;
    pid_t frozen = 0; /* the process the stop rule froze */
    const CrashStep *step_ = nullptr;
};

TEST_P(AofCrashStep, BeforeTheNewIncrManifestRename) { crashAt(kBeforeTheNewIncrManifestRename); }
TEST_P(AofCrashStep, AfterTheNewIncrManifestRename) { crashAt(kAfterTheNewIncrManifestRename); }
TEST_P(AofCrashStep, WhileTheChildWritesTheBase) { crashAt(kWhileTheChildWritesTheBase); }
TEST_P(AofCrashStep, BetweenTheBaseRenameAndTheManifestRename) { crashAt(kBetweenTheBaseRenameAndTheManifestRename); }
TEST_P(AofCrashStep, AfterTheNewBaseManifestRename) { crashAt(kAfterTheNewBaseManifestRename); }
TEST_P(AofCrashStep, AfterTheRewrite) { crashAt(kAfterTheRewrite); }

INSTANTIATE_TEST_SUITE_P(Servers, AofCrashStep, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
