/* durability_test.cpp — what the server does when the disk fails it (issue
 * 13): fsync and directory-fsync failures, and children that vanish.
 *
 * The failures are injected in-process: this binary defines fsync() and
 * fdatasync() itself, so the server code linked into it calls these
 * instead of libc's. They pass through to the kernel unless a test arms an
 * error, and can tell a test what the AOF's name pointed to at the moment
 * of each call (the order of fsync and rename).
 *
 *   FsyncFileDir      the shared helper fsyncs the file's directory and
 *                     reports a failure.
 *   RdbSaveDurability a save whose directory fsync fails is no save.
 *   AofRewriteInstall a rewrite's end: the new manifest is fsynced before
 *                     it is renamed over the old one, its directory after;
 *                     a failure of either is a failed rewrite, and nothing
 *                     the manifest on disk names is removed.
 *   AofBioFsync       a failed background fsync refuses writes with Redis's
 *                     MISCONF text until a retried fsync succeeds; a failed
 *                     final fsync refuses SHUTDOWN unless FORCE.
 *   Children          a child reaped behind the server's back, and a
 *                     waitpid() interrupted by a signal while killing one.
 */
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "aof.h"
#include "bio.h"
#include "childinfo.h"
#include "rdb.h"
#include "server.h"
#include "util.h"
#include "command_test.h"

namespace {

std::atomic<int> fdatasync_errno{0};  /* fdatasync() fails with it when set */
std::atomic<int> fsync_dir_errno{0};  /* fsync() of a directory fails with it when set */
std::atomic<int> dir_fsyncs{0};       /* directories fsynced so far */
/* Called (from the calling thread) before each fsync/fdatasync when set. */
std::function<void(const char *call, int fd)> observer;

bool isDirectory(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

ino_t inodeOf(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 ? st.st_ino : 0;
}

ino_t inodeAt(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

}  // namespace

extern "C" int fdatasync(int fd) {
    if (observer) observer("fdatasync", fd);
    if (int e = fdatasync_errno.load()) {
        errno = e;
        return -1;
    }
    return static_cast<int>(syscall(SYS_fdatasync, fd));
}

extern "C" int fsync(int fd) {
    if (observer) observer("fsync", fd);
    if (isDirectory(fd)) {
        dir_fsyncs++;
        if (int e = fsync_dir_errno.load()) {
            errno = e;
            return -1;
        }
    }
    return static_cast<int>(syscall(SYS_fsync, fd));
}

namespace {

/* A temporary directory the test runs in (the server writes relative
 * names there), removed at the end along with every fault. */
class InTempDir : public CommandTest {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cppredis-durability-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        ASSERT_TRUE(getcwd(oldcwd_, sizeof(oldcwd_)));
        ASSERT_EQ(chdir(dir_.c_str()), 0);
    }
    void TearDown() override {
        observer = nullptr;
        fdatasync_errno = 0;
        fsync_dir_errno = 0;
        EXPECT_EQ(chdir(oldcwd_), 0);
        std::filesystem::remove_all(dir_);
    }
    std::string path(const std::string &name) const { return dir_ + "/" + name; }

    std::string dir_;
    char oldcwd_[4096];
};

std::string readAll(const std::string &path) {
    std::string out;
    if (FILE *f = fopen(path.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
        fclose(f);
    }
    return out;
}

void writeAll(const std::string &path, const std::string &bytes) {
    FILE *f = fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
    fclose(f);
}

/* ========================================================================
 * fsyncFileDir
 * ====================================================================== */

using FsyncFileDir = InTempDir;

TEST_F(FsyncFileDir, FsyncsTheDirectoryOfTheFile) {
    writeAll(path("f"), "x");
    ino_t dir_inode = inodeAt(dir_);
    std::vector<ino_t> synced;
    observer = [&](const char *, int fd) { synced.push_back(inodeOf(fd)); };
    EXPECT_EQ(fsyncFileDir(path("f").c_str()), 0);
    EXPECT_EQ(fsyncFileDir("f"), 0); /* a relative name: the working directory */
    observer = nullptr;
    EXPECT_EQ(synced, (std::vector<ino_t>{dir_inode, dir_inode}));
}

TEST_F(FsyncFileDir, ReportsAFailure) {
    fsync_dir_errno = EIO;
    errno = 0;
    EXPECT_EQ(fsyncFileDir(path("f").c_str()), -1);
    EXPECT_EQ(errno, EIO);
    fsync_dir_errno = EINVAL; /* a file system that cannot fsync directories */
    EXPECT_EQ(fsyncFileDir(path("f").c_str()), 0);
    EXPECT_EQ(fsyncFileDir("/nonexistent-dir/f"), -1);
    EXPECT_EQ(errno, ENOENT);
}

/* ========================================================================
 * rdbSave
 * ====================================================================== */

class RdbSaveDurability : public InTempDir {
protected:
    void SetUp() override {
        InTempDir::SetUp();
        if (!server.db) initDatabases();
        emptyData(-1, EMPTYDB_NO_FLAGS);
    }
};

TEST_F(RdbSaveDurability, TheRenameIsFsyncedThroughTheDirectory) {
    int before = dir_fsyncs;
    EXPECT_EQ(rdbSave("dump.rdb"), C_OK);
    EXPECT_EQ(dir_fsyncs, before + 1);
}

/* Redis: "Write error saving DB on disk(fsyncFileDir): ...", C_ERR. */
TEST_F(RdbSaveDurability, AFailedDirectoryFsyncFailsTheSave) {
    fsync_dir_errno = EIO;
    server.lastbgsave_status = C_OK;
    EXPECT_EQ(rdbSave("dump.rdb"), C_ERR);
}

/* ========================================================================
 * Installing a rewritten AOF (backgroundRewriteDoneHandler)
 * ====================================================================== */

/* An AOF as start-up makes it (base 1, incr 1, the manifest naming them),
 * and the file a rewrite child with pid kChildPid left behind. */
class AofRewriteInstall : public InTempDir {
protected:
    void SetUp() override {
        InTempDir::SetUp();
        server.aof_filename = "appendonly.aof";
        server.aof_dirname = "appendonlydir";
        server.aof_enabled = true;
        server.aof_fsync = AOF_FSYNC_EVERYSEC;
        aofLoadManifestFromDisk();
        aofOpenIfNeededOnServerStart();
        ASSERT_EQ(server.aof_state, AOF_ON);
        old_manifest_ = readAll(kManifest);
        ASSERT_EQ(old_manifest_, "file appendonly.aof.1.base.rdb seq 1 type b\n"
                                 "file appendonly.aof.1.incr.aof seq 1 type i\n");
        old_manifest_inode_ = inodeAt(kManifest);
        old_fd_ = server.aof_fd;
        server.child_pid = kChildPid;
        writeAll(kChildFile, kRewritten);
        server.aof_lastbgrewrite_status = C_OK;
        server.stat_aofrw_consecutive_failures = 0;
    }
    void TearDown() override {
        if (server.aof_fd != -1) close(server.aof_fd);
        server.aof_fd = -1;
        server.aof_state = AOF_OFF;
        server.aof_enabled = false;
        server.child_pid = -1;
        server.aof_lastbgrewrite_status = C_OK;
        server.stat_aofrw_consecutive_failures = 0;
        waitBioClose();
        aofLoadManifestFromDisk(); /* none in the next test's directory: an empty manifest */
        InTempDir::TearDown();
    }
    static void waitBioClose() {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (bioPendingJobsOfType(BIO_CLOSE_FILE) && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }

    static constexpr pid_t kChildPid = 4242;
    static constexpr const char *kChildFile = "temp-rewriteaof-bg-4242.aof";
    static constexpr const char *kManifest = "appendonlydir/appendonly.aof.manifest";
    static constexpr const char *kOldBase = "appendonlydir/appendonly.aof.1.base.rdb";
    static constexpr const char *kNewBase = "appendonlydir/appendonly.aof.2.base.rdb";
    static constexpr const char *kRewritten = "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n";
    std::string old_manifest_;
    ino_t old_manifest_inode_ = 0;
    int old_fd_ = -1;
};

/* The new manifest reaches the disk while the old one is still the
 * manifest; the directory is fsynced once the name points to the new one;
 * then the history files go. */
TEST_F(AofRewriteInstall, ManifestFsyncedBeforeItsRenameDirectoryAfter) {
    struct Call {
        ino_t synced, named;
    };
    std::vector<Call> calls;
    observer = [&](const char *, int fd) { calls.push_back({inodeOf(fd), inodeAt(kManifest)}); };
    backgroundRewriteDoneHandler(0, 0);
    observer = nullptr;
    EXPECT_EQ(server.aof_lastbgrewrite_status, C_OK);
    EXPECT_EQ(readAll(kManifest), "file appendonly.aof.2.base.rdb seq 2 type b\n"
                                  "file appendonly.aof.1.incr.aof seq 1 type i\n");
    EXPECT_EQ(readAll(kNewBase), kRewritten);
    /* The manifest is written twice: naming the new base, then without the
     * history files, once they are deleted. */
    ino_t dir = inodeAt("appendonlydir"), first_new = 0;
    bool dir_after_rename = false;
    for (const Call &c : calls) {
        if (!first_new && c.synced != dir && c.synced != old_manifest_inode_ && c.named == old_manifest_inode_)
            first_new = c.synced;
        if (first_new && c.synced == dir && c.named == first_new) dir_after_rename = true;
    }
    bool temp_before_rename = first_new != 0;
    EXPECT_TRUE(temp_before_rename) << "the new manifest was not fsynced before its rename";
    EXPECT_TRUE(dir_after_rename) << "the directory was not fsynced after the rename";
    EXPECT_FALSE(fileExist(kOldBase)) << "the history base is deleted";
    EXPECT_EQ(server.aof_fd, old_fd_) << "writes still go to incr 1";
}

/* Redis 7.0: a manifest that cannot be fsynced is not renamed; the old one
 * stays the AOF and the new base goes. */
TEST_F(AofRewriteInstall, AFailedManifestFsyncKeepsTheOldManifest) {
    fdatasync_errno = EIO;
    backgroundRewriteDoneHandler(0, 0);
    fdatasync_errno = 0;
    EXPECT_EQ(server.aof_lastbgrewrite_status, C_ERR);
    EXPECT_EQ(server.stat_aofrw_consecutive_failures, 1);
    EXPECT_EQ(readAll(kManifest), old_manifest_);
    EXPECT_TRUE(fileExist(kOldBase));
    EXPECT_FALSE(fileExist(kNewBase)) << "the new base is removed";
    EXPECT_FALSE(fileExist(kChildFile)) << "the temp file is removed";
    EXPECT_EQ(aofCurrentManifest().base_aof_info->file_name, "appendonly.aof.1.base.rdb");
}

/* After the rename the manifest on disk names the new base: it stays, and
 * so does the old base (the old manifest may come back at a power loss
 * until the directory is on disk), but the rewrite is not reported done. */
TEST_F(AofRewriteInstall, AFailedDirectoryFsyncIsAFailedRewriteThatKeepsBothBases) {
    fsync_dir_errno = EIO;
    backgroundRewriteDoneHandler(0, 0);
    fsync_dir_errno = 0;
    EXPECT_EQ(server.aof_lastbgrewrite_status, C_ERR);
    EXPECT_EQ(server.stat_aofrw_consecutive_failures, 1);
    EXPECT_EQ(aofCurrentManifest().base_aof_info->file_name, "appendonly.aof.2.base.rdb");
    EXPECT_TRUE(fileExist(kNewBase));
    EXPECT_TRUE(fileExist(kOldBase));
}

/* An empty AOF at start-up gets its first base, on disk before its name. */
TEST_F(AofRewriteInstall, TheFirstBaseIsFsyncedBeforeItsRename) {
    std::vector<std::pair<ino_t, bool>> file_syncs; /* inode, whether the name existed yet */
    observer = [&](const char *, int fd) {
        if (!isDirectory(fd)) file_syncs.emplace_back(inodeOf(fd), inodeAt("appendonlydir/x.aof.1.base.rdb") != 0);
    };
    server.aof_filename = "x.aof";
    close(server.aof_fd);
    server.aof_fd = -1;
    aofLoadManifestFromDisk();
    aofOpenIfNeededOnServerStart();
    observer = nullptr;
    ino_t base = inodeAt("appendonlydir/x.aof.1.base.rdb");
    ASSERT_NE(base, 0u);
    bool before = std::any_of(file_syncs.begin(), file_syncs.end(),
                              [&](auto &s) { return s.first == base && !s.second; });
    EXPECT_TRUE(before) << "the first base was not fsynced before its rename";
    server.aof_filename = "appendonly.aof";
}

/* ========================================================================
 * Background fsync under everysec
 * ====================================================================== */

class AofBioFsync : public InTempDir {
protected:
    void SetUp() override {
        InTempDir::SetUp();
        server.aof_fd = open(path("appendonly.aof").c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
        ASSERT_NE(server.aof_fd, -1);
        server.aof_state = AOF_ON;
        server.aof_fsync = AOF_FSYNC_EVERYSEC;
        server.aof_selected_db = 0;
    }
    void TearDown() override {
        waitBio();
        freeClients();
        close(server.aof_fd);
        server.aof_fd = -1;
        server.aof_state = AOF_OFF;
        server.aof_buf.clear();
        server.aof_bio_fsync_status = C_OK;
        server.aof_last_write_status = C_OK;
        server.aof_current_size = server.aof_last_incr_size = server.aof_last_incr_fsync_offset = 0;
        emptyData(-1, EMPTYDB_NO_FLAGS);
        InTempDir::TearDown();
    }
    static void waitBio() {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (bioPendingJobsOfType(BIO_AOF_FSYNC) && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ASSERT_EQ(bioPendingJobsOfType(BIO_AOF_FSYNC), 0u);
    }
    /* What serverCron does once a second later. */
    static void cronASecondLater() {
        server.mstime = server.aof_last_fsync + 1000;
        aofCron();
        waitBio();
    }
};

TEST_F(AofBioFsync, AFailureRefusesWritesUntilARetrySucceeds) {
    client *c = newClient();
    fdatasync_errno = EIO;
    bioCreateJob(BIO_AOF_FSYNC, server.aof_fd);
    waitBio();
    /* Byte for byte Redis 7.0.15's reply. */
    EXPECT_EQ(run(c, "SET k v\r\n"), "-MISCONF Errors writing to the AOF file: Input/output error\r\n");
    EXPECT_EQ(run(c, "GET k\r\n"), "$-1\r\n") << "reads are served";
    std::string info;
    {
        InfoSection section(info, "Persistence");
        aofInfoFields(section);
    }
    EXPECT_NE(info.find("aof_last_write_status:err\r\n"), std::string::npos) << info;

    cronASecondLater(); /* the retry fails too */
    EXPECT_EQ(run(c, "SET k v\r\n"), "-MISCONF Errors writing to the AOF file: Input/output error\r\n");

    fdatasync_errno = 0;
    cronASecondLater(); /* nothing new was written, yet the fsync is retried */
    EXPECT_EQ(run(c, "SET k v\r\n"), "+OK\r\n");
}

/* A descriptor closed or reused under the fsync (EBADF, EINVAL) is no disk
 * failure, as in Redis. */
TEST_F(AofBioFsync, BadDescriptorIsNoDiskFailure) {
    fdatasync_errno = EINVAL;
    bioCreateJob(BIO_AOF_FSYNC, server.aof_fd);
    waitBio();
    EXPECT_EQ(writeCommandsDeniedByDiskError(), nullptr);
}

/* CONFIG SET appendonly yes starts a new file: the old file's error goes. */
TEST_F(AofBioFsync, TurningTheAofOnAgainClearsTheError) {
    fdatasync_errno = EIO;
    bioCreateJob(BIO_AOF_FSYNC, server.aof_fd);
    waitBio();
    ASSERT_NE(writeCommandsDeniedByDiskError(), nullptr);
    stopAppendOnly();
    waitBio();
    EXPECT_EQ(writeCommandsDeniedByDiskError(), nullptr) << "the AOF is off";
    ASSERT_EQ(server.aof_bio_fsync_status, C_ERR);
    fdatasync_errno = 0;
    server.aof_filename = "appendonly.aof";
    server.aof_rewrite_scheduled = false;
    server.execution_nesting = 2; /* as inside EXEC: the rewrite is only scheduled, no fork here */
    ASSERT_EQ(startAppendOnly(), C_OK);
    server.execution_nesting = 0;
    server.aof_rewrite_scheduled = false;
    EXPECT_EQ(writeCommandsDeniedByDiskError(), nullptr);
}

/* SHUTDOWN's last fsync of the AOF fails: the server must not exit (the
 * writes acknowledged under everysec may not be on disk), unless FORCE. */
TEST_F(AofBioFsync, AFailedFinalFsyncRefusesTheShutdownUnlessForce) {
    fdatasync_errno = EIO;
    EXPECT_EQ(aofPrepareForShutdown(false), C_ERR);
    EXPECT_EQ(aofPrepareForShutdown(true), C_OK);
    fdatasync_errno = 0;
    EXPECT_EQ(aofPrepareForShutdown(false), C_OK);
}

/* ========================================================================
 * Children
 * ====================================================================== */

class Children : public ::testing::Test {
protected:
    void TearDown() override {
        server.child_pid = -1;
        server.child_type = CHILD_TYPE_NONE;
        server.lastbgsave_status = C_OK;
    }
};

/* waitpid() says ECHILD: the child can never be reaped. Left as the
 * current child it would refuse every BGSAVE and BGREWRITEAOF for good. */
TEST_F(Children, ALostChildIsConcludedAsFailed) {
    pid_t pid = fork();
    ASSERT_NE(pid, -1);
    if (pid == 0) _exit(0);
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid); /* reaped behind the server's back */
    server.child_pid = pid;
    server.child_type = CHILD_TYPE_RDB;
    server.lastbgsave_status = C_OK;
    checkChildrenDone();
    EXPECT_EQ(server.child_pid, -1);
    EXPECT_FALSE(hasActiveChildProcess());
    EXPECT_EQ(server.lastbgsave_status, C_ERR) << "a save whose outcome is unknown is no save";
}

std::atomic<bool> got_usr1{false};
void onUsr1(int) { got_usr1 = true; }
void onAlarm(int) {}

/* A signal landing while killRDBChild waits must not leave the child
 * unreaped (and the server believing it gone). The child takes a while to
 * exit after SIGUSR1; an interval timer interrupts the wait meanwhile. */
TEST_F(Children, KillRDBChildWaitsThroughSignals) {
    struct sigaction usr1 {}, old_usr1 {}, alarm {}, old_alarm {};
    usr1.sa_handler = onUsr1;
    sigaction(SIGUSR1, &usr1, &old_usr1); /* inherited by the child */
    /* Blocked until the child waits for it in sigsuspend(), which unblocks
     * and sleeps in one step: a SIGUSR1 arriving between a check of
     * got_usr1 and pause() would be lost, and the child would never exit. */
    sigset_t block_usr1, old_mask;
    sigemptyset(&block_usr1);
    sigaddset(&block_usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block_usr1, &old_mask);
    pid_t pid = fork();
    ASSERT_NE(pid, -1);
    if (pid == 0) {
        while (!got_usr1) sigsuspend(&old_mask);
        usleep(300 * 1000);
        _exit(0);
    }
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    sigaction(SIGUSR1, &old_usr1, nullptr);
    alarm.sa_handler = onAlarm; /* no SA_RESTART: waitpid() returns EINTR */
    sigaction(SIGALRM, &alarm, &old_alarm);
    itimerval every10ms{{0, 10000}, {0, 10000}}, off{};
    setitimer(ITIMER_REAL, &every10ms, nullptr);

    server.child_pid = pid;
    server.child_type = CHILD_TYPE_RDB;
    killRDBChild();

    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &old_alarm, nullptr);
    EXPECT_EQ(server.child_pid, -1);
    int status;
    errno = 0;
    pid_t again = waitpid(pid, &status, WNOHANG);
    EXPECT_EQ(again, -1) << "the child was not reaped";
    EXPECT_EQ(errno, ECHILD);
    if (again == 0) waitpid(pid, &status, 0);
}

}  // namespace
