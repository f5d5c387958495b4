/* zmalloc.cpp — allocator statistics: jemalloc's "stats.allocated" when the
 * server is linked with it, the sanitizer's count under ASan, glibc's
 * mallinfo2 otherwise. */
#include "zmalloc.h"

#include <cstdio>
#include <malloc.h>
#include <unistd.h>

#if defined(USE_JEMALLOC)
#include <jemalloc/jemalloc.h>

size_t zmalloc_used_memory() {
    /* jemalloc caches its statistics until the epoch is advanced. */
    uint64_t epoch = 1;
    size_t sz = sizeof(epoch);
    mallctl("epoch", &epoch, &sz, &epoch, sz);
    size_t allocated = 0;
    sz = sizeof(allocated);
    mallctl("stats.allocated", &allocated, &sz, nullptr, 0);
    return allocated;
}

void set_jemalloc_bg_thread(bool enable) {
    /* Redis ignores a failure too: the server works without the thread. */
    mallctl("background_thread", nullptr, nullptr, &enable, sizeof(enable));
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

size_t zmalloc_used_memory() { return __sanitizer_get_current_allocated_bytes(); }
const char *zmalloc_lib() { return "libc"; }
void set_jemalloc_bg_thread(bool) {}

#else

size_t zmalloc_used_memory() { return mallinfo2().uordblks; }
const char *zmalloc_lib() { return "libc"; }
void set_jemalloc_bg_thread(bool) {}

#endif

size_t zmalloc_get_rss() {
    FILE *fp = fopen("/proc/self/statm", "r");
    if (!fp) return 0;
    unsigned long pages = 0, rss = 0;
    if (fscanf(fp, "%lu %lu", &pages, &rss) != 2) rss = 0;
    fclose(fp);
    return rss * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}
