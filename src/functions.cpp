/* functions.cpp — Redis 7 functions: FUNCTION LOAD/DELETE/FLUSH/DUMP/RESTORE/LIST/STATS/KILL/HELP, FCALL, FCALL_RO (Redis's functions.c; the Lua engine is function_lua.cpp).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "functions.h"

#include "networking.h"

void fcallCommand(client *c) { addReplyError(c, "not implemented yet"); }
void fcallroCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionLoadCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionDeleteCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionFlushCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionDumpCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionRestoreCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionListCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionStatsCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionKillCommand(client *c) { addReplyError(c, "not implemented yet"); }
void functionHelpCommand(client *c) { addReplyError(c, "not implemented yet"); }
int functionGetKeys(const redisCommand *, std::span<const std::string_view>, getKeysResult *) { return 0; }
