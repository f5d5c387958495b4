/* dict_latency.cpp — does the keyspace ever stall the event loop as it grows?
 *
 * One "loader" connection inserts N keys with pipelined SETs while a
 * "prober" connection sends one PING at a time and times each round trip.
 * A hash table that rehashed all at once would freeze the server for as long
 * as moving every entry takes (hundreds of ms at millions of keys), and the
 * prober would see it as one huge round trip; incremental rehashing keeps the
 * worst round trip near the cost of one pipelined batch.
 *
 *   build/bench/dict_latency -p 6379 [-h 127.0.0.1] [-n 10000000] [-b 1000] [-d 16]
 *
 * The prober runs under SCHED_FIFO when allowed (root or CAP_SYS_NICE): it
 * sleeps almost all the time, but without it the loader thread, busy
 * building the next batch on the same core, would delay the prober's wake-up
 * by a time slice and its own scheduling would pass for server latency.
 *
 * Prints one line of key=value figures (times in ms): load time, SETs per
 * second, the number of probes and their max / p99.9 / p99 / median, and the
 * five worst probes as ms@keys (how many keys were loaded when each began):
 * stalls that come from rehashing cluster at the table's resize points
 * (2^n keys), scheduling noise does not.
 * Plain sockets and the C++ library only, so it builds anywhere.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_util.h"

namespace {

using bench::die, bench::nowNs;

struct Options : bench::ServerAddress {
    long keys = 10'000'000;
    long batch = 1000;
    int valsize = 16;
};

void usage() {
    fprintf(stderr, "usage: dict_latency -p PORT [-h HOST] [-n keys] [-b batch] [-d value_size]\n");
    exit(2);
}

Options parseOptions(int argc, char **argv) {
    Options o;
    bench::parseCommandLine(argc, argv, usage, o, [&](std::string_view a, const char *v) {
        if (a == "-n") o.keys = atol(v);
        else if (a == "-b") o.batch = atol(v);
        else if (a == "-d") o.valsize = atoi(v);
        else return false;
        return true;
    });
    if (o.keys <= 0 || o.batch <= 0 || o.port <= 0) die("bad option value");
    /* "val:" + the largest index must fit the value size exactly. */
    if (o.valsize > 60 || o.valsize - 4 < static_cast<int>(std::to_string(o.keys - 1).size()))
        die("-d must leave room for \"val:\" and the key index, and be at most 60");
    return o;
}

/* A blocking connection that reads simple-string replies. */
class Conn {
public:
    Conn(const std::string &host, int port) : fd_(bench::connectTo(host, port)) {}
    ~Conn() { close(fd_); }
    Conn(const Conn &) = delete;
    Conn &operator=(const Conn &) = delete;

    void sendAll(std::string_view data) {
        while (!data.empty()) {
            ssize_t n = write(fd_, data.data(), data.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) die(std::string("write: ") + strerror(errno));
            data.remove_prefix(static_cast<size_t>(n));
        }
    }

    /* Reads n replies, each must be `expected` ("+OK", "+PONG"). */
    void expectReplies(long n, std::string_view expected) {
        while (n > 0) {
            size_t eol = in_.find("\r\n", pos_);
            if (eol == std::string::npos) {
                fill();
                continue;
            }
            std::string_view line(in_.data() + pos_, eol - pos_);
            if (line != expected) die("unexpected reply: " + std::string(line));
            pos_ = eol + 2;
            n--;
        }
        in_.erase(0, pos_);
        pos_ = 0;
    }

private:
    void fill() {
        char buf[64 * 1024];
        ssize_t n;
        do n = read(fd_, buf, sizeof(buf));
        while (n < 0 && errno == EINTR);
        if (n <= 0) die(n == 0 ? "server closed the connection" : std::string("read: ") + strerror(errno));
        in_.append(buf, static_cast<size_t>(n));
    }

    int fd_ = -1;
    std::string in_;
    size_t pos_ = 0;
};

/* One batch of SETs: "key:%010ld" -> "val:" and the index zero-padded to
 * valsize bytes, a value that does not read as an integer (so it stays a
 * string, as in bench/memory_per_key.sh). */
void appendSets(std::string &out, long first, long count, int valsize) {
    char key[32], val[64];
    for (long i = first; i < first + count; i++) {
        int klen = snprintf(key, sizeof(key), "key:%010ld", i);
        int vlen = snprintf(val, sizeof(val), "val:%0*ld", valsize - 4, i);
        out += "*3\r\n$3\r\nSET\r\n$" + std::to_string(klen) + "\r\n";
        out.append(key, klen);
        out += "\r\n$" + std::to_string(vlen) + "\r\n";
        out.append(val, vlen);
        out += "\r\n";
    }
}

double msSince(int64_t startNs) { return static_cast<double>(nowNs() - startNs) / 1e6; }

}  // namespace

int main(int argc, char **argv) {
    Options opt = parseOptions(argc, argv);
    Conn loader(opt.host, opt.port), prober(opt.host, opt.port);

    std::atomic<bool> done{false};
    std::atomic<long> loaded{0};
    struct Probe {
        double ms;
        long at; /* keys loaded when it was sent */
    };
    std::vector<Probe> probes;
    bool prober_fifo = false;
    std::thread probe([&] {
        sched_param sp{};
        sp.sched_priority = 1;
        prober_fifo = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
        probes.reserve(1 << 20);
        constexpr std::string_view ping = "*1\r\n$4\r\nPING\r\n";
        while (!done.load(std::memory_order_relaxed)) {
            long at = loaded.load(std::memory_order_relaxed);
            int64_t t0 = nowNs();
            prober.sendAll(ping);
            prober.expectReplies(1, "+PONG");
            probes.push_back({msSince(t0), at});
        }
    });

    std::string batch;
    int64_t start = nowNs();
    for (long first = 0; first < opt.keys; first += opt.batch) {
        long count = std::min(opt.batch, opt.keys - first);
        batch.clear();
        appendSets(batch, first, count, opt.valsize);
        loader.sendAll(batch);
        loader.expectReplies(count, "+OK");
        loaded.store(first + count, std::memory_order_relaxed);
    }
    double load_ms = msSince(start);
    done = true;
    probe.join();

    if (probes.empty()) die("the load ended before the first probe");
    std::sort(probes.begin(), probes.end(), [](const Probe &a, const Probe &b) { return a.ms > b.ms; });
    auto pct = [&](double p) { /* probes are sorted worst first */
        return probes[std::min(probes.size() - 1, static_cast<size_t>((1 - p) * probes.size()))].ms;
    };
    std::string worst;
    for (size_t i = 0; i < std::min<size_t>(5, probes.size()); i++) {
        char one[48];
        snprintf(one, sizeof(one), "%s%.3f@%ld", i ? "," : "", probes[i].ms, probes[i].at);
        worst += one;
    }
    printf("keys=%ld load_s=%.2f sets_per_s=%.0f probes=%zu max_ms=%.3f p999_ms=%.3f p99_ms=%.3f "
           "p50_ms=%.3f worst=%s prober=%s\n",
           opt.keys, load_ms / 1000, opt.keys / (load_ms / 1000), probes.size(), probes[0].ms, pct(0.999),
           pct(0.99), pct(0.5), worst.c_str(), prober_fifo ? "fifo" : "normal");
    return 0;
}
