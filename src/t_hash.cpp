/* t_hash.cpp — STUB: being written (issue 6). Every command replies an error
 * until its implementation lands. */
#include "server.h"

void hsetCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hsetnxCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hmsetCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hgetCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hmgetCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hdelCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hlenCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hstrlenCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hexistsCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hgetallCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hkeysCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hvalsCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hincrbyCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hincrbyfloatCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hrandfieldCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void hscanCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
