/* rdb.h — RDB snapshots: SAVE, BGSAVE, loading at start-up (Redis's rdb.c).
 * Work in progress: the persistence issue fills this in.
 */
#pragma once

void backgroundSaveDoneHandler(int exitcode, int bysignal);
