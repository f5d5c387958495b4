/* skiplist_test.cpp — the skiplist of skiplist.h against std::set.
 *
 * A randomized run drives a skiplist (with its dict, as a zset holds them)
 * and a std::set of (score, member) with the same operations — insert,
 * delete, update score, and the range deletions by score, lex and rank —
 * and checks every answer (rank, element by rank, first and last in a
 * score or lex range, with exclusive bounds) against the model. After each
 * step an independent walk checks the structure itself: every level is a
 * sorted subsequence of level 0, every span equals the rank distance it
 * jumps (the span sums a rank query adds up), backward links and tail mirror
 * level 0, and length and level are right. A few fixed cases pin the range
 * parsers' Redis quirks.
 */
#include "skiplist.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using Element = std::pair<double, std::string>; /* ordered by score, then member bytes */
using Model = std::set<Element>;
constexpr double kInf = std::numeric_limits<double>::infinity();

/* The structural invariants, checked by walking every level. */
void checkInvariants(const zskiplist &zsl, const Model &model) {
    ASSERT_EQ(zsl.length, model.size());
    /* Level 0 is the model, in order, with backward links and the tail. */
    std::vector<const zskiplistNode *> nodes{zsl.header};
    auto it = model.begin();
    int maxheight = 1;
    for (const zskiplistNode *x = zsl.header->level[0].forward; x; x = x->level[0].forward, ++it) {
        ASSERT_NE(it, model.end());
        ASSERT_EQ(x->score, it->first);
        ASSERT_EQ(x->ele(), it->second);
        ASSERT_EQ(x->backward, nodes.size() == 1 ? nullptr : nodes.back());
        ASSERT_GE(x->height(), 1);
        ASSERT_LE(x->height(), ZSKIPLIST_MAXLEVEL);
        maxheight = std::max(maxheight, x->height());
        nodes.push_back(x);
    }
    ASSERT_EQ(it, model.end());
    ASSERT_EQ(zsl.tail, nodes.size() == 1 ? nullptr : nodes.back());
    ASSERT_EQ(zsl.level, maxheight);
    /* Each level links, in order, exactly the nodes that tall; a link's span
     * is the rank distance to its target (to the end past the last node). */
    for (int i = 0; i < zsl.level; i++) {
        size_t from = 0; /* rank of the node we stand on; 0 is the header */
        for (size_t rank = 1; rank < nodes.size(); rank++) {
            if (nodes[rank]->height() <= i) continue;
            ASSERT_EQ(nodes[from]->level[i].forward, nodes[rank]) << "level " << i << " rank " << rank;
            ASSERT_EQ(nodes[from]->level[i].span, rank - from) << "level " << i << " rank " << rank;
            from = rank;
        }
        ASSERT_EQ(nodes[from]->level[i].forward, nullptr);
        ASSERT_EQ(nodes[from]->level[i].span, model.size() - from) << "level " << i;
    }
    for (int i = zsl.level; i < ZSKIPLIST_MAXLEVEL; i++) ASSERT_EQ(zsl.header->level[i].forward, nullptr);
}

/* A skiplist plus its dict, filled as a zset is (zsetAdd's skiplist half). */
struct TestZset {
    zset zs;
    Model model;

    void insert(double score, const std::string &ele) {
        zskiplistNode *node = zslInsert(&zs.zsl, score, ele);
        ASSERT_EQ(node->score, score);
        ASSERT_EQ(node->ele(), ele);
        zs.dict.add(zsetDictKey{node}, zsetDictNoValue{});
        model.insert({score, ele});
    }
    void checkDictMatches() {
        ASSERT_EQ(zs.dict.size(), model.size());
        for (const Element &e : model) {
            auto *de = zs.dict.find(e.second);
            ASSERT_NE(de, nullptr) << e.second;
            ASSERT_EQ(de->key.node->score, e.first);
        }
    }
};

/* Model answers: the first (last) element past the range's start (before
 * its end), if it is also before its end (past its start). */
template <typename GteMin, typename LteMax>
Model::const_iterator firstIn(const Model &m, GteMin gteMin, LteMax lteMax) {
    auto it = std::find_if(m.begin(), m.end(), gteMin);
    return it != m.end() && lteMax(*it) ? it : m.end();
}
template <typename GteMin, typename LteMax>
Model::const_iterator lastIn(const Model &m, GteMin gteMin, LteMax lteMax) {
    auto it = std::find_if(m.rbegin(), m.rend(), lteMax);
    return it != m.rend() && gteMin(*it) ? std::prev(it.base()) : m.end();
}
Model::const_iterator firstInRange(const Model &m, const zrangespec &r) {
    return firstIn(m, [&](const Element &e) { return zslValueGteMin(e.first, r); },
                   [&](const Element &e) { return zslValueLteMax(e.first, r); });
}
Model::const_iterator lastInRange(const Model &m, const zrangespec &r) {
    return lastIn(m, [&](const Element &e) { return zslValueGteMin(e.first, r); },
                  [&](const Element &e) { return zslValueLteMax(e.first, r); });
}
Model::const_iterator firstInLexRange(const Model &m, const zlexrangespec &r) {
    return firstIn(m, [&](const Element &e) { return zslLexValueGteMin(e.second, r); },
                   [&](const Element &e) { return zslLexValueLteMax(e.second, r); });
}
Model::const_iterator lastInLexRange(const Model &m, const zlexrangespec &r) {
    return lastIn(m, [&](const Element &e) { return zslLexValueGteMin(e.second, r); },
                  [&](const Element &e) { return zslLexValueLteMax(e.second, r); });
}

void expectNodeIs(const zskiplistNode *node, const Model &m, Model::const_iterator want, const char *what) {
    if (want == m.end()) {
        EXPECT_EQ(node, nullptr) << what;
        return;
    }
    ASSERT_NE(node, nullptr) << what;
    EXPECT_EQ(node->score, want->first) << what;
    EXPECT_EQ(node->ele(), want->second) << what;
}

class Randomized : public ::testing::Test {
protected:
    std::mt19937_64 rng{20240611};
    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }
    /* Few scores, so that ties (ordered by member) are common. */
    double score() {
        static const double kScores[] = {-kInf, -2.5, -1, 0, 0.5, 1, 1, 2, 3, 1e300, kInf};
        return kScores[pick(std::size(kScores))];
    }
    /* Members include bytes above 0x7f and a NUL: order is memcmp's. */
    std::string member() {
        std::string m = "m" + std::to_string(pick(300));
        if (pick(10) == 0) m += std::string("\0\xff", 2);
        return m;
    }
    /* A score that differs from s (s + 1 would not, for inf or 1e300). */
    static double otherScore(double s) { return s == 0 ? 1 : -s; }
    zrangespec range() {
        zrangespec r{score(), score()};
        r.minex = pick(2);
        r.maxex = pick(2);
        return r;
    }
    zlexbound lexBound() {
        switch (pick(6)) {
        case 0: return {zlexbound::MIN, true, {}};
        case 1: return {zlexbound::MAX, true, {}};
        default: return {zlexbound::STRING, pick(2) == 1, lexValues_[pick(lexValues_.size())]};
        }
    }
    std::vector<std::string> lexValues_{"", "m", "m1", "m15", "m2", "m299", "m3", "m9", "n", std::string("m1\0", 3)};
};

TEST_F(Randomized, OperationsAgreeWithAnOrderedSet) {
    TestZset t;
    zskiplist *zsl = &t.zs.zsl;
    for (int step = 0; step < 20000; step++) {
        switch (pick(10)) {
        case 0:
        case 1:
        case 2: { /* insert a new member */
            std::string ele = member();
            if (t.zs.dict.find(ele)) break;
            t.insert(score(), ele);
            break;
        }
        case 3: { /* delete: present or not */
            std::string ele = member();
            auto *de = t.zs.dict.find(ele);
            if (!de) {
                EXPECT_FALSE(zslDelete(zsl, score(), ele));
                break;
            }
            double s = de->key.node->score;
            EXPECT_FALSE(zslDelete(zsl, otherScore(s), ele)); /* the score must match too */
            ASSERT_TRUE(t.zs.dict.erase(ele));
            EXPECT_TRUE(zslDelete(zsl, s, ele));
            t.model.erase({s, ele});
            break;
        }
        case 4: { /* update the score of a present member */
            if (t.model.empty()) break;
            auto it = std::next(t.model.begin(), static_cast<long>(pick(t.model.size())));
            Element old = *it;
            double s = score();
            zskiplistNode *before = t.zs.dict.find(old.second)->key.node;
            zskiplistNode *node = zslUpdateScore(zsl, old.first, old.second, s);
            EXPECT_EQ(node, before) << "the node is kept, so the dict stays valid";
            EXPECT_EQ(node->score, s);
            t.model.erase(it);
            t.model.insert({s, old.second});
            break;
        }
        case 5: { /* ranks, both ways */
            if (t.model.empty()) {
                EXPECT_EQ(zslGetElementByRank(zsl, 1), nullptr);
                break;
            }
            size_t r = pick(t.model.size());
            auto it = std::next(t.model.begin(), static_cast<long>(r));
            EXPECT_EQ(zslGetRank(zsl, it->first, it->second), r + 1);
            EXPECT_EQ(zslGetRank(zsl, otherScore(it->first), it->second), 0u);
            EXPECT_EQ(zslGetRank(zsl, it->first, it->second + "x"), 0u);
            expectNodeIs(zslGetElementByRank(zsl, r + 1), t.model, it, "element by rank");
            EXPECT_EQ(zslGetElementByRank(zsl, t.model.size() + 1), nullptr);
            break;
        }
        case 6: { /* first and last in a score range */
            zrangespec r = range();
            expectNodeIs(zslFirstInRange(zsl, r), t.model, firstInRange(t.model, r), "first in range");
            expectNodeIs(zslLastInRange(zsl, r), t.model, lastInRange(t.model, r), "last in range");
            break;
        }
        case 7: { /* delete a score range (rarely: it empties fast) */
            if (pick(8)) break;
            zrangespec r = range();
            size_t want = std::erase_if(
                t.model, [&](const Element &e) { return zslValueGteMin(e.first, r) && zslValueLteMax(e.first, r); });
            EXPECT_EQ(zslDeleteRangeByScore(zsl, r, t.zs.dict), want);
            break;
        }
        case 8: { /* delete a rank range */
            if (pick(8) || t.model.empty()) break;
            unsigned long start = 1 + pick(t.model.size()), end = start + pick(5);
            size_t want = 0;
            auto it = std::next(t.model.begin(), static_cast<long>(start - 1));
            for (unsigned long r = start; r <= end && it != t.model.end(); r++, want++) it = t.model.erase(it);
            EXPECT_EQ(zslDeleteRangeByRank(zsl, start, end, t.zs.dict), want);
            break;
        }
        default: break;
        }
        ASSERT_NO_FATAL_FAILURE(checkInvariants(*zsl, t.model)) << "after step " << step;
        if (step % 500 == 0) {
            ASSERT_NO_FATAL_FAILURE(t.checkDictMatches());
        }
    }
    ASSERT_NO_FATAL_FAILURE(t.checkDictMatches());
}

/* Lex ranges are meaningful when every score is the same (ZRANGEBYLEX's
 * contract): then level 0 is in member order. */
TEST_F(Randomized, LexRangesWithEqualScores) {
    TestZset t;
    zskiplist *zsl = &t.zs.zsl;
    for (int step = 0; step < 5000; step++) {
        std::string ele = member();
        if (!t.zs.dict.find(ele)) t.insert(0, ele);
        zlexrangespec r{lexBound(), lexBound()};
        expectNodeIs(zslFirstInLexRange(zsl, r), t.model, firstInLexRange(t.model, r), "first in lex range");
        expectNodeIs(zslLastInLexRange(zsl, r), t.model, lastInLexRange(t.model, r), "last in lex range");
        if (pick(20) == 0) {
            size_t want = std::erase_if(t.model, [&](const Element &e) {
                return zslLexValueGteMin(e.second, r) && zslLexValueLteMax(e.second, r);
            });
            EXPECT_EQ(zslDeleteRangeByLex(zsl, r, t.zs.dict), want);
        }
        ASSERT_NO_FATAL_FAILURE(checkInvariants(*zsl, t.model)) << "after step " << step;
    }
    ASSERT_NO_FATAL_FAILURE(t.checkDictMatches());
}

/* Levels are drawn with P = 1/4: about 3/4 of the nodes have one level,
 * and 1/16 reach a third. */
TEST(Skiplist, LevelsFollowTheQuarterDistribution) {
    zskiplist zsl;
    const int n = 40000;
    for (int i = 0; i < n; i++) zslInsert(&zsl, i, "");
    int level1 = 0, level3plus = 0;
    for (zskiplistNode *x = zsl.header->level[0].forward; x; x = x->level[0].forward) {
        level1 += x->height() == 1;
        level3plus += x->height() >= 3;
    }
    EXPECT_NEAR(static_cast<double>(level1) / n, 0.75, 0.02);
    EXPECT_NEAR(static_cast<double>(level3plus) / n, 1.0 / 16, 0.01);
    EXPECT_LE(zsl.level, ZSKIPLIST_MAXLEVEL);
}

TEST(Skiplist, NodeHoldsItsMemberInline) {
    zskiplist zsl;
    std::string big(100000, 'x');
    big[5] = '\0';
    zskiplistNode *node = zslInsert(&zsl, 1.5, big);
    EXPECT_EQ(node->ele(), big);
    EXPECT_EQ(zslGetRank(&zsl, 1.5, big), 1u);
    zskiplistNode *empty = zslInsert(&zsl, 1.5, "");
    EXPECT_EQ(empty->ele(), "");
    EXPECT_EQ(zsl.header->level[0].forward, empty); /* "" sorts first among equal scores */
}

/* Redis parses score bounds with strtod on the C string. */
TEST(RangeParsing, ScoreBoundsAsRedisReadsThem) {
    zrangespec r;
    ASSERT_TRUE(zslParseRange("(1.5", "+inf", &r));
    EXPECT_EQ(r.min, 1.5);
    EXPECT_TRUE(r.minex);
    EXPECT_EQ(r.max, kInf);
    EXPECT_FALSE(r.maxex);
    ASSERT_TRUE(zslParseRange("-inf", "(5", &r));
    EXPECT_EQ(r.min, -kInf);
    EXPECT_TRUE(r.maxex);
    ASSERT_TRUE(zslParseRange("", " 2", &r)); /* "" is 0, leading blanks are skipped */
    EXPECT_EQ(r.min, 0);
    EXPECT_EQ(r.max, 2);
    ASSERT_TRUE(zslParseRange("0x10", "1e999", &r));
    EXPECT_EQ(r.min, 16);
    EXPECT_EQ(r.max, kInf);
    ASSERT_TRUE(zslParseRange(std::string_view("3\0junk", 6), "(", &r)); /* a NUL ends the number */
    EXPECT_EQ(r.min, 3);
    EXPECT_EQ(r.max, 0);
    EXPECT_TRUE(r.maxex);
    EXPECT_TRUE(zslParseRange(std::string(200, '1'), "1", &r)); /* longer than the stack buffer */
    EXPECT_FALSE(zslParseRange("nan", "1", &r));
    EXPECT_FALSE(zslParseRange("1", "(nan", &r));
    EXPECT_FALSE(zslParseRange("1x", "2", &r));
    EXPECT_FALSE(zslParseRange("1", "2 ", &r));
    EXPECT_FALSE(zslParseRange("((1", "2", &r));
}

TEST(RangeParsing, LexBounds) {
    zlexrangespec r;
    ASSERT_TRUE(zslParseLexRange("-", "+", &r));
    EXPECT_EQ(r.min.kind, zlexbound::MIN);
    EXPECT_EQ(r.max.kind, zlexbound::MAX);
    ASSERT_TRUE(zslParseLexRange("[a", "(", &r));
    EXPECT_EQ(r.min.kind, zlexbound::STRING);
    EXPECT_EQ(r.min.value, "a");
    EXPECT_FALSE(r.min.ex);
    EXPECT_EQ(r.max.value, "");
    EXPECT_TRUE(r.max.ex);
    EXPECT_TRUE(zslParseLexRange(std::string_view("+\0x", 3), "-", &r)); /* read as a C string: "+" */
    EXPECT_FALSE(zslParseLexRange("a", "+", &r));
    EXPECT_FALSE(zslParseLexRange("", "+", &r));
    EXPECT_FALSE(zslParseLexRange("-", "+inf", &r));
    EXPECT_FALSE(zslParseLexRange("--", "+", &r));
}

TEST(RangeParsing, EmptyRangesAreEmpty) {
    zskiplist zsl;
    for (int i = 0; i < 10; i++) zslInsert(&zsl, i, "m" + std::to_string(i));
    EXPECT_EQ(zslFirstInRange(&zsl, zrangespec{3, 3, true, false}), nullptr);
    EXPECT_EQ(zslFirstInRange(&zsl, zrangespec{4, 3}), nullptr);
    EXPECT_EQ(zslLastInRange(&zsl, zrangespec{3, 3, false, true}), nullptr);
    ASSERT_NE(zslFirstInRange(&zsl, zrangespec{3, 3}), nullptr);
    zlexrangespec plusplus{{zlexbound::MAX, true, {}}, {zlexbound::MAX, true, {}}};
    EXPECT_EQ(zslFirstInLexRange(&zsl, plusplus), nullptr);
    zlexrangespec aa{{zlexbound::STRING, true, "m3"}, {zlexbound::STRING, false, "m3"}};
    EXPECT_EQ(zslFirstInLexRange(&zsl, aa), nullptr);
}

}  // namespace
