/* bio.h — background I/O (Redis's bio.c): one thread that runs the system
 * calls that can stall the event loop for as long as the disk wants.
 *
 *   BIO_AOF_FSYNC    fsync() of the AOF under `appendfsync everysec`: the
 *                    main thread write()s before replying, the flush to the
 *                    platter happens here, at most once a second; the
 *                    outcome goes to server.aof_bio_fsync_status.
 *   BIO_CLOSE_FILE   close() of the AOF a rewrite replaced: it was the last
 *                    link to the old file, and freeing its blocks can take a
 *                    long time on some file systems.
 *
 * Invariants:
 *  - Jobs run one at a time, in the order they were created, so a close
 *    queued after an fsync of the same descriptor runs after it, and a
 *    descriptor number reused later is never fsynced by mistake.
 *  - The thread starts with the first job. It belongs to the process that
 *    started it: a forked child never touches the queue (its copy of the
 *    mutex may be locked), and exits without joining it.
 */
#pragma once

enum bioJobType { BIO_AOF_FSYNC, BIO_CLOSE_FILE, BIO_NUM_OPS };

void bioCreateJob(bioJobType type, int fd);
/* Jobs of that type queued or running: an everysec fsync still running
 * makes the next one wait (aof_delayed_fsync). */
unsigned long bioPendingJobsOfType(bioJobType type);
