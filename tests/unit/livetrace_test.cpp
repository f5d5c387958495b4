/* livetrace_test.cpp — unit tests of the trace core (livetrace.cpp): category
 * names, the one word that gates every point, the text line, and the
 * iteration staging that keeps an iteration of nothing but the trace's own
 * delivery out of the trace. An output that collects records stands in for
 * the live and file outputs. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "livetrace.h"

namespace {

std::vector<traceRecord> collected;
void collect(const traceRecord &r) { collected.push_back(r); }

/* An output that emits while delivering: the trace must not feed itself. */
void reentrant(const traceRecord &r) {
    collected.push_back(r);
    traceEvent(TRACE_CMD, "fromOutput").emit();
}

class TraceCore : public ::testing::Test {
protected:
    void SetUp() override { collected.clear(); }
    void TearDown() override {
        traceSetOutput(TRACE_OUTPUT_LIVE, 0, nullptr);
        traceSetOutput(TRACE_OUTPUT_FILE, 0, nullptr);
    }
    static std::vector<std::string> names() {
        std::vector<std::string> v;
        for (const traceRecord &r : collected) v.push_back(r.name);
        return v;
    }
};

TEST_F(TraceCore, CategoriesParseAndPrint) {
    uint32_t mask = 0;
    std::string bad;
    ASSERT_TRUE(traceParseCategories("loop, block  cmd", &mask, &bad));
    EXPECT_EQ(mask, TRACE_LOOP | TRACE_BLOCK | TRACE_CMD);
    EXPECT_EQ(traceCategoriesString(mask), "loop cmd block");
    ASSERT_TRUE(traceParseCategories("all", &mask, &bad));
    EXPECT_EQ(mask, TRACE_ALL);
    EXPECT_EQ(traceCategoriesString(mask), "loop cmd block encoding dict cron child");
    ASSERT_TRUE(traceParseCategories("", &mask, &bad));
    EXPECT_EQ(mask, 0u);
    EXPECT_FALSE(traceParseCategories("cmd bogus", &mask, &bad));
    EXPECT_EQ(bad, "bogus");
    EXPECT_STREQ(traceCategoryName(TRACE_ENCODING), "encoding");
}

TEST_F(TraceCore, OffMeansTheGateIsClosed) {
    EXPECT_EQ(trace_wanted, 0u);
    EXPECT_FALSE(traceOn(TRACE_ALL));
    traceSetOutput(TRACE_OUTPUT_FILE, TRACE_CMD, collect);
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_BLOCK, collect);
    EXPECT_TRUE(traceOn(TRACE_CMD));
    EXPECT_TRUE(traceOn(TRACE_BLOCK));
    EXPECT_FALSE(traceOn(TRACE_LOOP));
    traceSetOutput(TRACE_OUTPUT_FILE, 0, nullptr);
    traceSetOutput(TRACE_OUTPUT_LIVE, 0, nullptr);
    EXPECT_EQ(trace_wanted, 0u);
}

TEST_F(TraceCore, EachOutputGetsOnlyItsCategories) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_BLOCK, collect);
    traceEvent(TRACE_CMD, "call").emit();
    traceEvent(TRACE_BLOCK, "blockForKeys").emit();
    EXPECT_EQ(names(), (std::vector<std::string>{"blockForKeys"}));
}

TEST_F(TraceCore, TextLine) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_ALL, collect);
    trace_iteration = 42;
    traceEvent(TRACE_BLOCK, "blockForKeys").client(3).str("keys", "q").str("args", "a b").num("timeout_ms", 0).emit();
    traceEvent(TRACE_CMD, "call").since(traceNow()).str("error", "").emit();
    traceEvent(TRACE_LOOP, "serverCron", tracePhase::end).emit();
    traceEvent(TRACE_LOOP, "serverCron", tracePhase::end).num("returned_ms", 100).emit();
    ASSERT_EQ(collected.size(), 4u);
    std::string line = traceFormatText(collected[0]);
    /* "<s>.<us> #42 block blockForKeys client=3 keys=q args=\"a b\" timeout_ms=0" */
    std::string tail = " #42 block blockForKeys client=3 keys=q args=\"a b\" timeout_ms=0";
    ASSERT_GT(line.size(), tail.size());
    EXPECT_EQ(line.substr(line.size() - tail.size()), tail);
    EXPECT_EQ(line.find('.'), line.find(' ') - 7) << line; /* µs: six digits */
    std::string call = traceFormatText(collected[1]);
    EXPECT_NE(call.find(" cmd call error=\"\" us="), std::string::npos) << call;
    EXPECT_EQ(traceFormatText(collected[2]), "");  /* an end without fields */
    EXPECT_NE(traceFormatText(collected[3]).find(" loop serverCron end returned_ms=100"), std::string::npos);
}

/* One event, one line: bytes a terminal would act on are escaped. */
TEST_F(TraceCore, ValuesStayOnOneLine) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_ALL, collect);
    traceEvent(TRACE_BLOCK, "handleClientsBlockedOnKeys").str("reply", "*1\r\n$1\r\nx\r\n").str("key", "a\tb\\\"\x01\xff").str("k", "a=b").emit();
    ASSERT_EQ(collected.size(), 1u);
    std::string line = traceFormatText(collected[0]);
    EXPECT_NE(line.find(R"( reply="*1\r\n$1\r\nx\r\n" key="a\tb\\\"\x01\xff" k="a=b")"), std::string::npos) << line;
}

TEST_F(TraceCore, AnIterationOfQuietEventsOnlyIsDropped) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_ALL, collect);
    traceIterationBegin();
    traceEvent(TRACE_LOOP, "aeApiPoll").quiet().emit();
    traceEvent(TRACE_LOOP, "sendReplyToClient", tracePhase::begin).quiet().emit();
    traceEvent(TRACE_LOOP, "sendReplyToClient", tracePhase::end).quiet().emit();
    traceIterationEnd(1);
    EXPECT_TRUE(collected.empty());
}

TEST_F(TraceCore, WorkReleasesTheIterationInOrder) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_ALL, collect);
    traceIterationBegin();
    traceEvent(TRACE_LOOP, "aeApiPoll").quiet().emit();
    traceEvent(TRACE_LOOP, "readQueryFromClient", tracePhase::begin).emit();
    traceEvent(TRACE_CMD, "call").emit();
    traceEvent(TRACE_LOOP, "readQueryFromClient", tracePhase::end).emit();
    traceIterationEnd(1);
    EXPECT_EQ(names(), (std::vector<std::string>{"aeProcessEvents", "aeApiPoll", "readQueryFromClient", "call",
                                                 "readQueryFromClient", "aeProcessEvents"}));
    EXPECT_EQ(collected.front().phase, tracePhase::begin);
    EXPECT_EQ(collected.back().phase, tracePhase::end);
}

TEST_F(TraceCore, AnotherCategorysEventIsWorkToo) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_LOOP, collect);
    traceSetOutput(TRACE_OUTPUT_FILE, TRACE_BLOCK, collect);
    traceIterationBegin();
    traceEvent(TRACE_LOOP, "aeApiPoll").quiet().emit();
    traceEvent(TRACE_BLOCK, "unblockClient").emit();
    traceIterationEnd(0);
    EXPECT_EQ(names(), (std::vector<std::string>{"aeProcessEvents", "aeApiPoll", "unblockClient", "aeProcessEvents"}));
}

TEST_F(TraceCore, AnEndWithoutItsBeginIsNotEmitted) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_ALL, collect);
    traceIterationEnd(3); /* tracing was switched on inside the iteration */
    EXPECT_TRUE(collected.empty());
}

TEST_F(TraceCore, EventsEmittedWhileDeliveringAreDropped) {
    traceSetOutput(TRACE_OUTPUT_LIVE, TRACE_ALL, reentrant);
    traceEvent(TRACE_BLOCK, "signalKeyAsReady").emit();
    EXPECT_EQ(names(), (std::vector<std::string>{"signalKeyAsReady"}));
}

TEST_F(TraceCore, ProcNames) {
    static int a, b;
    traceNameProc(&a, "serverCron");
    EXPECT_STREQ(traceProcName(&a), "serverCron");
    EXPECT_STREQ(traceProcName(&b), "?");
}

}  // namespace
