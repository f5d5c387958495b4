/* t_set.cpp — STUB: being written (issue 6). Every command replies an error
 * until its implementation lands. */
#include "server.h"

void saddCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sremCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void scardCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sismemberCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void smismemberCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void smembersCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void spopCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void srandmemberCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void smoveCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sinterCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sinterstoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sunionCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sunionstoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sdiffCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sdiffstoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sintercardCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void sscanCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
