/* bio.h — background I/O (Redis's bio.c): threads that run the work that
 * can stall the event loop for as long as the disk or the allocator wants.
 *
 *   BIO_AOF_FSYNC    fsync() of the AOF under `appendfsync everysec`: the
 *                    main thread write()s before replying, the flush to the
 *                    platter happens here, at most once a second; the
 *                    outcome goes to server.aof_bio_fsync_status.
 *   BIO_CLOSE_FILE   close() of the AOF a rewrite replaced: it was the last
 *                    link to the old file, and freeing its blocks can take a
 *                    long time on some file systems.
 *   BIO_LAZY_FREE    the freeing of a value, a database or a script cache
 *                    the main thread let go of (lazyfree.h).
 *
 * Invariants:
 *  - Each job type belongs to one thread, which runs its jobs one at a time
 *    in the order they were created. The two AOF types share their thread,
 *    so a close queued after an fsync of the same descriptor runs after it,
 *    and a descriptor number reused later is never fsynced by mistake.
 *    Lazy freeing has a thread of its own (as Redis 7.0 has one per type):
 *    seconds spent freeing a huge set never delay an fsync.
 *  - A thread starts with its first job. It belongs to the process that
 *    started it: a forked child never touches the queues (its copy of a
 *    mutex may be locked), and exits without joining it.
 *  - A lazy-free job owns what it frees: once queued, nothing on the main
 *    thread points into it.
 */
#pragma once

#include <atomic>
#include <memory>
#include <string>

/* The bio threads' part of Redis's struct redisServer: what they read
 * (their CPU list) and what the AOF fsync job reports back. The global
 * `server` (server.h) derives from it; bio.cpp, which needs nothing else
 * of the server, reaches it as bio::server (bound in server.cpp). */
struct redisServerBio {
    std::string bio_cpulist; /* `bio-cpulist` (redisSetCpuAffinity): "" for none */
    /* The last background fsync (bio thread, everysec): C_ERR and its errno
     * refuse writes (MISCONF) until a later one succeeds. */
    std::atomic<int> aof_bio_fsync_status{0};
    std::atomic<int> aof_bio_fsync_errno{0};
};

namespace bio {
extern redisServerBio &server;
}

enum bioJobType { BIO_AOF_FSYNC, BIO_CLOSE_FILE, BIO_LAZY_FREE, BIO_NUM_OPS };

/* What a BIO_LAZY_FREE job holds: free() runs on the bio thread, releases
 * what the job owns, and accounts for it (lazyfree.cpp's counters). */
class bioLazyFreeJob {
public:
    virtual ~bioLazyFreeJob() = default;
    virtual void free() = 0;
};

/* BIO_AOF_FSYNC and BIO_CLOSE_FILE, on descriptor fd. */
void bioCreateJob(bioJobType type, int fd);
void bioCreateLazyFreeJob(std::unique_ptr<bioLazyFreeJob> job);
/* Jobs of that type queued or running: an everysec fsync still running
 * makes the next one wait (aof_delayed_fsync); eviction waits a little
 * for pending lazy frees. */
unsigned long bioPendingJobsOfType(bioJobType type);
