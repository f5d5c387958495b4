/* sort.h — SORT and SORT_RO (Redis's sort.c). */
#pragma once

#include <span>
#include <string_view>

#include "db.h"

struct client;

void sortCommand(client *c);
void sortroCommand(client *c);

/* getkeys procedures (redisCommand::getkeys_proc) */
int sortGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int sortROGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
