/* crash_writers.h — the writers of the crash tests (aof_test.cpp's AofCrash
 * loops, aof_crash_test.cpp's kills at each step of a rewrite), and what a
 * server restarted after the crash must hold for them.
 *
 * A writer has its own connection and sends, per round, three writes
 * pipelined: RPUSH list:<id> <seq>, INCR counter:<id>, SET last:<id> <seq>.
 * It records what it sent and what was acknowledged (all three replies
 * read, with when) until the connection dies. After a restart each list
 * must be 1..n in order with nothing missing, the counter and the last
 * value n too (or one behind: a round torn by the kill), n no more than was
 * sent; what was acknowledged and is not there was lost.
 */
#pragma once

#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "integration/harness.h"

namespace itest {

using CrashClock = std::chrono::steady_clock;

struct CrashWriter {
    int id = 0;
    long long base = 0;  /* the list's length (= the counter, = last) when the cycle began */
    long long sent = 0;  /* rounds sent */
    long long acked = 0; /* rounds whose three replies arrived */
    std::vector<CrashClock::time_point> ack_times; /* of each round acknowledged this cycle */
};

inline void runCrashWriter(int port, CrashWriter &w, std::atomic<long long> &total_acked) {
    try {
        RespConn c(port, Ms{2000});
        std::string id = std::to_string(w.id);
        for (;;) {
            std::string seq = std::to_string(w.base + w.sent + 1);
            c.send(encodeCommand({"RPUSH", "list:" + id, seq}) + encodeCommand({"INCR", "counter:" + id}) +
                   encodeCommand({"SET", "last:" + id, seq}));
            w.sent++;
            for (int i = 0; i < 3; i++) c.readReply();
            w.acked++;
            w.ack_times.push_back(CrashClock::now());
            total_acked++;
        }
    } catch (const HarnessError &) {
        /* the server died under us: what was acknowledged is recorded */
    }
}

/* What a server holds of one writer's keys. */
struct WriterHeld {
    long long n = 0;             /* the list's length */
    long long counter = 0, last = 0;
    bool whole = true;           /* counter and last say n */
    long long lost = 0;          /* acknowledged rounds missing */
};

/* Reads and checks the writer's keys on `c`, changing nothing: the list in
 * order, the other two keys at most one round behind it, nothing beyond
 * what was sent. */
inline WriterHeld checkCrashWriter(RespConn &c, const CrashWriter &w) {
    WriterHeld h;
    std::string id = std::to_string(w.id);
    Reply list = c.call({"LRANGE", "list:" + id, "0", "-1"});
    h.n = static_cast<long long>(list.elements.size());
    for (long long i = 0; i < h.n; i++)
        if (list.elements[static_cast<size_t>(i)].str != std::to_string(i + 1)) {
            ADD_FAILURE() << "list:" << id << " holds " << list.elements[static_cast<size_t>(i)].str << " at " << i;
            break;
        }
    auto number = [&](const std::string &key) {
        std::string v = c.call({"GET", key}).str;
        return v.empty() ? 0LL : std::stoll(v);
    };
    h.counter = number("counter:" + id), h.last = number("last:" + id);
    /* The kill may fall inside a round that was never acknowledged: its
     * RPUSH (and INCR) in the file without the rest, never out of order. */
    h.whole = h.counter == h.n && h.last == h.n;
    bool torn = (h.counter == h.n && h.last == h.n - 1) || (h.counter == h.n - 1 && h.last == h.n - 1);
    EXPECT_TRUE(h.whole || torn) << "list:" << id << " has " << h.n << " elements, counter " << h.counter
                                 << ", last " << h.last;
    EXPECT_LE(h.n, w.base + w.sent) << "list:" << id << " holds more than was ever sent";
    h.lost = std::max(0LL, w.base + w.acked - h.last);
    return h;
}

/* A few writers, each on its own thread and connection. */
class CrashWriters {
public:
    explicit CrashWriters(int count) : writers_(static_cast<size_t>(count)) {
        for (size_t i = 0; i < writers_.size(); i++) writers_[i].id = static_cast<int>(i);
    }
    ~CrashWriters() { join(); }

    /* Starts every writer on `port`, from its base, with nothing sent. */
    void start(int port) {
        total_ = 0;
        for (CrashWriter &w : writers_) {
            w.sent = w.acked = 0;
            w.ack_times.clear();
            threads_.emplace_back(runCrashWriter, port, std::ref(w), std::ref(total_));
        }
    }
    /* Once the server is gone: every writer has recorded its last reply. */
    void join() {
        for (std::thread &t : threads_) t.join();
        threads_.clear();
    }
    /* Rounds acknowledged since start(). */
    long long acked() const { return total_; }
    /* Waits until `rounds` more than now are acknowledged. */
    bool awaitMoreAcked(long long rounds, Ms wait = kDefaultTimeout) const {
        long long target = total_ + rounds;
        return pollUntil([&] { return total_ >= target; }, wait);
    }
    std::vector<CrashWriter> &all() { return writers_; }

    /* EXPECTs `c` to hold every acknowledged round of every writer; the
     * rounds lost. */
    long long expectAllHeld(RespConn &c, const std::string &who) const {
        long long lost = 0;
        for (const CrashWriter &w : writers_) {
            WriterHeld h = checkCrashWriter(c, w);
            EXPECT_EQ(h.lost, 0) << who << ": list:" << w.id << " lost " << h.lost << " of " << w.acked
                                 << " acknowledged rounds";
            lost += h.lost;
        }
        return lost;
    }

private:
    std::vector<CrashWriter> writers_;
    std::vector<std::thread> threads_;
    std::atomic<long long> total_ = 0;
};

/* The AOF rewrite children a server logged it started ("Background append
 * only file rewriting started by pid N"), SIGKILLed if they still run: a
 * kill -9 of the server leaves its child running on (Redis's child does
 * not watch its parent), writing into a directory the test is about to
 * reuse or remove. Only the children of a server the test started and has
 * just killed, right after it died. */
inline void killRewriteChildren(const TestServer &srv) {
    const std::string marker = "Background append only file rewriting started by pid ";
    std::istringstream in(srv.log());
    for (std::string line; std::getline(in, line);) {
        size_t at = line.find(marker);
        if (at == std::string::npos) continue;
        pid_t child = static_cast<pid_t>(std::atoll(line.c_str() + at + marker.size()));
        if (child > 0 && ::kill(child, 0) == 0) ::kill(child, SIGKILL);
    }
}

}  // namespace itest
