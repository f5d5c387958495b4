/* repl_lag.cpp — how far behind its master is a replica under load?
 *
 * One sample at a time: SET a probe key to a fresh sequence number on the
 * master, and from the master's +OK, GET it on the replica again and again
 * until the replica has that number: the time from a write acknowledged by
 * the master to the same write visible on the replica. Run it while
 * something else (redis-benchmark) loads the master: the probe's write
 * queues behind that load in the replication stream, as any write would.
 * A pause between samples (-i) spreads them over the run.
 *
 *   build/bench/repl_lag -p MASTER_PORT -r REPLICA_PORT [-h 127.0.0.1] [-n 2000] [-i 1000]
 *
 * -n samples, -i µs between them. Prints one line of key=value figures:
 * samples, the lag's median, p99 and max in ms, the master's SET round trip
 * (median), and the master's commands per second meanwhile (its INFO
 * total_commands_processed, which counts the load too). The GETs read the
 * replica, not the master, so they do not add to the master's load.
 */
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"

namespace {

using bench::Conn, bench::die, bench::nowNs;

void usage() {
    fprintf(stderr, "usage: repl_lag -p MASTER_PORT -r REPLICA_PORT [-h HOST] [-n samples] [-i interval_us]\n");
    exit(2);
}

long long commandsProcessed(Conn &c) {
    c.sendAll(bench::command({"INFO", "stats"}));
    std::string text = c.readBulk();
    size_t at = text.find("total_commands_processed:");
    if (at == std::string::npos) die("no total_commands_processed in INFO stats");
    return atoll(text.c_str() + at + strlen("total_commands_processed:"));
}

/* GET's value, "" for a missing key. */
std::string get(Conn &c, const std::string &key) {
    c.sendAll(bench::command({"GET", key}));
    std::string header = c.readLine();
    if (header == "$-1") return "";
    if (header.empty() || header[0] != '$') die("GET: " + header);
    std::string value = c.readLine(); /* a number: no CRLF of its own */
    if (value.size() != strtoul(header.c_str() + 1, nullptr, 10)) die("GET: a value with a CRLF in it");
    return value;
}

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace

int main(int argc, char **argv) {
    bench::ServerAddress master;
    int replica_port = 0;
    long samples = 2000, interval_us = 1000;
    bench::parseCommandLine(argc, argv, usage, master, [&](std::string_view a, const char *v) {
        if (a == "-r") replica_port = atoi(v);
        else if (a == "-n") samples = atol(v);
        else if (a == "-i") interval_us = atol(v);
        else return false;
        return true;
    });
    if (master.port <= 0 || replica_port <= 0 || samples <= 0 || interval_us < 0) usage();
    Conn m(master.host, master.port), r(master.host, replica_port);
    const std::string key = "repl_lag:probe";

    std::vector<double> lag, rtt;
    long long commands_before = commandsProcessed(m);
    int64_t start = nowNs();
    for (long i = 1; i <= samples; i++) {
        const std::string seq = std::to_string(i);
        int64_t sent = nowNs();
        m.sendAll(bench::command({"SET", key, seq}));
        m.expectReplies(1, "+OK");
        int64_t acked = nowNs();
        while (get(r, key) != seq)
            if (nowNs() - acked > 10'000'000'000) die("the replica has not seen write " + seq + " after 10 s");
        lag.push_back(ms(nowNs() - acked));
        rtt.push_back(ms(acked - sent));
        if (interval_us) usleep(static_cast<useconds_t>(interval_us));
    }
    double seconds = static_cast<double>(nowNs() - start) / 1e9;
    long long commands = commandsProcessed(m) - commands_before;

    std::sort(lag.begin(), lag.end());
    std::sort(rtt.begin(), rtt.end());
    auto pct = [](const std::vector<double> &v, double p) {
        return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
    };
    printf("samples=%ld lag_p50_ms=%.3f lag_p99_ms=%.3f lag_max_ms=%.3f set_p50_ms=%.3f master_ops_per_s=%.0f\n",
           samples, pct(lag, 0.5), pct(lag, 0.99), lag.back(), pct(rtt, 0.5), static_cast<double>(commands) / seconds);
    return 0;
}
