/* replication_master.cpp — replication's master side (Redis's replication.c,
 * its first half): the backlog, feeding the replicas, SYNC/PSYNC, REPLCONF,
 * the cron's pings, min-replicas, WAIT, and the diskless transfer's child
 * (rdbSaveToSlavesSockets, in Redis's rdb.c). See replication.h.
 *
 * The design is Redis 6's: the backlog is a circular buffer of
 * repl_backlog_size bytes (server.repl_backlog, repl_backlog_idx where the
 * next byte goes, repl_backlog_histlen bytes of history whose first is at
 * stream offset repl_backlog_off), and each replica gets the stream in its
 * own client output buffer (addReplyProto), which networking sends once the
 * replica is online; the `slave` class of client-output-buffer-limit caps it.
 *
 * A replica's life (client::replstate):
 *   SYNC/PSYNC      WAIT_BGSAVE_START: no child is producing an RDB for it yet;
 *   a BGSAVE forks  WAIT_BGSAVE_END: +FULLRESYNC sent, the stream collects
 *                   in its output buffer from the fork's offset on;
 *   disk: the child ended  SEND_BULK: "$<len>\r\n" and the file, from a write
 *                   handler (sendBulkToSlave);
 *   diskless: the child writes into a pipe whose bytes the parent relays to
 *                   the replicas' sockets as they come (rdbPipeReadHandler);
 *   ONLINE          the buffered stream and what follows is sent; after a
 *                   diskless transfer only from the replica's first ACK, so
 *                   that no stream byte follows the RDB's end mark in the
 *                   same read.
 */
#include "replication.h"

#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <vector>

#include "bio.h"
#include "blocked.h"
#include "childinfo.h"
#include "networking.h"
#include "object.h"
#include "rdb.h"
#include "server.h"
#include "util.h"

/* ========================================================================
 * Names and IDs
 * ====================================================================== */

/* "ip:port" as the replica announced itself (REPLCONF ip-address /
 * listening-port), for the log (Redis's replicationGetSlaveName). */
static std::string replicationGetSlaveName(const client *c) {
    std::string ip = c->slave_addr.empty() ? clientPeerIp(c) : c->slave_addr;
    if (ip.empty()) return "client id #" + std::to_string(c->id);
    if (c->slave_listening_port) {
        if (ip.find(':') != std::string::npos) return "[" + ip + "]:" + std::to_string(c->slave_listening_port);
        return ip + ":" + std::to_string(c->slave_listening_port);
    }
    return ip + ":<unknown-replica-port>";
}

void changeReplicationId() {
    char id[CONFIG_RUN_ID_SIZE];
    getRandomHexChars(id, sizeof(id));
    server.replid.assign(id, sizeof(id));
}

void clearReplicationId2() {
    server.replid2.assign(CONFIG_RUN_ID_SIZE, '0');
    server.second_replid_offset = -1;
}

/* A promoted replica keeps its master's history valid up to here, so its
 * own replicas can PSYNC with the old ID. */
void shiftReplicationId() {
    server.replid2 = server.replid;
    /* The offset is the next byte a replica of the old history would ask
     * for, hence +1 (as Redis). */
    server.second_replid_offset = server.master_repl_offset + 1;
    changeReplicationId();
    serverLog(LL_NOTICE, "Setting secondary replication ID to %s, valid up to offset: %lld. New replication ID is %s",
              server.replid2.c_str(), server.second_replid_offset, server.replid.c_str());
}

/* ========================================================================
 * The backlog
 * ====================================================================== */

void createReplicationBacklog() {
    server.repl_backlog = std::make_unique_for_overwrite<char[]>(static_cast<size_t>(server.repl_backlog_size));
    server.repl_backlog_histlen = 0;
    server.repl_backlog_idx = 0;
    /* Empty, but the next byte of the stream would be its first. */
    server.repl_backlog_off = server.master_repl_offset + 1;
}

void freeReplicationBacklog() { server.repl_backlog.reset(); }

/* CONFIG SET repl-backlog-size: the history is dropped with the old buffer
 * (as Redis 6: the replicas that are online need none of it). */
bool updateReplBacklogSize(const char **) {
    if (server.repl_backlog_size < CONFIG_REPL_BACKLOG_MIN_SIZE) server.repl_backlog_size = CONFIG_REPL_BACKLOG_MIN_SIZE;
    if (server.repl_backlog) {
        freeReplicationBacklog();
        createReplicationBacklog();
    }
    return true;
}

static void feedReplicationBacklog(std::string_view bytes) {
    server.master_repl_offset += static_cast<long long>(bytes.size());
    const long long size = server.repl_backlog_size;
    while (!bytes.empty()) {
        size_t thislen = std::min<size_t>(bytes.size(), static_cast<size_t>(size - server.repl_backlog_idx));
        memcpy(server.repl_backlog.get() + server.repl_backlog_idx, bytes.data(), thislen);
        server.repl_backlog_idx += static_cast<long long>(thislen);
        if (server.repl_backlog_idx == size) server.repl_backlog_idx = 0;
        server.repl_backlog_histlen += static_cast<long long>(thislen);
        bytes.remove_prefix(thislen);
    }
    if (server.repl_backlog_histlen > size) server.repl_backlog_histlen = size;
    server.repl_backlog_off = server.master_repl_offset - server.repl_backlog_histlen + 1;
}

/* The backlog from `offset` on, into c's output (a partial resync).
 * Returns the bytes queued. */
static long long addReplyReplicationBacklog(client *c, long long offset) {
    if (server.repl_backlog_histlen == 0) return 0;
    const long long size = server.repl_backlog_size;
    long long skip = offset - server.repl_backlog_off;
    long long j = (server.repl_backlog_idx + (size - server.repl_backlog_histlen)) % size;
    j = (j + skip) % size;
    long long len = server.repl_backlog_histlen - skip;
    const long long total = len;
    while (len) {
        long long thislen = std::min(size - j, len);
        addReplyProto(c, server.repl_backlog.get() + j, static_cast<size_t>(thislen));
        len -= thislen;
        j = 0;
    }
    return total;
}

/* ========================================================================
 * Feeding the replicas
 * ====================================================================== */

void feedReplicationBuffer(std::string_view stream) {
    if (!server.repl_backlog) return;
    feedReplicationBacklog(stream);
    for (client *slave : server.slaves) {
        /* Its RDB, not yet forked, will contain these writes. */
        if (slave->replstate == SLAVE_STATE_WAIT_BGSAVE_START) continue;
        addReplyProto(slave, stream.data(), stream.size());
    }
}

void replicationFeedSlaves() {
    static std::string stream; /* reused: no allocation per command */
    if (!server.repl_backlog || !server.masterhost.empty()) return;
    stream.clear();
    catExecutionUnit(stream, PROPAGATE_REPL, server.slaveseldb);
    if (!stream.empty()) feedReplicationBuffer(stream);
}

/* ========================================================================
 * Replicas going online
 * ====================================================================== */

/* The RDB is through: the stream collected meanwhile follows (now, or on
 * the first ACK after a diskless transfer). */
static void replicaPutOnline(client *slave, bool start_stream_on_ack) {
    slave->replstate = SLAVE_STATE_ONLINE;
    slave->repl_ack_time = server.unixtime; /* no false timeout */
    slave->repl_start_cmd_stream_on_ack = start_stream_on_ack;
    if (!start_stream_on_ack && clientHasPendingReplies(slave)) putClientInPendingWriteQueue(slave);
    refreshGoodSlavesCount();
    serverLog(LL_NOTICE, "Synchronization with replica %s succeeded", replicationGetSlaveName(slave).c_str());
}

static void replicaStartCommandStream(client *slave) {
    slave->repl_start_cmd_stream_on_ack = false;
    if (clientHasPendingReplies(slave)) putClientInPendingWriteQueue(slave);
}

/* The disk mode's write handler: "$<len>\r\n", then the file, a chunk per
 * call; then the replica is online. */
static void sendBulkToSlave(connection *conn) {
    client *slave = static_cast<client *>(connGetPrivateData(conn));
    if (!slave->replpreamble.empty()) {
        ssize_t n = connWrite(conn, slave->replpreamble.data(), slave->replpreamble.size());
        if (n == -1) {
            if (connGetState(conn) == CONN_STATE_CONNECTED) return;
            serverLog(LL_VERBOSE, "Write error sending RDB preamble to replica: %s", connGetLastError(conn));
            return freeClient(slave);
        }
        server.stat_net_repl_output_bytes += n;
        slave->replpreamble.erase(0, static_cast<size_t>(n));
        if (!slave->replpreamble.empty()) return;
    }
    char buf[PROTO_IOBUF_LEN];
    ssize_t buflen = pread(slave->repldbfd, buf, sizeof(buf), slave->repldboff);
    if (buflen <= 0) {
        serverLog(LL_WARNING, "Read error sending DB to replica: %s", buflen == 0 ? "premature EOF" : strerror(errno));
        return freeClient(slave);
    }
    ssize_t n = connWrite(conn, buf, static_cast<size_t>(buflen));
    if (n == -1) {
        if (connGetState(conn) == CONN_STATE_CONNECTED) return;
        serverLog(LL_WARNING, "Write error sending DB to replica: %s", connGetLastError(conn));
        return freeClient(slave);
    }
    slave->repldboff += n;
    server.stat_net_repl_output_bytes += n;
    if (slave->repldboff != slave->repldbsize) return;
    close(slave->repldbfd);
    slave->repldbfd = -1;
    connSetWriteHandler(conn, nullptr);
    replicaPutOnline(slave, false);
}

/* Starts sending the saved file to a replica that waited for it. */
static bool replicaStartSendingFile(client *slave) {
    int fd = open(server.rdb_filename.c_str(), O_RDONLY);
    struct stat st {};
    if (fd == -1 || fstat(fd, &st) == -1) {
        serverLog(LL_WARNING, "SYNC failed. Can't open/stat DB after BGSAVE: %s", strerror(errno));
        if (fd != -1) close(fd);
        return false;
    }
    slave->repldbfd = fd;
    slave->repldboff = 0;
    slave->repldbsize = st.st_size;
    slave->replstate = SLAVE_STATE_SEND_BULK;
    slave->replpreamble = "$" + std::to_string(st.st_size) + "\r\n";
    return connSetWriteHandler(slave->conn.get(), sendBulkToSlave) == C_OK;
}

/* ========================================================================
 * Diskless: relaying the child's pipe to the replicas' sockets (Redis
 * 7.0's rdbPipeReadHandler, simplified: one chunk at a time; while a
 * replica's socket is full the pipe is not read, so the child waits).
 * ====================================================================== */

static struct {
    int fd = -1;                 /* the pipe's read end, -1: no transfer */
    std::vector<client *> conns; /* the replicas still receiving */
    std::unique_ptr<char[]> buf; /* the chunk being relayed ... */
    size_t buflen = 0;           /* ... its size; each conn's repldboff says how much of it went */
    int writing = 0;             /* conns with a write handler for the rest of the chunk */
} rdb_pipe;

static void rdbPipeReadHandler(aeEventLoop *, int, void *, int);

static void rdbPipeClose() {
    if (rdb_pipe.fd == -1) return;
    aeDeleteFileEvent(server.el.get(), rdb_pipe.fd, AE_READABLE);
    close(rdb_pipe.fd);
    rdb_pipe.fd = -1;
    for (client *c : rdb_pipe.conns)
        if (static_cast<size_t>(c->repldboff) < rdb_pipe.buflen) connSetWriteHandler(c->conn.get(), nullptr);
    rdb_pipe.conns.clear();
    rdb_pipe.writing = 0;
    rdb_pipe.buflen = 0;
}

/* A conn finished its part of the chunk: once all did, the pipe is read again. */
static void rdbPipeWriteDone() {
    if (--rdb_pipe.writing == 0 && rdb_pipe.fd != -1 &&
        aeCreateFileEvent(server.el.get(), rdb_pipe.fd, AE_READABLE, rdbPipeReadHandler, nullptr) == AE_ERR) {
        serverLog(LL_WARNING, "Diskless rdb transfer, can't read the pipe again");
        killRDBChild();
    }
}

/* A replica leaves the transfer (its socket failed, or it is freed). */
static void rdbPipeDropConn(client *c) {
    auto it = std::find(rdb_pipe.conns.begin(), rdb_pipe.conns.end(), c);
    if (it == rdb_pipe.conns.end()) return;
    rdb_pipe.conns.erase(it);
    if (static_cast<size_t>(c->repldboff) < rdb_pipe.buflen) {
        connSetWriteHandler(c->conn.get(), nullptr);
        c->repldboff = static_cast<long long>(rdb_pipe.buflen);
        rdbPipeWriteDone();
    }
    if (rdb_pipe.conns.empty() && rdb_pipe.fd != -1) {
        serverLog(LL_WARNING, "Diskless rdb transfer, last replica dropped, killing fork child.");
        rdbPipeClose();
        killRDBChild();
    }
}

static void rdbPipeWriteError(client *c) {
    serverLog(LL_WARNING, "Diskless rdb transfer, write error sending DB to replica: %s",
              connGetLastError(c->conn.get()));
    rdbPipeDropConn(c);
    freeClientAsync(c);
}

static void rdbPipeWriteHandler(connection *conn) {
    client *c = static_cast<client *>(connGetPrivateData(conn));
    ssize_t n = connWrite(conn, rdb_pipe.buf.get() + c->repldboff, rdb_pipe.buflen - static_cast<size_t>(c->repldboff));
    if (n == -1) {
        if (connGetState(conn) != CONN_STATE_CONNECTED) rdbPipeWriteError(c);
        return;
    }
    c->repldboff += n;
    server.stat_net_repl_output_bytes += n;
    if (static_cast<size_t>(c->repldboff) < rdb_pipe.buflen) return;
    connSetWriteHandler(conn, nullptr);
    rdbPipeWriteDone();
}

static void rdbPipeReadHandler(aeEventLoop *el, int, void *, int) {
    while (rdb_pipe.writing == 0 && rdb_pipe.fd != -1) {
        ssize_t n = read(rdb_pipe.fd, rdb_pipe.buf.get(), PROTO_IOBUF_LEN);
        if (n == -1) {
            if (errno == EAGAIN || errno == EINTR) return;
            serverLog(LL_WARNING, "Diskless rdb transfer, read error sending DB to replicas: %s", strerror(errno));
            rdbPipeClose();
            killRDBChild();
            return;
        }
        if (n == 0) {
            /* The child wrote everything: its exit puts the replicas online
             * (updateSlavesWaitingBgsave). */
            serverLog(LL_NOTICE, "Diskless rdb transfer, done reading from pipe, %d replicas still up.",
                      static_cast<int>(rdb_pipe.conns.size()));
            rdbPipeClose();
            return;
        }
        rdb_pipe.buflen = static_cast<size_t>(n);
        std::vector<client *> conns = rdb_pipe.conns; /* a failing write drops its conn */
        for (client *c : conns) {
            c->repldboff = 0;
            ssize_t w = connWrite(c->conn.get(), rdb_pipe.buf.get(), rdb_pipe.buflen);
            if (w == -1 && connGetState(c->conn.get()) != CONN_STATE_CONNECTED) {
                c->repldboff = n;
                rdbPipeWriteError(c);
                continue;
            }
            if (w > 0) {
                c->repldboff = w;
                server.stat_net_repl_output_bytes += w;
            }
            if (static_cast<size_t>(c->repldboff) < rdb_pipe.buflen) {
                if (connSetWriteHandler(c->conn.get(), rdbPipeWriteHandler) == C_ERR) {
                    c->repldboff = n;
                    rdbPipeWriteError(c);
                    continue;
                }
                rdb_pipe.writing++;
            }
        }
        if (rdb_pipe.writing && rdb_pipe.fd != -1) aeDeleteFileEvent(el, rdb_pipe.fd, AE_READABLE);
    }
}

/* ========================================================================
 * Full resynchronization: the BGSAVE for the replicas
 * ====================================================================== */

/* The reply to PSYNC, written to the socket at once (the output buffer
 * is for the stream from here on); the old SYNC gets none. */
static bool replicationSetupSlaveForFullResync(client *slave, long long offset) {
    slave->psync_initial_offset = offset;
    slave->replstate = SLAVE_STATE_WAIT_BGSAVE_END;
    /* The stream from here on starts with a SELECT. */
    server.slaveseldb = -1;
    if (slave->flags & CLIENT_PRE_PSYNC) return true;
    std::string reply = "+FULLRESYNC " + server.replid + " " + std::to_string(offset) + "\r\n";
    if (connWrite(slave->conn.get(), reply.data(), reply.size()) != static_cast<ssize_t>(reply.size())) {
        freeClientAsync(slave);
        return false;
    }
    return true;
}

static void dropSlaveWithError(client *slave, std::string_view err) {
    slave->replstate = 0;
    slave->flags &= ~CLIENT_SLAVE;
    server.slaves.remove(slave);
    if (server.slaves.empty()) server.repl_no_slaves_since = server.unixtime;
    addReplyError(slave, err);
    slave->flags |= CLIENT_CLOSE_AFTER_REPLY;
}

/* Diskless: the child writes into a pipe that the parent relays to every
 * replica waiting for a BGSAVE to start (all of them have the EOF capa). */
static int rdbSaveToSlavesSockets() {
    if (rdb_pipe.fd != -1) return C_ERR;
    char mark[CONFIG_RUN_ID_SIZE];
    getRandomHexChars(mark, sizeof(mark));
    int fd;
    if (rdbSaveToPipeBackground(std::string_view(mark, sizeof(mark)), &fd) == C_ERR) return C_ERR;
    rdb_pipe.fd = fd;
    if (!rdb_pipe.buf) rdb_pipe.buf = std::make_unique_for_overwrite<char[]>(PROTO_IOBUF_LEN);
    rdb_pipe.buflen = 0;
    rdb_pipe.writing = 0;
    for (client *slave : server.slaves) {
        if (slave->replstate != SLAVE_STATE_WAIT_BGSAVE_START) continue;
        if (!replicationSetupSlaveForFullResync(slave, server.master_repl_offset)) continue;
        slave->repldboff = 0;
        rdb_pipe.conns.push_back(slave);
    }
    if (aeCreateFileEvent(server.el.get(), fd, AE_READABLE, rdbPipeReadHandler, nullptr) == AE_ERR) {
        serverLog(LL_WARNING, "Diskless rdb transfer, can't watch the pipe");
        rdbPipeClose();
        killRDBChild();
        return C_ERR;
    }
    return C_OK;
}

/* ---- rdb-del-sync-files ----------------------------------------------------- */

/* dbfilename was written by a BGSAVE for replicas, with rdb-del-sync-files
 * on (set only then: enabling it later never deletes an older file). */
static bool rdb_generated_by_replication = false;

bool allPersistenceDisabled() { return server.saveparams.empty() && server.aof_state == AOF_OFF; }

void removeSyncRdbFile(const char *why) {
    serverLog(LL_NOTICE, "%s", why);
    int fd = open(server.rdb_filename.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (unlink(server.rdb_filename.c_str()) == -1 && errno != ENOENT)
        serverLog(LL_WARNING, "Error removing %s: %s", server.rdb_filename.c_str(), strerror(errno));
    if (fd != -1) bioCreateJob(BIO_CLOSE_FILE, fd);
}

/* Redis's removeRDBUsedToSyncReplicas, from replicationCron: once no
 * replica waits for or reads the file. */
static void removeRDBUsedToSyncReplicas() {
    if (!server.rdb_del_sync_files) {
        rdb_generated_by_replication = false;
        return;
    }
    if (!allPersistenceDisabled() || !rdb_generated_by_replication) return;
    for (client *slave : server.slaves)
        if (slave->replstate == SLAVE_STATE_WAIT_BGSAVE_START || slave->replstate == SLAVE_STATE_WAIT_BGSAVE_END ||
            slave->replstate == SLAVE_STATE_SEND_BULK)
            return;
    struct stat sb;
    if (lstat(server.rdb_filename.c_str(), &sb) == -1) return;
    rdb_generated_by_replication = false;
    removeSyncRdbFile("Removing the RDB file used to feed replicas in a persistence-less instance");
}

/* mincapa: the capabilities every waiting replica has. */
static int startBgsaveForReplication(int mincapa) {
    bool socket_target = server.repl_diskless_sync && (mincapa & SLAVE_CAPA_EOF);
    serverLog(LL_NOTICE, "Starting BGSAVE for SYNC with target: %s", socket_target ? "replicas sockets" : "disk");
    int retval = socket_target ? rdbSaveToSlavesSockets() : rdbSaveBackground(server.rdb_filename.c_str());
    if (retval == C_ERR) {
        serverLog(LL_WARNING, "BGSAVE for replication failed");
        std::vector<client *> waiting;
        for (client *slave : server.slaves)
            if (slave->replstate == SLAVE_STATE_WAIT_BGSAVE_START) waiting.push_back(slave);
        for (client *slave : waiting) dropSlaveWithError(slave, "BGSAVE failed, replication can't continue");
        return C_ERR;
    }
    if (!socket_target && server.rdb_del_sync_files) rdb_generated_by_replication = true;
    if (!socket_target) {
        for (client *slave : server.slaves)
            if (slave->replstate == SLAVE_STATE_WAIT_BGSAVE_START)
                replicationSetupSlaveForFullResync(slave, server.master_repl_offset);
    }
    return C_OK;
}

/* Replicas waiting for a BGSAVE to start get one when no child runs: at
 * once in disk mode, after repl-diskless-sync-delay (or once
 * repl-diskless-sync-max-replicas wait) in diskless mode. */
static void replicationStartPendingFork() {
    if (hasActiveChildProcess() || rdb_pipe.fd != -1) return;
    int waiting = 0, mincapa = -1;
    time_t max_idle = 0;
    for (client *slave : server.slaves) {
        if (slave->replstate != SLAVE_STATE_WAIT_BGSAVE_START) continue;
        waiting++;
        mincapa = mincapa == -1 ? slave->slave_capa : (mincapa & slave->slave_capa);
        max_idle = std::max<time_t>(max_idle, server.unixtime - slave->lastinteraction / 1000);
    }
    if (!waiting) return;
    if (server.repl_diskless_sync && (mincapa & SLAVE_CAPA_EOF) && max_idle < server.repl_diskless_sync_delay &&
        !(server.repl_diskless_sync_max_replicas && waiting >= server.repl_diskless_sync_max_replicas))
        return;
    startBgsaveForReplication(mincapa);
}

void updateSlavesWaitingBgsave(int bgsaveerr, int type) {
    std::vector<client *> done;
    for (client *slave : server.slaves)
        if (slave->replstate == SLAVE_STATE_WAIT_BGSAVE_END && !(slave->flags & CLIENT_CLOSE_ASAP))
            done.push_back(slave);
    /* After a failed child nothing more comes; after a good one the pipe
     * may still hold its last bytes, relayed until the end. */
    if (type == RDB_CHILD_TYPE_SOCKET && bgsaveerr != C_OK) rdbPipeClose();
    for (client *slave : done) {
        if (bgsaveerr != C_OK) {
            serverLog(LL_WARNING, "SYNC failed. BGSAVE child returned an error");
            freeClientAsync(slave);
            continue;
        }
        if (type == RDB_CHILD_TYPE_SOCKET) {
            serverLog(LL_NOTICE,
                      "Streamed RDB transfer with replica %s succeeded (socket). Waiting for REPLCONF ACK from "
                      "replica to enable streaming",
                      replicationGetSlaveName(slave).c_str());
            replicaPutOnline(slave, true);
        } else if (!replicaStartSendingFile(slave)) {
            freeClientAsync(slave);
        }
    }
}

/* ========================================================================
 * SYNC and PSYNC
 * ====================================================================== */

/* +CONTINUE and the backlog from `psync_offset`, if this history and the
 * backlog cover it. */
static bool masterTryPartialResynchronization(client *c, long long psync_offset) {
    std::string_view master_replid = c->argv[1];
    if (!strEqualNoCase(master_replid, server.replid) &&
        (!strEqualNoCase(master_replid, server.replid2) || psync_offset > server.second_replid_offset)) {
        if (master_replid != "?") {
            if (!strEqualNoCase(master_replid, server.replid) && !strEqualNoCase(master_replid, server.replid2))
                serverLog(LL_NOTICE,
                          "Partial resynchronization not accepted: Replication ID mismatch (Replica asked for "
                          "'%.*s', my replication IDs are '%s' and '%s')",
                          static_cast<int>(master_replid.size()), master_replid.data(), server.replid.c_str(),
                          server.replid2.c_str());
            else
                serverLog(LL_NOTICE,
                          "Partial resynchronization not accepted: Requested offset for second ID was %lld, but I "
                          "can reply up to %lld",
                          psync_offset, server.second_replid_offset);
        } else {
            serverLog(LL_NOTICE, "Full resync requested by replica %s", replicationGetSlaveName(c).c_str());
        }
        return false;
    }
    if (!server.repl_backlog || psync_offset < server.repl_backlog_off ||
        psync_offset > server.repl_backlog_off + server.repl_backlog_histlen) {
        serverLog(LL_NOTICE, "Unable to partial resync with replica %s for lack of backlog (Replica request was: %lld).",
                  replicationGetSlaveName(c).c_str(), psync_offset);
        if (psync_offset > server.master_repl_offset)
            serverLog(LL_WARNING,
                      "Warning: replica %s tried to PSYNC with an offset that is greater than the master replication "
                      "offset.",
                      replicationGetSlaveName(c).c_str());
        return false;
    }
    c->flags |= CLIENT_SLAVE;
    c->replstate = SLAVE_STATE_ONLINE;
    c->repl_ack_time = server.unixtime;
    c->repl_start_cmd_stream_on_ack = false;
    server.slaves.push_back(c);
    /* Straight to the socket, which is empty: the output buffer gets the
     * backlog and the stream. */
    std::string reply = (c->slave_capa & SLAVE_CAPA_PSYNC2) ? "+CONTINUE " + server.replid + "\r\n" : "+CONTINUE\r\n";
    if (connWrite(c->conn.get(), reply.data(), reply.size()) != static_cast<ssize_t>(reply.size())) {
        freeClientAsync(c);
        return true;
    }
    long long psync_len = addReplyReplicationBacklog(c, psync_offset);
    serverLog(LL_NOTICE,
              "Partial resynchronization request from %s accepted. Sending %lld bytes of backlog starting from offset "
              "%lld.",
              replicationGetSlaveName(c).c_str(), psync_len, psync_offset);
    refreshGoodSlavesCount();
    return true;
}

/* A full sync: the replica waits for a BGSAVE; one running to disk for
 * another replica serves it too (its buffer is copied). */
static void syncAttachToRunningDiskSave(client *c) {
    client *twin = nullptr;
    for (client *slave : server.slaves)
        if (slave != c && slave->replstate == SLAVE_STATE_WAIT_BGSAVE_END) {
            twin = slave;
            break;
        }
    if (twin && (c->slave_capa & twin->slave_capa) == twin->slave_capa) {
        std::string buffered = clientOutputBytes(twin);
        addReplyProto(c, buffered.data(), buffered.size());
        replicationSetupSlaveForFullResync(c, twin->psync_initial_offset);
        serverLog(LL_NOTICE, "Waiting for end of BGSAVE for SYNC");
    } else {
        serverLog(LL_NOTICE, "Can't attach the replica to the current BGSAVE. Waiting for next BGSAVE for SYNC");
    }
}

void syncCommand(client *c) {
    if (c->flags & CLIENT_SLAVE) return; /* already a replica: ignored */
    /* PSYNC replid offset FAILOVER: the master hands over to this replica. */
    if (c->argv.size() > 3 && strEqualNoCase(c->argv[0], "psync") && strEqualNoCase(c->argv[3], "failover")) {
        serverLog(LL_WARNING, "Failover request received for replid %.*s.", static_cast<int>(c->argv[1].size()),
                  c->argv[1].data());
        if (server.masterhost.empty()) return addReplyError(c, "PSYNC FAILOVER can't be sent to a master.");
        if (!strEqualNoCase(c->argv[1], server.replid))
            return addReplyError(c, "PSYNC FAILOVER replid must match my replid.");
        replicationUnsetMaster();
        serverLog(LL_NOTICE, "MASTER MODE enabled (failover request from '%s')", catClientInfoString(c).c_str());
    }
    if (!server.masterhost.empty() && server.repl_state != REPL_STATE_CONNECTED)
        return addReplyError(c, "-NOMASTERLINK Can't SYNC while not connected with my master");
    if (clientHasPendingReplies(c)) return addReplyError(c, "SYNC and PSYNC are invalid with pending output");
    serverLog(LL_NOTICE, "Replica %s asks for synchronization", replicationGetSlaveName(c).c_str());
    if (strEqualNoCase(c->argv[0], "psync")) {
        long long psync_offset;
        if (!getLongLongFromObjectOrReply(c, c->argv[2], &psync_offset)) {
            serverLog(LL_WARNING, "Replica %s asks for synchronization but with a wrong offset",
                      replicationGetSlaveName(c).c_str());
            return;
        }
        if (masterTryPartialResynchronization(c, psync_offset)) {
            server.stat_sync_partial_ok++;
            return;
        }
        /* "?" asks for a full sync on purpose: no failed partial one. */
        if (c->argv[1] != "?") server.stat_sync_partial_err++;
    } else {
        c->flags |= CLIENT_PRE_PSYNC; /* the old protocol: no ACKs expected */
    }
    server.stat_sync_full++;
    c->replstate = SLAVE_STATE_WAIT_BGSAVE_START;
    if (server.repl_disable_tcp_nodelay && c->conn) connDisableTcpNoDelay(c->conn.get()); /* not critical if it fails */
    c->repldbfd = -1;
    c->flags |= CLIENT_SLAVE;
    server.slaves.push_back(c);
    if (server.slaves.size() == 1 && !server.repl_backlog) {
        /* A backlog from scratch starts a new history: no past one is valid. */
        changeReplicationId();
        clearReplicationId2();
        createReplicationBacklog();
        serverLog(LL_NOTICE, "Replication backlog created, my new replication IDs are '%s' and '%s'",
                  server.replid.c_str(), server.replid2.c_str());
    }
    if (server.child_type == CHILD_TYPE_RDB && server.rdb_child_type == RDB_CHILD_TYPE_DISK) {
        syncAttachToRunningDiskSave(c);
    } else if (server.child_type == CHILD_TYPE_RDB) {
        serverLog(LL_NOTICE, "Current BGSAVE has socket target. Waiting for next BGSAVE for SYNC");
    } else if (server.repl_diskless_sync && (c->slave_capa & SLAVE_CAPA_EOF) && server.repl_diskless_sync_delay) {
        serverLog(LL_NOTICE, "Delay next BGSAVE for diskless SYNC"); /* replicationCron starts it */
    } else if (!hasActiveChildProcess() && rdb_pipe.fd == -1) {
        startBgsaveForReplication(c->slave_capa);
    } else {
        serverLog(LL_NOTICE, "No BGSAVE in progress, but another BG operation is active. BGSAVE for replication delayed");
    }
}

/* ========================================================================
 * REPLCONF
 * ====================================================================== */

/* REPLCONF ACK <offset>: no reply. The first ACK after a diskless transfer
 * starts the stream. */
static void replconfAck(client *c, std::string_view arg) {
    if (!(c->flags & CLIENT_SLAVE)) return;
    long long offset;
    if (!string2ll(arg, &offset)) return;
    if (offset > c->repl_ack_off) c->repl_ack_off = offset;
    c->repl_ack_time = server.unixtime;
    /* The ACK may come before the child's exit was noticed (serverCron). */
    if (server.child_type == CHILD_TYPE_RDB && c->replstate == SLAVE_STATE_WAIT_BGSAVE_END) checkChildrenDone();
    if (c->repl_start_cmd_stream_on_ack && c->replstate == SLAVE_STATE_ONLINE) replicaStartCommandStream(c);
}

void replconfCommand(client *c) {
    if (c->argv.size() % 2 == 0) return addReplyErrorObject(c, shared::syntaxerr);
    for (size_t j = 1; j < c->argv.size(); j += 2) {
        std::string_view opt = c->argv[j], val = c->argv[j + 1];
        if (strEqualNoCase(opt, "listening-port")) {
            long port;
            if (!getLongFromObjectOrReply(c, val, &port)) return;
            c->slave_listening_port = static_cast<int>(port);
        } else if (strEqualNoCase(opt, "ip-address")) {
            constexpr size_t NET_HOST_STR_LEN = 256;
            if (val.size() >= NET_HOST_STR_LEN)
                return addReplyErrorFormat(c, "REPLCONF ip-address provided by replica instance is too long: %zd bytes",
                                           val.size());
            c->slave_addr = val;
        } else if (strEqualNoCase(opt, "capa")) {
            /* Capabilities this master does not know are ignored. */
            if (strEqualNoCase(val, "eof")) c->slave_capa |= SLAVE_CAPA_EOF;
            else if (strEqualNoCase(val, "psync2")) c->slave_capa |= SLAVE_CAPA_PSYNC2;
        } else if (strEqualNoCase(opt, "ack")) {
            return replconfAck(c, val);
        } else if (strEqualNoCase(opt, "getack")) {
            /* A replica answers its master; a master has nobody to answer. */
            if (!server.masterhost.empty() && server.master) replicationSendAck();
            return;
        } else {
            /* rdb-only and rdb-filter-only (RDB snapshots without the
             * stream) are not implemented: refused as unknown. */
            return addReplyErrorFormat(c, "Unrecognized REPLCONF option: %.*s", static_cast<int>(opt.size()),
                                       opt.data());
        }
    }
    addReply(c, shared::ok);
}

/* ========================================================================
 * Replicas leaving
 * ====================================================================== */

void replicationFreeSlave(client *c) {
    if (!(c->flags & CLIENT_SLAVE) || (c->flags & CLIENT_MONITOR)) return; /* a MONITOR is flagged a replica too */
    serverLog(LL_WARNING, "Connection with replica %s lost.", replicationGetSlaveName(c).c_str());
    server.slaves.remove(c);
    if (server.slaves.empty()) server.repl_no_slaves_since = server.unixtime;
    c->flags &= ~CLIENT_SLAVE;
    rdbPipeDropConn(c); /* the last one kills the child */
    if (c->repldbfd != -1) {
        close(c->repldbfd);
        c->repldbfd = -1;
    }
    refreshGoodSlavesCount();
}

/* ========================================================================
 * min-replicas-to-write, acknowledgements
 * ====================================================================== */

void refreshGoodSlavesCount() {
    if (!server.repl_min_slaves_to_write || !server.repl_min_slaves_max_lag) return;
    int good = 0;
    for (client *slave : server.slaves) {
        time_t lag = server.unixtime - static_cast<time_t>(slave->repl_ack_time);
        if (slave->replstate == SLAVE_STATE_ONLINE && lag <= server.repl_min_slaves_max_lag) good++;
    }
    server.repl_good_slaves_count = good;
}

bool updateGoodSlaves(const char **) {
    refreshGoodSlavesCount();
    return true;
}

bool checkGoodReplicasStatus() {
    return !server.masterhost.empty() || !server.repl_min_slaves_max_lag || !server.repl_min_slaves_to_write ||
           server.repl_good_slaves_count >= server.repl_min_slaves_to_write;
}

int replicationCountAcksByOffset(long long offset) {
    int count = 0;
    for (client *slave : server.slaves)
        if (slave->replstate == SLAVE_STATE_ONLINE && slave->repl_ack_off >= offset) count++;
    return count;
}

/* ========================================================================
 * WAIT numreplicas timeout
 * ====================================================================== */

void waitCommand(client *c) {
    if (!server.masterhost.empty())
        return addReplyError(c, "WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a "
                                "replica is configured to be writable (which is not the default) writes to replicas "
                                "are just local and are not propagated.");
    long numreplicas;
    monotime timeout;
    if (!getLongFromObjectOrReply(c, c->argv[1], &numreplicas)) return;
    if (!getTimeoutFromObjectOrReply(c, c->argv[2], &timeout, UNIT_MILLISECONDS)) return;
    int ackreplicas = replicationCountAcksByOffset(c->woff);
    if (ackreplicas >= numreplicas || (c->flags & (CLIENT_MULTI | CLIENT_DENY_BLOCKING)))
        return addReplyLongLong(c, ackreplicas);
    c->bpop.timeout = timeout;
    c->bpop.reploffset = c->woff;
    c->bpop.numreplicas = static_cast<int>(std::min<long>(numreplicas, INT_MAX));
    server.clients_waiting_acks.push_front(c);
    blockClient(c, BLOCKED_WAIT);
    server.get_ack_from_slaves = true; /* beforeSleep asks the replicas */
}

static constexpr std::string_view kGetackCommand = "*3\r\n$8\r\nREPLCONF\r\n$6\r\nGETACK\r\n$1\r\n*\r\n";

/* The WAIT clients whose offset enough replicas acknowledged. */
static void processClientsWaitingReplicas() {
    long long last_offset = 0;
    int last_numreplicas = 0;
    for (auto it = server.clients_waiting_acks.begin(); it != server.clients_waiting_acks.end();) {
        client *c = *it++; /* unblockClient erases it */
        /* One satisfied with as much says this one is too, uncounted. */
        if (last_offset && last_offset >= c->bpop.reploffset && last_numreplicas >= c->bpop.numreplicas) {
            addReplyLongLong(c, last_numreplicas);
            unblockClient(c, "replicas acknowledged");
            continue;
        }
        int numreplicas = replicationCountAcksByOffset(c->bpop.reploffset);
        if (numreplicas >= c->bpop.numreplicas) {
            last_offset = c->bpop.reploffset;
            last_numreplicas = numreplicas;
            addReplyLongLong(c, numreplicas);
            unblockClient(c, "replicas acknowledged");
        }
    }
}

void replicationBeforeSleep() {
    if (server.get_ack_from_slaves) {
        feedReplicationBuffer(kGetackCommand);
        server.get_ack_from_slaves = false;
    }
    if (!server.clients_waiting_acks.empty()) processClientsWaitingReplicas();
    /* Replicas that waited for the child that just ended need not wait
     * for the cron (Redis checks every serverCron tick). */
    if (!server.slaves.empty()) replicationStartPendingFork();
}

/* ========================================================================
 * replicationCron, once a second
 * ====================================================================== */

static constexpr std::string_view kPingCommand = "*1\r\n$4\r\nPING\r\n";

void replicationCron() {
    static long long replication_cron_loops = 0;
    replicationCronReplica();
    /* A PING in the stream now and then: the replicas can tell a quiet
     * master from a dead link. */
    if (replication_cron_loops % server.repl_ping_slave_period == 0 && !server.slaves.empty() &&
        server.masterhost.empty())
        feedReplicationBuffer(kPingCommand);
    /* Replicas waiting for their RDB get a newline now and then, so that
     * their read timeout does not fire (a diskless transfer streams). */
    for (client *slave : server.slaves) {
        bool is_presync = slave->replstate == SLAVE_STATE_WAIT_BGSAVE_START ||
                          (slave->replstate == SLAVE_STATE_WAIT_BGSAVE_END &&
                           server.rdb_child_type != RDB_CHILD_TYPE_SOCKET);
        if (is_presync && slave->conn && connWrite(slave->conn.get(), "\n", 1) == -1) {
            /* The socket's error shows on its next read or write. */
        }
    }
    /* Replicas that stopped acknowledging. */
    std::vector<client *> timedout;
    for (client *slave : server.slaves) {
        if (slave->replstate != SLAVE_STATE_ONLINE || (slave->flags & CLIENT_PRE_PSYNC)) continue;
        if (server.unixtime - static_cast<time_t>(slave->repl_ack_time) > server.repl_timeout) timedout.push_back(slave);
    }
    for (client *slave : timedout) {
        serverLog(LL_WARNING, "Disconnecting timedout replica (streaming sync): %s",
                  replicationGetSlaveName(slave).c_str());
        freeClient(slave);
    }
    /* Without replicas for repl-backlog-ttl, a master frees its backlog; a
     * new history starts with the next replica. */
    if (server.masterhost.empty() && server.slaves.empty() && server.repl_backlog_time_limit && server.repl_backlog) {
        time_t idle = server.unixtime - server.repl_no_slaves_since;
        if (idle > server.repl_backlog_time_limit) {
            changeReplicationId();
            clearReplicationId2();
            freeReplicationBacklog();
            serverLog(LL_NOTICE, "Replication backlog freed after %d seconds without connected replicas.",
                      static_cast<int>(server.repl_backlog_time_limit));
        }
    }
    replicationStartPendingFork();
    removeRDBUsedToSyncReplicas();
    refreshGoodSlavesCount();
    replication_cron_loops++;
}
