/* rdb.cpp — RDB snapshots (Redis's rdb.c). Work in progress. */
#include "rdb.h"

#include "server.h"

void saveCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void bgsaveCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void lastsaveCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void backgroundSaveDoneHandler(int, int) {}
void infoPersistence(std::string &out) { InfoSection(out, "Persistence").field("loading", 0); }
