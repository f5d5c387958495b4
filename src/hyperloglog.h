/* hyperloglog.h — HyperLogLog: PFADD, PFCOUNT, PFMERGE, PFDEBUG, PFSELFTEST (Redis's hyperloglog.c). */
#pragma once

struct client;

void pfaddCommand(client *c);
void pfcountCommand(client *c);
void pfmergeCommand(client *c);
void pfdebugCommand(client *c);
void pfselftestCommand(client *c);
