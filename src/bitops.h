/* bitops.h — bitmaps on the string type: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD (Redis's bitops.c). */
#pragma once

#include <span>
#include <string_view>

#include "db.h"

struct client;

void setbitCommand(client *c);
void getbitCommand(client *c);
void bitcountCommand(client *c);
void bitposCommand(client *c);
void bitopCommand(client *c);
void bitfieldCommand(client *c);
void bitfieldroCommand(client *c);

/* getkeys procedures (redisCommand::getkeys_proc) */
int bitfieldGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
