/* latency.cpp — the latency monitor and command latency histograms
 * (Redis's latency.c). CONTRACT STUB: the helper owning this file replaces it. */
#include "latency.h"

#include "networking.h"

void latencyAddSampleIfNeeded(const char *, long long) {}
void updateCommandLatencyHistogram(redisCommand *, long long) {}
void infoLatencyStats(std::string &) {}
void latencyLatestCommand(client *c) { addReplyError(c, "not implemented yet"); }
void latencyHistoryCommand(client *c) { addReplyError(c, "not implemented yet"); }
void latencyResetCommand(client *c) { addReplyError(c, "not implemented yet"); }
void latencyGraphCommand(client *c) { addReplyError(c, "not implemented yet"); }
void latencyDoctorCommand(client *c) { addReplyError(c, "not implemented yet"); }
void latencyHistogramCommand(client *c) { addReplyError(c, "not implemented yet"); }
void latencyHelpCommand(client *c) { addReplyError(c, "not implemented yet"); }
