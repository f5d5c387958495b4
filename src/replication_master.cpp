/* replication_master.cpp — the master's side of replication (Redis's
 * replication.c, its first half): the backlog, feeding the replicas,
 * SYNC/PSYNC, REPLCONF, the cron's pings, min-replicas, WAIT. See
 * replication.h. */
#include "replication.h"

#include "networking.h"
#include "server.h"

/* Stubs until the helper's branch lands (contract commit). */
void replicationFeedSlaves() {}
void feedReplicationBuffer(std::string_view) {}
void createReplicationBacklog() {}
void freeReplicationBacklog() {}
void changeReplicationId() {}
void clearReplicationId2() {}
void shiftReplicationId() {}
void updateSlavesWaitingBgsave(int, int) {}
void refreshGoodSlavesCount() {}
bool checkGoodReplicasStatus() { return true; }
int replicationCountAcksByOffset(long long) { return 0; }
void replicationCron() { replicationCronReplica(); }
void replicationBeforeSleep() {}
bool updateReplBacklogSize(const char **) { return true; }
bool updateGoodSlaves(const char **) { return true; }
void syncCommand(client *c) { addReplyError(c, "not yet"); }
void replconfCommand(client *c) { addReplyError(c, "not yet"); }
void waitCommand(client *c) { addReplyError(c, "not yet"); }
