/* zmalloc.cpp — allocator statistics: jemalloc's "stats.allocated" when the
 * server is linked with it, the sanitizer's count under ASan, glibc's
 * mallinfo2 otherwise. */
#include "zmalloc.h"

#include <cstdio>
#include <cstring>
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
