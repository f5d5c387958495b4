/* intset_test.cpp — the intset against Redis's format, byte for byte.
 *
 * Golden tests spell out the bytes Redis's intset.c writes (little-endian
 * encoding and length, then the sorted values at that width) around each
 * upgrade edge. The randomized tests drive an intset and a std::set with
 * the same operations, in each of the three value ranges, and after each
 * step re-read the whole buffer with an independent reader of the format:
 * header, sortedness, width never narrower than any value ever added, and
 * the exact allocation size.
 */
#include "intset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <iterator>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

void putLE(Bytes &b, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++) b.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

/* The bytes Redis writes for `values` (ascending) at width `enc`. */
Bytes golden(uint32_t enc, std::vector<int64_t> values) {
    Bytes b;
    putLE(b, enc, 4);
    putLE(b, values.size(), 4);
    for (int64_t v : values) putLE(b, static_cast<uint64_t>(v), enc);
    return b;
}

Bytes bytesOf(const intset &is) { return Bytes(is.data(), is.data() + is.blobLen()); }

/* An independent reader: decodes the buffer from its bytes alone. */
std::vector<int64_t> decode(const intset &is, uint32_t *enc) {
    const unsigned char *p = is.data();
    auto load = [&](size_t off, unsigned n) {
        uint64_t v = 0;
        for (unsigned i = 0; i < n; i++) v |= uint64_t{p[off + i]} << (8 * i);
        if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n); /* sign-extend */
        return static_cast<int64_t>(v);
    };
    *enc = static_cast<uint32_t>(load(0, 4));
    uint32_t len = static_cast<uint32_t>(load(4, 4));
    std::vector<int64_t> values;
    for (uint32_t i = 0; i < len; i++) values.push_back(load(8 + size_t{i} * *enc, *enc));
    return values;
}

uint32_t widthOf(int64_t v) {
    if (v < INT32_MIN || v > INT32_MAX) return 8;
    if (v < INT16_MIN || v > INT16_MAX) return 4;
    return 2;
}

TEST(Intset, NewIsEightBytesOfInt16Header) {
    intset is;
    EXPECT_EQ(is.len(), 0u);
    EXPECT_EQ(is.encoding(), INTSET_ENC_INT16);
    EXPECT_EQ(is.blobLen(), 8u);
    EXPECT_EQ(bytesOf(is), golden(2, {}));
    int64_t v;
    EXPECT_FALSE(is.get(0, &v));
    EXPECT_FALSE(is.find(0));
    EXPECT_FALSE(is.remove(0));
}

TEST(Intset, AddKeepsValuesSortedAndDistinct) {
    intset is;
    EXPECT_TRUE(is.add(5));
    EXPECT_TRUE(is.add(-3));
    EXPECT_TRUE(is.add(1));
    EXPECT_FALSE(is.add(5));
    EXPECT_EQ(bytesOf(is), golden(2, {-3, 1, 5}));
    int64_t v;
    ASSERT_TRUE(is.get(0, &v));
    EXPECT_EQ(v, -3);
    ASSERT_TRUE(is.get(2, &v));
    EXPECT_EQ(v, 5);
    EXPECT_FALSE(is.get(3, &v));
}

TEST(Intset, Int16EdgesStayInt16) {
    intset is;
    is.add(INT16_MAX);
    is.add(INT16_MIN);
    EXPECT_EQ(bytesOf(is), golden(2, {INT16_MIN, INT16_MAX}));
}

/* A positive value too wide goes at the end, a negative one at the front;
 * the old values are rewritten at the new width. */
TEST(Intset, UpgradeToInt32AppendsOrPrepends) {
    intset is;
    is.add(1);
    is.add(-1);
    is.add(INT16_MAX + 1);
    EXPECT_EQ(bytesOf(is), golden(4, {-1, 1, INT16_MAX + 1}));
    is.add(INT16_MIN - 1);
    EXPECT_EQ(bytesOf(is), golden(4, {INT16_MIN - 1, -1, 1, INT16_MAX + 1}));
    is.add(INT32_MAX);
    is.add(INT32_MIN);
    EXPECT_EQ(bytesOf(is), golden(4, {INT32_MIN, INT16_MIN - 1, -1, 1, INT16_MAX + 1, INT32_MAX}));
}

TEST(Intset, UpgradeToInt64FromEitherWidth) {
    intset a;
    a.add(7);
    a.add(int64_t{INT32_MAX} + 1);
    EXPECT_EQ(bytesOf(a), golden(8, {7, int64_t{INT32_MAX} + 1}));

    intset b;
    b.add(7);
    b.add(70000);
    b.add(int64_t{INT32_MIN} - 1);
    b.add(INT64_MAX);
    b.add(INT64_MIN);
    EXPECT_EQ(bytesOf(b), golden(8, {INT64_MIN, int64_t{INT32_MIN} - 1, 7, 70000, INT64_MAX}));
}

TEST(Intset, RemoveNeverNarrowsTheEncoding) {
    intset is;
    is.add(1);
    is.add(2);
    is.add(INT64_MAX);
    EXPECT_TRUE(is.remove(INT64_MAX));
    EXPECT_EQ(bytesOf(is), golden(8, {1, 2}));
    EXPECT_TRUE(is.remove(1));
    EXPECT_TRUE(is.remove(2));
    EXPECT_EQ(bytesOf(is), golden(8, {}));
}

/* A value wider than the encoding cannot be there: no search at all. */
TEST(Intset, WiderValuesAreNeverFound) {
    intset is;
    is.add(1);
    EXPECT_FALSE(is.find(INT16_MAX + 1));
    EXPECT_FALSE(is.remove(INT16_MAX + 1));
    EXPECT_FALSE(is.find(INT64_MIN));
    EXPECT_EQ(bytesOf(is), golden(2, {1}));
}

TEST(Intset, RemoveFromTheMiddleMovesTheTail) {
    intset is;
    for (int64_t v : {10, 20, 30, 40}) is.add(v);
    EXPECT_TRUE(is.remove(20));
    EXPECT_FALSE(is.remove(20));
    EXPECT_EQ(bytesOf(is), golden(2, {10, 30, 40}));
    EXPECT_TRUE(is.remove(40));
    EXPECT_TRUE(is.remove(10));
    EXPECT_EQ(bytesOf(is), golden(2, {30}));
}

TEST(Intset, DupIsAnIndependentCopy) {
    intset is;
    for (int64_t v : {3, 1, 100000}) is.add(v);
    intset copy = is.dup();
    EXPECT_EQ(bytesOf(copy), bytesOf(is));
    EXPECT_NE(copy.data(), is.data());
    copy.add(2);
    EXPECT_EQ(bytesOf(is), golden(4, {1, 3, 100000}));
    EXPECT_EQ(bytesOf(copy), golden(4, {1, 2, 3, 100000}));
}

TEST(Intset, RandomReturnsEveryMemberEventually) {
    intset is;
    std::set<int64_t> members{-40000, -1, 0, 9, 1 << 20};
    for (int64_t v : members) is.add(v);
    std::set<int64_t> seen;
    for (int i = 0; i < 2000 && seen.size() < members.size(); i++) {
        int64_t v = is.random();
        EXPECT_TRUE(members.count(v)) << v;
        seen.insert(v);
    }
    EXPECT_EQ(seen, members);
}

/* The same random adds, removes and lookups on an intset and a std::set;
 * after each one the buffer must decode to exactly the std::set's values at
 * the narrowest width that held every value ever added. New values fall
 * within `spread` of one of `centers` (clamped to 64 bits), so the edges
 * between widths are crossed; `widest` is the width the run must reach. */
void randomizedAgainstStdSet(std::vector<int64_t> centers, int64_t spread, uint32_t widest, uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int64_t> offset(-spread, spread);
    auto newValue = [&] {
        __int128 v = static_cast<__int128>(centers[rng() % centers.size()]) + offset(rng);
        return static_cast<int64_t>(std::clamp<__int128>(v, INT64_MIN, INT64_MAX));
    };
    intset is;
    std::set<int64_t> model;
    uint32_t expected = INTSET_ENC_INT16;
    for (int step = 0; step < 20000; step++) {
        /* Half the time an existing value, so removals and duplicates hit. */
        int64_t v = model.empty() || rng() % 2 ? newValue()
                                               : *std::next(model.begin(), static_cast<long>(rng() % model.size()));
        if (rng() % 3 != 0) {
            ASSERT_EQ(is.add(v), model.insert(v).second) << "add " << v;
            expected = std::max(expected, widthOf(v));
        } else {
            ASSERT_EQ(is.remove(v), model.erase(v) == 1) << "remove " << v;
        }
        ASSERT_EQ(is.find(v), model.count(v) == 1);
        uint32_t enc;
        std::vector<int64_t> values = decode(is, &enc);
        ASSERT_EQ(enc, expected);
        ASSERT_EQ(is.encoding(), expected);
        ASSERT_EQ(values, std::vector<int64_t>(model.begin(), model.end())) << "step " << step;
        ASSERT_EQ(is.len(), model.size());
        ASSERT_EQ(is.blobLen(), 8 + model.size() * expected);
    }
    EXPECT_EQ(expected, widest);
}

TEST(Intset, RandomizedInt16Range) { randomizedAgainstStdSet({0}, 2000, INTSET_ENC_INT16, 1); }
TEST(Intset, RandomizedAcrossTheInt16Edges) {
    randomizedAgainstStdSet({0, INT16_MIN, INT16_MAX}, 300, INTSET_ENC_INT32, 2);
}
TEST(Intset, RandomizedAcrossTheInt32Edges) {
    randomizedAgainstStdSet({0, INT16_MIN, INT16_MAX, INT32_MIN, INT32_MAX}, 300, INTSET_ENC_INT64, 3);
}
TEST(Intset, RandomizedInt64Range) {
    randomizedAgainstStdSet({INT64_MIN, -1, 0, INT64_MAX}, INT64_MAX / 2, INTSET_ENC_INT64, 4);
}

}  // namespace
