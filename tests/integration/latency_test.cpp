/* latency_test.cpp — the latency monitor (LATENCY LATEST/HISTORY/RESET/
 * GRAPH/DOCTOR, latency-monitor-threshold, events fed where they happen)
 * and the per-command latency histograms (latency-tracking, LATENCY
 * HISTOGRAM, INFO latencystats, CONFIG RESETSTAT). Each test runs on a
 * fresh cppredis and a fresh Redis 7.0.15 (EitherServerTest) with the same
 * expectations; DEBUG SLEEP makes the slow commands. */
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* HdrHistogram with 2 significant digits, as Redis sets it up: the range
 * of nanoseconds recorded together with `ns` (below 256 ns exact, above
 * ranges 2^(bits-8) wide). */
long long hdrLowest(long long ns) {
    int bits = 64 - __builtin_clzll(static_cast<unsigned long long>(ns) | 255);
    int shift = bits - 8;
    return (ns >> shift) << shift;
}
long long hdrHighest(long long ns) {
    int bits = 64 - __builtin_clzll(static_cast<unsigned long long>(ns) | 255);
    return hdrLowest(ns) + (1LL << (bits - 8)) - 1;
}
/* LATENCY HISTOGRAM's key for a single call of `us` µs: the first power of
 * two from 1024 ns whose range reaches it, as its highest value in µs. */
long long histogramKeyFor(long long us) {
    long long level = 1024;
    while (hdrHighest(level) < us * 1000) level *= 2;
    return hdrHighest(level) / 1000;
}

class Latency : public EitherServerTest {
protected:
    /* INFO commandstats' usec of `cmd`: the very duration its histogram got. */
    long long commandUsec(const std::string &cmd) {
        std::string stat = infoField(*c, "commandstats", "cmdstat_" + cmd);
        size_t at = stat.find("usec=");
        return at == std::string::npos ? -1 : std::stoll(stat.substr(at + 5));
    }

    /* LATENCY LATEST's event names. */
    std::set<std::string> latestEvents() {
        std::set<std::string> names;
        for (const Reply &e : c->call({"LATENCY", "LATEST"}).elements) names.insert(e.elements[0].str);
        return names;
    }

    /* LATENCY HISTOGRAM's reply (RESP2: name, [calls, n, histogram_usec,
     * [µs, cumulative, ...]], ...) as name -> (calls, buckets). */
    struct Histogram {
        long long calls = 0;
        std::vector<std::pair<long long, long long>> buckets;
    };
    std::map<std::string, Histogram> histograms(const Args &commands = {}) {
        Args args = {"LATENCY", "HISTOGRAM"};
        args.insert(args.end(), commands.begin(), commands.end());
        Reply r = c->call(args);
        EXPECT_EQ(r.type, Reply::Type::Array) << r;
        std::map<std::string, Histogram> out;
        for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
            const Reply &m = r.elements[i + 1];
            EXPECT_EQ(m.elements.size(), 4u) << m;
            if (m.elements.size() != 4) continue;
            EXPECT_EQ(m.elements[0].str, "calls");
            EXPECT_EQ(m.elements[2].str, "histogram_usec");
            Histogram h;
            h.calls = m.elements[1].integer;
            for (size_t j = 0; j + 1 < m.elements[3].elements.size(); j += 2)
                h.buckets.emplace_back(m.elements[3].elements[j].integer, m.elements[3].elements[j + 1].integer);
            out[r.elements[i].str] = h;
        }
        return out;
    }
};
INSTANTIATE_TEST_SUITE_P(Servers, Latency, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

const std::string kDoctorDisabled =
    "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may use "
    "\"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we weren't in a deep "
    "space mission I'd suggest to take a look at https://redis.io/topics/latency-monitor.\n";

/* A command slower than latency-monitor-threshold is a "command" event:
 * LATEST, HISTORY (one sample a second, the worst), GRAPH and DOCTOR show
 * it, RESET drops it. A fast command under the threshold leaves nothing. */
TEST_P(Latency, CommandEventsMonitored) {
    EXPECT_EQ(c->call({"LATENCY", "DOCTOR"}).str, kDoctorDisabled);
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0.03"}), OK);
    EXPECT_EQ(call({"LATENCY", "LATEST"}), EMPTY_ARRAY); /* off (threshold 0) */

    ASSERT_EQ(call({"CONFIG", "SET", "latency-monitor-threshold", "20"}), OK);
    ASSERT_EQ(call({"PING"}), "+PONG\r\n");
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0"}), OK);
    EXPECT_EQ(call({"LATENCY", "LATEST"}), EMPTY_ARRAY);
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0.05"}), OK);
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0.03"}), OK);

    Reply latest = c->call({"LATENCY", "LATEST"});
    ASSERT_EQ(latest.elements.size(), 1u) << latest;
    const Reply &ev = latest.elements[0];
    EXPECT_EQ(ev.elements[0].str, "command");
    long long when = ev.elements[1].integer, last = ev.elements[2].integer, max = ev.elements[3].integer;
    EXPECT_GE(max, 50);
    EXPECT_GE(last, 30);
    /* Samples of one second merge into their worst. */
    Reply history = c->call({"LATENCY", "HISTORY", "command"});
    ASSERT_GE(history.elements.size(), 1u) << history;
    ASSERT_LE(history.elements.size(), 2u) << history;
    if (history.elements.size() == 1) EXPECT_EQ(history.elements[0].elements[1].integer, max);
    else EXPECT_LT(history.elements[0].elements[0].integer, history.elements[1].elements[0].integer);
    EXPECT_EQ(history.elements.back().elements[0].integer, when);
    EXPECT_EQ(call({"LATENCY", "HISTORY", "nosuch"}), EMPTY_ARRAY);

    /* GRAPH: a title, 80 dashes, 4 rows of bars (the highest sample reaches
     * the top row), a blank line, then each sample's age written downwards. */
    std::string graph = c->call({"LATENCY", "GRAPH", "command"}).str;
    std::vector<std::string> lines;
    for (size_t at = 0, nl; (nl = graph.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(graph.substr(at, nl - at));
    ASSERT_GE(lines.size(), 8u) << graph;
    long long low = history.elements.size() == 1 ? max : std::min(history.elements[0].elements[1].integer,
                                                                  history.elements[1].elements[1].integer);
    EXPECT_EQ(lines[0], "command - high " + std::to_string(max) + " ms, low " + std::to_string(low) +
                            " ms (all time high " + std::to_string(max) + " ms)");
    EXPECT_EQ(lines[1], std::string(80, '-'));
    const size_t n = history.elements.size();
    for (int row = 2; row < 7; row++) EXPECT_EQ(lines[row].size(), n) << graph;
    EXPECT_EQ(lines[5].back(), '_') << graph; /* the newest, the lowest */
    if (n == 2) {
        EXPECT_EQ(lines[2].substr(0, 1) + lines[5].substr(0, 1), "#|") << graph; /* the highest */
    }
    EXPECT_EQ(lines[6], std::string(n, ' ')) << graph;
    EXPECT_EQ(lines.back().back(), 's') << graph;
    EXPECT_EQ(call({"LATENCY", "GRAPH", "nosuch"}), err("ERR No samples available for event 'nosuch'"));

    std::string doctor = c->call({"LATENCY", "DOCTOR"}).str;
    EXPECT_EQ(doctor.rfind("Dave, I have observed latency spikes in this Redis instance.", 0), 0u) << doctor;
    EXPECT_NE(doctor.find("1. command: " + std::to_string(n) + " latency spikes (average "), std::string::npos)
        << doctor;
    EXPECT_NE(doctor.find("Worst all time event " + std::to_string(max) + "ms."), std::string::npos) << doctor;
    EXPECT_NE(doctor.find("- Check your Slow Log"), std::string::npos) << doctor;

    EXPECT_EQ(call({"LATENCY", "RESET", "nosuch"}), integer(0));
    EXPECT_EQ(call({"LATENCY", "RESET", "COMMAND", "nosuch"}), integer(1)); /* names in any case */
    EXPECT_EQ(call({"LATENCY", "LATEST"}), EMPTY_ARRAY);
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0.03"}), OK);
    EXPECT_EQ(call({"LATENCY", "RESET"}), integer(1));
}

/* A big key expiring by the active cycle makes both "expire-del" (its
 * deletion) and "expire-cycle" (the whole cycle) events. */
TEST_P(Latency, ExpireEventsFedByTheActiveCycle) {
    ASSERT_EQ(call({"EVAL", "for i=1,200000 do redis.call('sadd', KEYS[1], 'member:' .. i) end", "1", "big"}), NIL);
    ASSERT_EQ(call({"CONFIG", "SET", "latency-monitor-threshold", "1"}), OK);
    ASSERT_EQ(call({"PEXPIRE", "big", "1"}), integer(1));
    EXPECT_TRUE(pollUntil([&] { return latestEvents().count("expire-cycle") == 1; })) << call({"LATENCY", "LATEST"});
    EXPECT_EQ(latestEvents().count("expire-del"), 1u) << call({"LATENCY", "LATEST"});
    EXPECT_EQ(call({"EXISTS", "big"}), integer(0));
}

/* Each command's histogram counts its calls in buckets at powers of two
 * from 1024 ns, reported in µs as the bucket's highest value (HdrHistogram
 * with 2 significant digits): a 3 ms DEBUG SLEEP lands in the 4227 µs one.
 * Subcommands are listed under their container; unknown names are skipped. */
TEST_P(Latency, HistogramPerCommand) {
    for (int i = 0; i < 3; i++) ASSERT_EQ(call({"SET", "k", "v"}), OK);
    ASSERT_EQ(call({"GET", "k"}), bulk("v"));
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0.003"}), OK);
    auto h = histograms({"set", "GET", "debug", "nosuch", "config"});
    ASSERT_EQ(h.size(), 3u);
    EXPECT_EQ(h["set"].calls, 3);
    EXPECT_EQ(h["get"].calls, 1);
    EXPECT_EQ(h["debug"].calls, 1);
    const long long debug_us = commandUsec("debug");
    ASSERT_GE(debug_us, 3000);
    EXPECT_EQ(h["debug"].buckets, (std::vector<std::pair<long long, long long>>{{histogramKeyFor(debug_us), 1}}));
    const std::set<long long> levels = {1,    2,    4,    8,     16,    33,    66,     132,
                                        264,  528,  1056, 2113,  4227,  8454,  16908,  33816,
                                        67633, 135266, 270532, 541065, 1073741};
    for (auto &[name, hist] : h) {
        long long prev = 0;
        for (auto [usec, cumulative] : hist.buckets) {
            EXPECT_EQ(levels.count(usec), 1u) << name << " " << usec;
            EXPECT_GT(cumulative, prev) << name;
            prev = cumulative;
        }
        EXPECT_EQ(prev, hist.calls) << name;
    }

    ASSERT_EQ(call({"CONFIG", "SET", "latency-tracking", "no"}), OK);
    ASSERT_EQ(call({"GET", "k"}), bulk("v"));
    EXPECT_EQ(histograms({"get"})["get"].calls, 1);
    ASSERT_EQ(call({"CONFIG", "SET", "latency-tracking", "yes"}), OK);
    auto config = histograms({"config"});
    EXPECT_EQ(config.count("config|set"), 1u);
    EXPECT_GE(histograms().size(), 4u); /* all of them */

    ASSERT_EQ(call({"CONFIG", "RESETSTAT"}), OK);
    auto after = histograms();
    ASSERT_EQ(after.size(), 1u); /* CONFIG RESETSTAT's own call came after */
    EXPECT_EQ(after.count("config|resetstat"), 1u);
}

/* INFO latencystats: one line per command with a histogram, the
 * percentiles latency-tracking-info-percentiles names, in µs with three
 * decimals; nothing with latency-tracking off; CONFIG RESETSTAT empties it. */
TEST_P(Latency, InfoLatencystats) {
    ASSERT_EQ(call({"SET", "k", "v"}), OK);
    Info i = info(*c, {"latencystats"});
    EXPECT_EQ(i.sections, (std::vector<std::string>{"# Latencystats"}));
    const std::regex line(R"(p50=\d+\.\d{3},p99=\d+\.\d{3},p99\.9=\d+\.\d{3})");
    EXPECT_TRUE(std::regex_match(i.fields["latency_percentiles_usec_set"], line))
        << i.fields["latency_percentiles_usec_set"];

    ASSERT_EQ(call({"CONFIG", "SET", "latency-tracking-info-percentiles", "0 99.99 100"}), OK);
    ASSERT_EQ(call({"DEBUG", "SLEEP", "0.003"}), OK);
    i = info(*c, {"latencystats"});
    const std::string debug = i.fields["latency_percentiles_usec_debug"];
    EXPECT_TRUE(std::regex_match(debug, std::regex(R"(p0=\d+\.\d{3},p99\.99=\d+\.\d{3},p100=\d+\.\d{3})"))) << debug;
    /* One sample: p0 is the lowest value of its range, the others the highest. */
    const long long ns = commandUsec("debug") * 1000;
    char want[128];
    snprintf(want, sizeof(want), "p0=%.3f,p99.99=%.3f,p100=%.3f", hdrLowest(ns) / 1000.0, hdrHighest(ns) / 1000.0,
             hdrHighest(ns) / 1000.0);
    EXPECT_EQ(debug, want);
    EXPECT_EQ(i.fields.count("latency_percentiles_usec_config|set"), 1u);

    ASSERT_EQ(call({"CONFIG", "SET", "latency-tracking", "no"}), OK);
    i = info(*c, {"latencystats"});
    EXPECT_TRUE(i.fields.empty());
    ASSERT_EQ(call({"CONFIG", "SET", "latency-tracking", "yes"}), OK);
    ASSERT_EQ(call({"CONFIG", "RESETSTAT"}), OK);
    i = info(*c, {"latencystats"});
    EXPECT_EQ(i.fields.size(), 1u); /* RESETSTAT's own */
    EXPECT_EQ(i.fields.count("latency_percentiles_usec_config|resetstat"), 1u);
}

TEST_P(Latency, ErrorsAndHelp) {
    EXPECT_EQ(call({"LATENCY", "HISTORY"}), arityErr("latency|history"));
    EXPECT_EQ(call({"LATENCY", "GRAPH"}), arityErr("latency|graph"));
    EXPECT_EQ(call({"LATENCY", "LATEST", "x"}), arityErr("latency|latest"));
    EXPECT_EQ(call({"LATENCY", "DOCTOR", "x"}), arityErr("latency|doctor"));
    EXPECT_EQ(call({"LATENCY", "FOO"}), err("ERR unknown subcommand 'FOO'. Try LATENCY HELP."));
    Reply help = c->call({"LATENCY", "HELP"});
    ASSERT_EQ(help.elements.size(), 17u) << help;
    EXPECT_EQ(help.elements[0].str, "LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
    EXPECT_EQ(help.elements[12].str, "HISTOGRAM [COMMAND ...]");
}

}  // namespace
