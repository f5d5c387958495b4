/* t_string.h — the string commands (Redis's t_string.c). */
#pragma once

#include <string_view>

struct client;
struct redisDb;
struct redisObject;
using robj = redisObject;

/* Before an in-place edit of a string value (APPEND, SETRANGE, SETBIT...):
 * a value that is shared or not RAW (INT and EMBSTR cannot grow) is
 * replaced in the keyspace by a private RAW copy, which is returned
 * (Redis's dbUnshareStringValue). */
robj *dbUnshareStringValue(redisDb *db, std::string_view key, robj *o);

/* The string commands (the command table is in commands.cpp). */
void appendCommand(client *c);
void decrCommand(client *c);
void decrbyCommand(client *c);
void getCommand(client *c);
void getdelCommand(client *c);
void getexCommand(client *c);
void getrangeCommand(client *c);
void lcsCommand(client *c);
void getsetCommand(client *c);
void incrCommand(client *c);
void incrbyCommand(client *c);
void incrbyfloatCommand(client *c);
void mgetCommand(client *c);
void msetCommand(client *c);
void msetnxCommand(client *c);
void psetexCommand(client *c);
void setCommand(client *c);
void setexCommand(client *c);
void setnxCommand(client *c);
void setrangeCommand(client *c);
void strlenCommand(client *c);
