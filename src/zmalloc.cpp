/* zmalloc.cpp — allocator statistics (Redis's zmalloc.c): jemalloc's
 * "stats.allocated" when the server is linked with it, the sanitizer's count
 * under ASan, glibc's mallinfo2 otherwise. */
#include "zmalloc.h"

#include <cstdio>
#include <cstring>
#include <malloc.h>
#include <unistd.h>

#if defined(USE_JEMALLOC)
#include <jemalloc/jemalloc.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

/* Redis counts used memory itself, one atomic add per allocation. jemalloc
 * keeps that count per thread (thread.allocated, thread.deallocated: the
 * usable sizes a thread allocated and freed), so the sum over the threads
 * is the same number, read in nanoseconds: cheap enough for maxmemory's
 * check before every command. (stats.allocated costs an epoch refresh of
 * microseconds, and counts what sits in the threads' caches as used.) */
namespace {
struct threadCounters {
    const uint64_t *allocated;
    const uint64_t *deallocated;
};
constexpr int ZMALLOC_MAX_THREADS = 8;
threadCounters thread_counters[ZMALLOC_MAX_THREADS];
std::atomic<int> registered_threads{0};
std::mutex register_mutex;
}  // namespace

void zmalloc_register_thread() {
    threadCounters tc;
    size_t sz = sizeof(tc.allocated);
    if (mallctl("thread.allocatedp", &tc.allocated, &sz, nullptr, 0) != 0 ||
        mallctl("thread.deallocatedp", &tc.deallocated, &sz, nullptr, 0) != 0)
        return;
    std::lock_guard lk(register_mutex);
    int n = registered_threads.load(std::memory_order_relaxed);
    if (n == ZMALLOC_MAX_THREADS) abort(); /* a thread of ours the count would miss */
    thread_counters[n] = tc;
    registered_threads.store(n + 1, std::memory_order_release);
}

size_t zmalloc_used_memory() {
    /* A thread may free what another allocated: only the sum balances. */
    uint64_t allocated = 0, deallocated = 0;
    for (int j = 0, n = registered_threads.load(std::memory_order_acquire); j < n; j++) {
        allocated += __atomic_load_n(thread_counters[j].allocated, __ATOMIC_RELAXED);
        deallocated += __atomic_load_n(thread_counters[j].deallocated, __ATOMIC_RELAXED);
    }
    /* Below zero only if a thread that never registered allocated what a
     * registered one freed: say 0 rather than wrap to an absurd size. */
    return allocated > deallocated ? static_cast<size_t>(allocated - deallocated) : 0;
}

void set_jemalloc_bg_thread(bool enable) {
    /* Redis ignores a failure too: the server works without the thread. */
    mallctl("background_thread", nullptr, nullptr, &enable, sizeof(enable));
}

void zmalloc_get_allocator_info(size_t *allocated, size_t *active, size_t *resident) {
    *allocated = *active = *resident = 0;
    uint64_t epoch = 1;
    size_t sz = sizeof(epoch);
    mallctl("epoch", &epoch, &sz, &epoch, sz); /* the stats below are cached until the next epoch */
    sz = sizeof(size_t);
    mallctl("stats.resident", resident, &sz, nullptr, 0);
    mallctl("stats.active", active, &sz, nullptr, 0);
    mallctl("stats.allocated", allocated, &sz, nullptr, 0);
}

/* arena.<narenas>.purge is jemalloc's name for "every arena". */
int jemalloc_purge() {
    unsigned narenas = 0;
    size_t sz = sizeof(narenas);
    if (mallctl("arenas.narenas", &narenas, &sz, nullptr, 0) != 0) return -1;
    char name[32];
    snprintf(name, sizeof(name), "arena.%u.purge", narenas);
    return mallctl(name, nullptr, nullptr, nullptr, 0) == 0 ? 0 : -1;
}

const char *zmalloc_lib() {
    static char name[64];
    const char *version = nullptr;
    size_t sz = sizeof(version);
    mallctl("version", &version, &sz, nullptr, 0);
    snprintf(name, sizeof(name), "jemalloc-%.*s", 5, version ? version : "?");
    return name;
}

#elif defined(__SANITIZE_ADDRESS__)
/* Part of the sanitizer runtime; GCC ships no header for it. */
extern "C" size_t __sanitizer_get_current_allocated_bytes();

/* ASan merges its threads' counters without a lock, and when a read
 * finds more freed than allocated (bio freeing meanwhile) it answers 1, a
 * value no running server has: read again then, or maxmemory's check sees
 * a server under any limit. */
size_t zmalloc_used_memory() {
    size_t used = __sanitizer_get_current_allocated_bytes();
    for (int tries = 0; used == 1 && tries < 100; tries++) used = __sanitizer_get_current_allocated_bytes();
    return used;
}
void zmalloc_register_thread() {}
const char *zmalloc_lib() { return "libc"; }
void set_jemalloc_bg_thread(bool) {}

#else

size_t zmalloc_used_memory() { return mallinfo2().uordblks; }
void zmalloc_register_thread() {}
const char *zmalloc_lib() { return "libc"; }
void set_jemalloc_bg_thread(bool) {}

#endif

#if !defined(USE_JEMALLOC)
void zmalloc_get_allocator_info(size_t *allocated, size_t *active, size_t *resident) {
    *allocated = *active = *resident = 0;
}
int jemalloc_purge() { return 0; }
#endif

size_t zmalloc_get_rss() {
    FILE *fp = fopen("/proc/self/statm", "r");
    if (!fp) return 0;
    unsigned long pages = 0, rss = 0;
    if (fscanf(fp, "%lu %lu", &pages, &rss) != 2) rss = 0;
    fclose(fp);
    return rss * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

/* Redis sums the Private_Dirty lines of /proc/self/smaps; the kernel's
 * smaps_rollup holds the same sum in one line, without walking every
 * mapping's text, which matters in a child measuring itself each second. */
size_t zmalloc_get_private_dirty() {
    FILE *fp = fopen("/proc/self/smaps_rollup", "r");
    if (!fp) return 0;
    char line[256];
    size_t bytes = 0;
    while (fgets(line, sizeof(line), fp)) {
        unsigned long kb = 0;
        if (strncmp(line, "Private_Dirty:", 14) == 0 && sscanf(line + 14, "%lu", &kb) == 1) {
            bytes = static_cast<size_t>(kb) * 1024;
            break;
        }
    }
    fclose(fp);
    return bytes;
}
