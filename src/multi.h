/* multi.h — transactions (Redis's multi.c): MULTI/EXEC/DISCARD and
 * optimistic locking with WATCH. The per-client state (multiState,
 * watchedKey) is part of the client, in networking.h.
 * The invariants are in multi.cpp.
 */
#pragma once

#include <string_view>

struct client;
struct redisDb;

void queueMultiCommand(client *c);
void flagTransaction(client *c);
void execCommandAbort(client *c, std::string_view error);
void discardTransaction(client *c);
void unwatchAllKeys(client *c);
void touchWatchedKey(redisDb *db, std::string_view key);
void touchAllWatchedKeysInDb(redisDb *emptied, redisDb *replaced_with);


/* The transaction commands (the command table is in commands.cpp). */
void discardCommand(client *c);
void execCommand(client *c);
void multiCommand(client *c);
void unwatchCommand(client *c);
void watchCommand(client *c);
