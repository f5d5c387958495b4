/* bio.cpp — the background I/O thread (Redis's bio.c); bio.h describes the
 * jobs and the invariants. Redis 2.6 ran one thread per job type; one FIFO
 * thread is enough here and keeps a close behind the fsyncs before it.
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

#include "server.h"
#include "zmalloc.h"

namespace {

struct bioJob {
    bioJobType type;
    int fd;
};

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

    void create(bioJobType type, int fd) {
        {
            std::lock_guard lk(mu_);
            if (!thread_.joinable()) {
                owner_ = getpid();
                thread_ = std::thread([this] { run(); });
            }
            jobs_.push_back({type, fd});
            pending_[type]++;
        }
        cv_.notify_all();
    }

    unsigned long pending(bioJobType type) const { return pending_[type].load(); }

private:
    void run() {
        zmalloc_register_thread(); /* it frees the job queue's blocks the main thread allocated */
        std::unique_lock lk(mu_);
        for (;;) {
            cv_.wait(lk, [this] { return stop_ || !jobs_.empty(); });
            if (jobs_.empty()) return; /* stop, with nothing left to do */
            bioJob job = jobs_.front();
            jobs_.pop_front();
            lk.unlock();
            process(job);
            lk.lock();
            pending_[job.type]--;
        }
    }

    static void process(const bioJob &job) {
        if (job.type == BIO_CLOSE_FILE) {
            close(job.fd);
        } else {
            aofBackgroundFsync(job.fd);
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
    std::atomic<unsigned long> pending_[BIO_NUM_OPS] = {};
    bool stop_ = false;
    pid_t owner_ = 0;
    std::thread thread_;
};

BioWorker worker;

}  // namespace

void bioCreateJob(bioJobType type, int fd) { worker.create(type, fd); }
unsigned long bioPendingJobsOfType(bioJobType type) { return worker.pending(type); }
