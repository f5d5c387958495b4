/* object.h — the values stored in the keyspace, robj (Redis's object.c; the
 * struct itself is in Redis's server.h).
 *
 * An robj is 16 bytes, as in Redis: type (string, list, ...) and encoding
 * (how the value is laid out) in 4 bits each, a 24-bit LRU clock, a reference
 * count, and `ptr`, whose meaning the encoding decides:
 *   OBJ_ENCODING_INT     ptr holds the integer itself (no allocation)
 *   OBJ_ENCODING_EMBSTR  ptr points right after the robj, in the same
 *                        allocation (an sdshdr8 + bytes, up to 44 bytes, so
 *                        the whole object fits a 64-byte allocator class)
 *   OBJ_ENCODING_RAW     ptr *is* an sds (the sds object lives in the slot)
 *   OBJ_ENCODING_ZIPLIST ptr *is* a ziplist, likewise (t_list.h, t_hash.h,
 *                        t_zset.h)
 *   OBJ_ENCODING_INTSET  ptr *is* an intset, likewise (t_set.h)
 *   other encodings      ptr owns the structure (list, dict, stream...)
 * Invariants:
 *  - Only ObjRef handles own references: copying one is incrRefCount,
 *    destroying one is decrRefCount; the object frees itself at zero.
 *  - The shared integers 0..9999 have a refcount that never changes: SET k 5
 *    on a million keys allocates no value object at all.
 */
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <malloc.h>
#include <string_view>
#include <utility>
#include <vector>

#include "sds.h"

struct client;

/* Types (TYPE command) and encodings (OBJECT ENCODING), Redis's numbers. */
constexpr unsigned OBJ_STRING = 0, OBJ_LIST = 1, OBJ_SET = 2, OBJ_ZSET = 3, OBJ_HASH = 4, OBJ_STREAM = 6;
constexpr unsigned OBJ_ENCODING_RAW = 0, OBJ_ENCODING_INT = 1, OBJ_ENCODING_HT = 2,
                   OBJ_ENCODING_LINKEDLIST = 4, OBJ_ENCODING_ZIPLIST = 5, OBJ_ENCODING_INTSET = 6,
                   OBJ_ENCODING_SKIPLIST = 7, OBJ_ENCODING_EMBSTR = 8,
                   OBJ_ENCODING_STREAM = 10;

constexpr size_t OBJ_ENCODING_EMBSTR_SIZE_LIMIT = 44;
constexpr long long OBJ_SHARED_INTEGERS = 10000;
constexpr int OBJ_SHARED_REFCOUNT = INT_MAX;
constexpr unsigned LRU_BITS = 24;
constexpr unsigned LRU_CLOCK_MAX = (1u << LRU_BITS) - 1;
constexpr unsigned LRU_CLOCK_RESOLUTION = 1000; /* ms per LRU tick */

struct redisObject {
    unsigned type : 4;
    unsigned encoding : 4;
    unsigned lru : LRU_BITS;
    int refcount;
    void *ptr;
};
using robj = redisObject;
static_assert(sizeof(robj) == 16, "an robj is 16 bytes, as in Redis");

void incrRefCount(robj *o);
void decrRefCount(robj *o);

/* An owning reference to an robj (intrusive reference count). */
class ObjRef {
public:
    ObjRef() = default;
    /* Adopts one reference the caller already holds. */
    explicit ObjRef(robj *o) noexcept : o_(o) {}
    ObjRef(const ObjRef &other) noexcept : o_(other.o_) {
        if (o_) incrRefCount(o_);
    }
    ObjRef(ObjRef &&other) noexcept : o_(std::exchange(other.o_, nullptr)) {}
    ObjRef &operator=(ObjRef other) noexcept {
        std::swap(o_, other.o_);
        return *this;
    }
    ~ObjRef() {
        if (o_) decrRefCount(o_);
    }
    robj *get() const { return o_; }
    robj *operator->() const { return o_; }
    robj &operator*() const { return *o_; }
    explicit operator bool() const { return o_ != nullptr; }

private:
    robj *o_ = nullptr;
};

/* The RAW encoding keeps an sds object in the ptr slot itself. */
inline sds &objectRawSds(robj *o) { return *std::launder(reinterpret_cast<sds *>(&o->ptr)); }

unsigned int LRU_CLOCK();

/* ---- the LFU counter -------------------------------------------------
 * Under an LFU maxmemory-policy (maxmemory-policy *-lfu) the 24-bit lru
 * field is not an access time but two numbers: the minutes (16 bits,
 * wrapping) of the counter's last decrement, and an 8-bit logarithmic
 * access counter. Reads make it grow ever more slowly (lfu-log-factor) and
 * idle minutes make it shrink (lfu-decay-time). Redis keeps these in
 * evict.c; here they sit with the field, which the keyspace (a layer below
 * eviction, tools/check_layers.sh) updates on every access. */
constexpr unsigned LFU_INIT_VAL = 5; /* a new key's counter: it is not evicted before it had a chance */
unsigned long LFUGetTimeInMinutes();
unsigned long LFUTimeElapsed(unsigned long ldt); /* minutes since ldt, across the wrap */
uint8_t LFULogIncr(uint8_t counter);             /* one access: may add 1, less likely the higher it is */
unsigned long LFUDecrAndReturn(const robj *o);    /* the counter, decayed by the idle periods */
/* One access to val under an LFU policy: decay, then increment. */
void updateLFU(robj *val);
/* A loaded value's access history (an RDB's FREQ or IDLE opcode): under an
 * LFU policy its counter lfu_freq, else its access time lru_idle seconds
 * before lru_clock; < 0 sets nothing. Returns whether it set the field. */
bool objectSetLRUOrLFU(robj *val, long long lfu_freq, long long lru_idle, long long lru_clock);

/* A new object of `type` in `encoding` with `ptr` (Redis's createObject),
 * for the types' own encodings (t_*.cpp); an encoding that keeps its
 * structure in the ptr slot itself constructs it there after. */
ObjRef createObject(unsigned type, unsigned encoding, void *ptr);

/* ---- the types' operations --------------------------------------------
 * What the objects and the keyspace need of a value whatever its type, one
 * row per OBJ_* type, as Redis's dictType gives a dict its functions.
 * Redis's object.c and db.c switch on the type and call each type's
 * functions; here the types (t_*.cpp) sit a layer above them
 * (tools/check_layers.sh), so each defines its row (listObjectType...),
 * installServerHooks (hooks.cpp) files them (registerObjectType) before
 * anything runs, and object.cpp and db.cpp call through the row. Strings
 * are object.cpp's own row. */
struct objectType {
    /* Frees what the value owns; decrRefCount then frees the robj itself
     * (Redis's freeListObject, freeSetObject...). */
    void (*free)(robj *o);
    /* A deep copy, in the same encoding (COPY). */
    ObjRef (*dup)(const robj *o);
    /* Bytes the value owns beyond the robj (MEMORY USAGE): an aggregate
     * measures `samples` elements (0: all) and extrapolates, as Redis. */
    size_t (*computeSize)(const robj *o, size_t samples);
    /* SSCAN/HSCAN/ZSCAN's one step of their own (scanGenericCommand, db.h):
     * appends to `items` the elements from `cursor` on, at least `count`
     * unless the scan ends first, and returns the next cursor (0: done).
     * nullptr for a type with no SCAN. */
    unsigned long (*scan)(robj *o, unsigned long cursor, long count, std::vector<sds> &items);
    /* The scan's items come in pairs: field and value, member and score. */
    bool scan_pairs;
    /* The work freeing the value takes, in allocations or a number that
     * grows with them (Redis's lazyfreeGetFreeEffort, lazyfree.h), for the
     * encodings that are not one block (a ziplist, an intset: 1 either
     * way). nullptr: always one block. */
    size_t (*freeEffort)(const robj *o);
};
/* Every value the robj's 4-bit type field can hold. */
constexpr unsigned OBJ_TYPE_MAX = 1u << 4;
/* Files the row of `type`. */
void registerObjectType(unsigned type, const objectType &row);
const objectType &getObjectType(unsigned type);

/* A hash table's bytes for computeSize: the dict, its buckets and its
 * entries, of which the first `samples` are measured (entrySize(entry): the
 * entry's block and what it owns) and the average stands for all (0:
 * every entry is measured), as Redis samples its aggregate types. */
template <typename Dict, typename EntrySize>
size_t dictComputeSize(Dict &d, size_t samples, EntrySize entrySize) {
    size_t size = malloc_usable_size(&d) + d.buckets() * sizeof(typename Dict::entry *), elesize = 0, measured = 0;
    for (auto &de : d) {
        if (samples != 0 && measured == samples) break;
        elesize += entrySize(de);
        measured++;
    }
    if (measured) size += static_cast<size_t>(static_cast<double>(elesize) / measured * d.size());
    return size;
}

/* ---- string objects -------------------------------------------------- */
ObjRef createStringObject(std::string_view s);      /* embstr or raw by length */
ObjRef createRawStringObject(std::string_view s);
ObjRef createStringObjectFromLongLong(long long value);
ObjRef createStringObjectFromLongDouble(long double value, bool humanfriendly);
ObjRef dupStringObject(const robj *o);
/* The most compact encoding for a string value: int, embstr, or raw. */
ObjRef tryObjectEncoding(ObjRef o);

/* A string object's bytes. INT-encoded values are printed into `buf`. */
struct StringBuf {
    char buf[24];
};
std::string_view objectStringView(const robj *o, StringBuf &buf);
size_t stringObjectLen(const robj *o);
bool getLongLongFromObject(const robj *o, long long *value);
bool getLongDoubleFromObject(const robj *o, long double *value);

/* ---- list objects (the list type is t_list.h) ------------------------ */
ObjRef createZiplistObject(); /* an empty ziplist-encoded list */
ObjRef createListObject();    /* an empty linkedlist-encoded list */

/* ---- set objects: t_set.h (createIntsetObject, createSetObject) ------- */

/* ---- hash objects (the hash type is t_hash.h) ------------------------ */
ObjRef createHashObject(); /* an empty ziplist-encoded hash */

/* ---- sorted set objects (the sorted set type is t_zset.h) ------------ */
ObjRef createZsetZiplistObject(); /* an empty ziplist-encoded sorted set */
ObjRef createZsetObject();        /* an empty skiplist-encoded sorted set */

/* Argument parsing that replies Redis's error on failure. */
bool getLongLongFromObjectOrReply(client *c, std::string_view arg, long long *value, const char *msg = nullptr);
bool getLongFromObjectOrReply(client *c, std::string_view arg, long *value, const char *msg = nullptr);
bool getPositiveLongFromObjectOrReply(client *c, std::string_view arg, long *value, const char *msg = nullptr);
bool getRangeLongFromObjectOrReply(client *c, std::string_view arg, long min, long max, long *value,
                                   const char *msg = nullptr);
bool getLongDoubleFromObjectOrReply(client *c, std::string_view arg, long double *value, const char *msg = nullptr);
bool getDoubleFromObjectOrReply(client *c, std::string_view arg, double *value, const char *msg = nullptr);

/* ---- encoding conversions in the trace (TRACE_ENCODING) --------------
 * Each type's conversion function (listTypeConvert, hashTypeConvert,
 * setTypeConvert, zsetConvert) is told why it runs, and traces itself. */

/* Why a value changes encoding: `reason` says what went over which limit
 * ("entries over list-max-ziplist-entries"), `measure` names the number
 * compared with the limit ("entries", "value_len", "bytes"; nullptr when
 * none is, as for a set's non-integer member). */
struct encodingTrigger {
    const char *reason;
    const char *measure = nullptr;
    long long n = 0;
    long long limit = 0;
};
/* The event of `fn` converting o (still in its old encoding) to `to`, with
 * the key (the named one, or the running command's argument whose value o
 * is) and the command. Call only under traceOn(TRACE_ENCODING). */
void traceEncodingConversion(const char *fn, const robj *o, unsigned to, const encodingTrigger &why);
/* Names the key of the value built meanwhile, for the conversions of a
 * value not in the keyspace yet (RDB loading). Costs two stores. */
class traceConversionKey {
public:
    explicit traceConversionKey(std::string_view key);
    ~traceConversionKey();
    traceConversionKey(const traceConversionKey &) = delete;
    traceConversionKey &operator=(const traceConversionKey &) = delete;

    std::string_view key() const { return key_; }

private:
    std::string_view key_;
    const traceConversionKey *outer_;
};

/* ---- names and sizes for introspection ------------------------------- */
const char *strEncoding(unsigned encoding);
const char *strType(unsigned type);
/* MEMORY USAGE: the value's bytes (the robj, then its row's
 * computeSize); an aggregate value measures `samples` elements and
 * extrapolates (0: all of them), as Redis does. */
constexpr size_t OBJ_COMPUTE_SIZE_DEF_SAMPLES = 5;
size_t objectComputeSize(const robj *o, size_t samples = OBJ_COMPUTE_SIZE_DEF_SAMPLES);
unsigned long long estimateObjectIdleTime(const robj *o); /* ms since last access */

/* The allocator's figures (Redis's cron_malloc_stats). */
struct redisMallocStats {
    size_t zmalloc_used = 0;
    size_t process_rss = 0;
    size_t allocator_allocated = 0, allocator_active = 0, allocator_resident = 0;
};

/* Where the memory goes (Redis's struct redisMemOverhead), for MEMORY
 * STATS and DOCTOR: the server's own structures, and the rest as the
 * dataset. The *_bytes differences may be negative. */
struct redisMemOverhead {
    size_t peak_allocated = 0, total_allocated = 0, startup_allocated = 0;
    size_t repl_backlog = 0, clients_slaves = 0, clients_normal = 0, aof_buffer = 0;
    size_t overhead_total = 0, dataset = 0, total_keys = 0, bytes_per_key = 0;
    float dataset_perc = 0, peak_perc = 0;
    float total_frag = 0, allocator_frag = 0, allocator_rss = 0, rss_extra = 0;
    long long total_frag_bytes = 0, allocator_frag_bytes = 0, allocator_rss_bytes = 0, rss_extra_bytes = 0;
    struct dbOverhead {
        int dbid = 0;
        size_t overhead_ht_main = 0, overhead_ht_expires = 0;
    };
    std::vector<dbOverhead> db; /* the non-empty databases */
    redisMallocStats malloc_stats;
};
redisMemOverhead getMemoryOverheadData();

/* OBJECT and MEMORY (the command table is in commands.cpp). */
void objectCommand(client *c);
void memoryCommand(client *c);
void memoryDoctorCommand(client *c);
void memoryStatsCommand(client *c);
void memoryMallocStatsCommand(client *c);
void memoryPurgeCommand(client *c);
