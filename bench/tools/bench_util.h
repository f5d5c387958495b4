/* bench_util.h — small helpers shared by the bench tools: fatal errors,
 * the command line, the monotonic clock, a process's state, CPU time and
 * user/system split, the machine's load, connecting and encoding commands,
 * a blocking connection and INFO fields through it, loading keys (the
 * latency tools' options and SET batches) and probing (PING round trips
 * from a SCHED_FIFO thread).
 * Header-only: each tool is built from its one .cpp file. */
#pragma once

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace bench {

[[noreturn]] inline void die(const std::string &msg) {
    fprintf(stderr, "%s: %s\n", program_invocation_short_name, msg.c_str());
    exit(1);
}

/* The server a tool talks to: -h HOST and -p PORT. A tool's options
 * derive from it. */
struct ServerAddress {
    std::string host = "127.0.0.1";
    int port = 6379;
};

/* Walks the "NAME VALUE" pairs of the command line: -h and -p go to
 * `server`, the others to set(name, value), which returns false for a name
 * it does not know. --help or an unknown name calls usage(), which exits; a
 * name without a value is fatal. */
template <typename Set>
void parseCommandLine(int argc, char **argv, void (*usage)(), ServerAddress &server, Set set) {
    for (int i = 1; i < argc; i++) {
        std::string_view name = argv[i];
        if (name == "--help") usage();
        if (i + 1 == argc) die("missing value after " + std::string(name));
        const char *value = argv[++i];
        if (name == "-h") server.host = value;
        else if (name == "-p") server.port = atoi(value);
        else if (!set(name, value)) usage();
    }
}

inline int64_t nowNs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/* On-CPU nanoseconds of all the threads of `pid` so far, or -1. */
inline int64_t cpuNs(long pid) {
    if (pid <= 0) return -1;
    std::string dir = "/proc/" + std::to_string(pid) + "/task";
    DIR *d = opendir(dir.c_str());
    if (!d) return -1;
    int64_t sum = 0;
    while (dirent *e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        std::string path = dir + "/" + e->d_name + "/schedstat";
        if (FILE *f = fopen(path.c_str(), "r")) {
            long long ns = 0;
            if (fscanf(f, "%lld", &ns) == 1) sum += ns;
            fclose(f);
        }
    }
    closedir(d);
    return sum;
}

/* /proc/PID/stat after the ")" that ends the command name (which may hold
 * spaces): " STATE PPID ...", or "" if the process cannot be read. */
inline std::string procStat(long pid) {
    if (pid <= 0) return "";
    std::string path = "/proc/" + std::to_string(pid) + "/stat";
    FILE *f = fopen(path.c_str(), "r");
    if (!f) return "";
    char buf[1024];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    return p ? std::string(p + 1) : "";
}

/* The user and system CPU time of process `pid` so far, in ms, from fields
 * 14 and 15 (utime, stime) of /proc/PID/stat: all its threads, those gone
 * included. The kernel samples which of the two a tick falls in and scales
 * both so that they add up to the exact on-CPU total, so the split is a
 * statistical one, good over many ticks (USER_HZ, 10 ms each). False if the
 * process cannot be read. */
inline bool userSysMs(long pid, double &user_ms, double &sys_ms) {
    std::string stat = procStat(pid);
    unsigned long long utime, stime;
    if (stat.empty() || sscanf(stat.c_str(), " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        return false;
    double ms_per_tick = 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
    user_ms = static_cast<double>(utime) * ms_per_tick;
    sys_ms = static_cast<double>(stime) * ms_per_tick;
    return true;
}

/* The 1-minute load average: how busy the (shared) machine was. */
inline double loadAverage() {
    double l = -1;
    if (FILE *f = fopen("/proc/loadavg", "r")) {
        if (fscanf(f, "%lf", &l) != 1) l = -1;
        fclose(f);
    }
    return l;
}

/* A blocking TCP connection with Nagle off (requests go out at once);
 * failing to connect is fatal. */
inline int connectTo(const std::string &host, int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<uint16_t>(port));
    if (fd < 0 || inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1 ||
        connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) != 0)
        die("cannot connect to " + host + ":" + std::to_string(port) + ": " + strerror(errno));
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

/* RESP: one bulk string, and a whole multibulk request. */
inline void appendBulk(std::string &out, std::string_view s) {
    out += '$';
    out += std::to_string(s.size());
    out += "\r\n";
    out += s;
    out += "\r\n";
}

inline std::string command(const std::vector<std::string> &args) {
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const auto &a : args) appendBulk(out, a);
    return out;
}

/* A blocking connection reading status lines and bulk replies. */
class Conn {
public:
    Conn(const std::string &host, int port) : fd_(connectTo(host, port)) {}
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

    /* One reply line, without its CRLF. */
    std::string readLine() {
        size_t eol;
        while ((eol = in_.find("\r\n", pos_)) == std::string::npos) fill();
        std::string line = in_.substr(pos_, eol - pos_);
        pos_ = eol + 2;
        compact();
        return line;
    }

    /* A bulk reply's payload. */
    std::string readBulk() {
        std::string header = readLine();
        if (header.empty() || header[0] != '$') die("expected a bulk reply, got: " + header);
        size_t len = strtoul(header.c_str() + 1, nullptr, 10);
        while (in_.size() - pos_ < len + 2) fill();
        std::string payload = in_.substr(pos_, len);
        pos_ += len + 2;
        compact();
        return payload;
    }

    /* Reads n replies, each must be `expected` ("+OK", "+PONG"). */
    void expectReplies(long n, std::string_view expected) {
        for (; n > 0; n--)
            if (std::string line = readLine(); line != expected) die("unexpected reply: " + line);
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
    void compact() {
        if (pos_ < 64 * 1024) return;
        in_.erase(0, pos_);
        pos_ = 0;
    }

    int fd_ = -1;
    std::string in_;
    size_t pos_ = 0;
};

/* A field of an INFO section ("" if absent). */
inline std::string infoField(Conn &c, const std::string &section, const std::string &field) {
    c.sendAll(command({"INFO", section}));
    std::string text = c.readBulk();
    size_t at = text.find("\r\n" + field + ":");
    if (at == std::string::npos) return "";
    at += field.size() + 3;
    return text.substr(at, text.find("\r\n", at) - at);
}

inline double msSince(int64_t startNs) { return static_cast<double>(nowNs() - startNs) / 1e6; }

/* One PING's round trip, in ms. */
inline double pingMs(Conn &c) {
    int64_t t0 = nowNs();
    c.sendAll("*1\r\n$4\r\nPING\r\n");
    c.expectReplies(1, "+PONG");
    return static_cast<double>(nowNs() - t0) / 1e6;
}

/* Puts the calling thread under SCHED_FIFO if allowed (root or
 * CAP_SYS_NICE): a prober that sleeps nearly all the time then runs at once
 * when its reply arrives, instead of a time slice later behind the tool's
 * other thread — which would pass for server latency. */
inline bool trySchedFifo() {
    sched_param sp{};
    sp.sched_priority = 1;
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
}

/* PINGs on its own connection, one after the other, from a thread of its
 * own (under SCHED_FIFO when allowed), from construction until stop():
 * the server's stalls meanwhile, as round trips sorted worst first. */
class PingProber {
public:
    explicit PingProber(Conn &c)
        : thread_([this, &c] {
              fifo_ = trySchedFifo();
              probes_.reserve(1 << 20);
              while (!done_.load(std::memory_order_relaxed)) probes_.push_back(pingMs(c));
          }) {}
    ~PingProber() { stop(); }
    void stop() {
        if (!thread_.joinable()) return;
        done_ = true;
        thread_.join();
        std::sort(probes_.begin(), probes_.end(), std::greater<>());
    }
    /* After stop(): how many, the worst, a percentile (0.99...). */
    size_t count() const { return probes_.size(); }
    double max() const { return probes_[0]; }
    double pct(double p) const {
        return probes_[std::min(probes_.size() - 1, static_cast<size_t>((1 - p) * probes_.size()))];
    }
    const char *scheduling() const { return fifo_ ? "fifo" : "normal"; }

private:
    std::atomic<bool> done_{false};
    std::vector<double> probes_;
    bool fifo_ = false;
    std::thread thread_;
};

/* The options of a tool that first loads keys: -n keys, -b SETs per
 * pipeline, -d value size. */
struct LoadOptions : ServerAddress {
    long keys;
    long batch = 1000;
    int valsize = 16;
};

/* Parses them (and -h, -p); "val:" and the largest key index must fit the
 * value size (see appendSets). */
inline LoadOptions parseLoadOptions(int argc, char **argv, void (*usage)(), long default_keys) {
    LoadOptions o;
    o.keys = default_keys;
    parseCommandLine(argc, argv, usage, o, [&](std::string_view a, const char *v) {
        if (a == "-n") o.keys = atol(v);
        else if (a == "-b") o.batch = atol(v);
        else if (a == "-d") o.valsize = atoi(v);
        else return false;
        return true;
    });
    if (o.keys <= 0 || o.batch <= 0 || o.port <= 0) die("bad option value");
    if (o.valsize > 60 || o.valsize - 4 < static_cast<int>(std::to_string(o.keys - 1).size()))
        die("-d must leave room for \"val:\" and the key index, and be at most 60");
    return o;
}

/* One batch of SETs: "key:%010ld" -> "val:" and the index zero-padded to
 * valsize bytes, a value that does not read as an integer (so it stays a
 * string, as in bench/memory_per_key.sh). */
inline void appendSets(std::string &out, long first, long count, int valsize) {
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

}  // namespace bench
