/* bench_util.h — small helpers shared by the bench tools: fatal errors,
 * the monotonic clock, a process's CPU time and the machine's load.
 * Header-only: each tool is built from its one .cpp file. */
#pragma once

#include <dirent.h>
#include <errno.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace bench {

[[noreturn]] inline void die(const std::string &msg) {
    fprintf(stderr, "%s: %s\n", program_invocation_short_name, msg.c_str());
    exit(1);
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

}  // namespace bench
