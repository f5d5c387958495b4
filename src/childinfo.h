/* childinfo.h — forked children and the child-info pipe (Redis's childinfo.c,
 * plus redisFork and the reaping of children, which Redis keeps in
 * server.c): how BGSAVE and BGREWRITEAOF fork, how a child tells
 * the parent how far it got and how much memory copy-on-write has
 * duplicated since the fork, and how serverCron reaps it.
 *
 * redisFork opens the pipe; the child keeps the write end, the parent the
 * read end. The child reports CHILD_INFO_TYPE_CURRENT_INFO about once a
 * second while it writes, and its final CoW size (RDB_/AOF_COW_SIZE) when it
 * succeeded; the parent drains the pipe from serverCron each second and once
 * more when it reaps the child, into INFO persistence's current_* and
 * *_last_cow_size fields.
 */
#pragma once

#include <cstddef>
#include <sys/types.h>

enum childInfoType {
    CHILD_INFO_TYPE_CURRENT_INFO,
    CHILD_INFO_TYPE_AOF_COW_SIZE,
    CHILD_INFO_TYPE_RDB_COW_SIZE,
};

/* Both return with both ends -1 when the pipe could not be made: the child
 * then reports nothing, and the save itself goes on (as in Redis). */
void openChildInfoPipe();
void closeChildInfoPipe();
/* After fork(): the child keeps only the write end (end 1), the parent only
 * the read end (end 0). */
void keepChildInfoPipeEnd(int end);

/* In the child: `keys` written so far, and the current CoW size. A no-op in
 * a process without the write end (the parent running SAVE). */
void sendChildInfo(childInfoType info_type, size_t keys, const char *pname);
/* In the save loop, after each key: counts it, and about once a second
 * (looking at the clock every 1024 keys only) sends CURRENT_INFO. */
void reportSaveProgress(size_t &key_counter, long long &info_updated_time, const char *pname);
/* In the child, at the end of a successful save: its final CoW size. */
void sendChildCowInfo(childInfoType info_type, const char *pname);

/* In the parent: reads every complete message waiting in the pipe. */
void receiveChildInfo();

/* Background children: one at a time (server.child_pid / child_type),
 * reaped by serverCron. */
bool hasActiveChildProcess();
pid_t redisFork(int child_type);
void resetChildState();
void checkChildrenDone();
/* The child is gone: its subsystem concludes from the waitpid() status, or,
 * when waitpid() failed (`waited` == -1, errno set: the child is lost and
 * its outcome unknown), as failed; then a new child may start. */
void concludeChild(pid_t waited, int status);
/* A waitpid() status as the exit code (-1 if it did not exit) and the
 * signal that ended it (0 if none). */
void childExitStatus(int status, int *exitcode, int *bysignal);
/* TRACE_CHILD: the running child ended (`name`: the function that
 * concludes it), as concludeChild's exitcode and bysignal say. Call only
 * under traceOn(TRACE_CHILD), before the child state is reset. */
void traceChildDone(const char *name, int exitcode, int bysignal);
