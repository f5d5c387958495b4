/* aof.cpp — the append-only file (Redis 7.0's aof.c): feeding it, flushing
 * and fsyncing it, rewriting it in a child, loading it. aof.h tells the path
 * of a write and the invariants.
 *
 * The multi-part AOF of Redis 7.0, in `appenddirname` (appendonlydir) under
 * `dir`, every name starting with `appendfilename` (appendonly.aof):
 *
 *   appendonly.aof.manifest     which files make the AOF, one line each:
 *                               "file <name> seq <n> type <b|h|i>"
 *   appendonly.aof.2.base.rdb   the BASE: the dataset as the last rewrite
 *                               saw it, an RDB (aof-use-rdb-preamble yes) or
 *                               commands (.base.aof, with `no`)
 *   appendonly.aof.3.incr.aof   INCR files: every write since, as commands;
 *                               the last one is the file aof_fd appends to
 *   (type h)                    HISTORY: base and incr files a rewrite made
 *                               obsolete, deleted in the background unless
 *                               aof-disable-auto-gc yes
 *
 * The manifest is the only truth: a file it does not list is not part of
 * the AOF, so every change is first made on a copy (aofManifest is a
 * value), written as temp-<manifest>, fsynced, renamed over the manifest,
 * and the directory fsynced (writeAofManifestFile) — only then does the
 * server use it.
 *
 * The rewrite (BGREWRITEAOF), as Redis 7.0 does it: the parent opens a new
 * incr file and persists a manifest listing it (openNewIncrAofForAppend),
 * then forks; from then on writes go to the new incr file, so the parent
 * keeps no rewrite buffer. The child writes the dataset it sees into
 * temp-rewriteaof-bg-<pid>.aof in `dir`. When it exits with success the
 * parent renames that file into the directory as the next base, marks the
 * base and incr files before the new incr file as history, persists the
 * manifest, and deletes the history files (backgroundRewriteDoneHandler).
 * A crash anywhere leaves a manifest whose files hold every write: before
 * the last rename, the old base and all incr files; after it, the new
 * base and the incr files opened since the fork.
 */
#include "aof.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>

#include "bio.h"
#include "childinfo.h"
#include "debug.h"
#include "functions.h"
#include "latency.h"
#include "multi.h"
#include "rdb.h"
#include "rio.h"
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
 * Feeding the buffer
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

/* The unit goes to aof_buf when the AOF is on, and while `appendonly yes`
 * waits for its first rewrite, once that rewrite's child runs: the buffer
 * then goes to the temporary incr file that becomes the first incr file.
 * Before the fork, the child's snapshot will hold the write. */
void feedAppendOnlyFile() {
    static std::string unit; /* reused: no allocation per command */
    if (server.aof_state != AOF_ON &&
        !(server.aof_state == AOF_WAIT_REWRITE && server.child_type == CHILD_TYPE_AOF))
        return;
    unit.clear();
    if (server.aof_timestamp_enabled) catTimestampAnnotationIfNeeded(unit, false);
    catExecutionUnit(unit, PROPAGATE_AOF, server.aof_selected_db);
    server.aof_buf.append(unit);
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
        if (ftruncate(server.aof_fd, server.aof_last_incr_size) == -1) {
            if (can_log)
                serverLog(LL_WARNING, "Could not remove short write from the append-only file. Redis may refuse "
                                      "to load the AOF the next time it starts. ftruncate: %s", strerror(errno));
            server.aof_current_size += static_cast<long long>(nwritten);
            server.aof_last_incr_size += static_cast<long long>(nwritten);
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
 * the file must be complete (a rewrite's start, shutdown, DEBUG LOADAOF). */
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
        server.aof_last_incr_size += static_cast<long long>(nwritten);
        /* The buffer is kept for the next iteration, unless a burst made it
         * big (Redis frees it past 4 KB; pipelined clients fill 4 KB in
         * every iteration, and a fresh buffer each time costs page faults). */
        if (server.aof_buf.capacity() <= 64 * 1024) server.aof_buf.clear();
        else std::string().swap(server.aof_buf);
    }
    /* After a failed background fsync the next one is due even if nothing
     * new was written: writes are refused until one succeeds. */
    bool fsync_failed = server.aof_bio_fsync_status == C_ERR;
    if (server.aof_last_incr_fsync_offset == server.aof_last_incr_size && !fsync_failed) return;
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
        server.aof_last_incr_fsync_offset = server.aof_last_incr_size;
        server.aof_last_fsync = server.mstime;
    } else if (server.aof_fsync == AOF_FSYNC_EVERYSEC && server.mstime - server.aof_last_fsync >= 1000) {
        /* The previous fsync still runs (slow disk): try again next second
         * rather than queue fsyncs behind each other. */
        if (bioPendingJobsOfType(BIO_AOF_FSYNC)) {
            server.aof_delayed_fsync++;
        } else {
            bioCreateJob(BIO_AOF_FSYNC, server.aof_fd);
            server.aof_last_incr_fsync_offset = server.aof_last_incr_size;
        }
        server.aof_last_fsync = server.mstime;
    }
}

/* An incr file aof_fd no longer appends to: fsynced, then closed, on the
 * bio thread (its jobs run in order: the fsync before the close). Under
 * everysec its last second of writes may not be on disk yet. */
static void aofBackgroundFsyncAndClose(int fd) {
    bioCreateJob(BIO_AOF_FSYNC, fd);
    bioCreateJob(BIO_CLOSE_FILE, fd);
}

/* Redis's bg_unlink: the name goes now, the blocks of a big file are freed
 * by the bio thread's close of the last descriptor. */
static void bgUnlink(const std::string &path) {
    int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd == -1) {
        unlink(path.c_str());
        return;
    }
    if (unlink(path.c_str()) == -1) {
        close(fd);
        return;
    }
    bioCreateJob(BIO_CLOSE_FILE, fd);
}

/* ========================================================================
 * The manifest
 * ====================================================================== */

namespace {

constexpr const char *BASE_FILE_SUFFIX = ".base", *INCR_FILE_SUFFIX = ".incr", *RDB_FORMAT_SUFFIX = ".rdb",
                     *AOF_FORMAT_SUFFIX = ".aof", *MANIFEST_NAME_SUFFIX = ".manifest",
                     *TEMP_FILE_NAME_PREFIX = "temp-";

/* The server's manifest (Redis's server.aof_manifest): what the last
 * successful persistAofManifest wrote, or what start-up read. */
aofManifest aof_manifest;

}  // namespace

static std::string aofPath(std::string_view name) { return makePath(server.aof_dirname, name); }

static std::string getAofManifestFileName() { return server.aof_filename + MANIFEST_NAME_SUFFIX; }
static std::string getTempAofManifestFileName() {
    return TEMP_FILE_NAME_PREFIX + server.aof_filename + MANIFEST_NAME_SUFFIX;
}
static std::string getTempIncrAofName() { return TEMP_FILE_NAME_PREFIX + server.aof_filename + INCR_FILE_SUFFIX; }

/* sdsneedsrepr: a name with blanks, quotes or unprintable bytes is written
 * quoted, so that the line splits back into the same words. */
static bool needsRepr(std::string_view s) {
    return std::any_of(s.begin(), s.end(), [](char ch) {
        auto c = static_cast<unsigned char>(ch);
        return c == '\\' || c == '"' || !isprint(c) || isspace(c);
    });
}

static void catAofInfo(std::string &buf, const aofInfo &ai) {
    buf += "file ";
    if (needsRepr(ai.file_name)) catRepr(buf, ai.file_name);
    else buf += ai.file_name;
    buf += " seq " + std::to_string(ai.file_seq) + " type ";
    buf += ai.file_type;
    buf += '\n';
}

std::string getAofManifestAsString(const aofManifest &am) {
    std::string buf;
    if (am.base_aof_info) catAofInfo(buf, *am.base_aof_info);
    for (const aofInfo &ai : am.history_aof_list) catAofInfo(buf, ai);
    for (const aofInfo &ai : am.incr_aof_list) catAofInfo(buf, ai);
    return buf;
}

/* One line of the manifest: pairs of words, of which file, seq and type
 * are needed (others are allowed, for forward compatibility). */
static const char *aofParseManifestLine(std::string_view line, aofInfo &ai) {
    std::vector<std::string> argv;
    if (!splitArgs(line, argv) || argv.size() < 6 || argv.size() % 2) return "Invalid AOF manifest file format";
    for (size_t i = 0; i < argv.size(); i += 2) {
        const std::string &value = argv[i + 1];
        if (strEqualNoCase(argv[i], "file")) {
            if (!pathIsBaseName(value)) return "File can't be a path, just a filename";
            ai.file_name = value;
        } else if (strEqualNoCase(argv[i], "seq")) {
            ai.file_seq = atoll(value.c_str());
        } else if (strEqualNoCase(argv[i], "type")) {
            ai.file_type = value.empty() ? 0 : value[0];
        }
    }
    if (ai.file_name.empty() || !ai.file_seq || !ai.file_type) return "Invalid AOF manifest file format";
    return nullptr;
}

/* The lines as Redis's aofLoadManifestFromFile reads them: '#' lines are
 * comments; one base at most; incr files in increasing seq order. */
bool aofParseManifest(std::string_view text, aofManifest &am, aofManifestError &err) {
    constexpr size_t MANIFEST_MAX_LINE = 1024;
    am = aofManifest{};
    long long maxseq = 0;
    if (text.empty()) {
        err = {0, "", "Found an empty AOF manifest"};
        return false;
    }
    for (int linenum = 1; !text.empty(); linenum++) {
        size_t eol = text.find('\n');
        std::string_view raw = text.substr(0, eol == std::string_view::npos ? text.size() : eol + 1);
        text.remove_prefix(raw.size());
        if (raw.size() > MANIFEST_MAX_LINE) raw = raw.substr(0, MANIFEST_MAX_LINE); /* fgets' buffer */
        if (raw[0] == '#') continue;
        std::string line(raw);
        size_t first = line.find_first_not_of(" \t\r\n"), last = line.find_last_not_of(" \t\r\n");
        line = first == std::string::npos ? "" : line.substr(first, last - first + 1);
        auto fail = [&](const char *why) {
            err = {linenum, line, why};
            return false;
        };
        if (raw.back() != '\n') return fail("The AOF manifest file contains too long line");
        if (line.empty()) return fail("Invalid AOF manifest file format");
        aofInfo ai;
        if (const char *why = aofParseManifestLine(line, ai)) return fail(why);
        if (ai.file_type == AOF_FILE_TYPE_BASE) {
            if (am.base_aof_info) return fail("Found duplicate base file information");
            am.curr_base_file_seq = ai.file_seq;
            am.base_aof_info = std::move(ai);
        } else if (ai.file_type == AOF_FILE_TYPE_HIST) {
            am.history_aof_list.push_back(std::move(ai));
        } else if (ai.file_type == AOF_FILE_TYPE_INCR) {
            if (ai.file_seq <= maxseq) return fail("Found a non-monotonic sequence number");
            am.curr_incr_file_seq = maxseq = ai.file_seq;
            am.incr_aof_list.push_back(std::move(ai));
        } else {
            return fail("Unknown AOF file type");
        }
    }
    return true;
}

/* A manifest that cannot be read stops start-up, in Redis's words. */
static aofManifest aofLoadManifestFromFile(const std::string &am_filepath) {
    FILE *fp = fopen(am_filepath.c_str(), "r");
    if (!fp) {
        serverLog(LL_WARNING, "Fatal error: can't open the AOF manifest file %s for reading: %s",
                  am_filepath.c_str(), strerror(errno));
        exit(1);
    }
    std::string text;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof(buf), fp)) > 0;) text.append(buf, n);
    bool read_error = ferror(fp);
    fclose(fp);
    aofManifest am;
    aofManifestError err;
    if (read_error) err = {0, "", "Read AOF manifest failed"};
    if (!read_error && aofParseManifest(text, am, err)) return am;
    serverLog(LL_WARNING, "\n*** FATAL AOF MANIFEST FILE ERROR ***\n");
    if (err.linenum) {
        serverLog(LL_WARNING, "Reading the manifest file, at line %d\n", err.linenum);
        serverLog(LL_WARNING, ">>> '%s'\n", err.line.c_str());
    }
    serverLog(LL_WARNING, "%s\n", err.reason);
    exit(1);
}

/* At start-up, before loading: no directory or no manifest is no AOF yet
 * (or an old single-file one, which loadAppendOnlyFiles upgrades). */
void aofLoadManifestFromDisk() {
    aof_manifest = aofManifest{};
    if (!dirExists(server.aof_dirname)) {
        serverLog(LL_DEBUG, "The AOF directory %s doesn't exist", server.aof_dirname.c_str());
        return;
    }
    std::string am_name = getAofManifestFileName(), am_filepath = aofPath(am_name);
    if (!fileExist(am_filepath)) {
        serverLog(LL_DEBUG, "The AOF manifest file %s doesn't exist", am_name.c_str());
        return;
    }
    aof_manifest = aofLoadManifestFromFile(am_filepath);
}

/* The next base (`appendfilename`.<seq>.base.rdb or .aof), the current
 * one becoming history. */
static std::string getNewBaseFileNameAndMarkPreAsHistory(aofManifest &am) {
    if (am.base_aof_info) {
        am.base_aof_info->file_type = AOF_FILE_TYPE_HIST;
        am.history_aof_list.push_front(std::move(*am.base_aof_info));
    }
    am.curr_base_file_seq++;
    am.base_aof_info = aofInfo{server.aof_filename + "." + std::to_string(am.curr_base_file_seq) + BASE_FILE_SUFFIX +
                                   (server.aof_use_rdb_preamble ? RDB_FORMAT_SUFFIX : AOF_FORMAT_SUFFIX),
                               am.curr_base_file_seq, AOF_FILE_TYPE_BASE};
    am.dirty = true;
    return am.base_aof_info->file_name;
}

/* The next incr file (`appendfilename`.<seq>.incr.aof), appended to the list. */
static std::string getNewIncrAofName(aofManifest &am) {
    am.curr_incr_file_seq++;
    am.incr_aof_list.push_back(aofInfo{server.aof_filename + "." + std::to_string(am.curr_incr_file_seq) +
                                           INCR_FILE_SUFFIX + AOF_FORMAT_SUFFIX,
                                       am.curr_incr_file_seq, AOF_FILE_TYPE_INCR});
    am.dirty = true;
    return am.incr_aof_list.back().file_name;
}

static std::string getLastIncrAofName(aofManifest &am) {
    if (am.incr_aof_list.empty()) return getNewIncrAofName(am);
    return am.incr_aof_list.back().file_name;
}

/* After a successful rewrite the new base holds what the incr files before
 * the current one (aof_fd's, when the AOF is on) held: they become history. */
static void markRewrittenIncrAofAsHistory(aofManifest &am) {
    if (am.incr_aof_list.empty()) return;
    size_t keep = server.aof_fd != -1 ? 1 : 0;
    while (am.incr_aof_list.size() > keep) {
        aofInfo ai = std::move(am.incr_aof_list[am.incr_aof_list.size() - 1 - keep]);
        am.incr_aof_list.erase(am.incr_aof_list.end() - 1 - static_cast<long>(keep));
        ai.file_type = AOF_FILE_TYPE_HIST;
        am.history_aof_list.push_front(std::move(ai));
    }
    am.dirty = true;
}

/* Where writeAofManifestFile stopped: the old manifest still in place, or
 * the new one renamed over it but its directory not known to be on disk. */
enum class ManifestWrite { Ok, NotRenamed, NotDurable };

/* temp-<manifest>: written, fsynced, renamed over the manifest; then the
 * directory fsynced, which also makes durable the new files the manifest
 * names (created in the same directory). */
static ManifestWrite writeAofManifestFile(const std::string &buf) {
    std::string am_name = getAofManifestFileName(), am_filepath = aofPath(am_name);
    std::string tmp_am_name = getTempAofManifestFileName(), tmp_am_filepath = aofPath(tmp_am_name);
    int fd = open(tmp_am_filepath.c_str(), O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0644);
    if (fd == -1) {
        serverLog(LL_WARNING, "Can't open the AOF manifest file %s: %s", tmp_am_name.c_str(), strerror(errno));
        return ManifestWrite::NotRenamed;
    }
    ManifestWrite result = ManifestWrite::NotRenamed;
    if (writeFully(fd, buf) != buf.size()) {
        serverLog(LL_WARNING, "Error trying to write the temporary AOF manifest file %s: %s", tmp_am_name.c_str(),
                  strerror(errno));
    } else if (fdatasync(fd) == -1) {
        serverLog(LL_WARNING, "Fail to fsync the temp AOF file %s: %s.", tmp_am_name.c_str(), strerror(errno));
    } else if (rename(tmp_am_filepath.c_str(), am_filepath.c_str()) != 0) {
        serverLog(LL_WARNING, "Error trying to rename the temporary AOF manifest file %s into %s: %s",
                  tmp_am_name.c_str(), am_name.c_str(), strerror(errno));
    } else if (fsyncFileDir(am_filepath.c_str()) == -1) {
        serverLog(LL_WARNING, "Fail to fsync AOF directory %s: %s.", am_filepath.c_str(), strerror(errno));
        result = ManifestWrite::NotDurable;
    } else {
        result = ManifestWrite::Ok;
    }
    close(fd);
    if (traceOn(TRACE_CHILD)) {
        traceEvent(TRACE_CHILD, "persistAofManifest")
            .str("manifest", am_name)
            .str("status", result == ManifestWrite::Ok ? "ok" : result == ManifestWrite::NotDurable ? "not-durable"
                                                                                                   : "error")
            .emit();
    }
    return result;
}

/* Writes `am` if it changed. NotRenamed leaves the manifest on disk as it was. */
static ManifestWrite persistAofManifest(aofManifest &am) {
    if (!am.dirty) return ManifestWrite::Ok;
    ManifestWrite result = writeAofManifestFile(getAofManifestAsString(am));
    if (result == ManifestWrite::Ok) am.dirty = false;
    return result;
}

const aofManifest &aofCurrentManifest() { return aof_manifest; }

/* The history files go, in the background, unless aof-disable-auto-gc:
 * the manifest stops listing them first. */
int aofDelHistoryFiles() {
    if (server.aof_disable_auto_gc || aof_manifest.history_aof_list.empty()) return C_OK;
    for (const aofInfo &ai : aof_manifest.history_aof_list) {
        serverLog(LL_NOTICE, "Removing the history file %s in the background", ai.file_name.c_str());
        bgUnlink(aofPath(ai.file_name));
    }
    if (traceOn(TRACE_CHILD)) {
        traceEvent(TRACE_CHILD, "aofDelHistoryFiles")
            .num("files", static_cast<long long>(aof_manifest.history_aof_list.size()))
            .emit();
    }
    aof_manifest.history_aof_list.clear();
    aof_manifest.dirty = true;
    return persistAofManifest(aof_manifest) == ManifestWrite::Ok ? C_OK : C_ERR;
}

static void aofDelTempIncrAofFile() {
    std::string name = getTempIncrAofName();
    serverLog(LL_NOTICE, "Removing the temp incr aof file %s in the background", name.c_str());
    bgUnlink(aofPath(name));
}

/* The single `appendfilename` of Redis ≤ 6.2 (and of cppredis before the
 * multi-part AOF), found in `dir` with no manifest: moved into the AOF
 * directory as its base, seq 1. The manifest is written first, so a crash
 * in between leaves the old file where a restart upgrades it again. */
static void aofUpgradePrepare(aofManifest &am) {
    if (dirCreateIfMissing(server.aof_dirname) == -1) {
        serverLog(LL_WARNING, "Can't open or create append-only dir %s: %s", server.aof_dirname.c_str(),
                  strerror(errno));
        exit(1);
    }
    am.base_aof_info = aofInfo{server.aof_filename, 1, AOF_FILE_TYPE_BASE};
    am.curr_base_file_seq = 1;
    am.dirty = true;
    if (persistAofManifest(am) != ManifestWrite::Ok) exit(1);
    if (rename(server.aof_filename.c_str(), aofPath(server.aof_filename).c_str()) == -1) {
        serverLog(LL_WARNING, "Error trying to move the old AOF file %s into dir %s: %s", server.aof_filename.c_str(),
                  server.aof_dirname.c_str(), strerror(errno));
        exit(1);
    }
    /* The manifest's fsync covered the directory before this rename. */
    if (fsyncFileDir(aofPath(server.aof_filename).c_str()) == -1 || fsyncFileDir(server.aof_filename.c_str()) == -1)
        serverLog(LL_WARNING, "Fail to fsync AOF directory %s: %s.", server.aof_dirname.c_str(), strerror(errno));
    serverLog(LL_NOTICE, "Successfully migrated an old-style AOF file (%s) into the AOF directory (%s).",
              server.aof_filename.c_str(), server.aof_dirname.c_str());
}

/* ========================================================================
 * Turning the AOF on and off
 * ====================================================================== */

static int rewriteAppendOnlyFile(const std::string &filename);

static long long getAppendOnlyFileSize(const std::string &name, int *status) {
    struct stat sb;
    long long latency = latencyStartMonitor();
    int rc = stat(aofPath(name).c_str(), &sb);
    latencyAddSampleIfNeeded("aof-fstat", latencyEndMonitor(latency));
    if (rc == -1) {
        if (status) *status = errno == ENOENT ? AOF_NOT_EXIST : AOF_OPEN_ERR;
        serverLog(LL_WARNING, "Unable to obtain the AOF file %s length. stat: %s", name.c_str(), strerror(errno));
        return 0;
    }
    if (status) *status = AOF_OK;
    return static_cast<long long>(sb.st_size);
}

static int aofCreateDirOrLog() {
    if (dirCreateIfMissing(server.aof_dirname) == 0) return C_OK;
    serverLog(LL_WARNING, "Can't open or create append-only dir %s: %s", server.aof_dirname.c_str(), strerror(errno));
    return C_ERR;
}

/* After loading, with `appendonly yes`: an empty AOF gets its first base
 * (the dataset, if any, from nowhere else: a fresh start), then the last
 * incr file is opened, created if need be, and the manifest persisted.
 * Any failure exits: the server would not keep what it acknowledges. */
void aofOpenIfNeededOnServerStart() {
    server.aof_state = server.aof_enabled ? AOF_ON : AOF_OFF;
    if (server.aof_state != AOF_ON) return;
    if (aofCreateDirOrLog() == C_ERR) exit(1);
    size_t incr_aof_len = aof_manifest.incr_aof_list.size();
    if (!aof_manifest.base_aof_info && !incr_aof_len) {
        std::string base_name = getNewBaseFileNameAndMarkPreAsHistory(aof_manifest);
        if (rewriteAppendOnlyFile(aofPath(base_name)) != C_OK) exit(1);
        serverLog(LL_NOTICE, "Creating AOF base file %s on server start", base_name.c_str());
    }
    std::string aof_name = getLastIncrAofName(aof_manifest);
    server.aof_fd = open(aofPath(aof_name).c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (server.aof_fd == -1) {
        serverLog(LL_WARNING, "Can't open the append-only file %s: %s", aof_name.c_str(), strerror(errno));
        exit(1);
    }
    if (persistAofManifest(aof_manifest) != ManifestWrite::Ok) exit(1);
    server.aof_last_incr_size = server.aof_last_incr_fsync_offset = getAppendOnlyFileSize(aof_name, nullptr);
    server.aof_last_fsync = server.mstime;
    serverLog(LL_NOTICE, incr_aof_len ? "Opening AOF incr file %s on server start"
                                      : "Creating AOF incr file %s on server start",
              aof_name.c_str());
}

/* A rewrite starts by giving the writes a new incr file: listed in the
 * manifest (AOF_ON), or, while `appendonly yes` waits for its first base,
 * the temporary incr file the rewrite's end renames into the manifest.
 * Nothing changes unless the file is open and the manifest persisted. */
static int openNewIncrAofForAppend() {
    if (server.aof_state == AOF_OFF) return C_OK;
    std::optional<aofManifest> temp_am;
    std::string new_aof_name;
    if (server.aof_state == AOF_WAIT_REWRITE) {
        new_aof_name = getTempIncrAofName();
    } else {
        temp_am = aof_manifest;
        new_aof_name = getNewIncrAofName(*temp_am);
    }
    int newfd = open(aofPath(new_aof_name).c_str(), O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0644);
    if (newfd == -1) {
        serverLog(LL_WARNING, "Can't open the append-only file %s: %s", new_aof_name.c_str(), strerror(errno));
        return C_ERR;
    }
    if (temp_am && persistAofManifest(*temp_am) != ManifestWrite::Ok) {
        close(newfd);
        return C_ERR;
    }
    serverLog(LL_NOTICE, "Creating AOF incr file %s on background rewrite", new_aof_name.c_str());
    if (traceOn(TRACE_CHILD))
        traceEvent(TRACE_CHILD, "openNewIncrAofForAppend").str("file", new_aof_name).emit();
    if (server.aof_fd != -1) aofBackgroundFsyncAndClose(server.aof_fd);
    server.aof_fd = newfd;
    server.aof_last_incr_size = server.aof_last_incr_fsync_offset = 0;
    server.aof_last_fsync = server.mstime;
    if (temp_am) aof_manifest = std::move(*temp_am);
    return C_OK;
}

/* CONFIG SET appendonly yes: the first base is written by a rewrite, and
 * the AOF is on (AOF_ON) once it succeeded; meanwhile (AOF_WAIT_REWRITE)
 * the writes go to the temporary incr file. */
int startAppendOnly() {
    server.aof_state = AOF_WAIT_REWRITE;
    if (hasActiveChildProcess() && server.child_type != CHILD_TYPE_AOF) {
        server.aof_rewrite_scheduled = true;
        serverLog(LL_WARNING, "AOF was enabled but there is already another background operation. An AOF "
                              "background was scheduled to start when possible.");
    } else if (server.execution_nesting > 1) {
        server.aof_rewrite_scheduled = true; /* inside EXEC: forked once it ends (see BGREWRITEAOF) */
        serverLog(LL_WARNING, "AOF was enabled during a transaction. An AOF background was scheduled to start "
                              "when possible.");
    } else {
        /* A running rewrite cannot become the first one: its writes were
         * not collected. */
        if (server.child_type == CHILD_TYPE_AOF) {
            serverLog(LL_WARNING, "AOF was enabled but there is already an AOF rewriting in background. Stopping "
                                  "background AOF and starting a rewrite now.");
            killAppendOnlyChild();
        }
        if (rewriteAppendOnlyFileBackground() == C_ERR) {
            server.aof_state = AOF_OFF;
            if (server.aof_fd != -1) close(server.aof_fd); /* the temporary incr file, if it was opened */
            server.aof_fd = -1;
            serverLog(LL_WARNING, "Redis needs to enable the AOF but can't trigger a background AOF rewrite "
                                  "operation. Check the above logs for more info about the error.");
            return C_ERR;
        }
    }
    server.aof_last_fsync = server.mstime;
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
    if (server.aof_fd != -1) {
        if (fdatasync(server.aof_fd) == -1)
            serverLog(LL_WARNING, "Fail to fsync the AOF file: %s", strerror(errno));
        else
            server.aof_last_fsync = server.mstime;
        close(server.aof_fd);
    }
    server.aof_fd = -1;
    server.aof_selected_db = -1;
    server.aof_state = AOF_OFF;
    server.aof_rewrite_scheduled = false;
    server.aof_last_incr_size = server.aof_last_incr_fsync_offset = 0;
    killAppendOnlyChild();
    std::string().swap(server.aof_buf);
}
/* ========================================================================
 * The rewrite: the child's side
 * ====================================================================== */

/* As Redis: a command adds at most 64 elements, so that replaying a big
 * key does not build one giant argv. */
static constexpr size_t AOF_REWRITE_ITEMS_PER_CMD = 64;

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


/* The base as an RDB (aof-use-rdb-preamble yes): the file an RDB save
 * writes, which loading recognizes by its "REDIS" signature. */
static bool rewriteBaseAsRdb(FILE *fp) {
    static char iobuf[64 * 1024]; /* one rewrite at a time per process */
    setvbuf(fp, iobuf, _IOFBF, sizeof(iobuf));
    rioFile rdb(fp);
    if (server.aof_rewrite_incremental_fsync) rdb.setAutoSync(REDIS_AUTOSYNC_BYTES);
    return rdbSaveRio(rdb, RDBFLAGS_AOF_PREAMBLE) && rdb.flush();
}

/* Writes the dataset to temp-rewriteaof-<pid>.aof, fsyncs it, and renames
 * it to `filename`, so that nobody finds a half-written file there: the
 * child's temp-rewriteaof-bg-<pid>.aof, or at start-up the first base. */
static int rewriteAppendOnlyFile(const std::string &filename) {
    std::string tmpfile = "temp-rewriteaof-" + std::to_string(getpid()) + ".aof";
    FILE *fp = fopen(tmpfile.c_str(), "w");
    if (!fp) {
        serverLog(LL_WARNING, "Opening the temp file for AOF rewrite in rewriteAppendOnlyFile(): %s", strerror(errno));
        return C_ERR;
    }
    bool ok;
    if (server.aof_use_rdb_preamble) {
        ok = rewriteBaseAsRdb(fp);
    } else {
        RewriteWriter w(fileno(fp)); /* its own buffer: nothing goes through stdio */
        ok = rewriteAppendOnlyFileRio(w);
    }
    ok = ok && fsync(fileno(fp)) == 0;
    int err = errno;
    if (fclose(fp) != 0 && ok) {
        ok = false;
        err = errno;
    }
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
    return C_OK;
}

/* ========================================================================
 * The rewrite: the parent's side
 * ====================================================================== */

static std::string rewriteTempFileName(pid_t childpid) {
    return "temp-rewriteaof-bg-" + std::to_string(childpid) + ".aof";
}

static void aofRemoveTempFile(pid_t childpid) {
    bgUnlink(rewriteTempFileName(childpid));
    bgUnlink("temp-rewriteaof-" + std::to_string(childpid) + ".aof");
}

int rewriteAppendOnlyFileBackground() {
    if (hasActiveChildProcess()) return C_ERR;
    if (aofCreateDirOrLog() == C_ERR) {
        server.aof_lastbgrewrite_status = C_ERR;
        return C_ERR;
    }
    /* The new incr file starts with a SELECT; what the old one still has
     * buffered goes there first. */
    server.aof_selected_db = -1;
    flushAppendOnlyFile();
    if (openNewIncrAofForAppend() != C_OK) {
        server.aof_lastbgrewrite_status = C_ERR;
        return C_ERR;
    }
    server.stat_aof_rewrites++;
    pid_t childpid = redisFork(CHILD_TYPE_AOF);
    if (childpid == 0) {
        /* The child: _exit, not exit, so that nothing of the parent's
         * (buffers, atexit handlers, the bio thread) runs twice. */
        std::string tmpfile = rewriteTempFileName(getpid());
        if (rewriteAppendOnlyFile(tmpfile) != C_OK) _exit(1);
        serverLog(LL_NOTICE, "Successfully created the temporary AOF base file %s", tmpfile.c_str());
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
         * writes are in the child's snapshot or in the new incr file,
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

/* The steps of a successful child's end, on a copy of the manifest: the
 * child's file renamed into the directory as the next base, the temporary
 * incr file (AOF_WAIT_REWRITE) renamed as the first incr file, the incr
 * files the base covers marked history, the copy persisted. False when the
 * old manifest stays the AOF (the new files are removed again). */
static bool installRewrittenAof(pid_t childpid) {
    aofManifest temp_am = aof_manifest;
    std::string tmpfile = rewriteTempFileName(childpid);
    std::string new_base_filename = getNewBaseFileNameAndMarkPreAsHistory(temp_am);
    std::string new_base_filepath = aofPath(new_base_filename), new_incr_filepath;
    long long latency = latencyStartMonitor();
    if (rename(tmpfile.c_str(), new_base_filepath.c_str()) == -1) {
        serverLog(LL_WARNING, "Error trying to rename the temporary AOF base file %s into %s: %s", tmpfile.c_str(),
                  new_base_filepath.c_str(), strerror(errno));
        return false;
    }
    latencyAddSampleIfNeeded("aof-rename", latencyEndMonitor(latency));
    serverLog(LL_NOTICE, "Successfully renamed the temporary AOF base file %s into %s", tmpfile.c_str(),
              new_base_filename.c_str());
    if (traceOn(TRACE_CHILD)) traceEvent(TRACE_CHILD, "installRewrittenAof").str("base", new_base_filename).emit();
    if (server.aof_state == AOF_WAIT_REWRITE) {
        std::string temp_incr_aof_name = getTempIncrAofName(), temp_incr_filepath = aofPath(temp_incr_aof_name);
        std::string new_incr_filename = getNewIncrAofName(temp_am);
        new_incr_filepath = aofPath(new_incr_filename);
        latency = latencyStartMonitor();
        if (rename(temp_incr_filepath.c_str(), new_incr_filepath.c_str()) == -1) {
            serverLog(LL_WARNING, "Error trying to rename the temporary AOF incr file %s into %s: %s",
                      temp_incr_filepath.c_str(), new_incr_filepath.c_str(), strerror(errno));
            bgUnlink(new_base_filepath);
            return false;
        }
        latencyAddSampleIfNeeded("aof-rename", latencyEndMonitor(latency));
        serverLog(LL_NOTICE, "Successfully renamed the temporary AOF incr file %s into %s",
                  temp_incr_aof_name.c_str(), new_incr_filename.c_str());
    }
    markRewrittenIncrAofAsHistory(temp_am);
    ManifestWrite persisted = persistAofManifest(temp_am);
    if (persisted == ManifestWrite::NotRenamed) {
        bgUnlink(new_base_filepath);
        if (!new_incr_filepath.empty()) bgUnlink(new_incr_filepath);
        return false;
    }
    /* Renamed: the manifest on disk names the new files now, so they stay
     * (Redis 7.0 removes them even then, leaving a manifest that names a
     * missing base). Until its directory is on disk the old manifest may
     * come back at a power loss: its history files are kept, and the
     * rewrite is reported failed, so that a new one is tried. */
    aof_manifest = std::move(temp_am);
    if (server.aof_state != AOF_OFF) {
        server.aof_current_size = getAppendOnlyFileSize(new_base_filename, nullptr) + server.aof_last_incr_size;
        server.aof_rewrite_base_size = server.aof_current_size;
    }
    if (persisted == ManifestWrite::NotDurable) return false;
    aofDelHistoryFiles();
    return true;
}

void backgroundRewriteDoneHandler(int exitcode, int bysignal) {
    if (!bysignal && exitcode == 0) {
        long long start = ustime();
        serverLog(LL_NOTICE, "Background AOF rewrite terminated with success");
        bool installed = installRewrittenAof(server.child_pid);
        server.aof_lastbgrewrite_status = installed ? C_OK : C_ERR;
        server.stat_aofrw_consecutive_failures = installed ? 0 : server.stat_aofrw_consecutive_failures + 1;
        if (installed) {
            serverLog(LL_NOTICE, "Background AOF rewrite finished successfully");
            if (server.aof_state == AOF_WAIT_REWRITE) server.aof_state = AOF_ON;
        }
        serverLog(LL_VERBOSE, "Background AOF rewrite signal handler took %lldus", ustime() - start);
    } else if (!bysignal) {
        server.aof_lastbgrewrite_status = C_ERR;
        server.stat_aofrw_consecutive_failures++;
        serverLog(LL_WARNING, "Background AOF rewrite terminated with error");
    } else {
        /* SIGUSR1 is how the parent stops a child: not a failure. */
        if (bysignal != SIGUSR1) {
            server.aof_lastbgrewrite_status = C_ERR;
            server.stat_aofrw_consecutive_failures++;
        }
        serverLog(LL_WARNING, "Background AOF rewrite terminated by signal %d", bysignal);
    }
    aofRemoveTempFile(server.child_pid);
    /* `appendonly yes` still waits for its first base: what the temporary
     * incr file collected is in no manifest, and the next try starts over. */
    if (server.aof_state == AOF_WAIT_REWRITE) {
        std::string().swap(server.aof_buf);
        aofDelTempIncrAofFile();
        server.aof_rewrite_scheduled = true;
    }
    server.aof_rewrite_time_last = time(nullptr) - server.aof_rewrite_time_start;
    server.aof_rewrite_time_start = -1;
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
    aofRemoveTempFile(server.child_pid);
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
    if (server.aof_state != AOF_OFF &&
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
    if (server.aof_state == AOF_OFF || server.aof_fd == -1) return C_OK;
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
 * off when aof-load-truncated allows it — in the last file only: a file
 * after it holds later writes, so the cut would lose what lies between;
 * such a file is left as it is and start-up stops. */
static int loadAppendOnlyFileTruncated(const std::string &filename, long long valid_up_to, bool last_file) {
    if (server.aof_load_truncated) {
        if (!last_file) {
            serverLog(LL_WARNING, "Fatal error: the truncated file is not the last file");
            return AOF_FAILED;
        }
        serverLog(LL_WARNING, "!!! Warning: short read while loading the AOF file %s!!!", filename.c_str());
        serverLog(LL_WARNING, "!!! Truncating the AOF %s at offset %lld !!!", filename.c_str(), valid_up_to);
        if (truncate(aofPath(filename).c_str(), valid_up_to) == 0) {
            serverLog(LL_WARNING, "AOF %s loaded anyway because aof-load-truncated is enabled", filename.c_str());
            return AOF_TRUNCATED;
        }
        serverLog(LL_WARNING, "Error truncating the AOF file %s: %s", filename.c_str(), strerror(errno));
    }
    serverLog(LL_WARNING, "Unexpected end of file reading the append only file %s. You can: 1) Make a backup of "
                          "your AOF file, then use ./redis-check-aof --fix <filename.manifest>. 2) Alternatively "
                          "you can set the 'aof-load-truncated' configuration option to yes and restart the server.",
              filename.c_str());
    return AOF_FAILED;
}

/* The RDB a base file is (or an old-style AOF starts with): false after
 * logging why it could not be read. A torn RDB is no torn command: the
 * file is refused, never cut (as Redis 7.0, which exits there). */
static bool loadRdbPreamble(const std::string &filename, FILE *fp) {
    bool old_style = filename == server.aof_filename;
    serverLog(LL_NOTICE, old_style ? "Reading RDB preamble from AOF file..." : "Reading RDB base file on AOF loading...");
    rioFile rdb(fp);
    try {
        rdbLoadRio(rdb, RDBFLAGS_NONE);
    } catch (const RdbLoadError &e) {
        if (e.kind == RdbLoadError::ShortRead)
            serverLog(LL_WARNING, "Short read or OOM loading DB. Unrecoverable error, aborting now.");
        else
            serverLog(LL_WARNING, "Internal error in RDB reading offset %zu -> %s", rdb.processed_bytes, e.what());
        serverLog(LL_WARNING, old_style ? "Error reading the RDB preamble of the AOF file %s, AOF loading aborted"
                                        : "Error reading the RDB base file %s, AOF loading aborted",
                  filename.c_str());
        return false;
    }
    if (old_style) serverLog(LL_NOTICE, "Reading the remaining AOF tail...");
    return true;
}

static int loadAppendOnlyFileCommands(const std::string &filename, FILE *fp, bool last_file) {
    client *fake = createAOFClient();
    AofReader reader(fp);
    long long valid_up_to = ftello(fp), valid_before_multi = valid_up_to;
    AofReader::Result r;
    int ret = AOF_OK;
    while ((r = reader.next(fake->argv)) == AofReader::COMMAND) {
        redisCommand *cmd = lookupCommand(fake->argv);
        if (!cmd) {
            serverLog(LL_WARNING, "Unknown command '%s' reading the append only file %s",
                      std::string(fake->argv[0].substr(0, 128)).c_str(), filename.c_str());
            ret = AOF_FAILED;
            break;
        }
        /* The command would read arguments that are not there. */
        int argc = static_cast<int>(fake->argv.size());
        if ((cmd->arity > 0 && cmd->arity != argc) || argc < -cmd->arity) {
            serverLog(LL_WARNING, "Wrong number of arguments for '%s' reading the append only file %s",
                      cmd->fullname.c_str(), filename.c_str());
            ret = AOF_FAILED;
            break;
        }
        if (cmd->proc == multiCommand) valid_before_multi = valid_up_to;
        fake->cmd = fake->lastcmd = cmd;
        if ((fake->flags & CLIENT_MULTI) && cmd->proc != execCommand) queueMultiCommand(fake);
        else cmd->proc(fake);
        discardClientReplies(fake);
        valid_up_to = ftello(fp);
        if (server.key_load_delay) debugDelay(server.key_load_delay);
    }
    bool in_multi = fake->flags & CLIENT_MULTI;
    fake->argv.clear();
    freeClient(fake);
    if (ret != AOF_OK) return ret;
    if (r == AofReader::READ_ERROR) {
        serverLog(LL_WARNING, "Unrecoverable error reading the append only file %s: %s", filename.c_str(),
                  strerror(errno));
        return AOF_FAILED;
    }
    if (r == AofReader::BAD_FORMAT) {
        serverLog(LL_WARNING, "Bad file format reading the append only file %s: make a backup of your AOF file, "
                              "then use ./redis-check-aof --fix <filename.manifest>", filename.c_str());
        return AOF_FAILED;
    }
    /* The file may end well-formed but inside MULTI: the transaction never
     * ran, so its start is where the file really ends. */
    if (r == AofReader::END && in_multi)
        serverLog(LL_WARNING, "Revert incomplete MULTI/EXEC transaction in AOF file %s", filename.c_str());
    if (in_multi) valid_up_to = valid_before_multi;
    if (r == AofReader::TRUNCATED || in_multi) return loadAppendOnlyFileTruncated(filename, valid_up_to, last_file);
    return AOF_OK;
}

/* One file of the AOF, `filename` in the AOF directory: an RDB, then (an
 * old-style preamble's tail, an AOF base, an incr file) commands. */
static int loadSingleAppendOnlyFile(const std::string &filename, bool last_file) {
    std::string path = aofPath(filename);
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(path.c_str(), "r"), fclose);
    if (!fp) {
        int en = errno;
        struct stat sb;
        if (stat(path.c_str(), &sb) == 0 || errno != ENOENT) {
            serverLog(LL_WARNING, "Fatal error: can't open the append log file %s for reading: %s", filename.c_str(),
                      strerror(en));
            return AOF_OPEN_ERR;
        }
        serverLog(LL_WARNING, "The append log file %s doesn't exist: %s", filename.c_str(), strerror(errno));
        return AOF_NOT_EXIST;
    }
    struct stat sb;
    if (fstat(fileno(fp.get()), &sb) == 0 && sb.st_size == 0) return AOF_EMPTY;
    char sig[5];
    bool rdb = fread(sig, 1, sizeof(sig), fp.get()) == sizeof(sig) && memcmp(sig, "REDIS", 5) == 0;
    if (fseek(fp.get(), 0, SEEK_SET) == -1) {
        serverLog(LL_WARNING, "Unrecoverable error reading the append only file %s: %s", filename.c_str(),
                  strerror(errno));
        return AOF_FAILED;
    }
    if (rdb && !loadRdbPreamble(filename, fp.get())) return AOF_FAILED;
    return loadAppendOnlyFileCommands(filename, fp.get(), last_file);
}

/* Loads the files `am` lists: the base, then the incr files in order.
 * With no manifest, a single `appendfilename` in `dir` (Redis ≤ 6.2) is
 * first moved into the AOF directory, in the three cases Redis 7.0 does:
 * no directory; a directory without a manifest; a manifest whose only
 * file is that base, missing from the directory (a crash mid-upgrade). */
static int loadAppendOnlyFiles(aofManifest &am) {
    if (fileExist(server.aof_filename)) {
        bool none = !am.base_aof_info && am.incr_aof_list.empty();
        bool half_upgraded = am.base_aof_info && am.incr_aof_list.empty() &&
                             am.base_aof_info->file_name == server.aof_filename &&
                             !fileExist(aofPath(server.aof_filename));
        if (!dirExists(server.aof_dirname) || none || half_upgraded) aofUpgradePrepare(am);
    }
    if (!am.base_aof_info && am.incr_aof_list.empty()) return AOF_NOT_EXIST;
    std::vector<const aofInfo *> files;
    if (am.base_aof_info) files.push_back(&*am.base_aof_info);
    for (const aofInfo &ai : am.incr_aof_list) files.push_back(&ai);
    long long total_size = 0, base_size = 0;
    for (const aofInfo *ai : files) {
        int status;
        long long size = getAppendOnlyFileSize(ai->file_name, &status);
        /* A file the manifest lists and the disk lacks is fatal. */
        if (status != AOF_OK) return status == AOF_NOT_EXIST ? AOF_FAILED : status;
        if (ai->file_type == AOF_FILE_TYPE_BASE) base_size = size;
        total_size += size;
    }
    if (total_size == 0) return AOF_EMPTY;
    int ret = AOF_OK;
    for (size_t i = 0; i < files.size(); i++) {
        const aofInfo &ai = *files[i];
        bool last_file = i + 1 == files.size();
        long long start = ustime();
        ret = loadSingleAppendOnlyFile(ai.file_name, last_file);
        if (ret == AOF_OK || ret == AOF_TRUNCATED)
            serverLog(LL_NOTICE, "DB loaded from %s file %s: %.3f seconds",
                      ai.file_type == AOF_FILE_TYPE_BASE ? "base" : "incr", ai.file_name.c_str(),
                      static_cast<double>(ustime() - start) / 1000000);
        /* Some file has data (total_size > 0): an empty one is fine. */
        if (ret == AOF_EMPTY || ret == AOF_NOT_EXIST) ret = AOF_OK;
        if (ret == AOF_OPEN_ERR || ret == AOF_FAILED) return ret;
    }
    server.aof_current_size = total_size;
    /* The growth base is not persisted: the base's size, as Redis 7.0
     * (the first automatic rewrite may come early). */
    server.aof_rewrite_base_size = base_size;
    return ret;
}

/* While the files replay: nothing expires (each command sees the keys as
 * they were when it first ran), and nothing is propagated back. */
int loadDataFromAppendOnlyFiles() {
    int aof_state = server.aof_state;
    server.aof_state = AOF_OFF;
    server.loading = true;
    int ret = loadAppendOnlyFiles(aof_manifest);
    server.loading = false;
    server.aof_state = aof_state;
    server.aof_selected_db = -1; /* a cut tail may have taken the last SELECT along */
    return ret;
}

void debugLoadAof(client *c) {
    if (server.aof_state == AOF_ON) flushAppendOnlyFile();
    emptyData(-1, EMPTYDB_NO_FLAGS);
    functionsLibCtxClearCurrent();
    aofLoadManifestFromDisk();
    aofDelHistoryFiles();
    int ret = loadDataFromAppendOnlyFiles();
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
