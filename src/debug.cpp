/* debug.cpp — the DEBUG command: introspection and fault injection for
 * tests and learners (Redis's debug.c). Each later subsystem adds its
 * subcommands here (ZIPLIST, RELOAD...).
 */
#include <unistd.h>

#include <cmath>
#include <cstdint>

#include "server.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_zset.h"
#include "util.h"

static void debugHelp(client *c) {
    static const char *const help[] = {
        "OBJECT <key>",
        "    Show low level info about `key` and associated value.",
        "SLEEP <seconds>",
        "    Stop the server for <seconds>. Decimals allowed.",
        "ZIPLIST <key>",
        "    Show low level info about the ziplist encoding of <key>.",
        nullptr};
    addReplyHelp(c, help);
}

/* ------------------------------------------------------------------------
 * DEBUG OBJECT's serializedlength: the bytes the value would take in an RDB
 * file (Redis's rdbSavedObjectLen), computed without writing anything.
 * ---------------------------------------------------------------------- */

/* rdbSaveLen: lengths take 1, 2, 5 or 9 bytes by magnitude. */
static size_t rdbSavedLenLen(uint64_t len) {
    if (len < (1 << 6)) return 1;
    if (len < (1 << 14)) return 2;
    if (len <= UINT32_MAX) return 5;
    return 9;
}

/* rdbEncodeInteger: a type byte then 1, 2 or 4 bytes; 0 when the value
 * needs more than 32 bits and is saved as its decimal string instead. */
static size_t rdbEncodedIntegerLen(long long v) {
    if (v >= INT8_MIN && v <= INT8_MAX) return 2;
    if (v >= INT16_MIN && v <= INT16_MAX) return 3;
    if (v >= INT32_MIN && v <= INT32_MAX) return 5;
    return 0;
}

/* rdbSaveStringObject: a string that reads back as the same 32-bit integer
 * (any encoding: an int-encoded value, or "123" left raw by APPEND) is saved
 * as that integer, anything else as length + bytes. Redis would also try LZF
 * on strings over 20 bytes when rdbcompression is on; cppredis has no RDB
 * yet, so compressible strings report their uncompressed length. */
static size_t rdbSavedStringLen(std::string_view s) {
    long long v;
    if (string2ll(s, &v))
        if (size_t n = rdbEncodedIntegerLen(v)) return n;
    return rdbSavedLenLen(s.size()) + s.size();
}

static size_t rdbSavedStringObjectLen(const robj *o) {
    StringBuf buf;
    return rdbSavedStringLen(objectStringView(o, buf));
}

/* A ziplist (a small list, hash or sorted set) is saved as its blob: one
 * string. */
static size_t rdbSavedZiplistLen(const ziplist &zl) {
    return rdbSavedStringLen({reinterpret_cast<const char *>(zl.data()), zl.blobLen()});
}

/* Redis 2.6's list types: a ziplist is saved as its blob, a linkedlist as
 * its length then each element as a string. */
static size_t rdbSavedListLen(const robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) return rdbSavedZiplistLen(objectZiplist(o));
    const list &l = objectLinkedList(o);
    size_t len = rdbSavedLenLen(l.length());
    for (listNode *ln = l.first(); ln; ln = ln->next()) len += rdbSavedStringLen(ln->value());
    return len;
}

/* Redis 2.6's set types likewise: an intset is saved as its blob, a hash
 * table as its size then each member as a string. */
static size_t rdbSavedSetLen(const robj *o) {
    if (o->encoding == OBJ_ENCODING_INTSET) {
        const intset &is = objectIntset(o);
        return rdbSavedStringLen({reinterpret_cast<const char *>(is.data()), is.blobLen()});
    }
    setDict &d = objectSetDict(o);
    size_t len = rdbSavedLenLen(d.size());
    for (auto &de : d) len += rdbSavedStringLen(de.key);
    return len;
}

/* rdbSaveDoubleValue: one byte for inf and -inf, else a length byte and
 * the digits (an integral score as an integer, so -0 as "0"). */
static size_t rdbSavedDoubleLen(double v) {
    if (!std::isfinite(v)) return 1;
    char buf[MAX_D2STRING_CHARS];
    return 1 + static_cast<size_t>(d2string(buf, sizeof(buf), v == 0 ? 0.0 : v));
}

/* Redis 2.6's sorted set types: a ziplist as its blob, a skiplist as its
 * length then each member as a string and its score as a double. */
static size_t rdbSavedZsetLen(const robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) return rdbSavedZiplistLen(objectZiplist(o));
    const zskiplist &zsl = objectZset(o).zsl;
    size_t len = rdbSavedLenLen(zsl.length);
    for (const zskiplistNode *node = zsl.header->level[0].forward; node; node = node->level[0].forward)
        len += rdbSavedStringLen(node->ele()) + rdbSavedDoubleLen(node->score);
    return len;
}

/* Redis 2.6's hash types: a ziplist as its blob, a hash table as its size
 * then each field and its value as strings. */
static size_t rdbSavedHashLen(const robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) return rdbSavedZiplistLen(objectZiplist(o));
    hashDict &d = objectHashDict(o);
    size_t len = rdbSavedLenLen(d.size());
    for (auto &de : d) len += rdbSavedStringLen(de.key) + rdbSavedStringLen(de.val);
    return len;
}

/* Other types gain their RDB length with their RDB encoding. */
static size_t rdbSavedObjectLen(const robj *o) {
    switch (o->type) {
    case OBJ_STRING: return rdbSavedStringObjectLen(o);
    case OBJ_LIST: return rdbSavedListLen(o);
    case OBJ_SET: return rdbSavedSetLen(o);
    case OBJ_HASH: return rdbSavedHashLen(o);
    case OBJ_ZSET: return rdbSavedZsetLen(o);
    default: return 0;
    }
}

/* DEBUG OBJECT <key>: the value's address, reference count, encoding and LRU
 * stamp. Like Redis it reads the dict directly (no lazy expiry, no touch). */
static void debugObject(client *c) {
    auto *de = c->db->dict.find(c->argv[2]);
    if (!de) return addReply(c, shared::nokeyerr);
    const robj *val = de->val.get();
    char line[256];
    snprintf(line, sizeof(line),
             "Value at:%p refcount:%d encoding:%s serializedlength:%zu lru:%d lru_seconds_idle:%llu",
             static_cast<const void *>(val), val->refcount, strEncoding(val->encoding), rdbSavedObjectLen(val),
             static_cast<int>(val->lru), estimateObjectIdleTime(val) / 1000);
    addReplyStatus(c, line);
}

/* DEBUG ZIPLIST <key>: every entry of a ziplist-encoded value (offset,
 * prevlen, encoding, header bytes, value) goes to the log, for readers of
 * the ziplist chapter. Redis 2.6 had no such subcommand; Redis 3.2 to 6.2
 * printed the same table on stdout, which is where cppredis's log goes
 * unless `logfile` is set. */
static void debugZiplist(client *c) {
    const robj *o = lookupKeyReadWithFlags(c->db, c->argv[2], LOOKUP_NOTOUCH | LOOKUP_NONOTIFY);
    if (!o) return addReply(c, shared::nokeyerr);
    if (o->encoding != OBJ_ENCODING_ZIPLIST) return addReplyError(c, "Not a ziplist encoded object.");
    std::string key(c->argv[2]);
    serverLog(LL_NOTICE, "DEBUG ZIPLIST %s", key.c_str());
    /* Line by line: a log message is cut at 1 KB, the table is not. */
    std::string table = objectZiplist(o).repr();
    for (size_t pos = 0, eol; pos < table.size(); pos = eol + 1) {
        eol = table.find('\n', pos);
        serverLog(LL_NOTICE | LL_RAW, "%.*s\n", static_cast<int>(eol - pos), table.data() + pos);
    }
    addReply(c, shared::ok);
}

/* DEBUG SLEEP blocks the whole server on purpose: it shows that one slow
 * command stalls every client of a single-threaded event loop. */
static void debugSleep(client *c) {
    double dtime = 0;
    if (c->argv.size() != 3 || !string2d(c->argv[2], &dtime) || dtime < 0)
        return addReplyError(c, "value is not a valid float");
    long long utime = static_cast<long long>(dtime * 1000000);
    timespec tv{static_cast<time_t>(utime / 1000000), static_cast<long>((utime % 1000000) * 1000)};
    nanosleep(&tv, nullptr);
    addReply(c, shared::ok);
}

void debugCommand(client *c) {
    std::string_view sub = c->argv[1];
    if (strEqualNoCase(sub, "help")) return debugHelp(c);
    if (strEqualNoCase(sub, "object") && c->argv.size() == 3) return debugObject(c);
    if (strEqualNoCase(sub, "sleep")) return debugSleep(c);
    if (strEqualNoCase(sub, "ziplist") && c->argv.size() == 3) return debugZiplist(c);
    addReplySubcommandSyntaxError(c);
}
