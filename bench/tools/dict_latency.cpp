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

void usage() {
    fprintf(stderr, "usage: dict_latency -p PORT [-h HOST] [-n keys] [-b batch] [-d value_size]\n");
    exit(2);
}

double msSince(int64_t startNs) { return static_cast<double>(nowNs() - startNs) / 1e6; }

}  // namespace

int main(int argc, char **argv) {
    bench::LoadOptions opt = bench::parseLoadOptions(argc, argv, usage, 10'000'000);
    bench::Conn loader(opt.host, opt.port), prober(opt.host, opt.port);

    std::atomic<bool> done{false};
    std::atomic<long> loaded{0};
    struct Probe {
        double ms;
        long at; /* keys loaded when it was sent */
    };
    std::vector<Probe> probes;
    bool prober_fifo = false;
    std::thread probe([&] {
        prober_fifo = bench::trySchedFifo();
        probes.reserve(1 << 20);
        while (!done.load(std::memory_order_relaxed)) {
            long at = loaded.load(std::memory_order_relaxed);
            probes.push_back({bench::pingMs(prober), at});
        }
    });

    std::string batch;
    int64_t start = nowNs();
    for (long first = 0; first < opt.keys; first += opt.batch) {
        long count = std::min(opt.batch, opt.keys - first);
        batch.clear();
        bench::appendSets(batch, first, count, opt.valsize);
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
