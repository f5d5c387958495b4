/* waiters_bench.cpp — many clients blocked at once: how late are their
 * timeouts, and what does waiting cost the server?
 *
 *   build/bench/waiters_bench -p PORT [-h 127.0.0.1] [-n 1000] [--tmin 1] [--tmax 3]
 *                             [--idle-timeout 30] [--idle-window 2] [--server-pid PID] [--seed S]
 *                             [--probe-cpus CPU,...] [--send-rate PER_SECOND]
 *
 * Opens N connections (raising RLIMIT_NOFILE to fit) and checks each with a
 * PING. Then two phases on the same connections:
 *
 *  1. lateness: each connection sends `BLPOP <a key of its own that does not
 *     exist> t`, t drawn uniformly from [tmin, tmax] s in whole milliseconds
 *     and sent with a fraction ("1.537"); the tool notes the time right before
 *     each write. Every reply must be the null array; its lateness is the time
 *     it was read minus (send time + t). A server that checks timeouts on a
 *     periodic tick is late by up to one tick; one that sleeps until the
 *     nearest deadline is late by its wake-up and reply cost.
 *  2. idle cost: each connection sends `BLPOP <its key> idle-timeout` (far
 *     away). Once INFO reports them all blocked, the tool reads the server's
 *     CPU time, sleeps idle-window seconds, and reads it again: what the
 *     server spends on N waiters none of which is near its deadline. No
 *     reply may arrive meanwhile. Then it closes every connection (with a
 *     reset, so no TIME_WAIT is left for the next run to trip over).
 *
 * With --probe-cpus (the server's CPU and the tool's), a thread of the tool
 * pinned to each sleeps 1 ms at a time during phase 1 and reports how late
 * its own wake-ups were (floor_cpuN_p99_ms, _max_ms, and _over2ms, the count
 * of wake-ups more than 2 ms late): the machine's noise floor for a timer
 * wake-up there, which no server can beat. load1 is the 1-minute load
 * average at the end. --send-rate paces the phase-1 BLPOPs (the i-th at
 * i / rate s) instead of writing them all at once: a server still reading
 * the burst when a BLPOP was sent starts its clock later than the tool does,
 * which shows as lateness.
 *
 * Output: one line of key=value figures, times in ms. CPU time is the sum of
 * the first field of /proc/PID/task/ * /schedstat (exact on-CPU ns, user and
 * kernel). Exits 1 on any unexpected reply, a missing reply, or an error.
 * With WAITERS_DUMP=FILE in the environment it also writes one line per
 * waiter to FILE: index, send time (ms after the first), t (ms), lateness (ms).
 * Plain sockets and the C++ library only.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <sched.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"

namespace {

using bench::die, bench::nowNs, bench::cpuNs, bench::loadAverage, bench::command;

struct Options : bench::ServerAddress {
    int n = 1000;
    double tmin = 1, tmax = 3;
    int idle_timeout = 30;
    double idle_window = 2;
    long server_pid = 0;
    unsigned seed = 1;
    std::vector<int> probe_cpus;
    double send_rate = 0;  // BLPOPs per second in phase 1; 0 = all at once
};

void usage() {
    fprintf(stderr,
            "usage: waiters_bench -p PORT [-h HOST] [-n connections] [--tmin S] [--tmax S] [--idle-timeout S]\n"
            "                     [--idle-window S] [--server-pid PID] [--seed N] [--probe-cpus CPU,...]\n"
            "                     [--send-rate PER_SECOND]\n");
    exit(2);
}

Options parseOptions(int argc, char **argv) {
    Options o;
    bench::parseCommandLine(argc, argv, usage, o, [&](std::string_view a, const char *v) {
        if (a == "-n") o.n = atoi(v);
        else if (a == "--tmin") o.tmin = atof(v);
        else if (a == "--tmax") o.tmax = atof(v);
        else if (a == "--idle-timeout") o.idle_timeout = atoi(v);
        else if (a == "--idle-window") o.idle_window = atof(v);
        else if (a == "--server-pid") o.server_pid = atol(v);
        else if (a == "--seed") o.seed = static_cast<unsigned>(atol(v));
        else if (a == "--probe-cpus") {
            for (const char *p = v; *p;) {
                o.probe_cpus.push_back(atoi(p));
                p = strchr(p, ',');
                if (!p) break;
                p++;
            }
        }
        else if (a == "--send-rate") o.send_rate = atof(v);
        else return false;
        return true;
    });
    if (o.port <= 0 || o.n <= 0 || o.tmin <= 0 || o.tmax < o.tmin || o.idle_timeout <= 0 || o.idle_window <= 0)
        die("bad option value");
    if (o.idle_timeout < o.tmax + o.idle_window + 5) die("--idle-timeout must be well past --tmax + --idle-window");
    return o;
}

void writeAll(int fd, std::string_view data) {
    while (!data.empty()) {
        ssize_t n = write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) die("socket buffer full on a tiny command");
        if (n <= 0) die(std::string("write: ") + strerror(errno));
        data.remove_prefix(static_cast<size_t>(n));
    }
}

/* The control connection: blocking; sends INFO clients and returns the bulk. */
class ControlConn {
public:
    ControlConn(const std::string &host, int port) : fd_(bench::connectTo(host, port)) {}
    ~ControlConn() { close(fd_); }

    /* blocked_clients from INFO clients, or -1 if the server does not say. */
    long blockedClients() {
        writeAll(fd_, command({"INFO", "clients"}));
        std::string in;
        char buf[16384];
        for (;;) {
            size_t eol = in.find("\r\n");
            if (eol != std::string::npos) {
                if (in[0] != '$') die("INFO answered: " + in.substr(0, eol));
                size_t len = std::stoul(in.substr(1, eol - 1));
                if (in.size() >= eol + 2 + len + 2) {
                    std::string body = in.substr(eol + 2, len);
                    size_t at = body.find("blocked_clients:");
                    if (at == std::string::npos) return -1;
                    return atol(body.c_str() + at + strlen("blocked_clients:"));
                }
            }
            ssize_t n = read(fd_, buf, sizeof(buf));
            if (n <= 0) die("control connection closed");
            in.append(buf, static_cast<size_t>(n));
        }
    }

private:
    int fd_ = -1;
};

/* The machine's noise floor: a thread pinned to a CPU (the server's, the
 * tool's) sleeps 1 ms at a time and records how late each wake-up is. A
 * server woken by its own timer can be no more punctual than this; on a busy
 * shared machine the floor, not the server, may be what a lateness figure
 * shows. */
class Probe {
public:
    explicit Probe(int cpu) : cpu_(cpu) {
        thread_ = std::thread([this] {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu_, &set);
            sched_setaffinity(0, sizeof(set), &set);
            while (!stop_.load(std::memory_order_relaxed)) {
                int64_t t = nowNs();
                timespec d{0, 1'000'000};
                nanosleep(&d, nullptr);
                late_.push_back(static_cast<double>(nowNs() - t - 1'000'000) / 1e6);
            }
        });
    }
    /* Stops it; returns " floor_cpuN_p99_ms=.. floor_cpuN_max_ms=.. floor_cpuN_over2ms=..". */
    std::string finish() {
        stop_ = true;
        thread_.join();
        if (late_.empty()) return "";
        std::sort(late_.begin(), late_.end());
        size_t over = static_cast<size_t>(late_.end() - std::upper_bound(late_.begin(), late_.end(), 2.0));
        char buf[160];
        snprintf(buf, sizeof(buf), " floor_cpu%d_p99_ms=%.3f floor_cpu%d_max_ms=%.3f floor_cpu%d_over2ms=%zu", cpu_,
                 late_[std::min(late_.size() - 1, late_.size() * 99 / 100)], cpu_, late_.back(), cpu_, over);
        return buf;
    }

private:
    int cpu_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::vector<double> late_;
};

struct Waiter {
    int fd = -1;
    std::string in;
    int64_t sent_ns = 0;
    int timeout_ms = 0;
    bool done = false;
};

class Bench {
public:
    explicit Bench(const Options &o) : o_(o), w_(static_cast<size_t>(o.n)) {}
    int run();

private:
    void raiseFileLimit();
    void connectAll();
    /* Waits until every waiter has its `expected` reply; on_reply(i, now) is
     * called for each. Dies after `limit_ns` or on anything else. */
    template <class F>
    void awaitReplies(std::string_view expected, int64_t limit_ns, F on_reply);

    const Options &o_;
    std::vector<Waiter> w_;
    int ep_ = -1;
    std::string prefix_;
};

void Bench::raiseFileLimit() {
    rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rlim_t want = static_cast<rlim_t>(o_.n) + 64;
    if (rl.rlim_cur >= want) return;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
        die("RLIMIT_NOFILE hard limit " + std::to_string(rl.rlim_max) + " is below the " + std::to_string(want) +
            " descriptors needed");
    rl.rlim_cur = want;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) die(std::string("setrlimit: ") + strerror(errno));
}

template <class F>
void Bench::awaitReplies(std::string_view expected, int64_t limit_ns, F on_reply) {
    size_t pending = 0;
    for (auto &w : w_) {
        w.done = false;
        w.in.clear();
        pending++;
    }
    std::vector<epoll_event> evs(4096);
    int64_t deadline = nowNs() + limit_ns;
    char buf[4096];
    while (pending > 0) {
        int64_t left = deadline - nowNs();
        if (left <= 0) die(std::to_string(pending) + " of " + std::to_string(o_.n) + " connections got no reply");
        int n = epoll_wait(ep_, evs.data(), static_cast<int>(evs.size()), static_cast<int>(left / 1'000'000) + 1);
        if (n < 0 && errno != EINTR) die(std::string("epoll_wait: ") + strerror(errno));
        int64_t now = nowNs();
        for (int e = 0; e < n; e++) {
            size_t i = evs[static_cast<size_t>(e)].data.u32;
            Waiter &w = w_[i];
            ssize_t r = read(w.fd, buf, sizeof(buf));
            if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (r <= 0) die(r == 0 ? "server closed a connection" : std::string("read: ") + strerror(errno));
            w.in.append(buf, static_cast<size_t>(r));
            if (w.done || w.in.size() > expected.size() || expected.substr(0, w.in.size()) != w.in)
                die("connection " + std::to_string(i) + " got an unexpected reply: " +
                    w.in.substr(0, w.in.find("\r\n")));
            if (w.in.size() == expected.size()) {
                w.done = true;
                pending--;
                on_reply(i, now);
            }
        }
    }
}

void Bench::connectAll() {
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<uint16_t>(o_.port));
    if (inet_pton(AF_INET, o_.host.c_str(), &sa.sin_addr) != 1) die("bad host " + o_.host);
    ep_ = epoll_create1(0);
    if (ep_ < 0) die(std::string("epoll_create1: ") + strerror(errno));

    /* At most `burst` connections in set-up at once, so that the server's
     * accept queue never overflows (a dropped SYN costs a 1 s retransmit). */
    const size_t burst = 256;
    const std::string ping = command({"PING"});
    size_t next = 0, ready = 0, busy = 0;
    std::vector<epoll_event> evs(1024);
    std::vector<uint8_t> state(w_.size(), 0);  // 0 new, 1 connecting, 2 awaiting PONG, 3 ready
    int64_t deadline = nowNs() + 60'000'000'000;
    char buf[256];
    while (ready < w_.size()) {
        while (busy < burst && next < w_.size()) {
            Waiter &w = w_[next];
            w.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            if (w.fd < 0) die(std::string("socket: ") + strerror(errno));
            int one = 1;
            setsockopt(w.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
            linger lg{1, 0};  // close with a reset: no TIME_WAIT left behind
            setsockopt(w.fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
            if (connect(w.fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) != 0 && errno != EINPROGRESS)
                die("connect: " + std::string(strerror(errno)));
            epoll_event ev{};
            ev.events = EPOLLOUT;
            ev.data.u32 = static_cast<uint32_t>(next);
            if (epoll_ctl(ep_, EPOLL_CTL_ADD, w.fd, &ev) != 0) die(std::string("epoll_ctl: ") + strerror(errno));
            state[next] = 1;
            next++;
            busy++;
        }
        if (nowNs() > deadline) die("could not set up the connections within 60 s");
        int n = epoll_wait(ep_, evs.data(), static_cast<int>(evs.size()), 1000);
        for (int e = 0; e < n; e++) {
            size_t i = evs[static_cast<size_t>(e)].data.u32;
            Waiter &w = w_[i];
            if (state[i] == 1) {
                int err = 0;
                socklen_t len = sizeof(err);
                getsockopt(w.fd, SOL_SOCKET, SO_ERROR, &err, &len);
                if (err) die("connect: " + std::string(strerror(err)));
                writeAll(w.fd, ping);
                epoll_event ev{};
                ev.events = EPOLLIN;
                ev.data.u32 = static_cast<uint32_t>(i);
                epoll_ctl(ep_, EPOLL_CTL_MOD, w.fd, &ev);
                state[i] = 2;
            } else if (state[i] == 2) {
                ssize_t r = read(w.fd, buf, sizeof(buf));
                if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                if (r <= 0) die("connection " + std::to_string(i) + " closed during set-up (maxclients?)");
                w.in.append(buf, static_cast<size_t>(r));
                if (w.in.size() < 7) continue;
                if (w.in != "+PONG\r\n") die("PING answered: " + w.in.substr(0, w.in.find("\r\n")));
                w.in.clear();
                state[i] = 3;
                ready++;
                busy--;
            }
        }
    }
}

int Bench::run() {
    raiseFileLimit();
    prefix_ = "wb:" + std::to_string(getpid()) + ":" + std::to_string(nowNs() % 1000000) + ":";
    ControlConn ctl(o_.host, o_.port);
    int64_t c0 = nowNs();
    connectAll();
    double connect_s = static_cast<double>(nowNs() - c0) / 1e9;

    /* Phase 1: timeouts spread over [tmin, tmax]. */
    std::mt19937_64 rng(o_.seed);
    int lo = static_cast<int>(o_.tmin * 1000 + 0.5), hi = static_cast<int>(o_.tmax * 1000 + 0.5);
    std::uniform_int_distribution<int> dist(lo, hi);
    std::vector<std::string> cmds(w_.size());
    for (size_t i = 0; i < w_.size(); i++) {
        w_[i].timeout_ms = dist(rng);
        char t[32];
        snprintf(t, sizeof(t), "%d.%03d", w_[i].timeout_ms / 1000, w_[i].timeout_ms % 1000);
        cmds[i] = command({"BLPOP", prefix_ + std::to_string(i), t});
    }
    std::vector<std::unique_ptr<Probe>> probes;
    for (int cpu : o_.probe_cpus) probes.push_back(std::make_unique<Probe>(cpu));
    int64_t cpu0 = cpuNs(o_.server_pid);
    int64_t s0 = nowNs();
    for (size_t i = 0; i < w_.size(); i++) {
        if (o_.send_rate > 0) {  // paced: the i-th at s0 + i / rate
            int64_t due = s0 + static_cast<int64_t>(static_cast<double>(i) * 1e9 / o_.send_rate);
            for (int64_t now = nowNs(); now < due; now = nowNs()) {
                timespec d{0, static_cast<long>(due - now)};
                nanosleep(&d, nullptr);
            }
        }
        w_[i].sent_ns = nowNs();
        writeAll(w_[i].fd, cmds[i]);
    }
    double send_s = static_cast<double>(nowNs() - s0) / 1e9;
    std::vector<double> late(w_.size());
    awaitReplies("*-1\r\n", static_cast<int64_t>((o_.tmax + 10) * 1e9), [&](size_t i, int64_t now) {
        late[i] = static_cast<double>(now - w_[i].sent_ns - static_cast<int64_t>(w_[i].timeout_ms) * 1'000'000) / 1e6;
    });
    int64_t cpu1 = cpuNs(o_.server_pid);
    std::string floors;
    for (auto &p : probes) floors += p->finish();

    /* Phase 2: all wait, no deadline near. */
    for (size_t i = 0; i < w_.size(); i++)
        writeAll(w_[i].fd, command({"BLPOP", prefix_ + std::to_string(i), std::to_string(o_.idle_timeout)}));
    long blocked = -1;
    int64_t until = nowNs() + 10'000'000'000;
    while (nowNs() < until) {
        blocked = ctl.blockedClients();
        if (blocked >= o_.n) break;
        usleep(10000);
    }
    if (blocked < o_.n)
        fprintf(stderr, "waiters_bench: warning: INFO reports %ld blocked clients, not %d; measuring anyway\n", blocked,
                o_.n);
    usleep(100000);  // let the INFO polling and the last blocks settle
    int64_t idle0 = cpuNs(o_.server_pid), w0 = nowNs();
    {
        std::vector<epoll_event> evs(16);
        int64_t end = w0 + static_cast<int64_t>(o_.idle_window * 1e9);
        for (int64_t now = nowNs(); now < end; now = nowNs()) {
            int n = epoll_wait(ep_, evs.data(), static_cast<int>(evs.size()),
                               static_cast<int>((end - now) / 1'000'000) + 1);
            if (n > 0) die("a waiter was answered during the idle window");
        }
    }
    int64_t idle1 = cpuNs(o_.server_pid), w1 = nowNs();
    for (auto &w : w_) close(w.fd);

    if (const char *dump = getenv("WAITERS_DUMP")) {  // debugging: one line per waiter
        if (FILE *f = fopen(dump, "w")) {
            for (size_t i = 0; i < w_.size(); i++)
                fprintf(f, "%zu %.6f %d %.3f\n", i, static_cast<double>(w_[i].sent_ns - w_[0].sent_ns) / 1e6,
                        w_[i].timeout_ms, late[i]);
            fclose(f);
        }
    }
    std::vector<double> sorted = late;
    std::sort(sorted.begin(), sorted.end());
    auto pct = [&](double q) {
        return sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * static_cast<double>(sorted.size())))];
    };
    double mean = 0;
    for (double x : sorted) mean += x / static_cast<double>(sorted.size());
    double idle_ms = idle0 >= 0 && idle1 >= 0 ? static_cast<double>(idle1 - idle0) / 1e6 : -1;
    double window_s = static_cast<double>(w1 - w0) / 1e9;
    printf("n=%d tmin=%.3f tmax=%.3f connect_s=%.2f send_s=%.3f late_p50_ms=%.3f late_p99_ms=%.3f late_max_ms=%.3f "
           "late_min_ms=%.3f late_mean_ms=%.3f timeout_phase_cpu_ms=%.1f idle_window_s=%.3f idle_cpu_ms=%.2f "
           "idle_cpu_pct=%.3f blocked_seen=%ld load1=%.2f%s\n",
           o_.n, o_.tmin, o_.tmax, connect_s, send_s, pct(0.5), pct(0.99), sorted.back(), sorted.front(), mean,
           cpu0 >= 0 && cpu1 >= 0 ? static_cast<double>(cpu1 - cpu0) / 1e6 : -1.0, window_s, idle_ms,
           idle_ms >= 0 ? idle_ms / 10 / window_s : -1.0, blocked, loadAverage(), floors.c_str());
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    Options o = parseOptions(argc, argv);
    Bench b(o);
    return b.run();
}
