/* skiplist.h — the sorted set's skiplist (Redis's zskiplist, in t_zset.c
 * there): nodes ordered by (score, member), with spans for ranks, plus the
 * dict from member to node that the skiplist encoding pairs it with
 * (`zset`). Plain data structure: it knows nothing of the server, of
 * objects or of clients; t_zset.h builds the sorted set type on it.
 *
 * Invariants:
 *  - Level 0 holds every node, ordered by score, then by member (byte
 *    order, as memcmp); each higher level is a subsequence of the one
 *    below. A level's `span` is the number of level-0 steps it jumps, so the
 *    spans along a search path add up to a rank.
 *  - `backward` and `tail` mirror level 0; `length` counts the nodes and
 *    `level` is the highest level in use (at least 1).
 *  - No score is NaN (zslInsert asserts it; callers refuse NaN first).
 *  - In a `zset`, every member is in the dict and in the skiplist exactly
 *    once. The node owns the member's bytes (inline, after its levels); the
 *    dict entry is keyed by the node itself, so it costs 16 bytes and the
 *    member is stored once.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dict.h"

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

/* The same, for either kind of range (Range is zrangespec or
 * zlexrangespec, the two instantiations skiplist.cpp provides), so that
 * t_zset.cpp writes each range walk once for both. zslGteMin: is node x at
 * or past the range's start? zslLteMax: at or before its end? */
bool zslRangeIsEmpty(const zrangespec &range);
bool zslRangeIsEmpty(const zlexrangespec &range);
bool zslGteMin(const zskiplistNode *x, const zrangespec &range);
bool zslGteMin(const zskiplistNode *x, const zlexrangespec &range);
bool zslLteMax(const zskiplistNode *x, const zrangespec &range);
bool zslLteMax(const zskiplistNode *x, const zlexrangespec &range);
template <typename Range>
zskiplistNode *zslFirstInAnyRange(zskiplist *zsl, const Range &range);
template <typename Range>
zskiplistNode *zslLastInAnyRange(zskiplist *zsl, const Range &range);
template <typename Range>
unsigned long zslDeleteRangeInAny(zskiplist *zsl, const Range &range, zsetDict &dict);

/* Parsing ranges as Redis does: scores with strtod ("(1.5", "-inf", " 1",
 * "0x10", "" is 0; NaN refused), lex items "-", "+", "[a", "(a". */
bool zslParseRange(std::string_view min, std::string_view max, zrangespec *spec);
bool zslParseLexRange(std::string_view min, std::string_view max, zlexrangespec *spec);
