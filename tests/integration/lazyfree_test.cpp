/* lazyfree_test.cpp — lazy freeing (Redis's lazyfree.c) on cppredis and on
 * Redis 7.0.15 alike: what goes to the background thread is seen in INFO
 * memory's lazyfree_pending_objects and lazyfreed_objects.
 *
 * The bio thread frees its jobs one at a time in the order they were
 * queued, so once lazyfree_pending_objects is back to 0 lazyfreed_objects
 * counts exactly what was handed over: a small value that was not handed
 * over cannot hide as "not freed yet". */
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* A set of `n` members in a hash table (they are no integers): its free
 * effort is n, against Redis's LAZYFREE_THRESHOLD of 64. */
void makeSet(RespConn &c, const std::string &key, int n) {
    std::vector<Args> cmds;
    Args sadd{"SADD", key};
    for (int j = 0; j < n; j++) {
        sadd.push_back("member:" + std::to_string(j));
        if (sadd.size() == 1002 || j == n - 1) {
            cmds.push_back(sadd);
            sadd = {"SADD", key};
        }
    }
    pipeline(c, cmds);
}

/* `n` string keys prefix0..prefix<n-1>. */
void makeKeys(RespConn &c, const std::string &prefix, int n) {
    std::vector<Args> sets;
    for (int j = 0; j < n; j++) sets.push_back({"SET", prefix + std::to_string(j), "v"});
    pipeline(c, sets);
}

long long pending(RespConn &c) { return infoNumber(c, "memory", "lazyfree_pending_objects"); }
long long lazyfreed(RespConn &c) { return infoNumber(c, "memory", "lazyfreed_objects"); }

/* Waits until the background thread has nothing left, then says what it
 * freed in all. */
long long lazyfreedOnceIdle(RespConn &c) {
    EXPECT_TRUE(pollUntil([&] { return pending(c) == 0; }));
    return lazyfreed(c);
}

class Lazyfree : public EitherServerTest {};

const char *const kOptions[] = {"lazyfree-lazy-eviction", "lazyfree-lazy-expire", "lazyfree-lazy-server-del",
                                "lazyfree-lazy-user-del", "lazyfree-lazy-user-flush", "replica-lazy-flush"};

TEST_P(Lazyfree, OptionsDefaultToNoAndCanBeSet) {
    for (const char *name : kOptions) {
        EXPECT_EQ(call({"CONFIG", "GET", name}), array({bulk(name), bulk("no")})) << name;
        EXPECT_EQ(call({"CONFIG", "SET", name, "yes"}), OK) << name;
        EXPECT_EQ(call({"CONFIG", "GET", name}), array({bulk(name), bulk("yes")})) << name;
        EXPECT_EQ(call({"CONFIG", "SET", name, "maybe"}),
                  err(std::string("ERR CONFIG SET failed (possibly related to argument '") + name +
                      "') - argument must be 'yes' or 'no'"))
            << name;
    }
    EXPECT_EQ(call({"CONFIG", "GET", "slave-lazy-flush"}), array({bulk("slave-lazy-flush"), bulk("yes")}));
}

/* The cost rule: a set of 64 members is freed at once, one of 65 on the
 * background thread; a string always at once. */
TEST_P(Lazyfree, UnlinkHandsOverOnlyValuesAboveTheThreshold) {
    EXPECT_EQ(lazyfreed(*c), 0);
    makeSet(*c, "small", 64);
    makeSet(*c, "big", 65);
    EXPECT_EQ(call({"SET", "str", std::string(100000, 'x')}), OK);
    EXPECT_EQ(call({"UNLINK", "small", "str", "missing"}), integer(2));
    EXPECT_EQ(call({"UNLINK", "big"}), integer(1));
    EXPECT_EQ(call({"EXISTS", "small", "big", "str"}), integer(0));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 1);
}

/* The memory comes back once the thread freed it: used_memory counts the
 * frees of the thread too. */
TEST_P(Lazyfree, UsedMemoryDropsOnceTheThreadFreed) {
    makeSet(*c, "big", 200000);
    long long before = infoNumber(*c, "memory", "used_memory");
    EXPECT_EQ(call({"UNLINK", "big"}), integer(1));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 1);
    EXPECT_GE(before - infoNumber(*c, "memory", "used_memory"), 4LL << 20);
}

/* DEL frees at once unless lazyfree-lazy-user-del makes it UNLINK. */
TEST_P(Lazyfree, DelIsLazyOnlyWithLazyUserDel) {
    makeSet(*c, "a", 100);
    EXPECT_EQ(call({"DEL", "a"}), integer(1));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 0);
    EXPECT_EQ(call({"CONFIG", "SET", "lazyfree-lazy-user-del", "yes"}), OK);
    makeSet(*c, "a", 100);
    EXPECT_EQ(call({"DEL", "a"}), integer(1));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 1);
}

/* The database is empty when ASYNC replies; its keys are counted as they
 * are freed in the background, whichever of the two databases they were in. */
TEST_P(Lazyfree, FlushAsyncEmptiesAtOnceAndFreesInTheBackground) {
    makeKeys(*c, "k", 100);
    EXPECT_EQ(call({"SELECT", "3"}), OK);
    makeKeys(*c, "k", 50);
    EXPECT_EQ(call({"FLUSHDB", "ASYNC"}), OK);
    EXPECT_EQ(call({"DBSIZE"}), integer(0));
    EXPECT_EQ(call({"SET", "after", "1"}), OK); /* the fresh dict takes writes */
    EXPECT_EQ(lazyfreedOnceIdle(*c), 50);
    EXPECT_EQ(call({"FLUSHALL", "ASYNC"}), OK);
    EXPECT_EQ(call({"DBSIZE"}), integer(0));
    EXPECT_EQ(call({"SELECT", "0"}), OK);
    EXPECT_EQ(call({"DBSIZE"}), integer(0));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 50 + 101);
    /* SYNC, and no argument with lazyfree-lazy-user-flush off: at once. */
    makeKeys(*c, "k", 10);
    EXPECT_EQ(call({"FLUSHALL", "SYNC"}), OK);
    makeKeys(*c, "k", 10);
    EXPECT_EQ(call({"FLUSHDB"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 151);
}

TEST_P(Lazyfree, LazyUserFlushMakesPlainFlushesAsync) {
    EXPECT_EQ(call({"CONFIG", "SET", "lazyfree-lazy-user-flush", "yes"}), OK);
    makeKeys(*c, "k", 20);
    EXPECT_EQ(call({"FLUSHDB"}), OK);
    EXPECT_EQ(call({"DBSIZE"}), integer(0));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 20);
    makeKeys(*c, "k", 30);
    EXPECT_EQ(call({"FLUSHALL"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 50);
    makeKeys(*c, "k", 30);
    EXPECT_EQ(call({"FLUSHALL", "SYNC"}), OK); /* the argument wins */
    EXPECT_EQ(lazyfreedOnceIdle(*c), 50);
}

/* Deletes the server decides: SET over a big value, RENAME onto one. */
TEST_P(Lazyfree, LazyServerDelFreesOverwrittenValuesInTheBackground) {
    makeSet(*c, "a", 100);
    EXPECT_EQ(call({"SET", "a", "v"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 0);
    EXPECT_EQ(call({"CONFIG", "SET", "lazyfree-lazy-server-del", "yes"}), OK);
    makeSet(*c, "b", 100);
    EXPECT_EQ(call({"SET", "b", "v"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 1);
    makeSet(*c, "dst", 100);
    EXPECT_EQ(call({"RENAME", "a", "dst"}), OK);
    EXPECT_EQ(call({"GET", "dst"}), bulk("v"));
    EXPECT_EQ(call({"EXISTS", "a"}), integer(0));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 2);
}

/* An expired key, found by the expire cycle or a lookup, and EXPIRE with a
 * time already past. */
TEST_P(Lazyfree, LazyExpireFreesExpiredValuesInTheBackground) {
    EXPECT_EQ(call({"CONFIG", "SET", "lazyfree-lazy-expire", "yes"}), OK);
    makeSet(*c, "a", 100);
    EXPECT_EQ(call({"PEXPIRE", "a", "1"}), integer(1));
    EXPECT_TRUE(pollUntil([&] { return call({"EXISTS", "a"}) == integer(0); }));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 1);
    makeSet(*c, "b", 100);
    EXPECT_EQ(call({"EXPIRE", "b", "-1"}), integer(1));
    EXPECT_EQ(call({"EXISTS", "b"}), integer(0));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 2);
}

/* Eviction under lazyfree-lazy-eviction: the only key goes, freed in the
 * background, and the server keeps answering while memory is pending. */
TEST_P(Lazyfree, LazyEvictionFreesEvictedValuesInTheBackground) {
    EXPECT_EQ(call({"CONFIG", "SET", "lazyfree-lazy-eviction", "yes"}), OK);
    EXPECT_EQ(call({"CONFIG", "SET", "maxmemory-policy", "allkeys-random"}), OK);
    makeSet(*c, "a", 100000);
    EXPECT_EQ(call({"CONFIG", "SET", "maxmemory", "1"}), OK);
    EXPECT_TRUE(pollUntil([&] {
        c->call({"SET", "x", "y"}); /* OK or OOM: each write evicts */
        return call({"DBSIZE"}) == integer(0);
    }));
    EXPECT_EQ(call({"CONFIG", "SET", "maxmemory", "0"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 1);
}

/* SCRIPT FLUSH ASYNC hands a cache of more than 64 scripts to the
 * background thread, counted as its scripts; a smaller one is freed at
 * once. Without an argument, lazyfree-lazy-user-flush decides. */
TEST_P(Lazyfree, ScriptFlushAsyncFreesBigCachesInTheBackground) {
    auto load = [&](int n) {
        std::vector<Args> cmds;
        for (int j = 0; j < n; j++) cmds.push_back({"SCRIPT", "LOAD", "return " + std::to_string(j)});
        pipeline(*c, cmds);
    };
    load(10);
    EXPECT_EQ(call({"SCRIPT", "FLUSH", "ASYNC"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 0);
    load(100);
    EXPECT_EQ(call({"SCRIPT", "FLUSH", "ASYNC"}), OK);
    EXPECT_EQ(call({"EVALSHA", "06d3d9b2060dd51343d5f19f0e531f15c507e3d1", "0"}),
              err("NOSCRIPT No matching script. Please use EVAL."));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 100);
    EXPECT_EQ(call({"EVAL", "return 7", "0"}), integer(7)); /* the new interpreter */
    load(100);
    EXPECT_EQ(call({"SCRIPT", "FLUSH"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 100);
    EXPECT_EQ(call({"CONFIG", "SET", "lazyfree-lazy-user-flush", "yes"}), OK);
    load(100);
    EXPECT_EQ(call({"SCRIPT", "FLUSH"}), OK);
    EXPECT_EQ(lazyfreedOnceIdle(*c), 200);
}

/* A replica's flush before it loads the master's dataset. */
TEST_P(Lazyfree, ReplicaLazyFlushFreesTheOldDatasetInTheBackground) {
    std::unique_ptr<TestServer> master =
        cppredis() ? std::make_unique<TestServer>() : std::make_unique<RedisReference>();
    RespConn m = master->connect();
    EXPECT_EQ(m.call({"CONFIG", "SET", "repl-diskless-sync-delay", "0"}).raw, OK); /* Redis waits 5 s */
    EXPECT_EQ(m.call({"SET", "from-master", "1"}).raw, OK);
    makeKeys(*c, "old", 40);
    EXPECT_EQ(call({"CONFIG", "SET", "replica-lazy-flush", "yes"}), OK);
    EXPECT_EQ(call({"REPLICAOF", "127.0.0.1", std::to_string(master->port())}), OK);
    EXPECT_TRUE(pollUntil([&] { return infoField(*c, "replication", "master_link_status") == "up"; }));
    EXPECT_EQ(call({"DBSIZE"}), integer(1));
    EXPECT_EQ(lazyfreedOnceIdle(*c), 40);
    EXPECT_EQ(call({"REPLICAOF", "NO", "ONE"}), OK);
}

INSTANTIATE_TEST_SUITE_P(Servers, Lazyfree, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
