/* livetrace_output.cpp — the live trace's outputs (cppredis's own; Redis has
 * no counterpart): trace-events on pub/sub, the Chrome Trace Event Format
 * file, and the TRACE command. See livetrace_output.h for the design and the
 * invariants.
 */
#include "livetrace_output.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_set>

#include "log.h"
#include "networking.h"
#include "pubsub.h"
#include "livetrace.h"
#include "util.h"

/* Why a category name was refused, for CONFIG SET and TRACE START alike. */
static std::string invalidCategoryError(const std::string &bad) {
    return "Invalid trace category '" + bad + "'. Use 'all' or some of '" + traceCategoriesString(TRACE_ALL) + "'.";
}

/* ========================================================================
 * Live: pub/sub channels __trace__:<category>
 * ====================================================================== */

static void dropTraceOutputsInChild();

/* A fork()ed child (BGSAVE, AOF rewrite) must not write into the parent's
 * trace file, nor publish to its clients: it drops the outputs it
 * inherited. Registered once, when an output is first set. */
static void dropTraceOutputsInChildren() {
    [[maybe_unused]] static const bool registered = pthread_atfork(nullptr, nullptr, dropTraceOutputsInChild) == 0;
}

static void markTraceReader(client *c) { c->flags |= CLIENT_TRACE_READER; }

static void publishTraceRecord(const traceRecord &r) {
    static std::string channel; /* reused: its capacity stays */
    channel.assign("__trace__:");
    channel += traceCategoryName(r.category);
    if (!pubsubMayHaveReceivers(channel)) return; /* no line to format for nobody */
    std::string line = traceFormatText(r);
    if (line.empty()) return;
    pubsubPublishMessageVisit(channel, line, markTraceReader);
}

SetResult setTraceEvents(std::span<const std::string> args, std::string &err) {
    uint32_t mask;
    std::string bad;
    if (!traceParseCategories(args[0], &mask, &bad)) {
        err = invalidCategoryError(bad);
        return SetResult::Error;
    }
    if (mask == traceOutputCategories(TRACE_OUTPUT_LIVE)) return SetResult::Unchanged;
    if (mask) dropTraceOutputsInChildren();
    traceSetOutput(TRACE_OUTPUT_LIVE, mask, mask ? publishTraceRecord : nullptr);
    return SetResult::Changed;
}

std::string getTraceEvents() { return traceCategoriesString(traceOutputCategories(TRACE_OUTPUT_LIVE)); }

/* ========================================================================
 * File: Chrome's Trace Event Format, JSON array form
 *
 * Process 1 is the server. Track (tid) 0 is the event loop: its slices are
 * the iterations, with the handlers and commands nested inside. Track
 * id + 1 is client <id>: the commands it ran, its blocked spans and the
 * serving that ended them.
 * ====================================================================== */

namespace {

constexpr size_t kTraceFileFlushBytes = 64 * 1024;
constexpr unsigned long long kTraceFileDefaultMaxsize = 64ULL * 1024 * 1024;
constexpr unsigned long long kTraceFileMinMaxsize = 1024;
/* Kept free under MAXSIZE for the event saying the file was truncated and
 * the closing bracket (the event's numbers have at most 20 digits each). */
constexpr size_t kTraceFileTailRoom = 256;

struct traceFile {
    int fd = -1; /* -1: none open; the rest then describes the last one */
    std::string path;
    uint32_t categories = 0;
    unsigned long long maxsize = 0;
    unsigned long long bytes = 0; /* written or buffered */
    long long events = 0;         /* trace records written */
    bool truncated = false;
    std::string buf;              /* written when it passes kTraceFileFlushBytes */
    std::unordered_set<uint64_t> named_tracks;
};
traceFile tfile;

/* A JSON string: quotes, backslashes and control bytes escaped; bytes that
 * are not valid UTF-8 (a binary key) become the code points of their values
 * so the file always parses. */
size_t utf8SequenceLength(const unsigned char *p, size_t n) {
    if (p[0] < 0x80) return 1;
    size_t len = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : 2;
    if (p[0] < 0xC2 || p[0] > 0xF4 || len > n) return 0;
    /* The second byte's range rules out overlong forms, surrogates and
     * code points past U+10FFFF. */
    unsigned char lo = p[0] == 0xE0 ? 0xA0 : p[0] == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = p[0] == 0xED ? 0x9F : p[0] == 0xF4 ? 0x8F : 0xBF;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < len; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    return len;
}

void appendJsonString(std::string &out, std::string_view s) {
    out += '"';
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    size_t n = s.size();
    for (size_t i = 0; i < n;) {
        /* A run of ASCII that needs no escape goes in at once: most of it. */
        size_t run = i;
        while (run < n && p[run] >= 0x20 && p[run] < 0x80 && p[run] != '"' && p[run] != '\\') run++;
        out.append(s.data() + i, run - i);
        i = run;
        if (i == n) break;
        unsigned char ch = p[i];
        size_t len = utf8SequenceLength(p + i, n - i);
        if (len > 1) {
            out.append(s.data() + i, len);
            i += len;
            continue;
        }
        i++;
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += static_cast<char>(ch);
        } else if (ch == '\n') {
            out += "\\n";
        } else if (ch == '\r') {
            out += "\\r";
        } else if (ch == '\t') {
            out += "\\t";
        } else if (ch < 0x20 || len == 0) {
            char esc[8];
            snprintf(esc, sizeof(esc), "\\u%04x", ch);
            out += esc;
        } else {
            out += static_cast<char>(ch);
        }
    }
    out += '"';
}

void appendJsonNumber(std::string &out, long long v) {
    char num[LONG_STR_SIZE];
    out.append(num, ll2string(num, sizeof(num), v));
}

/* `,\n{"name":..,"cat":..,"ph":..,"ts":..,"pid":1,"tid":..` — the caller
 * adds its own members and the closing brace. Every object but the first
 * (the header's) starts with the separator. */
void openEvent(std::string &out, std::string_view name, std::string_view cat, char ph, monotime ts, uint64_t tid) {
    out += ",\n{\"name\":";
    appendJsonString(out, name);
    out += ",\"cat\":";
    appendJsonString(out, cat);
    out += ",\"ph\":\"";
    out += ph;
    out += "\",\"ts\":";
    appendJsonNumber(out, static_cast<long long>(ts));
    out += ",\"pid\":1,\"tid\":";
    appendJsonNumber(out, static_cast<long long>(tid));
}

void appendId(std::string &out, uint64_t id) {
    char hex[32];
    snprintf(hex, sizeof(hex), ",\"id\":\"0x%llx\"", static_cast<unsigned long long>(id));
    out += hex;
}

/* ,"args":{...}: the record's iteration, client and fields. */
void appendArgs(std::string &out, const traceRecord &r) {
    out += ",\"args\":{\"iteration\":";
    appendJsonNumber(out, r.iteration);
    if (r.client) {
        out += ",\"client\":";
        appendJsonNumber(out, static_cast<long long>(r.client));
    }
    for (const traceField &f : r.fields) {
        if (f.key == "iteration" || (r.client && f.key == "client")) continue; /* said above */
        out += ',';
        appendJsonString(out, f.key);
        out += ':';
        if (f.is_num) appendJsonNumber(out, f.num);
        else appendJsonString(out, f.str);
    }
    out += '}';
}

void appendThreadName(std::string &out, uint64_t tid, std::string_view name) {
    openEvent(out, "thread_name", "__metadata", 'M', 0, tid);
    out += ",\"args\":{\"name\":";
    appendJsonString(out, name);
    out += "}}";
}

/* The record as one or more events:
 *  - begin/end -> B/E, complete -> X, instant -> i (thread scope), on the
 *    record's track: the loop's for loop records and those of no client;
 *  - a command's call -> X on the loop's track and on its client's;
 *  - blockForKeys / unblockClient (async, id = client id) -> b/e "blocked"
 *    on the client's track, plus an instant with the record's name and args;
 *  - signalKeyAsReady (flow start) -> an instant on the loop's track and
 *    the arrow's start s "wake" there, bound to the enclosing command;
 *  - a waiter served (flow end, client = receiver) -> a short X slice on
 *    the receiver's track and the arrow's end f "wake" bound to it. */
void appendRecordEvents(std::string &out, const traceRecord &r) {
    uint64_t tid = (r.category == TRACE_LOOP || r.client == 0) ? 0 : r.client + 1;
    const char *cat = traceCategoryName(r.category);
    if (tid && !tfile.named_tracks.count(tid)) appendThreadName(out, tid, "client " + std::to_string(r.client));
    auto slice = [&](char ph, uint64_t on, std::string_view name) {
        openEvent(out, name, cat, ph, r.ts, on);
        if (ph == 'X') {
            out += ",\"dur\":";
            appendJsonNumber(out, static_cast<long long>(std::max<monotime>(r.dur, 1)));
        }
        if (ph == 'i') out += ",\"s\":\"t\"";
        appendArgs(out, r);
        out += '}';
    };
    /* The block's spans and arrows share one category and name, which
     * with the id is what the viewers match their ends by. */
    auto link = [&](char ph, uint64_t on, std::string_view name) {
        openEvent(out, name, "block", ph, r.ts, on);
        appendId(out, r.id);
        if (ph == 'f') out += ",\"bp\":\"e\"";
        out += '}';
    };
    switch (r.phase) {
    case tracePhase::begin:
    case tracePhase::end:
        slice(static_cast<char>(r.phase), tid, r.name);
        break;
    case tracePhase::instant:
        slice('i', tid, r.name);
        break;
    case tracePhase::complete:
        /* A command shows on the loop's track too, inside the handler
         * that read it. */
        if (tid && r.category == TRACE_CMD && strcmp(r.name, "call") == 0) slice('X', 0, r.name);
        slice('X', tid, r.name);
        break;
    case tracePhase::asyncBegin:
    case tracePhase::asyncEnd:
        link(static_cast<char>(r.phase), tid, "blocked");
        slice('i', tid, r.name);
        break;
    case tracePhase::flowStart:
        slice('i', 0, r.name);
        link('s', 0, "wake");
        break;
    case tracePhase::flowEnd:
        slice('X', tid, r.name);
        link('f', tid, "wake");
        break;
    }
}

/* write() all of it, through short writes and signals: what is left
 * unwritten (0 on success, errno set otherwise). */
size_t writeAll(int fd, std::string_view data) {
    while (!data.empty()) {
        ssize_t n = write(fd, data.data(), data.size());
        if (n == -1 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            break;
        }
        data.remove_prefix(static_cast<size_t>(n));
    }
    return data.size();
}

/* Writes the buffer. On failure the file is closed and the output
 * removed: the server carries on without it. */
bool flushTraceFile() {
    size_t unwritten = writeAll(tfile.fd, tfile.buf);
    if (unwritten == 0) {
        tfile.buf.clear();
        return true;
    }
    tfile.bytes -= unwritten;
    serverLog(LL_WARNING, "Error writing to the trace file %s: %s. Tracing to the file stopped.",
              tfile.path.c_str(), strerror(errno));
    traceSetOutput(TRACE_OUTPUT_FILE, 0, nullptr);
    close(tfile.fd);
    tfile.fd = -1;
    tfile.buf.clear();
    return false;
}

/* Closes the JSON array and the file. False (logged) if it was not all
 * written. */
bool closeTraceFile() {
    traceSetOutput(TRACE_OUTPUT_FILE, 0, nullptr);
    tfile.buf += "\n]\n";
    tfile.bytes += 3;
    if (!flushTraceFile()) return false;
    int fd = tfile.fd;
    tfile.fd = -1;
    if (close(fd) == -1) {
        serverLog(LL_WARNING, "Error closing the trace file %s: %s", tfile.path.c_str(), strerror(errno));
        return false;
    }
    return true;
}

/* The next event would pass MAXSIZE: say so in the file, and end it. */
void truncateTraceFile(monotime ts) {
    std::string &out = tfile.buf;
    size_t before = out.size();
    openEvent(out, "trace truncated at MAXSIZE", "trace", 'i', ts, 0);
    out += ",\"s\":\"g\",\"args\":{\"maxsize\":";
    appendJsonNumber(out, static_cast<long long>(tfile.maxsize));
    out += "}}";
    tfile.bytes += out.size() - before;
    tfile.truncated = true;
    serverLog(LL_NOTICE, "The trace file %s reached its MAXSIZE (%llu bytes): truncated and closed.",
              tfile.path.c_str(), tfile.maxsize);
    closeTraceFile();
}

void writeTraceRecord(const traceRecord &r) {
    static std::string events; /* reused: its capacity stays */
    events.clear();
    appendRecordEvents(events, r);
    if (tfile.bytes + events.size() + kTraceFileTailRoom > tfile.maxsize) return truncateTraceFile(r.ts);
    if (r.category != TRACE_LOOP && r.client) tfile.named_tracks.insert(r.client + 1);
    tfile.buf += events;
    tfile.bytes += events.size();
    tfile.events++;
    if (tfile.buf.size() >= kTraceFileFlushBytes) flushTraceFile();
}

/* The header: the process's and the loop track's names. */
void startTraceFile(int fd, std::string path, uint32_t categories, unsigned long long maxsize) {
    dropTraceOutputsInChildren();
    tfile.fd = fd;
    tfile.path = std::move(path);
    tfile.categories = categories;
    tfile.maxsize = maxsize;
    tfile.events = 0;
    tfile.truncated = false;
    tfile.named_tracks.clear();
    tfile.buf.clear();
    tfile.buf.reserve(kTraceFileFlushBytes + kTraceFileFlushBytes / 4);
    tfile.buf = "[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"cppredis-server\"}}";
    appendThreadName(tfile.buf, 0, "event loop");
    tfile.bytes = tfile.buf.size();
    traceSetOutput(TRACE_OUTPUT_FILE, categories, writeTraceRecord);
}

/* [CATEGORIES <cat> ...] [MAXSIZE <bytes>] from argv[from]. False after
 * replying the error. */
bool parseTraceStartOptions(client *c, size_t from, uint32_t *categories, unsigned long long *maxsize) {
    auto syntaxError = [c] {
        addReplyErrorObject(c, shared::syntaxerr);
        return false;
    };
    for (size_t j = from; j < c->argv.size(); j++) {
        std::string_view opt = c->argv[j];
        if (strEqualNoCase(opt, "maxsize") && j + 1 < c->argv.size()) {
            bool err;
            *maxsize = memtoull(c->argv[++j], &err);
            if (err || *maxsize < kTraceFileMinMaxsize) {
                addReplyErrorFormat(c, "Invalid MAXSIZE '%s': a size in bytes (units kb, mb, gb allowed) of at least %llu",
                                    std::string(c->argv[j]).c_str(), kTraceFileMinMaxsize);
                return false;
            }
        } else if (strEqualNoCase(opt, "categories") && j + 1 < c->argv.size()) {
            *categories = 0;
            while (j + 1 < c->argv.size() && !strEqualNoCase(c->argv[j + 1], "maxsize")) {
                uint32_t mask;
                std::string bad;
                if (!traceParseCategories(c->argv[++j], &mask, &bad)) {
                    addReplyError(c, invalidCategoryError(bad));
                    return false;
                }
                *categories |= mask;
            }
            if (*categories == 0) return syntaxError();
        } else {
            return syntaxError();
        }
    }
    return true;
}

}  // namespace

/* TRACE START <path> [CATEGORIES <category> ...] [MAXSIZE <bytes>] */
void traceStartCommand(client *c) {
    uint32_t categories = TRACE_ALL;
    unsigned long long maxsize = kTraceFileDefaultMaxsize;
    if (!parseTraceStartOptions(c, 3, &categories, &maxsize)) return;
    if (tfile.fd != -1)
        return addReplyErrorFormat(c, "Tracing to a file is already on (%s): TRACE STOP it first", tfile.path.c_str());
    std::string path(c->argv[2]);
    int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
    if (fd == -1) return addReplyErrorFormat(c, "Can't open the trace file %s: %s", path.c_str(), strerror(errno));
    startTraceFile(fd, std::move(path), categories, maxsize);
    addReply(c, shared::ok);
}

void traceStopCommand(client *c) {
    if (tfile.fd == -1) return addReplyError(c, "Tracing to a file is not on (TRACE START <path> starts it)");
    if (!closeTraceFile())
        return addReplyErrorFormat(c, "Error writing the trace file %s: it is closed, incomplete. Check the server logs.",
                                   tfile.path.c_str());
    addReply(c, shared::ok);
}

void traceStatusCommand(client *c) {
    bool open = tfile.fd != -1;
    addReplyMapLen(c, 8);
    addReplyBulk(c, "live-categories");
    addReplyBulk(c, getTraceEvents());
    addReplyBulk(c, "file-open");
    addReplyBulk(c, open ? "yes" : "no");
    addReplyBulk(c, "file-path");
    addReplyBulk(c, tfile.path);
    addReplyBulk(c, "file-categories");
    addReplyBulk(c, traceCategoriesString(tfile.categories));
    addReplyBulk(c, "file-maxsize");
    addReplyLongLong(c, static_cast<long long>(tfile.maxsize));
    addReplyBulk(c, "file-bytes");
    addReplyLongLong(c, static_cast<long long>(tfile.bytes));
    addReplyBulk(c, "file-events");
    addReplyLongLong(c, tfile.events);
    addReplyBulk(c, "file-truncated");
    addReplyBulk(c, tfile.truncated ? "yes" : "no");
}

void traceHelpCommand(client *c) {
    static const char *const help[] = {
        "START <path> [CATEGORIES <category> [<category> ...]] [MAXSIZE <bytes>]",
        "    Write the trace of the categories (default: all) to <path>, a JSON file in",
        "    Chrome's Trace Event Format that Perfetto UI or chrome://tracing opens",
        "    (tools/trace_timeline.py draws it as an SVG). At <bytes> (default 64mb) the",
        "    file is truncated and closed. Categories: all, loop, cmd, block, encoding,",
        "    dict, cron, child.",
        "STOP",
        "    Complete and close the trace file.",
        "STATUS",
        "    Return the live trace's categories (CONFIG SET trace-events) and the state",
        "    of the trace file, the last one if none is open: path, categories,",
        "    maxsize, bytes written or buffered, events, whether it was truncated.",
        nullptr};
    addReplyHelp(c, help);
}

static void dropTraceOutputsInChild() {
    traceSetOutput(TRACE_OUTPUT_LIVE, 0, nullptr);
    traceSetOutput(TRACE_OUTPUT_FILE, 0, nullptr);
    if (tfile.fd != -1) close(tfile.fd);
    tfile.fd = -1;
}

void stopTraceFileOnShutdown() {
    if (tfile.fd == -1) return;
    serverLog(LL_NOTICE, "Closing the trace file %s.", tfile.path.c_str());
    closeTraceFile();
}
