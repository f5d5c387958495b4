/* aof.h — the append-only file (Redis's aof.c). Work in progress. */
#pragma once

void backgroundRewriteDoneHandler(int exitcode, int bysignal);
