/* cluster.h — DUMP, RESTORE and MIGRATE (the part of Redis's cluster.c that does not need a cluster). */
#pragma once

#include <span>
#include <string_view>

#include "db.h"

struct client;

void dumpCommand(client *c);
void restoreCommand(client *c);
void migrateCommand(client *c);

/* getkeys procedures (redisCommand::getkeys_proc) */
int migrateGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
