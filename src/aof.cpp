/* aof.cpp — the append-only file (Redis's aof.c). Work in progress. */
#include "aof.h"

#include "server.h"

void bgrewriteaofCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void backgroundRewriteDoneHandler(int, int) {}
