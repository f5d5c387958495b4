/* aof.cpp — the append-only file (Redis's aof.c): feeding it, flushing and
 * fsyncing it, rewriting it in a child, loading it. aof.h tells the path
 * of a write and the invariants.
 *
 * The file is Redis's ≤ 6.2 single-file layout — `appendfilename` in `dir`,
 * plain RESP commands, no RDB preamble — which Redis 7's redis-check-aof
 * still accepts. Redis 7's appendonlydir (a manifest, a base file and
 * incremental files) is not used.
 *
 * The rewrite (BGREWRITEAOF), as Redis 2.6 does it: a forked child writes
 * the dataset it sees as the shortest commands that rebuild it into
 * temp-rewriteaof-bg-<pid>.aof; meanwhile the parent keeps appending to the
 * old file and also collects the same writes in aof_rewrite_buf; when the
 * child exits, the parent appends that buffer to the child's file and
 * renames it over the AOF, atomically — at every moment one complete AOF
 * exists on disk.
 */
#include "aof.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "bio.h"
#include "childinfo.h"
#include "functions.h"
#include "latency.h"
#include "multi.h"
#include "rdb.h"
#include "server.h"
#include "stream.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_stream.h"
#include "t_zset.h"
#include "livetrace.h"
#include "util.h"

/* ========================================================================
 * Feeding the buffers
 * ====================================================================== */

/* Redis 7's timestamp annotation, "#TS:<unix time>\r\n", when the second
 * changed since the last one (or `force`): with aof-timestamp-enabled, the
 * file tells when its commands ran (redis-check-aof --truncate-to-timestamp).
 * Loading skips it, as any line starting with '#'. */
static void catTimestampAnnotationIfNeeded(std::string &buf, bool force) {
    if (!force && server.aof_cur_timestamp >= server.unixtime) return;
    buf += "#TS:" + std::to_string(static_cast<long long>(server.unixtime)) + "\r\n";
    server.aof_cur_timestamp = server.unixtime;
}

/* The unit goes to the AOF's buffer, and to the rewrite's while a rewrite
 * child runs, as the same bytes (one SELECT state, the file's). */
void feedAppendOnlyFile() {
    static std::string unit; /* reused: no allocation per command */
    if (server.aof_state != AOF_ON && server.child_type != CHILD_TYPE_AOF) return;
    unit.clear();
    if (server.aof_timestamp_enabled) catTimestampAnnotationIfNeeded(unit, false);
    catExecutionUnit(unit, PROPAGATE_AOF, server.aof_selected_db);
    if (server.aof_state == AOF_ON) server.aof_buf.append(unit);
    if (server.child_type == CHILD_TYPE_AOF) server.aof_rewrite_buf.append(unit);
}

/* ========================================================================
 * Writing and fsyncing
 * ====================================================================== */

/* write(2) until everything went or an error; returns the bytes written. */
static size_t writeFully(int fd, std::string_view data) {
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = write(fd, data.data() + done, data.size() - done);
        if (n == -1 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    return done;
}

/* Seconds between two log lines about failing AOF writes: the write is
 * retried every cron tick (Redis's AOF_WRITE_LOG_ERROR_RATE). */
static constexpr time_t AOF_WRITE_LOG_ERROR_RATE = 30;

/* A failed or short write. A partial command at the end of the file would
 * make it unloadable, so the written part is cut off again if possible;
 * otherwise it stays and only the rest is kept for the next try. Under
 * `always` nothing may be acknowledged that is not on disk: exit. */
static void handleAofWriteError(size_t nwritten) {
    int err = errno;
    static time_t last_write_error_log = 0;
    bool can_log = server.unixtime - last_write_error_log > AOF_WRITE_LOG_ERROR_RATE;
    if (can_log) last_write_error_log = server.unixtime;
    if (nwritten == 0) {
        if (can_log) serverLog(LL_WARNING, "Error writing to the AOF file: %s", strerror(err));
    } else {
        if (can_log)
            serverLog(LL_WARNING, "Short write while writing to the AOF file: (nwritten=%zu, expected=%zu)",
                      nwritten, server.aof_buf.size());
        if (ftruncate(server.aof_fd, server.aof_current_size) == -1) {
            if (can_log)
                serverLog(LL_WARNING, "Could not remove short write from the append-only file. Redis may refuse "
                                      "to load the AOF the next time it starts. ftruncate: %s", strerror(errno));
            server.aof_current_size += static_cast<long long>(nwritten);
            server.aof_buf.erase(0, nwritten);
        }
        if (err == 0) err = ENOSPC; /* a short write without an error: the disk is full */
    }
    if (server.aof_fsync == AOF_FSYNC_ALWAYS) {
        serverLog(LL_WARNING, "Can't recover from AOF write error when the AOF fsync policy is 'always'. Exiting...");
        exit(1);
    }
    server.aof_last_write_status = C_ERR;
    server.aof_last_write_errno = err;
}

bool aofWritesDeniedByDiskError() {
    if (server.aof_state == AOF_OFF) return false;
    if (server.aof_last_write_status == C_ERR) return true;
    if (server.aof_bio_fsync_status != C_ERR) return false;
    server.aof_last_write_errno = server.aof_bio_fsync_errno; /* what MISCONF tells */
    return true;
}

/* In Redis, in server.c; here beside the AOF's half of the question, above
 * the server (it asks rdb and aof), for processCommand and scripts. */
const char *writeCommandsDeniedByDiskError() {
    if (rdbWritesDeniedByBgsaveError())
        return "-MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. "
               "Commands that may modify the data set are disabled, because this instance is configured to report "
               "errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check "
               "the Redis logs for details about the RDB error.";
    if (aofWritesDeniedByDiskError()) {
        static std::string text;
        text = std::string("-MISCONF Errors writing to the AOF file: ") + strerror(server.aof_last_write_errno);
        return text.c_str();
    }
    return nullptr;
}

/* Called before the event loop sleeps, ahead of the replies, and wherever
 * the file must be complete (rewrite end, shutdown, DEBUG LOADAOF). */
void flushAppendOnlyFile() {
    if (server.aof_fd == -1) return;
    if (!server.aof_buf.empty()) {
        bool sync_in_progress = server.aof_fsync == AOF_FSYNC_EVERYSEC && bioPendingJobsOfType(BIO_AOF_FSYNC);
        long long latency = latencyStartMonitor();
        size_t nwritten = writeFully(server.aof_fd, server.aof_buf);
        latency = latencyEndMonitor(latency);
        /* A slow write is told apart by what competed with it for the disk. */
        if (sync_in_progress) latencyAddSampleIfNeeded("aof-write-pending-fsync", latency);
        else if (hasActiveChildProcess()) latencyAddSampleIfNeeded("aof-write-active-child", latency);
        else latencyAddSampleIfNeeded("aof-write-alone", latency);
        latencyAddSampleIfNeeded("aof-write", latency);
        if (nwritten != server.aof_buf.size()) return handleAofWriteError(nwritten);
        if (server.aof_last_write_status == C_ERR) {
            serverLog(LL_WARNING, "AOF write error looks solved, Redis can write again.");
            server.aof_last_write_status = C_OK;
        }
        server.aof_current_size += static_cast<long long>(nwritten);
        /* The buffer is kept for the next iteration, unless a burst made it
         * big (Redis frees it past 4 KB; pipelined clients fill 4 KB in
         * every iteration, and a fresh buffer each time costs page faults). */
        if (server.aof_buf.capacity() <= 64 * 1024) server.aof_buf.clear();
        else std::string().swap(server.aof_buf);
    }
    /* After a failed background fsync the next one is due even if nothing
     * new was written: writes are refused until one succeeds. */
    bool fsync_failed = server.aof_bio_fsync_status == C_ERR;
    if (server.aof_fsync_offset == server.aof_current_size && !fsync_failed) return;
    if (server.aof_no_fsync_on_rewrite && hasActiveChildProcess()) return;
    if (server.aof_fsync == AOF_FSYNC_ALWAYS) {
        long long latency = latencyStartMonitor();
        if (fdatasync(server.aof_fd) == -1) {
            serverLog(LL_WARNING, "Can't persist AOF for fsync error when the AOF fsync policy is 'always': %s. "
                                  "Exiting...", strerror(errno));
            exit(1);
        }
        latencyAddSampleIfNeeded("aof-fsync-always", latencyEndMonitor(latency));
        /* It covers whatever a failed background fsync left unsynced. */
        if (fsync_failed) server.aof_bio_fsync_status = C_OK;
        server.aof_fsync_offset = server.aof_current_size;
        server.aof_last_fsync = server.mstime;
    } else if (server.aof_fsync == AOF_FSYNC_EVERYSEC && server.mstime - server.aof_last_fsync >= 1000) {
        /* The previous fsync still runs (slow disk): try again next second
         * rather than queue fsyncs behind each other. */
        if (bioPendingJobsOfType(BIO_AOF_FSYNC)) {
            server.aof_delayed_fsync++;
        } else {
            bioCreateJob(BIO_AOF_FSYNC, server.aof_fd);
            server.aof_fsync_offset = server.aof_current_size;
        }
        server.aof_last_fsync = server.mstime;
    }
}

/* ========================================================================
 * Turning the AOF on and off
 * ====================================================================== */

static int openAppendOnlyFile() {
    return open(server.aof_filename.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

static long long fileSize(int fd) {
    struct stat sb;
    long long latency = latencyStartMonitor();
    int rc = fstat(fd, &sb);
    latencyAddSampleIfNeeded("aof-fstat", latencyEndMonitor(latency));
    return rc == -1 ? 0 : static_cast<long long>(sb.st_size);
}

void aofOpenIfNeededOnServerStart() {
    server.aof_state = server.aof_enabled ? AOF_ON : AOF_OFF;
    if (server.aof_state != AOF_ON) return;
    server.aof_fd = openAppendOnlyFile();
    if (server.aof_fd == -1) {
        serverLog(LL_WARNING, "Can't open the append-only file %s: %s", server.aof_filename.c_str(), strerror(errno));
        exit(1);
    }
    server.aof_current_size = server.aof_rewrite_base_size = server.aof_fsync_offset = fileSize(server.aof_fd);
    server.aof_last_fsync = server.mstime;
}

/* The file is written by a rewrite of the whole dataset; until that ends
 * (AOF_WAIT_REWRITE), writes only go to the rewrite buffer. */
int startAppendOnly() {
    int newfd = openAppendOnlyFile();
    if (newfd == -1) {
        char cwd[4096];
        serverLog(LL_WARNING, "Redis needs to enable the AOF but can't open the append only file %s (in server "
                              "root dir %s): %s",
                  server.aof_filename.c_str(), getcwd(cwd, sizeof(cwd)) ? cwd : "unknown", strerror(errno));
        return C_ERR;
    }
    if (server.child_type == CHILD_TYPE_AOF) {
        serverLog(LL_WARNING, "AOF was enabled but there is already an AOF rewriting in background. Stopping "
                              "background AOF and starting a rewrite now.");
        killAppendOnlyChild();
    }
    if (hasActiveChildProcess()) {
        server.aof_rewrite_scheduled = true;
        serverLog(LL_WARNING, "AOF was enabled but there is already another background operation. An AOF "
                              "background was scheduled to start when possible.");
    } else if (server.execution_nesting > 1) {
        server.aof_rewrite_scheduled = true; /* inside EXEC: forked once it ends (see BGREWRITEAOF) */
    } else if (rewriteAppendOnlyFileBackground() == C_ERR) {
        close(newfd);
        serverLog(LL_WARNING, "Redis needs to enable the AOF but can't trigger a background AOF rewrite "
                              "operation. Check the above logs for more info about the error.");
        return C_ERR;
    }
    server.aof_state = AOF_WAIT_REWRITE;
    server.aof_last_fsync = server.mstime;
    server.aof_fd = newfd;
    /* Errors of the file written before are no reason to refuse writes to
     * the new one. */
    if (server.aof_bio_fsync_status == C_ERR) {
        serverLog(LL_WARNING, "AOF reopen, just ignore the AOF fsync error in bio job");
        server.aof_bio_fsync_status = C_OK;
    }
    if (server.aof_last_write_status == C_ERR) {
        serverLog(LL_WARNING, "AOF reopen, just ignore the last error.");
        server.aof_last_write_status = C_OK;
    }
    return C_OK;
}

/* As in Redis, a failed last flush or fsync is logged and the AOF goes off
 * all the same: that is what was asked, and the dataset stays in memory for
 * the RDB to save. */
void stopAppendOnly() {
    flushAppendOnlyFile();
    if (fdatasync(server.aof_fd) == -1)
        serverLog(LL_WARNING, "Fail to fsync the AOF file: %s", strerror(errno));
    close(server.aof_fd);
    server.aof_fd = -1;
    server.aof_selected_db = -1;
    server.aof_state = AOF_OFF;
    server.aof_rewrite_scheduled = false;
    killAppendOnlyChild();
    std::string().swap(server.aof_buf);
}

/* ========================================================================
 * The rewrite: the child's side
 * ====================================================================== */

/* As Redis: a command adds at most 64 elements, so that replaying a big
 * key does not build one giant argv. */
static constexpr size_t AOF_REWRITE_ITEMS_PER_CMD = 64;
static constexpr size_t REDIS_AUTOSYNC_BYTES = 4 * 1024 * 1024;

/* The child's buffered output: commands are serialized into a buffer that
 * goes to the file in big writes, with an fsync every 4 MB when
 * aof-rewrite-incremental-fsync is on (so the final fsync is short). */
class RewriteWriter {
public:
    explicit RewriteWriter(int fd) : fd_(fd) {}

    std::string &buf() { return buf_; }
    bool ok() const { return ok_; }

    void maybeFlush() {
        if (buf_.size() >= 64 * 1024) flush();
    }
    bool flush() {
        if (!ok_) return false;
        ok_ = writeFully(fd_, buf_) == buf_.size();
        unsynced_ += buf_.size();
        buf_.clear();
        if (ok_ && server.aof_rewrite_incremental_fsync && unsynced_ >= REDIS_AUTOSYNC_BYTES) {
            ok_ = fdatasync(fd_) == 0;
            unsynced_ = 0;
        }
        return ok_;
    }

    /* One command of `cmd key` then `items` elements written by `put`. */
    template <typename Put>
    void command(std::string_view cmd, std::string_view key, size_t args, Put put) {
        catLengthLine(buf_, '*', 2 + args);
        catBulk(buf_, cmd);
        catBulk(buf_, key);
        put();
    }

private:
    int fd_;
    std::string buf_;
    size_t unsynced_ = 0;
    bool ok_ = true;
};

/* Emits `cmd key` with the elements that `next` yields, AOF_REWRITE_ITEMS_PER_CMD
 * at a time; `next(buf)` appends one element (its `width` bulks). */
template <typename Next>
static void rewriteBatches(RewriteWriter &w, std::string_view cmd, std::string_view key, size_t count,
                           size_t width, Next next) {
    while (count) {
        size_t items = std::min(count, AOF_REWRITE_ITEMS_PER_CMD);
        w.command(cmd, key, items * width, [&] {
            for (size_t i = 0; i < items; i++) next(w.buf());
        });
        count -= items;
        w.maybeFlush();
    }
}

static void catBulkDouble(std::string &dst, double score) {
    char buf[MAX_D2STRING_CHARS];
    catBulk(dst, std::string_view(buf, d2string(buf, sizeof(buf), score)));
}

static void rewriteListObject(RewriteWriter &w, std::string_view key, robj *o) {
    listTypeIterator li = listTypeInitIterator(o, 0, LIST_TAIL);
    rewriteBatches(w, "RPUSH", key, listTypeLength(o), 1, [&](std::string &buf) {
        listTypeEntry entry;
        listTypeNext(&li, &entry);
        char num[LONG_STR_SIZE];
        catBulk(buf, listTypeValueView(listTypeGet(&entry), num));
    });
}

static void rewriteSetObject(RewriteWriter &w, std::string_view key, robj *o) {
    setTypeIterator si(o);
    rewriteBatches(w, "SADD", key, setTypeSize(o), 1, [&](std::string &buf) {
        setTypeValue v;
        setTypeNext(&si, &v);
        char num[LONG_STR_SIZE];
        catBulk(buf, setTypeValueView(v, num));
    });
}

/* Scores as d2string prints them (%.17g, integers in full), which reads
 * back as the same double (Redis's rioWriteBulkDouble). */
static void rewriteSortedSetObject(RewriteWriter &w, std::string_view key, robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(o);
        zlpos p = zl.index(0);
        /* The score as the ziplist stores it: the text of a double that
         * reads back the same, or an integer. */
        rewriteBatches(w, "ZADD", key, zsetLength(o), 2, [&](std::string &buf) {
            zlpos member = p, score = zl.next(p);
            p = zl.next(score);
            char num[LONG_STR_SIZE];
            catBulk(buf, listTypeValueView(zl.get(score), num));
            catBulk(buf, listTypeValueView(zl.get(member), num));
        });
        return;
    }
    const zskiplistNode *node = objectZset(o).zsl.header->level[0].forward;
    rewriteBatches(w, "ZADD", key, zsetLength(o), 2, [&](std::string &buf) {
        catBulkDouble(buf, node->score);
        catBulk(buf, node->ele());
        node = node->level[0].forward;
    });
}

static void rewriteHashObject(RewriteWriter &w, std::string_view key, robj *o) {
    hashTypeIterator hi(o);
    rewriteBatches(w, "HMSET", key, hashTypeLength(o), 2, [&](std::string &buf) {
        hashTypeNext(&hi);
        char num[LONG_STR_SIZE];
        catBulk(buf, hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_KEY), num));
        catBulk(buf, hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_VALUE), num));
    });
}

/* An integer or a stream ID as text, in a buffer of its own: the
 * arguments of the stream commands below. */
class NumberText {
public:
    explicit NumberText(long long v) : len_(ll2string(buf_, sizeof(buf_), v)) {}
    explicit NumberText(const streamID &id) {
        len_ = ull2string(buf_, sizeof(buf_), id.ms);
        buf_[len_++] = '-';
        len_ += ull2string(buf_ + len_, sizeof(buf_) - len_, id.seq);
    }
    NumberText(const NumberText &) = delete;
    NumberText &operator=(const NumberText &) = delete;
    std::string_view view() const { return {buf_, static_cast<size_t>(len_)}; }

private:
    char buf_[2 * LONG_STR_SIZE];
    int len_;
};

/* The entries of a stream, one XADD each with its ID; an empty stream as
 * an XADD trimmed away at once (XADD ... MAXLEN 0), which leaves the key. */
static void rewriteStreamEntries(RewriteWriter &w, std::string_view key, stream &s) {
    if (s.length == 0) {
        std::string_view argv[] = {"XADD", key, "MAXLEN", "0", "0-1", "x", "y"};
        catAppendOnlyGenericCommand(w.buf(), argv);
        return;
    }
    streamIterator si;
    streamIteratorStart(&si, &s, nullptr, nullptr, false);
    streamID id;
    int64_t numfields;
    while (streamIteratorGetID(&si, &id, &numfields)) {
        NumberText idtext(id);
        w.command("XADD", key, 1 + 2 * static_cast<size_t>(numfields), [&] {
            catBulk(w.buf(), idtext.view());
            for (int64_t i = 0; i < numfields; i++) {
                std::string_view field, value;
                streamIteratorGetField(&si, &field, &value);
                catBulk(w.buf(), field);
                catBulk(w.buf(), value);
            }
        });
        w.maybeFlush();
    }
}

/* A group: XGROUP CREATE at its last ID with its entries_read, then per
 * consumer an XCLAIM ... FORCE for each entry it has pending (with the
 * delivery time and count), or XGROUP CREATECONSUMER when it has none. */
static void rewriteStreamGroup(RewriteWriter &w, std::string_view key, std::string_view name, streamCG *cg) {
    NumberText last_id(cg->last_id), entries_read(cg->entries_read);
    std::string_view create[] = {"XGROUP", "CREATE", key, name, last_id.view(), "ENTRIESREAD", entries_read.view()};
    catAppendOnlyGenericCommand(w.buf(), create);
    raxIterator ri_cons;
    raxStart(&ri_cons, &cg->consumers);
    raxSeek(&ri_cons, "^");
    while (raxNext(&ri_cons)) {
        auto *consumer = static_cast<streamConsumer *>(ri_cons.data);
        const std::string_view consumer_name = ri_cons.key;
        if (raxSize(&consumer->pel) == 0) {
            std::string_view argv[] = {"XGROUP", "CREATECONSUMER", key, name, consumer_name};
            catAppendOnlyGenericCommand(w.buf(), argv);
            continue;
        }
        raxIterator ri_pel;
        raxStart(&ri_pel, &consumer->pel);
        raxSeek(&ri_pel, "^");
        while (raxNext(&ri_pel)) {
            const auto *nack = static_cast<const streamNACK *>(ri_pel.data);
            NumberText id(streamDecodeID(reinterpret_cast<const unsigned char *>(ri_pel.key.data())));
            NumberText time(nack->delivery_time), count(static_cast<long long>(nack->delivery_count));
            std::string_view argv[] = {"XCLAIM", key,         name,         consumer_name, "0",    id.view(),
                                       "TIME",   time.view(), "RETRYCOUNT", count.view(),  "JUSTID", "FORCE"};
            catAppendOnlyGenericCommand(w.buf(), argv);
            w.maybeFlush();
        }
    }
}

/* rewriteStreamObject, as Redis 7.0: the entries, then XSETID for what
 * XADD alone cannot rebuild (a last ID past the last entry, entries_added,
 * the greatest deleted ID), then the groups. */
static void rewriteStreamObject(RewriteWriter &w, std::string_view key, robj *o) {
    stream &s = objectStream(o);
    rewriteStreamEntries(w, key, s);
    NumberText last_id(s.last_id), entries_added(static_cast<long long>(s.entries_added)),
        max_deleted(s.max_deleted_entry_id);
    std::string_view setid[] = {"XSETID",       key,   last_id.view(), "ENTRIESADDED", entries_added.view(),
                                "MAXDELETEDID", max_deleted.view()};
    catAppendOnlyGenericCommand(w.buf(), setid);
    if (!s.cgroups) return;
    raxIterator ri;
    raxStart(&ri, s.cgroups.get());
    raxSeek(&ri, "^");
    while (raxNext(&ri)) rewriteStreamGroup(w, key, ri.key, static_cast<streamCG *>(ri.data));
}

static void rewriteObject(RewriteWriter &w, std::string_view key, robj *o) {
    switch (o->type) {
    case OBJ_STRING: {
        StringBuf sb;
        std::string_view v = objectStringView(o, sb);
        w.command("SET", key, 1, [&] { catBulk(w.buf(), v); });
        break;
    }
    case OBJ_LIST: rewriteListObject(w, key, o); break;
    case OBJ_SET: rewriteSetObject(w, key, o); break;
    case OBJ_ZSET: rewriteSortedSetObject(w, key, o); break;
    case OBJ_HASH: rewriteHashObject(w, key, o); break;
    case OBJ_STREAM: rewriteStreamObject(w, key, o); break;
    }
}

/* The dataset as commands: per non-empty db a SELECT, then each key's
 * value and its deadline (PEXPIREAT). Keys already expired are left out. */
static bool rewriteAppendOnlyFileRio(RewriteWriter &w) {
    long long now = mstime();
    size_t key_count = 0;
    long long info_updated_time = 0;
    if (server.aof_timestamp_enabled) catTimestampAnnotationIfNeeded(w.buf(), true);
    /* Functions first (Redis's rewriteFunctions): a library per FUNCTION LOAD. */
    for (auto &[name, li] : functionsLibGet()) {
        std::string_view argv[] = {"FUNCTION", "LOAD", li->code};
        catAppendOnlyGenericCommand(w.buf(), argv);
    }
    for (int j = 0; j < server.dbnum; j++) {
        redisDb &db = server.db[j];
        if (db.dict.size() == 0) continue;
        catSelectCommand(w.buf(), j);
        for (auto &de : db.dict) {
            std::string_view key = de.key.view();
            long long expire = getExpire(&db, key);
            if (expire != -1 && expire < now) continue;
            if (server.rdb_key_save_delay) rdbKeySaveDelay();
            rewriteObject(w, key, de.val.get());
            if (expire != -1) {
                char when[LONG_STR_SIZE];
                std::string_view argv[] = {"PEXPIREAT", key,
                                           std::string_view(when, ll2string(when, sizeof(when), expire))};
                catAppendOnlyGenericCommand(w.buf(), argv);
            }
            w.maybeFlush();
            if (!w.ok()) return false;
            reportSaveProgress(key_count, info_updated_time, "AOF rewrite");
        }
    }
    return w.flush();
}

/* Writes the dataset to a temporary file, fsyncs it, and renames it to
 * `filename`, so that the parent never finds a half-written file there. */
static int rewriteAppendOnlyFile(const std::string &filename) {
    std::string tmpfile = "temp-rewriteaof-" + std::to_string(getpid()) + ".aof";
    int fd = open(tmpfile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd == -1) {
        serverLog(LL_WARNING, "Opening the temp file for AOF rewrite in rewriteAppendOnlyFile(): %s", strerror(errno));
        return C_ERR;
    }
    RewriteWriter w(fd);
    bool ok = rewriteAppendOnlyFileRio(w) && fdatasync(fd) == 0;
    int err = errno;
    if (close(fd) == -1) ok = false;
    if (!ok) {
        serverLog(LL_WARNING, "Write error writing append only file on disk: %s", strerror(err));
        unlink(tmpfile.c_str());
        return C_ERR;
    }
    if (rename(tmpfile.c_str(), filename.c_str()) == -1) {
        serverLog(LL_WARNING, "Error moving temp append only file on the final destination: %s", strerror(errno));
        unlink(tmpfile.c_str());
        return C_ERR;
    }
    serverLog(LL_NOTICE, "SYNC append only file rewrite performed");
    return C_OK;
}

/* ========================================================================
 * The rewrite: the parent's side
 * ====================================================================== */

static std::string rewriteTempFileName(pid_t childpid) {
    return "temp-rewriteaof-bg-" + std::to_string(childpid) + ".aof";
}

int rewriteAppendOnlyFileBackground() {
    if (hasActiveChildProcess()) return C_ERR;
    pid_t childpid = redisFork(CHILD_TYPE_AOF);
    if (childpid == 0) {
        /* The child: _exit, not exit, so that nothing of the parent's
         * (buffers, atexit handlers, the bio thread) runs twice. */
        if (rewriteAppendOnlyFile(rewriteTempFileName(getpid())) != C_OK) _exit(1);
        sendChildCowInfo(CHILD_INFO_TYPE_AOF_COW_SIZE, "AOF rewrite");
        _exit(0);
    }
    if (childpid == -1) {
        server.aof_lastbgrewrite_status = C_ERR;
        serverLog(LL_WARNING, "Can't rewrite append only file in background: fork: %s", strerror(errno));
        return C_ERR;
    }
    serverLog(LL_NOTICE, "Background append only file rewriting started by pid %ld", static_cast<long>(childpid));
    server.aof_rewrite_scheduled = false;
    server.aof_rewrite_time_start = time(nullptr);
    server.aof_rewrite_tmpfile = rewriteTempFileName(childpid);
    server.stat_aof_rewrites++;
    /* The child's file ends in whatever db it wrote last: the first write
     * appended after it must say which db it is for. */
    server.aof_selected_db = -1;
    server.aof_rewrite_buf.clear();
    return C_OK;
}

/* Whether a failing rewrite should wait before the next automatic try:
 * after 3 failures in a row, 1, 2, 4 ... up to 60 minutes (Redis 7). */
static bool aofRewriteLimited() {
    if (server.stat_aofrw_consecutive_failures < 3) {
        server.aof_rewrite_next_try = 0;
        return false;
    }
    if (server.aof_rewrite_next_try) {
        if (server.unixtime < server.aof_rewrite_next_try) return true;
        server.aof_rewrite_next_try = 0; /* the wait is over: one more try */
        return false;
    }
    long long minutes = std::min(60LL, 1LL << std::min(server.stat_aofrw_consecutive_failures - 3, 6LL));
    server.aof_rewrite_next_try = server.unixtime + minutes * 60;
    serverLog(LL_WARNING, "Background AOF rewrite has repeatedly failed and triggered the limit, will retry in "
                          "%lld minutes", minutes);
    return true;
}

void bgrewriteaofCommand(client *c) {
    if (server.child_type == CHILD_TYPE_AOF) {
        addReplyError(c, "Background append only file rewriting already in progress");
    } else if (hasActiveChildProcess() || server.execution_nesting > 1) {
        /* Inside EXEC the fork waits for the transaction to end: its
         * writes are in the child's snapshot or in the rewrite buffer,
         * never half in each. */
        server.aof_rewrite_scheduled = true;
        server.stat_aofrw_consecutive_failures = 0;
        addReplyStatus(c, "Background append only file rewriting scheduled");
    } else if (rewriteAppendOnlyFileBackground() == C_OK) {
        addReplyStatus(c, "Background append only file rewriting started");
    } else {
        addReplyError(c, "Can't execute an AOF background rewriting. Please check the server logs for more "
                         "information.");
    }
}

/* The child's file plus the writes made since the fork is the new AOF.
 * False when the rewrite failed: before the rename the old file stays the
 * AOF; a directory that could not be fsynced after it leaves the new file
 * in use (the old one is gone from the directory) but the rewrite is not
 * known to survive a power loss, so it is reported as failed. */
static bool installRewrittenAof() {
    const std::string &tmpfile = server.aof_rewrite_tmpfile;
    int newfd = open(tmpfile.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (newfd == -1) {
        serverLog(LL_WARNING, "Unable to open the temporary AOF produced by the child: %s", strerror(errno));
        return false;
    }
    long long latency = latencyStartMonitor();
    if (writeFully(newfd, server.aof_rewrite_buf) != server.aof_rewrite_buf.size()) {
        serverLog(LL_WARNING, "Error trying to flush the parent diff to the rewritten AOF: %s", strerror(errno));
        close(newfd);
        return false;
    }
    latencyAddSampleIfNeeded("aof-rewrite-diff-write", latencyEndMonitor(latency));
    serverLog(LL_NOTICE, "Residual parent diff successfully flushed to the rewritten AOF (%.2f MB)",
              static_cast<double>(server.aof_rewrite_buf.size()) / (1024 * 1024));
    /* The writes of the diff may already have been fsynced in the old
     * file: the new one replaces it only once it is on disk as a whole. */
    if (fdatasync(newfd) == -1) {
        serverLog(LL_WARNING, "Fail to fsync the temp AOF file %s: %s.", tmpfile.c_str(), strerror(errno));
        close(newfd);
        return false;
    }
    latency = latencyStartMonitor();
    if (rename(tmpfile.c_str(), server.aof_filename.c_str()) == -1) {
        serverLog(LL_WARNING, "Error trying to rename the temporary AOF file %s into %s: %s", tmpfile.c_str(),
                  server.aof_filename.c_str(), strerror(errno));
        close(newfd);
        return false;
    }
    latencyAddSampleIfNeeded("aof-rename", latencyEndMonitor(latency));
    bool durable = fsyncFileDir(server.aof_filename.c_str()) == 0;
    if (!durable)
        serverLog(LL_WARNING, "Fail to fsync AOF directory %s: %s.", server.aof_filename.c_str(), strerror(errno));
    if (server.aof_fd == -1) { /* BGREWRITEAOF with the AOF off */
        close(newfd);
        return durable;
    }
    /* The old file is gone from the directory; its last close (and the
     * freeing of its blocks) happens in the background. */
    bioCreateJob(BIO_CLOSE_FILE, server.aof_fd);
    server.aof_fd = newfd;
    server.aof_last_fsync = server.mstime;
    server.aof_selected_db = -1;
    server.aof_current_size = server.aof_rewrite_base_size = server.aof_fsync_offset = fileSize(newfd);
    /* What aof_buf holds was also in the rewrite buffer, now in the file. */
    server.aof_buf.clear();
    if (server.aof_state == AOF_WAIT_REWRITE) server.aof_state = AOF_ON;
    return durable;
}

void backgroundRewriteDoneHandler(int exitcode, int bysignal) {
    bool success = false;
    if (!bysignal && exitcode == 0) {
        serverLog(LL_NOTICE, "Background AOF rewrite terminated with success");
        success = installRewrittenAof();
        if (success) serverLog(LL_NOTICE, "Background AOF rewrite finished successfully");
    } else if (!bysignal) {
        serverLog(LL_WARNING, "Background AOF rewrite terminated with error");
    } else {
        serverLog(LL_WARNING, "Background AOF rewrite terminated by signal %d", bysignal);
    }
    server.aof_lastbgrewrite_status = success ? C_OK : C_ERR;
    server.stat_aofrw_consecutive_failures = success ? 0 : server.stat_aofrw_consecutive_failures + 1;
    unlink(server.aof_rewrite_tmpfile.c_str());
    std::string().swap(server.aof_rewrite_buf);
    server.aof_rewrite_time_last = time(nullptr) - server.aof_rewrite_time_start;
    server.aof_rewrite_time_start = -1;
    /* `appendonly yes` still waits for its file: try again. */
    if (server.aof_state == AOF_WAIT_REWRITE) server.aof_rewrite_scheduled = true;
}

void killAppendOnlyChild() {
    if (server.child_type != CHILD_TYPE_AOF) return;
    serverLog(LL_NOTICE, "Killing running AOF rewrite child: %ld", static_cast<long>(server.child_pid));
    int exitcode = -1, bysignal = 0; /* unknown if it could not be waited for */
    if (kill(server.child_pid, SIGUSR1) != -1) {
        int status;
        pid_t waited;
        while ((waited = waitpid(server.child_pid, &status, 0)) == -1 && errno == EINTR) {
        }
        if (waited != -1) childExitStatus(status, &exitcode, &bysignal);
    }
    if (traceOn(TRACE_CHILD)) traceChildDone("killAppendOnlyChild", exitcode, bysignal);
    unlink(server.aof_rewrite_tmpfile.c_str());
    std::string().swap(server.aof_rewrite_buf);
    resetChildState();
    server.aof_rewrite_time_start = -1;
}

void aofCron() {
    if (hasActiveChildProcess()) return;
    if (server.aof_rewrite_scheduled && !aofRewriteLimited()) {
        rewriteAppendOnlyFileBackground();
    } else if (server.aof_state == AOF_ON && server.aof_rewrite_perc &&
               server.aof_current_size > server.aof_rewrite_min_size) {
        long long base = server.aof_rewrite_base_size ? server.aof_rewrite_base_size : 1;
        long long growth = (server.aof_current_size * 100 / base) - 100;
        if (growth >= server.aof_rewrite_perc && !aofRewriteLimited()) {
            serverLog(LL_NOTICE, "Starting automatic rewriting of AOF on %lld%% growth", growth);
            rewriteAppendOnlyFileBackground();
        }
    }
    /* A failed write or background fsync is retried from here too: writes
     * are refused meanwhile, so none would trigger the retry. */
    if (server.aof_state == AOF_ON &&
        (server.aof_last_write_status == C_ERR || server.aof_bio_fsync_status == C_ERR))
        flushAppendOnlyFile();
}

int aofPrepareForShutdown(bool force) {
    if (server.child_type == CHILD_TYPE_AOF) {
        if (server.aof_state == AOF_WAIT_REWRITE) {
            if (!force) {
                serverLog(LL_WARNING, "Writing initial AOF, can't exit.");
                return C_ERR;
            }
            serverLog(LL_WARNING, "Writing initial AOF. Exit anyway.");
        }
        serverLog(LL_WARNING, "There is a child rewriting the AOF. Killing it!");
        killAppendOnlyChild();
    }
    if (server.aof_state == AOF_OFF) return C_OK;
    serverLog(LL_NOTICE, "Calling fsync() on the AOF file.");
    flushAppendOnlyFile();
    /* A failed write keeps the acknowledged writes in aof_buf: exiting
     * would drop them. */
    bool ok = server.aof_last_write_status == C_OK;
    if (fdatasync(server.aof_fd) == -1) {
        int err = errno;
        serverLog(LL_WARNING, "Fail to fsync the AOF file: %s.", strerror(err));
        /* EINVAL: a file that cannot be synchronized at all (a device). */
        if (err != EINVAL) ok = false;
    }
    if (ok) return C_OK;
    if (force) {
        serverLog(LL_WARNING, "Error trying to flush the AOF. Exit anyway.");
        return C_OK;
    }
    serverLog(LL_WARNING, "Error trying to flush the AOF, can't exit.");
    return C_ERR;
}

/* ========================================================================
 * Loading
 * ====================================================================== */

namespace {

/* Reads the file command by command: "*<argc>\r\n" then argc times
 * "$<len>\r\n<bytes>\r\n". The arguments of the current command are views
 * into one buffer reused for every command. */
class AofReader {
public:
    enum Result { COMMAND, END, TRUNCATED, BAD_FORMAT, READ_ERROR };

    explicit AofReader(FILE *fp) : fp_(fp) {}

    Result next(std::vector<std::string_view> &argv) {
        long long argc;
        Result r = readLength('*', &argc, true);
        if (r != COMMAND) return r;
        if (argc < 1) return BAD_FORMAT;
        lens_.clear();
        args_.clear();
        for (long long j = 0; j < argc; j++) {
            long long len;
            if ((r = readLength('$', &len, false)) != COMMAND) return r == END ? TRUNCATED : r;
            if (len < 0) return BAD_FORMAT;
            size_t at = args_.size();
            args_.resize(at + static_cast<size_t>(len) + 2);
            size_t got = fread(args_.data() + at, 1, static_cast<size_t>(len) + 2, fp_);
            if (got != static_cast<size_t>(len) + 2) return ferror(fp_) ? READ_ERROR : TRUNCATED;
            if (args_[at + len] != '\r' || args_[at + len + 1] != '\n') return BAD_FORMAT;
            args_.resize(at + static_cast<size_t>(len));
            lens_.push_back(static_cast<size_t>(len));
        }
        argv.clear();
        const char *p = args_.data();
        for (size_t len : lens_) {
            argv.emplace_back(p, len);
            p += len;
        }
        return COMMAND;
    }

private:
    /* "<prefix><number>\r\n". END only when nothing at all is left and
     * `first` (a command boundary), where a line starting with '#' is an
     * annotation (Redis 7's "#TS:..."), skipped as Redis 7 skips them. */
    Result readLength(char prefix, long long *value, bool first) {
        char buf[128];
        size_t n;
        do {
            if (!fgets(buf, sizeof(buf), fp_)) return ferror(fp_) ? READ_ERROR : first ? END : TRUNCATED;
            n = strlen(buf);
            if (buf[n - 1] != '\n') return feof(fp_) ? TRUNCATED : BAD_FORMAT;
        } while (first && buf[0] == '#');
        if (buf[0] != prefix || n < 4 || buf[n - 2] != '\r') return BAD_FORMAT;
        return string2ll(std::string_view(buf + 1, n - 3), value) ? COMMAND : BAD_FORMAT;
    }

    FILE *fp_;
    std::string args_;
    std::vector<size_t> lens_;
};

/* A client with no connection runs the file's commands (Redis's
 * createAOFClient); its id tells afterErrorReply who gets an error. */
client *createAOFClient() {
    client *c = createClient(nullptr);
    server.clients_index.erase(c->id);
    c->id = CLIENT_ID_AOF;
    c->user = nullptr; /* no ACL user: the file's commands are not checked */
    return c;
}

/* Its replies are dropped as they come. */
void discardClientReplies(client *c) {
    c->bufpos = 0;
    c->reply.clear();
    c->reply_bytes = 0;
}

}  // namespace

/* A torn tail (a crash mid-write, a transaction without its EXEC) is cut
 * off when aof-load-truncated allows it; anything else wrong stops the
 * server: a damaged middle must not be silently skipped. */
static int loadAppendOnlyFileTruncated(const std::string &filename, long long valid_up_to) {
    if (server.aof_load_truncated) {
        serverLog(LL_WARNING, "!!! Warning: short read while loading the AOF file %s!!!", filename.c_str());
        serverLog(LL_WARNING, "!!! Truncating the AOF %s at offset %lld !!!", filename.c_str(), valid_up_to);
        if (truncate(filename.c_str(), valid_up_to) == 0) {
            serverLog(LL_WARNING, "AOF %s loaded anyway because aof-load-truncated is enabled", filename.c_str());
            return AOF_OK;
        }
        serverLog(LL_WARNING, "Error truncating the AOF file %s: %s", filename.c_str(), strerror(errno));
    }
    serverLog(LL_WARNING, "Unexpected end of file reading the append only file %s. You can: 1) Make a backup of "
                          "your AOF file, then use ./redis-check-aof --fix <filename>. 2) Alternatively you can "
                          "set the 'aof-load-truncated' configuration option to yes and restart the server.",
              filename.c_str());
    exit(1);
}

static int loadAppendOnlyFileCommands(const std::string &filename, FILE *fp, long long *loaded_size) {
    client *fake = createAOFClient();
    AofReader reader(fp);
    long long valid_up_to = 0, valid_before_multi = 0;
    AofReader::Result r;
    while ((r = reader.next(fake->argv)) == AofReader::COMMAND) {
        redisCommand *cmd = lookupCommand(fake->argv);
        if (!cmd) {
            serverLog(LL_WARNING, "Unknown command '%s' reading the append only file %s",
                      std::string(fake->argv[0].substr(0, 128)).c_str(), filename.c_str());
            exit(1);
        }
        /* The command would read arguments that are not there. */
        int argc = static_cast<int>(fake->argv.size());
        if ((cmd->arity > 0 && cmd->arity != argc) || argc < -cmd->arity) {
            serverLog(LL_WARNING, "Wrong number of arguments for '%s' reading the append only file %s",
                      cmd->fullname.c_str(), filename.c_str());
            exit(1);
        }
        if (cmd->proc == multiCommand) valid_before_multi = valid_up_to;
        fake->cmd = fake->lastcmd = cmd;
        if ((fake->flags & CLIENT_MULTI) && cmd->proc != execCommand) queueMultiCommand(fake);
        else cmd->proc(fake);
        discardClientReplies(fake);
        valid_up_to = ftello(fp);
    }
    bool in_multi = fake->flags & CLIENT_MULTI;
    fake->argv.clear();
    freeClient(fake);
    *loaded_size = valid_up_to;
    if (r == AofReader::READ_ERROR) {
        serverLog(LL_WARNING, "Unrecoverable error reading the append only file %s: %s", filename.c_str(),
                  strerror(errno));
        exit(1);
    }
    if (r == AofReader::BAD_FORMAT) {
        serverLog(LL_WARNING, "Bad file format reading the append only file %s: make a backup of your AOF file, "
                              "then use ./redis-check-aof --fix <filename>", filename.c_str());
        exit(1);
    }
    /* The file may end well-formed but inside MULTI: the transaction never
     * ran, so its start is where the file really ends. */
    if (r == AofReader::END && in_multi) {
        serverLog(LL_WARNING, "Revert incomplete MULTI/EXEC transaction in AOF file %s", filename.c_str());
        *loaded_size = valid_before_multi;
        return loadAppendOnlyFileTruncated(filename, valid_before_multi);
    }
    if (r == AofReader::TRUNCATED) {
        if (in_multi) *loaded_size = valid_up_to = valid_before_multi;
        return loadAppendOnlyFileTruncated(filename, valid_up_to);
    }
    return AOF_OK;
}

int loadAppendOnlyFile(const std::string &filename) {
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(filename.c_str(), "r"), fclose);
    if (!fp) {
        if (errno == ENOENT) return AOF_NOT_EXIST;
        serverLog(LL_WARNING, "Fatal error: can't open the append log file %s for reading: %s", filename.c_str(),
                  strerror(errno));
        exit(1);
    }
    long long size = fileSize(fileno(fp.get()));
    if (size == 0) return AOF_EMPTY;
    char sig[5];
    if (fread(sig, 1, sizeof(sig), fp.get()) == sizeof(sig) && memcmp(sig, "REDIS", 5) == 0) {
        serverLog(LL_WARNING, "The AOF file %s starts with an RDB preamble (aof-use-rdb-preamble): cppredis "
                              "writes and reads AOF files made of commands only", filename.c_str());
        exit(1);
    }
    rewind(fp.get());
    /* While the file replays: nothing expires (each command sees the keys
     * as they were when it first ran), and nothing is propagated back. */
    int aof_state = server.aof_state;
    server.aof_state = AOF_OFF;
    server.loading = true;
    long long loaded = 0;
    int ret = loadAppendOnlyFileCommands(filename, fp.get(), &loaded);
    server.loading = false;
    server.aof_state = aof_state;
    server.aof_selected_db = -1; /* a cut tail may have taken the last SELECT along */
    server.aof_current_size = server.aof_rewrite_base_size = server.aof_fsync_offset = loaded;
    return ret;
}

void debugLoadAof(client *c) {
    if (server.aof_state == AOF_ON) flushAppendOnlyFile();
    emptyData(-1, EMPTYDB_NO_FLAGS);
    functionsLibCtxClearCurrent();
    int ret = loadAppendOnlyFile(server.aof_filename);
    if (ret != AOF_OK && ret != AOF_EMPTY) exit(1);
    server.dirty = 0; /* the load itself is not a write to propagate */
    serverLog(LL_NOTICE, "Append Only File loaded by DEBUG LOADAOF");
    addReply(c, shared::ok);
}

/* ========================================================================
 * INFO
 * ====================================================================== */

void aofInfoFields(InfoSection &info) {
    auto status = [](int s) { return s == C_OK ? "ok" : "err"; };
    info.field("aof_enabled", server.aof_state != AOF_OFF ? 1 : 0)
        .field("aof_rewrite_in_progress", server.child_type == CHILD_TYPE_AOF ? 1 : 0)
        .field("aof_rewrite_scheduled", server.aof_rewrite_scheduled ? 1 : 0)
        .field("aof_last_rewrite_time_sec", static_cast<long long>(server.aof_rewrite_time_last))
        .field("aof_current_rewrite_time_sec",
               server.aof_rewrite_time_start == -1
                   ? -1LL
                   : static_cast<long long>(time(nullptr) - server.aof_rewrite_time_start))
        .field("aof_last_bgrewrite_status", status(server.aof_lastbgrewrite_status))
        .field("aof_rewrites", server.stat_aof_rewrites)
        .field("aof_rewrites_consecutive_failures", server.stat_aofrw_consecutive_failures)
        .field("aof_last_write_status",
               status(server.aof_bio_fsync_status == C_ERR ? C_ERR : server.aof_last_write_status))
        .field("aof_last_cow_size", server.stat_aof_cow_bytes);
}

void aofInfoEnabledFields(InfoSection &info) {
    if (server.aof_state == AOF_OFF) return;
    info.field("aof_current_size", server.aof_current_size)
        .field("aof_base_size", server.aof_rewrite_base_size)
        .field("aof_pending_rewrite", server.aof_rewrite_scheduled ? 1 : 0)
        .field("aof_buffer_length", server.aof_buf.size())
        .field("aof_pending_bio_fsync", bioPendingJobsOfType(BIO_AOF_FSYNC))
        .field("aof_delayed_fsync", server.aof_delayed_fsync);
}

bool aofHoldsUnwrittenWrites() { return !server.aof_buf.empty() && server.aof_last_write_status == C_OK; }
