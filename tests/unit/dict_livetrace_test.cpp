/* dict_livetrace_test.cpp — the dict's TRACE_DICT events: an incremental
 * rehash traced from its start (dictExpand's new table) to its end (the
 * last dictRehash step), with the dict's label, the sizes, the steps and
 * the time it took; nothing when the category is off. An output that
 * collects records stands in for the live and file outputs. */
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "dict.h"
#include "sds.h"
#include "livetrace.h"

namespace {

using StrDict = dict<sds, long long>;

std::vector<traceRecord> collected;
void collect(const traceRecord &r) { collected.push_back(r); }

/* "name k=v k=v" for comparing a record as a whole. */
std::string describe(const traceRecord &r) {
    std::string s = r.name;
    for (const traceField &f : r.fields) s += " " + f.key + "=" + (f.is_num ? std::to_string(f.num) : f.str);
    return s;
}

const traceField *field(const traceRecord &r, const std::string &key) {
    for (const traceField &f : r.fields)
        if (f.key == key) return &f;
    return nullptr;
}

void addKeys(StrDict &d, int n) {
    for (int i = 0; i < n; i++) ASSERT_NE(d.add(sds("k" + std::to_string(i)), i), nullptr);
}

class DictTrace : public ::testing::Test {
protected:
    void SetUp() override { collected.clear(); }
    void TearDown() override { traceSetOutput(TRACE_OUTPUT_LIVE, 0, nullptr); }
};

TEST_F(DictTrace, RehashStartAndEndCarryTheLabelSizesStepsAndTime) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_DICT, collect);
    StrDict d;
    d.setTraceLabel("db9 keys");
    addKeys(d, 5); /* the 5th key finds 4 buckets full: rehash into 8 */
    ASSERT_TRUE(d.isRehashing());
    ASSERT_EQ(collected.size(), 1u);
    EXPECT_EQ(collected[0].category, TRACE_DICT);
    EXPECT_EQ(describe(collected[0]), "dictRehashStart dict=db9 keys from=4 to=8 used=4");

    int steps = 0;
    while (d.rehash(1)) steps++;
    steps++; /* the call that finished */
    ASSERT_EQ(collected.size(), 2u);
    const traceRecord &end = collected[1];
    ASSERT_NE(field(end, "us"), nullptr);
    EXPECT_GE(field(end, "us")->num, 0);
    EXPECT_EQ(describe(end), "dictRehashEnd dict=db9 keys from=4 to=8 used=5 steps=" + std::to_string(steps) +
                                 " us=" + std::to_string(field(end, "us")->num));
}

TEST_F(DictTrace, AShrinkIsARehashTooAndAnUnnamedDictSaysSo) {
    StrDict d;
    addKeys(d, 40);
    while (d.rehash(100)) {
    }
    for (int i = 0; i < 38; i++) ASSERT_TRUE(d.erase("k" + std::to_string(i)));
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_DICT, collect);
    ASSERT_TRUE(d.resizeToFit());
    while (d.rehash(100)) {
    }
    ASSERT_EQ(collected.size(), 2u);
    EXPECT_EQ(describe(collected[0]), "dictRehashStart dict= from=64 to=4 used=2");
    EXPECT_EQ(describe(collected[1]).rfind("dictRehashEnd dict= from=64 to=4 used=2 steps=1 us=", 0), 0u)
        << describe(collected[1]);
}

/* Tracing began during the rehash: its end is traced, without the steps
 * and time it could not have seen. */
TEST_F(DictTrace, ARehashSeenOnlyEndingSaysNoTime) {
    StrDict d;
    addKeys(d, 5);
    ASSERT_TRUE(d.isRehashing());
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_DICT, collect);
    while (d.rehash(1)) {
    }
    ASSERT_EQ(collected.size(), 1u);
    EXPECT_EQ(describe(collected[0]), "dictRehashEnd dict= from=4 to=8 used=5");
}

TEST_F(DictTrace, NothingWhenTheCategoryIsOff) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_ALL & ~TRACE_DICT, collect);
    StrDict d;
    addKeys(d, 100);
    while (d.rehash(100)) {
    }
    EXPECT_TRUE(collected.empty());
}

/* The label names the object (server.db[0].dict), not its content: it
 * stays through a swap or a move out, and costs the dict no room. */
TEST_F(DictTrace, TheLabelStaysWithTheObject) {
    static_assert(sizeof(StrDict) == 104, "the label sits in what was padding after pauserehash_");
    StrDict d;
    d.setTraceLabel("db0 expires");
    addKeys(d, 3);
    StrDict moved(std::move(d));
    EXPECT_STREQ(moved.traceLabel(), "");
    EXPECT_STREQ(d.traceLabel(), "db0 expires");
    d = StrDict();
    EXPECT_STREQ(d.traceLabel(), "db0 expires");
    StrDict other;
    other.setTraceLabel("db0 expires");
    EXPECT_STREQ(other.traceLabel(), "db0 expires");
}

}  // namespace
