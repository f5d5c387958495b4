/* bgsave_latency.cpp — what does a BGSAVE cost the clients of a big server?
 *
 * Loads N keys with pipelined SETs, then a "prober" connection sends one
 * PING at a time and times each round trip while the main thread starts a
 * BGSAVE and polls INFO persistence until the child is done. fork() copies
 * the parent's page tables, and the parent is frozen while it does: the
 * prober sees that as its longest round trip. Afterwards, the parent's
 * writes would pay copy-on-write faults; here it only answers PINGs, so
 * the stall is the fork itself.
 *
 *   build/bench/bgsave_latency -p 6379 [-h 127.0.0.1] [-n 1000000] [-b 1000] [-d 16]
 *
 * Prints one line of key=value figures (times in ms unless said): load
 * time, the server's own latest_fork_usec (INFO stats), the BGSAVE's
 * duration (from the command to INFO showing it done), the file's status,
 * and the probes during the BGSAVE: count, max, p99, median.
 * The prober runs under SCHED_FIFO when allowed, as in dict_latency.
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

using bench::Conn, bench::die, bench::infoField, bench::msSince, bench::nowNs;

void usage() {
    fprintf(stderr, "usage: bgsave_latency -p PORT [-h HOST] [-n keys] [-b batch] [-d value_size]\n");
    exit(2);
}

void load(Conn &c, const bench::LoadOptions &opt) {
    std::string batch;
    for (long first = 0; first < opt.keys; first += opt.batch) {
        long count = std::min(opt.batch, opt.keys - first);
        batch.clear();
        bench::appendSets(batch, first, count, opt.valsize);
        c.sendAll(batch);
        c.expectReplies(count, "+OK");
    }
}

}  // namespace

int main(int argc, char **argv) {
    bench::LoadOptions opt = bench::parseLoadOptions(argc, argv, usage, 1'000'000);
    Conn control(opt.host, opt.port), prober(opt.host, opt.port);

    int64_t start = nowNs();
    load(control, opt);
    double load_ms = msSince(start);

    bench::PingProber probes(prober);

    int64_t bgsave_start = nowNs();
    control.sendAll(bench::command({"BGSAVE"}));
    if (std::string r = control.readLine(); r != "+Background saving started") die("BGSAVE: " + r);
    while (infoField(control, "persistence", "rdb_bgsave_in_progress") != "0") usleep(2000);
    double bgsave_ms = msSince(bgsave_start);
    probes.stop();

    std::string status = infoField(control, "persistence", "rdb_last_bgsave_status");
    std::string fork_usec = infoField(control, "stats", "latest_fork_usec");
    if (!probes.count()) die("no probe during the BGSAVE");
    printf("keys=%ld load_s=%.2f fork_ms=%.3f bgsave_s=%.3f status=%s probes=%zu max_ms=%.3f p99_ms=%.3f "
           "p50_ms=%.3f prober=%s\n",
           opt.keys, load_ms / 1000, atof(fork_usec.c_str()) / 1000, bgsave_ms / 1000, status.c_str(), probes.count(),
           probes.max(), probes.pct(0.99), probes.pct(0.5), probes.scheduling());
    return status == "ok" ? 0 : 1;
}
