/* bio.cpp — the background I/O threads (Redis's bio.c); bio.h describes the
 * jobs and the invariants. Redis 7.0 runs one thread per job type; here the
 * two AOF types share one FIFO thread, which keeps a close behind the fsyncs
 * before it, and lazy freeing has the other.
 */
#include "bio.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "log.h"
#include "setcpuaffinity.h"
#include "util.h"
#include "zmalloc.h"

using bio::server;

namespace {

/* Move-only: a lazy-free job owns what it frees. */
struct bioJob {
    bioJobType type;
    int fd;
    std::unique_ptr<bioLazyFreeJob> free_job;
};

/* Jobs of each type queued or running, whatever thread runs them. */
std::atomic<unsigned long> pending[BIO_NUM_OPS] = {};

class BioWorker {
public:
    ~BioWorker() {
        if (!thread_.joinable()) return;
        /* A forked child has a copy of the handle but no such thread. */
        if (getpid() != owner_) {
            thread_.detach();
            return;
        }
        {
            std::lock_guard lk(mu_);
            stop_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }

    void create(bioJob job) {
        {
            std::lock_guard lk(mu_);
            if (!thread_.joinable()) {
                owner_ = getpid();
                thread_ = std::thread([this] { run(); });
            }
            pending[job.type]++;
            jobs_.push_back(std::move(job));
        }
        cv_.notify_all();
    }

private:
    void run() {
        /* It frees what the main thread allocated (the queue's blocks, lazily
         * freed values): used_memory must see it. */
        zmalloc_register_thread();
        redisSetCpuAffinity(server.bio_cpulist); /* immutable: set before any thread starts */
        std::unique_lock lk(mu_);
        for (;;) {
            cv_.wait(lk, [this] { return stop_ || !jobs_.empty(); });
            if (jobs_.empty()) return; /* stop, with nothing left to do */
            bioJob job = std::move(jobs_.front());
            jobs_.pop_front();
            lk.unlock();
            process(job);
            job.free_job.reset(); /* before pending drops: what it held is gone */
            lk.lock();
            pending[job.type]--;
        }
    }

    static void process(bioJob &job) {
        switch (job.type) {
        case BIO_CLOSE_FILE: close(job.fd); break;
        case BIO_AOF_FSYNC: aofBackgroundFsync(job.fd); break;
        case BIO_LAZY_FREE: job.free_job->free(); break;
        case BIO_NUM_OPS: break;
        }
    }

    /* The main thread reads the outcome (writeCommandsDeniedByDiskError):
     * writes stay refused from a failure until an fsync succeeds. EBADF and
     * EINVAL say the descriptor is no AOF any more (closed, reused for a
     * socket), not that the disk failed. One log line per failure streak. */
    static void aofBackgroundFsync(int fd) {
        if (fdatasync(fd) == -1 && errno != EBADF && errno != EINVAL) {
            int err = errno;
            server.aof_bio_fsync_errno = err; /* before the status, which the reader checks first */
            int last_status = server.aof_bio_fsync_status.exchange(C_ERR);
            if (last_status == C_OK) serverLog(LL_WARNING, "Fail to fsync the AOF file: %s", strerror(err));
        } else {
            server.aof_bio_fsync_status = C_OK;
        }
    }

    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<bioJob> jobs_;
    bool stop_ = false;
    pid_t owner_ = 0;
    std::thread thread_;
};

/* The AOF's thread and the lazy-free thread (bio.h). */
BioWorker aof_worker, lazyfree_worker;

}  // namespace

void bioCreateJob(bioJobType type, int fd) { aof_worker.create({type, fd, nullptr}); }
void bioCreateLazyFreeJob(std::unique_ptr<bioLazyFreeJob> job) {
    lazyfree_worker.create({BIO_LAZY_FREE, -1, std::move(job)});
}
unsigned long bioPendingJobsOfType(bioJobType type) { return pending[type].load(); }
