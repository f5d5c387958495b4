/* t_zset.h — the sorted set type (Redis's t_zset.c): the skiplist, the
 * "Sorted Set API" over the two encodings, and the pops that the blocking
 * commands (BZPOPMIN, BZPOPMAX, BZMPOP, in t_zset.cpp) reuse.
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
 *  - Skiplist: every member is in the dict and in the skiplist exactly
 *    once. The node owns the member's bytes (inline, after its levels); the
 *    dict entry is keyed by the node itself, so it costs 16 bytes and the
 *    member is stored once.
 *  - No score is NaN: a command that would produce one fails.
 *  - A sorted set in the keyspace is never empty: the command that removes
 *    its last member deletes the key.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "dict.h"
#include "object.h"
#include "ziplist.h"

struct client;

/* ========================================================================
 * The skiplist (William Pugh's, with Redis's three changes: scores may
 * repeat, ties are ordered by member, and level 0 is doubly linked through
 * `backward` so ZREVRANGE walks back).
 * ====================================================================== */

constexpr int ZSKIPLIST_MAXLEVEL = 32; /* enough for 2^64 elements */
constexpr double ZSKIPLIST_P = 0.25;   /* a node reaches level i+1 with probability P */

/* One node: the score, the backward link, a level array of `height`
 * entries, then the member's bytes. Created only by the skiplist functions
 * below, and freed only by them or by the skiplist's destructor. */
struct zskiplistNode {
    struct zskiplistLevel {
        zskiplistNode *forward;
        /* Nodes crossed by following `forward` (the difference of their
         * ranks): adding spans along a search path gives a rank. */
        unsigned long span;
    };

    double score;
    zskiplistNode *backward; /* the previous node at level 0; null for the first */

    std::string_view ele() const { return {reinterpret_cast<const char *>(level + height_), elelen_}; }
    int height() const { return height_; }

    /* One block for the header, the levels and the member (a 10-byte member
     * on a level-1 node: 50 bytes; Redis allocates the node and an sds). */
    static zskiplistNode *create(int height, double score, std::string_view ele);
    static void destroy(zskiplistNode *node);

    zskiplistNode(const zskiplistNode &) = delete;
    zskiplistNode &operator=(const zskiplistNode &) = delete;

private:
    zskiplistNode(int height, double score, uint32_t elelen);

    uint32_t elelen_;
    uint8_t height_;

public:
    /* A flexible array member, the C idiom g++ and clang accept in C++ (as
     * adlist's listNode does); the member's bytes follow it. */
    zskiplistLevel level[];
};

/* The list: a header node of ZSKIPLIST_MAXLEVEL levels that holds no
 * element, the tail for backward walks, the length, and the highest level
 * in use. Owns its nodes (RAII for the whole list). */
struct zskiplist {
    zskiplistNode *header;
    zskiplistNode *tail = nullptr;
    unsigned long length = 0;
    int level = 1;

    zskiplist();  /* zslCreate */
    ~zskiplist(); /* zslFree */
    zskiplist(const zskiplist &) = delete;
    zskiplist &operator=(const zskiplist &) = delete;
};

/* A score range: min and max, each inclusive or exclusive ("(1.5"). */
struct zrangespec {
    double min, max;
    bool minex = false, maxex = false;
};

/* One end of a lexicographic range: "-" (before every string), "+" (after
 * every string), "[value" (inclusive) or "(value" (exclusive). The value is
 * a view of the command's argument. */
struct zlexbound {
    enum Kind : uint8_t { MIN, STRING, MAX } kind = STRING; /* in this order */
    bool ex = false;
    std::string_view value;
};
struct zlexrangespec {
    zlexbound min, max;
};

/* Member and score live in the node; the dict only points at it. */
struct zsetDictKey {
    zskiplistNode *node;
    operator std::string_view() const { return node->ele(); }
};
struct zsetDictTraits {
    using lookup_type = std::string_view;
    static uint64_t hash(std::string_view member) { return dictGenHashFunction(member.data(), member.size()); }
    static bool equal(zsetDictKey k, std::string_view member) { return k.node->ele() == member; }
};
struct zsetDictNoValue {};
using zsetDict = dict<zsetDictKey, zsetDictNoValue, zsetDictTraits>;

/* The skiplist encoding. The dict comes first: MEMORY USAGE measures the
 * zset's allocation at the dict's address. */
struct zset {
    zsetDict dict;
    zskiplist zsl;
};

inline zset &objectZset(const robj *o) { return *static_cast<zset *>(o->ptr); }

/* zslInsert: the member must not be in the list (the dict says so). */
zskiplistNode *zslInsert(zskiplist *zsl, double score, std::string_view ele);
/* zslDelete: removes and frees the node of (score, ele); false if none. */
bool zslDelete(zskiplist *zsl, double score, std::string_view ele);
/* zslUpdateScore: (curscore, ele) must be in the list. Returns its node,
 * the same one (moved if its place changes), so dict entries stay valid. */
zskiplistNode *zslUpdateScore(zskiplist *zsl, double curscore, std::string_view ele, double newscore);
/* zslGetRank: 1-based rank of (score, ele), 0 when it is not there. */
unsigned long zslGetRank(zskiplist *zsl, double score, std::string_view ele);
/* zslGetElementByRank: the node of 1-based `rank`, or null. */
zskiplistNode *zslGetElementByRank(zskiplist *zsl, unsigned long rank);

bool zslValueGteMin(double value, const zrangespec &spec);
bool zslValueLteMax(double value, const zrangespec &spec);
bool zslLexValueGteMin(std::string_view value, const zlexrangespec &spec);
bool zslLexValueLteMax(std::string_view value, const zlexrangespec &spec);
/* The first / last node in range, or null. */
zskiplistNode *zslFirstInRange(zskiplist *zsl, const zrangespec &range);
zskiplistNode *zslLastInRange(zskiplist *zsl, const zrangespec &range);
zskiplistNode *zslFirstInLexRange(zskiplist *zsl, const zlexrangespec &range);
zskiplistNode *zslLastInLexRange(zskiplist *zsl, const zlexrangespec &range);
/* Remove the nodes in range from the list and their entries from `dict`;
 * ranks are 1-based and inclusive. Return how many were removed. */
unsigned long zslDeleteRangeByScore(zskiplist *zsl, const zrangespec &range, zsetDict &dict);
unsigned long zslDeleteRangeByLex(zskiplist *zsl, const zlexrangespec &range, zsetDict &dict);
unsigned long zslDeleteRangeByRank(zskiplist *zsl, unsigned long start, unsigned long end, zsetDict &dict);

/* Parsing ranges as Redis does: scores with strtod ("(1.5", "-inf", " 1",
 * "0x10", "" is 0; NaN refused), lex items "-", "+", "[a", "(a". */
bool zslParseRange(std::string_view min, std::string_view max, zrangespec *spec);
bool zslParseLexRange(std::string_view min, std::string_view max, zlexrangespec *spec);

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
 * whole that turns out small: zsetConvertToZiplistIfNeeded). */
void zsetConvert(robj *zobj, unsigned encoding);
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
