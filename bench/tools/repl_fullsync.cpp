/* repl_fullsync.cpp — what does a replica's full sync cost its master?
 *
 * Loads N keys into the master with pipelined SETs (unless -n 0: the
 * master is filled already), then tells the replica REPLICAOF the master
 * and polls the replica's INFO replication until master_link_status:up,
 * while a "prober" connection times one PING at a time on the master. The
 * full sync is the fork of a BGSAVE (the master frozen while it copies its
 * page tables), the RDB's transfer and the replica's load of it; the
 * prober's longest round trip is the master's longest stall meanwhile.
 *
 *   build/bench/repl_fullsync -p MASTER_PORT -r REPLICA_PORT [-h 127.0.0.1] [-n 1000000] [-b 1000] [-d 16]
 *
 * Prints one line of key=value figures (times in ms unless said): keys,
 * load time, the sync's time (REPLICAOF to the link up), the master's own
 * latest_fork_usec as fork_ms, the replica's key count afterwards, and the
 * probes: count, max, p99, median. The prober runs under SCHED_FIFO when
 * allowed, as in dict_latency. Exits 1 if the replica has not all the keys.
 */
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_util.h"

namespace {

using bench::Conn, bench::die, bench::infoField, bench::msSince, bench::nowNs;

void usage() {
    fprintf(stderr,
            "usage: repl_fullsync -p MASTER_PORT -r REPLICA_PORT [-h HOST] [-n keys] [-b batch] [-d value_size]\n");
    exit(2);
}

}  // namespace

int main(int argc, char **argv) {
    bench::LoadOptions opt;
    opt.keys = 1'000'000;
    int replica_port = 0;
    bench::parseCommandLine(argc, argv, usage, opt, [&](std::string_view a, const char *v) {
        if (a == "-n") opt.keys = atol(v);
        else if (a == "-b") opt.batch = atol(v);
        else if (a == "-d") opt.valsize = atoi(v);
        else if (a == "-r") replica_port = atoi(v);
        else return false;
        return true;
    });
    if (opt.keys < 0 || opt.batch <= 0 || opt.port <= 0 || replica_port <= 0) usage();
    if (opt.valsize > 60 || opt.valsize - 4 < static_cast<int>(std::to_string(opt.keys).size()))
        die("-d must leave room for \"val:\" and the key index, and be at most 60");

    Conn control(opt.host, opt.port), prober(opt.host, opt.port), replica(opt.host, replica_port);

    int64_t start = nowNs();
    std::string batch;
    for (long first = 0; first < opt.keys; first += opt.batch) {
        long count = std::min(opt.batch, opt.keys - first);
        batch.clear();
        bench::appendSets(batch, first, count, opt.valsize);
        control.sendAll(batch);
        control.expectReplies(count, "+OK");
    }
    double load_ms = msSince(start);
    control.sendAll(bench::command({"DBSIZE"}));
    std::string master_keys = control.readLine();

    bench::PingProber probes(prober);

    int64_t sync_start = nowNs();
    replica.sendAll(bench::command({"REPLICAOF", opt.host, std::to_string(opt.port)}));
    if (std::string r = replica.readLine(); r.rfind("+OK", 0) != 0) die("REPLICAOF: " + r);
    while (infoField(replica, "replication", "master_link_status") != "up") usleep(1000);
    double sync_ms = msSince(sync_start);
    probes.stop();

    std::string fork_usec = infoField(control, "stats", "latest_fork_usec");
    replica.sendAll(bench::command({"DBSIZE"}));
    std::string replica_keys = replica.readLine();
    if (!probes.count()) die("no probe during the sync");
    printf("keys=%s load_s=%.2f sync_s=%.3f fork_ms=%.3f replica_keys=%s probes=%zu max_ms=%.3f p99_ms=%.3f "
           "p50_ms=%.3f prober=%s\n",
           master_keys.c_str() + 1, load_ms / 1000, sync_ms / 1000, atof(fork_usec.c_str()) / 1000,
           replica_keys.c_str() + 1, probes.count(), probes.max(), probes.pct(0.99), probes.pct(0.5), probes.scheduling());
    return replica_keys == master_keys ? 0 : 1;
}
