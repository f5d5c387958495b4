/* aofrw_latency.cpp — what does a BGREWRITEAOF of a big, mixed dataset
 * cost the clients of a server with the AOF on?
 *
 * Loads N keys of a mixed dataset with pipelined commands, then a "prober"
 * connection sends one PING at a time and times each round trip while the
 * main thread sends BGREWRITEAOF and polls INFO persistence until
 * aof_rewrite_in_progress is 0. The parent forks (its stall: copying the
 * page tables), opens a new incr file and, once the child has written the
 * new base, installs it; the prober sees whatever of that blocks the
 * parent.
 *
 * The dataset is a function of the key's index alone (a fixed hash, no
 * random state), so two servers given the same N hold the same data and
 * their rewritten bases can be compared byte count for byte count. Key i:
 *   i % 20 in 0..13  (70 %)  s:<i>  a string of 16-100 bytes
 *          14, 15    (10 %)  l:<i>  a list of 10 elements (RPUSH)
 *          16, 17    (10 %)  h:<i>  a hash of 10 fields (HSET)
 *          18        (5 %)   t:<i>  a set of 10 members, integers (an intset)
 *                                   or strings, every other one
 *          19        (5 %)   z:<i>  a sorted set of 10 members (ZADD)
 * and one key in 10 a TTL of a day or more (SET ... EX, or EXPIRE after the
 * command), so nothing expires during a run. Names do not collide with
 * redis-benchmark's (key:..., mylist, myhash), which bench/aof_load.sh
 * writes on top.
 *
 *   build/bench/aofrw_latency -p 6379 [-h 127.0.0.1] [-n 1000000] [-b 1000]
 *
 * Prints one line of key=value figures (times in ms unless said): keys and
 * commands sent, load time, the server's latest_fork_usec (INFO stats), the
 * rewrite's duration (command to INFO showing it done), the server's
 * aof_last_rewrite_time_sec (whole seconds) and aof_last_bgrewrite_status,
 * and the probes during the rewrite: count, max, p99, median. Exits 1 if
 * the rewrite failed. The server must not rewrite on its own meanwhile
 * (auto-aof-rewrite-percentage 0), or BGREWRITEAOF is refused.
 */
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "bench_util.h"

namespace {

using bench::Conn, bench::die, bench::infoField, bench::msSince, bench::nowNs;

void usage() {
    fprintf(stderr, "usage: aofrw_latency -p PORT [-h HOST] [-n keys] [-b keys_per_pipeline]\n");
    exit(2);
}

/* splitmix64: the dataset's only source of variety, a pure function of
 * (key index, element index), so that every run sends the same bytes. */
uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* `len` letters and digits drawn from seed: text that neither reads as an
 * integer (it starts with a letter) nor compresses (LZF finds no repeats). */
std::string text(uint64_t seed, size_t len) {
    static constexpr std::string_view alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::string s(len, 'x');
    for (size_t j = 0; j < len; j++) {
        if (j % 8 == 0) seed = mix(seed);
        s[j] = alphabet[(seed >> (8 * (j % 8))) % (j ? alphabet.size() : 52)];
    }
    return s;
}

/* Appends key i's command(s) to `out`; returns how many. */
int appendKey(std::string &out, long i) {
    const uint64_t h = mix(static_cast<uint64_t>(i));
    const int kind = static_cast<int>(i % 20);
    const bool ttl = h % 10 == 0;
    const std::string ttl_s = std::to_string(86400 + h % 86400);
    const std::string index = std::to_string(i);
    if (kind < 14) {
        std::vector<std::string> set = {"SET", "s:" + index, text(h, 16 + h % 85)};
        if (ttl) set.insert(set.end(), {"EX", ttl_s});
        out += bench::command(set);
        return 1;
    }
    std::vector<std::string> cmd;
    std::string key;
    for (int e = 0; e < 10; e++) {
        uint64_t r = mix(h + static_cast<uint64_t>(e) + 1);
        std::string n = std::to_string(r % 1000000);
        if (kind < 16) {
            if (e == 0) cmd = {"RPUSH", key = "l:" + index};
            cmd.push_back(e % 3 ? "item:" + n : n);
        } else if (kind < 18) {
            if (e == 0) cmd = {"HSET", key = "h:" + index};
            cmd.insert(cmd.end(), {"field:" + std::to_string(e), text(r, 8 + r % 17)});
        } else if (kind == 18) {
            if (e == 0) cmd = {"SADD", key = "t:" + index};
            cmd.push_back((i / 20) % 2 ? n : "member:" + n);
        } else {
            if (e == 0) cmd = {"ZADD", key = "z:" + index};
            cmd.insert(cmd.end(), {std::to_string(r % 100000) + "." + std::to_string(r % 1000), "m:" + n});
        }
    }
    out += bench::command(cmd);
    if (!ttl) return 1;
    out += bench::command({"EXPIRE", key, ttl_s});
    return 2;
}

/* Sends the dataset in pipelines of `batch` keys; every reply must be a
 * status or an integer. Returns the number of commands. */
long load(Conn &c, long keys, long batch) {
    std::string out;
    long commands = 0;
    for (long first = 0; first < keys; first += batch) {
        out.clear();
        long n = 0;
        for (long i = first; i < std::min(keys, first + batch); i++) n += appendKey(out, i);
        c.sendAll(out);
        for (long k = 0; k < n; k++)
            if (std::string r = c.readLine(); r.empty() || (r[0] != '+' && r[0] != ':')) die("loading: " + r);
        commands += n;
    }
    return commands;
}

}  // namespace

int main(int argc, char **argv) {
    bench::ServerAddress server;
    long keys = 1'000'000, batch = 1000;
    bench::parseCommandLine(argc, argv, usage, server, [&](std::string_view a, const char *v) {
        if (a == "-n") keys = atol(v);
        else if (a == "-b") batch = atol(v);
        else return false;
        return true;
    });
    if (keys <= 0 || batch <= 0 || server.port <= 0) die("bad option value");
    Conn control(server.host, server.port), prober(server.host, server.port);

    int64_t start = nowNs();
    long commands = load(control, keys, batch);
    double load_ms = msSince(start);

    bench::PingProber probes(prober);
    int64_t rewrite_start = nowNs();
    control.sendAll(bench::command({"BGREWRITEAOF"}));
    if (std::string r = control.readLine(); r != "+Background append only file rewriting started")
        die("BGREWRITEAOF: " + r);
    while (infoField(control, "persistence", "aof_rewrite_in_progress") != "0") usleep(2000);
    double rewrite_ms = msSince(rewrite_start);
    probes.stop();

    std::string status = infoField(control, "persistence", "aof_last_bgrewrite_status");
    std::string time_sec = infoField(control, "persistence", "aof_last_rewrite_time_sec");
    std::string fork_usec = infoField(control, "stats", "latest_fork_usec");
    if (!probes.count()) die("no probe during the rewrite");
    printf("keys=%ld commands=%ld load_s=%.2f fork_ms=%.3f rewrite_s=%.3f rewrite_time_sec=%s status=%s probes=%zu "
           "max_ms=%.3f p99_ms=%.3f p50_ms=%.3f prober=%s\n",
           keys, commands, load_ms / 1000, atof(fork_usec.c_str()) / 1000, rewrite_ms / 1000, time_sec.c_str(),
           status.c_str(), probes.count(), probes.max(), probes.pct(0.99), probes.pct(0.5), probes.scheduling());
    return status == "ok" ? 0 : 1;
}
