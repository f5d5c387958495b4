/* skiplist.cpp — the sorted set's skiplist (Redis's t_zset.c, its zsl*
 * functions): insertion, deletion and score updates that keep spans right,
 * rank queries, score and lex ranges, and the range parsers the commands
 * share. See skiplist.h for the structure and its invariants.
 */
#include "skiplist.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <stdexcept>
#include <string>

#include "util.h" /* MAX_D2STRING_CHARS */

/* Node levels only; not for anything secret. Redis draws them from the
 * same random() as ZRANDMEMBER; here each file keeps its own generator. */
static uint64_t zslRandom() {
    static std::mt19937_64 generator{std::random_device{}()};
    return generator();
}

/* ========================================================================
 * The skiplist
 * ====================================================================== */

zskiplistNode::zskiplistNode(int height, double score, uint32_t elelen)
    : score(score), backward(nullptr), elelen_(elelen), height_(static_cast<uint8_t>(height)) {
    for (int i = 0; i < height; i++) level[i] = {nullptr, 0};
}

zskiplistNode *zskiplistNode::create(int height, double score, std::string_view ele) {
    if (ele.size() > UINT32_MAX) throw std::length_error("sorted set member larger than 4 GiB");
    size_t bytes = sizeof(zskiplistNode) + height * sizeof(zskiplistLevel) + ele.size();
    auto *node = new (::operator new(bytes)) zskiplistNode(height, score, static_cast<uint32_t>(ele.size()));
    if (!ele.empty()) memcpy(reinterpret_cast<char *>(node->level + height), ele.data(), ele.size());
    return node;
}

void zskiplistNode::destroy(zskiplistNode *node) {
    node->~zskiplistNode();
    ::operator delete(node);
}

zskiplist::zskiplist() : header(zskiplistNode::create(ZSKIPLIST_MAXLEVEL, 0, {})) {}

/* Iterative, so millions of nodes cannot overflow the stack. */
zskiplist::~zskiplist() {
    for (zskiplistNode *x = header; x;) {
        zskiplistNode *next = x->level[0].forward;
        zskiplistNode::destroy(x);
        x = next;
    }
}

/* 1 to ZSKIPLIST_MAXLEVEL with P(level > n) = P^n: a quarter of the nodes
 * reach level 2, so a search skips about 3 nodes of 4 at each level. */
static int zslRandomLevel() {
    int level = 1;
    while ((zslRandom() & 0xFFFF) < static_cast<uint64_t>(ZSKIPLIST_P * 0xFFFF)) level++;
    return std::min(level, ZSKIPLIST_MAXLEVEL);
}

/* Does node x sort before (score, ele)? */
static bool zslNodeBefore(const zskiplistNode *x, double score, std::string_view ele) {
    return x->score < score || (x->score == score && x->ele() < ele);
}

/* The search path of (score, ele): update[i] is the last node at level i
 * that sorts before it, rank[i] that node's rank. Returns the node after
 * update[0], where (score, ele) is or would go. */
static zskiplistNode *zslSearchPath(zskiplist *zsl, double score, std::string_view ele,
                                    zskiplistNode **update, unsigned long *rank) {
    zskiplistNode *x = zsl->header;
    for (int i = zsl->level - 1; i >= 0; i--) {
        rank[i] = i == zsl->level - 1 ? 0 : rank[i + 1];
        while (x->level[i].forward && zslNodeBefore(x->level[i].forward, score, ele)) {
            rank[i] += x->level[i].span;
            x = x->level[i].forward;
        }
        update[i] = x;
    }
    return x->level[0].forward;
}

/* Links node x, at its own height, after the search path found for it. */
static void zslLinkNode(zskiplist *zsl, zskiplistNode *x, zskiplistNode **update, unsigned long *rank) {
    int level = x->height();
    if (level > zsl->level) {
        for (int i = zsl->level; i < level; i++) {
            rank[i] = 0;
            update[i] = zsl->header;
            update[i]->level[i].span = zsl->length;
        }
        zsl->level = level;
    }
    for (int i = 0; i < level; i++) {
        x->level[i].forward = update[i]->level[i].forward;
        update[i]->level[i].forward = x;
        /* rank[0] - rank[i] nodes lie between update[i] and x. */
        x->level[i].span = update[i]->level[i].span - (rank[0] - rank[i]);
        update[i]->level[i].span = (rank[0] - rank[i]) + 1;
    }
    /* Higher links jump over x now: one node more. */
    for (int i = level; i < zsl->level; i++) update[i]->level[i].span++;

    x->backward = update[0] == zsl->header ? nullptr : update[0];
    if (x->level[0].forward) x->level[0].forward->backward = x;
    else zsl->tail = x;
    zsl->length++;
}

zskiplistNode *zslInsert(zskiplist *zsl, double score, std::string_view ele) {
    assert(!std::isnan(score));
    zskiplistNode *update[ZSKIPLIST_MAXLEVEL];
    unsigned long rank[ZSKIPLIST_MAXLEVEL];
    zslSearchPath(zsl, score, ele, update, rank);
    zskiplistNode *x = zskiplistNode::create(zslRandomLevel(), score, ele);
    zslLinkNode(zsl, x, update, rank);
    return x;
}

/* zslDeleteNode: unlinks x (not freed), update[] being its search path. */
static void zslDeleteNode(zskiplist *zsl, zskiplistNode *x, zskiplistNode **update) {
    for (int i = 0; i < zsl->level; i++) {
        if (update[i]->level[i].forward == x) {
            update[i]->level[i].span += x->level[i].span - 1;
            update[i]->level[i].forward = x->level[i].forward;
        } else {
            update[i]->level[i].span -= 1;
        }
    }
    if (x->level[0].forward) x->level[0].forward->backward = x->backward;
    else zsl->tail = x->backward;
    while (zsl->level > 1 && !zsl->header->level[zsl->level - 1].forward) zsl->level--;
    zsl->length--;
}

bool zslDelete(zskiplist *zsl, double score, std::string_view ele) {
    zskiplistNode *update[ZSKIPLIST_MAXLEVEL];
    unsigned long rank[ZSKIPLIST_MAXLEVEL];
    zskiplistNode *x = zslSearchPath(zsl, score, ele, update, rank);
    /* Scores repeat: the member must match too. */
    if (!x || x->score != score || x->ele() != ele) return false;
    zslDeleteNode(zsl, x, update);
    zskiplistNode::destroy(x);
    return true;
}

/* A node that stays between its neighbours only changes its score; one
 * that moves is unlinked and linked again at its new place — the same
 * node, with its height and member, so nothing is allocated and the dict
 * entry pointing at it stays valid (Redis frees it and allocates another). */
zskiplistNode *zslUpdateScore(zskiplist *zsl, double curscore, std::string_view ele, double newscore) {
    zskiplistNode *update[ZSKIPLIST_MAXLEVEL];
    unsigned long rank[ZSKIPLIST_MAXLEVEL];
    zskiplistNode *x = zslSearchPath(zsl, curscore, ele, update, rank);
    assert(x && x->score == curscore && x->ele() == ele);
    if ((!x->backward || x->backward->score < newscore) &&
        (!x->level[0].forward || x->level[0].forward->score > newscore)) {
        x->score = newscore;
        return x;
    }
    zslDeleteNode(zsl, x, update);
    x->score = newscore;
    zslSearchPath(zsl, newscore, x->ele(), update, rank);
    zslLinkNode(zsl, x, update, rank);
    return x;
}

unsigned long zslGetRank(zskiplist *zsl, double score, std::string_view ele) {
    zskiplistNode *x = zsl->header;
    unsigned long rank = 0;
    for (int i = zsl->level - 1; i >= 0; i--) {
        while (x->level[i].forward &&
               (zslNodeBefore(x->level[i].forward, score, ele) ||
                (x->level[i].forward->score == score && x->level[i].forward->ele() == ele))) {
            rank += x->level[i].span;
            x = x->level[i].forward;
        }
        if (x != zsl->header && x->score == score && x->ele() == ele) return rank;
    }
    return 0;
}

zskiplistNode *zslGetElementByRank(zskiplist *zsl, unsigned long rank) {
    zskiplistNode *x = zsl->header;
    unsigned long traversed = 0;
    for (int i = zsl->level - 1; i >= 0; i--) {
        while (x->level[i].forward && traversed + x->level[i].span <= rank) {
            traversed += x->level[i].span;
            x = x->level[i].forward;
        }
        if (traversed == rank) return rank ? x : nullptr;
    }
    return nullptr;
}

/* ========================================================================
 * Ranges: by score (zrangespec) and by member (zlexrangespec). Each
 * algorithm is written once for both, through the overloads zslGteMin /
 * zslLteMax (is the node past the range's start / before its end?) and
 * zslRangeIsEmpty.
 * ====================================================================== */

bool zslValueGteMin(double value, const zrangespec &spec) { return spec.minex ? value > spec.min : value >= spec.min; }
bool zslValueLteMax(double value, const zrangespec &spec) { return spec.maxex ? value < spec.max : value <= spec.max; }

/* Orders bounds and values: "-" first, strings by bytes, "+" last. */
static int zslLexCompare(const zlexbound &a, const zlexbound &b) {
    if (a.kind != b.kind) return a.kind < b.kind ? -1 : 1;
    if (a.kind != zlexbound::STRING) return 0;
    int cmp = a.value.compare(b.value);
    return (cmp > 0) - (cmp < 0);
}

bool zslLexValueGteMin(std::string_view value, const zlexrangespec &spec) {
    int cmp = zslLexCompare({zlexbound::STRING, false, value}, spec.min);
    return spec.min.ex ? cmp > 0 : cmp >= 0;
}

bool zslLexValueLteMax(std::string_view value, const zlexrangespec &spec) {
    int cmp = zslLexCompare({zlexbound::STRING, false, value}, spec.max);
    return spec.max.ex ? cmp < 0 : cmp <= 0;
}

bool zslRangeIsEmpty(const zrangespec &r) { return r.min > r.max || (r.min == r.max && (r.minex || r.maxex)); }
bool zslRangeIsEmpty(const zlexrangespec &r) {
    int cmp = zslLexCompare(r.min, r.max);
    return cmp > 0 || (cmp == 0 && (r.min.ex || r.max.ex));
}

bool zslGteMin(const zskiplistNode *x, const zrangespec &r) { return zslValueGteMin(x->score, r); }
bool zslGteMin(const zskiplistNode *x, const zlexrangespec &r) { return zslLexValueGteMin(x->ele(), r); }
bool zslLteMax(const zskiplistNode *x, const zrangespec &r) { return zslValueLteMax(x->score, r); }
bool zslLteMax(const zskiplistNode *x, const zlexrangespec &r) { return zslLexValueLteMax(x->ele(), r); }

/* zslIsInRange: does any part of the list fall in the range? */
template <typename Range>
static bool zslIsInAnyRange(zskiplist *zsl, const Range &range) {
    if (zslRangeIsEmpty(range)) return false;
    if (!zsl->tail || !zslGteMin(zsl->tail, range)) return false;
    zskiplistNode *first = zsl->header->level[0].forward;
    return first && zslLteMax(first, range);
}

template <typename Range>
zskiplistNode *zslFirstInAnyRange(zskiplist *zsl, const Range &range) {
    if (!zslIsInAnyRange(zsl, range)) return nullptr;
    zskiplistNode *x = zsl->header;
    for (int i = zsl->level - 1; i >= 0; i--) /* go forward while *out* of range */
        while (x->level[i].forward && !zslGteMin(x->level[i].forward, range)) x = x->level[i].forward;
    x = x->level[0].forward; /* not null: the range is inside the list */
    return zslLteMax(x, range) ? x : nullptr;
}

template <typename Range>
zskiplistNode *zslLastInAnyRange(zskiplist *zsl, const Range &range) {
    if (!zslIsInAnyRange(zsl, range)) return nullptr;
    zskiplistNode *x = zsl->header;
    for (int i = zsl->level - 1; i >= 0; i--) /* go forward while *in* range */
        while (x->level[i].forward && zslLteMax(x->level[i].forward, range)) x = x->level[i].forward;
    return zslGteMin(x, range) ? x : nullptr;
}

zskiplistNode *zslFirstInRange(zskiplist *zsl, const zrangespec &range) { return zslFirstInAnyRange(zsl, range); }
zskiplistNode *zslLastInRange(zskiplist *zsl, const zrangespec &range) { return zslLastInAnyRange(zsl, range); }
zskiplistNode *zslFirstInLexRange(zskiplist *zsl, const zlexrangespec &range) { return zslFirstInAnyRange(zsl, range); }
zskiplistNode *zslLastInLexRange(zskiplist *zsl, const zlexrangespec &range) { return zslLastInAnyRange(zsl, range); }

/* Unlinks x, drops its dict entry (which reads the member through x, so
 * first), then frees it. */
static void zslDeleteNodeAndEntry(zskiplist *zsl, zskiplistNode *x, zskiplistNode **update, zsetDict &dict) {
    zslDeleteNode(zsl, x, update);
    dict.erase(x->ele());
    zskiplistNode::destroy(x);
}

template <typename Range>
unsigned long zslDeleteRangeInAny(zskiplist *zsl, const Range &range, zsetDict &dict) {
    zskiplistNode *update[ZSKIPLIST_MAXLEVEL];
    zskiplistNode *x = zsl->header;
    for (int i = zsl->level - 1; i >= 0; i--) {
        while (x->level[i].forward && !zslGteMin(x->level[i].forward, range)) x = x->level[i].forward;
        update[i] = x;
    }
    unsigned long removed = 0;
    for (x = x->level[0].forward; x && zslLteMax(x, range); removed++) {
        zskiplistNode *next = x->level[0].forward;
        zslDeleteNodeAndEntry(zsl, x, update, dict);
        x = next;
    }
    return removed;
}

unsigned long zslDeleteRangeByScore(zskiplist *zsl, const zrangespec &range, zsetDict &dict) {
    return zslDeleteRangeInAny(zsl, range, dict);
}
unsigned long zslDeleteRangeByLex(zskiplist *zsl, const zlexrangespec &range, zsetDict &dict) {
    return zslDeleteRangeInAny(zsl, range, dict);
}

template zskiplistNode *zslFirstInAnyRange(zskiplist *, const zrangespec &);
template zskiplistNode *zslFirstInAnyRange(zskiplist *, const zlexrangespec &);
template zskiplistNode *zslLastInAnyRange(zskiplist *, const zrangespec &);
template zskiplistNode *zslLastInAnyRange(zskiplist *, const zlexrangespec &);
template unsigned long zslDeleteRangeInAny(zskiplist *, const zrangespec &, zsetDict &);
template unsigned long zslDeleteRangeInAny(zskiplist *, const zlexrangespec &, zsetDict &);

unsigned long zslDeleteRangeByRank(zskiplist *zsl, unsigned long start, unsigned long end, zsetDict &dict) {
    zskiplistNode *update[ZSKIPLIST_MAXLEVEL];
    zskiplistNode *x = zsl->header;
    unsigned long traversed = 0;
    for (int i = zsl->level - 1; i >= 0; i--) {
        while (x->level[i].forward && traversed + x->level[i].span < start) {
            traversed += x->level[i].span;
            x = x->level[i].forward;
        }
        update[i] = x;
    }
    unsigned long removed = 0;
    for (x = x->level[0].forward, traversed++; x && traversed <= end; traversed++, removed++) {
        zskiplistNode *next = x->level[0].forward;
        zslDeleteNodeAndEntry(zsl, x, update, dict);
        x = next;
    }
    return removed;
}

/* One end of a score range, parsed as Redis does: with strtod on the
 * argument read as a C string, so leading blanks, hex ("0x10"), "1e999"
 * (inf) and even "" (0) are accepted, and an embedded NUL ends the
 * number; only trailing bytes and NaN are refused. */
static bool zslParseRangeItem(std::string_view item, double *value, bool *ex) {
    *ex = !item.empty() && item[0] == '(';
    if (*ex) item.remove_prefix(1);
    char buf[MAX_D2STRING_CHARS];
    std::string big; /* a NUL-terminated copy: the argument is a view */
    const char *s = buf;
    if (item.size() < sizeof(buf)) {
        memcpy(buf, item.data(), item.size());
        buf[item.size()] = '\0';
    } else {
        big.assign(item);
        s = big.c_str();
    }
    char *eptr;
    *value = strtod(s, &eptr);
    return *eptr == '\0' && !std::isnan(*value);
}

bool zslParseRange(std::string_view min, std::string_view max, zrangespec *spec) {
    return zslParseRangeItem(min, &spec->min, &spec->minex) && zslParseRangeItem(max, &spec->max, &spec->maxex);
}

/* "+" and "-" are checked as Redis reads them, as C strings: "+" followed
 * by a NUL byte still counts as "+". */
static bool zslParseLexRangeItem(std::string_view item, zlexbound *bound) {
    if (item.empty()) return false;
    switch (item[0]) {
    case '+':
    case '-':
        if (item.size() > 1 && item[1] != '\0') return false;
        *bound = {item[0] == '+' ? zlexbound::MAX : zlexbound::MIN, true, {}};
        return true;
    case '(':
    case '[': *bound = {zlexbound::STRING, item[0] == '(', item.substr(1)}; return true;
    default: return false;
    }
}

bool zslParseLexRange(std::string_view min, std::string_view max, zlexrangespec *spec) {
    return zslParseLexRangeItem(min, &spec->min) && zslParseLexRangeItem(max, &spec->max);
}
