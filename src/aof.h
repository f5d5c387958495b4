/* aof.h — the append-only file (Redis's aof.c): every write command, in
 * the order it ran, so that replaying the file rebuilds the dataset.
 *
 * The path of a write:
 *   1. the command changes the dataset (server.dirty moves); call() queues
 *      its argv — as the command may have rewritten it for replay (EXPIRE
 *      as PEXPIREAT, a served BLPOP as LPOP...) — plus any alsoPropagate()
 *      ops, serialized as RESP at once;
 *   2. at the end of the execution unit (the outermost call(): a command,
 *      an EXEC, a script) the unit goes to feedAppendOnlyFile: into aof_buf,
 *      and into aof_rewrite_buf while a rewrite child runs, wrapped in
 *      MULTI/EXEC when it has several ops, after a SELECT if the db changed;
 *   3. beforeSleep calls flushAppendOnlyFile — one write(2) of aof_buf, then
 *      fsync under `always`, or a background fsync (bio) at most once a
 *      second under `everysec` — and only then writes the replies.
 * Invariants:
 *  - no reply leaves while aof_buf holds a write not yet written (under
 *    `always`: not yet fsynced); the write handler holds its client's output
 *    too, so a reply cannot overtake the flush from there either (Redis's
 *    AE_BARRIER problem);
 *  - the file holds whole execution units in execution order, so a replay
 *    applies a transaction or a script entirely, and a torn last unit is
 *    dropped whole (aof-load-truncated);
 *  - one complete AOF exists on disk at every moment: a rewrite fsyncs its
 *    finished file, renames it over the old one, then fsyncs the directory;
 *  - a failed write or background fsync refuses writes (MISCONF) until a
 *    retry succeeds.
 */
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

class InfoSection;
struct client;

/* Status of loadAppendOnlyFile (Redis 7's names). */
constexpr int AOF_OK = 0, AOF_NOT_EXIST = 1, AOF_EMPTY = 2;

/* Appends the execution unit's ops meant for the AOF (server.h's
 * catExecutionUnit, with the file's SELECT state) to the AOF buffers.
 * Handed to propagation (registerFeedAppendOnlyFile, server.h) by
 * installServerHooks. */
void feedAppendOnlyFile();
void flushAppendOnlyFile();
/* Replies wait while the AOF holds writes not yet in the file, unless
 * writing it failed (registerRepliesMustWait, networking.h; see
 * sendReplyToClient). */
bool aofHoldsUnwrittenWrites();

/* At start-up: the AOF state from `appendonly`, and the file opened. */
void aofOpenIfNeededOnServerStart();
/* Replays the file through a fake client. AOF_OK, AOF_NOT_EXIST or
 * AOF_EMPTY; a file that cannot be loaded exits the process (status 1). */
int loadAppendOnlyFile(const std::string &filename);

/* CONFIG SET appendonly yes / no. */
int startAppendOnly();
void stopAppendOnly();

/* BGREWRITEAOF, CONFIG SET appendonly yes, and serverCron's automatic or
 * scheduled rewrites. */
int rewriteAppendOnlyFileBackground();
void backgroundRewriteDoneHandler(int exitcode, int bysignal);
void killAppendOnlyChild();
/* serverCron's share: a scheduled rewrite, one for the file's growth
 * (auto-aof-rewrite-percentage), a retry after a failed write. */
void aofCron();
/* SHUTDOWN: the rewrite child is killed and the file flushed and fsynced.
 * C_ERR while the first rewrite of `appendonly yes` is still running, or
 * when the final write or fsync failed (the data would be lost): the
 * server must not exit — unless `force` (SHUTDOWN FORCE), which logs the
 * error and returns C_OK. */
int aofPrepareForShutdown(bool force);

/* The last write to the AOF, or its last background fsync, failed: writes
 * are refused (MISCONF, with aof_last_write_errno) until a retry succeeds. */
bool aofWritesDeniedByDiskError();
/* Why writes are refused now (Redis's writeCommandsDeniedByDiskError): a
 * failed BGSAVE (stop-writes-on-bgsave-error) or a failed AOF write, as the
 * -MISCONF error to answer; nullptr when they are not. */
const char *writeCommandsDeniedByDiskError();

/* DEBUG LOADAOF: flush the AOF, empty the dataset, load it again. */
void debugLoadAof(client *c);

/* INFO persistence, in Redis 7.0's order: infoPersistence (rdb.cpp) calls
 * aofInfoFields for aof_enabled ... aof_last_cow_size, and, after
 * module_fork_last_cow_size, aofInfoEnabledFields for aof_current_size ...
 * aof_delayed_fsync, which only an enabled AOF shows. */
void aofInfoFields(InfoSection &info);
void aofInfoEnabledFields(InfoSection &info);

/* BGREWRITEAOF (the command table is in commands.cpp). */
void bgrewriteaofCommand(client *c);
