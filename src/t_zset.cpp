/* t_zset.cpp — STUB: being written (issue 6). Every command replies an error
 * until its implementation lands. */
#include "server.h"

void zaddCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zincrbyCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zremCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zscoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zmscoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zcardCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zcountCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrankCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrevrankCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrangeCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrangebyscoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrevrangebyscoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrangebylexCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrevrangebylexCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrevrangeCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zremrangebyscoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zremrangebyrankCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zremrangebylexCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zlexcountCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zpopminCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zpopmaxCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrangestoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zunionstoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zinterstoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zunionCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zinterCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zdiffCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zdiffstoreCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zintercardCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zrandmemberCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zmpopCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void zscanCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void bzpopminCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void bzpopmaxCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void bzmpopCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
