/* lazyfree_stall — how long the event loop stalls while a huge set is
 * deleted: builds a set of -n members (pipelined SADDs of -b members each,
 * members that are no integers, so the set is a hash table), then times
 * one PING at a time on a second connection (bench_util.h's PingProber)
 * while -c COMMAND (UNLINK or DEL) deletes it, and until the server says
 * nothing is left to free (INFO lazyfree_pending_objects:0), plus a tail of
 * --tail-ms. Prints one line of key=value figures:
 *   command, members, load_s (building the set), cmd_ms (the command's own
 *   round trip), free_ms (until nothing was pending), probes, max_ms,
 *   p99_ms, p999_ms (from the command until --tail-ms after the free),
 *   idle_max_ms (the longest round trip in --idle-ms of probing before the
 *   command, the server idle: the machine's floor), prober (fifo or normal
 *   scheduling).
 *
 * Usage: lazyfree_stall [-h host] [-p port] [-n members] [-b batch]
 *                       [-c UNLINK|DEL] [--tail-ms ms] [--idle-ms ms]
 */
#include <string>

#include "bench_util.h"

using namespace bench;

namespace {

[[noreturn]] void usage() {
    fprintf(stderr, "usage: lazyfree_stall [-h host] [-p port] [-n members] [-b batch] [-c UNLINK|DEL] [--tail-ms ms] [--idle-ms ms]\n");
    exit(2);
}

struct Options : ServerAddress {
    long members = 10'000'000;
    long batch = 1000;
    std::string command = "UNLINK";
    long tail_ms = 100;
    long idle_ms = 2000; /* about as long as a 10 M-member free takes */
};

constexpr const char *kKey = "lazyfree:set";
constexpr long kCommandsInFlight = 64; /* SADDs sent at once */

/* One SADD of members [first, first + count). */
void appendSadd(std::string &out, long first, long count) {
    out += "*" + std::to_string(count + 2) + "\r\n";
    appendBulk(out, "SADD");
    appendBulk(out, kKey);
    char member[32];
    for (long i = first; i < first + count; i++) {
        int len = snprintf(member, sizeof(member), "m:%010ld", i);
        appendBulk(out, std::string_view(member, static_cast<size_t>(len)));
    }
}

/* Bursts of kCommandsInFlight SADDs, each burst's replies read before
 * the next is sent. */
void buildSet(Conn &c, const Options &o) {
    std::string out;
    for (long sent = 0; sent < o.members;) {
        out.clear();
        long commands = 0;
        for (; sent < o.members && commands < kCommandsInFlight; commands++) {
            long count = std::min(o.batch, o.members - sent);
            appendSadd(out, sent, count);
            sent += count;
        }
        c.sendAll(out);
        for (; commands > 0; commands--)
            if (std::string line = c.readLine(); line.empty() || line[0] != ':') die("SADD failed: " + line);
    }
}

/* INFO memory's lazyfree_pending_objects. */
long pendingObjects(Conn &c) {
    c.sendAll(command({"INFO", "memory"}));
    std::string info = c.readBulk();
    size_t at = info.find("lazyfree_pending_objects:");
    if (at == std::string::npos) die("INFO memory has no lazyfree_pending_objects");
    return atol(info.c_str() + at + strlen("lazyfree_pending_objects:"));
}

void sleepMs(long ms) {
    timespec ts{ms / 1000, (ms % 1000) * 1'000'000};
    nanosleep(&ts, nullptr);
}

}  // namespace

int main(int argc, char **argv) {
    Options o;
    parseCommandLine(argc, argv, usage, o, [&](std::string_view a, const char *v) {
        if (a == "-n") o.members = atol(v);
        else if (a == "-b") o.batch = atol(v);
        else if (a == "-c") o.command = v;
        else if (a == "--tail-ms") o.tail_ms = atol(v);
        else if (a == "--idle-ms") o.idle_ms = atol(v);
        else return false;
        return true;
    });
    if (o.members <= 0 || o.batch <= 0 || o.tail_ms < 0 || o.idle_ms <= 0 || (o.command != "UNLINK" && o.command != "DEL")) usage();

    Conn c(o.host, o.port), probe_conn(o.host, o.port);
    int64_t t0 = nowNs();
    buildSet(c, o);
    double load_s = static_cast<double>(nowNs() - t0) / 1e9;
    c.sendAll(command({"SCARD", kKey}));
    if (std::string n = c.readLine(); n != ":" + std::to_string(o.members)) die("SCARD says " + n);

    /* The same prober on the idle server first: the longest round trip
     * this machine gives when nothing is freed is the floor of max_ms. */
    double idle_max_ms;
    {
        PingProber idle(probe_conn);
        sleepMs(o.idle_ms);
        idle.stop();
        idle_max_ms = idle.max();
    }
    PingProber prober(probe_conn);
    int64_t t1 = nowNs();
    c.sendAll(command({o.command, kKey}));
    if (std::string r = c.readLine(); r != ":1") die(o.command + " replied " + r);
    double cmd_ms = static_cast<double>(nowNs() - t1) / 1e6;
    while (pendingObjects(c) != 0) sleepMs(1);
    double free_ms = static_cast<double>(nowNs() - t1) / 1e6;
    sleepMs(o.tail_ms);
    prober.stop();

    printf("command=%s members=%ld load_s=%.2f cmd_ms=%.3f free_ms=%.1f probes=%zu max_ms=%.3f p99_ms=%.3f "
           "p999_ms=%.3f idle_max_ms=%.3f prober=%s\n",
           o.command.c_str(), o.members, load_s, cmd_ms, free_ms, prober.count(), prober.max(), prober.pct(0.99),
           prober.pct(0.999), idle_max_ms, prober.scheduling());
    return 0;
}
