/* setcpuaffinity.cpp — CPU affinity (Redis's setcpuaffinity.c); see
 * setcpuaffinity.h. */
#include "setcpuaffinity.h"

#include <sched.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "log.h"

namespace {

/* A decimal number at the start of `s`, consumed. */
bool takeNumber(std::string_view &s, int &value) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || value < 0) return false;
    s.remove_prefix(static_cast<size_t>(end - s.data()));
    return true;
}

bool takeChar(std::string_view &s, char c) {
    if (s.empty() || s[0] != c) return false;
    s.remove_prefix(1);
    return true;
}

}  // namespace

bool setcpuaffinity(std::string_view cpulist) {
    cpu_set_t cpuset;
    CPU_ZERO(&cpuset);
    std::string_view s = cpulist;
    do {
        int first, last, stride = 1;
        if (!takeNumber(s, first)) return false;
        last = first;
        if (takeChar(s, '-')) {
            if (!takeNumber(s, last)) return false;
            if (takeChar(s, ':') && (!takeNumber(s, stride) || stride == 0)) return false;
        }
        if (first > last || last >= CPU_SETSIZE) return false;
        for (int cpu = first; cpu <= last; cpu += stride) CPU_SET(cpu, &cpuset);
    } while (takeChar(s, ','));
    return s.empty() && sched_setaffinity(0, sizeof(cpuset), &cpuset) == 0;
}

void redisSetCpuAffinity(const std::string &cpulist) {
    errno = 0; /* a list that does not parse sets none */
    if (!cpulist.empty() && !setcpuaffinity(cpulist))
        serverLog(LL_WARNING, "Unable to set the CPU affinity to '%s': %s", cpulist.c_str(),
                  errno ? strerror(errno) : "not a CPU list");
}
