/* sort.cpp — SORT and SORT_RO (Redis 7.0's sort.c).
 *
 * SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC]
 *      [ALPHA] [STORE destination]
 *
 * The elements of the list, set or sorted set are copied into one buffer
 * (each followed by a NUL, for strtod and strcoll), sorted by their own
 * value or by the value a BY pattern names, and replied (or stored as a
 * list) directly or through GET patterns. As in Redis:
 *  - a BY pattern without '*' ("nosort") keeps the native order of a list
 *    or sorted set, and LIMIT then reads only the range asked for;
 *  - a set has no native order, so when its output is written (STORE) or
 *    runs in a script, "no order" becomes ALPHA, for replicas and AOF to
 *    see the same result;
 *  - numbers that tie are ordered by their elements' bytes; the full sort
 *    is stable (glibc's qsort, which Redis uses, is a merge sort), so
 *    ALPHA ties under BY keep the input order;
 *  - ALPHA compares with strcoll (the server's locale), except with STORE,
 *    where it compares bytes so that the stored list does not depend on a
 *    locale;
 *  - a sorted set is converted to its skiplist encoding for good. */
#include "sort.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "acl.h"
#include "commands/keyspecs.h"
#include "notify.h"
#include "server.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_zset.h"

namespace {

/* One element to sort: its bytes in the elements buffer, and what it is
 * sorted by (Redis's redisSortObject): a score, or under ALPHA BY the
 * bytes of the value the pattern named (in the weights buffer), if any. */
struct redisSortObject {
    size_t off, len;
    double score = 0;
    bool has_cmp = false;
    size_t cmp_off = 0, cmp_len = 0;
};

/* The bytes of the part of `s` a C string would see (Redis searches its
 * patterns with strchr and strstr). */
std::string_view cstringPart(std::string_view s) { return s.substr(0, s.find('\0')); }

/* What lookupKeyByPattern reads into: the key name it builds and the
 * printed form of an integer value. */
struct patternLookup {
    std::string key;
    char buf[LONG_STR_SIZE];
    StringBuf sbuf;
};

/* The value `pattern` names for the element `subst` (Redis's
 * lookupKeyByPattern): "#" is the element itself; otherwise the first '*'
 * is replaced by the element to make a key, whose string value is the
 * result, or, with "->field" after the '*', the field of the hash there.
 * Nothing for a pattern without '*', a missing key or field, or a value
 * of another type. The view is valid until the keyspace changes. */
std::optional<std::string_view> lookupKeyByPattern(redisDb *db, std::string_view pattern, std::string_view subst,
                                                   patternLookup &lk) {
    std::string_view spat = cstringPart(pattern);
    if (spat == "#") return subst;
    size_t star = spat.find('*');
    if (star == std::string_view::npos) return std::nullopt;
    size_t arrow = spat.find("->", star + 1);
    bool is_field = arrow != std::string_view::npos && arrow + 2 < spat.size();
    size_t keyend = is_field ? arrow : pattern.size();
    std::string_view field = is_field ? pattern.substr(arrow + 2) : std::string_view{};

    lk.key.assign(pattern.substr(0, star));
    lk.key.append(subst);
    lk.key.append(pattern.substr(star + 1, keyend - star - 1));
    robj *o = lookupKeyRead(db, lk.key);
    if (!o) return std::nullopt;
    if (is_field) {
        if (o->type != OBJ_HASH) return std::nullopt;
        std::optional<hashTypeValue> v = hashTypeGetValue(o, field);
        if (!v) return std::nullopt;
        return hashTypeValueView(*v, lk.buf);
    }
    if (o->type != OBJ_STRING) return std::nullopt;
    return objectStringView(o, lk.sbuf);
}

/* The score of a weight for a numeric sort, or nothing when it is not a
 * number strtod reads whole (Redis also refuses NaN and out of range).
 * Canonical integers skip strtod: it would give the same double. */
std::optional<double> sortScore(std::string_view v, std::string &cbuf) {
    long long ll;
    if (string2ll(v, &ll)) return static_cast<double>(ll);
    cbuf.assign(v);
    char *eptr;
    errno = 0;
    double score = std::strtod(cbuf.c_str(), &eptr);
    if (*eptr != '\0' || errno == ERANGE || std::isnan(score)) return std::nullopt;
    return score;
}

/* Redis's compareStringObjects: bytes, then length. */
int compareBytes(std::string_view a, std::string_view b) {
    int cmp = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
    if (cmp) return cmp;
    return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

/* The options of one SORT call, as parsed. */
struct sortOptions {
    bool desc = false, alpha = false, dontsort = false;
    long limit_start = 0, limit_count = -1;
    std::optional<std::string_view> sortby, storekey;
    std::vector<std::string_view> getops; /* GET patterns, in order */
};

/* Whether c's user may name any key, as BY and GET patterns do (Redis
 * asks this of every SORT; only those options need it). */
bool userHasFullKeyAccess(client *c) {
    return ACLUserCheckCmdWithUnrestrictedKeyAccess(c->user, c->cmd, c->argv, CMD_KEY_ACCESS);
}

/* Parses argv[2..]; false after replying the error. */
bool parseSortOptions(client *c, bool readonly, sortOptions &so) {
    std::optional<bool> full_key_access;
    auto fullKeyAccess = [&] {
        if (!full_key_access) full_key_access = userHasFullKeyAccess(c);
        return *full_key_access;
    };
    const auto &argv = c->argv;
    for (size_t j = 2; j < argv.size(); j++) {
        size_t leftargs = argv.size() - j - 1;
        std::string_view opt = argv[j];
        if (strEqualNoCase(opt, "asc")) {
            so.desc = false;
        } else if (strEqualNoCase(opt, "desc")) {
            so.desc = true;
        } else if (strEqualNoCase(opt, "alpha")) {
            so.alpha = true;
        } else if (strEqualNoCase(opt, "limit") && leftargs >= 2) {
            if (!getLongFromObjectOrReply(c, argv[j + 1], &so.limit_start) ||
                !getLongFromObjectOrReply(c, argv[j + 2], &so.limit_count))
                return false;
            j += 2;
        } else if (!readonly && strEqualNoCase(opt, "store") && leftargs >= 1) {
            so.storekey = argv[++j];
        } else if (strEqualNoCase(opt, "by") && leftargs >= 1) {
            so.sortby = argv[++j];
            /* A constant BY names one weight for all: nothing to sort. */
            if (cstringPart(*so.sortby).find('*') == std::string_view::npos) {
                so.dontsort = true;
            } else if (!fullKeyAccess()) {
                addReplyError(c, "BY option of SORT denied due to insufficient ACL permissions.");
                return false;
            }
        } else if (strEqualNoCase(opt, "get") && leftargs >= 1) {
            if (!fullKeyAccess()) {
                addReplyError(c, "GET option of SORT denied due to insufficient ACL permissions.");
                return false;
            }
            so.getops.push_back(argv[++j]);
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
    }
    return true;
}

/* The elements to sort, with what they are sorted by. */
struct sortVector {
    std::vector<redisSortObject> v;
    std::string elements; /* each element's bytes, then a NUL */
    std::string weights;  /* ALPHA BY: each weight's bytes, then a NUL */

    void add(std::string_view ele) {
        v.push_back({elements.size(), ele.size()});
        elements.append(ele);
        elements.push_back('\0');
    }
    std::string_view ele(const redisSortObject &o) const { return {elements.data() + o.off, o.len}; }
    std::string_view cmp(const redisSortObject &o) const { return {weights.data() + o.cmp_off, o.cmp_len}; }
};

/* Loads the `count` list elements from `start` on (counted from the tail
 * when desc), in that direction. */
void loadListRange(robj *o, long start, long count, bool desc, sortVector &sv) {
    long len = static_cast<long>(listTypeLength(o));
    listTypeIterator li = listTypeInitIterator(o, desc ? len - start - 1 : start, desc ? LIST_HEAD : LIST_TAIL);
    listTypeEntry entry;
    char buf[LONG_STR_SIZE];
    while (count-- > 0 && listTypeNext(&li, &entry)) sv.add(listTypeValueView(listTypeGet(&entry), buf));
}

/* Loads `count` members of a skiplist-encoded sorted set from rank
 * `start` on (counted from the highest when desc), in that direction. */
void loadZsetRange(robj *o, long start, long count, bool desc, sortVector &sv) {
    zskiplist &zsl = objectZset(o).zsl;
    zskiplistNode *ln;
    if (desc) ln = start > 0 ? zslGetElementByRank(&zsl, zsl.length - start) : zsl.tail;
    else ln = start > 0 ? zslGetElementByRank(&zsl, start + 1) : zsl.header->level[0].forward;
    for (; count > 0 && ln; count--) {
        sv.add(ln->ele());
        ln = desc ? ln->backward : ln->level[0].forward;
    }
}

void loadSet(robj *o, sortVector &sv) {
    setTypeIterator si(o);
    setTypeValue v;
    char buf[LONG_STR_SIZE];
    while (setTypeNext(&si, &v)) sv.add(setTypeValueView(v, buf));
}

/* Computes each element's score or ALPHA weight; false if a numeric
 * weight is not a number (every element is still looked at, as Redis). */
bool loadSortWeights(client *c, const sortOptions &so, sortVector &sv) {
    bool ok = true;
    patternLookup lk;
    std::string cbuf;
    for (redisSortObject &o : sv.v) {
        std::optional<std::string_view> byval = sv.ele(o);
        if (so.sortby) byval = lookupKeyByPattern(c->db, *so.sortby, *byval, lk);
        if (!byval) continue; /* a missing weight: score 0, or ALPHA's "none" */
        if (so.alpha) {
            if (!so.sortby) continue; /* the element itself is compared */
            o.has_cmp = true;
            o.cmp_off = sv.weights.size();
            o.cmp_len = byval->size();
            sv.weights.append(*byval);
            sv.weights.push_back('\0');
        } else if (std::optional<double> score = sortScore(*byval, cbuf)) {
            o.score = *score;
        } else {
            ok = false;
        }
    }
    return ok;
}

/* Redis's sortCompare. */
int sortCompare(const sortOptions &so, const sortVector &sv, const redisSortObject &a, const redisSortObject &b) {
    int cmp;
    if (!so.alpha) {
        if (a.score > b.score) cmp = 1;
        else if (a.score < b.score) cmp = -1;
        else cmp = compareBytes(sv.ele(a), sv.ele(b)); /* a deterministic order for ties */
    } else if (so.sortby) {
        if (!a.has_cmp || !b.has_cmp) cmp = a.has_cmp == b.has_cmp ? 0 : (a.has_cmp ? 1 : -1);
        else if (so.storekey) cmp = compareBytes(sv.cmp(a), sv.cmp(b));
        else cmp = std::strcoll(sv.weights.data() + a.cmp_off, sv.weights.data() + b.cmp_off);
    } else if (so.storekey) {
        cmp = compareBytes(sv.ele(a), sv.ele(b));
    } else {
        cmp = std::strcoll(sv.elements.data() + a.off, sv.elements.data() + b.off);
    }
    return so.desc ? -cmp : cmp;
}

/* Sorts enough for [start, end] to hold their final elements: with BY and
 * a LIMIT, only that range is ordered (Redis's pqsort). */
void sortElements(const sortOptions &so, sortVector &sv, long start, long end) {
    auto less = [&](const redisSortObject &a, const redisSortObject &b) { return sortCompare(so, sv, a, b) < 0; };
    auto &v = sv.v;
    long len = static_cast<long>(v.size());
    if (so.sortby && (start != 0 || end != len - 1)) {
        if (end < start) return;
        std::nth_element(v.begin(), v.begin() + start, v.end(), less);
        std::partial_sort(v.begin() + start, v.begin() + end + 1, v.end(), less);
    } else {
        std::stable_sort(v.begin(), v.end(), less);
    }
}

/* The reply, or the list to store: each element in [start, end], or the
 * values of its GET patterns (nil, or "" in a stored list, for none). */
void addSortReply(client *c, const sortOptions &so, const sortVector &sv, long start, long end, long outputlen) {
    addReplyArrayLen(c, outputlen);
    patternLookup lk;
    for (long j = start; j <= end; j++) {
        std::string_view ele = sv.ele(sv.v[j]);
        if (so.getops.empty()) addReplyBulk(c, ele);
        for (std::string_view pattern : so.getops) {
            std::optional<std::string_view> val = lookupKeyByPattern(c->db, pattern, ele, lk);
            if (val) addReplyBulk(c, *val);
            else addReplyNull(c);
        }
    }
}

void storeSortResult(client *c, const sortOptions &so, const sortVector &sv, long start, long end, long outputlen) {
    std::string_view storekey = *so.storekey;
    if (outputlen == 0) {
        if (dbDelete(c->db, storekey)) {
            signalModifiedKey(c, c->db, storekey);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", storekey, c->db->id);
            server.dirty++;
        }
        return addReplyLongLong(c, 0);
    }
    ObjRef sobj = createZiplistObject();
    patternLookup lk;
    for (long j = start; j <= end; j++) {
        std::string_view ele = sv.ele(sv.v[j]);
        if (so.getops.empty()) listTypePush(sobj.get(), ele, LIST_TAIL);
        for (std::string_view pattern : so.getops)
            listTypePush(sobj.get(), lookupKeyByPattern(c->db, pattern, ele, lk).value_or(""), LIST_TAIL);
    }
    /* setKey adds the list through dbAdd: clients blocked on it wake. */
    setKey(c, c->db, storekey, std::move(sobj), 0);
    notifyKeyspaceEvent(NOTIFY_LIST, "sortstore", storekey, c->db->id);
    server.dirty += outputlen;
    addReplyLongLong(c, outputlen);
}

void sortCommandGeneric(client *c, bool readonly) {
    sortOptions so;
    if (!parseSortOptions(c, readonly, so)) return;

    robj *found = lookupKeyRead(c->db, c->argv[1]);
    if (found && found->type != OBJ_SET && found->type != OBJ_LIST && found->type != OBJ_ZSET)
        return addReplyErrorObject(c, shared::wrongtypeerr);
    /* The value stays alive whatever the lookups of the patterns do. */
    if (found) incrRefCount(found);
    ObjRef sortval = found ? ObjRef(found) : createZiplistObject();
    robj *o = sortval.get();

    /* A set's order would differ on replicas and in the AOF. */
    if (so.dontsort && o->type == OBJ_SET && (so.storekey || (c->flags & CLIENT_SCRIPT))) {
        so.dontsort = false;
        so.alpha = true;
        so.sortby.reset();
    }
    if (o->type == OBJ_ZSET && o->encoding != OBJ_ENCODING_SKIPLIST)
        zsetConvert(o, OBJ_ENCODING_SKIPLIST, {"SORT"});

    long vectorlen = static_cast<long>(o->type == OBJ_LIST  ? listTypeLength(o)
                                       : o->type == OBJ_SET ? setTypeSize(o)
                                                            : zsetLength(o));
    /* LIMIT, clamped to the value's size. */
    long start = std::min(std::max(so.limit_start, 0L), vectorlen);
    long limit_count = std::min(std::max(so.limit_count, -1L), vectorlen);
    long end = limit_count < 0 ? vectorlen - 1 : start + limit_count - 1;
    if (start >= vectorlen) {
        start = vectorlen - 1;
        end = vectorlen - 2;
    }
    if (end >= vectorlen) end = vectorlen - 1;

    sortVector sv;
    bool ranged = so.dontsort && o->type != OBJ_SET;
    if (ranged) {
        /* The native order, and only the range asked for. */
        long count = end - start + 1;
        sv.v.reserve(std::max(count, 0L));
        if (count > 0) {
            if (o->type == OBJ_LIST) loadListRange(o, start, count, so.desc, sv);
            else loadZsetRange(o, start, count, so.desc, sv);
        }
        end -= start;
        start = 0;
    } else {
        sv.v.reserve(vectorlen);
        if (o->type == OBJ_LIST) loadListRange(o, 0, vectorlen, false, sv);
        else if (o->type == OBJ_SET) loadSet(o, sv);
        else loadZsetRange(o, 0, vectorlen, false, sv);
    }

    if (!so.dontsort) {
        if (!loadSortWeights(c, so, sv)) return addReplyError(c, "One or more scores can't be converted into double");
        sortElements(so, sv, start, end);
    }

    long outputlen = (so.getops.empty() ? 1 : static_cast<long>(so.getops.size())) * (end - start + 1);
    if (so.storekey) storeSortResult(c, so, sv, start, end, outputlen);
    else addSortReply(c, so, sv, start, end, outputlen);
}

} // namespace

void sortCommand(client *c) { sortCommandGeneric(c, false); }
void sortroCommand(client *c) { sortCommandGeneric(c, true); }

/* SORT_RO reads its one key. */
int sortROGetKeys(const redisCommand *, std::span<const std::string_view>, getKeysResult *result) {
    result->keys.push_back({1, CMD_KEY_RO | CMD_KEY_ACCESS});
    return 1;
}

/* SORT's key, and the destination of its last STORE: the options are
 * walked as Redis does, skipping the arguments of LIMIT, GET and BY. */
int sortGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    result->keys.push_back({1, CMD_KEY_RO | CMD_KEY_ACCESS});
    std::optional<int> store;
    for (size_t i = 2; i < argv.size(); i++) {
        if (strEqualNoCase(argv[i], "limit")) i += 2;
        else if (strEqualNoCase(argv[i], "store") && i + 1 < argv.size()) store = static_cast<int>(i + 1);
        else if (strEqualNoCase(argv[i], "get") || strEqualNoCase(argv[i], "by")) i += 1;
    }
    if (store) result->keys.push_back({*store, CMD_KEY_OW | CMD_KEY_UPDATE});
    return static_cast<int>(result->keys.size());
}
