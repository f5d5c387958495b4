/* t_zset.cpp — the sorted set type: Redis's t_zset.c (a skiplist plus a
 * dict, or a ziplist while small, behind one "Sorted Set API") serving
 * Redis 7.0's sorted-set commands, with their options, replies and error
 * texts. See t_zset.h for the encodings and their invariants.
 *
 * Invariants kept here:
 *  - Every command reads and writes through the Sorted Set API or the
 *    range walkers below, which handle both encodings; replies stream from
 *    the encoding into the reply buffer without copying the members first.
 *  - A command that empties a sorted set deletes the key; a new sorted set
 *    enters the keyspace through dbAdd (ZADD, ZINCRBY) or setKey (the
 *    *STORE commands), as in Redis, so blocked BZPOP clients are told.
 *  - Every write calls signalModifiedKey and adds to server.dirty as Redis
 *    does.
 *  - Scores are replied as Redis 7.0 prints them (addReplyDouble: "inf",
 *    integers without ".0", else 17 significant digits).
 */
#include "t_zset.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "notify.h"
#include "server.h"
#include "livetrace.h"
#include "t_list.h" /* objectZiplist, and a ziplist entry's bytes */
#include "t_set.h"  /* plain sets are valid inputs of ZUNION and friends */

/* ZRANDMEMBER's picks. Not for anything secret. */
static uint64_t zsetRandom() {
    static std::mt19937_64 generator{std::random_device{}()};
    return generator();
}

/* ========================================================================
 * The ziplist encoding (Redis 2.6's zzl* functions). `eptr` is a member's
 * position, `sptr` its score's, right after it.
 * ====================================================================== */

/* Safety limit on a ziplist's size, as Redis's ziplistSafeToAdd: offsets
 * are 32-bit. */
constexpr size_t ZIPLIST_SAFETY_SIZE = 1u << 30;

/* Scores are printed by d2string (or as integers): from_chars reads them
 * back exactly, "inf" and "-inf" included. */
static double zzlStrtod(std::string_view s) {
    double d = 0;
    std::from_chars(s.data(), s.data() + s.size(), d);
    return d;
}

double zzlGetScore(const ziplist &zl, zlpos sptr) {
    ziplistEntry v = zl.get(sptr);
    return v.isInt ? static_cast<double>(v.lval) : zzlStrtod(v.sval);
}

/* Redis 7.0's double2ll: an integral double within +-2^62 converts to the
 * same long long. */
static bool double2ll(double d, long long *out) {
    if (d < static_cast<double>(-LLONG_MAX / 2) || d > static_cast<double>(LLONG_MAX / 2)) return false;
    auto ll = static_cast<long long>(d);
    if (static_cast<double>(ll) != d) return false;
    *out = ll;
    return true;
}

/* How a score is written into the ziplist: as an integer when it is one
 * (the ziplist then stores it in 1 to 8 bytes; -0 becomes 0), else as
 * d2string's text. */
static std::string_view zzlScoreString(double score, char (&buf)[MAX_D2STRING_CHARS]) {
    long long ll;
    int len = double2ll(score, &ll) ? ll2string(buf, sizeof(buf), ll) : d2string(buf, sizeof(buf), score);
    return {buf, static_cast<size_t>(len)};
}

/* A member's bytes (an integer is printed into buf). */
static std::string_view zzlMember(const ziplist &zl, zlpos eptr, char (&buf)[LONG_STR_SIZE]) {
    return listTypeValueView(zl.get(eptr), buf);
}

static unsigned long zzlLength(const ziplist &zl) { return zl.len() / 2; }

/* The score of the member at eptr (none for none). */
static zlpos zzlScoreOf(const ziplist &zl, zlpos eptr) { return eptr ? zl.next(eptr) : zlpos{}; }

static void zzlNext(const ziplist &zl, zlpos *eptr, zlpos *sptr) {
    *eptr = zl.next(*sptr);
    *sptr = zzlScoreOf(zl, *eptr);
}

static void zzlPrev(const ziplist &zl, zlpos *eptr, zlpos *sptr) {
    *sptr = zl.prev(*eptr);
    *eptr = *sptr ? zl.prev(*sptr) : zlpos{};
}

/* The member's position, and its score in *score; none if absent. */
static zlpos zzlFind(const ziplist &zl, std::string_view ele, double *score) {
    for (zlpos eptr = zl.index(0); eptr; eptr = zl.next(zl.next(eptr))) {
        if (!zl.compare(eptr, ele)) continue;
        if (score) *score = zzlGetScore(zl, zl.next(eptr));
        return eptr;
    }
    return {};
}

/* Removes a member and its score; returns the next member's position. */
static zlpos zzlDelete(ziplist &zl, zlpos eptr) { return zl.deleteEntry(zl.deleteEntry(eptr)); }

/* Inserts (ele, score) before the member at eptr, or at the tail. */
static void zzlInsertAt(ziplist &zl, zlpos eptr, std::string_view ele, double score) {
    char buf[MAX_D2STRING_CHARS];
    std::string_view scorestr = zzlScoreString(score, buf);
    if (!eptr) {
        zl.push(ele, ZIPLIST_TAIL);
        zl.push(scorestr, ZIPLIST_TAIL);
        return;
    }
    zl.insert(eptr, ele);                /* the member is at eptr now... */
    zl.insert(zl.next(eptr), scorestr);  /* ...and its score right after it */
}

/* At its place: before the first element with a greater score, or an equal
 * score and a greater member. */
static void zzlInsert(ziplist &zl, std::string_view ele, double score) {
    char buf[LONG_STR_SIZE];
    zlpos eptr = zl.index(0);
    for (zlpos sptr; eptr; eptr = zl.next(sptr)) {
        sptr = zl.next(eptr);
        double s = zzlGetScore(zl, sptr);
        if (s > score || (s == score && zzlMember(zl, eptr, buf) > ele)) break;
    }
    zzlInsertAt(zl, eptr, ele, score);
}

encodingTrigger zsetEntriesOverLimit(unsigned long entries) {
    return {"entries over zset-max-ziplist-entries", "entries", static_cast<long long>(entries),
            server.zset_max_ziplist_entries};
}

encodingTrigger zsetValueOverLimit(size_t len) {
    return {"value over zset-max-ziplist-value", "value_len", static_cast<long long>(len),
            server.zset_max_ziplist_value};
}

/* Which limit the ziplist would go over with `ele` added: a reason of
 * nullptr when none, it has room. */
static encodingTrigger zzlOverflowWith(const ziplist &zl, std::string_view ele) {
    if (zzlLength(zl) + 1 > static_cast<unsigned long long>(server.zset_max_ziplist_entries))
        return zsetEntriesOverLimit(zzlLength(zl) + 1);
    if (ele.size() > static_cast<unsigned long long>(server.zset_max_ziplist_value))
        return zsetValueOverLimit(ele.size());
    if (size_t bytes = zl.blobLen() + ele.size(); bytes > ZIPLIST_SAFETY_SIZE)
        return {"ziplist over its safety size", "bytes", static_cast<long long>(bytes),
                static_cast<long long>(ZIPLIST_SAFETY_SIZE)};
    return {nullptr};
}

static bool zzlGteMin(const ziplist &zl, zlpos eptr, const zrangespec &r) {
    return zslValueGteMin(zzlGetScore(zl, zl.next(eptr)), r);
}
static bool zzlLteMax(const ziplist &zl, zlpos eptr, const zrangespec &r) {
    return zslValueLteMax(zzlGetScore(zl, zl.next(eptr)), r);
}
static bool zzlGteMin(const ziplist &zl, zlpos eptr, const zlexrangespec &r) {
    char buf[LONG_STR_SIZE];
    return zslLexValueGteMin(zzlMember(zl, eptr, buf), r);
}
static bool zzlLteMax(const ziplist &zl, zlpos eptr, const zlexrangespec &r) {
    char buf[LONG_STR_SIZE];
    return zslLexValueLteMax(zzlMember(zl, eptr, buf), r);
}

/* zzlIsInRange: the last element reaches min and the first reaches max. */
template <typename Range>
static bool zzlIsInAnyRange(const ziplist &zl, const Range &range) {
    if (zslRangeIsEmpty(range)) return false;
    zlpos last = zl.index(-2), first = zl.index(0);
    return last && zzlGteMin(zl, last, range) && zzlLteMax(zl, first, range);
}

template <typename Range>
static zlpos zzlFirstInAnyRange(const ziplist &zl, const Range &range) {
    if (!zzlIsInAnyRange(zl, range)) return {};
    for (zlpos eptr = zl.index(0); eptr; eptr = zl.next(zl.next(eptr)))
        if (zzlGteMin(zl, eptr, range)) return zzlLteMax(zl, eptr, range) ? eptr : zlpos{};
    return {};
}

template <typename Range>
static zlpos zzlLastInAnyRange(const ziplist &zl, const Range &range) {
    if (!zzlIsInAnyRange(zl, range)) return {};
    for (zlpos eptr = zl.index(-2); eptr;) {
        if (zzlLteMax(zl, eptr, range)) return zzlGteMin(zl, eptr, range) ? eptr : zlpos{};
        zlpos sptr = zl.prev(eptr);
        eptr = sptr ? zl.prev(sptr) : zlpos{};
    }
    return {};
}

template <typename Range>
static unsigned long zzlDeleteRangeInAny(ziplist &zl, const Range &range) {
    unsigned long deleted = 0;
    for (zlpos eptr = zzlFirstInAnyRange(zl, range); eptr && zzlLteMax(zl, eptr, range); deleted++)
        eptr = zzlDelete(zl, eptr);
    return deleted;
}

/* ========================================================================
 * The Sorted Set API
 * ====================================================================== */

unsigned long zsetLength(const robj *zobj) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) return zzlLength(objectZiplist(zobj));
    return objectZset(zobj).zsl.length;
}

/* A member known to be absent goes into both halves of a skiplist zset. */
static void zsetInsertNew(zset &zs, double score, std::string_view ele) {
    zskiplistNode *node = zslInsert(&zs.zsl, score, ele);
    zs.dict.add(zsetDictKey{node}, zsetDictNoValue{});
}

/* ziplist -> skiplist when a set outgrows its ziplist; skiplist -> ziplist
 * only for a result built whole that turns out small (never for a sorted
 * set in use: as Redis 2.6's lists, a set hovering around the limits would
 * otherwise convert back and forth). */
void zsetConvert(robj *zobj, unsigned encoding, const encodingTrigger &why) {
    assert(zobj->type == OBJ_ZSET && zobj->encoding != encoding);
    if (traceOn(TRACE_ENCODING)) traceEncodingConversion("zsetConvert", zobj, encoding, why);
    if (encoding == OBJ_ENCODING_SKIPLIST) {
        auto zs = std::make_unique<zset>();
        const ziplist &zl = objectZiplist(zobj);
        char buf[LONG_STR_SIZE];
        for (zlpos eptr = zl.index(0), sptr = zzlScoreOf(zl, eptr); eptr; zzlNext(zl, &eptr, &sptr))
            zsetInsertNew(*zs, zzlGetScore(zl, sptr), zzlMember(zl, eptr, buf));
        objectZiplist(zobj).~ziplist();
        zobj->ptr = zs.release();
        zobj->encoding = OBJ_ENCODING_SKIPLIST;
        return;
    }
    std::unique_ptr<zset> zs(&objectZset(zobj));
    ziplist zl;
    for (zskiplistNode *node = zs->zsl.header->level[0].forward; node; node = node->level[0].forward)
        zzlInsertAt(zl, {}, node->ele(), node->score);
    new (&zobj->ptr) ziplist(std::move(zl));
    zobj->encoding = OBJ_ENCODING_ZIPLIST;
}

void zsetConvertToZiplistIfNeeded(robj *zobj, size_t maxelelen) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) return;
    unsigned long entries = objectZset(zobj).zsl.length;
    if (entries <= static_cast<unsigned long long>(server.zset_max_ziplist_entries) &&
        maxelelen <= static_cast<unsigned long long>(server.zset_max_ziplist_value))
        zsetConvert(zobj, OBJ_ENCODING_ZIPLIST,
                    {"within zset-max-ziplist-entries and zset-max-ziplist-value", "entries",
                     static_cast<long long>(entries), server.zset_max_ziplist_entries});
}

/* For a member already there with `curscore`: may ZADD's flags update it,
 * and to which score (*score, incremented for INCR)? Reports NOP or NAN. */
static bool zsetUpdateAllowed(int in_flags, double curscore, double *score, int *out_flags) {
    if (in_flags & ZADD_IN_NX) {
        *out_flags |= ZADD_OUT_NOP;
        return false;
    }
    if (in_flags & ZADD_IN_INCR) {
        *score += curscore;
        if (std::isnan(*score)) { /* inf + -inf */
            *out_flags |= ZADD_OUT_NAN;
            return false;
        }
    }
    if (((in_flags & ZADD_IN_LT) && *score >= curscore) || ((in_flags & ZADD_IN_GT) && *score <= curscore)) {
        *out_flags |= ZADD_OUT_NOP;
        return false;
    }
    return true;
}

bool zsetAdd(robj *zobj, double score, std::string_view ele, int in_flags, int *out_flags, double *newscore) {
    *out_flags = 0;
    if (std::isnan(score)) {
        *out_flags = ZADD_OUT_NAN;
        return false;
    }
    bool xx = in_flags & ZADD_IN_XX;
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        ziplist &zl = objectZiplist(zobj);
        double curscore;
        if (zlpos eptr = zzlFind(zl, ele, &curscore)) {
            if (!zsetUpdateAllowed(in_flags, curscore, &score, out_flags)) return !(*out_flags & ZADD_OUT_NAN);
            if (score != curscore) { /* a different place, maybe */
                zzlDelete(zl, eptr);
                zzlInsert(zl, ele, score);
                *out_flags |= ZADD_OUT_UPDATED;
            }
        } else if (xx) {
            *out_flags |= ZADD_OUT_NOP;
            return true;
        } else if (encodingTrigger overflow = zzlOverflowWith(zl, ele); !overflow.reason) {
            zzlInsert(zl, ele, score);
            *out_flags |= ZADD_OUT_ADDED;
        } else {
            zsetConvert(zobj, OBJ_ENCODING_SKIPLIST, overflow);
            zsetInsertNew(objectZset(zobj), score, ele);
            *out_flags |= ZADD_OUT_ADDED;
        }
    } else {
        zset &zs = objectZset(zobj);
        if (zsetDict::entry *de = zs.dict.find(ele)) {
            double curscore = de->key.node->score;
            if (!zsetUpdateAllowed(in_flags, curscore, &score, out_flags)) return !(*out_flags & ZADD_OUT_NAN);
            if (score != curscore) {
                zslUpdateScore(&zs.zsl, curscore, ele, score);
                *out_flags |= ZADD_OUT_UPDATED;
            }
        } else if (xx) {
            *out_flags |= ZADD_OUT_NOP;
            return true;
        } else {
            zsetInsertNew(zs, score, ele);
            *out_flags |= ZADD_OUT_ADDED;
        }
    }
    if (newscore) *newscore = score;
    return true;
}

/* `ele` may be a view of the member inside the node being removed: it is
 * read for the last time before the node is freed. */
static bool zsetRemoveFromSkiplist(zset &zs, std::string_view ele) {
    std::unique_ptr<zsetDict::entry> de = zs.dict.unlink(ele);
    if (!de) return false;
    zskiplistNode *node = de->key.node;
    bool deleted = zslDelete(&zs.zsl, node->score, ele);
    assert(deleted);
    (void)deleted;
    return true;
}

bool zsetDel(robj *zobj, std::string_view ele) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        ziplist &zl = objectZiplist(zobj);
        zlpos eptr = zzlFind(zl, ele, nullptr);
        if (!eptr) return false;
        zzlDelete(zl, eptr);
        return true;
    }
    zset &zs = objectZset(zobj);
    if (!zsetRemoveFromSkiplist(zs, ele)) return false;
    /* A table mostly empty after mass deletions shrinks (htNeedsResize). */
    if (zs.dict.needsShrink()) zs.dict.resizeToFit();
    return true;
}

bool zsetScore(robj *zobj, std::string_view ele, double *score) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) return static_cast<bool>(zzlFind(objectZiplist(zobj), ele, score));
    zsetDict::entry *de = objectZset(zobj).dict.find(ele);
    if (!de) return false;
    *score = de->key.node->score;
    return true;
}

long zsetRank(robj *zobj, std::string_view ele, bool reverse) {
    long llen = static_cast<long>(zsetLength(zobj));
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(zobj);
        long rank = 1;
        for (zlpos eptr = zl.index(0); eptr; eptr = zl.next(zl.next(eptr)), rank++)
            if (zl.compare(eptr, ele)) return reverse ? llen - rank : rank - 1;
        return -1;
    }
    zset &zs = objectZset(zobj);
    zsetDict::entry *de = zs.dict.find(ele);
    if (!de) return -1;
    long rank = static_cast<long>(zslGetRank(&zs.zsl, de->key.node->score, ele));
    assert(rank != 0);
    return reverse ? llen - rank : rank - 1;
}

/* A deep copy in the same encoding. */
ObjRef zsetDup(const robj *o) {
    assert(o->type == OBJ_ZSET);
    if (o->encoding == OBJ_ENCODING_ZIPLIST) return dupZiplistObject(o);
    ObjRef copy = createZsetObject();
    zset &dst = objectZset(copy.get());
    for (zskiplistNode *node = objectZset(o).zsl.header->level[0].forward; node; node = node->level[0].forward)
        zsetInsertNew(dst, node->score, node->ele());
    return copy;
}

void zsetForEachInScoreRange(robj *zobj, const zrangespec &range, zsetRangeProc proc, void *ctx) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(zobj);
        char buf[LONG_STR_SIZE];
        zlpos eptr = zzlFirstInAnyRange(zl, range), sptr = zzlScoreOf(zl, eptr);
        for (; eptr; zzlNext(zl, &eptr, &sptr)) {
            double score = zzlGetScore(zl, sptr);
            if (!zslValueLteMax(score, range) || !proc(ctx, zzlMember(zl, eptr, buf), score)) return;
        }
        return;
    }
    for (zskiplistNode *ln = zslFirstInRange(&objectZset(zobj).zsl, range); ln; ln = ln->level[0].forward)
        if (!zslValueLteMax(ln->score, range) || !proc(ctx, ln->ele(), ln->score)) return;
}

/* ---- the sorted set's row of the types' operations (object.h) ---------- */

static void freeZsetObject(robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) objectZiplist(o).~ziplist();
    else delete &objectZset(o);
}

/* A skiplist sorted set: the zset block (dictComputeSize measures it at the
 * dict's address, its first member), the header node, the dict's buckets
 * and entries and the nodes, which hold the members. */
static size_t zsetObjectComputeSize(const robj *o, size_t samples) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST)
        return malloc_usable_size(const_cast<unsigned char *>(objectZiplist(o).data()));
    zset &zs = objectZset(o);
    return malloc_usable_size(zs.zsl.header) + dictComputeSize(zs.dict, samples, [](zsetDict::entry &de) {
               return malloc_usable_size(&de) + malloc_usable_size(de.key.node);
           });
}

/* ZSCAN: members and scores. A ziplist is returned whole, with cursor 0,
 * members and scores as stored (a whole score as an integer), as Redis 7
 * returns them from its listpack. */
static unsigned long zsetScan(robj *o, unsigned long cursor, long count, std::vector<sds> &items) {
    char buf[MAX_D2STRING_CHARS];
    if (o->encoding == OBJ_ENCODING_SKIPLIST)
        return scanDict(objectZset(o).dict, cursor, count, items, [&buf](zsetDict::entry &de, std::vector<sds> &out) {
            out.emplace_back(de.key.node->ele());
            out.emplace_back(std::string_view(buf, d2string(buf, sizeof(buf), de.key.node->score)));
        });
    const ziplist &zl = objectZiplist(o);
    char entrybuf[LONG_STR_SIZE];
    for (zlpos p = zl.index(0); p; p = zl.next(p)) items.emplace_back(listTypeValueView(zl.get(p), entrybuf));
    return 0;
}

const objectType zsetObjectType = {.free = freeZsetObject,
                                   .dup = zsetDup,
                                   .computeSize = zsetObjectComputeSize,
                                   .scan = zsetScan,
                                   .scan_pairs = true,
                                   .freeEffort = zsetLength};

/* ========================================================================
 * Shared by the commands
 * ====================================================================== */

/* A new, empty sorted set under `key`, to be filled right after: a ziplist
 * unless the first member already rules it out (Redis 7.0's ZADD looks at
 * the first member only; later ones convert as they come). */
static robj *zsetCreateInKeyspace(client *c, std::string_view key, std::string_view first_member) {
    bool big = server.zset_max_ziplist_entries == 0 ||
               first_member.size() > static_cast<unsigned long long>(server.zset_max_ziplist_value);
    ObjRef created = big ? createZsetObject() : createZsetZiplistObject();
    robj *o = created.get();
    dbAdd(c->db, key, std::move(created));
    return o;
}

/* What every command that removed members does last: its event, then an
 * emptied sorted set leaves the keyspace. */
static void zsetElementsRemoved(client *c, std::string_view key, robj *zobj, unsigned long removed,
                                const char *event) {
    if (!removed) return;
    notifyKeyspaceEvent(NOTIFY_ZSET, event, key, c->db->id);
    if (zsetLength(zobj) == 0) {
        dbDelete(c->db, key);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
    }
    signalModifiedKey(c, c->db, key);
    server.dirty += static_cast<long long>(removed);
}

/* ========================================================================
 * ZADD, ZINCRBY, ZREM, ZREMRANGEBY*
 * ====================================================================== */

/* ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]
 * and ZINCRBY key increment member (flags = ZADD_IN_INCR). Everything is
 * parsed, every score included, before anything is written. */
static void zaddGenericCommand(client *c, int flags) {
    std::string_view key = c->argv[1];
    size_t argc = c->argv.size(), scoreidx = 2;
    bool ch = false;
    for (; scoreidx < argc; scoreidx++) {
        std::string_view opt = c->argv[scoreidx];
        if (strEqualNoCase(opt, "nx")) flags |= ZADD_IN_NX;
        else if (strEqualNoCase(opt, "xx")) flags |= ZADD_IN_XX;
        else if (strEqualNoCase(opt, "ch")) ch = true; /* count the updated too */
        else if (strEqualNoCase(opt, "incr")) flags |= ZADD_IN_INCR;
        else if (strEqualNoCase(opt, "gt")) flags |= ZADD_IN_GT;
        else if (strEqualNoCase(opt, "lt")) flags |= ZADD_IN_LT;
        else break;
    }
    bool incr = flags & ZADD_IN_INCR, nx = flags & ZADD_IN_NX, xx = flags & ZADD_IN_XX, gt = flags & ZADD_IN_GT,
         lt = flags & ZADD_IN_LT;

    size_t elements = argc - scoreidx;
    if (elements % 2 || elements == 0) return addReplyErrorObject(c, shared::syntaxerr);
    elements /= 2;
    if (nx && xx) return addReplyError(c, "XX and NX options at the same time are not compatible");
    if ((gt && nx) || (lt && nx) || (gt && lt))
        return addReplyError(c, "GT, LT, and/or NX options at the same time are not compatible");
    if (incr && elements > 1) return addReplyError(c, "INCR option supports a single increment-element pair");

    std::vector<double> scores(elements);
    for (size_t j = 0; j < elements; j++)
        if (!getDoubleFromObjectOrReply(c, c->argv[scoreidx + j * 2], &scores[j])) return;

    robj *zobj = lookupKeyWrite(c->db, key);
    if (checkType(c, zobj, OBJ_ZSET)) return;
    if (!zobj && !xx) zobj = zsetCreateInKeyspace(c, key, c->argv[scoreidx + 1]);
    long long added = 0, updated = 0, processed = 0;
    double score = 0;
    for (size_t j = 0; zobj && j < elements; j++) {
        int retflags;
        /* Only INCR on an existing member can fail (inf + -inf): one
         * element, so nothing has changed yet. */
        if (!zsetAdd(zobj, scores[j], c->argv[scoreidx + 1 + j * 2], flags, &retflags, &score))
            return addReplyError(c, "resulting score is not a number (NaN)");
        if (retflags & ZADD_OUT_ADDED) added++;
        if (retflags & ZADD_OUT_UPDATED) updated++;
        if (!(retflags & ZADD_OUT_NOP)) processed++;
    }
    server.dirty += added + updated;
    if (added || updated) {
        signalModifiedKey(c, c->db, key);
        notifyKeyspaceEvent(NOTIFY_ZSET, incr ? "zincr" : "zadd", key, c->db->id);
    }
    if (!incr) return addReplyLongLong(c, ch ? added + updated : added);
    if (processed) addReplyDouble(c, score);
    else addReplyNull(c);
}

void zaddCommand(client *c) { zaddGenericCommand(c, ZADD_IN_NONE); }
void zincrbyCommand(client *c) { zaddGenericCommand(c, ZADD_IN_INCR); }

/* ZREM key member [member ...] */
void zremCommand(client *c) { removeElementsGenericCommand(c, OBJ_ZSET, zsetDel, zsetLength); }

enum class zrangeType { AUTO, RANK, SCORE, LEX };

/* The range a ZREMRANGEBY* or ZRANGE-family command names, parsed. */
struct zrangeArgs {
    long start = 0, end = 0; /* RANK */
    zrangespec score{};      /* SCORE */
    zlexrangespec lex{};     /* LEX */
};

/* Parses min and max for `type`, replying Redis's error on failure. */
static bool zrangeParseOrReply(client *c, zrangeType type, std::string_view min, std::string_view max,
                               zrangeArgs *args) {
    switch (type) {
    case zrangeType::SCORE:
        if (zslParseRange(min, max, &args->score)) return true;
        addReplyError(c, "min or max is not a float");
        return false;
    case zrangeType::LEX:
        if (zslParseLexRange(min, max, &args->lex)) return true;
        addReplyError(c, "min or max not valid string range item");
        return false;
    default:
        return getLongFromObjectOrReply(c, min, &args->start) && getLongFromObjectOrReply(c, max, &args->end);
    }
}

/* Clamps start..end (negative from the end) to a set of `llen` elements, as
 * every rank range does; false when nothing is left. */
static bool zsetClampRankRange(long llen, long *start, long *end) {
    if (*start < 0) *start += llen;
    if (*end < 0) *end += llen;
    if (*start < 0) *start = 0;
    /* start >= 0 now, so this is also true when end < 0. */
    if (*start > *end || *start >= llen) return false;
    if (*end >= llen) *end = llen - 1;
    return true;
}

template <typename Range>
static unsigned long zsetDeleteRangeInAny(robj *zobj, const Range &range) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) return zzlDeleteRangeInAny(objectZiplist(zobj), range);
    zset &zs = objectZset(zobj);
    return zslDeleteRangeInAny(&zs.zsl, range, zs.dict);
}

/* ZREMRANGEBYRANK, ZREMRANGEBYSCORE, ZREMRANGEBYLEX key min max */
static void zremrangeGenericCommand(client *c, zrangeType type) {
    zrangeArgs args;
    if (!zrangeParseOrReply(c, type, c->argv[2], c->argv[3], &args)) return;
    std::string_view key = c->argv[1];
    robj *zobj = lookupKeyWriteOrReply(c, key, shared::czero);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;

    unsigned long deleted = 0;
    if (type == zrangeType::RANK) {
        if (!zsetClampRankRange(static_cast<long>(zsetLength(zobj)), &args.start, &args.end))
            return addReply(c, shared::czero);
        if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
            deleted = static_cast<unsigned long>(args.end - args.start + 1);
            objectZiplist(zobj).deleteRange(2 * args.start, 2 * deleted);
        } else {
            zset &zs = objectZset(zobj);
            deleted = zslDeleteRangeByRank(&zs.zsl, args.start + 1, args.end + 1, zs.dict);
        }
    } else if (type == zrangeType::SCORE) {
        deleted = zsetDeleteRangeInAny(zobj, args.score);
    } else {
        deleted = zsetDeleteRangeInAny(zobj, args.lex);
    }
    if (zobj->encoding == OBJ_ENCODING_SKIPLIST && objectZset(zobj).dict.needsShrink())
        objectZset(zobj).dict.resizeToFit();
    const char *event = type == zrangeType::RANK    ? "zremrangebyrank"
                        : type == zrangeType::SCORE ? "zremrangebyscore"
                                                    : "zremrangebylex";
    zsetElementsRemoved(c, key, zobj, deleted, event);
    addReplyLongLong(c, static_cast<long long>(deleted));
}

void zremrangebyrankCommand(client *c) { zremrangeGenericCommand(c, zrangeType::RANK); }
void zremrangebyscoreCommand(client *c) { zremrangeGenericCommand(c, zrangeType::SCORE); }
void zremrangebylexCommand(client *c) { zremrangeGenericCommand(c, zrangeType::LEX); }

/* ========================================================================
 * Reading one member: ZSCORE, ZMSCORE, ZCARD, ZRANK, ZREVRANK
 * ====================================================================== */

void zscoreCommand(client *c) {
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    double score;
    if (zsetScore(zobj, c->argv[2], &score)) addReplyDouble(c, score);
    else addReplyNull(c);
}

void zmscoreCommand(client *c) {
    robj *zobj = lookupKeyRead(c->db, c->argv[1]);
    if (checkType(c, zobj, OBJ_ZSET)) return;
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2));
    for (size_t j = 2; j < c->argv.size(); j++) {
        double score;
        if (zobj && zsetScore(zobj, c->argv[j], &score)) addReplyDouble(c, score);
        else addReplyNull(c);
    }
}

void zcardCommand(client *c) {
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    addReplyLongLong(c, static_cast<long long>(zsetLength(zobj)));
}

static void zrankGenericCommand(client *c, bool reverse) {
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    long rank = zsetRank(zobj, c->argv[2], reverse);
    if (rank >= 0) addReplyLongLong(c, rank);
    else addReplyNull(c);
}

void zrankCommand(client *c) { zrankGenericCommand(c, false); }
void zrevrankCommand(client *c) { zrankGenericCommand(c, true); }

/* ========================================================================
 * Counting a range: ZCOUNT, ZLEXCOUNT
 * ====================================================================== */

template <typename Range>
static unsigned long zsetCountInAnyRange(robj *zobj, const Range &range) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(zobj);
        unsigned long count = 0;
        for (zlpos eptr = zzlFirstInAnyRange(zl, range); eptr && zzlLteMax(zl, eptr, range); count++)
            eptr = zl.next(zl.next(eptr));
        return count;
    }
    /* Two rank lookups instead of a walk: O(log N) whatever the count. */
    zskiplist *zsl = &objectZset(zobj).zsl;
    zskiplistNode *first = zslFirstInAnyRange(zsl, range);
    if (!first) return 0;
    zskiplistNode *last = zslLastInAnyRange(zsl, range);
    return zslGetRank(zsl, last->score, last->ele()) - zslGetRank(zsl, first->score, first->ele()) + 1;
}

static void zcountGenericCommand(client *c, zrangeType type) {
    zrangeArgs args;
    if (!zrangeParseOrReply(c, type, c->argv[2], c->argv[3], &args)) return;
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    unsigned long count = type == zrangeType::SCORE ? zsetCountInAnyRange(zobj, args.score)
                                                    : zsetCountInAnyRange(zobj, args.lex);
    addReplyLongLong(c, static_cast<long long>(count));
}

void zcountCommand(client *c) { zcountGenericCommand(c, zrangeType::SCORE); }
void zlexcountCommand(client *c) { zcountGenericCommand(c, zrangeType::LEX); }

/* ========================================================================
 * The ZRANGE family: ZRANGE, ZRANGESTORE, ZREVRANGE, Z[REV]RANGEBYSCORE,
 * Z[REV]RANGEBYLEX — one parser, one walker per range type, and a result
 * handler that either replies or builds the stored set.
 * ====================================================================== */

/* Where the elements found go (Redis 7's zrange_result_handler): to the
 * client as an array (its length deferred when not known in advance), or,
 * for ZRANGESTORE, into a new sorted set stored at dstkey at the end. */
/* The header of `n` members, each with its score when asked: (member,
 * score) pairs, which RESP3 nests (addReplyPairsLen). */
static void addReplyScoredLen(client *c, long long n, bool withscores) {
    if (withscores) addReplyPairsLen(c, n);
    else addReplyArrayLen(c, n);
}

/* A member, with its score as a pair when asked. */
static void addReplyScoredMember(client *c, std::string_view member, double score, bool withscores) {
    if (withscores) addReplyPairLen(c);
    addReplyBulk(c, member);
    if (withscores) addReplyDouble(c, score);
}

class zrangeResultHandler {
public:
    explicit zrangeResultHandler(client *c) : c_(c) {}
    zrangeResultHandler(client *c, std::string_view dstkey) : c_(c), dstkey_(dstkey), store_(true) {}

    client *clientOf() const { return c_; }
    bool store() const { return store_; }
    void setWithScores(bool withscores) { withscores_ = withscores; }
    /* Must the walkers read the scores? */
    bool needsScores() const { return withscores_ || store_; }

    /* length: how many elements will come, or -1 if unknown. */
    void beginResultEmission(long length) {
        if (store_) {
            dstobj_ = createZsetZiplistObject(); /* converts as it grows, as Redis's */
        } else if (length < 0) {
            replylen_ = addReplyDeferredLen(c_);
        } else {
            addReplyScoredLen(c_, length, withscores_);
        }
    }

    void emitResult(std::string_view member, double score) {
        if (store_) {
            int flags;
            zsetAdd(dstobj_.get(), score, member, ZADD_IN_NONE, &flags, nullptr);
            return;
        }
        addReplyScoredMember(c_, member, score, withscores_);
    }

    void emitResult(const ziplistEntry &member, double score) {
        if (!store_) {
            if (withscores_) addReplyPairLen(c_);
            addReplyListValue(c_, member);
            if (withscores_) addReplyDouble(c_, score);
            return;
        }
        char buf[LONG_STR_SIZE];
        emitResult(listTypeValueView(member, buf), score);
    }

    void finalizeResultEmission(unsigned long result_count) {
        if (!store_) {
            if (!replylen_) return;
            if (withscores_) setDeferredPairsLen(c_, replylen_, static_cast<long>(result_count));
            else setDeferredArrayLen(c_, replylen_, static_cast<long>(result_count));
            return;
        }
        if (result_count) {
            setKey(c_, c_->db, dstkey_, std::move(dstobj_), 0);
            notifyKeyspaceEvent(NOTIFY_ZSET, "zrangestore", dstkey_, c_->db->id);
            addReplyLongLong(c_, static_cast<long long>(result_count));
            server.dirty++;
            return;
        }
        addReply(c_, shared::czero);
        if (dbDelete(c_->db, dstkey_)) {
            signalModifiedKey(c_, c_->db, dstkey_);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", dstkey_, c_->db->id);
            server.dirty++;
        }
    }

private:
    client *c_;
    std::string_view dstkey_;
    bool store_ = false;
    bool withscores_ = false;
    void *replylen_ = nullptr;
    ObjRef dstobj_;
};

/* ZRANGE key start stop [REV] over ranks, the tail first when reversed. */
static void genericZrangebyrankCommand(zrangeResultHandler &handler, robj *zobj, long start, long end, bool reverse) {
    if (!zsetClampRankRange(static_cast<long>(zsetLength(zobj)), &start, &end)) {
        handler.beginResultEmission(0);
        return handler.finalizeResultEmission(0);
    }
    unsigned long rangelen = static_cast<unsigned long>(end - start + 1);
    handler.beginResultEmission(static_cast<long>(rangelen));
    bool scores = handler.needsScores();

    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(zobj);
        zlpos eptr = zl.index(reverse ? -2 - 2 * start : 2 * start), sptr = zl.next(eptr);
        for (unsigned long n = rangelen; n--; reverse ? zzlPrev(zl, &eptr, &sptr) : zzlNext(zl, &eptr, &sptr))
            handler.emitResult(zl.get(eptr), scores ? zzlGetScore(zl, sptr) : 0);
    } else {
        zskiplist *zsl = &objectZset(zobj).zsl;
        unsigned long llen = zsl->length;
        /* The first element needs no log(N) lookup. */
        auto ustart = static_cast<unsigned long>(start);
        zskiplistNode *ln;
        if (reverse) ln = start > 0 ? zslGetElementByRank(zsl, llen - ustart) : zsl->tail;
        else ln = start > 0 ? zslGetElementByRank(zsl, ustart + 1) : zsl->header->level[0].forward;
        for (unsigned long n = rangelen; n--; ln = reverse ? ln->backward : ln->level[0].forward)
            handler.emitResult(ln->ele(), ln->score);
    }
    handler.finalizeResultEmission(rangelen);
}

/* Z[REV]RANGEBYSCORE and Z[REV]RANGEBYLEX: from the first element in range
 * (the last when reversed), skip `offset`, then emit up to `limit` (a
 * negative limit: no limit) while in range. */
template <typename Range>
static void genericZrangeByRangeCommand(zrangeResultHandler &handler, const Range &range, robj *zobj, long offset,
                                        long limit, bool reverse) {
    handler.beginResultEmission(-1);
    /* A negative offset walks off the end in Redis: nothing either. */
    if (offset < 0 || (offset > 0 && static_cast<unsigned long>(offset) >= zsetLength(zobj)))
        return handler.finalizeResultEmission(0);
    unsigned long remaining = limit < 0 ? ULONG_MAX : static_cast<unsigned long>(limit);
    bool scores = handler.needsScores();
    unsigned long rangelen = 0;

    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(zobj);
        zlpos eptr = reverse ? zzlLastInAnyRange(zl, range) : zzlFirstInAnyRange(zl, range);
        zlpos sptr = zzlScoreOf(zl, eptr);
        auto step = [&] { reverse ? zzlPrev(zl, &eptr, &sptr) : zzlNext(zl, &eptr, &sptr); };
        for (; eptr && offset != 0; offset--) step();
        for (; eptr && remaining != 0; remaining--, rangelen++, step()) {
            if (reverse ? !zzlGteMin(zl, eptr, range) : !zzlLteMax(zl, eptr, range)) break;
            handler.emitResult(zl.get(eptr), scores ? zzlGetScore(zl, sptr) : 0);
        }
    } else {
        zskiplist *zsl = &objectZset(zobj).zsl;
        zskiplistNode *ln = reverse ? zslLastInAnyRange(zsl, range) : zslFirstInAnyRange(zsl, range);
        auto step = [&] { ln = reverse ? ln->backward : ln->level[0].forward; };
        for (; ln && offset != 0; offset--) step();
        for (; ln && remaining != 0; remaining--, rangelen++, step()) {
            if (reverse ? !zslGteMin(ln, range) : !zslLteMax(ln, range)) break;
            handler.emitResult(ln->ele(), ln->score);
        }
    }
    handler.finalizeResultEmission(rangelen);
}

enum class zrangeDirection { AUTO, FORWARD, REVERSE };

/* Redis 7's zrangeGenericCommand. argv[argc_start] is the source key; the
 * command fixes the range type and direction, or leaves them to the
 * BYSCORE/BYLEX/REV options (AUTO). Options are checked, then the range,
 * then the key. */
static void zrangeGenericCommand(zrangeResultHandler &handler, size_t argc_start, zrangeType rangetype,
                                 zrangeDirection direction) {
    client *c = handler.clientOf();
    size_t argc = c->argv.size(), minidx = argc_start + 1, maxidx = argc_start + 2;
    long opt_offset = 0, opt_limit = -1;
    bool opt_withscores = false;
    for (size_t j = argc_start + 3; j < argc; j++) {
        std::string_view opt = c->argv[j];
        size_t leftargs = argc - j - 1;
        if (!handler.store() && strEqualNoCase(opt, "withscores")) {
            opt_withscores = true;
        } else if (strEqualNoCase(opt, "limit") && leftargs >= 2) {
            if (!getLongFromObjectOrReply(c, c->argv[j + 1], &opt_offset) ||
                !getLongFromObjectOrReply(c, c->argv[j + 2], &opt_limit))
                return;
            j += 2;
        } else if (direction == zrangeDirection::AUTO && strEqualNoCase(opt, "rev")) {
            direction = zrangeDirection::REVERSE;
        } else if (rangetype == zrangeType::AUTO && strEqualNoCase(opt, "bylex")) {
            rangetype = zrangeType::LEX;
        } else if (rangetype == zrangeType::AUTO && strEqualNoCase(opt, "byscore")) {
            rangetype = zrangeType::SCORE;
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }
    if (rangetype == zrangeType::AUTO) rangetype = zrangeType::RANK;
    bool reverse = direction == zrangeDirection::REVERSE;
    if (opt_limit != -1 && rangetype == zrangeType::RANK)
        return addReplyError(c, "syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
    if (opt_withscores && rangetype == zrangeType::LEX)
        return addReplyError(c, "syntax error, WITHSCORES not supported in combination with BYLEX");
    /* Reversed score and lex ranges are written max first. */
    if (reverse && rangetype != zrangeType::RANK) std::swap(minidx, maxidx);

    zrangeArgs args;
    if (!zrangeParseOrReply(c, rangetype, c->argv[minidx], c->argv[maxidx], &args)) return;
    handler.setWithScores(opt_withscores);

    robj *zobj = lookupKeyRead(c->db, c->argv[argc_start]);
    if (!zobj) {
        if (!handler.store()) return addReply(c, shared::empty_array);
        handler.beginResultEmission(-1);
        return handler.finalizeResultEmission(0);
    }
    if (checkType(c, zobj, OBJ_ZSET)) return;
    switch (rangetype) {
    case zrangeType::SCORE:
        return genericZrangeByRangeCommand(handler, args.score, zobj, opt_offset, opt_limit, reverse);
    case zrangeType::LEX:
        return genericZrangeByRangeCommand(handler, args.lex, zobj, opt_offset, opt_limit, reverse);
    default: return genericZrangebyrankCommand(handler, zobj, args.start, args.end, reverse);
    }
}

/* The read-only members of the family reply to the client. */
static void zrangeReplyCommand(client *c, zrangeType rangetype, zrangeDirection direction) {
    zrangeResultHandler handler(c);
    zrangeGenericCommand(handler, 1, rangetype, direction);
}

/* ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES] */
void zrangeCommand(client *c) { zrangeReplyCommand(c, zrangeType::AUTO, zrangeDirection::AUTO); }
void zrevrangeCommand(client *c) { zrangeReplyCommand(c, zrangeType::RANK, zrangeDirection::REVERSE); }
void zrangebyscoreCommand(client *c) { zrangeReplyCommand(c, zrangeType::SCORE, zrangeDirection::FORWARD); }
void zrevrangebyscoreCommand(client *c) { zrangeReplyCommand(c, zrangeType::SCORE, zrangeDirection::REVERSE); }
void zrangebylexCommand(client *c) { zrangeReplyCommand(c, zrangeType::LEX, zrangeDirection::FORWARD); }
void zrevrangebylexCommand(client *c) { zrangeReplyCommand(c, zrangeType::LEX, zrangeDirection::REVERSE); }

/* ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count] */
void zrangestoreCommand(client *c) {
    zrangeResultHandler handler(c, c->argv[1]);
    zrangeGenericCommand(handler, 2, zrangeType::AUTO, zrangeDirection::AUTO);
}

/* ========================================================================
 * Pops: ZPOPMIN, ZPOPMAX, ZMPOP
 * ====================================================================== */

/* Replies the member and the score at `where` of a non-empty sorted set,
 * then removes them. */
static void zsetPopAndReply(robj *zobj, client *c, int where) {
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        ziplist &zl = objectZiplist(zobj);
        long index = where == ZSET_MAX ? -2 : 0;
        zlpos eptr = zl.index(index);
        addReplyListValue(c, zl.get(eptr));
        addReplyDouble(c, zzlGetScore(zl, zl.next(eptr)));
        zl.deleteRange(index, 2);
        return;
    }
    zskiplist &zsl = objectZset(zobj).zsl;
    zskiplistNode *node = where == ZSET_MAX ? zsl.tail : zsl.header->level[0].forward;
    addReplyBulk(c, node->ele());
    addReplyDouble(c, node->score);
    zsetDel(zobj, node->ele());
}

void genericZpopCommand(client *c, std::span<const std::string_view> keys, int where, bool emitkey, long count,
                        bool use_nested_array, bool reply_nil_when_empty, bool *deleted) {
    if (deleted) *deleted = false;
    /* ZPOPMIN/ZPOPMAX with a count reply pairs; the plain form, a flat
     * [member, score]. */
    bool pairs = !emitkey && count != -1;
    robj *zobj = nullptr;
    std::string_view key;
    for (std::string_view k : keys) {
        zobj = lookupKeyWrite(c->db, k);
        if (!zobj) continue;
        if (checkType(c, zobj, OBJ_ZSET)) return;
        key = k;
        break;
    }
    if (!zobj) return reply_nil_when_empty ? addReplyNullArray(c) : addReply(c, shared::empty_array);
    if (count == 0) return addReply(c, shared::empty_array); /* ZPOPMIN key 0 */
    if (count == -1) count = 1;

    long rangelen = std::min(count, static_cast<long>(zsetLength(zobj)));
    if (pairs) {
        addReplyPairsLen(c, rangelen);
    } else if (!emitkey) {
        addReplyArrayLen(c, rangelen * 2);
    } else if (!use_nested_array) {
        addReplyArrayLen(c, rangelen * 2 + 1);
        addReplyBulk(c, key);
    } else {
        addReplyArrayLen(c, 2);
        addReplyBulk(c, key);
        addReplyArrayLen(c, rangelen);
    }
    for (long n = 0; n < rangelen; n++) {
        if (use_nested_array) addReplyArrayLen(c, 2);
        else if (pairs) addReplyPairLen(c);
        zsetPopAndReply(zobj, c, where);
    }
    if (deleted) *deleted = zsetLength(zobj) == 0;
    zsetElementsRemoved(c, key, zobj, static_cast<unsigned long>(rangelen), where == ZSET_MIN ? "zpopmin" : "zpopmax");
    /* ZMPOP, BZMPOP, BZPOPMIN, BZPOPMAX reach the AOF as the ZPOPMIN/ZPOPMAX
     * that pops the same members (with the number popped for the COUNT
     * forms), as Redis 7.0 writes them. */
    if (!emitkey) return;
    char n[LONG_STR_SIZE];
    std::string_view argv[] = {where == ZSET_MIN ? "ZPOPMIN" : "ZPOPMAX", key,
                               std::string_view(n, ll2string(n, sizeof(n), rangelen))};
    rewriteOrAlsoPropagate(c, std::span(argv, use_nested_array ? 3 : 2));
}

/* ZPOPMIN/ZPOPMAX key [count] */
static void zpopMinMaxCommand(client *c, int where) {
    if (c->argv.size() > 3) return addReplyErrorObject(c, shared::syntaxerr);
    long count = -1; /* the plain form: one member */
    if (c->argv.size() == 3 && !getPositiveLongFromObjectOrReply(c, c->argv[2], &count)) return;
    genericZpopCommand(c, std::span(c->argv).subspan(1, 1), where, false, count, false, false);
}

void zpopminCommand(client *c) { zpopMinMaxCommand(c, ZSET_MIN); }
void zpopmaxCommand(client *c) { zpopMinMaxCommand(c, ZSET_MAX); }

void zmpopGenericCommand(client *c, size_t numkeys_idx, zmpopProc pop) {
    long numkeys;
    if (!getRangeLongFromObjectOrReply(c, c->argv[numkeys_idx], 1, LONG_MAX, &numkeys,
                                       "numkeys should be greater than 0"))
        return;
    /* MIN|MAX follows the keys; compared without adding, so that a huge
     * numkeys cannot overflow. */
    size_t argc = c->argv.size();
    if (static_cast<unsigned long>(numkeys) >= argc - numkeys_idx - 1) return addReplyErrorObject(c, shared::syntaxerr);
    size_t where_idx = numkeys_idx + static_cast<size_t>(numkeys) + 1;
    int where;
    if (strEqualNoCase(c->argv[where_idx], "min")) where = ZSET_MIN;
    else if (strEqualNoCase(c->argv[where_idx], "max")) where = ZSET_MAX;
    else return addReplyErrorObject(c, shared::syntaxerr);

    long count = -1;
    for (size_t j = where_idx + 1; j < argc; j++) {
        if (count != -1 || !strEqualNoCase(c->argv[j], "count") || j + 1 == argc) return addReplyErrorObject(c, shared::syntaxerr);
        if (!getRangeLongFromObjectOrReply(c, c->argv[++j], 1, LONG_MAX, &count, "count should be greater than 0"))
            return;
    }
    if (count == -1) count = 1;
    pop(c, std::span(c->argv).subspan(numkeys_idx + 1, static_cast<size_t>(numkeys)), where, count);
}

/* ZMPOP numkeys key [key ...] MIN|MAX [COUNT count] */
void zmpopCommand(client *c) {
    zmpopGenericCommand(c, 1, [](client *c, std::span<const std::string_view> keys, int where, long count) {
        genericZpopCommand(c, keys, where, true, count, true, true);
    });
}

/* ========================================================================
 * Walking any input: a sorted set or, for ZUNION and friends, a plain set
 * ====================================================================== */

/* One input (Redis's zsetopsrc): a sorted set, a plain set (every member
 * scores 1), or nothing (a missing key, an empty input). */
struct zsetopsrc {
    robj *subject = nullptr;
    double weight = 1.0;
};

static unsigned long zuiLength(const zsetopsrc &src) {
    if (!src.subject) return 0;
    return src.subject->type == OBJ_SET ? setTypeSize(src.subject) : zsetLength(src.subject);
}

/* Calls fn(member, score) for every element until it returns false
 * (zuiInitIterator / zuiNext). Sorted sets are walked from the highest
 * score down, as Redis 7 does: ZRANDMEMBER with a count past the length
 * shows that order. */
template <typename Fn>
static void zuiForEach(const zsetopsrc &src, Fn &&fn) {
    robj *o = src.subject;
    if (!o) return;
    if (o->type == OBJ_SET) {
        setTypeIterator si(o);
        setTypeValue v;
        char buf[LONG_STR_SIZE];
        while (setTypeNext(&si, &v))
            if (!fn(setTypeValueView(v, buf), 1.0)) return;
    } else if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(o);
        char buf[LONG_STR_SIZE];
        for (zlpos eptr = zl.index(-2), sptr = zzlScoreOf(zl, eptr); eptr; zzlPrev(zl, &eptr, &sptr))
            if (!fn(zzlMember(zl, eptr, buf), zzlGetScore(zl, sptr))) return;
    } else {
        for (zskiplistNode *n = objectZset(o).zsl.tail; n; n = n->backward)
            if (!fn(n->ele(), n->score)) return;
    }
}

/* zuiFind: is `member` in the input, and with which (unweighted) score? */
static bool zuiFind(const zsetopsrc &src, std::string_view member, double *score) {
    if (!src.subject) return false;
    if (src.subject->type == OBJ_ZSET) return zsetScore(src.subject, member, score);
    *score = 1.0;
    return setTypeIsMember(src.subject, member);
}

/* ========================================================================
 * ZRANDMEMBER key [count [WITHSCORES]]
 * ====================================================================== */

/* Batches of random picks are bounded, as in Redis, so a huge count costs
 * no huge temporary array. */
constexpr unsigned long ZRANDMEMBER_RANDOM_SAMPLE_LIMIT = 1000;
/* Below this many members per wanted one, CASE 3 (copy all, remove some)
 * beats CASE 4 (pick until enough distinct). */
constexpr unsigned long ZRANDMEMBER_SUB_STRATEGY_MUL = 3;

static void zrandmemberReplyMember(client *c, const ziplist &zl, zlpos eptr, bool withscores) {
    if (withscores) addReplyPairLen(c);
    addReplyListValue(c, zl.get(eptr));
    if (withscores) addReplyDouble(c, zzlGetScore(zl, zl.next(eptr)));
}

/* lpRandomPairs: `count` members drawn with repetition, replied in the
 * order drawn. The draws are sorted by position so the ziplist is walked
 * once, then replied in draw order. */
static void zzlReplyRandomPairs(client *c, const ziplist &zl, unsigned long count, bool withscores) {
    struct Pick {
        unsigned long index, order;
    };
    unsigned long total = zzlLength(zl);
    std::vector<Pick> picks(count);
    for (unsigned long i = 0; i < count; i++) picks[i] = {zsetRandom() % total, i};
    std::sort(picks.begin(), picks.end(), [](const Pick &a, const Pick &b) { return a.index < b.index; });
    std::vector<zlpos> drawn(count);
    zlpos eptr = zl.index(0);
    unsigned long at = 0;
    for (const Pick &pick : picks) {
        for (; at < pick.index; at++) eptr = zl.next(zl.next(eptr));
        drawn[pick.order] = eptr;
    }
    for (zlpos p : drawn) zrandmemberReplyMember(c, zl, p, withscores);
}

/* lpRandomPairsUnique: `count` distinct members (count < length), in the
 * ziplist's order, by selection sampling: each member is taken with
 * probability (still wanted) / (still unseen). */
static void zzlReplyRandomPairsUnique(client *c, const ziplist &zl, unsigned long count, bool withscores) {
    unsigned long total = zzlLength(zl), picked = 0;
    for (zlpos eptr = zl.index(0); eptr && picked < count; eptr = zl.next(zl.next(eptr)), total--) {
        if (zsetRandom() % total >= count - picked) continue;
        zrandmemberReplyMember(c, zl, eptr, withscores);
        picked++;
    }
}

static void zrandmemberReplyNode(client *c, const zskiplistNode *node, bool withscores) {
    addReplyScoredMember(c, node->ele(), node->score, withscores);
}

/* The four cases of Redis's zrandmemberWithCountCommand. */
static void zrandmemberWithCountCommand(client *c, long l, bool withscores) {
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::empty_array);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    unsigned long size = zsetLength(zobj);
    bool uniq = l >= 0;
    unsigned long count = uniq ? static_cast<unsigned long>(l) : 0UL - static_cast<unsigned long>(l);
    if (count == 0) return addReply(c, shared::empty_array);

    /* CASE 1: repetitions allowed (negative count): draw count times. */
    if (!uniq || count == 1) {
        addReplyScoredLen(c, static_cast<long long>(count), withscores);
        if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
            for (unsigned long batch; count && !(c->flags & CLIENT_CLOSE_ASAP); count -= batch) {
                batch = std::min(count, ZRANDMEMBER_RANDOM_SAMPLE_LIMIT);
                zzlReplyRandomPairs(c, objectZiplist(zobj), batch, withscores);
            }
        } else {
            zsetDict &d = objectZset(zobj).dict;
            for (; count-- && !(c->flags & CLIENT_CLOSE_ASAP);)
                zrandmemberReplyNode(c, d.fairRandomEntry()->key.node, withscores);
        }
        return;
    }

    /* CASE 2: as many as there are, or more: the whole set. */
    addReplyScoredLen(c, static_cast<long long>(std::min(count, size)), withscores);
    if (count >= size) {
        zuiForEach(zsetopsrc{zobj}, [&](std::string_view member, double score) {
            addReplyScoredMember(c, member, score, withscores);
            return true;
        });
        return;
    }

    /* CASE 3: most of the set: copy it, then remove random members until
     * `count` are left. */
    if (count * ZRANDMEMBER_SUB_STRATEGY_MUL > size) {
        dict<sds, double> d;
        d.expand(size);
        zuiForEach(zsetopsrc{zobj}, [&](std::string_view member, double score) {
            d.add(sds(member), score);
            return true;
        });
        for (; size > count; size--) d.unlink(d.fairRandomEntry()->key.view());
        for (auto &de : d) addReplyScoredMember(c, de.key, de.val, withscores);
        return;
    }

    /* CASE 4: a few members of a big set. */
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST)
        return zzlReplyRandomPairsUnique(c, objectZiplist(zobj), count, withscores);
    zsetDict &zd = objectZset(zobj).dict;
    dict<sds, zsetDictNoValue> picked;
    picked.expand(count);
    while (picked.size() < count) {
        zskiplistNode *node = zd.fairRandomEntry()->key.node;
        if (picked.add(sds(node->ele()), zsetDictNoValue{})) zrandmemberReplyNode(c, node, withscores);
    }
}

void zrandmemberCommand(client *c) {
    size_t argc = c->argv.size();
    if (argc >= 3) {
        long l;
        if (!getRangeLongFromObjectOrReply(c, c->argv[2], -LONG_MAX, LONG_MAX, &l)) return;
        if (argc > 4 || (argc == 4 && !strEqualNoCase(c->argv[3], "withscores"))) return addReplyErrorObject(c, shared::syntaxerr);
        bool withscores = argc == 4;
        /* The reply's length is twice the count. */
        if (withscores && (l < -LONG_MAX / 2 || l > LONG_MAX / 2)) return addReplyError(c, "value is out of range");
        return zrandmemberWithCountCommand(c, l, withscores);
    }
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    if (zobj->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(zobj);
        return addReplyListValue(c, zl.get(zl.index(static_cast<long>(2 * (zsetRandom() % zzlLength(zl))))));
    }
    addReplyBulk(c, objectZset(zobj).dict.fairRandomEntry()->key.node->ele());
}

/* ========================================================================
 * Set operations: ZUNION[STORE], ZINTER[STORE], ZDIFF[STORE], ZINTERCARD
 * ====================================================================== */

enum class zsetAggregate { SUM, MIN, MAX };

/* inf + -inf is NaN: Redis makes it 0 (and so does this). */
static void zunionInterAggregate(double *target, double val, zsetAggregate aggregate) {
    switch (aggregate) {
    case zsetAggregate::SUM:
        *target += val;
        if (std::isnan(*target)) *target = 0.0;
        break;
    case zsetAggregate::MIN: *target = val < *target ? val : *target; break;
    case zsetAggregate::MAX: *target = val > *target ? val : *target; break;
    }
}

enum class zsetOp { UNION, INTER, DIFF };

/* What a set operation builds: the result (a skiplist zset) and its
 * longest member, to choose the stored encoding. */
struct zsetOpResult {
    ObjRef dstobj = createZsetObject();
    size_t maxelelen = 0;

    void add(std::string_view member, double score) {
        zsetInsertNew(objectZset(dstobj.get()), score, member);
        maxelelen = std::max(maxelelen, member.size());
    }
};

/* Step 1 of a union: member -> aggregated score, input after input (each
 * weighted score NaN-checked: 0 * inf is 0), then the sorted result. */
static void zsetUnion(std::span<zsetopsrc> src, zsetAggregate aggregate, zsetOpResult &result) {
    dict<sds, double> accumulator;
    if (!src.empty()) accumulator.expand(zuiLength(src.back())); /* at least the largest input */
    for (const zsetopsrc &input : src) {
        zuiForEach(input, [&](std::string_view member, double score) {
            score *= input.weight;
            if (std::isnan(score)) score = 0;
            if (auto *de = accumulator.find(member)) zunionInterAggregate(&de->val, score, aggregate);
            else accumulator.add(sds(member), score);
            return true;
        });
    }
    objectZset(result.dstobj.get()).dict.expand(accumulator.size());
    for (auto &de : accumulator) result.add(de.key, de.val);
}

/* An intersection walks the smallest input and looks every member up in
 * the others. With `cardinality_only` nothing is built: the members are
 * counted, up to `limit` (0: no limit). Returns the count. */
static unsigned long zsetInter(std::span<zsetopsrc> src, zsetAggregate aggregate, bool cardinality_only, long limit,
                               zsetOpResult &result) {
    unsigned long cardinality = 0;
    zuiForEach(src[0], [&](std::string_view member, double zscore) {
        double score = src[0].weight * zscore;
        if (std::isnan(score)) score = 0;
        for (size_t j = 1; j < src.size(); j++) {
            double value;
            if (!zuiFind(src[j], member, &value)) return true; /* not in every input */
            zunionInterAggregate(&score, value * src[j].weight, aggregate);
        }
        cardinality++;
        if (!cardinality_only) result.add(member, score);
        return !(cardinality_only && limit && cardinality >= static_cast<unsigned long>(limit));
    });
    return cardinality;
}

/* The members of the first input found in no other, with their scores
 * (Redis's zdiffAlgorithm1; weights do not apply). */
static void zsetDiff(std::span<zsetopsrc> src, zsetOpResult &result) {
    zuiForEach(src[0], [&](std::string_view member, double score) {
        double ignored;
        for (size_t j = 1; j < src.size(); j++)
            if (zuiFind(src[j], member, &ignored)) return true;
        result.add(member, score);
        return true;
    });
}

/* The options after the keys: WEIGHTS and AGGREGATE (union and inter
 * only), WITHSCORES (not when storing), LIMIT (ZINTERCARD only). */
struct zsetOpOptions {
    zsetAggregate aggregate = zsetAggregate::SUM;
    bool withscores = false;
    long limit = 0;
};

static bool zsetOpParseOptionsOrReply(client *c, size_t j, std::span<zsetopsrc> src, zsetOp op, bool store,
                                      bool cardinality_only, zsetOpOptions *opt) {
    size_t argc = c->argv.size();
    bool weighable = op != zsetOp::DIFF && !cardinality_only;
    while (j < argc) {
        std::string_view name = c->argv[j];
        size_t remaining = argc - j;
        if (weighable && remaining >= src.size() + 1 && strEqualNoCase(name, "weights")) {
            j++;
            for (zsetopsrc &input : src)
                if (!getDoubleFromObjectOrReply(c, c->argv[j++], &input.weight, "weight value is not a float"))
                    return false;
        } else if (weighable && remaining >= 2 && strEqualNoCase(name, "aggregate")) {
            std::string_view how = c->argv[j + 1];
            if (strEqualNoCase(how, "sum")) opt->aggregate = zsetAggregate::SUM;
            else if (strEqualNoCase(how, "min")) opt->aggregate = zsetAggregate::MIN;
            else if (strEqualNoCase(how, "max")) opt->aggregate = zsetAggregate::MAX;
            else break;
            j += 2;
        } else if (!store && !cardinality_only && strEqualNoCase(name, "withscores")) {
            opt->withscores = true;
            j++;
        } else if (cardinality_only && remaining >= 2 && strEqualNoCase(name, "limit")) {
            if (!getPositiveLongFromObjectOrReply(c, c->argv[j + 1], &opt->limit, "LIMIT can't be negative"))
                return false;
            j += 2;
        } else {
            break;
        }
    }
    if (j == argc) return true;
    addReplyErrorObject(c, shared::syntaxerr);
    return false;
}

/* The result as a reply: members in order, with their scores if asked. */
static void zsetOpReply(client *c, robj *dstobj, bool withscores) {
    zskiplist &zsl = objectZset(dstobj).zsl;
    addReplyScoredLen(c, static_cast<long long>(zsl.length), withscores);
    for (zskiplistNode *n = zsl.header->level[0].forward; n; n = n->level[0].forward)
        addReplyScoredMember(c, n->ele(), n->score, withscores);
}

/* The result stored at dstkey (an empty one deletes dstkey); the event is
 * the command's name. */
static void zsetOpStore(client *c, std::string_view dstkey, zsetOpResult &result, zsetOp op) {
    unsigned long length = zsetLength(result.dstobj.get());
    if (length == 0) {
        addReply(c, shared::czero);
        if (dbDelete(c->db, dstkey)) {
            signalModifiedKey(c, c->db, dstkey);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", dstkey, c->db->id);
            server.dirty++;
        }
        return;
    }
    zsetConvertToZiplistIfNeeded(result.dstobj.get(), result.maxelelen);
    setKey(c, c->db, dstkey, std::move(result.dstobj), 0);
    const char *event = op == zsetOp::UNION ? "zunionstore" : op == zsetOp::INTER ? "zinterstore" : "zdiffstore";
    notifyKeyspaceEvent(NOTIFY_ZSET, event, dstkey, c->db->id);
    addReplyLongLong(c, static_cast<long long>(length));
    server.dirty++;
}

/* Redis's zunionInterDiffGenericCommand. numkeys is at argv[numkeys_idx];
 * the keys are looked up and type-checked before the options are parsed,
 * as Redis does (so WRONGTYPE wins over a syntax error). */
static void zunionInterDiffGenericCommand(client *c, std::optional<std::string_view> dstkey, size_t numkeys_idx,
                                          zsetOp op, bool cardinality_only = false) {
    long setnum;
    if (!getLongFromObjectOrReply(c, c->argv[numkeys_idx], &setnum)) return;
    if (setnum < 1)
        return addReplyErrorFormat(c, "at least 1 input key is needed for '%s' command", c->cmd->fullname.c_str());
    if (static_cast<unsigned long>(setnum) > c->argv.size() - numkeys_idx - 1) return addReplyErrorObject(c, shared::syntaxerr);

    std::vector<zsetopsrc> src(static_cast<size_t>(setnum));
    for (size_t i = 0; i < src.size(); i++) {
        std::string_view key = c->argv[numkeys_idx + 1 + i];
        robj *obj = lookupKeyRead(c->db, key); /* a store's sources too, as Redis 7.0 (misses, "keymiss") */
        if (obj && obj->type != OBJ_ZSET && obj->type != OBJ_SET) return addReplyErrorObject(c, shared::wrongtypeerr);
        src[i].subject = obj;
    }
    zsetOpOptions opt;
    if (!zsetOpParseOptionsOrReply(c, numkeys_idx + 1 + src.size(), src, op, dstkey.has_value(), cardinality_only,
                                   &opt))
        return;

    /* Smallest first: the intersection walks src[0]; the sort is stable, so
     * inputs of one size keep their order (floating-point sums depend on it). */
    if (op != zsetOp::DIFF)
        std::stable_sort(src.begin(), src.end(),
                         [](const zsetopsrc &a, const zsetopsrc &b) { return zuiLength(a) < zuiLength(b); });
    zsetOpResult result;
    unsigned long cardinality = 0;
    if (op == zsetOp::UNION) zsetUnion(src, opt.aggregate, result);
    else if (op == zsetOp::INTER) cardinality = zsetInter(src, opt.aggregate, cardinality_only, opt.limit, result);
    else zsetDiff(src, result);

    if (dstkey) return zsetOpStore(c, *dstkey, result, op);
    if (cardinality_only) return addReplyLongLong(c, static_cast<long long>(cardinality));
    zsetOpReply(c, result.dstobj.get(), opt.withscores);
}

void zunionstoreCommand(client *c) { zunionInterDiffGenericCommand(c, c->argv[1], 2, zsetOp::UNION); }
void zinterstoreCommand(client *c) { zunionInterDiffGenericCommand(c, c->argv[1], 2, zsetOp::INTER); }
void zdiffstoreCommand(client *c) { zunionInterDiffGenericCommand(c, c->argv[1], 2, zsetOp::DIFF); }
void zunionCommand(client *c) { zunionInterDiffGenericCommand(c, std::nullopt, 1, zsetOp::UNION); }
void zinterCommand(client *c) { zunionInterDiffGenericCommand(c, std::nullopt, 1, zsetOp::INTER); }
void zdiffCommand(client *c) { zunionInterDiffGenericCommand(c, std::nullopt, 1, zsetOp::DIFF); }
void zintercardCommand(client *c) { zunionInterDiffGenericCommand(c, std::nullopt, 1, zsetOp::INTER, true); }

/* ========================================================================
 * ZSCAN key cursor [MATCH pattern] [COUNT count] (db.cpp's scanCollect
 * walks the encoding)
 * ====================================================================== */

void zscanCommand(client *c) {
    unsigned long cursor;
    if (!parseScanCursorOrReply(c, c->argv[2], &cursor)) return;
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::emptyscan);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    scanGenericCommand(c, zobj, cursor);
}

/* ========================================================================
 * The sorted set's half of the blocking pops: BZPOPMIN, BZPOPMAX, BZMPOP
 *
 * The commands themselves are in blocked.cpp (Redis has them here, in
 * t_zset.c): when a key holds a sorted set they pop at once with
 * zpopWithKeyAndReply, else they block. Serving a waiter once a key holds
 * a sorted set again is serveClientBlockedOnSortedSet's, which
 * handleClientsBlockedOnKeys calls.
 *
 * count tells the two reply shapes apart: -1 is BZPOPMIN/BZPOPMAX's flat
 * [key, member, score], anything else BZMPOP's COUNT and its
 * [key, [[member, score], ...]].
 * ====================================================================== */

void zpopWithKeyAndReply(client *c, std::string_view key, int where, long count, bool *deleted) {
    bool bzmpop = count != -1;
    genericZpopCommand(c, std::span(&key, 1), where, true, count, bzmpop, bzmpop, deleted);
}

blockedServe serveClientBlockedOnSortedSet(client *receiver, robj *, std::string_view key) {
    bool deleted;
    zpopWithKeyAndReply(receiver, key, receiver->bpop.blockpos.wherefrom, receiver->bpop.count, &deleted);
    return blockedServed(deleted);
}
