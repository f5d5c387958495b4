/* childinfo.cpp — the child-info pipe (Redis's childinfo.c), and forking and
 * reaping the children that use it (in Redis, server.c's redisFork and
 * checkChildrenDone); see childinfo.h. */
#include "childinfo.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ae.h"
#include "aof.h"
#include "latency.h"
#include "rdb.h"
#include "server.h"
#include "setcpuaffinity.h"
#include "livetrace.h"
#include "zmalloc.h"

namespace {

/* One message, written and read whole: both ends are the same binary, and
 * a pipe write under PIPE_BUF bytes is atomic. */
struct child_info_data {
    size_t keys;
    size_t cow;
    monotime cow_updated; /* CLOCK_MONOTONIC, the same in parent and child */
    childInfoType information_type;
};

/* The child measures its CoW at most this many times its own cost apart:
 * reading smaps takes time the save would otherwise use (Redis's
 * CHILD_COW_DUTY_CYCLE). */
constexpr long long CHILD_COW_DUTY_CYCLE = 100;

void updateChildInfo(const child_info_data &d) {
    if (d.cow > server.stat_current_cow_peak) server.stat_current_cow_peak = d.cow;
    switch (d.information_type) {
    case CHILD_INFO_TYPE_CURRENT_INFO:
        server.stat_current_cow_bytes = d.cow;
        server.stat_current_cow_updated = d.cow_updated;
        server.stat_current_save_keys_processed = d.keys;
        break;
    case CHILD_INFO_TYPE_AOF_COW_SIZE: server.stat_aof_cow_bytes = server.stat_current_cow_peak; break;
    case CHILD_INFO_TYPE_RDB_COW_SIZE: server.stat_rdb_cow_bytes = server.stat_current_cow_peak; break;
    }
}

/* A read may stop inside a message (the child was writing it): the bytes
 * wait in `buffer` for the rest, counted by server.child_info_nread. */
bool readChildInfo(child_info_data &out) {
    static child_info_data buffer;
    constexpr size_t wlen = sizeof(buffer);
    if (server.child_info_nread == wlen) server.child_info_nread = 0;
    ssize_t nread = read(server.child_info_pipe[0], reinterpret_cast<char *>(&buffer) + server.child_info_nread,
                         wlen - server.child_info_nread);
    if (nread > 0) server.child_info_nread += static_cast<size_t>(nread);
    if (server.child_info_nread != wlen) return false;
    out = buffer;
    return true;
}

} // namespace

void openChildInfoPipe() {
    /* The parent reads from serverCron and must never wait on the child. */
    if (pipe2(server.child_info_pipe, O_CLOEXEC) == -1 ||
        fcntl(server.child_info_pipe[0], F_SETFL, O_NONBLOCK) == -1) {
        closeChildInfoPipe();
        return;
    }
    server.child_info_nread = 0;
}

void closeChildInfoPipe() {
    for (int &fd : server.child_info_pipe) {
        if (fd != -1) close(fd);
        fd = -1;
    }
    server.child_info_nread = 0;
}

void keepChildInfoPipeEnd(int end) {
    int &other = server.child_info_pipe[1 - end];
    if (other != -1) close(other);
    other = -1;
}

void sendChildInfo(childInfoType info_type, size_t keys, const char *pname) {
    if (server.child_info_pipe[1] == -1) return;

    /* The child's running CoW figures, for its log line. */
    static monotime cow_updated = 0, cow_update_cost = 0;
    static size_t cow = 0, peak_cow = 0, update_count = 0;
    static unsigned long long sum_cow = 0;

    monotime now = getMonotonicUs();
    if (info_type != CHILD_INFO_TYPE_CURRENT_INFO || !cow_updated ||
        now - cow_updated > cow_update_cost * CHILD_COW_DUTY_CYCLE) {
        cow = zmalloc_get_private_dirty();
        cow_updated = getMonotonicUs();
        cow_update_cost = cow_updated - now;
        peak_cow = std::max(peak_cow, cow);
        sum_cow += cow;
        update_count++;
        bool final_report = info_type != CHILD_INFO_TYPE_CURRENT_INFO;
        if (cow || final_report)
            serverLog(final_report ? LL_NOTICE : LL_VERBOSE, "Fork CoW for %s: current %zu MB, peak %zu MB, average %llu MB",
                      pname, cow >> 20, peak_cow >> 20, (sum_cow / update_count) >> 20);
    }

    child_info_data data;
    memset(&data, 0, sizeof(data)); /* the padding too: it goes down the pipe */
    data.information_type = info_type;
    data.keys = keys;
    data.cow = cow;
    data.cow_updated = cow_updated;
    if (write(server.child_info_pipe[1], &data, sizeof(data)) != static_cast<ssize_t>(sizeof(data))) {
        /* The parent is gone: nobody is left to use what the child writes. */
        serverLog(LL_WARNING, "Child failed reporting info to parent, exiting. %s", strerror(errno));
        _exit(1);
    }
}

void reportSaveProgress(size_t &key_counter, long long &info_updated_time, const char *pname) {
    if ((key_counter++ & 1023) != 0) return;
    long long now = mstime();
    if (now - info_updated_time < 1000) return;
    sendChildInfo(CHILD_INFO_TYPE_CURRENT_INFO, key_counter, pname);
    info_updated_time = now;
}

void sendChildCowInfo(childInfoType info_type, const char *pname) { sendChildInfo(info_type, 0, pname); }

void receiveChildInfo() {
    if (server.child_info_pipe[0] == -1) return;
    child_info_data d;
    while (readChildInfo(d)) updateChildInfo(d);
}

/* ========================================================================
 * Background children: BGSAVE and BGREWRITEAOF fork the server and let the
 * child write the snapshot of memory that fork() gave it, while the parent
 * keeps serving. One child at a time (Redis's hasActiveChildProcess), so a
 * rewrite and a save never compete for the disk or double the memory.
 * In Redis these are in server.c; here they sit with the child-info pipe
 * they open and close, in the layer of rdb and aof, the only ones to fork
 * (tools/check_layers.sh: the server's layer may not call up to them).
 * ====================================================================== */

bool hasActiveChildProcess() { return server.child_pid != -1; }

/* When the running child was forked (traceNow), for its end's duration
 * even when tracing started after the fork. */
static monotime child_started = 0;

/* TRACE_CHILD's name of a child type. */
static const char *traceChildType(int type) {
    switch (type) {
    case CHILD_TYPE_RDB: return "rdb";
    case CHILD_TYPE_AOF: return "aof-rewrite";
    default: return "unknown";
    }
}

/* Returns the child's pid in the parent, 0 in the child, -1 if fork()
 * failed. The child drops what belongs to the parent alone: it must not
 * accept connections nor answer signals meant for the server. */
pid_t redisFork(int child_type) {
    if (hasActiveChildProcess()) {
        errno = EEXIST;
        return -1;
    }
    openChildInfoPipe();
    long long start = ustime();
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        closeListeningSockets(false);
        /* The OOM killer takes a child before its parent (oom-score-adj),
         * ps tells what it is, and it runs on its own CPUs if configured,
         * as Redis's children do. */
        setOOMScoreAdj(CONFIG_OOM_BGCHILD);
        redisSetProcTitle(child_type == CHILD_TYPE_AOF ? "redis-aof-rewrite" : "redis-rdb-bgsave");
        redisSetCpuAffinity(child_type == CHILD_TYPE_AOF ? server.aof_rewrite_cpulist : server.bgsave_cpulist);
        /* If the parent dies, the child's next report fails and it exits. */
        keepChildInfoPipeEnd(1);
        return 0;
    }
    if (pid == -1) {
        int fork_errno = errno;
        closeChildInfoPipe();
        if (traceOn(TRACE_CHILD)) {
            traceEvent(TRACE_CHILD, "redisFork")
                .str("type", traceChildType(child_type))
                .str("error", strerror(fork_errno))
                .emit();
        }
        errno = fork_errno;
        return -1;
    }
    /* Without the write end, a SAVE run by the parent reports nothing. */
    keepChildInfoPipeEnd(0);
    child_started = traceNow();
    server.stat_fork_time = ustime() - start;
    server.stat_fork_rate = static_cast<double>(zmalloc_used_memory()) * 1000000 /
                            static_cast<double>(std::max(server.stat_fork_time, 1LL)) / (1024 * 1024 * 1024); /* GB/s */
    latencyAddSampleIfNeeded("fork", server.stat_fork_time / 1000);
    server.stat_total_forks++;
    server.child_pid = pid;
    server.child_type = child_type;
    /* The other current_* figures are zero: resetChildState cleared them
     * when the previous child ended. */
    server.stat_current_save_keys_total = dbTotalServerKeyCount();
    if (traceOn(TRACE_CHILD)) {
        traceEvent(TRACE_CHILD, "redisFork", tracePhase::asyncBegin)
            .id(static_cast<uint64_t>(pid))
            .str("type", traceChildType(child_type))
            .num("pid", pid)
            .num("fork_us", server.stat_fork_time)
            .emit();
    }
    return pid;
}

void traceChildDone(const char *name, int exitcode, int bysignal) {
    const char *status = bysignal ? "signal" : exitcode == 0 ? "ok" : "error";
    traceEvent(TRACE_CHILD, name, tracePhase::asyncEnd)
        .id(static_cast<uint64_t>(server.child_pid))
        .str("type", traceChildType(server.child_type))
        .num("pid", server.child_pid)
        .str("status", status)
        .num("exitcode", exitcode)
        .num("signal", bysignal)
        .num("us", static_cast<long long>(traceNow() - child_started))
        .emit();
}

/* The child is gone (reaped, or killed and reaped): forget it, and what it
 * reported about itself. */
void resetChildState() {
    server.child_type = CHILD_TYPE_NONE;
    server.child_pid = -1;
    server.stat_current_cow_peak = 0;
    server.stat_current_cow_bytes = 0;
    server.stat_current_cow_updated = 0;
    server.stat_current_save_keys_processed = 0;
    server.stat_current_save_keys_total = 0;
    closeChildInfoPipe();
}

static const char *strChildType(int type) {
    switch (type) {
    case CHILD_TYPE_RDB: return "RDB";
    case CHILD_TYPE_AOF: return "AOF";
    default: return "Unknown";
    }
}

void childExitStatus(int status, int *exitcode, int *bysignal) {
    *exitcode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    *bysignal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

void concludeChild(pid_t waited, int status) {
    int exitcode = -1, bysignal = 0;
    if (waited == -1) {
        serverLog(LL_WARNING, "waitpid() returned an error: %s. child_type: %s, child_pid = %d", strerror(errno),
                  strChildType(server.child_type), static_cast<int>(server.child_pid));
    } else {
        childExitStatus(status, &exitcode, &bysignal);
    }
    if (traceOn(TRACE_CHILD)) {
        const char *handler =
            server.child_type == CHILD_TYPE_AOF ? "backgroundRewriteDoneHandler" : "backgroundSaveDoneHandler";
        traceChildDone(handler, exitcode, bysignal);
    }
    /* The handlers still see the child's pid (its temp file is named after it). */
    if (server.child_type == CHILD_TYPE_RDB) backgroundSaveDoneHandler(exitcode, bysignal);
    else if (server.child_type == CHILD_TYPE_AOF) backgroundRewriteDoneHandler(exitcode, bysignal);
    /* A child that succeeded wrote its final CoW size before exiting. */
    if (!bysignal && exitcode == 0) receiveChildInfo();
    resetChildState();
}

/* serverCron: reaps a finished child and lets its subsystem conclude. */
void checkChildrenDone() {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid == 0 || (pid == -1 && errno == EINTR)) return; /* still running; or try again next tick */
    if (pid != -1 && pid != server.child_pid) {
        serverLog(LL_WARNING, "Warning, detected child with unmatched pid: %ld", static_cast<long>(pid));
        return;
    }
    concludeChild(pid, status);
}
