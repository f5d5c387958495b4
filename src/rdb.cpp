/* rdb.cpp — RDB snapshots (Redis's rdb.c); rdb.h describes the file and
 * the invariants.
 *
 * In order: the low-level writers (types, lengths, strings, doubles), one
 * value and the whole file; the readers, value types one by one (Redis 2.6's
 * own, then the older zipmap and Redis 3.2 - 7.0's quicklists and
 * listpacks, then streams), then the whole file; files on disk (rdbSave, rdbLoad) and the
 * background child (rdbSaveBackground and its done handler, the save
 * points); SAVE, BGSAVE, LASTSAVE; INFO persistence.
 *
 * Loading trusts nothing in the file: every length is bounded by the bytes
 * really there, every blob is validated before it becomes a value, and a
 * problem throws RdbLoadError up to rdbLoad, which reports it. Values are
 * owned by ObjRef and strings by std::string on the way, so an error at any
 * point leaks nothing.
 */
#include "rdb.h"

#include <fcntl.h>
#include <liblzf/lzf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>

#include "aof.h"
#include "childinfo.h"
#include "debug.h"
#include "functions.h"
#include "intset.h"
#include "latency.h"
#include "listpack.h"
#include "replication.h"
#include "rio.h"
#include "server.h"
#include "stream.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_stream.h"
#include "t_zset.h"
#include "util.h"
#include "ziplist.h"

namespace {

constexpr int CONFIG_BGSAVE_RETRY_DELAY = 5;        /* seconds between tries after a failed BGSAVE */
constexpr size_t RDB_LOAD_CHUNK = 1024 * 1024;      /* a long string is read this much at a time */

/* Fixed-width integers: little-endian in the file (times, checksum,
 * binary doubles), big-endian for the 32/64-bit lengths. */
void storeLE(unsigned char *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++, v >>= 8) p[i] = static_cast<unsigned char>(v);
}
uint64_t loadLE(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
void storeBE(unsigned char *p, uint64_t v, int n) {
    for (int i = n - 1; i >= 0; i--, v >>= 8) p[i] = static_cast<unsigned char>(v);
}
uint64_t loadBE(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = (v << 8) | p[i];
    return v;
}

std::string formatString(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string formatString(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return buf;
}

[[noreturn]] void rdbCorrupt(const std::string &why) { throw RdbLoadError(why, RdbLoadError::Corrupt); }

/* INFO's dump_payload_sanitizations: the blobs whose deep check Redis makes
 * only with sanitize-dump-payload yes (intsets, the listpacks of hashes,
 * sorted sets, Redis 7 quicklists and streams), counted as Redis counts
 * them there, before the check. cppredis makes it for every one of them
 * (sanitize-dump-payload accepts only yes); the ziplists, which Redis
 * checks in full whatever the setting, are not counted, as in Redis. */
void countDeepSanitization() { server.stat_dump_payload_sanitizations++; }
/* A well-formed file cppredis does not load: the reason is logged as is. */
[[noreturn]] void rdbRefuse(const std::string &why) { throw RdbLoadError(why, RdbLoadError::Unsupported); }

}  // namespace

/* ========================================================================
 * Writing: types, lengths, strings, doubles
 * ====================================================================== */

bool rdbSaveType(rio &rdb, unsigned char type) { return rdb.write(&type, 1); }

/* 00|6 bits, 01|14 bits (big-endian), 0x80 + 32 bits, 0x81 + 64 bits. */
bool rdbSaveLen(rio &rdb, uint64_t len) {
    unsigned char buf[9];
    size_t n;
    if (len < (1 << 6)) {
        buf[0] = static_cast<unsigned char>(len | (RDB_6BITLEN << 6));
        n = 1;
    } else if (len < (1 << 14)) {
        buf[0] = static_cast<unsigned char>((len >> 8) | (RDB_14BITLEN << 6));
        buf[1] = static_cast<unsigned char>(len);
        n = 2;
    } else if (len <= UINT32_MAX) {
        buf[0] = RDB_32BITLEN;
        storeBE(buf + 1, len, 4);
        n = 5;
    } else {
        buf[0] = RDB_64BITLEN;
        storeBE(buf + 1, len, 8);
        n = 9;
    }
    return rdb.write(buf, n);
}

bool rdbSaveMillisecondTime(rio &rdb, long long t) {
    unsigned char buf[8];
    storeLE(buf, static_cast<uint64_t>(t), 8);
    return rdb.write(buf, 8);
}

/* rdbEncodeInteger: the 2, 3 or 5 bytes of an integer that fits 8, 16 or
 * 32 bits; 0 for a wider one. */
static size_t rdbEncodeInteger(long long value, unsigned char *enc) {
    int bytes;
    unsigned encoding;
    if (value >= INT8_MIN && value <= INT8_MAX) bytes = 1, encoding = RDB_ENC_INT8;
    else if (value >= INT16_MIN && value <= INT16_MAX) bytes = 2, encoding = RDB_ENC_INT16;
    else if (value >= INT32_MIN && value <= INT32_MAX) bytes = 4, encoding = RDB_ENC_INT32;
    else return 0;
    enc[0] = static_cast<unsigned char>((RDB_ENCVAL << 6) | encoding);
    storeLE(enc + 1, static_cast<uint64_t>(value), bytes);
    return 1 + bytes;
}

/* rdbTryIntegerEncoding: only a string that reads back identical ("12",
 * not "012" nor "+12") may be stored as the integer. */
static size_t rdbTryIntegerEncoding(std::string_view s, unsigned char *enc) {
    long long value;
    return string2ll(s, &value) ? rdbEncodeInteger(value, enc) : 0;
}

/* rdbSaveLzfStringObject: LZF pays only if it saves at least 4 bytes;
 * returns 0 when it does not (nothing written), -1 on a write error. */
static int rdbSaveLzfStringObject(rio &rdb, std::string_view s) {
    if (s.size() <= 4 || s.size() > UINT_MAX) return 0;
    size_t outlen = s.size() - 4;
    auto out = std::make_unique<char[]>(outlen);
    unsigned comprlen =
        lzf_compress(s.data(), static_cast<unsigned>(s.size()), out.get(), static_cast<unsigned>(outlen));
    if (comprlen == 0) return 0;
    bool ok = rdbSaveType(rdb, (RDB_ENCVAL << 6) | RDB_ENC_LZF) && rdbSaveLen(rdb, comprlen) &&
              rdbSaveLen(rdb, s.size()) && rdb.write(out.get(), comprlen);
    return ok ? 1 : -1;
}

bool rdbSaveRawString(rio &rdb, std::string_view s) {
    if (s.size() <= 11) {
        unsigned char buf[5];
        if (size_t n = rdbTryIntegerEncoding(s, buf)) return rdb.write(buf, n);
    }
    if (server.rdb_compression && s.size() > 20) {
        int r = rdbSaveLzfStringObject(rdb, s);
        if (r != 0) return r > 0;
    }
    return rdbSaveLen(rdb, s.size()) && rdb.write(s.data(), s.size());
}

bool rdbSaveStringObject(rio &rdb, const robj *o) {
    StringBuf buf;
    return rdbSaveRawString(rdb, objectStringView(o, buf));
}

/* A ziplist or intset: its bytes, as one string. */
static bool rdbSaveBlob(rio &rdb, const unsigned char *p, size_t len) {
    return rdbSaveRawString(rdb, {reinterpret_cast<const char *>(p), len});
}

/* rdbSaveDoubleValue, the text form of versions up to 7: a length byte then
 * the digits; 253, 254, 255 alone stand for NaN, +inf, -inf. An integral
 * value below 2^52 is printed as an integer, anything else with the 17
 * digits that read back as the same double. Unlike Redis 2.6, -0 is
 * written "-0", not "0": a skiplist keeps -0 (ZSCORE says so), and a
 * reload must not change it. */
static bool rdbSaveDoubleValue(rio &rdb, double val) {
    unsigned char buf[128];
    size_t len = 1;
    if (std::isnan(val)) {
        buf[0] = 253;
    } else if (!std::isfinite(val)) {
        buf[0] = val < 0 ? 255 : 254;
    } else {
        int n = d2string(reinterpret_cast<char *>(buf + 1), sizeof(buf) - 1, val);
        buf[0] = static_cast<unsigned char>(n);
        len += static_cast<size_t>(n);
    }
    return rdb.write(buf, len);
}

/* ========================================================================
 * Writing: values and the file
 * ====================================================================== */

bool rdbSaveObjectType(rio &rdb, const robj *o) {
    bool compact = o->encoding == OBJ_ENCODING_ZIPLIST || o->encoding == OBJ_ENCODING_INTSET;
    switch (o->type) {
    case OBJ_STRING: return rdbSaveType(rdb, RDB_TYPE_STRING);
    case OBJ_LIST: return rdbSaveType(rdb, compact ? RDB_TYPE_LIST_ZIPLIST : RDB_TYPE_LIST);
    case OBJ_SET: return rdbSaveType(rdb, compact ? RDB_TYPE_SET_INTSET : RDB_TYPE_SET);
    case OBJ_ZSET: return rdbSaveType(rdb, compact ? RDB_TYPE_ZSET_ZIPLIST : RDB_TYPE_ZSET);
    case OBJ_HASH: return rdbSaveType(rdb, compact ? RDB_TYPE_HASH_ZIPLIST : RDB_TYPE_HASH);
    case OBJ_STREAM: return rdbSaveType(rdb, RDB_TYPE_STREAM_LISTPACKS_2);
    default: return false;
    }
}

static bool rdbSaveLinkedList(rio &rdb, const list &l) {
    if (!rdbSaveLen(rdb, l.length())) return false;
    for (listNode *ln = l.first(); ln; ln = ln->next())
        if (!rdbSaveRawString(rdb, ln->value())) return false;
    return true;
}

static bool rdbSaveSetDict(rio &rdb, setDict &d) {
    if (!rdbSaveLen(rdb, d.size())) return false;
    for (auto &de : d)
        if (!rdbSaveRawString(rdb, de.key)) return false;
    return true;
}

/* From the tail back, as Redis 7 does: a loader inserting each member at
 * the head of its skiplist never walks it. */
static bool rdbSaveSkiplist(rio &rdb, const zskiplist &zsl) {
    if (!rdbSaveLen(rdb, zsl.length)) return false;
    for (const zskiplistNode *node = zsl.tail; node; node = node->backward)
        if (!rdbSaveRawString(rdb, node->ele()) || !rdbSaveDoubleValue(rdb, node->score)) return false;
    return true;
}

static bool rdbSaveHashDict(rio &rdb, hashDict &d) {
    if (!rdbSaveLen(rdb, d.size())) return false;
    for (auto &de : d)
        if (!rdbSaveRawString(rdb, de.key) || !rdbSaveRawString(rdb, de.val)) return false;
    return true;
}

/* A stream ID as two lengths, ms then seq: how a stream's own IDs are
 * written (the pending entries' IDs are raw, as their rax keys). */
static bool rdbSaveStreamID(rio &rdb, const streamID &id) { return rdbSaveLen(rdb, id.ms) && rdbSaveLen(rdb, id.seq); }

/* rdbSaveStreamPEL: the IDs of a pending entries list, raw (16 big-endian
 * bytes); with `nacks` (the group's own list) each NACK's delivery time and
 * count too. A consumer's list names the same NACKs, which the loader finds
 * back in the group's list by ID. */
static bool rdbSaveStreamPEL(rio &rdb, rax *pel, bool nacks) {
    if (!rdbSaveLen(rdb, raxSize(pel))) return false;
    raxIterator ri;
    raxStart(&ri, pel);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        if (!rdb.write(ri.key.data(), STREAM_ID_BYTES)) return false;
        if (!nacks) continue;
        const auto *nack = static_cast<const streamNACK *>(ri.data);
        if (!rdbSaveMillisecondTime(rdb, nack->delivery_time) || !rdbSaveLen(rdb, nack->delivery_count)) return false;
    }
    return true;
}

/* rdbSaveStreamConsumers: per consumer its name, seen time and pending IDs. */
static bool rdbSaveStreamConsumers(rio &rdb, streamCG *cg) {
    if (!rdbSaveLen(rdb, raxSize(&cg->consumers))) return false;
    raxIterator ri;
    raxStart(&ri, &cg->consumers);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        auto *consumer = static_cast<streamConsumer *>(ri.data);
        if (!rdbSaveRawString(rdb, ri.key) || !rdbSaveMillisecondTime(rdb, consumer->seen_time) ||
            !rdbSaveStreamPEL(rdb, &consumer->pel, false))
            return false;
    }
    return true;
}

/* RDB_TYPE_STREAM_LISTPACKS_2, as Redis 7.0 writes it: the nodes (master
 * ID and listpack, as they are), the length, last, first and greatest
 * deleted IDs, entries_added; then each group with its last ID,
 * entries_read, pending entries and consumers. */
static bool rdbSaveStreamObject(rio &rdb, stream &s) {
    if (!rdbSaveLen(rdb, raxSize(&s.tree))) return false;
    raxIterator ri;
    raxStart(&ri, &s.tree);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        const auto *lp = static_cast<const listpack *>(ri.data);
        if (!rdbSaveRawString(rdb, ri.key) || !rdbSaveBlob(rdb, lp->data(), lpBytes(*lp))) return false;
    }
    if (!rdbSaveLen(rdb, s.length) || !rdbSaveStreamID(rdb, s.last_id) || !rdbSaveStreamID(rdb, s.first_id) ||
        !rdbSaveStreamID(rdb, s.max_deleted_entry_id) || !rdbSaveLen(rdb, s.entries_added))
        return false;
    if (!rdbSaveLen(rdb, s.cgroups ? raxSize(s.cgroups.get()) : 0)) return false;
    if (!s.cgroups) return true;
    raxStart(&ri, s.cgroups.get());
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        auto *cg = static_cast<streamCG *>(ri.data);
        /* An unknown entries_read (-1) is written as Redis does: the
         * 64-bit length 2^64 - 1, which reads back as -1. */
        if (!rdbSaveRawString(rdb, ri.key) || !rdbSaveStreamID(rdb, cg->last_id) ||
            !rdbSaveLen(rdb, static_cast<uint64_t>(cg->entries_read)) || !rdbSaveStreamPEL(rdb, &cg->pel, true) ||
            !rdbSaveStreamConsumers(rdb, cg))
            return false;
    }
    return true;
}

bool rdbSaveObject(rio &rdb, const robj *o) {
    switch (o->encoding) {
    case OBJ_ENCODING_RAW:
    case OBJ_ENCODING_INT:
    case OBJ_ENCODING_EMBSTR: return rdbSaveStringObject(rdb, o);
    case OBJ_ENCODING_ZIPLIST: return rdbSaveBlob(rdb, objectZiplist(o).data(), objectZiplist(o).blobLen());
    case OBJ_ENCODING_INTSET: return rdbSaveBlob(rdb, objectIntset(o).data(), objectIntset(o).blobLen());
    case OBJ_ENCODING_LINKEDLIST: return rdbSaveLinkedList(rdb, objectLinkedList(o));
    case OBJ_ENCODING_SKIPLIST: return rdbSaveSkiplist(rdb, objectZset(o).zsl);
    case OBJ_ENCODING_HT:
        return o->type == OBJ_SET ? rdbSaveSetDict(rdb, objectSetDict(o)) : rdbSaveHashDict(rdb, objectHashDict(o));
    case OBJ_ENCODING_STREAM: return rdbSaveStreamObject(rdb, objectStream(o));
    default: return false;
    }
}

size_t rdbSavedObjectLen(const robj *o) {
    rioNull counter;
    rdbSaveObject(counter, o);
    return counter.processed_bytes;
}

bool rdbSaveKeyValuePair(rio &rdb, std::string_view key, const robj *val, long long expiretime) {
    if (expiretime != -1 && !(rdbSaveType(rdb, RDB_OPCODE_EXPIRETIME_MS) && rdbSaveMillisecondTime(rdb, expiretime)))
        return false;
    /* The access history the policy ranks keys by, as Redis saves it: the
     * idle time in seconds, or the decayed LFU counter. */
    if ((server.maxmemory_policy & MAXMEMORY_FLAG_LRU) &&
        !(rdbSaveType(rdb, RDB_OPCODE_IDLE) && rdbSaveLen(rdb, estimateObjectIdleTime(val) / 1000)))
        return false;
    if ((server.maxmemory_policy & MAXMEMORY_FLAG_LFU) &&
        !(rdbSaveType(rdb, RDB_OPCODE_FREQ) && rdbSaveType(rdb, static_cast<unsigned char>(LFUDecrAndReturn(val)))))
        return false;
    return rdbSaveObjectType(rdb, val) && rdbSaveRawString(rdb, key) && rdbSaveObject(rdb, val);
}

/* rdb-key-save-delay: slows a save (or an AOF rewrite) down on purpose, so
 * tests can watch a BGSAVE in progress. Negative values are nanoseconds. */
void rdbKeySaveDelay() {
    long long ns = server.rdb_key_save_delay > 0 ? server.rdb_key_save_delay * 1000LL : -server.rdb_key_save_delay;
    timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    nanosleep(&ts, nullptr);
}

/* Whether any database holds a stream: the file then needs the version
 * that has Redis 7.0's stream type. */
static bool rdbDatasetHasStreams() {
    for (int j = 0; j < server.dbnum; j++)
        for (auto &de : server.db[j].dict)
            if (de.val->type == OBJ_STREAM) return true;
    return false;
}

bool rdbSaveFunctions(rio &rdb) {
    for (auto &[name, li] : functionsLibGet())
        if (!rdbSaveType(rdb, RDB_OPCODE_FUNCTION2) || !rdbSaveRawString(rdb, li->code)) return false;
    return true;
}

static bool rdbSaveAuxField(rio &rdb, std::string_view key, std::string_view val) {
    return rdbSaveType(rdb, RDB_OPCODE_AUX) && rdbSaveRawString(rdb, key) && rdbSaveRawString(rdb, val);
}

/* RESIZEDB: the sizes of the db's two tables, which the loader presizes. */
static bool rdbSaveResizeDb(rio &rdb, const redisDb &db) {
    return rdbSaveType(rdb, RDB_OPCODE_RESIZEDB) && rdbSaveLen(rdb, db.dict.size()) &&
           rdbSaveLen(rdb, db.expires.size());
}

bool rdbSaveRio(rio &rdb, int rdbflags) {
    size_t key_counter = 0;
    long long info_updated_time = 0;
    rdb.cksum = 0;
    rdb.update_cksum = server.rdb_checksum;
    char magic[16];
    /* Functions, like streams, need Redis 7.0's version; a file without
     * them stays readable by older versions — not an AOF base, which only
     * Redis 7.0 and later read: it has 7.0's aof-base field and presizing. */
    bool aof_base = rdbflags & RDBFLAGS_AOF_PREAMBLE;
    bool functions = !functionsLibGet().empty();
    snprintf(magic, sizeof(magic), "REDIS%04d",
             aof_base || functions || rdbDatasetHasStreams() ? RDB_VERSION_STREAMS : RDB_VERSION);
    if (!rdb.write(magic, 9)) return false;
    if (aof_base && !rdbSaveAuxField(rdb, "aof-base", "1")) return false;
    if (!rdbSaveFunctions(rdb)) return false;
    for (int j = 0; j < server.dbnum; j++) {
        redisDb &db = server.db[j];
        if (db.dict.size() == 0) continue;
        if (!rdbSaveType(rdb, RDB_OPCODE_SELECTDB) || !rdbSaveLen(rdb, static_cast<uint64_t>(j))) return false;
        if (aof_base && !rdbSaveResizeDb(rdb, db)) return false;
        for (auto &de : db.dict) {
            if (!rdbSaveKeyValuePair(rdb, de.key, de.val.get(), getExpire(&db, de.key))) return false;
            reportSaveProgress(key_counter, info_updated_time, "RDB");
            if (server.rdb_key_save_delay) rdbKeySaveDelay();
        }
    }
    if (!rdbSaveType(rdb, RDB_OPCODE_EOF)) return false;
    unsigned char cksum[8];
    storeLE(cksum, server.rdb_checksum ? rdb.cksum : 0, 8);
    return rdb.write(cksum, 8);
}

/* ========================================================================
 * Reading: types, lengths, strings, doubles
 * ====================================================================== */

static void rdbLoadRaw(rio &rdb, void *buf, size_t len) {
    if (!rdb.read(buf, len)) throw RdbLoadError("Short read", RdbLoadError::ShortRead);
}

int rdbLoadType(rio &rdb) {
    unsigned char type;
    rdbLoadRaw(rdb, &type, 1);
    return type;
}

uint64_t rdbLoadLen(rio &rdb, bool *isencoded) {
    unsigned char buf[8];
    rdbLoadRaw(rdb, buf, 1);
    unsigned kind = buf[0] >> 6;
    if (isencoded) *isencoded = kind == RDB_ENCVAL;
    if (kind == RDB_ENCVAL && !isencoded) rdbCorrupt("Unexpected string encoding where a length was expected");
    if (kind == RDB_6BITLEN || kind == RDB_ENCVAL) return buf[0] & 0x3F;
    if (kind == RDB_14BITLEN) {
        unsigned char low;
        rdbLoadRaw(rdb, &low, 1);
        return (uint64_t{buf[0] & 0x3Fu} << 8) | low;
    }
    int width = buf[0] == RDB_32BITLEN ? 4 : buf[0] == RDB_64BITLEN ? 8 : 0;
    if (!width) rdbCorrupt(formatString("Unknown length encoding %d in rdbLoadLen()", buf[0]));
    rdbLoadRaw(rdb, buf, width);
    return loadBE(buf, width);
}

long long rdbLoadMillisecondTime(rio &rdb) {
    unsigned char buf[8];
    rdbLoadRaw(rdb, buf, 8);
    return static_cast<long long>(loadLE(buf, 8));
}

/* `len` bytes, read in chunks so that a corrupt length costs at most a
 * chunk more than the file holds, never a huge allocation. */
static std::string rdbLoadBytes(rio &rdb, uint64_t len) {
    std::string s;
    while (s.size() < len) {
        size_t old = s.size(), n = static_cast<size_t>(std::min<uint64_t>(RDB_LOAD_CHUNK, len - old));
        s.resize(old + n);
        rdbLoadRaw(rdb, s.data() + old, n);
    }
    return s;
}

/* rdbLoadLzfStringObject. LZF expands at most ~90 times (a 3-byte back
 * reference copies 264 bytes): a larger claimed length is corrupt. */
static std::string rdbLoadLzfStringObject(rio &rdb) {
    uint64_t clen = rdbLoadLen(rdb), len = rdbLoadLen(rdb);
    std::string compressed = rdbLoadBytes(rdb, clen);
    if (len > clen * 128 + 1024 || clen > UINT_MAX) rdbCorrupt("Invalid LZF compressed string");
    std::string out(len, '\0');
    if (lzf_decompress(compressed.data(), static_cast<unsigned>(clen), out.data(), static_cast<unsigned>(len)) != len)
        rdbCorrupt("Invalid LZF compressed string");
    return out;
}

std::string rdbGenericLoadStringObject(rio &rdb) {
    bool isencoded;
    uint64_t len = rdbLoadLen(rdb, &isencoded);
    if (!isencoded) return rdbLoadBytes(rdb, len);
    if (len == RDB_ENC_LZF) return rdbLoadLzfStringObject(rdb);
    int bytes = len == RDB_ENC_INT8 ? 1 : len == RDB_ENC_INT16 ? 2 : len == RDB_ENC_INT32 ? 4 : 0;
    if (!bytes) rdbCorrupt(formatString("Unknown RDB string encoding type %d", static_cast<int>(len)));
    unsigned char buf[4];
    rdbLoadRaw(rdb, buf, bytes);
    int64_t sign = int64_t{1} << (8 * bytes - 1);
    int64_t value = (static_cast<int64_t>(loadLE(buf, bytes)) ^ sign) - sign;
    char digits[LONG_STR_SIZE];
    return std::string(digits, ll2string(digits, sizeof(digits), value));
}

/* The text doubles of ZSET (type 3). */
static double rdbLoadDoubleValue(rio &rdb) {
    unsigned char len;
    rdbLoadRaw(rdb, &len, 1);
    if (len == 253) return std::numeric_limits<double>::quiet_NaN();
    if (len == 254) return std::numeric_limits<double>::infinity();
    if (len == 255) return -std::numeric_limits<double>::infinity();
    char buf[256];
    rdbLoadRaw(rdb, buf, len);
    buf[len] = '\0';
    char *end;
    double val = strtod(buf, &end);
    if (end == buf) rdbCorrupt("Invalid double value");
    return val;
}

/* The 8-byte IEEE 754 doubles of ZSET_2, little-endian. */
static double rdbLoadBinaryDoubleValue(rio &rdb) {
    unsigned char buf[8];
    rdbLoadRaw(rdb, buf, 8);
    uint64_t bits = loadLE(buf, 8);
    double val;
    memcpy(&val, &bits, sizeof(val));
    return val;
}

/* ========================================================================
 * Reading values: builders that pick cppredis's encodings
 *
 * Each builder starts from the compact encoding unless the element count
 * already rules it out, and lets the type's own API convert when an element
 * does not fit, exactly as writes do. Duplicates mean a corrupt file.
 * ====================================================================== */

namespace {

/* An element of a listpack, ziplist or zipmap as bytes. */
struct ElementView {
    char buf[LONG_STR_SIZE];
    std::string_view operator()(const ziplistEntry &e) { return listTypeValueView(e, buf); }
};

class ListBuilder {
public:
    explicit ListBuilder(uint64_t len)
        : o_(len > static_cast<unsigned long long>(server.list_max_ziplist_entries) ? createListObject()
                                                                                    : createZiplistObject()) {}
    void add(std::string_view v) { listTypePush(o_.get(), v, LIST_TAIL); }
    ObjRef finish() { return listTypeLength(o_.get()) ? std::move(o_) : ObjRef(); }

private:
    ObjRef o_;
};

class SetBuilder {
public:
    explicit SetBuilder(uint64_t len)
        : o_(len > static_cast<unsigned long long>(server.set_max_intset_entries) ? createSetObject()
                                                                                  : createIntsetObject()) {}
    void add(std::string_view v) {
        if (!setTypeAdd(o_.get(), v)) rdbCorrupt("Duplicate set members detected");
    }
    ObjRef finish() { return setTypeSize(o_.get()) ? std::move(o_) : ObjRef(); }

private:
    ObjRef o_;
};

class HashBuilder {
public:
    explicit HashBuilder(uint64_t len) : o_(createHashObject()) {
        if (len > static_cast<unsigned long long>(server.hash_max_ziplist_entries))
            hashTypeConvert(o_.get(), OBJ_ENCODING_HT, hashEntriesOverLimit(len));
    }
    void add(std::string_view field, std::string_view value) {
        if (hashTypeSet(o_.get(), field, value)) rdbCorrupt("Duplicate hash fields detected");
    }
    ObjRef finish() { return hashTypeLength(o_.get()) ? std::move(o_) : ObjRef(); }

private:
    ObjRef o_;
};

/* As Redis: a skiplist first, turned into a ziplist at the end if it fits. */
class ZsetBuilder {
public:
    void add(std::string_view member, double score) {
        if (std::isnan(score)) rdbCorrupt("Zset with NAN score detected");
        int out = 0;
        double newscore;
        zsetAdd(o_.get(), score, member, ZADD_IN_NX, &out, &newscore);
        if (out & ZADD_OUT_NOP) rdbCorrupt("Duplicate zset fields detected");
        maxelelen_ = std::max(maxelelen_, member.size());
    }
    ObjRef finish() {
        if (zsetLength(o_.get()) == 0) return {};
        zsetConvertToZiplistIfNeeded(o_.get(), maxelelen_);
        return std::move(o_);
    }

private:
    ObjRef o_ = createZsetObject();
    size_t maxelelen_ = 0;
};

/* A zset score stored as a listpack or ziplist entry. */
double entryScore(const ziplistEntry &e) {
    double score;
    if (e.isInt) return static_cast<double>(e.lval);
    if (!string2d(e.sval, &score)) rdbCorrupt("Invalid zset score");
    return score;
}

}  // namespace

/* ========================================================================
 * Reading values: Redis 2.6's types
 * ====================================================================== */

static ObjRef rdbLoadListObject(rio &rdb) {
    uint64_t len = rdbLoadLen(rdb);
    ListBuilder list(len);
    for (uint64_t i = 0; i < len; i++) list.add(rdbGenericLoadStringObject(rdb));
    return list.finish();
}

static ObjRef rdbLoadSetObject(rio &rdb) {
    uint64_t len = rdbLoadLen(rdb);
    SetBuilder set(len);
    for (uint64_t i = 0; i < len; i++) set.add(rdbGenericLoadStringObject(rdb));
    return set.finish();
}

static ObjRef rdbLoadZsetObject(rio &rdb, int rdbtype) {
    uint64_t len = rdbLoadLen(rdb);
    ZsetBuilder zset;
    for (uint64_t i = 0; i < len; i++) {
        std::string member = rdbGenericLoadStringObject(rdb);
        zset.add(member, rdbtype == RDB_TYPE_ZSET_2 ? rdbLoadBinaryDoubleValue(rdb) : rdbLoadDoubleValue(rdb));
    }
    return zset.finish();
}

static ObjRef rdbLoadHashObject(rio &rdb) {
    uint64_t len = rdbLoadLen(rdb);
    HashBuilder hash(len);
    for (uint64_t i = 0; i < len; i++) {
        std::string field = rdbGenericLoadStringObject(rdb);
        hash.add(field, rdbGenericLoadStringObject(rdb));
    }
    return hash.finish();
}

static ObjRef rdbLoadIntsetObject(rio &rdb) {
    std::string blob = rdbGenericLoadStringObject(rdb);
    countDeepSanitization();
    std::optional<intset> is = intset::fromBlob(blob);
    if (!is) rdbCorrupt("Intset integrity check failed.");
    if (is->len() == 0) return {};
    ObjRef o = createIntsetObject();
    objectIntset(o.get()) = std::move(*is);
    if (unsigned long entries = setTypeSize(o.get());
        entries > static_cast<unsigned long long>(server.set_max_intset_entries))
        setTypeConvert(o.get(), OBJ_ENCODING_HT, setEntriesOverLimit(entries));
    return o;
}

/* The limits of a type's ziplist: its two settings, and the triggers
 * that say which one a value goes over. */
struct ziplistLimits {
    long long max_entries, max_value;
    encodingTrigger (*entries_over)(unsigned long entries);
    encodingTrigger (*value_over)(size_t len);
};

/* Which limit a ziplist holding `per` entries per element (1 for a list, 2
 * for the pairs of a hash or sorted set) exceeds, if any. */
static std::optional<encodingTrigger> ziplistExceedsLimits(const ziplist &zl, unsigned per, const ziplistLimits &l) {
    if (zl.len() / per > static_cast<unsigned long long>(l.max_entries)) return l.entries_over(zl.len() / per);
    for (zlpos p = zl.index(0); p; p = zl.next(p)) {
        ziplistEntry e = zl.get(p);
        if (!e.isInt && e.sval.size() > static_cast<unsigned long long>(l.max_value))
            return l.value_over(e.sval.size());
    }
    return std::nullopt;
}

/* The pairs of a hash or sorted set ziplist: an even count, no member or
 * field twice, and (sorted set) every score a number. Redis checks this only
 * in deep sanitization; a duplicate would break the conversion to a hash
 * table or skiplist, so it is always checked here. */
static void ziplistValidatePairs(const ziplist &zl, bool scores) {
    if (zl.len() % 2) rdbCorrupt("Ziplist holds an odd number of entries for a hash or sorted set");
    std::unordered_set<std::string> seen;
    for (zlpos p = zl.index(0); p; p = zl.next(zl.next(p))) {
        if (!seen.insert(zl.get(p).toString()).second) rdbCorrupt("Duplicate fields detected in a ziplist");
        if (scores && std::isnan(entryScore(zl.get(zl.next(p))))) rdbCorrupt("Zset with NAN score detected");
    }
}

/* LIST_ZIPLIST, ZSET_ZIPLIST, HASH_ZIPLIST: the blob becomes the value as
 * it is (byte for byte what was saved), converted if it exceeds this
 * server's limits. */
static ObjRef rdbLoadZiplistObject(rio &rdb, int rdbtype) {
    std::optional<ziplist> zl = ziplist::fromBlob(rdbGenericLoadStringObject(rdb));
    if (!zl) rdbCorrupt("Ziplist integrity check failed.");
    if (zl->len() == 0) return {};
    if (rdbtype != RDB_TYPE_LIST_ZIPLIST) ziplistValidatePairs(*zl, rdbtype == RDB_TYPE_ZSET_ZIPLIST);
    ObjRef o = rdbtype == RDB_TYPE_LIST_ZIPLIST   ? createZiplistObject()
               : rdbtype == RDB_TYPE_ZSET_ZIPLIST ? createZsetZiplistObject()
                                                  : createHashObject();
    objectZiplist(o.get()) = std::move(*zl);
    const ziplist &blob = objectZiplist(o.get());
    if (rdbtype == RDB_TYPE_LIST_ZIPLIST) {
        if (auto why = ziplistExceedsLimits(blob, 1, {server.list_max_ziplist_entries, server.list_max_ziplist_value,
                                                      listEntriesOverLimit, listValueOverLimit}))
            listTypeConvert(o.get(), OBJ_ENCODING_LINKEDLIST, *why);
    } else if (rdbtype == RDB_TYPE_ZSET_ZIPLIST) {
        if (auto why = ziplistExceedsLimits(blob, 2, {server.zset_max_ziplist_entries, server.zset_max_ziplist_value,
                                                      zsetEntriesOverLimit, zsetValueOverLimit}))
            zsetConvert(o.get(), OBJ_ENCODING_SKIPLIST, *why);
    } else if (auto why = ziplistExceedsLimits(blob, 2, {server.hash_max_ziplist_entries, server.hash_max_ziplist_value,
                                                         hashEntriesOverLimit, hashValueOverLimit})) {
        hashTypeConvert(o.get(), OBJ_ENCODING_HT, *why);
    }
    return o;
}

/* ========================================================================
 * Reading values: older and newer layouts, rebuilt element by element
 * ====================================================================== */

/* HASH_ZIPMAP (Redis < 2.6): <zmlen> then <len>field <len><free>value
 * <free bytes>... <0xFF>, each len one byte below 254, or 254 and 4 bytes. */
static ObjRef rdbLoadZipmapObject(rio &rdb) {
    std::string zm = rdbGenericLoadStringObject(rdb);
    const auto *p = reinterpret_cast<const unsigned char *>(zm.data());
    size_t pos = 1, size = zm.size();
    auto readLen = [&]() -> uint64_t {
        if (pos >= size) rdbCorrupt("Zipmap integrity check failed.");
        if (p[pos] < 254) return p[pos++];
        if (p[pos] == 255 || size - pos < 5) rdbCorrupt("Zipmap integrity check failed.");
        uint64_t len = loadLE(p + pos + 1, 4);
        pos += 5;
        return len;
    };
    auto readBytes = [&](uint64_t len) {
        if (size - pos < len) rdbCorrupt("Zipmap integrity check failed.");
        std::string_view s(zm.data() + pos, len);
        pos += len;
        return s;
    };
    HashBuilder hash(size > 1 ? p[0] : 0);
    while (pos < size && p[pos] != 255) {
        std::string_view field = readBytes(readLen());
        uint64_t vlen = readLen();
        if (pos >= size) rdbCorrupt("Zipmap integrity check failed.");
        unsigned char free = p[pos++];
        std::string_view value = readBytes(vlen);
        readBytes(free);
        hash.add(field, value);
    }
    if (pos + 1 != size) rdbCorrupt("Zipmap integrity check failed.");
    return hash.finish();
}

/* The entries of a listpack, or a corrupt-file error. */
static std::vector<ziplistEntry> rdbDecodeListpack(std::string_view blob) {
    std::optional<std::vector<ziplistEntry>> entries = lpDecode(blob);
    if (!entries) rdbCorrupt("Listpack integrity check failed.");
    return std::move(*entries);
}

/* LIST_QUICKLIST (Redis 3.2 - 6.2): a count of ziplist nodes.
 * LIST_QUICKLIST_2 (Redis 7): a count of nodes, each a container kind, then
 * a listpack (PACKED) or one large element (PLAIN). */
static ObjRef rdbLoadQuicklistObject(rio &rdb, int rdbtype) {
    uint64_t nodes = rdbLoadLen(rdb);
    ListBuilder list(0);
    ElementView view;
    for (uint64_t i = 0; i < nodes; i++) {
        uint64_t container = QUICKLIST_NODE_CONTAINER_PACKED;
        if (rdbtype == RDB_TYPE_LIST_QUICKLIST_2) {
            container = rdbLoadLen(rdb);
            if (container != QUICKLIST_NODE_CONTAINER_PLAIN && container != QUICKLIST_NODE_CONTAINER_PACKED)
                rdbCorrupt(formatString("Quicklist integrity check failed: container %llu",
                                        static_cast<unsigned long long>(container)));
        }
        std::string blob = rdbGenericLoadStringObject(rdb);
        if (container == QUICKLIST_NODE_CONTAINER_PLAIN) {
            list.add(blob);
        } else if (rdbtype == RDB_TYPE_LIST_QUICKLIST_2) {
            countDeepSanitization();
            for (const ziplistEntry &e : rdbDecodeListpack(blob)) list.add(view(e));
        } else {
            std::optional<ziplist> zl = ziplist::fromBlob(blob);
            if (!zl) rdbCorrupt("Ziplist integrity check failed.");
            for (zlpos p = zl->index(0); p; p = zl->next(p)) list.add(view(zl->get(p)));
        }
    }
    return list.finish();
}

/* A ZSET_LISTPACK within this server's ziplist limits: its entries are
 * what a ziplist sorted set holds — member, then the score as Redis
 * printed it, in (score, member) order — so they are copied as they are,
 * with no skiplist built and no score printed again. Checked first: each
 * score a number, the order strictly ascending, no member twice (false
 * when the order is another: the caller sorts by rebuilding). */
static bool zsetZiplistFromListpack(const std::vector<ziplistEntry> &entries, ObjRef &out) {
    if (entries.size() / 2 > static_cast<unsigned long long>(server.zset_max_ziplist_entries)) return false;
    std::vector<std::string_view> members;
    members.reserve(entries.size() / 2);
    ElementView member_text;
    double prev_score = 0;
    std::string_view prev_member;
    for (size_t i = 0; i < entries.size(); i += 2) {
        if (entries[i].isInt || entries[i].sval.size() > static_cast<unsigned long long>(server.zset_max_ziplist_value))
            return false; /* an integer member is rare: the general path prints it */
        std::string_view member = entries[i].sval;
        double score = entryScore(entries[i + 1]);
        if (std::isnan(score)) rdbCorrupt("Zset with NAN score detected");
        if (i && (score < prev_score || (score == prev_score && member <= prev_member))) return false;
        prev_score = score;
        prev_member = member;
        members.push_back(member);
    }
    std::sort(members.begin(), members.end());
    if (std::adjacent_find(members.begin(), members.end()) != members.end())
        rdbCorrupt("Duplicate zset fields detected");
    out = createZsetZiplistObject();
    ziplist &zl = objectZiplist(out.get());
    for (const ziplistEntry &e : entries) zl.push(member_text(e), ZIPLIST_TAIL);
    return true;
}

/* HASH_LISTPACK, ZSET_LISTPACK (Redis 7): field value... / member score...
 * pairs, rebuilt as a ziplist or, past the limits, a hash table or skiplist. */
static ObjRef rdbLoadListpackObject(rio &rdb, int rdbtype) {
    std::string blob = rdbGenericLoadStringObject(rdb);
    countDeepSanitization();
    std::vector<ziplistEntry> entries = rdbDecodeListpack(blob);
    if (entries.size() % 2) rdbCorrupt("Listpack holds an odd number of entries for a hash or sorted set");
    if (entries.empty()) return {};
    ElementView first, second;
    if (rdbtype == RDB_TYPE_ZSET_LISTPACK) {
        if (ObjRef zl; zsetZiplistFromListpack(entries, zl)) return zl;
        ZsetBuilder zset;
        for (size_t i = 0; i < entries.size(); i += 2) zset.add(first(entries[i]), entryScore(entries[i + 1]));
        return zset.finish();
    }
    HashBuilder hash(entries.size() / 2);
    for (size_t i = 0; i < entries.size(); i += 2) hash.add(first(entries[i]), second(entries[i + 1]));
    return hash.finish();
}

/* ========================================================================
 * Reading values: streams (Redis 5 - 7.0), taken as they are
 *
 * The nodes' listpacks become the stream's nodes byte for byte, after the
 * checks that make every later read of them safe (the listpack itself,
 * then the stream node inside it); the groups are rebuilt through
 * stream.h. Besides Redis's own checks, the length must be the sum of
 * the nodes' counts, no live entry may be above the last ID, and every
 * pending entry must belong to exactly one consumer: what stream.h's
 * invariants promise to the code that reads a stream.
 * ====================================================================== */

static streamID rdbLoadStreamID(rio &rdb) {
    streamID id;
    id.ms = rdbLoadLen(rdb);
    id.seq = rdbLoadLen(rdb);
    return id;
}

/* The raw 16-byte ID of a pending entry, as its rax key. */
static std::string rdbLoadRawStreamID(rio &rdb) {
    std::string rawid(STREAM_ID_BYTES, '\0');
    rdbLoadRaw(rdb, rawid.data(), STREAM_ID_BYTES);
    return rawid;
}

/* The nodes into s->tree; returns the live entries they hold. */
static uint64_t rdbLoadStreamNodes(rio &rdb, stream *s) {
    uint64_t live = 0;
    for (uint64_t nodes = rdbLoadLen(rdb); nodes > 0; nodes--) {
        std::string nodekey = rdbGenericLoadStringObject(rdb);
        if (nodekey.size() != STREAM_ID_BYTES) rdbCorrupt("Stream node key entry is not the size of a stream ID");
        std::string blob = rdbGenericLoadStringObject(rdb);
        const streamID master = streamDecodeID(reinterpret_cast<const unsigned char *>(nodekey.data()));
        countDeepSanitization();
        std::optional<listpack> lp = lpFromBytes(blob);
        if (!lp) rdbCorrupt("Stream listpack integrity check failed.");
        if (!lpFirst(*lp)) rdbCorrupt("Empty listpack inside stream");
        if (!streamValidateListpackIntegrity(blob, master)) rdbCorrupt("Stream listpack integrity check failed.");
        /* The master entry's first element: the node's live entries, 0 for
         * a node of tombstones, which Redis 7.0 leaves after an exact MINID
         * trim and saves (so it loads). The check above found it a
         * non-negative number; Redis never writes one as a string. */
        const ziplistEntry count = lpGet(*lp, lpFirst(*lp));
        if (!count.isInt) rdbCorrupt("Stream listpack integrity check failed.");
        live += static_cast<uint64_t>(count.lval);
        auto node = std::make_unique<listpack>(std::move(*lp));
        if (!raxTryInsert(&s->tree, nodekey, node.get())) rdbCorrupt("Listpack re-added with existing key");
        (void)node.release(); /* the tree owns it now */
    }
    return live;
}

/* A group's own pending entries: each NACK's consumer is set when the
 * consumers are read. */
static void rdbLoadStreamGroupPEL(rio &rdb, streamCG *cg) {
    for (uint64_t n = rdbLoadLen(rdb); n > 0; n--) {
        std::string rawid = rdbLoadRawStreamID(rdb);
        std::unique_ptr<streamNACK> nack = streamCreateNACK(nullptr, 0);
        nack->delivery_time = rdbLoadMillisecondTime(rdb);
        nack->delivery_count = rdbLoadLen(rdb);
        if (!raxTryInsert(&cg->pel, rawid, nack.get()))
            rdbCorrupt("Duplicated global PEL entry loading stream consumer group");
        (void)nack.release(); /* the group's pel owns it now */
    }
}

/* The consumers, each taking its pending entries from the group's list. */
static void rdbLoadStreamConsumers(rio &rdb, streamCG *cg) {
    for (uint64_t n = rdbLoadLen(rdb); n > 0; n--) {
        std::string name = rdbGenericLoadStringObject(rdb);
        streamConsumer *consumer = streamCreateConsumer(cg, name, 0);
        if (!consumer) rdbCorrupt("Duplicate stream consumer detected.");
        consumer->seen_time = rdbLoadMillisecondTime(rdb);
        for (uint64_t pel = rdbLoadLen(rdb); pel > 0; pel--) {
            std::string rawid = rdbLoadRawStreamID(rdb);
            void *found = raxFind(&cg->pel, rawid);
            if (found == raxNotFound) rdbCorrupt("Consumer entry not found in group global PEL");
            auto *nack = static_cast<streamNACK *>(found);
            /* Already claimed by this consumer or another one. */
            if (nack->consumer) rdbCorrupt("Duplicated consumer PEL entry  loading a stream consumer group");
            nack->consumer = consumer;
            raxInsert(&consumer->pel, rawid, nack);
        }
    }
    raxIterator ri;
    raxStart(&ri, &cg->pel);
    raxSeek(&ri, "^");
    while (raxNext(&ri))
        if (!static_cast<streamNACK *>(ri.data)->consumer) rdbCorrupt("Stream CG PEL entry without consumer");
}

/* The groups. Redis 5/6's files (STREAM_LISTPACKS) have no entries_read:
 * it is estimated from the stream, as Redis 7.0 does. */
static void rdbLoadStreamGroups(rio &rdb, stream *s, int rdbtype) {
    for (uint64_t n = rdbLoadLen(rdb); n > 0; n--) {
        std::string name = rdbGenericLoadStringObject(rdb);
        const streamID last_id = rdbLoadStreamID(rdb);
        const long long entries_read = rdbtype == RDB_TYPE_STREAM_LISTPACKS_2
                                           ? static_cast<long long>(rdbLoadLen(rdb))
                                           : streamEstimateDistanceFromFirstEverEntry(s, last_id);
        streamCG *cg = streamCreateCG(s, name, last_id, entries_read);
        if (!cg) rdbCorrupt(formatString("Duplicated consumer group name %s", name.c_str()));
        rdbLoadStreamGroupPEL(rdb, cg);
        rdbLoadStreamConsumers(rdb, cg);
    }
}

/* STREAM_LISTPACKS (Redis 5, 6) and STREAM_LISTPACKS_2 (Redis 7.0, which
 * adds the first and greatest deleted IDs, entries_added, and each
 * group's entries_read). An empty stream is a value like any other. */
static ObjRef rdbLoadStreamObject(rio &rdb, int rdbtype) {
    ObjRef o = createStreamObject();
    stream *s = &objectStream(o.get());
    const uint64_t live = rdbLoadStreamNodes(rdb, s);
    s->length = rdbLoadLen(rdb);
    s->last_id = rdbLoadStreamID(rdb);
    if (rdbtype == RDB_TYPE_STREAM_LISTPACKS_2) {
        s->first_id = rdbLoadStreamID(rdb);
        s->max_deleted_entry_id = rdbLoadStreamID(rdb);
        s->entries_added = rdbLoadLen(rdb);
    } else {
        /* Before 7.0 nothing was counted: as Redis, the entries there now
         * stand for all those ever added. An empty stream keeps first_id
         * 0-0, as XDEL leaves it (Redis's loader alone would set the
         * greatest ID). */
        s->entries_added = s->length;
        if (s->length) s->first_id = streamGetEdgeID(s, true, true);
    }
    if (s->length != live) rdbCorrupt("Stream length inconsistent with rax entries");
    /* Live entries only: Redis 7.0's XSETID may set the last ID below a
     * tombstone's. */
    if (streamGetEdgeID(s, false, true) > s->last_id) rdbCorrupt("Stream entry ID above the stream's last ID");
    rdbLoadStreamGroups(rdb, s, rdbtype);
    return o;
}

ObjRef rdbLoadObject(int rdbtype, rio &rdb) {
    switch (rdbtype) {
    case RDB_TYPE_STRING: return tryObjectEncoding(createStringObject(rdbGenericLoadStringObject(rdb)));
    case RDB_TYPE_LIST: return rdbLoadListObject(rdb);
    case RDB_TYPE_SET: return rdbLoadSetObject(rdb);
    case RDB_TYPE_ZSET:
    case RDB_TYPE_ZSET_2: return rdbLoadZsetObject(rdb, rdbtype);
    case RDB_TYPE_HASH: return rdbLoadHashObject(rdb);
    case RDB_TYPE_HASH_ZIPMAP: return rdbLoadZipmapObject(rdb);
    case RDB_TYPE_LIST_ZIPLIST:
    case RDB_TYPE_ZSET_ZIPLIST:
    case RDB_TYPE_HASH_ZIPLIST: return rdbLoadZiplistObject(rdb, rdbtype);
    case RDB_TYPE_SET_INTSET: return rdbLoadIntsetObject(rdb);
    case RDB_TYPE_LIST_QUICKLIST:
    case RDB_TYPE_LIST_QUICKLIST_2: return rdbLoadQuicklistObject(rdb, rdbtype);
    case RDB_TYPE_HASH_LISTPACK:
    case RDB_TYPE_ZSET_LISTPACK: return rdbLoadListpackObject(rdb, rdbtype);
    case RDB_TYPE_STREAM_LISTPACKS:
    case RDB_TYPE_STREAM_LISTPACKS_2: return rdbLoadStreamObject(rdb, rdbtype);
    case RDB_TYPE_MODULE:
    case RDB_TYPE_MODULE_2:
        rdbRefuse("The RDB file contains a module type, and cppredis has no modules");
    default: rdbCorrupt(formatString("Unknown RDB encoding type %d", rdbtype));
    }
}

/* ========================================================================
 * Reading the file
 * ====================================================================== */

static bool rdbIsObjectType(int t) { return (t >= RDB_TYPE_STRING && t <= RDB_TYPE_MODULE_2) || (t >= 9 && t <= 19); }

/* Redis's AUX fields: a few are worth a log line, the rest are ignored. */
static void rdbLoadAuxField(rio &rdb) {
    std::string key = rdbGenericLoadStringObject(rdb), val = rdbGenericLoadStringObject(rdb);
    long long n;
    if (key == "redis-ver") serverLog(LL_NOTICE, "Loading RDB produced by version %s", val.c_str());
    else if (key == "ctime" && string2ll(val, &n)) serverLog(LL_NOTICE, "RDB age %lld seconds", time(nullptr) - n);
    else if (key == "aof-base" && string2ll(val, &n) && n) serverLog(LL_NOTICE, "RDB has an AOF tail");
    else if (key == "used-mem" && string2ll(val, &n))
        serverLog(LL_NOTICE, "RDB memory usage when created %.2f Mb", static_cast<double>(n) / (1024 * 1024));
}

/* RESIZEDB: presize the tables, so loading does not rehash as it goes.
 * A size that no sane file holds is only a hint to ignore. */
static void rdbLoadResizeDb(rio &rdb, redisDb *db) {
    uint64_t db_size = rdbLoadLen(rdb), expires_size = rdbLoadLen(rdb);
    constexpr uint64_t limit = uint64_t{1} << 32;
    if (db_size < limit) db->dict.expand(db_size);
    if (expires_size < limit) db->expires.expand(expires_size);
}

/* A loaded key enters the keyspace; true unless it is there already and
 * MERGE (RDBFLAGS_ALLOW_DUP) was not asked. */
static bool rdbAddKey(redisDb *db, const std::string &key, ObjRef val, int rdbflags) {
    if (dbAddRDBLoad(db, key, val)) return true;
    if (!(rdbflags & RDBFLAGS_ALLOW_DUP)) return false;
    dbDelete(db, key);
    return dbAddRDBLoad(db, key, val);
}

static void rdbLoadChecksum(rio &rdb) {
    uint64_t expected = rdb.cksum;
    unsigned char buf[8];
    rdbLoadRaw(rdb, buf, 8);
    uint64_t cksum = loadLE(buf, 8);
    if (!server.rdb_checksum) return;
    if (cksum == 0) {
        serverLog(LL_WARNING, "RDB file was saved with checksum disabled: no check performed.");
    } else if (cksum != expected) {
        serverLog(LL_WARNING, "Wrong RDB checksum expected: (%llx) got (%llx). Aborting now.",
                  static_cast<unsigned long long>(expected), static_cast<unsigned long long>(cksum));
        rdbCorrupt("RDB CRC error");
    }
}

/* What the records of a file change as they are read: the selected
 * database, the TTL announced for the next key, the counts. */
struct RdbLoadState {
    int rdbflags;
    redisDb *db = &server.db[0];
    long long expiretime = -1;
    long long lfu_freq = -1, lru_idle = -1; /* the next key's FREQ / IDLE, -1: none */
    long long now = mstime();
    long long lru_clock = LRU_CLOCK();
    long long loaded = 0, expired = 0, empty_skipped = 0;
};

/* "REDIS" and four digits; returns the version. */
static int rdbLoadHeader(rio &rdb) {
    char header[10] = {};
    rdbLoadRaw(rdb, header, 9);
    if (memcmp(header, "REDIS", 5) != 0) rdbRefuse("Wrong signature trying to load DB from file");
    int version = atoi(header + 5);
    if (version < 1 || version > RDB_LOAD_VERSION_MAX)
        rdbRefuse(formatString("Can't handle RDB format version %d", version));
    return version;
}

/* An opcode between keys; false if `type` is not one (a value type). */
static bool rdbLoadOpcode(rio &rdb, int type, RdbLoadState &st) {
    switch (type) {
    case RDB_OPCODE_EXPIRETIME: {
        unsigned char buf[4];
        rdbLoadRaw(rdb, buf, 4);
        st.expiretime = static_cast<long long>(static_cast<int32_t>(loadLE(buf, 4))) * 1000;
        return true;
    }
    case RDB_OPCODE_EXPIRETIME_MS: st.expiretime = rdbLoadMillisecondTime(rdb); return true;
    case RDB_OPCODE_FREQ: st.lfu_freq = rdbLoadType(rdb); return true;
    case RDB_OPCODE_IDLE: st.lru_idle = static_cast<long long>(rdbLoadLen(rdb)); return true;
    case RDB_OPCODE_AUX: rdbLoadAuxField(rdb); return true;
    case RDB_OPCODE_RESIZEDB: rdbLoadResizeDb(rdb, st.db); return true;
    case RDB_OPCODE_SELECTDB: {
        uint64_t dbid = rdbLoadLen(rdb);
        if (dbid >= static_cast<uint64_t>(server.dbnum))
            rdbRefuse(formatString("FATAL: Data file was created with a Redis server configured to handle more "
                                   "than %d databases. Exiting",
                                   server.dbnum));
        st.db = &server.db[dbid];
        return true;
    }
    case RDB_OPCODE_MODULE_AUX:
        rdbRefuse("The RDB file contains AUX module data I can't load: cppredis has no modules");
    case RDB_OPCODE_FUNCTION:
    case RDB_OPCODE_FUNCTION2: {
        std::string code = rdbFunctionLoad(rdb, type), err;
        if (!functionsCreateWithLibraryCtx(code, st.rdbflags & RDBFLAGS_ALLOW_DUP, err, nullptr, 0))
            rdbCorrupt("Failed loading library, " + err);
        return true;
    }
    default: return false;
    }
}

std::string rdbFunctionLoad(rio &rdb, int type) {
    if (type == RDB_OPCODE_FUNCTION2) return rdbGenericLoadStringObject(rdb);
    /* Redis 7.0-rc1/rc2's record: name, engine, an optional description
     * (dropped, as Redis does), then the code without its shebang line. */
    std::string name = rdbGenericLoadStringObject(rdb);
    std::string engine = rdbGenericLoadStringObject(rdb);
    if (rdbLoadLen(rdb)) rdbGenericLoadStringObject(rdb);
    std::string blob = rdbGenericLoadStringObject(rdb);
    return "#!" + engine + " name=" + name + "\n" + blob;
}

/* A key and its value of `type`, with the TTL announced before it. */
static void rdbLoadKeyValue(rio &rdb, int type, RdbLoadState &st) {
    if (!rdbIsObjectType(type)) rdbCorrupt(formatString("Unknown RDB encoding type %d", type));
    std::string key = rdbGenericLoadStringObject(rdb);
    traceConversionKey named(key);
    ObjRef val = rdbLoadObject(type, rdb);
    long long expiretime = std::exchange(st.expiretime, -1);
    long long lfu_freq = std::exchange(st.lfu_freq, -1), lru_idle = std::exchange(st.lru_idle, -1);
    if (!val) {
        if (st.empty_skipped++ < 10) serverLog(LL_WARNING, "rdbLoadObject skipping empty key: %s", key.c_str());
    } else if (expiretime != -1 && expiretime < st.now && server.masterhost.empty()) {
        st.expired++; /* expired while the file waited: a master drops it (a replica waits for the DEL) */
    } else {
        objectSetLRUOrLFU(val.get(), lfu_freq, lru_idle, st.lru_clock);
        if (!rdbAddKey(st.db, key, std::move(val), st.rdbflags))
            rdbCorrupt(formatString("RDB has duplicated key '%s' in DB %d", key.c_str(), st.db->id));
        if (expiretime != -1) setExpire(nullptr, st.db, key, expiretime);
        st.loaded++;
    }
    /* key-load-delay: after every key read, kept or not, as Redis's loader. */
    if (server.key_load_delay) debugDelay(server.key_load_delay);
}

void rdbLoadRio(rio &rdb, int rdbflags) {
    rdb.cksum = 0;
    rdb.update_cksum = true;
    int version = rdbLoadHeader(rdb);
    RdbLoadState st{rdbflags};
    for (int type; (type = rdbLoadType(rdb)) != RDB_OPCODE_EOF;)
        if (!rdbLoadOpcode(rdb, type, st)) rdbLoadKeyValue(rdb, type, st);
    if (version >= 5) rdbLoadChecksum(rdb);
    server.rdb_last_load_keys_loaded = st.loaded;
    server.rdb_last_load_keys_expired = st.expired;
    serverLog(LL_NOTICE, "Done loading RDB, keys loaded: %lld, keys expired: %lld.", st.loaded, st.expired);
}

/* ========================================================================
 * Files on disk
 * ====================================================================== */

static std::string workingDir() {
    char cwd[PATH_MAX];
    return getcwd(cwd, sizeof(cwd)) ? cwd : "unknown";
}

int rdbSave(const char *filename) {
    char tmpfile[64];
    snprintf(tmpfile, sizeof(tmpfile), "temp-%d.rdb", static_cast<int>(getpid()));
    FILE *fp = fopen(tmpfile, "w");
    if (!fp) {
        serverLog(LL_WARNING, "Failed opening the temp RDB file %s (in server root dir %s) for saving: %s", tmpfile,
                  workingDir().c_str(), strerror(errno));
        return C_ERR;
    }
    static char iobuf[64 * 1024]; /* one save at a time per process */
    setvbuf(fp, iobuf, _IOFBF, sizeof(iobuf));
    rioFile rdb(fp);
    if (server.rdb_save_incremental_fsync) rdb.setAutoSync(REDIS_AUTOSYNC_BYTES);
    /* The step that failed, for the log line (Redis's err_op). */
    const char *err_op = !rdbSaveRio(rdb) ? "rdbSaveRio"
                         : !rdb.flush()    ? "fflush"
                         : fsync(fileno(fp)) == -1 ? "fsync"
                                                   : nullptr;
    int saved_errno = errno;
    if (fclose(fp) != 0 && !err_op) {
        err_op = "fclose";
        saved_errno = errno;
    }
    if (!err_op) {
        if (rename(tmpfile, filename) == -1) {
            serverLog(LL_WARNING,
                      "Error moving temp DB file %s on the final destination %s (in server root dir %s): %s",
                      tmpfile, filename, workingDir().c_str(), strerror(errno));
            unlink(tmpfile);
            return C_ERR;
        }
        /* Until the directory is on disk, a power loss can bring the
         * previous file back: the save is not done before that. */
        if (fsyncFileDir(filename) == -1) {
            err_op = "fsyncFileDir";
            saved_errno = errno;
        }
    }
    if (err_op) {
        serverLog(LL_WARNING, "Write error saving DB on disk(%s): %s", err_op, strerror(saved_errno));
        unlink(tmpfile);
        return C_ERR;
    }
    serverLog(LL_NOTICE, "DB saved on disk");
    server.dirty = 0;
    server.lastsave = time(nullptr);
    server.lastbgsave_status = C_OK;
    return C_OK;
}

int rdbLoad(const char *filename, int rdbflags) {
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen(filename, "r"), fclose);
    if (!fp) return C_ERR;
    rioFile rdb(fp.get());
    try {
        rdbLoadRio(rdb, rdbflags);
        return C_OK;
    } catch (const RdbLoadError &e) {
        if (e.kind == RdbLoadError::ShortRead) {
            serverLog(LL_WARNING, "Short read or OOM loading DB. Unrecoverable error, aborting now.");
            errno = EIO;
        } else if (e.kind == RdbLoadError::Corrupt) {
            serverLog(LL_WARNING, "Internal error in RDB reading offset %zu -> %s", rdb.processed_bytes, e.what());
            errno = EINVAL;
        } else {
            serverLog(LL_WARNING, "%s", e.what());
            errno = EINVAL;
        }
    } catch (const std::bad_alloc &) {
        serverLog(LL_WARNING, "Short read or OOM loading DB. Unrecoverable error, aborting now.");
        errno = ENOMEM;
    }
    return C_ERR;
}

/* ========================================================================
 * The background child
 * ====================================================================== */

void rdbRemoveTempFile(pid_t childpid) {
    char tmpfile[64];
    snprintf(tmpfile, sizeof(tmpfile), "temp-%d.rdb", static_cast<int>(childpid));
    unlink(tmpfile);
}

/* The number of keys, for INFO's current_save_keys_total. */
long long dbTotalServerKeyCount() {
    long long n = 0;
    for (int j = 0; j < server.dbnum; j++) n += static_cast<long long>(server.db[j].dict.size());
    return n;
}

int rdbSaveBackground(const char *filename) {
    if (hasActiveChildProcess()) return C_ERR;
    server.stat_rdb_saves++;
    server.dirty_before_bgsave = server.dirty;
    server.lastbgsave_try = time(nullptr);
    pid_t childpid = redisFork(CHILD_TYPE_RDB);
    if (childpid == 0) {
        /* The child: write the snapshot fork() gave it, then leave without
         * running the parent's exit handlers or destructors. */
        int retval = rdbSave(filename);
        if (retval == C_OK) sendChildCowInfo(CHILD_INFO_TYPE_RDB_COW_SIZE, "RDB");
        _exit(retval == C_OK ? 0 : 1);
    }
    if (childpid == -1) {
        server.lastbgsave_status = C_ERR;
        serverLog(LL_WARNING, "Can't save in background: fork: %s", strerror(errno));
        return C_ERR;
    }
    serverLog(LL_NOTICE, "Background saving started by pid %ld", static_cast<long>(childpid));
    server.rdb_save_time_start = time(nullptr);
    server.rdb_child_type = RDB_CHILD_TYPE_DISK;
    return C_OK;
}

/* The child's side of a diskless transfer: the framed RDB into the pipe. */
static bool rdbSaveFramedToFd(int fd, std::string_view eofmark) {
    FILE *fp = fdopen(fd, "w");
    if (!fp) return false;
    rioFile rdb(fp);
    bool ok = rdb.write("$EOF:", 5) && rdb.write(eofmark.data(), eofmark.size()) && rdb.write("\r\n", 2) &&
              rdbSaveRio(rdb) && rdb.write(eofmark.data(), eofmark.size()) && rdb.flush();
    return fclose(fp) == 0 && ok;
}

int rdbSaveToPipeBackground(std::string_view eofmark, int *read_fd) {
    if (hasActiveChildProcess()) return C_ERR;
    int fds[2];
    if (pipe(fds) == -1) {
        serverLog(LL_WARNING, "Can't save in background: pipe: %s", strerror(errno));
        return C_ERR;
    }
    server.lastbgsave_try = time(nullptr);
    pid_t childpid = redisFork(CHILD_TYPE_RDB);
    if (childpid == 0) {
        close(fds[0]);
        bool ok = rdbSaveFramedToFd(fds[1], eofmark);
        if (ok) sendChildCowInfo(CHILD_INFO_TYPE_RDB_COW_SIZE, "RDB");
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    if (childpid == -1) {
        close(fds[0]);
        serverLog(LL_WARNING, "Can't save in background: fork: %s", strerror(errno));
        return C_ERR;
    }
    serverLog(LL_NOTICE, "Background RDB transfer started by pid %ld", static_cast<long>(childpid));
    server.rdb_save_time_start = time(nullptr);
    server.rdb_child_type = RDB_CHILD_TYPE_SOCKET;
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    *read_fd = fds[0];
    return C_OK;
}

/* Called while server.child_pid still names the child. SIGUSR1 is how the
 * server itself stops a save (FLUSHALL, SHUTDOWN): not an error. */
static void backgroundSaveDoneHandlerDisk(int exitcode, int bysignal) {
    if (!bysignal && exitcode == 0) {
        serverLog(LL_NOTICE, "Background saving terminated with success");
        server.dirty -= server.dirty_before_bgsave;
        server.lastsave = time(nullptr);
        server.lastbgsave_status = C_OK;
    } else if (!bysignal) {
        serverLog(LL_WARNING, "Background saving error");
        server.lastbgsave_status = C_ERR;
    } else {
        serverLog(LL_WARNING, "Background saving terminated by signal %d", bysignal);
        long long latency = latencyStartMonitor();
        rdbRemoveTempFile(server.child_pid);
        latencyAddSampleIfNeeded("rdb-unlink-temp-file", latencyEndMonitor(latency));
        if (bysignal != SIGUSR1) server.lastbgsave_status = C_ERR;
    }
}

/* A diskless transfer is no save: lastsave and the dirty count stay. */
static void backgroundSaveDoneHandlerSocket(int exitcode, int bysignal) {
    if (!bysignal && exitcode == 0) serverLog(LL_NOTICE, "Background RDB transfer terminated with success");
    else if (!bysignal) serverLog(LL_WARNING, "Background transfer error");
    else serverLog(LL_WARNING, "Background transfer terminated by signal %d", bysignal);
}

/* The replicas that waited for this child get its RDB (or are dropped). */
void backgroundSaveDoneHandler(int exitcode, int bysignal) {
    int type = server.rdb_child_type;
    if (type == RDB_CHILD_TYPE_SOCKET) backgroundSaveDoneHandlerSocket(exitcode, bysignal);
    else backgroundSaveDoneHandlerDisk(exitcode, bysignal);
    server.rdb_save_time_last = time(nullptr) - server.rdb_save_time_start;
    server.rdb_save_time_start = -1;
    updateSlavesWaitingBgsave((!bysignal && exitcode == 0) ? C_OK : C_ERR, type);
}

/* Stops a running BGSAVE and reaps the child at once, so that whatever the
 * caller saves next cannot be overwritten by the child's rename. */
void killRDBChild() {
    if (server.child_type != CHILD_TYPE_RDB) return;
    /* kill() can only fail for a child reaped already (ESRCH), and then
     * waitpid() says so (ECHILD); a zombie still takes the signal. */
    kill(server.child_pid, SIGUSR1);
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(server.child_pid, &status, 0)) == -1 && errno == EINTR) {
    }
    concludeChild(pid, status);
}

/* FLUSHALL's persistence step (db.h, registerFlushAllResetRDB). */
void flushAllResetRDB() {
    killRDBChild();
    if (!server.saveparams.empty()) rdbSave(server.rdb_filename.c_str());
}

void rdbSaveCron() {
    bool may_retry =
        server.unixtime - server.lastbgsave_try > CONFIG_BGSAVE_RETRY_DELAY || server.lastbgsave_status == C_OK;
    if (!may_retry) return;
    for (const redisServer::saveparam &sp : server.saveparams) {
        if (server.dirty >= sp.changes && server.unixtime - server.lastsave > sp.seconds) {
            serverLog(LL_NOTICE, "%d changes in %d seconds. Saving...", sp.changes, static_cast<int>(sp.seconds));
            rdbSaveBackground(server.rdb_filename.c_str());
            return;
        }
    }
    if (server.rdb_bgsave_scheduled && rdbSaveBackground(server.rdb_filename.c_str()) == C_OK)
        server.rdb_bgsave_scheduled = false;
}

bool rdbWritesDeniedByBgsaveError() {
    return server.stop_writes_on_bgsave_err && !server.saveparams.empty() && server.lastbgsave_status == C_ERR;
}

/* ========================================================================
 * SAVE, BGSAVE, LASTSAVE
 * ====================================================================== */

void saveCommand(client *c) {
    if (server.child_type == CHILD_TYPE_RDB) return addReplyError(c, "Background save already in progress");
    server.stat_rdb_saves++;
    if (rdbSave(server.rdb_filename.c_str()) == C_OK) addReply(c, shared::ok);
    else addReplyError(c, "-ERR");
}

/* BGSAVE [SCHEDULE]: with another child running (an AOF rewrite) it can
 * only be scheduled; inside a transaction it always is, as fork() is no
 * business of EXEC. */
void bgsaveCommand(client *c) {
    bool schedule = false;
    if (c->argv.size() > 1) {
        if (c->argv.size() != 2 || !strEqualNoCase(c->argv[1], "schedule")) return addReplyErrorObject(c, shared::syntaxerr);
        schedule = true;
    }
    bool in_exec = c->flags & CLIENT_MULTI;
    if (server.child_type == CHILD_TYPE_RDB) {
        addReplyError(c, "Background save already in progress");
    } else if (hasActiveChildProcess() || in_exec) {
        if (!schedule && !in_exec)
            return addReplyError(c, "Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE "
                                    "SCHEDULE in order to schedule a BGSAVE whenever possible.");
        server.rdb_bgsave_scheduled = true;
        addReplyStatus(c, "Background saving scheduled");
    } else if (rdbSaveBackground(server.rdb_filename.c_str()) == C_OK) {
        addReplyStatus(c, "Background saving started");
    } else {
        addReplyError(c, "-ERR");
    }
}

void lastsaveCommand(client *c) { addReplyLongLong(c, static_cast<long long>(server.lastsave)); }

/* ========================================================================
 * INFO persistence, in Redis 7.0's order. cppredis loads before it serves,
 * so the loading figures are zero; the current_* ones are what the running
 * child reported (childinfo.cpp), zero when none runs.
 * ====================================================================== */

void infoPersistence(std::string &out) {
    bool saving = server.child_type == CHILD_TYPE_RDB;
    double fork_perc = server.stat_current_save_keys_total
                           ? 100.0 * static_cast<double>(server.stat_current_save_keys_processed) /
                                 static_cast<double>(server.stat_current_save_keys_total)
                           : 0;
    long long cow_age_sec =
        server.stat_current_cow_updated
            ? static_cast<long long>((getMonotonicUs() - server.stat_current_cow_updated) / 1000000)
            : 0;
    char perc[32];
    snprintf(perc, sizeof(perc), "%.2f", fork_perc);
    InfoSection section(out, "Persistence");
    section.field("loading", 0)
        .field("async_loading", 0)
        .field("current_cow_peak", server.stat_current_cow_peak)
        .field("current_cow_size", server.stat_current_cow_bytes)
        .field("current_cow_size_age", cow_age_sec)
        .field("current_fork_perc", std::string(perc))
        .field("current_save_keys_processed", server.stat_current_save_keys_processed)
        .field("current_save_keys_total", server.stat_current_save_keys_total)
        .field("rdb_changes_since_last_save", server.dirty)
        .field("rdb_bgsave_in_progress", saving ? 1 : 0)
        .field("rdb_last_save_time", static_cast<long long>(server.lastsave))
        .field("rdb_last_bgsave_status", server.lastbgsave_status == C_OK ? "ok" : "err")
        .field("rdb_last_bgsave_time_sec", static_cast<long long>(server.rdb_save_time_last))
        .field("rdb_current_bgsave_time_sec",
               saving ? static_cast<long long>(time(nullptr) - server.rdb_save_time_start) : -1LL)
        .field("rdb_saves", server.stat_rdb_saves)
        .field("rdb_last_cow_size", server.stat_rdb_cow_bytes)
        .field("rdb_last_load_keys_expired", server.rdb_last_load_keys_expired)
        .field("rdb_last_load_keys_loaded", server.rdb_last_load_keys_loaded);
    aofInfoFields(section);
    section.field("module_fork_in_progress", 0).field("module_fork_last_cow_size", 0);
    aofInfoEnabledFields(section);
}
