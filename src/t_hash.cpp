/* t_hash.cpp — the hash type: Redis 2.6's t_hash.c (two encodings behind one
 * "Hash Type API") serving Redis 7.0's hash commands, with their replies and
 * error texts.
 *
 * A hash starts as a ziplist of field, value, field, value... and turns
 * into a hash table when a field or value longer than hash-max-ziplist-value
 * bytes is added, or when it would hold more than hash-max-ziplist-entries
 * fields, whichever command adds it (HSET, HMSET, HSETNX, HINCRBY,
 * HINCRBYFLOAT). Invariants:
 *  - Every command goes through the Hash Type API below, so no command
 *    depends on the encoding; values go from the hash into the reply buffer
 *    without being copied first.
 *  - Only a field really added converts: HSETNX on a field that exists
 *    leaves the hash as it is, however long the value it did not set.
 *  - A hash emptied by HDEL is deleted from the keyspace; a new hash enters
 *    it through dbAdd before its first field is set, as in Redis.
 *  - Every write calls signalModifiedKey and adds to server.dirty as Redis
 *    does (one per field set or deleted).
 */
#include "t_hash.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <climits>
#include <cmath>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "notify.h"
#include "server.h"
#include "livetrace.h"

/* ========================================================================
 * Hash Type API
 * ====================================================================== */

std::string_view hashTypeValueView(const hashTypeValue &v, char (&buf)[LONG_STR_SIZE]) {
    if (!v.isInt) return v.sval;
    return std::string_view(buf, static_cast<size_t>(ll2string(buf, sizeof(buf), v.lval)));
}

void addReplyHashValue(client *c, const hashTypeValue &v) {
    if (v.isInt) addReplyBulkLongLong(c, v.lval);
    else addReplyBulk(c, v.sval);
}

static hashTypeValue hashTypeValueOf(const sds &s) {
    hashTypeValue v;
    v.sval = s.view();
    return v;
}

/* Redis's ziplistSafeToAdd: the thresholds are configurable, so a ziplist
 * could grow past what its 32-bit offsets address; a hash converts before
 * its ziplist reaches 1 GB, whatever the thresholds say. */
constexpr size_t ZIPLIST_MAX_SAFETY_SIZE = size_t{1} << 30;

void hashTypeTryConversion(robj *o, std::span<const std::string_view> args) {
    if (o->encoding != OBJ_ENCODING_ZIPLIST) return;
    size_t sum = 0;
    for (std::string_view arg : args) {
        if (arg.size() > static_cast<unsigned long long>(server.hash_max_ziplist_value))
            return hashTypeConvert(o, OBJ_ENCODING_HT, hashValueOverLimit(arg.size()));
        sum += arg.size();
    }
    if (size_t bytes = objectZiplist(o).blobLen() + sum; bytes > ZIPLIST_MAX_SAFETY_SIZE)
        hashTypeConvert(o, OBJ_ENCODING_HT,
                        {"ziplist over its safety size", "bytes", static_cast<long long>(bytes),
                         static_cast<long long>(ZIPLIST_MAX_SAFETY_SIZE)});
}

encodingTrigger hashValueOverLimit(size_t len) {
    return {"value over hash-max-ziplist-value", "value_len", static_cast<long long>(len),
            server.hash_max_ziplist_value};
}

encodingTrigger hashEntriesOverLimit(unsigned long entries) {
    return {"entries over hash-max-ziplist-entries", "entries", static_cast<long long>(entries),
            server.hash_max_ziplist_entries};
}

/* Puts `d` in place of the ziplist of a ziplist-encoded hash. */
static void hashTypeAdoptDict(robj *o, std::unique_ptr<hashDict> d) {
    objectZiplist(o).~ziplist();
    o->ptr = d.release();
    o->encoding = OBJ_ENCODING_HT;
}

/* ziplist -> hash table, the only conversion there is. A hash table never
 * turns back into a ziplist, even when fields are deleted: as for lists
 * (t_list.cpp), a hash whose size hovers around a threshold would otherwise
 * copy every field back and forth. */
void hashTypeConvert(robj *o, unsigned enc, const encodingTrigger &why) {
    assert(o->type == OBJ_HASH && o->encoding == OBJ_ENCODING_ZIPLIST && enc == OBJ_ENCODING_HT);
    if (traceOn(TRACE_ENCODING)) traceEncodingConversion("hashTypeConvert", o, enc, why);
    auto d = std::make_unique<hashDict>();
    d->expand(hashTypeLength(o)); /* one allocation of the buckets, no rehash on the way */
    char fbuf[LONG_STR_SIZE], vbuf[LONG_STR_SIZE];
    for (hashTypeIterator hi(o); hashTypeNext(&hi);) {
        d->add(sds(hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_KEY), fbuf)),
               sds(hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_VALUE), vbuf)));
    }
    hashTypeAdoptDict(o, std::move(d));
}

/* The entry holding the value of `field` in a ziplist hash, or no entry:
 * fields are compared one entry in two (ziplistFind's skip). */
static zlpos hashZiplistFindValue(const ziplist &zl, std::string_view field) {
    zlpos fptr = zl.find(zl.index(0), field, 1);
    return fptr ? zl.next(fptr) : zlpos{};
}

std::optional<hashTypeValue> hashTypeGetValue(robj *o, std::string_view field) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(o);
        zlpos vptr = hashZiplistFindValue(zl, field);
        if (!vptr) return std::nullopt;
        return zl.get(vptr);
    }
    hashDict::entry *de = objectHashDict(o).find(field);
    if (!de) return std::nullopt;
    return hashTypeValueOf(de->val);
}

size_t hashTypeGetValueLength(robj *o, std::string_view field) {
    std::optional<hashTypeValue> v = hashTypeGetValue(o, field);
    if (!v) return 0;
    char buf[LONG_STR_SIZE];
    return hashTypeValueView(*v, buf).size();
}

bool hashTypeExists(robj *o, std::string_view field) { return hashTypeGetValue(o, field).has_value(); }

/* `field` and `value` must not point into this hash (see ziplist.h). */
bool hashTypeSet(robj *o, std::string_view field, std::string_view value) {
    /* HSET checked all its arguments at once; HINCRBYFLOAT's value is only
     * known here. */
    hashTypeTryConversion(o, std::array{field, value});
    if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        ziplist &zl = objectZiplist(o);
        if (zlpos vptr = hashZiplistFindValue(zl, field)) {
            zl.replace(vptr, value);
            return true;
        }
        zl.push(field, ZIPLIST_TAIL);
        zl.push(value, ZIPLIST_TAIL);
        if (unsigned long entries = hashTypeLength(o);
            entries > static_cast<unsigned long long>(server.hash_max_ziplist_entries))
            hashTypeConvert(o, OBJ_ENCODING_HT, hashEntriesOverLimit(entries));
        return false;
    }
    /* One lookup either way; an update allocates no field. */
    hashDict &d = objectHashDict(o);
    hashDict::entry *existing = nullptr;
    if (hashDict::entry **position = d.findPositionForInsert(field, &existing)) {
        d.insertAtPosition(sds(field), position)->val = sds(value);
        return false;
    }
    existing->val = sds(value);
    return true;
}

bool hashTypeDelete(robj *o, std::string_view field) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        ziplist &zl = objectZiplist(o);
        zlpos fptr = zl.find(zl.index(0), field, 1);
        if (!fptr) return false;
        zl.deleteEntry(zl.deleteEntry(fptr)); /* the field, then the value that took its place */
        return true;
    }
    hashDict &d = objectHashDict(o);
    if (!d.erase(field)) return false;
    /* A table emptied by deletions shrinks now, as in Redis: nobody else
     * (serverCron) resizes the dicts inside values. */
    if (d.needsShrink()) d.resizeToFit();
    return true;
}

unsigned long hashTypeLength(const robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) return objectZiplist(o).len() / 2;
    return objectHashDict(o).size();
}

ObjRef hashTypeDup(const robj *o) {
    assert(o->type == OBJ_HASH);
    if (o->encoding == OBJ_ENCODING_ZIPLIST) return dupZiplistObject(o);
    ObjRef copy = createHashObject();
    hashDict &src = objectHashDict(o);
    auto d = std::make_unique<hashDict>();
    d->expand(src.size());
    for (auto &de : src) d->add(de.key.dup(), de.val.dup());
    hashTypeAdoptDict(copy.get(), std::move(d));
    return copy;
}

/* ---- the hash's row of the types' operations (object.h) ---------------- */

static void freeHashObject(robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) objectZiplist(o).~ziplist();
    else delete &objectHashDict(o);
}

static size_t hashObjectComputeSize(const robj *o, size_t samples) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST)
        return malloc_usable_size(const_cast<unsigned char *>(objectZiplist(o).data()));
    return dictComputeSize(objectHashDict(o), samples, [](hashDict::entry &de) {
        return malloc_usable_size(&de) + de.key.allocSize() + de.val.allocSize();
    });
}

/* HSCAN: fields and values; a ziplist is returned whole, with cursor 0. */
static unsigned long hashTypeScan(robj *o, unsigned long cursor, long count, std::vector<sds> &items) {
    if (o->encoding == OBJ_ENCODING_HT)
        return scanDict(objectHashDict(o), cursor, count, items, [](hashDict::entry &de, std::vector<sds> &out) {
            out.push_back(de.key.dup());
            out.push_back(de.val.dup());
        });
    char buf[LONG_STR_SIZE];
    for (hashTypeIterator hi(o); hashTypeNext(&hi);) {
        items.emplace_back(hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_KEY), buf));
        items.emplace_back(hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_VALUE), buf));
    }
    return 0;
}

const objectType hashObjectType = {.free = freeHashObject,
                                   .dup = hashTypeDup,
                                   .computeSize = hashObjectComputeSize,
                                   .scan = hashTypeScan,
                                   .scan_pairs = true,
                                   .freeEffort = hashTypeLength};

/* hashTypeRandomElement: a field and its value, at random; the hash must
 * not be empty. A hash table draws fairly among a sample of entries
 * (dictGetFairRandomKey), as Redis does. */
static std::pair<hashTypeValue, hashTypeValue> hashTypeRandomElement(robj *o) {
    if (o->encoding == OBJ_ENCODING_HT) {
        hashDict::entry *de = objectHashDict(o).fairRandomEntry();
        return {hashTypeValueOf(de->key), hashTypeValueOf(de->val)};
    }
    const ziplist &zl = objectZiplist(o);
    zlpos fptr = zl.index(static_cast<long>(2 * (dict_detail::random() % hashTypeLength(o))));
    return {zl.get(fptr), zl.get(zl.next(fptr))};
}

/* ---- iterating --------------------------------------------------------- */

hashTypeIterator::hashTypeIterator(robj *subject) : subject_(subject), encoding_(subject->encoding) {
    if (encoding_ == OBJ_ENCODING_HT) new (&di_) hashDict::iterator(objectHashDict(subject).safe().begin());
}

hashTypeIterator::~hashTypeIterator() {
    if (encoding_ == OBJ_ENCODING_HT) di_.~iterator();
}

bool hashTypeNext(hashTypeIterator *hi) {
    assert(hi->subject_->encoding == hi->encoding_); /* no conversion while iterating */
    if (hi->encoding_ == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(hi->subject_);
        hi->fptr_ = hi->fptr_ ? zl.next(hi->vptr_) : zl.index(0);
        if (!hi->fptr_) return false;
        hi->vptr_ = zl.next(hi->fptr_);
        return true;
    }
    /* The dict iterator starts on the first entry; later calls step on. */
    if (hi->de_) ++hi->di_;
    if (hi->di_ == std::default_sentinel) return false;
    hi->de_ = &*hi->di_;
    return true;
}

hashTypeValue hashTypeCurrent(const hashTypeIterator *hi, int what) {
    if (hi->encoding_ == OBJ_ENCODING_ZIPLIST)
        return objectZiplist(hi->subject_).get(what == OBJ_HASH_KEY ? hi->fptr_ : hi->vptr_);
    return hashTypeValueOf(what == OBJ_HASH_KEY ? hi->de_->key : hi->de_->val);
}

/* ========================================================================
 * Hash commands
 * ====================================================================== */

/* hashTypeLookupWriteOrCreate: the hash under `key`, added to the keyspace
 * empty if there is none (the caller sets a field right away), or nullptr
 * after replying WRONGTYPE. */
static robj *hashTypeLookupWriteOrCreate(client *c, std::string_view key) {
    robj *o = lookupKeyWrite(c->db, key);
    if (checkType(c, o, OBJ_HASH)) return nullptr;
    if (o) return o;
    ObjRef created = createHashObject();
    o = created.get();
    dbAdd(c->db, key, std::move(created));
    return o;
}

/* HSET key field value [field value ...] replies how many fields it
 * created; HMSET, the same command before Redis 4.0, replies OK. */
static void hsetGenericCommand(client *c, bool hmset) {
    if (c->argv.size() % 2 == 1) return addReplyErrorArity(c);
    robj *o = hashTypeLookupWriteOrCreate(c, c->argv[1]);
    if (!o) return;
    std::span<const std::string_view> pairs = std::span(c->argv).subspan(2);
    /* All the pairs at once: a hash that must convert does so before any
     * of them goes into the ziplist. */
    hashTypeTryConversion(o, pairs);
    long long created = 0;
    for (size_t j = 0; j < pairs.size(); j += 2) created += !hashTypeSet(o, pairs[j], pairs[j + 1]);
    if (hmset) addReply(c, shared::ok);
    else addReplyLongLong(c, created);
    signalModifiedKey(c, c->db, c->argv[1]);
    notifyKeyspaceEvent(NOTIFY_HASH, "hset", c->argv[1], c->db->id);
    server.dirty += static_cast<long long>(pairs.size() / 2);
}

void hsetCommand(client *c) { hsetGenericCommand(c, false); }
void hmsetCommand(client *c) { hsetGenericCommand(c, true); }

/* HSETNX key field value: 1 if it set the field, 0 if the field existed. */
void hsetnxCommand(client *c) {
    robj *o = hashTypeLookupWriteOrCreate(c, c->argv[1]);
    if (!o) return;
    if (hashTypeExists(o, c->argv[2])) return addReply(c, shared::czero);
    hashTypeSet(o, c->argv[2], c->argv[3]);
    addReply(c, shared::cone);
    signalModifiedKey(c, c->db, c->argv[1]);
    notifyKeyspaceEvent(NOTIFY_HASH, "hset", c->argv[1], c->db->id);
    server.dirty++;
}

/* The value of `field` as a bulk string, nil when the hash (o may be
 * nullptr) or the field is missing. */
static void addHashFieldToReply(client *c, robj *o, std::string_view field) {
    std::optional<hashTypeValue> v;
    if (o) v = hashTypeGetValue(o, field);
    if (v) addReplyHashValue(c, *v);
    else addReplyNull(c);
}

void hgetCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!o || checkType(c, o, OBJ_HASH)) return;
    addHashFieldToReply(c, o, c->argv[2]);
}

/* HMGET key field [field ...]: a nil for each missing field, all nils for a
 * missing key. */
void hmgetCommand(client *c) {
    robj *o = lookupKeyRead(c->db, c->argv[1]);
    if (checkType(c, o, OBJ_HASH)) return;
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2));
    for (size_t j = 2; j < c->argv.size(); j++) addHashFieldToReply(c, o, c->argv[j]);
}

/* HDEL key field [field ...]: how many fields it deleted. Removing the last
 * one deletes the key, and the fields after it are not looked at. */
void hdelCommand(client *c) { removeElementsGenericCommand(c, OBJ_HASH, hashTypeDelete, hashTypeLength); }

void hlenCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_HASH)) return;
    addReplyLongLong(c, static_cast<long long>(hashTypeLength(o)));
}

void hstrlenCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_HASH)) return;
    addReplyLongLong(c, static_cast<long long>(hashTypeGetValueLength(o, c->argv[2])));
}

void hexistsCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_HASH)) return;
    addReply(c, hashTypeExists(o, c->argv[2]) ? shared::cone : shared::czero);
}

/* HGETALL (flags OBJ_HASH_KEY | OBJ_HASH_VALUE: field, value, field,
 * value...), HKEYS and HVALS, in the encoding's order. */
static void genericHgetallCommand(client *c, int flags) {
    robj *o = lookupKeyRead(c->db, c->argv[1]);
    if (checkType(c, o, OBJ_HASH)) return;
    long long length = o ? static_cast<long long>(hashTypeLength(o)) : 0;
    if (flags == (OBJ_HASH_KEY | OBJ_HASH_VALUE)) addReplyMapLen(c, length);
    else addReplyArrayLen(c, length);
    if (!o) return;
    for (hashTypeIterator hi(o); hashTypeNext(&hi);) {
        if (flags & OBJ_HASH_KEY) addReplyHashValue(c, hashTypeCurrent(&hi, OBJ_HASH_KEY));
        if (flags & OBJ_HASH_VALUE) addReplyHashValue(c, hashTypeCurrent(&hi, OBJ_HASH_VALUE));
    }
}

void hgetallCommand(client *c) { genericHgetallCommand(c, OBJ_HASH_KEY | OBJ_HASH_VALUE); }
void hkeysCommand(client *c) { genericHgetallCommand(c, OBJ_HASH_KEY); }
void hvalsCommand(client *c) { genericHgetallCommand(c, OBJ_HASH_VALUE); }

/* What HINCRBY and HINCRBYFLOAT do once they have the new value: store it
 * (which may convert the hash: a float can print long) and reply it. */
static void hashIncrStore(client *c, robj *o, std::string_view value, const char *event) {
    hashTypeSet(o, c->argv[2], value);
    signalModifiedKey(c, c->db, c->argv[1]);
    notifyKeyspaceEvent(NOTIFY_HASH, event, c->argv[1], c->db->id);
    server.dirty++;
}

/* HINCRBY key field increment: a missing field counts as 0. The increment
 * is checked before the key, so a bad one wins over WRONGTYPE. */
void hincrbyCommand(client *c) {
    long long incr, value = 0;
    if (!getLongLongFromObjectOrReply(c, c->argv[3], &incr)) return;
    robj *o = hashTypeLookupWriteOrCreate(c, c->argv[1]);
    if (!o) return;
    if (std::optional<hashTypeValue> current = hashTypeGetValue(o, c->argv[2])) {
        if (current->isInt) value = current->lval;
        else if (!string2ll(current->sval, &value)) return addReplyError(c, "hash value is not an integer");
    }
    if ((incr < 0 && value < 0 && incr < LLONG_MIN - value) || (incr > 0 && value > 0 && incr > LLONG_MAX - value))
        return addReplyError(c, "increment or decrement would overflow");
    value += incr;
    char buf[LONG_STR_SIZE];
    hashIncrStore(c, o, std::string_view(buf, static_cast<size_t>(ll2string(buf, sizeof(buf), value))), "hincrby");
    addReplyLongLong(c, value);
}

/* HINCRBYFLOAT key field increment, in long double as INCRBYFLOAT, stored
 * and replied in human-friendly form ("3.5", "10000"). A big result prints
 * hundreds of digits, so it may convert the hash. */
void hincrbyfloatCommand(client *c) {
    long double incr, value = 0;
    if (!getLongDoubleFromObjectOrReply(c, c->argv[3], &incr)) return;
    if (std::isnan(incr) || std::isinf(incr)) return addReplyError(c, "value is NaN or Infinity");
    robj *o = hashTypeLookupWriteOrCreate(c, c->argv[1]);
    if (!o) return;
    if (std::optional<hashTypeValue> current = hashTypeGetValue(o, c->argv[2])) {
        if (current->isInt) value = static_cast<long double>(current->lval);
        else if (!string2ld(current->sval, &value)) return addReplyError(c, "hash value is not a float");
    }
    value += incr;
    if (std::isnan(value) || std::isinf(value)) return addReplyError(c, "increment would produce NaN or Infinity");
    char buf[MAX_LONG_DOUBLE_CHARS];
    std::string_view result(buf, static_cast<size_t>(ld2string(buf, sizeof(buf), value, LD_STR_HUMAN)));
    hashIncrStore(c, o, result, "hincrbyfloat");
    addReplyBulk(c, result);
    /* The AOF stores the result (HSET), not the float addition. */
    rewriteClientCommandVector(c, {"HSET", c->argv[1], c->argv[2], result});
}

/* ========================================================================
 * HRANDFIELD key [count [WITHVALUES]]
 * ====================================================================== */

/* Past count * 3 > size, picking distinct fields one by one would draw
 * many duplicates: HRANDFIELD copies the hash and removes instead. */
constexpr unsigned long HRANDFIELD_SUB_STRATEGY_MUL = 3;
/* A negative count is served in batches of this many picks (bounded
 * scratch memory whatever the count). */
constexpr unsigned long HRANDFIELD_RANDOM_SAMPLE_LIMIT = 1000;

/* A field, with its value as a pair (nested in RESP3) when asked. */
static void addReplyHashPair(client *c, const hashTypeValue &field, const hashTypeValue &value, bool withvalues) {
    if (withvalues) addReplyPairLen(c);
    addReplyHashValue(c, field);
    if (withvalues) addReplyHashValue(c, value);
}

/* lpRandomPairs: `count` pairs of a ziplist hash drawn with repetition,
 * replied in the order drawn. The draws are sorted by position so that
 * one walk of the ziplist finds them all. */
static void ziplistReplyRandomPairs(client *c, robj *o, unsigned long count, bool withvalues) {
    struct Pick {
        unsigned long index, order;
    };
    const ziplist &zl = objectZiplist(o);
    unsigned long size = hashTypeLength(o);
    std::vector<Pick> picks(count);
    std::vector<std::pair<hashTypeValue, hashTypeValue>> drawn(count);
    for (unsigned long i = 0; i < count; i++) picks[i] = {dict_detail::random() % size, i};
    std::sort(picks.begin(), picks.end(), [](const Pick &a, const Pick &b) { return a.index < b.index; });
    zlpos fptr = zl.index(0);
    unsigned long at = 0;
    for (const Pick &pick : picks) {
        for (; at < pick.index; at++) fptr = zl.next(zl.next(fptr));
        drawn[pick.order] = {zl.get(fptr), zl.get(zl.next(fptr))};
    }
    for (const auto &[field, value] : drawn) addReplyHashPair(c, field, value, withvalues);
}

/* lpRandomPairsUnique: `count` distinct pairs of a ziplist hash, in ziplist
 * order, by selection sampling: each pair is taken with probability
 * (pairs still wanted) / (pairs not yet seen), which ends with exactly
 * `count`. */
static void ziplistReplyRandomPairsUnique(client *c, robj *o, unsigned long count, bool withvalues) {
    const ziplist &zl = objectZiplist(o);
    unsigned long unseen = hashTypeLength(o);
    for (zlpos fptr = zl.index(0); count > 0; fptr = zl.next(zl.next(fptr)), unseen--) {
        if (dict_detail::random() % unseen >= count) continue;
        addReplyHashPair(c, zl.get(fptr), zl.get(zl.next(fptr)), withvalues);
        count--;
    }
}

/* A set of fields (HRANDFIELD's distinct picks). */
struct hashFieldSetMember {};
using hashFieldSet = dict<sds, hashFieldSetMember>;

/* Distinct fields of a hash table, `count` of them. */
static void hashTableReplyRandomPairsUnique(client *c, robj *o, unsigned long count, bool withvalues) {
    unsigned long size = hashTypeLength(o);
    if (count * HRANDFIELD_SUB_STRATEGY_MUL > size) {
        /* Most of the hash: copy it, then remove random fields until
         * `count` are left. */
        hashDict copy;
        copy.expand(size);
        for (auto &de : objectHashDict(o)) copy.add(de.key.dup(), de.val.dup());
        for (; size > count; size--) copy.erase(copy.fairRandomEntry()->key);
        for (auto &de : copy) addReplyHashPair(c, hashTypeValueOf(de.key), hashTypeValueOf(de.val), withvalues);
        return;
    }
    /* Few of them: draw until enough distinct ones came up, replying each
     * the first time it does. */
    hashFieldSet picked;
    picked.expand(count);
    while (picked.size() < count) {
        auto [field, value] = hashTypeRandomElement(o);
        if (!picked.addRaw(sds(field.sval))) continue;
        addReplyHashPair(c, field, value, withvalues);
    }
}

/* With a count: a positive count asks for distinct fields (at most the
 * whole hash), a negative one for -count fields that may repeat. Redis
 * 7.0's strategies, so the same request costs the same. */
static void hrandfieldWithCountCommand(client *c, long l, bool withvalues) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::empty_array);
    if (!o || checkType(c, o, OBJ_HASH)) return;
    unsigned long size = hashTypeLength(o);
    bool uniq = l >= 0;
    unsigned long count = uniq ? static_cast<unsigned long>(l) : 0UL - static_cast<unsigned long>(l);
    if (count == 0) return addReply(c, shared::empty_array);
    auto addReplyPicksLen = [c, withvalues](unsigned long n) {
        if (withvalues) addReplyPairsLen(c, static_cast<long long>(n));
        else addReplyArrayLen(c, static_cast<long long>(n));
    };

    /* Repetitions allowed (or a single field): independent draws. */
    if (!uniq || count == 1) {
        addReplyPicksLen(count);
        if (o->encoding == OBJ_ENCODING_HT) {
            for (; count > 0; count--) {
                auto [field, value] = hashTypeRandomElement(o);
                addReplyHashPair(c, field, value, withvalues);
            }
            return;
        }
        for (unsigned long batch; count > 0; count -= batch) {
            batch = std::min(count, HRANDFIELD_RANDOM_SAMPLE_LIMIT);
            ziplistReplyRandomPairs(c, o, batch, withvalues);
        }
        return;
    }

    addReplyPicksLen(std::min(count, size));
    if (count >= size) {
        for (hashTypeIterator hi(o); hashTypeNext(&hi);)
            addReplyHashPair(c, hashTypeCurrent(&hi, OBJ_HASH_KEY), hashTypeCurrent(&hi, OBJ_HASH_VALUE), withvalues);
    } else if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        ziplistReplyRandomPairsUnique(c, o, count, withvalues);
    } else {
        hashTableReplyRandomPairsUnique(c, o, count, withvalues);
    }
}

void hrandfieldCommand(client *c) {
    size_t argc = c->argv.size();
    if (argc >= 3) {
        long l;
        if (!getRangeLongFromObjectOrReply(c, c->argv[2], -LONG_MAX, LONG_MAX, &l)) return;
        bool withvalues = argc == 4;
        if (argc > 4 || (withvalues && !strEqualNoCase(c->argv[3], "withvalues")))
            return addReplyErrorObject(c, shared::syntaxerr);
        /* The reply holds 2 * count elements: that must not overflow. */
        if (withvalues && (l < -LONG_MAX / 2 || l > LONG_MAX / 2)) return addReplyError(c, "value is out of range");
        return hrandfieldWithCountCommand(c, l, withvalues);
    }
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!o || checkType(c, o, OBJ_HASH)) return;
    addReplyHashValue(c, hashTypeRandomElement(o).first);
}

/* HSCAN key cursor [MATCH pattern] [COUNT count]: a ziplist comes whole,
 * with cursor 0; a hash table is scanned as the keyspace is (db.cpp's
 * scanCollect). A missing key is an empty scan, its options unchecked. */
void hscanCommand(client *c) {
    unsigned long cursor;
    if (!parseScanCursorOrReply(c, c->argv[2], &cursor)) return;
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::emptyscan);
    if (!o || checkType(c, o, OBJ_HASH)) return;
    scanGenericCommand(c, o, cursor);
}
