/* t_zset.h — the sorted set type (Redis's t_zset.c): the "Sorted Set
 * API" over the two encodings (the skiplist itself is in skiplist.h), and
 * the pops that the blocking commands (BZPOPMIN, BZPOPMAX, BZMPOP, in
 * blocked.cpp) reuse.
 *
 *   OBJ_ENCODING_ZIPLIST   member, score, member, score... in one ziplist
 *                          that sits in the robj's ptr slot, as a small
 *                          list's does (t_list.h), ordered by score, then
 *                          by member (byte order, as memcmp)
 *   OBJ_ENCODING_SKIPLIST  ptr owns a `zset`: a dict from member to its
 *                          skiplist node (where the score is), for ZSCORE
 *                          in O(1), and the skiplist ordered by (score,
 *                          member), for ranks and ranges in O(log N)
 *
 * Invariants:
 *  - A sorted set created by ZADD/ZINCRBY is a ziplist, unless its first
 *    member is longer than zset-max-ziplist-value bytes or
 *    zset-max-ziplist-entries is 0. It becomes a skiplist, for good, when a
 *    member longer than zset-max-ziplist-value is added or when it would
 *    hold more than zset-max-ziplist-entries members. A sorted set that a
 *    command builds whole (ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE,
 *    ZRANGESTORE) takes the encoding its final size calls for, as in Redis.
 *  - Ziplist: each member is followed by its score. A score that is an
 *    integer (within +-2^62) is stored as one, so -0 is stored as 0, as
 *    Redis 7 does; any other score as d2string's 17 significant digits,
 *    which read back as the very same double.
 *  - Skiplist: as skiplist.h keeps a `zset` (each member once in the dict
 *    and once in the skiplist).
 *  - No score is NaN: a command that would produce one fails.
 *  - A sorted set in the keyspace is never empty: the command that removes
 *    its last member deletes the key.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "networking.h" /* blockedServe */
#include "object.h"
#include "skiplist.h"
#include "ziplist.h"

struct client;

/* The sorted set's row of the objects' table (object.h): its free, dup,
 * size and scan (installServerHooks files it with registerObjectType). */
extern const objectType zsetObjectType;

/* The skiplist encoding's value (skiplist.h) in an robj. */
inline zset &objectZset(const robj *o) { return *static_cast<zset *>(o->ptr); }

/* ========================================================================
 * The Sorted Set API: every command goes through it, whatever the encoding.
 * ====================================================================== */

/* zsetAdd's input flags and what it reports (Redis's names). */
constexpr int ZADD_IN_NONE = 0, ZADD_IN_INCR = 1 << 0, ZADD_IN_NX = 1 << 1, ZADD_IN_XX = 1 << 2,
              ZADD_IN_GT = 1 << 3, ZADD_IN_LT = 1 << 4;
constexpr int ZADD_OUT_NOP = 1 << 0, ZADD_OUT_NAN = 1 << 1, ZADD_OUT_ADDED = 1 << 2, ZADD_OUT_UPDATED = 1 << 3;

/* Which end a pop takes from. */
constexpr int ZSET_MIN = 0, ZSET_MAX = 1;

unsigned long zsetLength(const robj *zobj);
/* ziplist -> skiplist (growth), or skiplist -> ziplist (a result built
 * whole that turns out small: zsetConvertToZiplistIfNeeded); `why` is for
 * the trace. */
void zsetConvert(robj *zobj, unsigned encoding, const encodingTrigger &why);
encodingTrigger zsetEntriesOverLimit(unsigned long entries);
encodingTrigger zsetValueOverLimit(size_t len);
void zsetConvertToZiplistIfNeeded(robj *zobj, size_t maxelelen);
/* ZADD's core: adds or updates `ele` under ZADD_IN_* flags, reports
 * ZADD_OUT_* in *out_flags and the member's score in *newscore (unless
 * nothing was done). False only for a NaN score (ZADD_OUT_NAN). */
bool zsetAdd(robj *zobj, double score, std::string_view ele, int in_flags, int *out_flags, double *newscore);
bool zsetDel(robj *zobj, std::string_view ele); /* false if not a member */
bool zsetScore(robj *zobj, std::string_view ele, double *score);
/* The score held by the ziplist entry at `sptr` (the one after a member). */
double zzlGetScore(const ziplist &zl, zlpos sptr);
long zsetRank(robj *zobj, std::string_view ele, bool reverse); /* 0-based; -1 if not a member */
ObjRef zsetDup(const robj *o);                                 /* COPY */
/* Calls proc(ctx, member, score) for each member whose score is within
 * `range`, in score order, until proc returns false (GEOSEARCH scans a
 * geohash box this way). */
using zsetRangeProc = bool (*)(void *ctx, std::string_view member, double score);
void zsetForEachInScoreRange(robj *zobj, const zrangespec &range, zsetRangeProc proc, void *ctx);

/* ========================================================================
 * Pops, shared with the blocking commands
 * ====================================================================== */

/* Pops up to `count` members (-1: one, the plain ZPOPMIN form) at `where`
 * from the first of `keys` holding a sorted set, and replies:
 *   ZPOPMIN/ZPOPMAX  [member, score, ...]            (emitkey, nested: no)
 *   BZPOPMIN/MAX     [key, member, score]            (emitkey)
 *   ZMPOP/BZMPOP     [key, [[member, score], ...]]   (emitkey, nested)
 * With no sorted set among the keys: a nil array if reply_nil_when_empty,
 * else an empty one. A key of another type stops the search with
 * WRONGTYPE. *deleted, if given, tells whether the pop emptied the key
 * (which is then deleted). */
void genericZpopCommand(client *c, std::span<const std::string_view> keys, int where, bool emitkey, long count,
                        bool use_nested_array, bool reply_nil_when_empty, bool *deleted = nullptr);

/* ZMPOP's argument parsing — numkeys at argv[numkeys_idx], the keys, MIN
 * or MAX, [COUNT count] — then `pop` runs with the keys (BZMPOP passes its
 * blocking pop, with numkeys at index 2). */
using zmpopProc = void (*)(client *c, std::span<const std::string_view> keys, int where, long count);
void zmpopGenericCommand(client *c, size_t numkeys_idx, zmpopProc pop);
/* The pop of BZPOPMIN and BZPOPMAX (count -1: [key, member, score]) and of
 * BZMPOP ([key, [[member, score], ...]]) at `where` of the sorted set under
 * `key`, written to the AOF as the ZPOPMIN/ZPOPMAX that does the same.
 * *deleted, if given, tells whether that emptied the key (then deleted). */
void zpopWithKeyAndReply(client *c, std::string_view key, int where, long count, bool *deleted = nullptr);
/* The sorted set's serveClientBlockedProc (blocked.h): gives one
 * BLOCKED_ZSET waiter the pop its command asked for from the sorted set
 * under `key`, replies and propagates it, and says whether that emptied
 * the key (and so deleted it). */
blockedServe serveClientBlockedOnSortedSet(client *receiver, robj *o, std::string_view key);

/* The sorted-set commands (the command table is in commands.cpp). */
void zaddCommand(client *c);
void zincrbyCommand(client *c);
void zremCommand(client *c);
void zscoreCommand(client *c);
void zmscoreCommand(client *c);
void zcardCommand(client *c);
void zcountCommand(client *c);
void zrankCommand(client *c);
void zrevrankCommand(client *c);
void zrangeCommand(client *c);
void zrangebyscoreCommand(client *c);
void zrevrangebyscoreCommand(client *c);
void zrangebylexCommand(client *c);
void zrevrangebylexCommand(client *c);
void zrevrangeCommand(client *c);
void zremrangebyscoreCommand(client *c);
void zremrangebyrankCommand(client *c);
void zremrangebylexCommand(client *c);
void zlexcountCommand(client *c);
void zpopminCommand(client *c);
void zpopmaxCommand(client *c);
void zrangestoreCommand(client *c);
void zunionstoreCommand(client *c);
void zinterstoreCommand(client *c);
void zunionCommand(client *c);
void zinterCommand(client *c);
void zdiffCommand(client *c);
void zdiffstoreCommand(client *c);
void zintercardCommand(client *c);
void zrandmemberCommand(client *c);
void zmpopCommand(client *c);
void zscanCommand(client *c);
