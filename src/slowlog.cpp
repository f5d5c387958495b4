/* slowlog.cpp — the slow log (Redis's slowlog.c).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "slowlog.h"

#include "networking.h"

void slowlogPushCurrentCommand(client *, redisCommand *, long long) {}
void slowlogGetCommand(client *c) { addReplyError(c, "not implemented yet"); }
void slowlogLenCommand(client *c) { addReplyError(c, "not implemented yet"); }
void slowlogResetCommand(client *c) { addReplyError(c, "not implemented yet"); }
void slowlogHelpCommand(client *c) { addReplyError(c, "not implemented yet"); }
