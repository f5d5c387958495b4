/* latency.h — the latency monitor (Redis's latency.c: events over
 * latency-monitor-threshold ms, by name, the last 160 seconds of each) and
 * the per-command latency histograms behind INFO latencystats and LATENCY
 * HISTOGRAM (Redis 7's latency-tracking). */
#pragma once

#include <string>

struct client;
struct redisCommand;

/* Redis's latencyStartMonitor / latencyEndMonitor: an event's duration is
 * measured only while the monitor is on (the clock is not free). */
long long latencyStartMonitor();
long long latencyEndMonitor(long long start);
/* Records `duration_ms` for `event` ("command", "fast-command",
 * "expire-cycle", "fork", "aof-fsync-always"...) if it reaches the threshold. */
void latencyAddSampleIfNeeded(const char *event, long long duration_ms);
/* call()'s hook (latency-tracking): one sample of `cmd`'s histogram, whose
 * memory is taken on the command's first sample. */
void updateCommandLatencyHistogram(redisCommand *cmd, long long duration_ns);
/* CONFIG RESETSTAT: every command's histogram goes. */
void resetCommandLatencyHistograms();
/* INFO latencystats. */
void infoLatencyStats(std::string &out);

void latencyLatestCommand(client *c);
void latencyHistoryCommand(client *c);
void latencyResetCommand(client *c);
void latencyGraphCommand(client *c);
void latencyDoctorCommand(client *c);
void latencyHistogramCommand(client *c);
void latencyHelpCommand(client *c);
