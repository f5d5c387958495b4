/* replication.h — master/replica replication (Redis's replication.c, in
 * two files: replication_master.cpp is the master's side, with the
 * backlog and WAIT; replication_replica.cpp the replica's).
 *
 * The master's side:
 *   - every execution unit propagation closes (server.h) is also written,
 *     as the AOF would write it but with its own SELECT state
 *     (server.slaveseldb), to the backlog and to the output buffer of every
 *     replica past WAIT_BGSAVE_START (replicationFeedSlaves);
 *   - SYNC / PSYNC: a PSYNC whose replid and offset the backlog still
 *     covers gets +CONTINUE and the missing bytes (a partial resync);
 *     anything else gets +FULLRESYNC <replid> <offset> and an RDB — written
 *     by a BGSAVE to disk and then sent from the file, or with
 *     repl-diskless-sync written by the child into a pipe and relayed to
 *     the replicas' sockets — while the writes meanwhile collect in the
 *     replica's output buffer, sent once the RDB is through;
 *   - REPLCONF listening-port / ip-address / capa / ACK / GETACK; a PING
 *     in the stream every repl-ping-replica-period; min-replicas-to-write;
 *   - WAIT: a BLOCKED_WAIT client (blocked.h), woken in beforeSleep when
 *     enough replicas acknowledged its offset.
 * The replica's side: REPLICAOF host port starts the handshake (a state
 * per step, server.repl_state), the RDB is received into a temp file and
 * loaded, then the master's connection becomes a client (CLIENT_MASTER)
 * whose commands are applied and whose bytes are proxied to this server's
 * own backlog and replicas; when it drops, PSYNC from the cached replid and
 * offset continues where it stopped.
 *
 * Invariants:
 *  - master_repl_offset counts every byte ever written to the stream of
 *    this history; the backlog holds its last repl_backlog_histlen bytes,
 *    the first of which is at offset repl_backlog_off.
 *  - a replica's output buffer, once it is past WAIT_BGSAVE_START, holds
 *    the stream from exactly the offset its RDB (or +CONTINUE) stands at.
 *  - on a replica nothing but the master's stream changes the dataset
 *    (replica-read-only, keys do not expire on their own), so the replica
 *    equals the master at the same offset.
 */
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

struct client;

/* ---- the master's side (replication_master.cpp) ------------------------ */

/* Propagation's replication target (registered with server.h's
 * registerReplicationFeed): the execution unit, its ops meant for the
 * replicas, into the backlog and the replicas' buffers. */
void replicationFeedSlaves();
/* Bytes of the stream as they are (a PING, or what a replica received from
 * its own master): into the backlog and to every replica. */
void feedReplicationBuffer(std::string_view stream);

/* The backlog, created when the first replica attaches. */
void createReplicationBacklog();
void freeReplicationBacklog();
/* A new replication ID (a new history), and the promotion's shift: the
 * old ID becomes replid2, valid up to the current offset. */
void changeReplicationId();
void clearReplicationId2();
void shiftReplicationId();

/* A BGSAVE ended (rdb.cpp's backgroundSaveDoneHandler): the replicas that
 * waited for it get the file, or are started again on failure. */
void updateSlavesWaitingBgsave(int bgsaveerr, int type);
/* The replicas whose lag is at most min-replicas-max-lag; false when
 * min-replicas-to-write is set and fewer than that are good. */
void refreshGoodSlavesCount();
bool checkGoodReplicasStatus();
/* How many replicas acknowledged `offset` or more. */
int replicationCountAcksByOffset(long long offset);
/* freeClient's step for a replica (registerFreeClientProc, networking.h). */
void replicationFreeSlave(client *c);

/* serverCron, once a second: timeouts, pings, the backlog's TTL, diskless
 * delays, the replica's side (replicationCronReplica). */
void replicationCron();
/* beforeSleep: REPLCONF GETACK to the replicas if a WAIT asked, and the
 * WAIT clients that have their acknowledgements. */
void replicationBeforeSleep();
/* rdb-del-sync-files: a server without persistence (no save points, no
 * AOF) keeps no RDB file that replication made. allPersistenceDisabled is
 * Redis's; removeSyncRdbFile unlinks dbfilename, its blocks freed by the
 * bio thread's close (Redis's bg_unlink). */
bool allPersistenceDisabled();
void removeSyncRdbFile(const char *why);
/* CONFIG SET apply hooks. */
bool updateReplBacklogSize(const char **err);
bool updateGoodSlaves(const char **err);

/* The commands (the command table is in commands.cpp). */
void syncCommand(client *c);  /* SYNC and PSYNC */
void replconfCommand(client *c);
void waitCommand(client *c);

/* ---- the replica's side (replication_replica.cpp) ----------------------- */

/* REPLICAOF host port: drop the current link, connect. */
void replicationSetMaster(const std::string &ip, int port);
/* REPLICAOF NO ONE: a master again, continuing this history (shiftReplicationId). */
void replicationUnsetMaster();
/* Once a second (from replicationCron): connect, handshake and transfer
 * timeouts, REPLCONF ACK to the master. */
void replicationCronReplica();
void replicationSendAck();
/* At shutdown: closes the link to the master still being set up (its
 * connection leaves the event loop, which must outlive it). */
void replicationCloseLinkOnShutdown();
/* Networking's calls up (networking.h): freeClient's step for the master's
 * connection (registerFreeClientProc), and each request of its stream once
 * run (registerMasterStreamProcessed). */
void replicationHandleMasterDisconnection(client *c);
void replicationMasterStreamProcessed(client *c, std::string_view request);
/* The `replicaof` directive of redis.conf, `slaveof` its alias
 * (registerConfigDirective, config.h). */
bool loadReplicaofDirective(std::span<const std::string> argv, std::string &err);
std::vector<std::string> rewriteReplicaofDirective();

/* INFO's Replication section; ROLE. */
void genReplicationInfoString(std::string &out);
void replicaofCommand(client *c); /* REPLICAOF and SLAVEOF */
void roleCommand(client *c);
