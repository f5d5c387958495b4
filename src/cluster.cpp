/* cluster.cpp — DUMP, RESTORE and MIGRATE (the part of Redis's cluster.c that does not need a cluster).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "cluster.h"

#include "networking.h"

void dumpCommand(client *c) { addReplyError(c, "not implemented yet"); }
void restoreCommand(client *c) { addReplyError(c, "not implemented yet"); }
void migrateCommand(client *c) { addReplyError(c, "not implemented yet"); }
int migrateGetKeys(const redisCommand *, std::span<const std::string_view>, getKeysResult *) { return 0; }
