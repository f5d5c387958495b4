/* lazyfree_test.cpp — what cppredis says about lazy freeing, which it does
 * not do yet: FLUSHALL/FLUSHDB ASYNC free the dataset before they reply
 * (db.cpp emptyData), INFO memory reports nothing pending and nothing freed
 * lazily, and the lazyfree-* directives, which would promise otherwise, are
 * refused as unknown options, with Redis's words. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* `n` keys of 10 KB each in the connection's database. */
void fill(RespConn &c, const std::string &prefix, int n) {
    std::vector<Args> sets;
    for (int j = 0; j < n; j++) sets.push_back({"SET", prefix + std::to_string(j), std::string(10240, 'v')});
    pipeline(c, sets);
}

/* The memory of 2000 values is given back by the time ASYNC replies, and
 * INFO's lazyfree fields say that nothing was left to a lazyfree thread. */
TEST(Lazyfree, FlushAsyncFreesBeforeReplyingAndInfoSaysSo) {
    TestServer srv;
    RespConn c = srv.connect();
    for (const Args &flush : std::vector<Args>{{"FLUSHDB", "ASYNC"}, {"FLUSHALL", "ASYNC"}}) {
        ASSERT_EQ(c.call({"SELECT", "3"}).raw, OK);
        fill(c, "k", 2000);
        long long before = infoNumber(c, "memory", "used_memory");
        EXPECT_EQ(c.call(flush).raw, OK) << describe(flush);
        EXPECT_EQ(c.call({"DBSIZE"}).raw, integer(0)) << describe(flush);
        EXPECT_GE(before - infoNumber(c, "memory", "used_memory"), 16LL << 20) << describe(flush);
        EXPECT_EQ(infoNumber(c, "memory", "lazyfree_pending_objects"), 0) << describe(flush);
        EXPECT_EQ(infoNumber(c, "memory", "lazyfreed_objects"), 0) << describe(flush);
    }
}

/* Redis 7.0's lazyfree directives: accepting one would claim a behaviour
 * cppredis does not have. */
TEST(Lazyfree, LazyfreeDirectivesAreUnknownOptions) {
    TestServer srv;
    RespConn c = srv.connect();
    for (const char *name : {"lazyfree-lazy-eviction", "lazyfree-lazy-expire", "lazyfree-lazy-server-del",
                             "lazyfree-lazy-user-del", "lazyfree-lazy-user-flush", "replica-lazy-flush"}) {
        EXPECT_EQ(c.call({"CONFIG", "SET", name, "yes"}).raw,
                  err(std::string("ERR Unknown option or number of arguments for CONFIG SET - '") + name + "'"));
        EXPECT_EQ(c.call({"CONFIG", "GET", name}).raw, "*0\r\n") << name;
    }
    ProcessResult r = runProcess({CPPREDIS_SERVER_BIN, "--lazyfree-lazy-user-flush", "yes"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE((r.out + r.err).find("Bad directive or wrong number of arguments"), std::string::npos)
        << r.out << r.err;
}

}  // namespace
