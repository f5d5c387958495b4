/* functions.h — Redis 7 functions: FUNCTION LOAD/DELETE/FLUSH/DUMP/RESTORE/LIST/STATS/KILL/HELP, FCALL, FCALL_RO (Redis's functions.c; the Lua engine is function_lua.cpp). */
#pragma once

#include <span>
#include <string_view>

#include "db.h"

struct client;

void fcallCommand(client *c);
void fcallroCommand(client *c);
void functionLoadCommand(client *c);
void functionDeleteCommand(client *c);
void functionFlushCommand(client *c);
void functionDumpCommand(client *c);
void functionRestoreCommand(client *c);
void functionListCommand(client *c);
void functionStatsCommand(client *c);
void functionKillCommand(client *c);
void functionHelpCommand(client *c);

/* getkeys procedures (redisCommand::getkeys_proc) */
int functionGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
