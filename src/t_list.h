/* t_list.h — the list type's API (Redis 2.6's t_list.c "List Type API"):
 * what the list commands, and the blocking ones, use so that they never
 * care which of the two encodings a list has.
 *
 *   OBJ_ENCODING_ZIPLIST     the ziplist object itself sits in the robj's
 *                            ptr slot (it is one pointer wide), as the sds of
 *                            a RAW string does: no extra allocation
 *   OBJ_ENCODING_LINKEDLIST  ptr owns a `list` (adlist.h) of nodes that hold
 *                            their values inline
 *
 * Invariants:
 *  - A new list is a ziplist. It becomes a linkedlist, for good, when a value
 *    longer than list-max-ziplist-value bytes is added or when it would hold
 *    more than list-max-ziplist-entries entries.
 *  - A list in the keyspace is never empty: the command that empties it
 *    deletes the key.
 *  - A listTypeValue read from a list points into it: it is valid until the
 *    list's next write, so a value moved within one list is copied first.
 */
#pragma once

#include <cstddef>
#include <new>
#include <span>
#include <string_view>

#include "adlist.h"
#include "networking.h" /* blockedServe */
#include "object.h"
#include "sds.h"
#include "util.h"
#include "ziplist.h"

struct client;

/* The list's row of the objects' table (object.h): its free, dup,
 * size and scan (installServerHooks files it with registerObjectType). */
extern const objectType listObjectType;

/* Which end of a list (Redis's LIST_HEAD / LIST_TAIL). As an iteration
 * direction, LIST_TAIL walks towards the tail. */
constexpr int LIST_HEAD = 0, LIST_TAIL = 1;

static_assert(sizeof(ziplist) == sizeof(void *) && alignof(ziplist) <= alignof(void *),
              "a ziplist must fit the robj's ptr slot");

inline ziplist &objectZiplist(robj *o) { return *std::launder(reinterpret_cast<ziplist *>(&o->ptr)); }
inline const ziplist &objectZiplist(const robj *o) { return objectZiplist(const_cast<robj *>(o)); }
inline list &objectLinkedList(const robj *o) { return *static_cast<list *>(o->ptr); }

/* A value read from a list: a ziplist stores numbers as integers, so either
 * a view of the bytes or the integer (the ziplist's own entry type). */
using listTypeValue = ziplistEntry;

/* The value's bytes; an integer is printed into `buf`. */
std::string_view listTypeValueView(const listTypeValue &v, char (&buf)[LONG_STR_SIZE]);

/* ---- the list as a whole -------------------------------------------- */
void listTypeTryConversion(robj *subject, std::string_view value);
/* Only ZIPLIST -> LINKEDLIST; `why` is for the trace, one of these two. */
encodingTrigger listValueOverLimit(size_t len);
encodingTrigger listEntriesOverLimit(unsigned long entries);
void listTypeConvert(robj *subject, unsigned enc, const encodingTrigger &why);
void listTypePush(robj *subject, std::string_view value, int where);
/* Removes the element at `where` and returns a copy of it. */
sds listTypePop(robj *subject, int where);
unsigned long listTypeLength(const robj *subject);
/* Removes `count` elements from index `start` (negative from the tail). */
void listTypeDelRange(robj *subject, long start, unsigned long count);
ObjRef listTypeDup(const robj *o); /* COPY */
/* A copy of a ziplist-encoded list, hash or sorted set, of the same type. */
ObjRef dupZiplistObject(const robj *o);

/* ---- iterating (listTypeInitIterator / listTypeNext) ------------------- */
struct listTypeIterator;

/* The element an iterator stands on (Redis's listTypeEntry). */
struct listTypeEntry {
    listTypeIterator *li;
    zlpos zi;     /* ziplist: the entry's position */
    listNode *ln; /* linkedlist: its node */
};

/* Walks from `index` towards the tail (LIST_TAIL) or the head (LIST_HEAD).
 * The list must keep its encoding while an iterator is in use; the only
 * writes allowed meanwhile are listTypeDelete and listTypeInsert on the
 * current entry. */
struct listTypeIterator {
    robj *subject;
    unsigned char encoding;
    unsigned char direction;
    zlpos zi;     /* the next entry to return */
    listNode *ln;
};

listTypeIterator listTypeInitIterator(robj *subject, long index, int direction);
bool listTypeNext(listTypeIterator *li, listTypeEntry *entry);
listTypeValue listTypeGet(const listTypeEntry *entry);
bool listTypeEqual(const listTypeEntry *entry, std::string_view value);
/* Inserts `value` before (LIST_HEAD) or after (LIST_TAIL) the entry; no
 * conversion happens here, the caller checks the thresholds. */
void listTypeInsert(listTypeEntry *entry, std::string_view value, int where);
/* Deletes the entry; the iterator goes on with the element after it. */
void listTypeDelete(listTypeEntry *entry);

/* Replies one value as a bulk string, straight from the list. */
void addReplyListValue(client *c, const listTypeValue &v);

/* ---- what the blocking list commands (blocked.cpp) use ------------------ */
/* "LEFT" / "RIGHT" (LMOVE, LMPOP, BLMOVE, BLMPOP) as LIST_HEAD / LIST_TAIL. */
bool getListPositionFromObjectOrReply(client *c, std::string_view arg, int *position);
/* RPOPLPUSH and LMOVE; BRPOPLPUSH and BLMOVE when their source holds a list. */
void lmoveGenericCommand(client *c, int wherefrom, int whereto);
/* LMPOP's argument parsing — numkeys at argv[numkeys_idx] (BLMPOP has its
 * timeout first), the keys, LEFT|RIGHT, [COUNT count] — then `pop` runs
 * with the keys (BLMPOP passes its blocking pop). */
using lmpopProc = void (*)(client *c, std::span<const std::string_view> keys, int where, long count);
void lmpopGenericCommand(client *c, size_t numkeys_idx, lmpopProc pop);
/* The pop of BLPOP and BRPOP (count -1: [key, element]) and of BLMPOP
 * ([key, [elements...]]) at `where` of `o`, the list under `key`, written
 * to the AOF as the LPOP/RPOP that does the same. Returns whether that
 * emptied the list, which is then deleted. */
bool listPopWithKeyAndReply(client *c, robj *o, std::string_view key, int where, long count);
/* The list's serveClientBlockedProc (blocked.h): gives one BLOCKED_LIST
 * waiter what its command asked for from `o`, the list under `key` — the
 * pop of its BLPOP, BRPOP or BLMPOP, or the move of its BRPOPLPUSH or
 * BLMOVE — replies and propagates it, and says whether that emptied the
 * list (and so deleted it). */
blockedServe serveClientBlockedOnList(client *receiver, robj *o, std::string_view key);

/* The list commands (the command table is in commands.cpp). */
void lpushCommand(client *c);
void rpushCommand(client *c);
void lpushxCommand(client *c);
void rpushxCommand(client *c);
void linsertCommand(client *c);
void llenCommand(client *c);
void lindexCommand(client *c);
void lsetCommand(client *c);
void lrangeCommand(client *c);
void ltrimCommand(client *c);
void lremCommand(client *c);
void lpopCommand(client *c);
void rpopCommand(client *c);
void rpoplpushCommand(client *c);
void lmoveCommand(client *c);
void lposCommand(client *c);
void lmpopCommand(client *c);
