/* latency.h — the latency monitor (Redis's latency.c: events over
 * latency-monitor-threshold ms, by name) and the per-command latency
 * histograms behind INFO latencystats (Redis 7's latency-tracking).
 * CONTRACT STUB: the helper owning this file replaces it. */
#pragma once

#include <string>

struct client;
struct redisCommand;

/* Records `duration_ms` for `event` ("command", "fast-command",
 * "expire-cycle", "fork", "aof-fsync-always"...) if it reaches the threshold. */
void latencyAddSampleIfNeeded(const char *event, long long duration_ms);
/* call()'s hook (latency-tracking): one sample of `cmd`'s histogram. */
void updateCommandLatencyHistogram(redisCommand *cmd, long long duration_ns);
/* INFO latencystats. */
void infoLatencyStats(std::string &out);

void latencyLatestCommand(client *c);
void latencyHistoryCommand(client *c);
void latencyResetCommand(client *c);
void latencyGraphCommand(client *c);
void latencyDoctorCommand(client *c);
void latencyHistogramCommand(client *c);
void latencyHelpCommand(client *c);
