/* t_zset_test.cpp — the Sorted Set API of t_zset.h over both encodings.
 *
 * The same random zsetAdd (every flag combination ZADD accepts, INCR
 * included, with infinities so that inf + -inf hits the NaN path) / zsetDel
 * / zsetScore / zsetRank calls go to a ziplist-encoded and a
 * skiplist-encoded sorted set and to a std::map model of Redis's rules;
 * answers, reported flags and contents must agree. Then the conversion
 * thresholds (entries and member length, one below and one above), the
 * one-way rule, how scores are laid out in the ziplist (integers as
 * integers, -0 as 0, others as 17 digits, as Redis 7 does), the conversion
 * of a result back to a ziplist, and COPY's deep copy.
 */
#include "t_zset.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "server.h"
#include "t_list.h"

namespace {

using Element = std::pair<std::string, double>;
constexpr double kInf = std::numeric_limits<double>::infinity();

/* Every element in order, read straight from the encoding. */
std::vector<Element> contents(robj *o) {
    std::vector<Element> out;
    if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(o);
        for (zlpos p = zl.index(0); p; p = zl.next(zl.next(p))) {
            ziplistEntry m = zl.get(p), s = zl.get(zl.next(p));
            double score = s.isInt ? static_cast<double>(s.lval) : std::strtod(s.toString().c_str(), nullptr);
            out.emplace_back(m.toString(), score);
        }
        return out;
    }
    zset &zs = objectZset(o);
    EXPECT_EQ(zs.dict.size(), zs.zsl.length);
    for (zskiplistNode *n = zs.zsl.header->level[0].forward; n; n = n->level[0].forward)
        out.emplace_back(std::string(n->ele()), n->score);
    return out;
}

/* The model, sorted as a sorted set is. */
std::vector<Element> sorted(const std::map<std::string, double> &m) {
    std::vector<Element> v(m.begin(), m.end());
    std::sort(v.begin(), v.end(), [](const Element &a, const Element &b) {
        return a.second < b.second || (a.second == b.second && a.first < b.first);
    });
    return v;
}

/* Restores the default limits after a test changes them. */
class SortedSetApi : public ::testing::Test {
protected:
    void TearDown() override {
        server.zset_max_ziplist_entries = 128;
        server.zset_max_ziplist_value = 64;
    }
};

TEST_F(SortedSetApi, BothEncodingsFollowZaddsRules) {
    server.zset_max_ziplist_entries = 1000000; /* the ziplist one never converts */
    ObjRef zl = createZsetZiplistObject(), sl = createZsetObject();
    std::map<std::string, double> model;
    std::mt19937_64 rng(7);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    const double kScores[] = {-kInf, -3, -0.5, 0, 1, 1, 2.5, 7, 1e300, kInf};
    const int kFlags[] = {ZADD_IN_NONE, ZADD_IN_NX, ZADD_IN_XX, ZADD_IN_GT, ZADD_IN_LT, ZADD_IN_XX | ZADD_IN_GT,
                          ZADD_IN_XX | ZADD_IN_LT, ZADD_IN_INCR, ZADD_IN_INCR | ZADD_IN_XX, ZADD_IN_INCR | ZADD_IN_GT,
                          ZADD_IN_INCR | ZADD_IN_NX};
    for (int step = 0; step < 20000; step++) {
        /* Some members are integers ("12"): the ziplist stores them as such. */
        std::string ele = pick(7) ? "m" + std::to_string(pick(60)) : std::to_string(pick(30));
        switch (pick(4)) {
        case 0: {
            bool want = model.erase(ele) > 0;
            ASSERT_EQ(zsetDel(zl.get(), ele), want);
            ASSERT_EQ(zsetDel(sl.get(), ele), want);
            break;
        }
        case 1: {
            double a, b;
            bool found = model.count(ele);
            ASSERT_EQ(zsetScore(zl.get(), ele, &a), found);
            ASSERT_EQ(zsetScore(sl.get(), ele, &b), found);
            if (found) {
                EXPECT_EQ(a, model[ele]);
                EXPECT_EQ(b, model[ele]);
            }
            long rank = -1;
            if (found) {
                auto v = sorted(model);
                rank = std::find_if(v.begin(), v.end(), [&](const Element &e) { return e.first == ele; }) - v.begin();
            }
            EXPECT_EQ(zsetRank(zl.get(), ele, false), rank);
            EXPECT_EQ(zsetRank(sl.get(), ele, false), rank);
            EXPECT_EQ(zsetRank(sl.get(), ele, true), found ? static_cast<long>(model.size()) - 1 - rank : -1);
            break;
        }
        default: {
            double score = kScores[pick(std::size(kScores))];
            int flags = kFlags[pick(std::size(kFlags))];
            /* Redis's rules, spelled out. */
            int want_flags = 0;
            double want_score = score;
            bool want_ok = true;
            auto it = model.find(ele);
            if (it == model.end()) {
                if (flags & ZADD_IN_XX) want_flags = ZADD_OUT_NOP;
                else want_flags = ZADD_OUT_ADDED;
            } else if (flags & ZADD_IN_NX) {
                want_flags = ZADD_OUT_NOP;
            } else {
                if (flags & ZADD_IN_INCR) want_score += it->second;
                bool refused = ((flags & ZADD_IN_GT) && want_score <= it->second) ||
                               ((flags & ZADD_IN_LT) && want_score >= it->second);
                if (std::isnan(want_score)) {
                    want_ok = false;
                    want_flags = ZADD_OUT_NAN;
                } else if (refused) {
                    want_flags = ZADD_OUT_NOP;
                } else if (want_score != it->second) {
                    want_flags = ZADD_OUT_UPDATED;
                }
            }
            for (robj *o : {zl.get(), sl.get()}) {
                int out;
                double newscore = -12345;
                ASSERT_EQ(zsetAdd(o, score, ele, flags, &out, &newscore), want_ok) << step;
                ASSERT_EQ(out, want_flags) << step << " " << ele;
                if (want_ok && !(out & ZADD_OUT_NOP)) {
                    EXPECT_EQ(newscore, want_score);
                }
            }
            if (want_flags & (ZADD_OUT_ADDED | ZADD_OUT_UPDATED)) model[ele] = want_score;
            break;
        }
        }
        if (step % 100 == 0) {
            ASSERT_EQ(contents(zl.get()), sorted(model)) << step;
            ASSERT_EQ(contents(sl.get()), sorted(model)) << step;
        }
        ASSERT_EQ(zsetLength(zl.get()), model.size());
        ASSERT_EQ(zsetLength(sl.get()), model.size());
    }
    EXPECT_EQ(zl->encoding, OBJ_ENCODING_ZIPLIST);
    EXPECT_EQ(sl->encoding, OBJ_ENCODING_SKIPLIST);
}

TEST_F(SortedSetApi, NaNScoreIsRefused) {
    ObjRef o = createZsetZiplistObject();
    int out;
    EXPECT_FALSE(zsetAdd(o.get(), std::nan(""), "a", ZADD_IN_NONE, &out, nullptr));
    EXPECT_EQ(out, ZADD_OUT_NAN);
    EXPECT_EQ(zsetLength(o.get()), 0u);
}

TEST_F(SortedSetApi, ConvertsPastTheEntryLimitAndNeverBack) {
    ObjRef o = createZsetZiplistObject();
    int out;
    for (int i = 0; i < 128; i++) zsetAdd(o.get(), i, "m" + std::to_string(i), ZADD_IN_NONE, &out, nullptr);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_ZIPLIST);
    zsetAdd(o.get(), 5, "m5", ZADD_IN_NONE, &out, nullptr); /* an update adds nothing */
    zsetAdd(o.get(), 1, "new", ZADD_IN_XX, &out, nullptr);  /* nor does XX on a new member */
    EXPECT_EQ(o->encoding, OBJ_ENCODING_ZIPLIST);
    zsetAdd(o.get(), 200, "m128", ZADD_IN_NONE, &out, nullptr);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_SKIPLIST);
    EXPECT_EQ(zsetLength(o.get()), 129u);
    for (int i = 0; i < 128; i++) ASSERT_TRUE(zsetDel(o.get(), "m" + std::to_string(i)));
    EXPECT_EQ(o->encoding, OBJ_ENCODING_SKIPLIST);
    EXPECT_EQ(contents(o.get()), (std::vector<Element>{{"m128", 200}}));
}

TEST_F(SortedSetApi, ConvertsForAMemberPastTheValueLimit) {
    ObjRef o = createZsetZiplistObject();
    int out;
    zsetAdd(o.get(), 1, std::string(64, 'a'), ZADD_IN_NONE, &out, nullptr);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_ZIPLIST);
    zsetAdd(o.get(), 2, std::string(65, 'b'), ZADD_IN_NONE, &out, nullptr);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_SKIPLIST);
    EXPECT_EQ(contents(o.get()), (std::vector<Element>{{std::string(64, 'a'), 1}, {std::string(65, 'b'), 2}}));
}

/* Redis 7 writes a whole score as an integer (double2ll: within +-2^62),
 * so -0 reads back as 0; anything else as d2string's text. */
TEST_F(SortedSetApi, ZiplistStoresScoresAsRedis7) {
    ObjRef o = createZsetZiplistObject();
    int out;
    const double pow62 = 4611686018427387904.0;
    const std::pair<double, const char *> cases[] = {
        {-0.0, "0"}, {3, "3"}, {-7, "-7"}, {0.1, "0.10000000000000001"}, {1.5, "1.5"},
        {pow62, "4611686018427387904"}, {-pow62, "-4611686018427387904"},
        {pow62 * 2, "9.2233720368547758e+18"}, {kInf, "inf"}, {-kInf, "-inf"},
        {1.2345678901234568e+17, "123456789012345680"}, {1e-320, "9.9998886718268301e-321"}};
    for (const auto &[score, text] : cases) {
        o = createZsetZiplistObject();
        zsetAdd(o.get(), score, "m", ZADD_IN_NONE, &out, nullptr);
        const ziplist &zl = objectZiplist(o.get());
        ziplistEntry s = zl.get(zl.index(1));
        EXPECT_EQ(s.toString(), text) << score;
        double back;
        ASSERT_TRUE(zsetScore(o.get(), "m", &back));
        EXPECT_EQ(back, score == 0 ? 0.0 : score);
        EXPECT_FALSE(std::signbit(back) && score == 0) << "-0 is stored as 0";
    }
    /* Members that read as integers are stored as integers, and read back as given. */
    o = createZsetZiplistObject();
    zsetAdd(o.get(), 1, "12", ZADD_IN_NONE, &out, nullptr);
    zsetAdd(o.get(), 1, "012", ZADD_IN_NONE, &out, nullptr);
    EXPECT_TRUE(objectZiplist(o.get()).get(objectZiplist(o.get()).index(2)).isInt);
    EXPECT_EQ(contents(o.get()), (std::vector<Element>{{"012", 1}, {"12", 1}}));
}

TEST_F(SortedSetApi, ConvertsBackOnlyWhenAResultIsSmall) {
    ObjRef o = createZsetObject();
    int out;
    for (int i = 0; i < 129; i++) zsetAdd(o.get(), i % 7, "m" + std::to_string(i), ZADD_IN_NONE, &out, nullptr);
    auto before = contents(o.get());
    zsetConvertToZiplistIfNeeded(o.get(), 2);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_SKIPLIST); /* 129 members */
    zsetDel(o.get(), "m0");
    zsetConvertToZiplistIfNeeded(o.get(), 65);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_SKIPLIST); /* a member too long */
    zsetConvertToZiplistIfNeeded(o.get(), 64);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_ZIPLIST);
    before.erase(std::find(before.begin(), before.end(), Element{"m0", 0}));
    EXPECT_EQ(contents(o.get()), before);
    zsetConvert(o.get(), OBJ_ENCODING_SKIPLIST, {"test"});
    EXPECT_EQ(contents(o.get()), before);
}

TEST_F(SortedSetApi, DupIsDeepInBothEncodings) {
    for (bool big : {false, true}) {
        ObjRef o = big ? createZsetObject() : createZsetZiplistObject();
        int out;
        for (int i = 0; i < 10; i++) zsetAdd(o.get(), i, "m" + std::to_string(i), ZADD_IN_NONE, &out, nullptr);
        auto before = contents(o.get());
        ObjRef copy = zsetDup(o.get());
        EXPECT_EQ(copy->encoding, o->encoding);
        EXPECT_EQ(copy->type, OBJ_ZSET);
        zsetDel(o.get(), "m3");
        zsetAdd(o.get(), 100, "m4", ZADD_IN_NONE, &out, nullptr);
        EXPECT_EQ(contents(copy.get()), before);
    }
}

}  // namespace
