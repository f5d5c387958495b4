/* bench_util.h — small helpers shared by the bench tools: fatal errors,
 * the command line, the monotonic clock, a process's CPU time, the
 * machine's load, connecting and encoding commands.
 * Header-only: each tool is built from its one .cpp file. */
#pragma once

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
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

}  // namespace bench
