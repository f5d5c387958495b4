/* hyperloglog.cpp — HyperLogLog: PFADD, PFCOUNT, PFMERGE, PFDEBUG, PFSELFTEST (Redis's hyperloglog.c).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "hyperloglog.h"

#include "networking.h"

void pfaddCommand(client *c) { addReplyError(c, "not implemented yet"); }
void pfcountCommand(client *c) { addReplyError(c, "not implemented yet"); }
void pfmergeCommand(client *c) { addReplyError(c, "not implemented yet"); }
void pfdebugCommand(client *c) { addReplyError(c, "not implemented yet"); }
void pfselftestCommand(client *c) { addReplyError(c, "not implemented yet"); }
