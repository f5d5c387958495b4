/* livetrace_data_test.cpp — the live trace (livetrace.h) of the data structures and
 * of the server's background work: encoding conversions with their trigger
 * (categories encoding), the keyspace's rehashing (dict), activeExpireCycle
 * (cron), and BGSAVE / BGREWRITEAOF children (child). Read as a learner
 * reads it: PSUBSCRIBE __trace__:* after CONFIG SET trace-events.
 *
 * A line is compared without its "<s.us> #<iteration> " head. The tests
 * wait for trace lines, never for time. */
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "integration/harness.h"

using namespace itest;

namespace {

class TraceData : public ::testing::Test {
public:
    TestServer srv{{"--enable-debug-command", "yes"}};
    RespConn admin = srv.connect();
    RespConn reader = srv.connect();
    RespConn c = srv.connect();
    std::string cid = std::to_string(c.call({"CLIENT", "ID"}).integer);

    /* Publishes `categories` and starts reading every trace channel. */
    void watch(const std::string &categories) {
        ASSERT_EQ(admin.call({"CONFIG", "SET", "trace-events", categories}).str, "OK");
        ASSERT_EQ(reader.call({"PSUBSCRIBE", "__trace__:*"}).type, Reply::Type::Array);
    }

    /* The next trace line, without its head. */
    std::string nextLine() {
        Reply r = reader.readReply();
        if (r.type != Reply::Type::Array || r.elements.size() != 4) return "?" + toString(r);
        static const std::regex head(R"(^\d+\.\d{6} #\d+ )");
        return std::regex_replace(r.elements[3].str, head, "");
    }

    /* The first line starting with `prefix`, skipping the others. */
    std::string lineStarting(const std::string &prefix) {
        for (;;) {
            std::string line = nextLine();
            if (line.rfind(prefix, 0) == 0) return line;
        }
    }
};

std::string longValue() { return std::string(65, 'v'); }

TEST_F(TraceData, ListValueOverLimitConvertsZiplistToLinkedlist) {
    watch("encoding");
    ASSERT_EQ(c.call({"RPUSH", "l", "a"}).integer, 1);
    ASSERT_EQ(c.call({"RPUSH", "l", longValue()}).integer, 2);
    EXPECT_EQ(lineStarting("encoding"),
              "encoding listTypeConvert client=" + cid +
                  " key=l from=ziplist to=linkedlist trigger=\"value over list-max-ziplist-value\" value_len=65 "
                  "limit=64 cmd=rpush");
}

TEST_F(TraceData, List513thEntryConvertsOnTheEntriesLimit) {
    watch("encoding");
    Args push{"RPUSH", "l"};
    for (int i = 0; i < 513; i++) push.push_back("e" + std::to_string(i));
    ASSERT_EQ(c.call(push).integer, 513);
    EXPECT_EQ(lineStarting("encoding"),
              "encoding listTypeConvert client=" + cid +
                  " key=l from=ziplist to=linkedlist trigger=\"entries over list-max-ziplist-entries\" entries=513 "
                  "limit=512 cmd=rpush");
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "l"}).str, "linkedlist");
}

TEST_F(TraceData, HashConvertsOnAValueAndOnEntries) {
    ASSERT_EQ(admin.call({"CONFIG", "SET", "hash-max-ziplist-entries", "2"}).str, "OK");
    watch("encoding");
    ASSERT_EQ(c.call({"HSET", "h", "f", longValue()}).integer, 1);
    EXPECT_EQ(lineStarting("encoding"),
              "encoding hashTypeConvert client=" + cid +
                  " key=h from=ziplist to=hashtable trigger=\"value over hash-max-ziplist-value\" value_len=65 "
                  "limit=64 cmd=hset");
    ASSERT_EQ(c.call({"HSET", "h2", "a", "1", "b", "2", "c", "3"}).integer, 3);
    EXPECT_EQ(lineStarting("encoding"),
              "encoding hashTypeConvert client=" + cid +
                  " key=h2 from=ziplist to=hashtable trigger=\"entries over hash-max-ziplist-entries\" entries=3 "
                  "limit=2 cmd=hset");
}

TEST_F(TraceData, SetConvertsOnANonIntegerMemberAndOnEntries) {
    ASSERT_EQ(admin.call({"CONFIG", "SET", "set-max-intset-entries", "3"}).str, "OK");
    ASSERT_EQ(c.call({"SADD", "s", "1", "2"}).integer, 2);
    watch("encoding");
    ASSERT_EQ(c.call({"SADD", "s", "x"}).integer, 1);
    EXPECT_EQ(lineStarting("encoding"), "encoding setTypeConvert client=" + cid +
                                            " key=s from=intset to=hashtable trigger=\"non-integer member\" cmd=sadd");
    ASSERT_EQ(c.call({"SADD", "s2", "1", "2", "3", "4"}).integer, 4);
    EXPECT_EQ(lineStarting("encoding"),
              "encoding setTypeConvert client=" + cid +
                  " key=s2 from=intset to=hashtable trigger=\"entries over set-max-intset-entries\" entries=4 "
                  "limit=3 cmd=sadd");
}

TEST_F(TraceData, ZsetConvertsOnAValueAndOnEntries) {
    ASSERT_EQ(admin.call({"CONFIG", "SET", "zset-max-ziplist-entries", "2"}).str, "OK");
    watch("encoding");
    ASSERT_EQ(c.call({"ZADD", "z", "1", "a", "2", longValue()}).integer, 2);
    EXPECT_EQ(lineStarting("encoding"),
              "encoding zsetConvert client=" + cid +
                  " key=z from=ziplist to=skiplist trigger=\"value over zset-max-ziplist-value\" value_len=65 "
                  "limit=64 cmd=zadd");
    ASSERT_EQ(c.call({"ZADD", "z2", "1", "a", "2", "b", "3", "c"}).integer, 3);
    EXPECT_EQ(lineStarting("encoding"),
              "encoding zsetConvert client=" + cid +
                  " key=z2 from=ziplist to=skiplist trigger=\"entries over zset-max-ziplist-entries\" entries=3 "
                  "limit=2 cmd=zadd");
}

/* Loading names the key it is reading: a list saved whole gets its long
 * value pushed into a new ziplist, and a sorted set saved as a skiplist
 * goes back to a ziplist once the raised limit lets it. */
TEST_F(TraceData, LoadingConversionsNameTheKeyBeingLoaded) {
    ASSERT_EQ(admin.call({"CONFIG", "SET", "zset-max-ziplist-entries", "2"}).str, "OK");
    ASSERT_EQ(c.call({"RPUSH", "l", "a", longValue()}).integer, 2);
    ASSERT_EQ(c.call({"ZADD", "z", "1", "a", "2", "b", "3", "c"}).integer, 3);
    ASSERT_EQ(admin.call({"CONFIG", "SET", "zset-max-ziplist-entries", "128"}).str, "OK");
    watch("encoding");
    ASSERT_EQ(c.call({"DEBUG", "RELOAD"}).str, "OK");
    std::vector<std::string> lines{lineStarting("encoding"), lineStarting("encoding")};
    std::sort(lines.begin(), lines.end()); /* the keys load in the keyspace's order */
    EXPECT_EQ(lines, (std::vector<std::string>{
                         "encoding listTypeConvert client=" + cid +
                             " key=l from=ziplist to=linkedlist trigger=\"value over list-max-ziplist-value\" "
                             "value_len=65 limit=64 cmd=debug",
                         "encoding zsetConvert client=" + cid +
                             " key=z from=skiplist to=ziplist trigger=\"within zset-max-ziplist-entries and "
                             "zset-max-ziplist-value\" entries=3 limit=128 cmd=debug",
                     }));
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "z"}).str, "ziplist");
}

/* The keyspace's table grows from 4 buckets on the 5th key. */
TEST_F(TraceData, KeyspaceRehashIsNamedWithItsSizes) {
    watch("dict");
    for (int i = 0; i < 5; i++) ASSERT_EQ(c.call({"SET", "k" + std::to_string(i), "v"}).str, "OK");
    EXPECT_EQ(lineStarting("dict dictRehashStart"), "dict dictRehashStart dict=\"db0 keys\" from=4 to=8 used=4");
    /* Every lookup moves a bucket: the table is done within a few. */
    for (int i = 0; i < 16; i++) c.call({"EXISTS", "k0"});
    static const std::regex end(R"(dict dictRehashEnd dict="db0 keys" from=4 to=8 used=5 steps=\d+ us=\d+)");
    EXPECT_TRUE(std::regex_match(lineStarting("dict dictRehashEnd"), end));
}

TEST_F(TraceData, ActiveExpireCycleReportsWhatItExpired) {
    watch("cron");
    for (int i = 0; i < 5; i++) ASSERT_EQ(c.call({"SET", "t" + std::to_string(i), "v", "PX", "1"}).str, "OK");
    static const std::regex cycle(R"(cron activeExpireCycle sampled=(\d+) expired=(\d+) stale_perc=(\d+) dbs=0 )"
                                  R"(dbs_visited=16 timelimit_us=25000 timelimit_exit=0 us=\d+)");
    long long expired = 0;
    while (expired < 5) { /* the keys may die over more than one run */
        std::string line = lineStarting("cron activeExpireCycle");
        std::smatch m;
        ASSERT_TRUE(std::regex_match(line, m, cycle)) << line;
        expired += std::stoll(m[2]);
        EXPECT_EQ(std::stoll(m[3]), std::stoll(m[2]) * 100 / std::stoll(m[1]));
    }
    EXPECT_EQ(expired, 5);
    EXPECT_EQ(c.call({"DBSIZE"}).integer, 0);
}

/* A child's life: forked by `cmd`, concluded by `handler`, both naming it. */
void expectChildStartAndEnd(TraceData &t, const Args &cmd, const std::string &reply, const std::string &type,
                            const std::string &handler) {
    ASSERT_EQ(t.c.call(cmd).str, reply);
    std::smatch m;
    std::string start = t.lineStarting("child");
    ASSERT_TRUE(std::regex_match(start, m, std::regex("child redisFork type=" + type + R"( pid=(\d+) fork_us=\d+)")))
        << start;
    std::string end = t.lineStarting("child");
    EXPECT_TRUE(std::regex_match(end, std::regex("child " + handler + " type=" + type + " pid=" + m[1].str() +
                                                 R"( status=ok exitcode=0 signal=0 us=\d+)")))
        << end;
}

TEST_F(TraceData, BgsaveChildStartAndEnd) {
    ASSERT_EQ(c.call({"SET", "k", "v"}).str, "OK");
    watch("child");
    expectChildStartAndEnd(*this, {"BGSAVE"}, "Background saving started", "rdb", "backgroundSaveDoneHandler");
}

TEST_F(TraceData, AofRewriteChildStartAndEnd) {
    watch("child");
    expectChildStartAndEnd(*this, {"BGREWRITEAOF"}, "Background append only file rewriting started", "aof-rewrite",
                           "backgroundRewriteDoneHandler");
}

/* A rewrite of the multi-part AOF step by step: the manifest naming the
 * new incr file, the file opened, the fork, the child's end, its base
 * renamed in, the manifest swapped, the history deleted (and the manifest
 * written without it). */
TEST_F(TraceData, AofRewriteStepsInOrder) {
    ASSERT_EQ(c.call({"CONFIG", "SET", "appendonly", "yes"}).str, "OK");
    ASSERT_TRUE(pollUntil([&] { return infoField(c, "persistence", "aof_rewrites") == "1" &&
                                       infoField(c, "persistence", "aof_rewrite_in_progress") == "0"; }));
    watch("child");
    ASSERT_EQ(c.call({"BGREWRITEAOF"}).str, "Background append only file rewriting started");
    const std::string manifest_ok = "child persistAofManifest manifest=appendonly.aof.manifest status=ok";
    EXPECT_EQ(lineStarting("child"), manifest_ok);
    EXPECT_EQ(lineStarting("child"), "child openNewIncrAofForAppend file=appendonly.aof.2.incr.aof");
    std::smatch m;
    std::string fork = lineStarting("child");
    ASSERT_TRUE(std::regex_match(fork, m, std::regex(R"(child redisFork type=aof-rewrite pid=(\d+) fork_us=\d+)")))
        << fork;
    std::string end = lineStarting("child");
    EXPECT_TRUE(std::regex_match(end, std::regex("child backgroundRewriteDoneHandler type=aof-rewrite pid=" +
                                                 m[1].str() + R"( status=ok exitcode=0 signal=0 us=\d+)")))
        << end;
    EXPECT_EQ(lineStarting("child"), "child installRewrittenAof base=appendonly.aof.2.base.rdb");
    EXPECT_EQ(lineStarting("child"), manifest_ok);
    EXPECT_EQ(lineStarting("child"), "child aofDelHistoryFiles files=2");
    EXPECT_EQ(lineStarting("child"), manifest_ok);
}

/* With only encoding on, a rehash, an expiry cycle and a BGSAVE child come
 * and go without a line: the first line is the conversion that follows. */
TEST_F(TraceData, NoEventOfACategoryNotEnabled) {
    watch("encoding");
    for (int i = 0; i < 5; i++) ASSERT_EQ(c.call({"SET", "t" + std::to_string(i), "v", "PX", "1"}).str, "OK");
    ASSERT_TRUE(pollUntil([&] { return c.call({"DBSIZE"}).integer == 0; })); /* expired by the cycle */
    ASSERT_EQ(c.call({"BGSAVE"}).str, "Background saving started");
    ASSERT_TRUE(pollUntil([&] { return infoNumber(c, "persistence", "rdb_bgsave_in_progress") == 0; }));
    ASSERT_EQ(c.call({"SADD", "s", "1"}).integer, 1);
    ASSERT_EQ(c.call({"SADD", "s", "x"}).integer, 1);
    EXPECT_EQ(nextLine(), "encoding setTypeConvert client=" + cid +
                              " key=s from=intset to=hashtable trigger=\"non-integer member\" cmd=sadd");
}

}  // namespace
