/* latency.cpp — the latency monitor (Redis's latency.c, with sparkline.c)
 * and the command latency histograms (the latency-tracking parts of Redis's
 * server.c). */
#include "latency.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <vector>

#include "networking.h"
#include "server.h"
#include "util.h"

/* ========================================================================
 * The latency monitor: a time series per event
 * ====================================================================== */

namespace {

constexpr int LATENCY_TS_LEN = 160; /* samples kept per event: one per second, the worst of it */

struct latencySample {
    time_t time = 0;       /* 0: the slot was never used */
    long long latency = 0; /* ms */
};

struct latencyTimeSeries {
    int idx = 0;            /* the slot of the next new second */
    long long max = 0;      /* the worst ever (ms) */
    std::array<latencySample, LATENCY_TS_LEN> samples{};
};

/* Redis keeps the events in a dict; here they are listed by name. */
std::map<std::string, latencyTimeSeries, std::less<>> latency_events;

void latencyAddSample(const char *event, long long latency) {
    auto it = latency_events.find(std::string_view(event));
    if (it == latency_events.end()) it = latency_events.emplace(event, latencyTimeSeries{}).first;
    latencyTimeSeries &ts = it->second;
    time_t now = time(nullptr);
    if (latency > ts.max) ts.max = latency;
    /* Within the same second, the sample is the worst of it. */
    latencySample &prev = ts.samples[(ts.idx + LATENCY_TS_LEN - 1) % LATENCY_TS_LEN];
    if (prev.time == now) {
        if (latency > prev.latency) prev.latency = latency;
        return;
    }
    ts.samples[ts.idx] = {now, latency};
    ts.idx = (ts.idx + 1) % LATENCY_TS_LEN;
}

/* The events named `event` (any case), or all of them: how many went. */
int latencyResetEvent(const std::string_view *event) {
    int resets = 0;
    for (auto it = latency_events.begin(); it != latency_events.end();) {
        if (!event || strEqualNoCase(it->first, *event)) {
            it = latency_events.erase(it);
            resets++;
        } else {
            ++it;
        }
    }
    return resets;
}

/* The samples in time order (oldest first), as LATENCY HISTORY and GRAPH walk them. */
template <typename F>
void forEachSample(const latencyTimeSeries &ts, F &&f) {
    for (int j = 0; j < LATENCY_TS_LEN; j++) {
        const latencySample &s = ts.samples[(ts.idx + j) % LATENCY_TS_LEN];
        if (s.time) f(s);
    }
}

}  // namespace

long long latencyStartMonitor() { return server.latency_monitor_threshold ? mstime() : 0; }

long long latencyEndMonitor(long long start) { return server.latency_monitor_threshold ? mstime() - start : 0; }

void latencyAddSampleIfNeeded(const char *event, long long duration_ms) {
    if (server.latency_monitor_threshold && duration_ms >= server.latency_monitor_threshold)
        latencyAddSample(event, duration_ms);
}

/* ========================================================================
 * LATENCY DOCTOR: the samples analysed, and advice
 * ====================================================================== */

namespace {

/* Redis's latencyStats: of the samples kept. */
struct latencyStats {
    long long all_time_high = 0; /* ms */
    long long avg = 0, min = 0, max = 0;
    long long mad = 0;           /* mean absolute deviation from avg */
    int samples = 0;
    time_t period = 0;           /* seconds since the oldest sample (at least 1) */
};

latencyStats analyzeLatencyForEvent(const latencyTimeSeries &ts) {
    latencyStats ls;
    ls.all_time_high = ts.max;
    long long sum = 0;
    time_t oldest = 0;
    forEachSample(ts, [&](const latencySample &s) {
        ls.samples++;
        if (ls.samples == 1) ls.min = ls.max = s.latency;
        ls.min = std::min(ls.min, s.latency);
        ls.max = std::max(ls.max, s.latency);
        sum += s.latency;
        if (!oldest || s.time < oldest) oldest = s.time;
    });
    if (!ls.samples) return ls;
    ls.avg = sum / ls.samples;
    ls.period = std::max<time_t>(time(nullptr) - oldest, 1);
    long long deviation = 0;
    forEachSample(ts, [&](const latencySample &s) { deviation += std::llabs(ls.avg - s.latency); });
    ls.mad = deviation / ls.samples;
    return ls;
}

/* Redis's THPGetAnonHugePagesSize: transparent huge pages mapped by this
 * process (they make fork and copy-on-write slow). */
long long anonHugePagesBytes() {
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen("/proc/self/smaps_rollup", "r"), fclose);
    if (!fp) return 0;
    char line[256];
    long long kb = 0;
    while (fgets(line, sizeof(line), fp.get()))
        if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1) return kb * 1024;
    return 0;
}

/* The advice the events call for, each given once, in Redis's order. */
enum latencyAdvice : unsigned {
    ADVISE_BETTER_VM = 1u << 0,
    ADVISE_SLOWLOG_ENABLED = 1u << 1,
    ADVISE_SLOWLOG_TUNING = 1u << 2,
    ADVISE_SLOWLOG_INSPECT = 1u << 3,
    ADVISE_SCHEDULER = 1u << 4,
    ADVISE_LOCAL_DISK = 1u << 5,
    ADVISE_SSD = 1u << 6,
    ADVISE_DATA_WRITEBACK = 1u << 7,
    ADVISE_DISK_CONTENTION = 1u << 8,
    ADVISE_NO_APPENDFSYNC = 1u << 9,
    ADVISE_RELAX_FSYNC_POLICY = 1u << 10,
    ADVISE_WRITE_LOAD_INFO = 1u << 11,
    ADVISE_HZ = 1u << 12,
    ADVISE_LARGE_OBJECTS = 1u << 13,
    ADVISE_MASS_EVICTION = 1u << 14,
    ADVISE_DISABLE_THP = 1u << 15,
};

/* What an event says about the instance: the advice it calls for, and a
 * remark appended to its line (fork's rate). */
unsigned adviceForEvent(std::string_view event, std::string &remark) {
    auto is = [&](const char *name) { return strEqualNoCase(event, name); };
    if (is("fork")) {
        const char *quality = server.stat_fork_rate < 10   ? "terrible"
                              : server.stat_fork_rate < 25  ? "poor"
                              : server.stat_fork_rate < 100 ? "good"
                                                            : "excellent";
        char buf[96];
        snprintf(buf, sizeof(buf), " Fork rate is %.2f GB/sec (%s).", server.stat_fork_rate, quality);
        remark = buf;
        return server.stat_fork_rate < 25 ? static_cast<unsigned>(ADVISE_BETTER_VM) : 0u;
    }
    if (is("command")) {
        unsigned a = ADVISE_SLOWLOG_INSPECT | ADVISE_LARGE_OBJECTS;
        if (server.slowlog_log_slower_than < 0) a |= ADVISE_SLOWLOG_ENABLED;
        else if (server.slowlog_log_slower_than / 1000 > server.latency_monitor_threshold) a |= ADVISE_SLOWLOG_TUNING;
        return a;
    }
    if (is("fast-command")) return ADVISE_SCHEDULER;
    if (is("aof-write-pending-fsync"))
        return ADVISE_LOCAL_DISK | ADVISE_DISK_CONTENTION | ADVISE_SSD | ADVISE_DATA_WRITEBACK;
    if (is("aof-write-active-child")) return ADVISE_NO_APPENDFSYNC | ADVISE_DATA_WRITEBACK | ADVISE_SSD;
    if (is("aof-write-alone")) return ADVISE_LOCAL_DISK | ADVISE_DATA_WRITEBACK | ADVISE_SSD;
    if (is("aof-fsync-always")) return ADVISE_RELAX_FSYNC_POLICY;
    if (is("aof-fstat") || is("rdb-unlink-temp-file")) return ADVISE_DISK_CONTENTION | ADVISE_LOCAL_DISK;
    if (is("aof-rewrite-diff-write") || is("aof-rename")) return ADVISE_WRITE_LOAD_INFO | ADVISE_DATA_WRITEBACK | ADVISE_SSD | ADVISE_LOCAL_DISK;
    if (is("expire-cycle")) return ADVISE_HZ | ADVISE_LARGE_OBJECTS;
    if (is("eviction-del")) return ADVISE_LARGE_OBJECTS;
    if (is("eviction-cycle")) return ADVISE_MASS_EVICTION;
    return 0;
}

/* The advice texts; those whose condition no longer holds say nothing. */
void appendAdvice(std::string &report, unsigned advice) {
    char buf[512];
    if (advice & ADVISE_BETTER_VM)
        report += "- If you are using a virtual machine, consider upgrading it with a faster one using a hypervisior "
                  "that provides less latency during fork() calls. Xen is known to have poor fork() performance. "
                  "Even in the context of the same VM provider, certain kinds of instances can execute fork faster "
                  "than others.\n";
    if (advice & ADVISE_SLOWLOG_ENABLED) {
        snprintf(buf, sizeof(buf),
                 "- There are latency issues with potentially slow commands you are using. Try to enable the Slow "
                 "Log Redis feature using the command 'CONFIG SET slowlog-log-slower-than %llu'. If the Slow log is "
                 "disabled Redis is not able to log slow commands execution for you.\n",
                 static_cast<unsigned long long>(server.latency_monitor_threshold) * 1000);
        report += buf;
    }
    if (advice & ADVISE_SLOWLOG_TUNING) {
        snprintf(buf, sizeof(buf),
                 "- Your current Slow Log configuration only logs events that are slower than your configured "
                 "latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than %llu'.\n",
                 static_cast<unsigned long long>(server.latency_monitor_threshold) * 1000);
        report += buf;
    }
    if (advice & ADVISE_SLOWLOG_INSPECT)
        report += "- Check your Slow Log to understand what are the commands you are running which are too slow to "
                  "execute. Please check https://redis.io/commands/slowlog for more information.\n";
    if (advice & ADVISE_SCHEDULER)
        report += "- The system is slow to execute Redis code paths not containing system calls. This usually means "
                  "the system does not provide Redis CPU time to run for long periods. You should try to:\n"
                  "  1) Lower the system load.\n"
                  "  2) Use a computer / VM just for Redis if you are running other software in the same system.\n"
                  "  3) Check if you have a \"noisy neighbour\" problem.\n"
                  "  4) Check with 'redis-cli --intrinsic-latency 100' what is the intrinsic latency in your "
                  "system.\n";
    if (advice & ADVISE_LOCAL_DISK)
        report += "- It is strongly advised to use local disks for persistence, especially if you are using AOF. "
                  "Remote disks provided by platform-as-a-service providers are known to be slow.\n";
    if (advice & ADVISE_SSD)
        report += "- SSD disks are able to reduce fsync latency, and total time needed for snapshotting and AOF log "
                  "rewriting (resulting in smaller memory usage). With extremely high write load SSD disks can be a "
                  "good option. However Redis should perform reasonably with high load using normal disks. Use this "
                  "advice as a last resort.\n";
    if (advice & ADVISE_DATA_WRITEBACK)
        report += "- Mounting ext3/4 filesystems with data=writeback can provide a performance boost compared to "
                  "data=ordered, however this mode of operation provides less guarantees, and sometimes it can "
                  "happen that after a hard crash the AOF file will have a half-written command at the end and will "
                  "require to be repaired before Redis restarts.\n";
    if (advice & ADVISE_DISK_CONTENTION)
        report += "- Try to lower the disk contention. This is often caused by other disk intensive processes "
                  "running in the same computer (including other Redis instances).\n";
    if (advice & ADVISE_NO_APPENDFSYNC)
        report += "- Assuming from the point of view of data safety this is viable in your environment, you could "
                  "try to enable the 'no-appendfsync-on-rewrite' option, so that fsync will not be performed while "
                  "there is a child rewriting the AOF file or producing an RDB file (the moment where there is high "
                  "disk contention).\n";
    if ((advice & ADVISE_RELAX_FSYNC_POLICY) && server.aof_fsync == AOF_FSYNC_ALWAYS)
        report += "- Your fsync policy is set to 'always'. It is very hard to get good performances with such a "
                  "setup, if possible try to relax the fsync policy to 'onesec'.\n";
    if (advice & ADVISE_WRITE_LOAD_INFO)
        report += "- Latency during the AOF atomic rename operation or when the final difference is flushed to the "
                  "AOF file at the end of the rewrite, sometimes is caused by very high write load, "
                  "causing the AOF buffer to get very large. If possible try to send less commands to accomplish "
                  "the same work, or use Lua scripts to group multiple operations into a single EVALSHA call.\n";
    if ((advice & ADVISE_HZ) && server.hz < 100)
        report += "- In order to make the Redis keys expiring process more incremental, try to set the 'hz' "
                  "configuration parameter to 100 using 'CONFIG SET hz 100'.\n";
    if (advice & ADVISE_LARGE_OBJECTS)
        report += "- Deleting, expiring or evicting (because of maxmemory policy) large objects is a blocking "
                  "operation. If you have very large objects that are often deleted, expired, or evicted, try to "
                  "fragment those objects into multiple smaller objects.\n";
    if (advice & ADVISE_MASS_EVICTION)
        report += "- Sudden changes to the 'maxmemory' setting via 'CONFIG SET', or allocation of large objects via "
                  "sets or sorted sets intersections, STORE option of SORT, may create sudden memory pressure "
                  "forcing the server to block trying to evict keys. \n";
    if (advice & ADVISE_DISABLE_THP)
        report += "- I detected a non zero amount of anonymous huge pages used by your process. This creates very "
                  "serious latency events in different conditions, especially when Redis is persisting on disk. To "
                  "disable THP support use the command 'echo never > /sys/kernel/mm/transparent_hugepage/enabled', "
                  "make sure to also add it into /etc/rc.local so that the command will be executed again after a "
                  "reboot. Note that even if you have already disabled THP, you still need to restart the Redis "
                  "process to get rid of the huge pages already created.\n";
}

/* Redis's createLatencyReport. */
std::string createLatencyReport() {
    if (latency_events.empty() && server.latency_monitor_threshold == 0)
        return "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may "
               "use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we weren't "
               "in a deep space mission I'd suggest to take a look at https://redis.io/topics/latency-monitor.\n";
    std::string report;
    unsigned advice = 0;
    int eventnum = 0;
    for (const auto &[event, ts] : latency_events) {
        if (++eventnum == 1)
            report += "Dave, I have observed latency spikes in this Redis instance. You don't mind talking about "
                      "it, do you Dave?\n\n";
        latencyStats ls = analyzeLatencyForEvent(ts);
        char buf[320];
        snprintf(buf, sizeof(buf),
                 "%d. %s: %d latency spikes (average %llums, mean deviation %llums, period %.2f sec). Worst all "
                 "time event %llums.",
                 eventnum, event.c_str(), ls.samples, static_cast<unsigned long long>(ls.avg),
                 static_cast<unsigned long long>(ls.mad),
                 ls.samples ? static_cast<double>(ls.period) / ls.samples : 0.0,
                 static_cast<unsigned long long>(ts.max));
        report += buf;
        std::string remark;
        advice |= adviceForEvent(event, remark);
        report += remark;
        report += '\n';
    }
    if (anonHugePagesBytes() > 0) advice |= ADVISE_DISABLE_THP;
    if (eventnum == 0 && advice == 0) {
        report += "Dave, no latency spike was observed during the lifetime of this Redis instance, not in the "
                  "slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think "
                  "things over.\n";
    } else if (advice == 0) {
        report += "\nWhile there are latency events logged, I'm not able to suggest any easy fix. Please use the "
                  "Redis community to get some help, providing this report in your help request.\n";
    } else {
        report += "\nI have a few advices for you:\n\n";
        appendAdvice(report, advice);
    }
    return report;
}

/* ========================================================================
 * LATENCY GRAPH: Redis's sparkline
 * ====================================================================== */

struct sparklineSample {
    double value;
    std::string label;
};

constexpr int LATENCY_GRAPH_COLS = 80;
constexpr int SPARKLINE_ROWS = 4;
constexpr char sparkline_fill[] = "_o#"; /* the filled charset, bottom to top of a row */
constexpr int sparkline_charset_len = sizeof(sparkline_fill) - 1;

/* Redis's sparklineRenderRange with SPARKLINE_FILL: `rows` rows of bars
 * scaled between min and max, a blank line, then each sample's label
 * written downwards below its column. */
void sparklineRenderRange(std::string &out, const std::vector<sparklineSample> &seq, double min, double max,
                          size_t offset, size_t len) {
    double relmax = max - min;
    if (relmax == 0) relmax = 1;
    const int steps = sparkline_charset_len * SPARKLINE_ROWS;
    std::string chars;
    for (int row = 0;; row++) {
        bool more = false;
        chars.assign(len, ' ');
        for (size_t j = 0; j < len; j++) {
            const sparklineSample &s = seq[offset + j];
            int step = static_cast<int>((s.value - min) * steps / relmax);
            step = std::clamp(step, 0, steps - 1);
            if (row < SPARKLINE_ROWS) {
                int charidx = step - (SPARKLINE_ROWS - row - 1) * sparkline_charset_len;
                more = true;
                if (charidx >= 0 && charidx < sparkline_charset_len) chars[j] = sparkline_fill[charidx];
                else if (charidx >= sparkline_charset_len) chars[j] = '|';
            } else if (row == SPARKLINE_ROWS) {
                more = true; /* the blank line between the bars and the labels */
                break;
            } else if (static_cast<int>(s.label.size()) > row - SPARKLINE_ROWS - 1) {
                more = true;
                chars[j] = s.label[row - SPARKLINE_ROWS - 1];
            }
        }
        if (!more) break;
        out += chars;
        out += '\n';
    }
}

/* "5s", "3m", "2h", "1d": how long ago a sample was taken. */
std::string sampleAgeLabel(time_t when) {
    long elapsed = static_cast<long>(time(nullptr) - when);
    char buf[32];
    if (elapsed < 60) snprintf(buf, sizeof(buf), "%lds", elapsed);
    else if (elapsed < 3600) snprintf(buf, sizeof(buf), "%ldm", elapsed / 60);
    else if (elapsed < 3600 * 24) snprintf(buf, sizeof(buf), "%ldh", elapsed / 3600);
    else snprintf(buf, sizeof(buf), "%ldd", elapsed / (3600 * 24));
    return buf;
}

std::string latencyCommandGenSparkeline(const std::string &event, const latencyTimeSeries &ts) {
    std::vector<sparklineSample> seq;
    long long min = 0, max = 0;
    forEachSample(ts, [&](const latencySample &s) {
        if (seq.empty()) min = max = s.latency;
        min = std::min(min, s.latency);
        max = std::max(max, s.latency);
        seq.push_back({static_cast<double>(s.latency), sampleAgeLabel(s.time)});
    });
    char head[256];
    snprintf(head, sizeof(head), "%s - high %llu ms, low %llu ms (all time high %llu ms)\n", event.c_str(),
             static_cast<unsigned long long>(max), static_cast<unsigned long long>(min),
             static_cast<unsigned long long>(ts.max));
    std::string graph = head;
    graph.append(LATENCY_GRAPH_COLS, '-');
    graph += '\n';
    for (size_t j = 0; j < seq.size(); j += LATENCY_GRAPH_COLS) {
        if (j != 0) graph += '\n';
        sparklineRenderRange(graph, seq, static_cast<double>(min), static_cast<double>(max), j,
                             std::min<size_t>(seq.size() - j, LATENCY_GRAPH_COLS));
    }
    return graph;
}

}  // namespace

/* ========================================================================
 * Command latency histograms (latency-tracking)
 * ====================================================================== */

namespace {

/* An HdrHistogram as Redis configures it: 1 ns to 1 s, 2 significant
 * digits. Values below 256 are exact; above, bucket b (b >= 1) covers
 * [128 << b, 256 << b) in 128 sub-buckets 2^b wide. The index of v is
 * (b << 7) + (v >> b), so neighbouring indices are neighbouring ranges. */
constexpr long long LATENCY_HISTOGRAM_MIN_VALUE = 1;          /* ns */
constexpr long long LATENCY_HISTOGRAM_MAX_VALUE = 1000000000; /* ns */
constexpr int HDR_SUB_BUCKET_BITS = 8;                        /* 256 sub-buckets: 2 digits */
constexpr int HDR_HALF_BUCKET = 1 << (HDR_SUB_BUCKET_BITS - 1);
constexpr int HDR_COUNTS_LEN = 24 * HDR_HALF_BUCKET; /* buckets 0..22 reach 2^30 - 1 > 1 s */

int hdrBucketOf(long long v) {
    int bits = 64 - __builtin_clzll(static_cast<unsigned long long>(v) | (2 * HDR_HALF_BUCKET - 1));
    return bits - HDR_SUB_BUCKET_BITS;
}

int hdrIndexOf(long long v) {
    int b = hdrBucketOf(v);
    return (b << (HDR_SUB_BUCKET_BITS - 1)) + static_cast<int>(v >> b);
}

int hdrBucketOfIndex(int idx) { return idx < 2 * HDR_HALF_BUCKET ? 0 : (idx >> (HDR_SUB_BUCKET_BITS - 1)) - 1; }

long long hdrLowestEquivalentValue(int idx) {
    int b = hdrBucketOfIndex(idx);
    return static_cast<long long>(idx - (b << (HDR_SUB_BUCKET_BITS - 1))) << b;
}

long long hdrHighestEquivalentValue(int idx) { return hdrLowestEquivalentValue(idx) + (1LL << hdrBucketOfIndex(idx)) - 1; }

/* The counts are an allocation of their own, exactly the 24 KB of a
 * jemalloc size class (with the total beside them it would take the next,
 * 28 KB): a command's first call costs what it costs in Redis. */
struct commandHistogram {
    long long total_count = 0;
    std::unique_ptr<long long[]> counts = std::make_unique<long long[]>(HDR_COUNTS_LEN);

    /* hdr_value_at_percentile. */
    long long valueAtPercentile(double percentile) const {
        double requested = std::min(percentile, 100.0);
        long long count_at = std::max<long long>(static_cast<long long>(requested / 100 * total_count + 0.5), 1);
        long long seen = 0;
        for (int idx = 0; idx < HDR_COUNTS_LEN; idx++) {
            seen += counts[idx];
            if (seen >= count_at)
                return percentile == 0.0 ? hdrLowestEquivalentValue(idx) : hdrHighestEquivalentValue(idx);
        }
        return 0;
    }
};

/* By command id (redisCommand::id, dense over commands and subcommands):
 * a command's histogram exists from its first sample on. The table of
 * pointers is sized once, at the first sample of any command. */
std::vector<std::unique_ptr<commandHistogram>> command_histograms;

size_t commandIdCount() {
    size_t n = 0;
    for (const redisCommand &cmd : *server.command_table) n += 1 + cmd.subcommands.size();
    return n;
}

const commandHistogram *histogramOf(const redisCommand &cmd) {
    return cmd.id < command_histograms.size() ? command_histograms[cmd.id].get() : nullptr;
}

/* Calls every command, subcommands after their parent, that has a histogram. */
template <typename F>
void forEachCommandHistogram(const redisCommand &cmd, F &&f) {
    if (const commandHistogram *h = histogramOf(cmd)) f(cmd, *h);
    for (const redisCommand &sub : cmd.subcommands)
        if (const commandHistogram *h = histogramOf(sub)) f(sub, *h);
}

/* LATENCY HISTOGRAM's map for one command (Redis's fillCommandCDF over
 * hdr_iter_log_init(1024 ns, base 2)): the cumulative count at each power
 * of two from 1024 ns on, in µs (the bucket's highest value), where it
 * grew. Past the last bucket, the rest is reported at the table's end. */
void fillCommandCDF(client *c, const commandHistogram &h) {
    addReplyMapLen(c, 2);
    addReplyBulk(c, "calls");
    addReplyLongLong(c, h.total_count);
    addReplyBulk(c, "histogram_usec");
    void *replylen = addReplyDeferredLen(c);
    long samples = 0;
    long long cumulative = 0, previous = 0;
    int idx = 0;
    for (long long level = 1024; cumulative < h.total_count; level *= 2) {
        int upto = std::min(hdrIndexOf(std::min(level, LATENCY_HISTOGRAM_MAX_VALUE * 2)), HDR_COUNTS_LEN - 1);
        for (; idx <= upto; idx++) cumulative += h.counts[idx];
        if (cumulative > previous) {
            addReplyLongLong(c, hdrHighestEquivalentValue(upto) / 1000);
            addReplyLongLong(c, cumulative);
            samples++;
        }
        previous = cumulative;
    }
    setDeferredMapLen(c, replylen, samples);
}

/* "99.9" for 99.9, "50" for 50 (Redis's "%f" and trimDoubleString). */
std::string percentileName(double p) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%f", p);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

/* Redis's fillPercentileDistributionLatencies. */
void fillPercentileDistributionLatencies(std::string &out, const std::string &name, const commandHistogram &h) {
    out += "latency_percentiles_usec_";
    for (char ch : name) out += (ch == ':' || ch == '#' || ch == '\r' || ch == '\n') ? '_' : ch; /* getSafeInfoString */
    out += ':';
    const std::vector<double> &percentiles = server.latency_tracking_info_percentiles;
    for (size_t j = 0; j < percentiles.size(); j++) {
        char buf[96];
        snprintf(buf, sizeof(buf), "p%s=%.3f", percentileName(percentiles[j]).c_str(),
                 static_cast<double>(h.valueAtPercentile(percentiles[j])) / 1000.0);
        out += buf;
        if (j + 1 != percentiles.size()) out += ',';
    }
    out += "\r\n";
}

}  // namespace

void updateCommandLatencyHistogram(redisCommand *cmd, long long duration_ns) {
    duration_ns = std::clamp(duration_ns, LATENCY_HISTOGRAM_MIN_VALUE, LATENCY_HISTOGRAM_MAX_VALUE);
    if (command_histograms.empty()) command_histograms.resize(commandIdCount());
    std::unique_ptr<commandHistogram> &h = command_histograms[cmd->id];
    if (!h) h = std::make_unique<commandHistogram>();
    h->counts[hdrIndexOf(duration_ns)]++;
    h->total_count++;
}

void resetCommandLatencyHistograms() { command_histograms.clear(); }

void infoLatencyStats(std::string &out) {
    InfoSection section(out, "Latencystats");
    if (!server.latency_tracking_enabled) return;
    for (const redisCommand &cmd : *server.command_table)
        forEachCommandHistogram(cmd, [&](const redisCommand &c, const commandHistogram &h) {
            fillPercentileDistributionLatencies(out, c.fullname, h);
        });
}

/* ========================================================================
 * LATENCY
 * ====================================================================== */

void latencyLatestCommand(client *c) {
    addReplyArrayLen(c, static_cast<long long>(latency_events.size()));
    for (const auto &[event, ts] : latency_events) {
        const latencySample &last = ts.samples[(ts.idx + LATENCY_TS_LEN - 1) % LATENCY_TS_LEN];
        addReplyArrayLen(c, 4);
        addReplyBulk(c, event);
        addReplyLongLong(c, last.time);
        addReplyLongLong(c, last.latency);
        addReplyLongLong(c, ts.max);
    }
}

void latencyHistoryCommand(client *c) {
    auto it = latency_events.find(c->argv[2]);
    if (it == latency_events.end()) return addReplyArrayLen(c, 0);
    void *replylen = addReplyDeferredLen(c);
    long samples = 0;
    forEachSample(it->second, [&](const latencySample &s) {
        addReplyArrayLen(c, 2);
        addReplyLongLong(c, s.time);
        addReplyLongLong(c, s.latency);
        samples++;
    });
    setDeferredArrayLen(c, replylen, samples);
}

void latencyResetCommand(client *c) {
    if (c->argv.size() == 2) return addReplyLongLong(c, latencyResetEvent(nullptr));
    int resets = 0;
    for (size_t j = 2; j < c->argv.size(); j++) resets += latencyResetEvent(&c->argv[j]);
    addReplyLongLong(c, resets);
}

void latencyGraphCommand(client *c) {
    auto it = latency_events.find(c->argv[2]);
    if (it == latency_events.end())
        return addReplyErrorFormat(c, "No samples available for event '%s'", std::string(c->argv[2]).c_str());
    addReplyVerbatim(c, latencyCommandGenSparkeline(it->first, it->second));
}

void latencyDoctorCommand(client *c) { addReplyVerbatim(c, createLatencyReport()); }

void latencyHistogramCommand(client *c) {
    void *replylen = addReplyDeferredLen(c);
    long command_with_data = 0;
    auto reply = [&](const redisCommand &cmd, const commandHistogram &h) {
        addReplyBulk(c, cmd.fullname);
        fillCommandCDF(c, h);
        command_with_data++;
    };
    if (c->argv.size() == 2) {
        for (const redisCommand &cmd : *server.command_table) forEachCommandHistogram(cmd, reply);
    } else {
        for (size_t j = 2; j < c->argv.size(); j++)
            if (redisCommand *cmd = lookupCommandBySdsFullname(c->argv[j])) forEachCommandHistogram(*cmd, reply);
    }
    setDeferredMapLen(c, replylen, command_with_data);
}

void latencyHelpCommand(client *c) {
    static const char *const help[] = {
        "DOCTOR",
        "    Return a human readable latency analysis report.",
        "GRAPH <event>",
        "    Return an ASCII latency graph for the <event> class.",
        "HISTORY <event>",
        "    Return time-latency samples for the <event> class.",
        "LATEST",
        "    Return the latest latency samples for all events.",
        "RESET [<event> ...]",
        "    Reset latency data of one or more <event> classes.",
        "    (default: reset all data for all event classes)",
        "HISTOGRAM [COMMAND ...]",
        "    Return a cumulative distribution of latencies in the format of a histogram for the specified command "
        "names.",
        "    If no commands are specified then all histograms are replied.",
        nullptr,
    };
    addReplyHelp(c, help);
}
