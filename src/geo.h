/* geo.h — geo commands on sorted sets (Redis's geo.c). */
#pragma once

#include <span>
#include <string_view>

#include "db.h"

struct client;

void geoaddCommand(client *c);
void geoposCommand(client *c);
void geodistCommand(client *c);
void geohashCommand(client *c);
void geosearchCommand(client *c);
void geosearchstoreCommand(client *c);
void georadiusCommand(client *c);
void georadiusroCommand(client *c);
void georadiusbymemberCommand(client *c);
void georadiusbymemberroCommand(client *c);

/* getkeys procedures (redisCommand::getkeys_proc) */
int georadiusGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
