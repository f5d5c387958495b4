/* aof.h — the append-only file (Redis 7.0's aof.c): every write command,
 * in the order it ran, so that replaying the files rebuilds the dataset.
 * The files are Redis 7.0's multi-part AOF (aof.cpp's head comment): a
 * manifest naming a base (the dataset at the last rewrite, an RDB or
 * commands) and incremental files (the writes since), in `appenddirname`.
 *
 * The path of a write:
 *   1. the command changes the dataset (server.dirty moves); call() queues
 *      its argv — as the command may have rewritten it for replay (EXPIRE
 *      as PEXPIREAT, a served BLPOP as LPOP...) — plus any alsoPropagate()
 *      ops, serialized as RESP at once;
 *   2. at the end of the execution unit (the outermost call(): a command,
 *      an EXEC, a script) the unit goes to feedAppendOnlyFile: into
 *      aof_buf, wrapped in MULTI/EXEC when it has several ops, after a
 *      SELECT if the db changed;
 *   3. beforeSleep calls flushAppendOnlyFile — one write(2) of aof_buf to
 *      the last incr file, then fsync under `always`, or a background fsync
 *      (bio) at most once a second under `everysec` — and only then writes
 *      the replies.
 * Invariants:
 *  - no reply leaves while aof_buf holds a write not yet written (under
 *    `always`: not yet fsynced); the write handler holds its client's output
 *    too, so a reply cannot overtake the flush from there either (Redis's
 *    AE_BARRIER problem);
 *  - the files hold whole execution units in execution order, so a replay
 *    applies a transaction or a script entirely, and a torn last unit is
 *    dropped whole (aof-load-truncated);
 *  - the manifest on disk always names a complete AOF: a new one replaces
 *    it by rename only once it and the files it names are fsynced, and the
 *    directory is fsynced before the server relies on it;
 *  - a failed write or background fsync refuses writes (MISCONF) until a
 *    retry succeeds.
 */
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

class InfoSection;
struct client;

/* How loading one file, or all of them, ended (Redis 7.0's names). */
constexpr int AOF_OK = 0, AOF_NOT_EXIST = 1, AOF_EMPTY = 2, AOF_OPEN_ERR = 3, AOF_FAILED = 4, AOF_TRUNCATED = 5;

/* A manifest line's type: the base, a history file (to delete), an incr file. */
constexpr char AOF_FILE_TYPE_BASE = 'b', AOF_FILE_TYPE_HIST = 'h', AOF_FILE_TYPE_INCR = 'i';

/* One file of the AOF (Redis's aofInfo): its name in the AOF directory,
 * its sequence number, its type. */
struct aofInfo {
    std::string file_name;
    long long file_seq = 0;
    char file_type = 0;
};

/* The manifest (Redis's aofManifest): at most one base; history files
 * newest first, as Redis lists them; incr files in the order they were
 * written. A value: a change is made on a copy, which replaces the
 * server's once it is on disk. */
struct aofManifest {
    std::optional<aofInfo> base_aof_info;
    std::deque<aofInfo> incr_aof_list, history_aof_list;
    long long curr_base_file_seq = 0, curr_incr_file_seq = 0;
    bool dirty = false; /* differs from the manifest on disk */
};

/* Why a manifest was refused: its line (1-based; 0 for the file as a
 * whole), the line as read, and Redis's message. */
struct aofManifestError {
    int linenum = 0;
    std::string line;
    const char *reason = "";
};
/* The manifest's text as Redis 7.0 writes it (getAofManifestAsString) and
 * reads it (aofLoadManifestFromFile, without its exit). */
std::string getAofManifestAsString(const aofManifest &am);
bool aofParseManifest(std::string_view text, aofManifest &am, aofManifestError &err);
/* The manifest the server uses (Redis's server.aof_manifest). */
const aofManifest &aofCurrentManifest();

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

/* At start-up, in this order: the manifest read (a bad one exits); the
 * files loaded, with `appendonly yes` (an old single file upgraded first),
 * AOF_FAILED or AOF_OPEN_ERR meaning start-up must stop; the AOF state
 * from `appendonly`, a first base written if there is none, the last incr
 * file opened and the manifest persisted (a failure exits); the history
 * files deleted. */
void aofLoadManifestFromDisk();
int loadDataFromAppendOnlyFiles();
void aofOpenIfNeededOnServerStart();
int aofDelHistoryFiles();

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
