/* zmalloc.h — what the allocator can tell about memory (Redis's zmalloc.c).
 *
 * Release builds link jemalloc, as Redis does, so per-object costs compare
 * with Redis's; sanitizer builds keep the sanitizer's allocator. Either way
 * used memory is the allocator's own count of live bytes, never an estimate:
 * with jemalloc, the usable sizes allocated and not freed, as Redis counts.
 */
#pragma once

#include <cstddef>

size_t zmalloc_used_memory();  /* bytes allocated and not freed */
/* A thread that allocates registers itself once, for zmalloc_used_memory
 * to count what it allocates and frees: bio's at their start, the main
 * thread in installServerHooks (hooks.cpp). jemalloc's counts run from
 * the thread's start, so registering late misses nothing. */
void zmalloc_register_thread();
size_t zmalloc_get_rss();      /* resident set size of the process */
/* Bytes of this process's pages that are dirty and not shared: in a forked
 * child, the pages copy-on-write duplicated (INFO current_cow_size). 0 where
 * /proc/self/smaps_rollup cannot be read. */
size_t zmalloc_get_private_dirty();
const char *zmalloc_lib();     /* "jemalloc-5.3.0", "libc" ... for INFO */
/* jemalloc-bg-thread: jemalloc's background thread hands freed pages back to
 * the kernel as they age, so RSS follows used memory even when the server
 * is idle (without it, purging happens only on later allocations). A no-op
 * without jemalloc. */
void set_jemalloc_bg_thread(bool enable);
/* jemalloc's own view (stats.allocated, stats.active, stats.resident,
 * refreshed by an epoch bump): all 0 without jemalloc, as in Redis. */
void zmalloc_get_allocator_info(size_t *allocated, size_t *active, size_t *resident);
/* MEMORY PURGE: hands the dirty pages of every arena back to the kernel.
 * 0 on success (always without jemalloc, where there is nothing to do). */
int jemalloc_purge();
