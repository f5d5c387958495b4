/* slowlog.h — the slow log (Redis's slowlog.c): commands that ran longer
 * than slowlog-log-slower-than µs, the newest first, at most slowlog-max-len.
 * CONTRACT STUB: the helper owning this file replaces it. */
#pragma once

struct client;
struct redisCommand;

/* call()'s hook: logs the command `c` just ran (as `cmd`) if it was slow. */
void slowlogPushCurrentCommand(client *c, redisCommand *cmd, long long duration_us);

void slowlogGetCommand(client *c);
void slowlogLenCommand(client *c);
void slowlogResetCommand(client *c);
void slowlogHelpCommand(client *c);
