/* scripting.cpp — Lua scripting (Redis's eval.c). Work in progress. */
#include "scripting.h"

#include "server.h"

void evalCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void evalShaCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void evalRoCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void evalShaRoCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void scriptLoadCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void scriptExistsCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void scriptFlushCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void scriptKillCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void scriptHelpCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
