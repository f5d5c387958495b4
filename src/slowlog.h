/* slowlog.h — the slow log (Redis's slowlog.c): commands that ran longer
 * than slowlog-log-slower-than µs, the newest first, at most slowlog-max-len.
 * An entry keeps the arguments as the client sent them (original_argv:
 * before a rewrite, with passwords redacted), at most 32 of them, each cut
 * to 128 bytes, with who sent them. */
#pragma once

struct client;
struct redisCommand;

/* call()'s hook (and updateStatsOnUnblock's, for a served blocked command):
 * logs the command `c` ran as `cmd` if it took `duration_us` or more. */
void slowlogPushCurrentCommand(client *c, redisCommand *cmd, long long duration_us);

void slowlogGetCommand(client *c);
void slowlogLenCommand(client *c);
void slowlogResetCommand(client *c);
void slowlogHelpCommand(client *c);
