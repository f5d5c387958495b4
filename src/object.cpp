/* object.cpp — robj values (Redis's object.c): creating, encoding, sharing
 * and freeing them, and the OBJECT and MEMORY commands; also the LRU clock
 * and the LFU counter (in Redis, evict.c's). See object.h for the layout. */
#include "object.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <new>
#include <string>

#if defined(USE_JEMALLOC)
#include <jemalloc/jemalloc.h>
#endif

#include "adlist.h"
#include "server.h"
#include "skiplist.h"
#include "livetrace.h"
#include "util.h"
#include "ziplist.h"
#include "zmalloc.h"

/* ========================================================================
 * Allocation and reference counting
 * ====================================================================== */

unsigned int LRU_CLOCK() {
    return static_cast<unsigned>((server.mstime / LRU_CLOCK_RESOLUTION) & LRU_CLOCK_MAX);
}

unsigned long LFUGetTimeInMinutes() { return static_cast<unsigned long>(server.unixtime / 60) & 65535; }

unsigned long LFUTimeElapsed(unsigned long ldt) {
    unsigned long now = LFUGetTimeInMinutes();
    if (now >= ldt) return now - ldt;
    return 65535 - ldt + now;
}

/* The probability of an increment is 1 / ((counter - LFU_INIT_VAL) *
 * lfu-log-factor + 1): with the default factor 10, about a million
 * accesses take a counter to 255. */
uint8_t LFULogIncr(uint8_t counter) {
    if (counter == 255) return 255;
    double r = static_cast<double>(rand()) / RAND_MAX;
    double baseval = std::max(0.0, static_cast<double>(counter) - LFU_INIT_VAL);
    double p = 1.0 / (baseval * server.lfu_log_factor + 1);
    return r < p ? counter + 1 : counter;
}

/* Decay is applied when the key is read (or sampled), not by a timer: one
 * decrement per lfu-decay-time minutes since the stamp. */
unsigned long LFUDecrAndReturn(const robj *o) {
    unsigned long ldt = o->lru >> 8;
    unsigned long counter = o->lru & 255;
    unsigned long num_periods = server.lfu_decay_time ? LFUTimeElapsed(ldt) / server.lfu_decay_time : 0;
    if (num_periods) counter = num_periods > counter ? 0 : counter - num_periods;
    return counter;
}

void updateLFU(robj *val) {
    unsigned long counter = LFULogIncr(static_cast<uint8_t>(LFUDecrAndReturn(val)));
    val->lru = static_cast<unsigned>((LFUGetTimeInMinutes() << 8) | counter);
}

bool objectSetLRUOrLFU(robj *val, long long lfu_freq, long long lru_idle, long long lru_clock) {
    if (server.maxmemory_policy & MAXMEMORY_FLAG_LFU) {
        if (lfu_freq < 0) return false;
        val->lru = static_cast<unsigned>((LFUGetTimeInMinutes() << 8) | static_cast<unsigned long>(lfu_freq & 255));
        return true;
    }
    if (lru_idle < 0) return false;
    long long lru_abs = lru_clock - lru_idle * 1000 / LRU_CLOCK_RESOLUTION;
    /* The clock wraps: an access before the wrap is near LRU_CLOCK_MAX. */
    if (lru_abs < 0) lru_abs += LRU_CLOCK_MAX;
    val->lru = static_cast<unsigned>(lru_abs);
    return true;
}

/* A new value's lru field: its creation time, or under an LFU policy a
 * counter starting at LFU_INIT_VAL. */
static unsigned initialLRU() {
    if (server.maxmemory_policy & MAXMEMORY_FLAG_LFU)
        return static_cast<unsigned>((LFUGetTimeInMinutes() << 8) | LFU_INIT_VAL);
    return LRU_CLOCK();
}

/* A value may be a shared integer unless the policy ranks keys by their own
 * clock (Redis's canUseSharedObject): a shared object's clock is every
 * holder's. */
static bool canUseSharedObject() {
    return server.maxmemory == 0 || !(server.maxmemory_policy & MAXMEMORY_FLAG_NO_SHARED_INTEGERS);
}

/* Every robj is malloc'ed, so an embstr can share its block with the bytes. */
static robj *allocObject(unsigned type, unsigned encoding, size_t extra) {
    void *mem = malloc(sizeof(robj) + extra);
    if (!mem) throw std::bad_alloc();
    robj *o = new (mem) robj{};
    o->type = type;
    o->encoding = encoding;
    o->lru = initialLRU();
    o->refcount = 1;
    return o;
}

ObjRef createObject(unsigned type, unsigned encoding, void *ptr) {
    robj *o = allocObject(type, encoding, 0);
    o->ptr = ptr;
    return ObjRef(o);
}

/* The shared integers 0..9999, as Redis's shared.integers: never freed. */
static robj *sharedInteger(long long v) {
    static robj *table = [] {
        static robj objs[OBJ_SHARED_INTEGERS];
        for (long long i = 0; i < OBJ_SHARED_INTEGERS; i++) {
            objs[i] = robj{};
            objs[i].type = OBJ_STRING;
            objs[i].encoding = OBJ_ENCODING_INT;
            objs[i].refcount = OBJ_SHARED_REFCOUNT;
            objs[i].lru = LRU_CLOCK();
            objs[i].ptr = reinterpret_cast<void *>(static_cast<intptr_t>(i));
        }
        return objs;
    }();
    return &table[v];
}

void incrRefCount(robj *o) {
    if (o->refcount != OBJ_SHARED_REFCOUNT) o->refcount++;
}

static void freeStringObject(robj *o) {
    /* INT and EMBSTR own nothing outside the robj block. */
    if (o->encoding == OBJ_ENCODING_RAW) objectRawSds(o).~sds();
}

static size_t stringObjectComputeSize(const robj *o, size_t) {
    return o->encoding == OBJ_ENCODING_RAW ? objectRawSds(const_cast<robj *>(o)).allocSize() : 0;
}

/* Each type's row; the string row is constant-initialized, the others are
 * zero until installServerHooks files them. */
static objectType object_types[OBJ_TYPE_MAX] = {
    {freeStringObject, dupStringObject, stringObjectComputeSize, nullptr, false, nullptr},
};

void registerObjectType(unsigned type, const objectType &row) {
    object_types[type] = row;
}

const objectType &getObjectType(unsigned type) { return object_types[type]; }

void decrRefCount(robj *o) {
    if (o->refcount == OBJ_SHARED_REFCOUNT) return;
    if (--o->refcount > 0) return;
    object_types[o->type].free(o);
    o->~robj();
    free(o);
}

/* ========================================================================
 * String objects
 * ====================================================================== */

static ObjRef createEmbeddedStringObject(std::string_view s) {
    robj *o = allocObject(OBJ_STRING, OBJ_ENCODING_EMBSTR, sdsEmbedSize(s.size()));
    o->ptr = sdsInitEmbedded(reinterpret_cast<char *>(o + 1), s);
    return ObjRef(o);
}

ObjRef createRawStringObject(std::string_view s) {
    robj *o = allocObject(OBJ_STRING, OBJ_ENCODING_RAW, 0);
    new (&o->ptr) sds(s);
    return ObjRef(o);
}

ObjRef createStringObject(std::string_view s) {
    return s.size() <= OBJ_ENCODING_EMBSTR_SIZE_LIMIT ? createEmbeddedStringObject(s) : createRawStringObject(s);
}

ObjRef createStringObjectFromLongLong(long long value) {
    if (value >= 0 && value < OBJ_SHARED_INTEGERS && canUseSharedObject()) return ObjRef(sharedInteger(value));
    robj *o = allocObject(OBJ_STRING, OBJ_ENCODING_INT, 0);
    o->ptr = reinterpret_cast<void *>(static_cast<intptr_t>(value));
    return ObjRef(o);
}

/* INCRBYFLOAT stores the human-friendly form ("3.5", not "3.50000e+00"). */
ObjRef createStringObjectFromLongDouble(long double value, bool humanfriendly) {
    char buf[MAX_LONG_DOUBLE_CHARS];
    int len = ld2string(buf, sizeof(buf), value, humanfriendly ? LD_STR_HUMAN : LD_STR_AUTO);
    return createStringObject(std::string_view(buf, len));
}

ObjRef dupStringObject(const robj *o) {
    if (o->encoding == OBJ_ENCODING_INT) {
        robj *d = allocObject(OBJ_STRING, OBJ_ENCODING_INT, 0);
        d->ptr = o->ptr;
        return ObjRef(d);
    }
    StringBuf buf;
    std::string_view s = objectStringView(o, buf);
    return o->encoding == OBJ_ENCODING_RAW ? createRawStringObject(s) : createEmbeddedStringObject(s);
}

/* Redis's tryObjectEncoding: a value that reads as a long long becomes an
 * INT (shared when small); a short raw string becomes an embstr; a raw
 * string with more than 10% spare room is trimmed. Values shared with other
 * owners (refcount > 1) are left alone. */
ObjRef tryObjectEncoding(ObjRef o) {
    if (o->type != OBJ_STRING || o->encoding == OBJ_ENCODING_INT || o->refcount > 1) return o;
    StringBuf buf;
    std::string_view s = objectStringView(o.get(), buf);
    long long value;
    if (s.size() <= 20 && string2ll(s, &value)) {
        if (o->encoding == OBJ_ENCODING_EMBSTR || (value >= 0 && value < OBJ_SHARED_INTEGERS && canUseSharedObject()))
            return createStringObjectFromLongLong(value);
        objectRawSds(o.get()).~sds();
        o->encoding = OBJ_ENCODING_INT;
        o->ptr = reinterpret_cast<void *>(static_cast<intptr_t>(value));
        return o;
    }
    if (o->encoding == OBJ_ENCODING_EMBSTR) return o;
    if (s.size() <= OBJ_ENCODING_EMBSTR_SIZE_LIMIT) return createEmbeddedStringObject(s);
    sds &raw = objectRawSds(o.get());
    if (raw.avail() > raw.size() / 10) raw.removeFreeSpace();
    return o;
}

std::string_view objectStringView(const robj *o, StringBuf &buf) {
    switch (o->encoding) {
    case OBJ_ENCODING_INT: {
        int len = ll2string(buf.buf, sizeof(buf.buf), static_cast<long long>(reinterpret_cast<intptr_t>(o->ptr)));
        return std::string_view(buf.buf, len);
    }
    case OBJ_ENCODING_RAW: return objectRawSds(const_cast<robj *>(o)).view();
    default: return sdsview(static_cast<const char *>(o->ptr));
    }
}

size_t stringObjectLen(const robj *o) {
    StringBuf buf;
    return objectStringView(o, buf).size();
}

bool getLongLongFromObject(const robj *o, long long *value) {
    if (o->encoding == OBJ_ENCODING_INT) {
        *value = static_cast<long long>(reinterpret_cast<intptr_t>(o->ptr));
        return true;
    }
    StringBuf buf;
    return string2ll(objectStringView(o, buf), value);
}

bool getLongDoubleFromObject(const robj *o, long double *value) {
    StringBuf buf;
    return string2ld(objectStringView(o, buf), value);
}

/* ========================================================================
 * List objects (the list type itself is in t_list.cpp)
 * ====================================================================== */

/* An empty ziplist of `type` (a small list, hash...), held in the ptr slot
 * itself (see t_list.h). */
static ObjRef createZiplistObjectOfType(unsigned type) {
    robj *o = allocObject(type, OBJ_ENCODING_ZIPLIST, 0);
    new (&o->ptr) ziplist();
    return ObjRef(o);
}

ObjRef createZiplistObject() { return createZiplistObjectOfType(OBJ_LIST); }

/* An empty linkedlist, which ptr owns. */
ObjRef createListObject() {
    robj *o = allocObject(OBJ_LIST, OBJ_ENCODING_LINKEDLIST, 0);
    o->ptr = new list();
    return ObjRef(o);
}

/* ========================================================================
 * Hash objects (the hash type itself is in t_hash.cpp)
 * ====================================================================== */

/* An empty hash: a ziplist, as a small list (t_hash.h). */
ObjRef createHashObject() { return createZiplistObjectOfType(OBJ_HASH); }

/* ========================================================================
 * Sorted set objects (the sorted set type itself is in t_zset.cpp)
 * ====================================================================== */

/* An empty ziplist, as a small list's (t_zset.h). */
ObjRef createZsetZiplistObject() { return createZiplistObjectOfType(OBJ_ZSET); }

/* An empty skiplist and dict, which ptr owns. */
ObjRef createZsetObject() {
    robj *o = allocObject(OBJ_ZSET, OBJ_ENCODING_SKIPLIST, 0);
    o->ptr = new zset();
    return ObjRef(o);
}

/* ========================================================================
 * Parsing arguments, replying Redis's errors
 * ====================================================================== */

bool getLongLongFromObjectOrReply(client *c, std::string_view arg, long long *value, const char *msg) {
    if (string2ll(arg, value)) return true;
    addReplyError(c, msg ? msg : "value is not an integer or out of range");
    return false;
}

bool getRangeLongFromObjectOrReply(client *c, std::string_view arg, long min, long max, long *value,
                                   const char *msg) {
    long long v;
    if (!getLongLongFromObjectOrReply(c, arg, &v, msg)) return false;
    if (v < min || v > max) {
        if (msg) addReplyError(c, msg);
        else addReplyErrorFormat(c, "value is out of range, value must between %ld and %ld", min, max); /* sic */
        return false;
    }
    *value = static_cast<long>(v);
    return true;
}

bool getLongFromObjectOrReply(client *c, std::string_view arg, long *value, const char *msg) {
    long long v;
    if (!getLongLongFromObjectOrReply(c, arg, &v, msg)) return false;
    if (v < LONG_MIN || v > LONG_MAX) {
        addReplyError(c, msg ? msg : "value is out of range");
        return false;
    }
    *value = static_cast<long>(v);
    return true;
}

bool getPositiveLongFromObjectOrReply(client *c, std::string_view arg, long *value, const char *msg) {
    if (msg) return getRangeLongFromObjectOrReply(c, arg, 0, LONG_MAX, value, msg);
    return getRangeLongFromObjectOrReply(c, arg, 0, LONG_MAX, value, "value is out of range, must be positive");
}

bool getLongDoubleFromObjectOrReply(client *c, std::string_view arg, long double *value, const char *msg) {
    if (string2ld(arg, value)) return true;
    addReplyError(c, msg ? msg : "value is not a valid float");
    return false;
}

bool getDoubleFromObjectOrReply(client *c, std::string_view arg, double *value, const char *msg) {
    if (string2d(arg, value)) return true;
    addReplyError(c, msg ? msg : "value is not a valid float");
    return false;
}

/* ========================================================================
 * Introspection
 * ====================================================================== */

const char *strEncoding(unsigned encoding) {
    switch (encoding) {
    case OBJ_ENCODING_RAW: return "raw";
    case OBJ_ENCODING_INT: return "int";
    case OBJ_ENCODING_HT: return "hashtable";
    case OBJ_ENCODING_LINKEDLIST: return "linkedlist";
    case OBJ_ENCODING_ZIPLIST: return "ziplist";
    case OBJ_ENCODING_INTSET: return "intset";
    case OBJ_ENCODING_SKIPLIST: return "skiplist";
    case OBJ_ENCODING_EMBSTR: return "embstr";
    case OBJ_ENCODING_STREAM: return "stream";
    default: return "unknown";
    }
}

const char *strType(unsigned type) {
    switch (type) {
    case OBJ_STRING: return "string";
    case OBJ_LIST: return "list";
    case OBJ_SET: return "set";
    case OBJ_ZSET: return "zset";
    case OBJ_HASH: return "hash";
    case OBJ_STREAM: return "stream";
    default: return "unknown";
    }
}

/* Bytes the value occupies, as the allocator sees them. */
size_t objectComputeSize(const robj *o, size_t samples) {
    if (o->refcount == OBJ_SHARED_REFCOUNT) return sizeof(robj); /* static, not allocated */
    return malloc_usable_size(const_cast<robj *>(o)) + object_types[o->type].computeSize(o, samples);
}

/* Milliseconds since the value was last touched. The LRU clock is 24 bits
 * of seconds and wraps around every ~194 days, so a stamp "ahead" of the
 * clock was taken before the last wrap. */
unsigned long long estimateObjectIdleTime(const robj *o) {
    unsigned long long lruclock = LRU_CLOCK();
    if (lruclock >= o->lru) return (lruclock - o->lru) * LRU_CLOCK_RESOLUTION;
    return (lruclock + (LRU_CLOCK_MAX - o->lru)) * LRU_CLOCK_RESOLUTION;
}

/* ========================================================================
 * Encoding conversions in the trace
 * ====================================================================== */

static const traceConversionKey *named_conversion_key = nullptr;

traceConversionKey::traceConversionKey(std::string_view key) : key_(key), outer_(named_conversion_key) {
    named_conversion_key = this;
}

traceConversionKey::~traceConversionKey() { named_conversion_key = outer_; }

/* The key whose value o is: the one named, else the running command's
 * argument that holds o in its database (a value a command builds before
 * it enters the keyspace has none). Only the conversions pay the lookups. */
static std::string_view conversionKey(const robj *o, client *c) {
    if (named_conversion_key) return named_conversion_key->key();
    if (!c || !c->db) return {};
    for (size_t j = 1; j < c->argv.size(); j++) {
        keyspaceDict::entry *de = c->db->dict.find(c->argv[j]);
        if (de && de->val.get() == o) return c->argv[j];
    }
    return {};
}

void traceEncodingConversion(const char *fn, const robj *o, unsigned to, const encodingTrigger &why) {
    client *c = server.current_client;
    traceEvent ev(TRACE_ENCODING, fn);
    if (c) ev.client(c->id);
    ev.str("key", conversionKey(o, c))
        .str("from", strEncoding(o->encoding))
        .str("to", strEncoding(to))
        .str("trigger", why.reason);
    if (why.measure) ev.num(why.measure, why.n).num("limit", why.limit);
    ev.str("cmd", c && c->cmd ? std::string_view(c->cmd->fullname) : std::string_view()).emit();
}

/* OBJECT <subcommand> <key>. The lookup must not touch the key: asking how
 * idle a key is would otherwise reset the very clock it reads. */
void objectCommand(client *c) {
    static const char *const help[] = {
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
        nullptr};
    std::string_view sub = c->argv[1];
    if (strEqualNoCase(sub, "help")) return addReplyHelp(c, help);

    /* The command table let only the keyed subcommands with their key through. */
    robj *o = lookupKeyReadWithFlags(c->db, c->argv[2], LOOKUP_NOTOUCH | LOOKUP_NONOTIFY);
    if (!o) return addReplyNull(c);
    if (strEqualNoCase(sub, "encoding")) {
        addReplyBulk(c, strEncoding(o->encoding));
    } else if (strEqualNoCase(sub, "refcount")) {
        addReplyLongLong(c, o->refcount);
    } else if (strEqualNoCase(sub, "idletime")) {
        if (server.maxmemory_policy & MAXMEMORY_FLAG_LFU)
            return addReplyError(c, "An LFU maxmemory policy is selected, idle time not tracked. "
                                    "Please note that when switching between policies at runtime LRU and LFU "
                                    "data will take some time to adjust.");
        addReplyLongLong(c, static_cast<long long>(estimateObjectIdleTime(o) / 1000));
    } else if (strEqualNoCase(sub, "freq")) {
        /* lru reads as a counter only under an LFU policy; after a switch the
         * old stamps read as garbage until keys are touched again, as in Redis. */
        if (!(server.maxmemory_policy & MAXMEMORY_FLAG_LFU))
            return addReplyError(c, "An LFU maxmemory policy is not selected, access frequency not tracked. "
                                    "Please note that when switching between policies at runtime LRU and LFU "
                                    "data will take some time to adjust.");
        /* Decayed here too: the stamp moves only when the key is read. */
        addReplyLongLong(c, static_cast<long long>(LFUDecrAndReturn(o)));
    } else {
        addReplySubcommandSyntaxError(c);
    }
}

/* MEMORY USAGE's options: [SAMPLES <count>], 0 meaning "all", for
 * objectComputeSize (strings are measured exactly whatever the count). */
static bool parseMemoryUsageOptions(client *c, size_t *samples_out) {
    for (size_t j = 3; j < c->argv.size(); j++) {
        long long samples;
        if (!strEqualNoCase(c->argv[j], "samples") || j + 1 == c->argv.size()) {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
        if (!getLongLongFromObjectOrReply(c, c->argv[++j], &samples)) return false;
        if (samples < 0) {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
        *samples_out = static_cast<size_t>(samples);
    }
    return true;
}

/* MEMORY USAGE <key>: the value, the key's sds and the dictEntry holding
 * them (its struct size, as Redis counts it, not the allocator's class).
 * Like Redis it reads the dict directly: no lazy expiry, no LRU touch. */
static void memoryUsageCommand(client *c) {
    size_t samples = OBJ_COMPUTE_SIZE_DEF_SAMPLES;
    if (!parseMemoryUsageOptions(c, &samples)) return;
    auto *de = c->db->dict.find(c->argv[2]);
    if (!de) return addReplyNull(c);
    size_t usage = objectComputeSize(de->val.get(), samples) + de->key.allocSize() + sizeof(*de);
    addReplyLongLong(c, static_cast<long long>(usage));
}

/* MEMORY <subcommand>. */
void memoryCommand(client *c) {
    static const char *const help[] = {
        "DOCTOR",
        "    Return memory problems reports.",
        "MALLOC-STATS",
        "    Return internal statistics report from the memory allocator.",
        "PURGE",
        "    Attempt to purge dirty pages for reclamation by the allocator.",
        "STATS",
        "    Return information about the memory usage of the server.",
        "USAGE <key> [SAMPLES <count>]",
        "    Return memory in bytes used by <key> and its value. Nested values are",
        "    sampled up to <count> times (default: 5, 0 means sample all).",
        nullptr};
    std::string_view sub = c->argv[1];
    if (strEqualNoCase(sub, "help")) return addReplyHelp(c, help);
    if (strEqualNoCase(sub, "usage")) return memoryUsageCommand(c);
    addReplySubcommandSyntaxError(c);
}

/* ------------------------------------------------------------------------
 * MEMORY STATS and DOCTOR: Redis's getMemoryOverheadData, from what this
 * layer sees. Left out, and so counted in dataset.bytes: the Lua script
 * cache and the functions' (Redis's lua.caches and functions.caches; their
 * sizes are not tracked here).
 * ---------------------------------------------------------------------- */

/* Redis's cron_malloc_stats, sampled when asked rather than by the cron.
 * Without jemalloc's figures the allocator's are made up as Redis makes
 * them up (resident = RSS, active = resident, allocated = used), so that
 * the ratios still read something. */
static redisMallocStats sampleMallocStats() {
    redisMallocStats ms;
    ms.zmalloc_used = zmalloc_used_memory();
    ms.process_rss = zmalloc_get_rss();
    zmalloc_get_allocator_info(&ms.allocator_allocated, &ms.allocator_active, &ms.allocator_resident);
    if (!ms.allocator_resident) ms.allocator_resident = ms.process_rss;
    if (!ms.allocator_active) ms.allocator_active = ms.allocator_resident;
    if (!ms.allocator_allocated) ms.allocator_allocated = ms.zmalloc_used;
    return ms;
}

redisMemOverhead getMemoryOverheadData() {
    redisMemOverhead mh;
    const redisMallocStats &ms = mh.malloc_stats = sampleMallocStats();
    size_t used = ms.zmalloc_used;
    server.stat_peak_memory = std::max(server.stat_peak_memory, used);
    mh.total_allocated = used;
    mh.startup_allocated = server.initial_memory_usage;
    mh.peak_allocated = server.stat_peak_memory;
    auto diff = [](size_t a, size_t b) { return static_cast<long long>(a) - static_cast<long long>(b); };
    mh.total_frag = static_cast<float>(ms.process_rss) / ms.zmalloc_used;
    mh.total_frag_bytes = diff(ms.process_rss, ms.zmalloc_used);
    mh.allocator_frag = static_cast<float>(ms.allocator_active) / ms.allocator_allocated;
    mh.allocator_frag_bytes = diff(ms.allocator_active, ms.allocator_allocated);
    mh.allocator_rss = static_cast<float>(ms.allocator_resident) / ms.allocator_active;
    mh.allocator_rss_bytes = diff(ms.allocator_resident, ms.allocator_active);
    mh.rss_extra = static_cast<float>(ms.process_rss) / ms.allocator_resident;
    mh.rss_extra_bytes = diff(ms.process_rss, ms.allocator_resident);

    size_t mem_total = server.initial_memory_usage;
    /* The backlog is one buffer of repl-backlog-size bytes; what waits for
     * each replica sits in its output buffer. */
    mh.repl_backlog = server.repl_backlog ? static_cast<size_t>(server.repl_backlog_size) : 0;
    for (const client *c : server.slaves) mh.clients_slaves += getClientOutputBufferMemoryUsage(c);
    for (const auto &c : server.clients)
        if (getClientType(c.get()) != CLIENT_TYPE_SLAVE) mh.clients_normal += getClientMemoryUsage(c.get());
    mh.aof_buffer = server.aof_state != AOF_OFF ? server.aof_buf.capacity() : 0;
    mem_total += mh.repl_backlog + mh.clients_slaves + mh.clients_normal + mh.aof_buffer;

    for (int j = 0; j < server.dbnum; j++) {
        redisDb &db = server.db[j];
        size_t keys = db.dict.size();
        if (keys == 0) continue;
        mh.total_keys += keys;
        redisMemOverhead::dbOverhead dbo;
        dbo.dbid = j;
        dbo.overhead_ht_main =
            keys * sizeof(keyspaceDict::entry) + db.dict.buckets() * sizeof(void *) + keys * sizeof(robj);
        dbo.overhead_ht_expires =
            db.expires.size() * sizeof(expiresDict::entry) + db.expires.buckets() * sizeof(void *);
        mem_total += dbo.overhead_ht_main + dbo.overhead_ht_expires;
        mh.db.push_back(dbo);
    }
    mh.overhead_total = mem_total;
    mh.dataset = used - mem_total;
    mh.peak_perc = static_cast<float>(used) * 100 / mh.peak_allocated;
    size_t net_usage = used > mh.startup_allocated ? used - mh.startup_allocated : 1;
    mh.dataset_perc = static_cast<float>(mh.dataset) * 100 / net_usage;
    mh.bytes_per_key = mh.total_keys ? net_usage / mh.total_keys : 0;
    return mh;
}

/* MEMORY STATS: Redis 7.0's map, less lua.caches and functions.caches. The
 * cluster fields are Redis's for a server without cluster mode: 0. */
void memoryStatsCommand(client *c) {
    redisMemOverhead mh = getMemoryOverheadData();
    const redisMallocStats &ms = mh.malloc_stats;
    auto num = [c](const char *name, long long v) {
        addReplyBulk(c, name);
        addReplyLongLong(c, v);
    };
    auto ratio = [c](const char *name, float v) {
        addReplyBulk(c, name);
        addReplyDouble(c, v);
    };
    addReplyMapLen(c, 25 + static_cast<long long>(mh.db.size()));
    num("peak.allocated", mh.peak_allocated);
    num("total.allocated", mh.total_allocated);
    num("startup.allocated", mh.startup_allocated);
    num("replication.backlog", mh.repl_backlog);
    num("clients.slaves", mh.clients_slaves);
    num("clients.normal", mh.clients_normal);
    num("cluster.links", 0);
    num("aof.buffer", mh.aof_buffer);
    for (const auto &dbo : mh.db) {
        addReplyBulk(c, "db." + std::to_string(dbo.dbid));
        addReplyMapLen(c, 3);
        num("overhead.hashtable.main", dbo.overhead_ht_main);
        num("overhead.hashtable.expires", dbo.overhead_ht_expires);
        num("overhead.hashtable.slot-to-keys", 0);
    }
    num("overhead.total", mh.overhead_total);
    num("keys.count", mh.total_keys);
    num("keys.bytes-per-key", mh.bytes_per_key);
    num("dataset.bytes", mh.dataset);
    ratio("dataset.percentage", mh.dataset_perc);
    ratio("peak.percentage", mh.peak_perc);
    num("allocator.allocated", ms.allocator_allocated);
    num("allocator.active", ms.allocator_active);
    num("allocator.resident", ms.allocator_resident);
    ratio("allocator-fragmentation.ratio", mh.allocator_frag);
    num("allocator-fragmentation.bytes", mh.allocator_frag_bytes);
    ratio("allocator-rss.ratio", mh.allocator_rss);
    num("allocator-rss.bytes", mh.allocator_rss_bytes);
    ratio("rss-overhead.ratio", mh.rss_extra);
    num("rss-overhead.bytes", mh.rss_extra_bytes);
    /* The total RSS overhead, fragmentation included, under its old name. */
    ratio("fragmentation", mh.total_frag);
    num("fragmentation.bytes", mh.total_frag_bytes);
}

/* getMemoryDoctorReport: Redis's checks and words, less the "many
 * scripts" one (the script cache is out of this layer's sight). */
static std::string getMemoryDoctorReport() {
    redisMemOverhead mh = getMemoryOverheadData();
    bool empty = false, big_peak = false, high_frag = false, high_alloc_frag = false, high_proc_rss = false,
         high_alloc_rss = false, big_slave_buf = false, big_client_buf = false;
    if (mh.total_allocated < 5 * 1024 * 1024) {
        empty = true;
    } else {
        constexpr long long ten_mb = 10 << 20;
        big_peak = static_cast<float>(mh.peak_allocated) / mh.total_allocated > 1.5;
        high_frag = mh.total_frag > 1.4 && mh.total_frag_bytes > ten_mb;
        high_alloc_frag = mh.allocator_frag > 1.1 && mh.allocator_frag_bytes > ten_mb;
        high_alloc_rss = mh.allocator_rss > 1.1 && mh.allocator_rss_bytes > ten_mb;
        high_proc_rss = mh.rss_extra > 1.1 && mh.rss_extra_bytes > ten_mb;
        size_t numslaves = server.slaves.size();
        size_t numclients = server.clients.size() - numslaves;
        big_client_buf = numclients && mh.clients_normal / numclients > 1024 * 200;
        big_slave_buf = numslaves > 0 && mh.clients_slaves > 1024 * 1024 * 10;
    }
    if (empty)
        return "Hi Sam, this instance is empty or is using very little memory, "
               "my issues detector can't be used in these conditions. "
               "Please, leave for your mission on Earth and fill it with some data. "
               "The new Sam and I will be back to our programming as soon as I "
               "finished rebooting.\n";
    if (!big_peak && !high_frag && !high_alloc_frag && !high_alloc_rss && !high_proc_rss && !big_slave_buf &&
        !big_client_buf)
        return "Hi Sam, I can't find any memory issue in your instance. "
               "I can only account for what occurs on this base.\n";
    std::string s = "Sam, I detected a few issues in this Redis instance memory implants:\n\n";
    if (big_peak)
        s += " * Peak memory: In the past this instance used more than 150% the memory that is currently using. "
             "The allocator is normally not able to release memory after a peak, so you can expect to see a big "
             "fragmentation ratio, however this is actually harmless and is only due to the memory peak, and if "
             "the Redis instance Resident Set Size (RSS) is currently bigger than expected, the memory will be "
             "used as soon as you fill the Redis instance with more data. If the memory peak was only occasional "
             "and you want to try to reclaim memory, please try the MEMORY PURGE command, otherwise the only "
             "other option is to shutdown and restart the instance.\n\n";
    if (high_frag)
        s += std::string(" * High total RSS: This instance has a memory fragmentation and RSS overhead greater than "
                         "1.4 (this means that the Resident Set Size of the Redis process is much larger than the "
                         "sum of the logical allocations Redis performed). This problem is usually due either to a "
                         "large peak memory (check if there is a peak memory entry above in the report) or may "
                         "result from a workload that causes the allocator to fragment memory a lot. If the problem "
                         "is a large peak memory, then there is no issue. Otherwise, make sure you are using the "
                         "Jemalloc allocator and not the default libc malloc. Note: The currently used allocator "
                         "is \"") +
             zmalloc_lib() + "\".\n\n";
    if (high_alloc_frag)
        s += " * High allocator fragmentation: This instance has an allocator external fragmentation greater than "
             "1.1. This problem is usually due either to a large peak memory (check if there is a peak memory "
             "entry above in the report) or may result from a workload that causes the allocator to fragment "
             "memory a lot. You can try enabling 'activedefrag' config option.\n\n";
    if (high_alloc_rss)
        s += " * High allocator RSS overhead: This instance has an RSS memory overhead is greater than 1.1 (this "
             "means that the Resident Set Size of the allocator is much larger than the sum what the allocator "
             "actually holds). This problem is usually due to a large peak memory (check if there is a peak "
             "memory entry above in the report), you can try the MEMORY PURGE command to reclaim it.\n\n";
    if (high_proc_rss)
        s += " * High process RSS overhead: This instance has non-allocator RSS memory overhead is greater than "
             "1.1 (this means that the Resident Set Size of the Redis process is much larger than the RSS the "
             "allocator holds). This problem may be due to Lua scripts or Modules.\n\n";
    if (big_slave_buf)
        s += " * Big replica buffers: The replica output buffers in this instance are greater than 10MB for each "
             "replica (on average). This likely means that there is some replica instance that is struggling "
             "receiving data, either because it is too slow or because of networking issues. As a result, data "
             "piles on the master output buffers. Please try to identify what replica is not receiving data "
             "correctly and why. You can use the INFO output in order to check the replicas delays and the "
             "CLIENT LIST command to check the output buffers of each replica.\n\n";
    if (big_client_buf)
        s += " * Big client buffers: The clients output buffers in this instance are greater than 200K per client "
             "(on average). This may result from different causes, like Pub/Sub clients subscribed to channels "
             "bot not receiving data fast enough, so that data piles on the Redis instance output buffer, or "
             "clients sending commands with large replies or very large sequences of commands in the same "
             "pipeline. Please use the CLIENT LIST command in order to investigate the issue if it causes "
             "problems in your instance, or to understand better why certain clients are using a big amount of "
             "memory.\n\n";
    return s + "I'm here to keep you safe, Sam. I want to help you.\n";
}

void memoryDoctorCommand(client *c) { addReplyVerbatim(c, getMemoryDoctorReport(), "txt"); }

/* jemalloc's malloc_stats_print text, as Redis replies it. */
void memoryMallocStatsCommand(client *c) {
#if defined(USE_JEMALLOC)
    std::string info;
    malloc_stats_print([](void *out, const char *text) { static_cast<std::string *>(out)->append(text); }, &info,
                       nullptr);
    addReplyVerbatim(c, info, "txt");
#else
    addReplyBulk(c, "Stats not supported for the current allocator");
#endif
}

void memoryPurgeCommand(client *c) {
    if (jemalloc_purge() == 0) addReply(c, shared::ok);
    else addReplyError(c, "Error purging dirty pages");
}
