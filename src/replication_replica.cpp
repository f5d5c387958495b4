/* replication_replica.cpp — the replica's side of replication (Redis's
 * replication.c, its second half): REPLICAOF, the handshake, receiving and
 * loading the RDB, the master's connection as a client, PSYNC after a
 * dropped link, INFO replication and ROLE. See replication.h. */
#include "replication.h"

#include "networking.h"
#include "server.h"

/* Stubs until the helper's branch lands (contract commit). */
void replicationSetMaster(const std::string &, int) {}
void replicationUnsetMaster() {}
void replicationCronReplica() {}
void replicationSendAck() {}
void genReplicationInfoString(std::string &out) {
    InfoSection(out, "Replication")
        .field("role", "master")
        .field("connected_slaves", 0)
        .field("master_failover_state", "no-failover")
        .field("master_repl_offset", 0);
}
void replicaofCommand(client *c) { addReplyError(c, "not yet"); }
void roleCommand(client *c) { addReplyError(c, "not yet"); }
