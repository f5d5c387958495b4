/* t_list.cpp — the list type: Redis 2.6's t_list.c (two encodings behind one
 * "List Type API") serving Redis 7.0's list commands, with their options,
 * replies and error texts.
 *
 * A list starts as a ziplist, one compact buffer, and turns into a
 * linkedlist when a value longer than list-max-ziplist-value bytes is added
 * or when it would hold more than list-max-ziplist-entries entries, whichever
 * command adds it (LPUSH, RPUSH, LPUSHX, RPUSHX, LINSERT, LSET, the
 * destination of RPOPLPUSH and LMOVE). Invariants:
 *  - Every command goes through the List Type API below, so no command
 *    depends on the encoding (LRANGE and the pops stream straight from the
 *    encoding into the reply buffer, without copying the values first).
 *  - A list emptied by a command is deleted from the keyspace by that
 *    command; a new list enters it through dbAdd, before its first element
 *    is pushed, as in Redis.
 *  - Every write calls signalModifiedKey and adds to server.dirty as Redis
 *    does (one per element added or removed).
 */
#include "t_list.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <memory>
#include <optional>
#include <span>

#include "notify.h"
#include "server.h"
#include "livetrace.h"

/* ========================================================================
 * List Type API
 * ====================================================================== */

std::string_view listTypeValueView(const listTypeValue &v, char (&buf)[LONG_STR_SIZE]) {
    if (!v.isInt) return v.sval;
    return std::string_view(buf, static_cast<size_t>(ll2string(buf, sizeof(buf), v.lval)));
}

void addReplyListValue(client *c, const listTypeValue &v) {
    if (v.isInt) addReplyBulkLongLong(c, v.lval);
    else addReplyBulk(c, v.sval);
}

static bool ziplistValueTooLong(std::string_view value) {
    return value.size() > static_cast<unsigned long long>(server.list_max_ziplist_value);
}

/* Is the ziplist already at list-max-ziplist-entries, so one more entry would
 * overflow it? */
static bool ziplistIsFull(const robj *subject) {
    return objectZiplist(subject).len() >= static_cast<unsigned long long>(server.list_max_ziplist_entries);
}

encodingTrigger listValueOverLimit(size_t len) {
    return {"value over list-max-ziplist-value", "value_len", static_cast<long long>(len),
            server.list_max_ziplist_value};
}

encodingTrigger listEntriesOverLimit(unsigned long entries) {
    return {"entries over list-max-ziplist-entries", "entries", static_cast<long long>(entries),
            server.list_max_ziplist_entries};
}

/* A value too long for a ziplist converts the list before it is added. */
void listTypeTryConversion(robj *subject, std::string_view value) {
    if (subject->encoding == OBJ_ENCODING_ZIPLIST && ziplistValueTooLong(value))
        listTypeConvert(subject, OBJ_ENCODING_LINKEDLIST, listValueOverLimit(value.size()));
}

/* ziplist -> linkedlist, the only conversion there is. A linkedlist never
 * turns back into a ziplist, even when it shrinks below both thresholds:
 * that is Redis 2.6's design, and for a good reason — a list whose length
 * hovers around the threshold (a queue pushed and popped at about the same
 * rate) would otherwise convert back and forth, copying every element each
 * time, instead of paying for one conversion in its life. */
void listTypeConvert(robj *subject, unsigned enc, const encodingTrigger &why) {
    assert(subject->type == OBJ_LIST && subject->encoding == OBJ_ENCODING_ZIPLIST &&
           enc == OBJ_ENCODING_LINKEDLIST);
    if (traceOn(TRACE_ENCODING)) traceEncodingConversion("listTypeConvert", subject, enc, why);
    auto l = std::make_unique<list>();
    ziplist &zl = objectZiplist(subject);
    char buf[LONG_STR_SIZE];
    for (zlpos p = zl.index(0); p; p = zl.next(p)) l->addNodeTail(listTypeValueView(zl.get(p), buf));
    zl.~ziplist();
    subject->ptr = l.release();
    subject->encoding = OBJ_ENCODING_LINKEDLIST;
}

/* `value` must not point into this list (see t_list.h). */
void listTypePush(robj *subject, std::string_view value, int where) {
    listTypeTryConversion(subject, value);
    if (subject->encoding == OBJ_ENCODING_ZIPLIST && ziplistIsFull(subject))
        listTypeConvert(subject, OBJ_ENCODING_LINKEDLIST, listEntriesOverLimit(listTypeLength(subject) + 1));

    if (subject->encoding == OBJ_ENCODING_ZIPLIST) {
        objectZiplist(subject).push(value, where == LIST_HEAD ? ZIPLIST_HEAD : ZIPLIST_TAIL);
    } else if (where == LIST_HEAD) {
        objectLinkedList(subject).addNodeHead(value);
    } else {
        objectLinkedList(subject).addNodeTail(value);
    }
}

/* The list must not be empty: no list in the keyspace is. */
sds listTypePop(robj *subject, int where) {
    listTypeIterator li = listTypeInitIterator(subject, where == LIST_HEAD ? 0 : -1, LIST_TAIL);
    listTypeEntry entry;
    bool found = listTypeNext(&li, &entry);
    assert(found);
    (void)found;
    char buf[LONG_STR_SIZE];
    sds value(listTypeValueView(listTypeGet(&entry), buf));
    listTypeDelete(&entry);
    return value;
}

unsigned long listTypeLength(const robj *subject) {
    if (subject->encoding == OBJ_ENCODING_ZIPLIST) return objectZiplist(subject).len();
    return objectLinkedList(subject).length();
}

void listTypeDelRange(robj *subject, long start, unsigned long count) {
    if (subject->encoding == OBJ_ENCODING_ZIPLIST) return objectZiplist(subject).deleteRange(start, count);
    list &l = objectLinkedList(subject);
    for (listNode *ln = l.index(start); ln && count > 0; count--) {
        listNode *next = ln->next();
        l.delNode(ln);
        ln = next;
    }
}

ObjRef dupZiplistObject(const robj *o) {
    const ziplist &zl = objectZiplist(o);
    std::optional<ziplist> bytes = ziplist::fromBlob({reinterpret_cast<const char *>(zl.data()), zl.blobLen()});
    ObjRef copy = createObject(o->type, OBJ_ENCODING_ZIPLIST, nullptr);
    new (&copy->ptr) ziplist(std::move(*bytes));
    return copy;
}

/* A deep copy in the same encoding. */
ObjRef listTypeDup(const robj *o) {
    assert(o->type == OBJ_LIST);
    if (o->encoding == OBJ_ENCODING_ZIPLIST) return dupZiplistObject(o);
    ObjRef copy = createListObject();
    list &dst = objectLinkedList(copy.get());
    for (listNode *ln = objectLinkedList(o).first(); ln; ln = ln->next()) dst.addNodeTail(ln->value());
    return copy;
}

/* ---- the list's row of the types' operations (object.h) ---------------- */

static void freeListObject(robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) objectZiplist(o).~ziplist();
    else delete &objectLinkedList(o);
}

/* A linkedlist's nodes, each one block with its value: the first `samples`
 * are measured and the average stands for all, as Redis samples its
 * aggregate types (0 measures every node). */
static size_t listObjectComputeSize(const robj *o, size_t samples) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST)
        return malloc_usable_size(const_cast<unsigned char *>(objectZiplist(o).data()));
    const list &l = objectLinkedList(o);
    size_t size = malloc_usable_size(const_cast<list *>(&l)), nodesize = 0, measured = 0;
    for (listNode *ln = l.first(); ln && (samples == 0 || measured < samples); ln = ln->next(), measured++)
        nodesize += malloc_usable_size(ln);
    if (measured) size += static_cast<size_t>(static_cast<double>(nodesize) / measured * l.length());
    return size;
}

const objectType listObjectType = {.free = freeListObject,
                                   .dup = listTypeDup,
                                   .computeSize = listObjectComputeSize,
                                   .scan = nullptr, /* no LSCAN */
                                   .scan_pairs = false,
                                   .freeEffort = listTypeLength};

/* ---- iterating --------------------------------------------------------- */

listTypeIterator listTypeInitIterator(robj *subject, long index, int direction) {
    listTypeIterator li{subject, static_cast<unsigned char>(subject->encoding),
                        static_cast<unsigned char>(direction), {}, nullptr};
    if (li.encoding == OBJ_ENCODING_ZIPLIST) li.zi = objectZiplist(subject).index(index);
    else li.ln = objectLinkedList(subject).index(index);
    return li;
}

/* Stores the current element in `entry` and moves on; false at the end. */
bool listTypeNext(listTypeIterator *li, listTypeEntry *entry) {
    assert(li->subject->encoding == li->encoding); /* no conversion while iterating */
    entry->li = li;
    if (li->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(li->subject);
        entry->zi = li->zi;
        if (!entry->zi) return false;
        li->zi = li->direction == LIST_TAIL ? zl.next(li->zi) : zl.prev(li->zi);
        return true;
    }
    entry->ln = li->ln;
    if (!entry->ln) return false;
    li->ln = li->direction == LIST_TAIL ? li->ln->next() : li->ln->prev();
    return true;
}

listTypeValue listTypeGet(const listTypeEntry *entry) {
    if (entry->li->encoding == OBJ_ENCODING_ZIPLIST) return objectZiplist(entry->li->subject).get(entry->zi);
    listTypeValue v;
    v.sval = entry->ln->value();
    return v;
}

bool listTypeEqual(const listTypeEntry *entry, std::string_view value) {
    if (entry->li->encoding == OBJ_ENCODING_ZIPLIST) return objectZiplist(entry->li->subject).compare(entry->zi, value);
    return entry->ln->value() == value;
}

/* Inserting moves the ziplist entries after the new one: the iterator is
 * done with after this (LINSERT stops there). */
void listTypeInsert(listTypeEntry *entry, std::string_view value, int where) {
    robj *subject = entry->li->subject;
    if (entry->li->encoding == OBJ_ENCODING_ZIPLIST) {
        ziplist &zl = objectZiplist(subject);
        if (where == LIST_HEAD) return zl.insert(entry->zi, value);
        /* After the tail there is no entry to insert before: push. */
        if (zlpos next = zl.next(entry->zi)) zl.insert(next, value);
        else zl.push(value, ZIPLIST_TAIL);
        return;
    }
    objectLinkedList(subject).insertNode(entry->ln, value, where == LIST_TAIL);
}

/* LSET: the entry now holds `value`, in the same place. A node holds its
 * value inline and cannot grow, so it is replaced by a new one. */
static void listTypeReplace(listTypeEntry *entry, std::string_view value) {
    robj *subject = entry->li->subject;
    if (entry->li->encoding == OBJ_ENCODING_ZIPLIST) return objectZiplist(subject).replace(entry->zi, value);
    list &l = objectLinkedList(subject);
    l.insertNode(entry->ln, value, true);
    l.delNode(entry->ln);
}

void listTypeDelete(listTypeEntry *entry) {
    listTypeIterator *li = entry->li;
    if (li->encoding == OBJ_ENCODING_ZIPLIST) {
        zlpos next = objectZiplist(li->subject).deleteEntry(entry->zi);
        /* The entries after the deleted one moved; those before it did not,
         * so an iterator going to the head already stands on the right one. */
        if (li->direction == LIST_TAIL) li->zi = next;
        return;
    }
    objectLinkedList(li->subject).delNode(entry->ln); /* li->ln already is its neighbour */
}

/* LINSERT and LSET find their entry before they know the value will be
 * written, and an iterator does not survive a conversion: when `value` is
 * too long for the ziplist, convert, then find the entry again by its
 * index. (Redis 2.6 converted before searching, so a LINSERT whose pivot
 * was missing, or an LSET out of range, converted a list it did not
 * change; here only a value really added converts.) */
static void listTypeTryConversionAt(listTypeEntry *entry, long index, std::string_view value) {
    listTypeIterator *li = entry->li;
    if (li->encoding != OBJ_ENCODING_ZIPLIST || !ziplistValueTooLong(value)) return;
    listTypeConvert(li->subject, OBJ_ENCODING_LINKEDLIST, listValueOverLimit(value.size()));
    *li = listTypeInitIterator(li->subject, index, li->direction);
    listTypeNext(li, entry);
}

/* ========================================================================
 * Shared by the commands
 * ====================================================================== */

/* What every command that removed elements does last (Redis's
 * listElementsRemoved): its event, then an emptied list leaves the keyspace. */
static void listElementsRemoved(client *c, std::string_view key, robj *o, long count, const char *event) {
    notifyKeyspaceEvent(NOTIFY_LIST, event, key, c->db->id);
    if (listTypeLength(o) == 0) {
        dbDelete(c->db, key);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
    }
    signalModifiedKey(c, c->db, key);
    server.dirty += count;
}

/* The events of a pop and a push at `where`. */
static const char *listPopEvent(int where) { return where == LIST_HEAD ? "lpop" : "rpop"; }
static const char *listPushEvent(int where) { return where == LIST_HEAD ? "lpush" : "rpush"; }

/* A new, empty list under `key` (filled by the caller right after). */
static robj *createListInKeyspace(client *c, std::string_view key) {
    ObjRef created = createZiplistObject();
    robj *o = created.get();
    dbAdd(c->db, key, std::move(created));
    return o;
}

/* The elements start..end (negative from the tail, clamped as LRANGE does)
 * as an array, tail first when `reverse`. Values go from the list into the
 * reply buffer as they are read. */
static void addListRangeReply(client *c, robj *o, long start, long end, bool reverse) {
    long llen = static_cast<long>(listTypeLength(o));
    if (start < 0) start += llen;
    if (end < 0) end += llen;
    if (start < 0) start = 0;
    /* start >= 0 now, so this is also true when end < 0. */
    if (start > end || start >= llen) return addReply(c, shared::empty_array);
    if (end >= llen) end = llen - 1;
    long rangelen = end - start + 1;
    addReplyArrayLen(c, rangelen);

    if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(o);
        for (zlpos p = zl.index(reverse ? end : start); rangelen--; p = reverse ? zl.prev(p) : zl.next(p))
            addReplyListValue(c, zl.get(p));
        return;
    }
    /* Walk from whichever end of the list is nearer (Redis 2.6). */
    long from = reverse ? end : start;
    listNode *ln = objectLinkedList(o).index(from > llen / 2 ? from - llen : from);
    for (; rangelen--; ln = reverse ? ln->prev() : ln->next()) addReplyBulk(c, ln->value());
}

/* Pops up to `count` elements from `where` and replies them as an array,
 * in the order they were popped (LPOP/RPOP with a count, LMPOP). */
static void listPopRangeAndReply(client *c, robj *o, std::string_view key, int where, long count) {
    long rangelen = std::min(count, static_cast<long>(listTypeLength(o)));
    long rangestart = where == LIST_HEAD ? 0 : -rangelen;
    addListRangeReply(c, o, rangestart, where == LIST_HEAD ? rangelen - 1 : -1, where == LIST_TAIL);
    listTypeDelRange(o, rangestart, static_cast<unsigned long>(rangelen));
    listElementsRemoved(c, key, o, rangelen, listPopEvent(where));
}

bool getListPositionFromObjectOrReply(client *c, std::string_view arg, int *position) {
    if (strEqualNoCase(arg, "right")) {
        *position = LIST_TAIL;
    } else if (strEqualNoCase(arg, "left")) {
        *position = LIST_HEAD;
    } else {
        addReplyErrorObject(c, shared::syntaxerr);
        return false;
    }
    return true;
}

/* ========================================================================
 * Pushing and inserting
 * ====================================================================== */

/* LPUSH, RPUSH, and with `xx` LPUSHX, RPUSHX (only onto an existing list). */
static void pushGenericCommand(client *c, int where, bool xx) {
    std::string_view key = c->argv[1];
    robj *lobj = lookupKeyWrite(c->db, key);
    if (checkType(c, lobj, OBJ_LIST)) return;
    if (!lobj) {
        if (xx) return addReply(c, shared::czero);
        lobj = createListInKeyspace(c, key);
    }
    for (size_t j = 2; j < c->argv.size(); j++) {
        listTypePush(lobj, c->argv[j], where);
        server.dirty++;
    }
    addReplyLongLong(c, static_cast<long long>(listTypeLength(lobj)));
    signalModifiedKey(c, c->db, key);
    notifyKeyspaceEvent(NOTIFY_LIST, listPushEvent(where), key, c->db->id);
}

void lpushCommand(client *c) { pushGenericCommand(c, LIST_HEAD, false); }
void rpushCommand(client *c) { pushGenericCommand(c, LIST_TAIL, false); }
void lpushxCommand(client *c) { pushGenericCommand(c, LIST_HEAD, true); }
void rpushxCommand(client *c) { pushGenericCommand(c, LIST_TAIL, true); }

/* LINSERT key BEFORE|AFTER pivot element: the new length, 0 for a missing
 * key, -1 when the pivot is not there. */
void linsertCommand(client *c) {
    int where;
    if (strEqualNoCase(c->argv[2], "after")) where = LIST_TAIL;
    else if (strEqualNoCase(c->argv[2], "before")) where = LIST_HEAD;
    else return addReplyErrorObject(c, shared::syntaxerr);

    robj *subject = lookupKeyWriteOrReply(c, c->argv[1], shared::czero);
    if (!subject || checkType(c, subject, OBJ_LIST)) return;
    std::string_view pivot = c->argv[3], value = c->argv[4];

    listTypeIterator li = listTypeInitIterator(subject, 0, LIST_TAIL);
    listTypeEntry entry;
    long index = 0;
    for (; listTypeNext(&li, &entry); index++) {
        if (!listTypeEqual(&entry, pivot)) continue;
        listTypeTryConversionAt(&entry, index, value);
        listTypeInsert(&entry, value, where);
        /* The insert may have taken the ziplist past its entry limit. */
        if (subject->encoding == OBJ_ENCODING_ZIPLIST &&
            listTypeLength(subject) > static_cast<unsigned long long>(server.list_max_ziplist_entries))
            listTypeConvert(subject, OBJ_ENCODING_LINKEDLIST, listEntriesOverLimit(listTypeLength(subject)));
        signalModifiedKey(c, c->db, c->argv[1]);
        notifyKeyspaceEvent(NOTIFY_LIST, "linsert", c->argv[1], c->db->id);
        server.dirty++;
        return addReplyLongLong(c, static_cast<long long>(listTypeLength(subject)));
    }
    addReplyLongLong(c, -1);
}

/* LSET key index element */
void lsetCommand(client *c) {
    robj *o = lookupKeyWriteOrReply(c, c->argv[1], shared::nokeyerr);
    if (!o || checkType(c, o, OBJ_LIST)) return;
    long index;
    if (!getLongFromObjectOrReply(c, c->argv[2], &index)) return;
    std::string_view value = c->argv[3];

    listTypeIterator li = listTypeInitIterator(o, index, LIST_TAIL);
    listTypeEntry entry;
    if (!listTypeNext(&li, &entry)) return addReplyErrorObject(c, shared::outofrangeerr);
    listTypeTryConversionAt(&entry, index, value);
    listTypeReplace(&entry, value);
    addReply(c, shared::ok);
    signalModifiedKey(c, c->db, c->argv[1]);
    notifyKeyspaceEvent(NOTIFY_LIST, "lset", c->argv[1], c->db->id);
    server.dirty++;
}

/* ========================================================================
 * Reading
 * ====================================================================== */

void llenCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_LIST)) return;
    addReplyLongLong(c, static_cast<long long>(listTypeLength(o)));
}

/* LINDEX key index: the key is looked up before the index is parsed, so a
 * missing key answers nil whatever the index. */
void lindexCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!o || checkType(c, o, OBJ_LIST)) return;
    long index;
    if (!getLongFromObjectOrReply(c, c->argv[2], &index)) return;
    listTypeIterator li = listTypeInitIterator(o, index, LIST_TAIL);
    listTypeEntry entry;
    if (listTypeNext(&li, &entry)) addReplyListValue(c, listTypeGet(&entry));
    else addReplyNull(c);
}

/* LRANGE key start stop: the range is parsed before the key is looked up. */
void lrangeCommand(client *c) {
    long start, end;
    if (!getLongFromObjectOrReply(c, c->argv[2], &start) || !getLongFromObjectOrReply(c, c->argv[3], &end)) return;
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::empty_array);
    if (!o || checkType(c, o, OBJ_LIST)) return;
    addListRangeReply(c, o, start, end, false);
}

/* LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len] */
void lposCommand(client *c) {
    std::string_view ele = c->argv[2];
    long rank = 1, count = -1, maxlen = 0; /* count -1: no COUNT option */
    for (size_t j = 3; j < c->argv.size(); j++) {
        std::string_view opt = c->argv[j];
        bool moreargs = j + 1 < c->argv.size();
        if (strEqualNoCase(opt, "rank") && moreargs) {
            if (!getLongFromObjectOrReply(c, c->argv[++j], &rank)) return;
            if (rank == 0)
                return addReplyError(c, "RANK can't be zero: use 1 to start from the first match, 2 from the "
                                        "second ... or use negative to start from the end of the list");
        } else if (strEqualNoCase(opt, "count") && moreargs) {
            if (!getPositiveLongFromObjectOrReply(c, c->argv[++j], &count, "COUNT can't be negative")) return;
        } else if (strEqualNoCase(opt, "maxlen") && moreargs) {
            if (!getPositiveLongFromObjectOrReply(c, c->argv[++j], &maxlen, "MAXLEN can't be negative")) return;
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }

    /* A negative rank counts matches from the tail. Redis 7.0 negates it
     * with wrapping arithmetic, so RANK -9223372036854775808 stays
     * negative, every match qualifies and COUNT never stops the scan; the
     * unsigned arithmetic below gives the same answers. */
    int direction = LIST_TAIL;
    if (rank < 0) {
        rank = static_cast<long>(0UL - static_cast<unsigned long>(rank));
        direction = LIST_HEAD;
    }

    robj *o = lookupKeyRead(c->db, c->argv[1]);
    if (!o) return count != -1 ? addReply(c, shared::empty_array) : addReplyNull(c);
    if (checkType(c, o, OBJ_LIST)) return;

    void *arraylenptr = count != -1 ? addReplyDeferredLen(c) : nullptr;
    long llen = static_cast<long>(listTypeLength(o));
    long index = 0, matches = 0, matchindex = -1, arraylen = 0;
    listTypeIterator li = listTypeInitIterator(o, direction == LIST_HEAD ? -1 : 0, direction);
    listTypeEntry entry;
    for (; listTypeNext(&li, &entry) && (maxlen == 0 || index < maxlen); index++, matchindex = -1) {
        if (!listTypeEqual(&entry, ele)) continue;
        matches++;
        matchindex = direction == LIST_TAIL ? index : llen - index - 1;
        if (matches < rank) continue;
        if (!arraylenptr) break;
        arraylen++;
        addReplyLongLong(c, matchindex);
        long taken = static_cast<long>(static_cast<unsigned long>(matches) - static_cast<unsigned long>(rank) + 1);
        if (count && taken >= count) break;
    }
    if (arraylenptr) setDeferredArrayLen(c, arraylenptr, arraylen);
    else if (matchindex != -1) addReplyLongLong(c, matchindex);
    else addReplyNull(c);
}

/* ========================================================================
 * Removing
 * ====================================================================== */

/* LTRIM key start stop: keeps start..stop, deleting the key if nothing is
 * left. Like Redis it signals the key even when nothing was removed. */
void ltrimCommand(client *c) {
    long start, end;
    if (!getLongFromObjectOrReply(c, c->argv[2], &start) || !getLongFromObjectOrReply(c, c->argv[3], &end)) return;
    robj *o = lookupKeyWriteOrReply(c, c->argv[1], shared::ok);
    if (!o || checkType(c, o, OBJ_LIST)) return;

    long llen = static_cast<long>(listTypeLength(o)), ltrim, rtrim;
    if (start < 0) start += llen;
    if (end < 0) end += llen;
    if (start < 0) start = 0;
    if (start > end || start >= llen) {
        ltrim = llen; /* an empty range empties the list */
        rtrim = 0;
    } else {
        if (end >= llen) end = llen - 1;
        ltrim = start;
        rtrim = llen - end - 1;
    }
    listTypeDelRange(o, 0, static_cast<unsigned long>(ltrim));
    if (rtrim) listTypeDelRange(o, -rtrim, static_cast<unsigned long>(rtrim));
    listElementsRemoved(c, c->argv[1], o, ltrim + rtrim, "ltrim");
    addReply(c, shared::ok);
}

/* LREM key count element: count > 0 removes the first `count` matches from
 * the head, count < 0 the first -count from the tail, 0 all of them. */
void lremCommand(client *c) {
    long toremove;
    if (!getLongFromObjectOrReply(c, c->argv[2], &toremove)) return;
    robj *subject = lookupKeyWriteOrReply(c, c->argv[1], shared::czero);
    if (!subject || checkType(c, subject, OBJ_LIST)) return;
    std::string_view value = c->argv[3];

    /* In unsigned, -LONG_MIN is 2^63: no list has that many matches. */
    unsigned long limit = toremove < 0 ? 0UL - static_cast<unsigned long>(toremove) : static_cast<unsigned long>(toremove);
    listTypeIterator li = toremove < 0 ? listTypeInitIterator(subject, -1, LIST_HEAD) : listTypeInitIterator(subject, 0, LIST_TAIL);
    listTypeEntry entry;
    unsigned long removed = 0;
    while (listTypeNext(&li, &entry)) {
        if (!listTypeEqual(&entry, value)) continue;
        listTypeDelete(&entry);
        removed++;
        if (removed == limit) break;
    }
    if (removed) listElementsRemoved(c, c->argv[1], subject, static_cast<long>(removed), "lrem");
    addReplyLongLong(c, static_cast<long long>(removed));
}

/* LPOP/RPOP key [count]: without a count, one bulk string (nil for a
 * missing key); with one, an array (nil array for a missing key, empty for
 * a count of 0). */
static void popGenericCommand(client *c, int where) {
    if (c->argv.size() > 3) return addReplyErrorArity(c);
    bool hascount = c->argv.size() == 3;
    long count = 0;
    if (hascount && !getPositiveLongFromObjectOrReply(c, c->argv[2], &count)) return;
    std::string_view key = c->argv[1];
    robj *o = lookupKeyWriteOrReply(c, key, hascount ? shared::null_array : shared::null_bulk);
    if (!o || checkType(c, o, OBJ_LIST)) return;

    if (hascount) {
        if (count == 0) return addReply(c, shared::empty_array);
        return listPopRangeAndReply(c, o, key, where, count);
    }
    /* Replied from the list itself, then deleted: no copy. */
    listTypeIterator li = listTypeInitIterator(o, where == LIST_HEAD ? 0 : -1, LIST_TAIL);
    listTypeEntry entry;
    listTypeNext(&li, &entry);
    addReplyListValue(c, listTypeGet(&entry));
    listTypeDelete(&entry);
    listElementsRemoved(c, key, o, 1, listPopEvent(where));
}

void lpopCommand(client *c) { popGenericCommand(c, LIST_HEAD); }
void rpopCommand(client *c) { popGenericCommand(c, LIST_TAIL); }

/* ========================================================================
 * Moving between lists
 * ====================================================================== */

/* Pushes the moved element onto the destination, creating it if needed,
 * and replies it. */
static void lmoveHandlePush(client *c, std::string_view dstkey, robj *dstobj, std::string_view value, int where) {
    if (!dstobj) dstobj = createListInKeyspace(c, dstkey);
    signalModifiedKey(c, c->db, dstkey);
    notifyKeyspaceEvent(NOTIFY_LIST, listPushEvent(where), dstkey, c->db->id);
    listTypePush(dstobj, value, where);
    addReplyBulk(c, value);
}

/* Source and destination may be the same list (a rotation), so the element
 * is popped as a copy before it is pushed. */
void lmoveGenericCommand(client *c, int wherefrom, int whereto) {
    std::string_view srckey = c->argv[1], dstkey = c->argv[2];
    robj *sobj = lookupKeyWriteOrReply(c, srckey, shared::null_bulk);
    if (!sobj || checkType(c, sobj, OBJ_LIST)) return;
    robj *dobj = lookupKeyWrite(c->db, dstkey);
    if (checkType(c, dobj, OBJ_LIST)) return;

    sds value = listTypePop(sobj, wherefrom);
    lmoveHandlePush(c, dstkey, dobj, value, whereto);
    listElementsRemoved(c, srckey, sobj, 1, listPopEvent(wherefrom));
}

void rpoplpushCommand(client *c) { lmoveGenericCommand(c, LIST_TAIL, LIST_HEAD); }

/* LMOVE source destination LEFT|RIGHT LEFT|RIGHT */
void lmoveCommand(client *c) {
    int wherefrom, whereto;
    if (!getListPositionFromObjectOrReply(c, c->argv[3], &wherefrom) ||
        !getListPositionFromObjectOrReply(c, c->argv[4], &whereto))
        return;
    lmoveGenericCommand(c, wherefrom, whereto);
}

/* ========================================================================
 * LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]
 * ====================================================================== */

/* A pop by LMPOP, BLPOP, BRPOP or BLMPOP reaches the AOF as the LPOP/RPOP
 * that does the same to the list, with the number of elements popped when
 * the command took a count (-1: it did not), as Redis 7.0 writes it. */
static void propagateListPop(client *c, std::string_view key, int where, long count) {
    char n[LONG_STR_SIZE];
    std::string_view argv[] = {where == LIST_HEAD ? "LPOP" : "RPOP", key,
                               std::string_view(n, count == -1 ? 0 : ll2string(n, sizeof(n), count))};
    rewriteOrAlsoPropagate(c, std::span(argv, count == -1 ? 2 : 3));
}

/* How many elements a pop of `count` (-1: the one-element form) takes. */
static long listPopCount(const robj *o, long count) {
    return std::min(count == -1 ? 1 : count, static_cast<long>(listTypeLength(o)));
}

/* Pops from the first of `keys` that holds a list: [key, [elements...]],
 * or a nil array when none does. A key of another type stops the search
 * with WRONGTYPE, even after missing keys. */
static void mpopGenericCommand(client *c, std::span<const std::string_view> keys, int where, long count) {
    for (std::string_view key : keys) {
        robj *o = lookupKeyWrite(c->db, key);
        if (!o) continue;
        if (checkType(c, o, OBJ_LIST)) return;
        addReplyArrayLen(c, 2);
        addReplyBulk(c, key);
        long popped = listPopCount(o, count);
        listPopRangeAndReply(c, o, key, where, count);
        return propagateListPop(c, key, where, popped);
    }
    addReplyNullArray(c);
}

void lmpopGenericCommand(client *c, size_t numkeys_idx, lmpopProc pop) {
    long numkeys;
    if (!getRangeLongFromObjectOrReply(c, c->argv[numkeys_idx], 1, LONG_MAX, &numkeys,
                                       "numkeys should be greater than 0"))
        return;
    /* The direction follows the keys; compared without adding, so that a
     * huge numkeys cannot overflow. */
    size_t argc = c->argv.size();
    if (static_cast<unsigned long>(numkeys) >= argc - numkeys_idx - 1) return addReplyErrorObject(c, shared::syntaxerr);
    size_t where_idx = numkeys_idx + static_cast<size_t>(numkeys) + 1;
    int where;
    if (!getListPositionFromObjectOrReply(c, c->argv[where_idx], &where)) return;

    long count = -1;
    for (size_t j = where_idx + 1; j < argc; j++) {
        if (count == -1 && strEqualNoCase(c->argv[j], "count") && j + 1 < argc) {
            if (!getRangeLongFromObjectOrReply(c, c->argv[++j], 1, LONG_MAX, &count, "count should be greater than 0"))
                return;
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }
    if (count == -1) count = 1;
    pop(c, std::span(c->argv).subspan(numkeys_idx + 1, static_cast<size_t>(numkeys)), where, count);
}

void lmpopCommand(client *c) { lmpopGenericCommand(c, 1, mpopGenericCommand); }

/* ========================================================================
 * The list's half of the blocking commands: BLPOP, BRPOP, BLMPOP,
 * BRPOPLPUSH, BLMOVE
 *
 * The commands themselves are in blocked.cpp (Redis has them here, in
 * t_list.c): when a key holds a list they act at once, with
 * listPopWithKeyAndReply or lmoveGenericCommand, else they block. Serving
 * a waiter once a key holds a list again is serveClientBlockedOnList's,
 * which handleClientsBlockedOnKeys calls.
 * ====================================================================== */

bool listPopWithKeyAndReply(client *c, robj *o, std::string_view key, int where, long count) {
    long popped = listPopCount(o, count);
    bool emptied = listTypeLength(o) == static_cast<unsigned long>(popped);
    addReplyArrayLen(c, 2);
    addReplyBulk(c, key);
    if (count != -1) {
        listPopRangeAndReply(c, o, key, where, count);
    } else {
        sds value = listTypePop(o, where);
        addReplyBulk(c, value);
        listElementsRemoved(c, key, o, 1, listPopEvent(where));
    }
    propagateListPop(c, key, where, count == -1 ? -1 : popped);
    return emptied;
}

/* A served BRPOPLPUSH is written as RPOPLPUSH, a served BLMOVE as LMOVE
 * with its directions in Redis's words ("left", "right"). Redis tells the
 * two apart by lastcmd->proc; brpoplpushCommand is blocked.cpp's, a layer
 * above the types, so here by the command's name. */
static void propagateServedMove(client *receiver, std::string_view src, std::string_view dst, blockPos pos) {
    auto side = [](int where) { return where == LIST_HEAD ? "left" : "right"; };
    std::string_view argv[] = {"LMOVE", src, dst, side(pos.wherefrom), side(pos.whereto)};
    bool rpoplpush = receiver->lastcmd->fullname == "brpoplpush";
    if (rpoplpush) argv[0] = "RPOPLPUSH";
    rewriteOrAlsoPropagate(receiver, std::span(argv, rpoplpush ? 3 : 5));
}

/* A BRPOPLPUSH/BLMOVE whose destination now holds another type gets
 * WRONGTYPE and the element stays in the source, for the next waiter. */
blockedServe serveClientBlockedOnList(client *receiver, robj *o, std::string_view key) {
    const blockingState &bpop = receiver->bpop;
    if (!bpop.target)
        return blockedServed(listPopWithKeyAndReply(receiver, o, key, bpop.blockpos.wherefrom, bpop.count));

    std::string_view dstkey = *bpop.target;
    robj *dstobj = lookupKeyWrite(receiver->db, dstkey);
    if (checkType(receiver, dstobj, OBJ_LIST)) return blockedServe::served;
    sds value = listTypePop(o, bpop.blockpos.wherefrom);
    /* A new destination enters through dbAdd, which signals it: the
     * clients waiting there are served in handleClientsBlockedOnKeys's next
     * round (the chained wake). */
    lmoveHandlePush(receiver, dstkey, dstobj, value, bpop.blockpos.whereto);
    propagateServedMove(receiver, key, dstkey, bpop.blockpos);
    bool emptied = listTypeLength(o) == 0;
    listElementsRemoved(receiver, key, o, 1, listPopEvent(bpop.blockpos.wherefrom));
    return blockedServed(emptied);
}
