/* evict.cpp — maxmemory and its eviction policies (Redis's evict.c); see
 * evict.h for the design and the invariants. The LRU clock and the LFU
 * counter a policy ranks keys by are object.h's. */
#include "evict.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include <unistd.h>

#include "bio.h"
#include "db.h"
#include "latency.h"
#include "notify.h"
#include "scripting.h"
#include "server.h"
#include "zmalloc.h"

namespace {

constexpr configEnum maxmemory_policy_enum[] = {
    {"volatile-lru", MAXMEMORY_VOLATILE_LRU},       {"volatile-lfu", MAXMEMORY_VOLATILE_LFU},
    {"volatile-random", MAXMEMORY_VOLATILE_RANDOM}, {"volatile-ttl", MAXMEMORY_VOLATILE_TTL},
    {"allkeys-lru", MAXMEMORY_ALLKEYS_LRU},         {"allkeys-lfu", MAXMEMORY_ALLKEYS_LFU},
    {"allkeys-random", MAXMEMORY_ALLKEYS_RANDOM},   {"noeviction", MAXMEMORY_NO_EVICTION}};

bool allKeys() { return server.maxmemory_policy & MAXMEMORY_FLAG_ALLKEYS; }

/* ========================================================================
 * The eviction pool
 * ====================================================================== */

/* How evictable a key is, per policy: the higher the better. */
unsigned long long evictionRank(const robj *o) {
    if (server.maxmemory_policy & MAXMEMORY_FLAG_LRU) return estimateObjectIdleTime(o);
    /* A counter decays as it is sampled too: idle keys sink even unread. */
    return 255 - LFUDecrAndReturn(o);
}

/* Puts key in the pool at its rank, unless the pool is full of better
 * candidates. Entries are moved by rotation, so each keeps its buffer. */
void evictionPoolInsert(std::span<evictionPoolEntry> pool, unsigned long long idle, std::string_view key, int dbid) {
    size_t k = 0;
    while (k < pool.size() && pool[k].filled && pool[k].idle < idle) k++;
    if (k == 0 && pool.back().filled) return; /* worse than every candidate */
    if (k < pool.size() && !pool[k].filled) {
        /* An empty slot where it belongs. */
    } else if (!pool.back().filled) {
        /* Room on the right: shift the better ones right, the empty last
         * entry coming round to k. */
        std::rotate(pool.begin() + k, pool.end() - 1, pool.end());
    } else {
        /* Full: the worst (first) entry goes, the worse ones shift left. */
        k--;
        std::rotate(pool.begin(), pool.begin() + 1, pool.begin() + k + 1);
    }
    evictionPoolEntry &e = pool[k];
    e.idle = idle;
    e.key.assign(key);
    e.dbid = dbid;
    e.filled = true;
}

/* The sampled entries, in a buffer that grows only when maxmemory-samples
 * does (never past the keys there are): sampling allocates nothing. */
template <typename Dict>
std::span<typename Dict::entry *> sampleEntries(Dict &d) {
    static std::vector<typename Dict::entry *> samples;
    size_t wanted = std::min(static_cast<size_t>(server.maxmemory_samples), d.size());
    if (samples.size() < wanted) samples.resize(wanted);
    size_t count = d.getSomeEntries(std::span(samples.data(), wanted));
    return std::span(samples.data(), count);
}

/* ========================================================================
 * Performing evictions
 * ====================================================================== */

bool eviction_proc_running = false;

long long evictionTimeProc(aeEventLoop *, long long, void *) {
    if (performEvictions() == EVICT_RUNNING) return 0; /* keep evicting, at the next iteration */
    /* EVICT_OK: under the limit. EVICT_FAIL: nothing left to evict. */
    eviction_proc_running = false;
    return AE_NOMORE;
}

/* Not while a busy script lets the event loop run (its propagation and the
 * DELs would interleave), nor while loading a dataset. */
bool isSafeToPerformEvictions() {
    /* A replica follows its master's evictions (replica-ignore-maxmemory). */
    if (!server.masterhost.empty() && server.repl_slave_ignore_maxmemory) return false;
    /* Nor while CLIENT PAUSE keeps the dataset as it is. */
    return !scriptIsTimedout() && !server.loading && !checkClientPauseTimeoutAndReturnIfPaused();
}

/* The time one cycle may take: 0..500 µs linearly up to tenacity 10, then
 * 15% more per point (about 2 minutes at 99), unbounded at 100. */
unsigned long evictionTimeLimitUs() {
    int tenacity = server.maxmemory_eviction_tenacity;
    if (tenacity <= 10) return 50UL * static_cast<unsigned long>(tenacity);
    if (tenacity < 100) return static_cast<unsigned long>(500.0 * pow(1.15, tenacity - 10.0));
    return ULONG_MAX;
}

/* The best candidate still in the keyspace, for the LRU, LFU and TTL
 * policies: a pool refilled from every database, then emptied from its
 * best end until a key is found that was not deleted meanwhile. Returns
 * false when no database holds a key the policy may evict. */
bool pickFromPool(std::string_view *bestkey, int *bestdbid) {
    std::span<evictionPoolEntry> pool = evictionPool();
    for (;;) {
        unsigned long total_keys = 0;
        for (int i = 0; i < server.dbnum; i++) {
            redisDb *db = &server.db[i];
            size_t keys = allKeys() ? db->dict.size() : db->expires.size();
            if (keys == 0) continue;
            evictionPoolPopulate(i, pool);
            total_keys += keys;
        }
        if (!total_keys) return false;
        for (auto it = pool.rbegin(); it != pool.rend(); ++it) {
            if (!it->filled) continue;
            it->filled = false;
            it->idle = 0;
            redisDb *db = &server.db[it->dbid];
            bool present = allKeys() ? db->dict.find(it->key) != nullptr : db->expires.find(it->key) != nullptr;
            if (present) {
                /* The entry's buffer is left alone until the next populate. */
                *bestkey = it->key;
                *bestdbid = it->dbid;
                return true;
            }
            /* A ghost: deleted since it was sampled. */
        }
    }
}

/* A random key for the random policies, database after database so that
 * each gives its share. The key is copied: the caller deletes its entry. */
bool pickRandom(std::string_view *bestkey, int *bestdbid) {
    static unsigned int next_db = 0;
    static std::string key;
    for (int i = 0; i < server.dbnum; i++) {
        int j = static_cast<int>(++next_db % static_cast<unsigned>(server.dbnum));
        redisDb *db = &server.db[j];
        if (allKeys()) {
            if (auto *de = db->dict.randomEntry()) key.assign(de->key.view());
            else continue;
        } else {
            if (auto *de = db->expires.randomEntry()) key.assign(std::string_view(de->key));
            else continue;
        }
        *bestkey = key;
        *bestdbid = j;
        return true;
    }
    return false;
}

/* Deletes key as eviction does and returns the bytes that freed (under
 * lazyfree-lazy-eviction, only what left before the bio thread's share). */
long long evictKey(redisDb *db, std::string_view key) {
    bool lazy = server.lazyfree_lazy_eviction;
    long long delta = static_cast<long long>(zmalloc_used_memory());
    long long eviction_latency = latencyStartMonitor();
    if (lazy) dbAsyncDelete(db, key);
    else dbSyncDelete(db, key);
    latencyAddSampleIfNeeded("eviction-del", latencyEndMonitor(eviction_latency));
    delta -= static_cast<long long>(zmalloc_used_memory());
    server.stat_evictedkeys++;
    signalModifiedKey(nullptr, db, key);
    notifyKeyspaceEvent(NOTIFY_EVICTED, "evicted", key, db->id);
    /* Outside any command each DEL is propagated on its own, no MULTI
     * around them, as Redis's propagate_no_multi. */
    alsoPropagate(db->id, {lazy ? "UNLINK" : "DEL", key});
    return delta;
}

/* INFO's total/current_eviction_exceeded_time: how long memory stayed over
 * the limit (a period ends at the first cycle that gets under it). */
void updateEvictionExceededTime(int result) {
    if (result == EVICT_RUNNING || result == EVICT_FAIL) {
        if (server.stat_last_eviction_exceeded_time == 0) server.stat_last_eviction_exceeded_time = getMonotonicUs();
    } else if (server.stat_last_eviction_exceeded_time != 0) {
        server.stat_total_eviction_exceeded_time +=
            static_cast<long long>(getMonotonicUs() - server.stat_last_eviction_exceeded_time);
        server.stat_last_eviction_exceeded_time = 0;
    }
}

/* The evicting itself, once over the limit under a policy that evicts. */
int evictUntilFreed(size_t mem_tofree, monotime start) {
    unsigned long time_limit_us = evictionTimeLimitUs();
    long long mem_freed = 0; /* may go negative: a DEL can grow the AOF buffer */
    int keys_freed = 0;
    bool use_pool = (server.maxmemory_policy & (MAXMEMORY_FLAG_LRU | MAXMEMORY_FLAG_LFU)) ||
                    server.maxmemory_policy == MAXMEMORY_VOLATILE_TTL;
    while (mem_freed < static_cast<long long>(mem_tofree)) {
        std::string_view bestkey;
        int bestdbid;
        if (!(use_pool ? pickFromPool(&bestkey, &bestdbid) : pickRandom(&bestkey, &bestdbid)))
            return EVICT_FAIL; /* nothing left to evict */
        mem_freed += evictKey(&server.db[bestdbid], bestkey);
        /* The clock is read every 16 keys only: it costs more than a key. */
        if (++keys_freed % 16 == 0) {
            /* mem_freed misses what the bio thread frees meanwhile: the
             * limit itself says when lazy evictions have done enough. */
            if (server.lazyfree_lazy_eviction && getMaxmemoryState(nullptr, nullptr, nullptr) == C_OK) break;
            if (getMonotonicUs() - start > time_limit_us) {
                startEvictionTimeProc();
                break;
            }
        }
    }
    return eviction_proc_running ? EVICT_RUNNING : EVICT_OK;
}

/* Nothing left to evict, yet memory may be on its way back: the bio thread
 * may still be freeing what was let go of lazily. Waits for it a short
 * while, within the eviction's time budget, rather than fail a write the
 * freeing would allow (Redis 7.0's cant_free). */
int waitForLazyfree(monotime start) {
    unsigned long time_limit_us = evictionTimeLimitUs();
    while (bioPendingJobsOfType(BIO_LAZY_FREE) && getMonotonicUs() - start < time_limit_us) {
        if (getMaxmemoryState(nullptr, nullptr, nullptr) == C_OK) return EVICT_OK;
        usleep(static_cast<useconds_t>(std::min(time_limit_us, 1000UL)));
    }
    return EVICT_FAIL;
}

}  // namespace

std::span<const configEnum> maxmemoryPolicyEnum() { return maxmemory_policy_enum; }

const char *evictPolicyToString() {
    for (const configEnum &ce : maxmemory_policy_enum)
        if (ce.value == server.maxmemory_policy) return ce.name;
    return "unknown";
}

/* The replicas' output buffers and the AOF's buffer are left out, as in
 * Redis 6: evicting to make room for them would feed them DELs. */
size_t freeMemoryGetNotCountedMemory() {
    size_t overhead = 0;
    for (client *slave : server.slaves) overhead += getClientOutputBufferMemoryUsage(slave);
    if (server.aof_state != AOF_OFF) overhead += server.aof_buf.capacity();
    return overhead;
}

int getMaxmemoryState(size_t *total, size_t *logical, size_t *tofree) {
    size_t mem_reported = zmalloc_used_memory();
    if (total) *total = mem_reported;
    size_t maxmemory = static_cast<size_t>(server.maxmemory);
    if (!maxmemory || mem_reported <= maxmemory) return C_OK;
    size_t overhead = freeMemoryGetNotCountedMemory();
    size_t mem_used = mem_reported > overhead ? mem_reported - overhead : 0;
    if (mem_used <= maxmemory) return C_OK;
    if (logical) *logical = mem_used;
    if (tofree) *tofree = mem_used - maxmemory;
    return C_ERR;
}

int performEvictions() {
    if (!isSafeToPerformEvictions()) return EVICT_OK;
    size_t mem_tofree;
    int result;
    monotime start = getMonotonicUs();
    if (getMaxmemoryState(nullptr, nullptr, &mem_tofree) == C_OK) result = EVICT_OK;
    else if (server.maxmemory_policy == MAXMEMORY_NO_EVICTION) result = EVICT_FAIL;
    else {
        long long latency = latencyStartMonitor();
        result = evictUntilFreed(mem_tofree, start);
        latencyAddSampleIfNeeded("eviction-cycle", latencyEndMonitor(latency));
    }
    if (result == EVICT_FAIL) result = waitForLazyfree(start);
    updateEvictionExceededTime(result);
    return result;
}

void startEvictionTimeProc() {
    if (eviction_proc_running) return;
    eviction_proc_running = true;
    aeCreateTimeEvent(server.el.get(), 0, evictionTimeProc, nullptr, nullptr);
}

std::span<evictionPoolEntry> evictionPool() {
    static std::vector<evictionPoolEntry> pool = [] {
        std::vector<evictionPoolEntry> p(EVPOOL_SIZE);
        for (evictionPoolEntry &e : p) e.key.reserve(EVPOOL_CACHED_SDS_SIZE);
        return p;
    }();
    return pool;
}

void evictionPoolPopulate(int dbid, std::span<evictionPoolEntry> pool) {
    redisDb *db = &server.db[dbid];
    if (allKeys()) {
        for (auto *de : sampleEntries(db->dict))
            evictionPoolInsert(pool, evictionRank(de->val.get()), de->key.view(), dbid);
        return;
    }
    for (auto *de : sampleEntries(db->expires)) {
        std::string_view key = de->key;
        unsigned long long idle;
        if (server.maxmemory_policy == MAXMEMORY_VOLATILE_TTL) {
            /* The sooner it expires, the better a candidate. */
            idle = ULLONG_MAX - static_cast<unsigned long long>(de->val);
        } else {
            idle = evictionRank(db->dict.find(key)->val.get());
        }
        evictionPoolInsert(pool, idle, key, dbid);
    }
}
