/* t_set.cpp — the set type: Redis's t_set.c, two encodings behind one "Set
 * Type API", serving Redis 7.0's set commands with their options, replies
 * and error texts.
 *
 * A set created for an integer member is an intset, a sorted array of
 * integers in one buffer; it turns into a hash table when a member that is
 * not an integer is added, or when it would hold more than
 * set-max-intset-entries members, whichever command adds it (SADD, SMOVE,
 * the destination of SINTERSTORE, SUNIONSTORE, SDIFFSTORE). Invariants:
 *  - Every command goes through the Set Type API below, so no command
 *    depends on the encoding; members go from the set into the reply buffer
 *    as they are read, without being copied first.
 *  - A set emptied by a command is deleted from the keyspace by that
 *    command; a STORE command with an empty result deletes its destination.
 *  - Every write calls signalModifiedKey and adds to server.dirty as Redis
 *    does (one per member added or removed, one per stored result).
 *  - The result of SINTER, SUNION and SDIFF is built as Redis builds it (a
 *    new set that starts as an intset, the same algorithm picked for SDIFF),
 *    so a stored result has the encoding Redis would give it.
 */
#include "t_set.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "notify.h"
#include "server.h"
#include "livetrace.h"

/* ========================================================================
 * Set Type API
 * ====================================================================== */

std::string_view setTypeValueView(const setTypeValue &v, char (&buf)[LONG_STR_SIZE]) {
    if (!v.isInt) return v.sval;
    return std::string_view(buf, static_cast<size_t>(ll2string(buf, sizeof(buf), v.lval)));
}

static void addReplySetValue(client *c, const setTypeValue &v) {
    if (v.isInt) addReplyBulkLongLong(c, v.lval);
    else addReplyBulk(c, v.sval);
}

/* An intset holds at most 2^30 members whatever the configuration says:
 * past that, inserting (a memmove of the whole array) costs too much. */
static unsigned long long setMaxIntsetEntries() {
    return std::min<unsigned long long>(static_cast<unsigned long long>(server.set_max_intset_entries), 1ULL << 30);
}

encodingTrigger setEntriesOverLimit(unsigned long entries) {
    return {"entries over set-max-intset-entries", "entries", static_cast<long long>(entries),
            static_cast<long long>(setMaxIntsetEntries())};
}

/* In Redis, the set objects are created in object.c; here they are the set
 * type's, which owns setDict. */
ObjRef createIntsetObject() {
    ObjRef o = createObject(OBJ_SET, OBJ_ENCODING_INTSET, nullptr);
    new (&o->ptr) intset(); /* in the ptr slot itself */
    return o;
}

ObjRef createSetObject() {
    auto d = std::make_unique<setDict>();
    ObjRef o = createObject(OBJ_SET, OBJ_ENCODING_HT, d.get());
    d.release(); /* ptr owns it now */
    return o;
}

ObjRef setTypeCreate(std::string_view value) {
    long long ll;
    return string2ll(value, &ll) ? createIntsetObject() : createSetObject();
}

bool setTypeAdd(robj *subject, std::string_view value) {
    if (subject->encoding == OBJ_ENCODING_INTSET) {
        long long ll;
        if (string2ll(value, &ll)) {
            intset &is = objectIntset(subject);
            if (!is.add(ll)) return false;
            if (is.len() > setMaxIntsetEntries())
                setTypeConvert(subject, OBJ_ENCODING_HT, setEntriesOverLimit(is.len()));
            return true;
        }
        setTypeConvert(subject, OBJ_ENCODING_HT, {"non-integer member"});
    }
    /* Looked up before the member is copied: one already there costs no
     * allocation (Redis 7.0 copies it first, and frees the copy). */
    setDict &d = objectSetDict(subject);
    setDict::entry *existing = nullptr;
    setDict::entry **position = d.findPositionForInsert(value, &existing);
    if (!position) return false;
    d.insertAtPosition(sds(value), position);
    return true;
}

bool setTypeRemove(robj *subject, std::string_view value) {
    if (subject->encoding == OBJ_ENCODING_INTSET) {
        long long ll;
        return string2ll(value, &ll) && objectIntset(subject).remove(ll);
    }
    setDict &d = objectSetDict(subject);
    if (!d.erase(value)) return false;
    /* A set that shrank a lot gives its buckets back now: sets are not
     * visited by serverCron's resizing, which only looks at the keyspace. */
    if (d.needsShrink()) d.resizeToFit();
    return true;
}

bool setTypeIsMember(robj *subject, std::string_view value) {
    if (subject->encoding == OBJ_ENCODING_INTSET) {
        long long ll;
        return string2ll(value, &ll) && objectIntset(subject).find(ll);
    }
    return objectSetDict(subject).find(value) != nullptr;
}

/* Membership of a member read from another set: intset to intset needs no
 * printing nor parsing. */
static bool setTypeIsMemberValue(robj *subject, const setTypeValue &v) {
    if (v.isInt && subject->encoding == OBJ_ENCODING_INTSET) return objectIntset(subject).find(v.lval);
    char buf[LONG_STR_SIZE];
    return setTypeIsMember(subject, setTypeValueView(v, buf));
}

static bool setTypeAddValue(robj *subject, const setTypeValue &v) {
    char buf[LONG_STR_SIZE];
    return setTypeAdd(subject, setTypeValueView(v, buf));
}

/* `v` may be a member of this very set (SPOP): a hash table member is
 * compared while it is still in the table, then freed. */
static bool setTypeRemoveValue(robj *subject, const setTypeValue &v) {
    if (v.isInt && subject->encoding == OBJ_ENCODING_INTSET) return objectIntset(subject).remove(v.lval);
    char buf[LONG_STR_SIZE];
    return setTypeRemove(subject, setTypeValueView(v, buf));
}

unsigned long setTypeSize(const robj *subject) {
    if (subject->encoding == OBJ_ENCODING_INTSET) return objectIntset(subject).len();
    return objectSetDict(subject).size();
}

setTypeValue setTypeRandomElement(robj *subject) {
    setTypeValue v;
    if (subject->encoding == OBJ_ENCODING_INTSET) {
        v.isInt = true;
        v.lval = objectIntset(subject).random();
    } else {
        v.sval = objectSetDict(subject).fairRandomEntry()->key;
    }
    return v;
}

/* intset -> hash table, the only conversion there is, for good: a set
 * whose size hovers around the limit would otherwise copy every member
 * each time it crosses it. The table is sized for every member at once. */
void setTypeConvert(robj *subject, unsigned enc, const encodingTrigger &why) {
    assert(subject->type == OBJ_SET && subject->encoding == OBJ_ENCODING_INTSET && enc == OBJ_ENCODING_HT);
    if (traceOn(TRACE_ENCODING)) traceEncodingConversion("setTypeConvert", subject, enc, why);
    auto d = std::make_unique<setDict>();
    intset &is = objectIntset(subject);
    d->expand(is.len());
    char buf[LONG_STR_SIZE];
    int64_t ll;
    for (uint32_t pos = 0; is.get(pos, &ll); pos++)
        d->addRaw(sds(std::string_view(buf, static_cast<size_t>(ll2string(buf, sizeof(buf), ll)))));
    is.~intset();
    subject->ptr = d.release();
    subject->encoding = OBJ_ENCODING_HT;
}

/* A deep copy in the same encoding. */
ObjRef setTypeDup(const robj *o) {
    assert(o->type == OBJ_SET);
    if (o->encoding == OBJ_ENCODING_INTSET) {
        ObjRef copy = createIntsetObject();
        objectIntset(copy.get()) = objectIntset(o).dup();
        return copy;
    }
    ObjRef copy = createSetObject();
    setDict &src = objectSetDict(o), &dst = objectSetDict(copy.get());
    dst.expand(src.size());
    for (auto &de : src) dst.addRaw(de.key.dup());
    return copy;
}

/* ---- the set's row of the types' operations (object.h) ----------------- */

static void freeSetObject(robj *o) {
    if (o->encoding == OBJ_ENCODING_INTSET) objectIntset(o).~intset();
    else delete &objectSetDict(o);
}

static size_t setObjectComputeSize(const robj *o, size_t samples) {
    if (o->encoding == OBJ_ENCODING_INTSET)
        return malloc_usable_size(const_cast<unsigned char *>(objectIntset(o).data()));
    return dictComputeSize(objectSetDict(o), samples,
                           [](setDict::entry &de) { return malloc_usable_size(&de) + de.key.allocSize(); });
}

/* SSCAN: an intset is returned whole, with cursor 0. */
static unsigned long setTypeScan(robj *o, unsigned long cursor, long count, std::vector<sds> &items) {
    if (o->encoding == OBJ_ENCODING_HT)
        return scanDict(objectSetDict(o), cursor, count, items,
                        [](setDict::entry &de, std::vector<sds> &out) { out.push_back(de.key.dup()); });
    setTypeIterator si(o);
    setTypeValue v;
    char buf[LONG_STR_SIZE];
    while (setTypeNext(&si, &v)) items.emplace_back(setTypeValueView(v, buf));
    return 0;
}

const objectType setObjectType = {.free = freeSetObject,
                                  .dup = setTypeDup,
                                  .computeSize = setObjectComputeSize,
                                  .scan = setTypeScan,
                                  .scan_pairs = false,
                                  .freeEffort = setTypeSize};

/* ---- iterating --------------------------------------------------------- */

setTypeIterator::setTypeIterator(robj *subject) : subject_(subject), encoding_(subject->encoding) {
    if (encoding_ == OBJ_ENCODING_HT) new (&di_) setDict::iterator(objectSetDict(subject).safe().begin());
}

setTypeIterator::~setTypeIterator() {
    if (encoding_ == OBJ_ENCODING_HT) di_.~iterator();
}

bool setTypeNext(setTypeIterator *si, setTypeValue *v) {
    assert(si->subject_->encoding == si->encoding_); /* no conversion while iterating */
    if (si->encoding_ == OBJ_ENCODING_INTSET) {
        int64_t ll;
        if (!objectIntset(si->subject_).get(si->ii_, &ll)) return false;
        si->ii_++;
        v->isInt = true;
        v->lval = ll;
        return true;
    }
    if (si->di_ == std::default_sentinel) return false;
    v->isInt = false;
    v->sval = si->di_->key;
    ++si->di_;
    return true;
}

/* ========================================================================
 * Shared by the commands
 * ====================================================================== */

/* A new, empty set under `key`, suited to its first member `value`. */
static robj *createSetInKeyspace(client *c, std::string_view key, std::string_view value) {
    ObjRef created = setTypeCreate(value);
    robj *o = created.get();
    dbAdd(c->db, key, std::move(created));
    return o;
}

/* Every member in the set's order, under the header `addLen` writes: a
 * set (RESP3's "~") for SPOP and SUNION/SDIFF, an array for SRANDMEMBER. */
static void addReplySetMembers(client *c, robj *set, void (*addLen)(client *, long long) = addReplySetLen) {
    addLen(c, static_cast<long long>(setTypeSize(set)));
    setTypeIterator si(set);
    setTypeValue v;
    while (setTypeNext(&si, &v)) addReplySetValue(c, v);
}

/* The end of SINTERSTORE, SUNIONSTORE and SDIFFSTORE (`event`, the
 * command's name): the result replaces whatever `dstkey` held (its TTL
 * too), or, when empty, deletes it. */
static void setStoreResult(client *c, std::string_view dstkey, ObjRef result, const char *event) {
    unsigned long size = setTypeSize(result.get());
    if (size > 0) {
        setKey(c, c->db, dstkey, std::move(result), 0);
        notifyKeyspaceEvent(NOTIFY_SET, event, dstkey, c->db->id);
        addReplyLongLong(c, static_cast<long long>(size));
        server.dirty++;
    } else {
        addReply(c, shared::czero);
        if (dbDelete(c->db, dstkey)) {
            signalModifiedKey(c, c->db, dstkey);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", dstkey, c->db->id);
            server.dirty++;
        }
    }
}

/* ========================================================================
 * Adding, removing, moving
 * ====================================================================== */

/* SADD key member [member ...] */
void saddCommand(client *c) {
    std::string_view key = c->argv[1];
    robj *set = lookupKeyWrite(c->db, key);
    if (checkType(c, set, OBJ_SET)) return;
    if (!set) set = createSetInKeyspace(c, key, c->argv[2]);
    long long added = 0;
    for (size_t j = 2; j < c->argv.size(); j++)
        if (setTypeAdd(set, c->argv[j])) added++;
    if (added) {
        signalModifiedKey(c, c->db, key);
        notifyKeyspaceEvent(NOTIFY_SET, "sadd", key, c->db->id);
    }
    server.dirty += added;
    addReplyLongLong(c, added);
}

/* SREM key member [member ...]: stops at the member that empties the set,
 * which is then deleted. */
void sremCommand(client *c) { removeElementsGenericCommand(c, OBJ_SET, setTypeRemove, setTypeSize); }

/* SMOVE source destination member: 1 if the member was in the source. A
 * missing source answers 0 before any type is checked; a set moved onto
 * itself only tells whether the member is there. */
void smoveCommand(client *c) {
    std::string_view srckey = c->argv[1], dstkey = c->argv[2], ele = c->argv[3];
    robj *srcset = lookupKeyWrite(c->db, srckey);
    robj *dstset = lookupKeyWrite(c->db, dstkey);
    if (!srcset) return addReply(c, shared::czero);
    if (checkType(c, srcset, OBJ_SET) || checkType(c, dstset, OBJ_SET)) return;
    if (srcset == dstset) return addReply(c, setTypeIsMember(srcset, ele) ? shared::cone : shared::czero);
    if (!setTypeRemove(srcset, ele)) return addReply(c, shared::czero);
    notifyKeyspaceEvent(NOTIFY_SET, "srem", srckey, c->db->id);

    if (setTypeSize(srcset) == 0) {
        dbDelete(c->db, srckey);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", srckey, c->db->id);
    }
    signalModifiedKey(c, c->db, srckey);
    server.dirty++;
    if (!dstset) dstset = createSetInKeyspace(c, dstkey, ele);
    if (setTypeAdd(dstset, ele)) {
        server.dirty++;
        notifyKeyspaceEvent(NOTIFY_SET, "sadd", dstkey, c->db->id);
    }
    signalModifiedKey(c, c->db, dstkey);
    addReply(c, shared::cone);
}

/* ========================================================================
 * Reading
 * ====================================================================== */

void scardCommand(client *c) {
    robj *set = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!set || checkType(c, set, OBJ_SET)) return;
    addReplyLongLong(c, static_cast<long long>(setTypeSize(set)));
}

void sismemberCommand(client *c) {
    robj *set = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!set || checkType(c, set, OBJ_SET)) return;
    addReply(c, setTypeIsMember(set, c->argv[2]) ? shared::cone : shared::czero);
}

/* SMISMEMBER key member [member ...]: a missing key is an empty set. */
void smismemberCommand(client *c) {
    robj *set = lookupKeyRead(c->db, c->argv[1]);
    if (checkType(c, set, OBJ_SET)) return;
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2));
    for (size_t j = 2; j < c->argv.size(); j++)
        addReply(c, set && setTypeIsMember(set, c->argv[j]) ? shared::cone : shared::czero);
}

/* SSCAN key cursor [MATCH pattern] [COUNT count]: an intset is returned
 * whole, with cursor 0 (db.cpp's scanCollect). */
void sscanCommand(client *c) {
    unsigned long cursor;
    if (!parseScanCursorOrReply(c, c->argv[2], &cursor)) return;
    robj *set = lookupKeyReadOrReply(c, c->argv[1], shared::emptyscan);
    if (!set || checkType(c, set, OBJ_SET)) return;
    scanGenericCommand(c, set, cursor);
}

/* ========================================================================
 * Random members: SPOP, SRANDMEMBER
 * ====================================================================== */

/* SPOP with a count asking for less than this fraction of what stays in
 * the set pops members one at a time; above it, it draws the members that
 * stay into a new set instead (Redis's SPOP_MOVE_STRATEGY_MUL). */
constexpr unsigned long SPOP_MOVE_STRATEGY_MUL = 5;

/* A popped member reaches the AOF as the SREM that removes it: replaying
 * SPOP would draw other members. */
static void propagateSpopMember(client *c, std::string_view key, const setTypeValue &v) {
    char buf[LONG_STR_SIZE];
    alsoPropagate(c->db->id, {"SREM", key, setTypeValueView(v, buf)});
}

/* SPOP key count, count >= 1 and below the set's size. Each member popped
 * is propagated as its own SREM (in the MULTI of the unit), as Redis 7.0. */
static void spopSomeMembers(client *c, std::string_view key, robj *set, unsigned long count) {
    unsigned long remaining = setTypeSize(set) - count;
    addReplySetLen(c, static_cast<long long>(count));
    preventCommandPropagation(c);
    if (remaining * SPOP_MOVE_STRATEGY_MUL > count) {
        /* Few to pop: pop them at random. */
        while (count--) {
            setTypeValue v = setTypeRandomElement(set);
            addReplySetValue(c, v);
            propagateSpopMember(c, key, v);
            setTypeRemoveValue(set, v);
        }
        return;
    }
    /* Few to keep: move the keepers, drawn at random, into a new set (the
     * first one decides its encoding, as for any new set), reply what is
     * left in the old one, and let the new one take its place. */
    ObjRef newset;
    while (remaining--) {
        setTypeValue v = setTypeRandomElement(set);
        char buf[LONG_STR_SIZE];
        std::string_view member = setTypeValueView(v, buf);
        if (!newset) newset = setTypeCreate(member);
        setTypeAdd(newset.get(), member);
        setTypeRemoveValue(set, v);
    }
    {
        setTypeIterator si(set);
        setTypeValue v;
        while (setTypeNext(&si, &v)) {
            addReplySetValue(c, v);
            propagateSpopMember(c, key, v);
        }
    }
    dbOverwrite(c->db, key, std::move(newset));
}

/* SPOP key [count] */
void spopCommand(client *c) {
    if (c->argv.size() > 3) return addReplyErrorObject(c, shared::syntaxerr);
    std::string_view key = c->argv[1];
    bool hascount = c->argv.size() == 3;
    long count = 1;
    if (hascount && !getPositiveLongFromObjectOrReply(c, c->argv[2], &count)) return;
    robj *set = lookupKeyWrite(c->db, key);
    if (!set) return hascount ? addReplySetLen(c, 0) : addReplyNull(c);
    if (checkType(c, set, OBJ_SET)) return;
    if (count == 0) return addReplySetLen(c, 0);

    unsigned long size = setTypeSize(set), popped = std::min(static_cast<unsigned long>(count), size);
    if (!hascount) {
        setTypeValue v = setTypeRandomElement(set);
        addReplySetValue(c, v);
        char buf[LONG_STR_SIZE];
        rewriteClientCommandVector(c, {"SREM", key, setTypeValueView(v, buf)});
        setTypeRemoveValue(set, v);
    } else if (popped == size) {
        addReplySetMembers(c, set);
        rewriteClientCommandVector(c, {"DEL", key});
    } else {
        spopSomeMembers(c, key, set, popped);
    }
    notifyKeyspaceEvent(NOTIFY_SET, "spop", key, c->db->id);
    if (popped == size) {
        dbDelete(c->db, key);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
    }
    signalModifiedKey(c, c->db, key);
    server.dirty += static_cast<long long>(popped);
}

/* SRANDMEMBER with a count of distinct members that is at least this
 * fraction of the set copies the set and removes members at random rather
 * than drawing them (Redis's SRANDMEMBER_SUB_STRATEGY_MUL). */
constexpr unsigned long SRANDMEMBER_SUB_STRATEGY_MUL = 3;

/* `count` distinct members (1 < count < size), drawn into a scratch set. */
static void srandmemberDistinct(client *c, robj *set, unsigned long count) {
    unsigned long size = setTypeSize(set);
    setDict picked;
    char buf[LONG_STR_SIZE];
    if (count * SRANDMEMBER_SUB_STRATEGY_MUL > size) {
        /* Nearly all of them: copy the set, then drop members at random. */
        picked.expand(size);
        setTypeIterator si(set);
        setTypeValue v;
        while (setTypeNext(&si, &v)) picked.addRaw(sds(setTypeValueView(v, buf)));
        for (; size > count; size--) picked.erase(picked.fairRandomEntry()->key);
    } else {
        /* Few of them: draw until enough distinct ones came up. */
        while (picked.size() < count) picked.addRaw(sds(setTypeValueView(setTypeRandomElement(set), buf)));
    }
    addReplyArrayLen(c, static_cast<long long>(count));
    for (auto &de : picked) addReplyBulk(c, de.key);
}

/* SRANDMEMBER key count: count distinct members, or with a negative count
 * -count members drawn independently (so maybe repeated). */
static void srandmemberWithCountCommand(client *c) {
    long l;
    if (!getRangeLongFromObjectOrReply(c, c->argv[2], -LONG_MAX, LONG_MAX, &l)) return;
    bool distinct = l >= 0;
    unsigned long count = distinct ? static_cast<unsigned long>(l) : static_cast<unsigned long>(-l);
    robj *set = lookupKeyReadOrReply(c, c->argv[1], shared::empty_array);
    if (!set || checkType(c, set, OBJ_SET)) return;
    if (count == 0) return addReply(c, shared::empty_array);

    if (!distinct || count == 1) {
        addReplyArrayLen(c, static_cast<long long>(count));
        while (count--) addReplySetValue(c, setTypeRandomElement(set));
    } else if (count >= setTypeSize(set)) {
        addReplySetMembers(c, set, addReplyArrayLen);
    } else {
        srandmemberDistinct(c, set, count);
    }
}

/* SRANDMEMBER key [count] */
void srandmemberCommand(client *c) {
    if (c->argv.size() > 3) return addReplyErrorObject(c, shared::syntaxerr);
    if (c->argv.size() == 3) return srandmemberWithCountCommand(c);
    robj *set = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!set || checkType(c, set, OBJ_SET)) return;
    addReplySetValue(c, setTypeRandomElement(set));
}

/* ========================================================================
 * Intersection, union, difference
 * ====================================================================== */

/* Looks up `keys` for reading, even when a result will be stored (as Redis
 * 7.0: a missing one counts as a miss and notifies "keymiss"), keeping
 * missing keys as nullptr. False, after replying WRONGTYPE, if any key
 * holds another type: every key is checked, even after a missing one. */
static bool lookupSetsOrReply(client *c, std::span<const std::string_view> keys, std::vector<robj *> &sets) {
    sets.reserve(keys.size());
    for (std::string_view key : keys) {
        robj *o = lookupKeyRead(c->db, key);
        if (checkType(c, o, OBJ_SET)) return false;
        sets.push_back(o);
    }
    return true;
}

/* The members of the smallest set that every other set holds (each member
 * of it is looked up in the others); no set is missing. Each goes to
 * `dstset`, or to the reply when there is none; with `cardinality_only`
 * they are only counted, up to `limit` (0: no limit). Returns how many
 * there were. */
static unsigned long setIntersect(client *c, std::vector<robj *> &sets, robj *dstset, bool cardinality_only,
                                  unsigned long limit) {
    std::sort(sets.begin(), sets.end(), [](robj *a, robj *b) { return setTypeSize(a) < setTypeSize(b); });
    unsigned long cardinality = 0;
    setTypeIterator si(sets[0]);
    setTypeValue v;
    while (setTypeNext(&si, &v)) {
        bool everywhere = std::all_of(sets.begin() + 1, sets.end(), [&](robj *other) {
            return other == sets[0] || setTypeIsMemberValue(other, v); /* the same key given twice */
        });
        if (!everywhere) continue;
        cardinality++;
        if (cardinality_only) {
            if (limit && cardinality >= limit) break;
        } else if (dstset) {
            setTypeAddValue(dstset, v);
        } else {
            addReplySetValue(c, v);
        }
    }
    return cardinality;
}

/* SINTER, SMEMBERS, SINTERSTORE (dstkey), SINTERCARD (cardinality_only). A
 * missing key is an empty set, so the result is empty. */
static void sinterGenericCommand(client *c, std::span<const std::string_view> keys,
                                 std::optional<std::string_view> dstkey, bool cardinality_only,
                                 unsigned long limit) {
    std::vector<robj *> sets;
    if (!lookupSetsOrReply(c, keys, sets)) return;
    bool empty = std::find(sets.begin(), sets.end(), nullptr) != sets.end();

    if (dstkey) {
        ObjRef dstset = createIntsetObject();
        if (!empty) setIntersect(c, sets, dstset.get(), false, 0);
        return setStoreResult(c, *dstkey, std::move(dstset), "sinterstore");
    }
    if (empty) return cardinality_only ? addReply(c, shared::czero) : addReplySetLen(c, 0);
    if (cardinality_only) return addReplyLongLong(c, static_cast<long long>(setIntersect(c, sets, nullptr, true, limit)));
    void *replylen = addReplyDeferredLen(c);
    setDeferredSetLen(c, replylen, static_cast<long>(setIntersect(c, sets, nullptr, false, 0)));
}

void sinterCommand(client *c) { sinterGenericCommand(c, std::span(c->argv).subspan(1), std::nullopt, false, 0); }
void smembersCommand(client *c) { sinterCommand(c); }

void sinterstoreCommand(client *c) {
    sinterGenericCommand(c, std::span(c->argv).subspan(2), c->argv[1], false, 0);
}

/* SINTERCARD numkeys key [key ...] [LIMIT limit] */
void sintercardCommand(client *c) {
    long numkeys, limit = 0;
    if (!getRangeLongFromObjectOrReply(c, c->argv[1], 1, LONG_MAX, &numkeys, "numkeys should be greater than 0"))
        return;
    size_t argc = c->argv.size();
    if (static_cast<unsigned long>(numkeys) > argc - 2)
        return addReplyError(c, "Number of keys can't be greater than number of args");
    for (size_t j = 2 + static_cast<size_t>(numkeys); j < argc; j++) {
        if (strEqualNoCase(c->argv[j], "limit") && j + 1 < argc) {
            if (!getPositiveLongFromObjectOrReply(c, c->argv[++j], &limit, "LIMIT can't be negative")) return;
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }
    sinterGenericCommand(c, std::span(c->argv).subspan(2, static_cast<size_t>(numkeys)), std::nullopt, true,
                         static_cast<unsigned long>(limit));
}

/* SDIFF: the members of sets[0] (which exists, and is none of the others)
 * found in none of the others. Two ways, picked as Redis picks them by
 * estimated work: (1) look each member of the first set up in the others,
 * biggest first so that a hit stops the lookups soonest, costing
 * size(first) per set, halved as a hit usually comes early; or (2) copy the
 * first set and remove from the copy the members of each other set,
 * costing the sum of the sizes. */
static void setDifference(std::vector<robj *> &sets, robj *dstset) {
    unsigned long long first = setTypeSize(sets[0]), algo_one_work = 0, algo_two_work = 0;
    for (robj *set : sets) {
        if (!set) continue;
        algo_one_work += first;
        algo_two_work += setTypeSize(set);
    }
    auto others = std::span(sets).subspan(1);
    if (algo_one_work / 2 <= algo_two_work) {
        std::sort(others.begin(), others.end(), [](robj *a, robj *b) {
            return (a ? setTypeSize(a) : 0) > (b ? setTypeSize(b) : 0);
        });
        setTypeIterator si(sets[0]);
        setTypeValue v;
        while (setTypeNext(&si, &v))
            if (std::none_of(others.begin(), others.end(), [&](robj *o) { return o && setTypeIsMemberValue(o, v); }))
                setTypeAddValue(dstset, v);
        return;
    }
    for (robj *set : sets) {
        if (!set) continue;
        setTypeIterator si(set);
        setTypeValue v;
        while (setTypeNext(&si, &v)) {
            if (set == sets[0]) setTypeAddValue(dstset, v);
            else setTypeRemoveValue(dstset, v);
        }
        if (setTypeSize(dstset) == 0) break;
    }
}

enum class SetOp { Union, Diff };

/* SUNION, SDIFF and their STORE forms (dstkey): the result is built in a
 * new set, then replied or stored. */
static void sunionDiffGenericCommand(client *c, std::span<const std::string_view> keys,
                                     std::optional<std::string_view> dstkey, SetOp op) {
    std::vector<robj *> sets;
    if (!lookupSetsOrReply(c, keys, sets)) return;
    ObjRef dstset = createIntsetObject();
    if (op == SetOp::Union) {
        for (robj *set : sets) {
            if (!set) continue;
            setTypeIterator si(set);
            setTypeValue v;
            while (setTypeNext(&si, &v)) setTypeAddValue(dstset.get(), v);
        }
    } else if (sets[0] && std::find(sets.begin() + 1, sets.end(), sets[0]) == sets.end()) {
        /* (A set minus itself, the same key given twice, is empty.) */
        setDifference(sets, dstset.get());
    }
    if (dstkey) return setStoreResult(c, *dstkey, std::move(dstset), op == SetOp::Union ? "sunionstore" : "sdiffstore");
    addReplySetMembers(c, dstset.get());
}

void sunionCommand(client *c) { sunionDiffGenericCommand(c, std::span(c->argv).subspan(1), std::nullopt, SetOp::Union); }
void sunionstoreCommand(client *c) {
    sunionDiffGenericCommand(c, std::span(c->argv).subspan(2), c->argv[1], SetOp::Union);
}
void sdiffCommand(client *c) { sunionDiffGenericCommand(c, std::span(c->argv).subspan(1), std::nullopt, SetOp::Diff); }
void sdiffstoreCommand(client *c) {
    sunionDiffGenericCommand(c, std::span(c->argv).subspan(2), c->argv[1], SetOp::Diff);
}
