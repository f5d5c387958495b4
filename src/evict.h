/* evict.h — maxmemory: freeing memory by evicting keys (Redis's evict.c).
 *
 * When used memory (zmalloc_used_memory, less what is not counted: the AOF
 * buffers) goes over `maxmemory`, performEvictions deletes keys chosen by
 * `maxmemory-policy` until it is under again, or its time slice
 * (`maxmemory-eviction-tenacity`) runs out, in which case a time event
 * (evictionTimeProc) carries on between the event loop's iterations.
 *
 * The LRU, LFU and TTL policies do not search the keyspace: each cycle
 * samples `maxmemory-samples` keys of every database into a pool of
 * EVPOOL_SIZE candidates kept sorted by how evictable they are
 * (evictionPoolPopulate), and evicts the best candidate still present. The
 * random policies pick a key at random, database after database.
 *
 * Invariants:
 *  - Keys are evicted only between commands: from processCommand before a
 *    command runs, and from the time event; never while a command, EXEC,
 *    a script or the serving of blocked clients is running. A key a blocked
 *    client is served from is there for the whole serving.
 *  - An evicted key is deleted as a DEL would (the "evicted" keyspace event,
 *    WATCH invalidation, a DEL in the AOF) and counted in INFO evicted_keys.
 */
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "config.h"

/* What performEvictions achieved. */
constexpr int EVICT_OK = 0;      /* under maxmemory (or nothing to do) */
constexpr int EVICT_RUNNING = 1; /* still over, the time event keeps evicting */
constexpr int EVICT_FAIL = 2;    /* still over, and nothing (more) may be evicted */

/* The reply to a command refused for memory (Redis's shared.oomerr). */
inline constexpr std::string_view kOomError = "-OOM command not allowed when used memory > 'maxmemory'.";

/* maxmemory-policy's names and values, for the config table and INFO. */
std::span<const configEnum> maxmemoryPolicyEnum();
const char *evictPolicyToString();

/* Memory used but not counted against maxmemory: the AOF's buffers, which
 * would otherwise make eviction feed on itself (each DEL grows them). */
size_t freeMemoryGetNotCountedMemory();
/* C_OK when under maxmemory (or none is set). Otherwise C_ERR, with the
 * counted memory in *logical and what is over the limit in *tofree. *total
 * (always set) is zmalloc_used_memory(). Any pointer may be null. */
int getMaxmemoryState(size_t *total, size_t *logical, size_t *tofree);

/* Evicts keys until under maxmemory, within the tenacity's time limit. */
int performEvictions();
/* Keeps evicting from a time event until under maxmemory (CONFIG SET
 * maxmemory, a cycle out of time). */
void startEvictionTimeProc();

/* The candidates pool (exposed for its unit test). Sorted by idle,
 * ascending: the best candidate is the last filled entry. Keys are copied
 * into buffers reserved once, so filling the pool allocates nothing for
 * keys up to EVPOOL_CACHED_SDS_SIZE bytes. */
constexpr int EVPOOL_SIZE = 16;
constexpr size_t EVPOOL_CACHED_SDS_SIZE = 255;
struct evictionPoolEntry {
    unsigned long long idle = 0; /* the rank: LRU idle ms, 255 - LFU counter, or the inverted TTL */
    bool filled = false;
    std::string key;
    int dbid = 0;
};
/* The pool performEvictions uses, created (reserved) on first use. */
std::span<evictionPoolEntry> evictionPool();
/* Samples maxmemory-samples keys of database dbid (of its keyspace or of its
 * expires, as the policy says) into pool. */
void evictionPoolPopulate(int dbid, std::span<evictionPoolEntry> pool);
