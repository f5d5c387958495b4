/* evict_test.cpp — the arithmetic eviction ranks keys by: the LFU counter
 * (object.cpp: LFULogIncr, LFUDecrAndReturn, LFUTimeElapsed) and the
 * eviction pool (evict.cpp: evictionPoolPopulate keeps the best
 * EVPOOL_SIZE candidates, sorted). */
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "db.h"
#include "evict.h"
#include "server.h"

namespace {

/* Restores the server fields a test changes. */
class EvictTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!server.db) initDatabases();
        emptyData(-1, EMPTYDB_NO_FLAGS);
        saved_ = {server.maxmemory_policy, server.maxmemory_samples, server.lfu_log_factor, server.lfu_decay_time,
                  server.unixtime, server.mstime};
        srand(1);
    }
    void TearDown() override {
        emptyData(-1, EMPTYDB_NO_FLAGS);
        server.maxmemory_policy = saved_.policy;
        server.maxmemory_samples = saved_.samples;
        server.lfu_log_factor = saved_.log_factor;
        server.lfu_decay_time = saved_.decay_time;
        server.unixtime = saved_.unixtime;
        server.mstime = saved_.mstime;
    }

    /* Accesses needed to take a fresh counter (LFU_INIT_VAL) to `target`. */
    static long accessesToReach(unsigned target) {
        uint8_t counter = LFU_INIT_VAL;
        long n = 0;
        while (counter < target) {
            counter = LFULogIncr(counter);
            n++;
        }
        return n;
    }

    /* Adds key with its lru field set to `lru`. */
    static void addKey(const std::string &key, unsigned lru) {
        dbAdd(&server.db[0], key, createStringObject("v"));
        server.db[0].dict.find(key)->val->lru = lru;
    }

private:
    struct {
        int policy, samples, log_factor, decay_time;
        time_t unixtime;
        long long mstime;
    } saved_{};
};

TEST_F(EvictTest, LogIncrTakesMoreAccessesPerStepAsTheCounterGrows) {
    server.lfu_log_factor = 0; /* probability 1: every access counts */
    EXPECT_EQ(accessesToReach(100), 95);
    EXPECT_EQ(LFULogIncr(255), 255); /* saturates */

    /* With the default factor, Redis's table (redis.conf): about 1K
     * accesses reach 18, 100K reach 142, 1M saturate. */
    server.lfu_log_factor = 10;
    long to18 = accessesToReach(18);
    EXPECT_GT(to18, 500);
    EXPECT_LT(to18, 2000);
    long to142 = accessesToReach(142);
    EXPECT_GT(to142, 60000);
    EXPECT_LT(to142, 160000);
    /* Below LFU_INIT_VAL + 1 the first access always counts. */
    EXPECT_EQ(LFULogIncr(LFU_INIT_VAL), LFU_INIT_VAL + 1);
}

TEST_F(EvictTest, CounterDecaysOnePerDecayTimeMinutesAcrossTheWrap) {
    robj o{};
    server.unixtime = 60 * 1000; /* minute 1000 */
    o.lru = (1000u << 8) | 20;
    EXPECT_EQ(LFUDecrAndReturn(&o), 20u);
    server.unixtime += 60 * 7; /* 7 minutes idle */
    server.lfu_decay_time = 1;
    EXPECT_EQ(LFUDecrAndReturn(&o), 13u);
    server.lfu_decay_time = 2;
    EXPECT_EQ(LFUDecrAndReturn(&o), 17u);
    server.lfu_decay_time = 0; /* never decays */
    EXPECT_EQ(LFUDecrAndReturn(&o), 20u);
    server.lfu_decay_time = 1;
    server.unixtime += 60 * 100; /* more periods than the counter: 0, not a wrap */
    EXPECT_EQ(LFUDecrAndReturn(&o), 0u);

    /* The 16-bit minutes wrap: a stamp "ahead" of now was taken before. */
    server.unixtime = 60 * 65536 + 60 * 3; /* minute 3 after the wrap */
    EXPECT_EQ(LFUTimeElapsed(65530), 65535u - 65530 + 3);
}

TEST_F(EvictTest, PoolKeepsTheMostIdleCandidatesSortedBestLast) {
    server.maxmemory_policy = MAXMEMORY_ALLKEYS_LRU;
    server.maxmemory_samples = 1000; /* every key is sampled */
    server.mstime = 100000LL * LRU_CLOCK_RESOLUTION;
    unsigned now = LRU_CLOCK();
    for (int i = 0; i < 100; i++) addKey("k" + std::to_string(i), now - i); /* k99 is the most idle */

    std::vector<evictionPoolEntry> pool(EVPOOL_SIZE);
    evictionPoolPopulate(0, pool);
    for (int k = 0; k < EVPOOL_SIZE; k++) {
        SCOPED_TRACE(k);
        ASSERT_TRUE(pool[k].filled);
        EXPECT_EQ(pool[k].key, "k" + std::to_string(100 - EVPOOL_SIZE + k));
        EXPECT_EQ(pool[k].idle, static_cast<unsigned long long>(100 - EVPOOL_SIZE + k) * LRU_CLOCK_RESOLUTION);
    }

    /* A later population lets a better candidate in, the worst out. */
    emptyData(-1, EMPTYDB_NO_FLAGS);
    addKey("older", now - 500);
    evictionPoolPopulate(0, pool);
    EXPECT_EQ(pool[EVPOOL_SIZE - 1].key, "older");
    EXPECT_EQ(pool[0].key, "k" + std::to_string(100 - EVPOOL_SIZE + 1));
}

TEST_F(EvictTest, PoolRanksByCounterUnderLfuAndByDeadlineUnderVolatileTtl) {
    server.maxmemory_samples = 1000;
    server.unixtime = 60 * 1000;
    unsigned minutes = static_cast<unsigned>(LFUGetTimeInMinutes());
    server.maxmemory_policy = MAXMEMORY_ALLKEYS_LFU;
    addKey("hot", (minutes << 8) | 200);
    addKey("cold", (minutes << 8) | 1);
    addKey("warm", (minutes << 8) | 50);
    std::vector<evictionPoolEntry> pool(EVPOOL_SIZE);
    evictionPoolPopulate(0, pool);
    EXPECT_EQ(pool[0].key, "hot");
    EXPECT_EQ(pool[1].key, "warm");
    EXPECT_EQ(pool[2].key, "cold");
    EXPECT_EQ(pool[2].idle, 254u);
    EXPECT_FALSE(pool[3].filled);

    /* volatile-ttl samples only keys with a TTL: the soonest is the best. */
    server.maxmemory_policy = MAXMEMORY_VOLATILE_TTL;
    setExpire(nullptr, &server.db[0], "hot", 5000);
    setExpire(nullptr, &server.db[0], "warm", 1000);
    std::vector<evictionPoolEntry> ttl_pool(EVPOOL_SIZE);
    evictionPoolPopulate(0, ttl_pool);
    EXPECT_EQ(ttl_pool[0].key, "hot");
    EXPECT_EQ(ttl_pool[1].key, "warm");
    EXPECT_FALSE(ttl_pool[2].filled);
}

}  // namespace
