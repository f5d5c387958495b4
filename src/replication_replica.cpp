/* replication_replica.cpp — replication's replica side (Redis's replication.c,
 * its second half): REPLICAOF, the handshake, receiving and loading the
 * RDB, the master's connection as a client, PSYNC after a dropped link, INFO
 * replication and ROLE. See replication.h.
 *
 * The link's life, as Redis 7.0 (server.repl_state):
 *   CONNECT -> CONNECTING (non-blocking connect) -> RECEIVE_PING_REPLY ->
 *   SEND_HANDSHAKE (AUTH, REPLCONF listening-port / ip-address / capa, all
 *   written at once) -> RECEIVE_{AUTH,PORT,IP,CAPA}_REPLY (one reply each) ->
 *   SEND_PSYNC -> RECEIVE_PSYNC_REPLY -> TRANSFER (+FULLRESYNC: the RDB into
 *   a temp file, then loaded) or straight to CONNECTED (+CONTINUE).
 * Until CONNECTED the socket is this file's (replTransfer); then it becomes
 * the master client (createClient), whose requests networking hands back
 * through registerMasterStreamProcessed once applied. When that client is
 * freed, its replid, offset and db are cached (Redis caches the whole
 * client: these are what a PSYNC and the stream after +CONTINUE need) and
 * the link is started again at once.
 * Replies during the handshake are read one byte at a time, as Redis's
 * syncReadLine does, so nothing after the reply (the RDB, the stream) is
 * ever read into a buffer of the handshake's. */
#include "replication.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

#include "aof.h"
#include "functions.h"
#include "blocked.h"
#include "config.h"
#include "db.h"
#include "log.h"
#include "networking.h"
#include "object.h"
#include "rdb.h"
#include "server.h"
#include "tls.h"
#include "util.h"

namespace {

/* An fd owned here: closed when replaced or destroyed. */
class ownedFd {
public:
    ownedFd() = default;
    ownedFd(const ownedFd &) = delete;
    ownedFd &operator=(const ownedFd &) = delete;
    ~ownedFd() { reset(); }
    int get() const { return fd_; }
    explicit operator bool() const { return fd_ != -1; }
    void reset(int fd = -1) {
        if (fd_ != -1) close(fd_);
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

/* The socket to the master until it becomes the master client, and the
 * RDB being received (Redis's server.repl_transfer_*). */
struct replTransfer {
    connectionPtr s;            /* the connection (repl_transfer_s): a socket, or TLS with tls-replication */
    std::string line;           /* a reply line being read */
    ownedFd fd;                 /* the temp file the RDB goes to */
    std::string tmpfile;
    long long size = -1;        /* the RDB's announced size; -1: "$..." not read yet; 0 with an EOF mark */
    long long read = 0;         /* bytes of it received */
    long long last_fsync_off = 0;
    time_t lastio = 0;          /* last byte from the master while not CONNECTED */
    bool usemark = false;       /* diskless master: the RDB ends with eofmark */
    char eofmark[CONFIG_RUN_ID_SIZE]{};
    char lastbytes[CONFIG_RUN_ID_SIZE]{};
};
replTransfer transfer;

/* The master client's db when it was cached (Redis keeps it in the cached
 * client): a stream continued by +CONTINUE has no SELECT to restore it. */
int cached_master_db = 0;

constexpr long long REPL_MAX_WRITTEN_BEFORE_FSYNC = 8 * 1024 * 1024;

/* The outcome of one step of the handshake. */
enum class Step { Next, Wait, Error };

bool slaveIsInHandshakeState() {
    return server.repl_state >= REPL_STATE_RECEIVE_PING_REPLY && server.repl_state <= REPL_STATE_RECEIVE_PSYNC_REPLY;
}

bool haveCachedMaster() { return server.cached_master_reploff != -1; }

void replicationDiscardCachedMaster() {
    if (!haveCachedMaster()) return;
    serverLog(LL_NOTICE, "Discarding previously cached master state.");
    server.cached_master_replid.clear();
    server.cached_master_reploff = -1;
    cached_master_db = 0;
}

/* Our replicas must follow a history they cannot PSYNC into: they resync
 * with us (Redis's disconnectSlaves). */
void disconnectSlaves() {
    std::vector<client *> slaves(server.slaves.begin(), server.slaves.end());
    for (client *slave : slaves) freeClient(slave);
}

/* A master turning replica: whoever blocked on its keys would wait for
 * writes that can no longer be its own (Redis's disconnectAllBlockedClients). */
void disconnectAllBlockedClients() {
    for (const std::unique_ptr<client> &owned : server.clients) {
        client *c = owned.get();
        if (!(c->flags & CLIENT_BLOCKED)) continue;
        addReplyError(c, "-UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)");
        unblockClient(c, "instance state changed");
        c->flags |= CLIENT_CLOSE_AFTER_REPLY;
    }
}

/* ---- the socket before it is the master client --------------------------- */

void closeTransferSocket() {
    if (!transfer.s) return;
    transfer.s.reset();
    transfer.line.clear();
}

void closeTransferFile(bool unlink_it) {
    if (!transfer.fd) return;
    transfer.fd.reset();
    if (unlink_it) unlink(transfer.tmpfile.c_str());
    transfer.tmpfile.clear();
}

/* Writes a command in one go: the socket is fresh and the handshake's
 * commands are small, so a short write means the link is broken. Returns
 * the error, "" if none. */
std::string sendCommand(const std::vector<std::string_view> &args) {
    std::string cmd = "*" + std::to_string(args.size()) + "\r\n";
    for (std::string_view a : args) {
        cmd += "$" + std::to_string(a.size()) + "\r\n";
        cmd += a;
        cmd += "\r\n";
    }
    ssize_t n;
    do n = connWrite(transfer.s.get(), cmd.data(), cmd.size());
    while (n == -1 && errno == EINTR && connGetState(transfer.s.get()) == CONN_STATE_CONNECTED);
    if (n == static_cast<ssize_t>(cmd.size())) return "";
    return n == -1 ? connGetLastError(transfer.s.get()) : "short write";
}

/* Reads the master's next reply line, byte by byte (nothing past its '\n'
 * is consumed). 1: *out holds it, without "\r\n"; 0: not complete yet;
 * -1: the connection failed, or sent a line longer than any reply. */
int readReplyLine(std::string *out) {
    char ch;
    for (;;) {
        ssize_t n = connRead(transfer.s.get(), &ch, 1);
        if (n == -1 && connGetState(transfer.s.get()) == CONN_STATE_CONNECTED) {
            if (errno == EINTR) continue;
            return 0;
        }
        if (n == 0 || connGetState(transfer.s.get()) == CONN_STATE_CLOSED) errno = ECONNRESET;
        if (n <= 0) return -1;
        transfer.lastio = server.unixtime;
        server.stat_net_repl_input_bytes++;
        if (ch == '\n') break;
        if (transfer.line.size() >= 1024) {
            errno = EPROTO;
            return -1;
        }
        transfer.line += ch;
    }
    if (!transfer.line.empty() && transfer.line.back() == '\r') transfer.line.pop_back();
    *out = std::move(transfer.line);
    transfer.line.clear();
    return 1;
}

/* A handshake reply: readReplyLine's verdict as a step of the handshake. */
Step receiveHandshakeLine(std::string *out) {
    int rc = readReplyLine(out);
    if (rc == -1) serverLog(LL_WARNING, "Master did not respond to command during SYNC handshake");
    return rc == 1 ? Step::Next : rc == 0 ? Step::Wait : Step::Error;
}

void syncWithMaster(connection *conn);
void readSyncBulkPayload(connection *conn);

int connectWithMaster() {
    closeTransferSocket(); /* a link being set up is replaced */
    transfer.s = server.tls_replication ? connCreateTLS() : connCreateSocket();
    /* syncWithMaster runs once the connect (and TLS handshake) completed or failed. */
    if (connConnect(transfer.s.get(), server.masterhost.c_str(), server.masterport, syncWithMaster) == C_ERR) {
        serverLog(LL_WARNING, "Unable to connect to MASTER: %s", connGetLastError(transfer.s.get()));
        closeTransferSocket();
        return C_ERR;
    }
    transfer.lastio = server.unixtime;
    server.repl_state = REPL_STATE_CONNECTING;
    serverLog(LL_NOTICE, "MASTER <-> REPLICA sync started");
    return C_OK;
}

/* Stops a connect, a handshake or a transfer in progress; with
 * `reconnect`, starts again at once. False if none was in progress. */
bool cancelReplicationHandshake(bool reconnect) {
    if (server.repl_state == REPL_STATE_TRANSFER) {
        closeTransferSocket();
        closeTransferFile(true);
    } else if (server.repl_state == REPL_STATE_CONNECTING || slaveIsInHandshakeState()) {
        closeTransferSocket();
    } else {
        return false;
    }
    server.repl_state = REPL_STATE_CONNECT;
    if (!reconnect) return true;
    serverLog(LL_NOTICE, "Reconnecting to MASTER %s:%d after failure", server.masterhost.c_str(), server.masterport);
    connectWithMaster();
    return true;
}

/* ---- the master client ----------------------------------------------------- */

/* The transfer socket becomes server.master, its stream at `reploff` in
 * database `dbid`. */
bool replicationCreateMasterClient(long long reploff, int dbid) {
    client *c = createClient(std::move(transfer.s)); /* it owns the connection, even on failure */
    if (!c) {
        serverLog(LL_WARNING, "Error creating the master client: %s", strerror(errno));
        return false;
    }
    /* The master's commands may do anything: no ACL user, no AUTH. */
    c->flags |= CLIENT_MASTER;
    c->authenticated = true;
    c->user = nullptr;
    c->reploff = c->read_reploff = reploff;
    if (reploff == -1) c->flags |= CLIENT_PRE_PSYNC; /* an old master, without offsets */
    if (dbid > 0) selectDb(c, dbid);
    server.master = c;
    server.repl_state = REPL_STATE_CONNECTED;
    server.repl_down_since = 0;
    return true;
}

}  // namespace

/* freeClient's step for the master's connection (registerFreeClientProc,
 * networking.h): it went away. Its place in the stream is cached for a
 * PSYNC, and the link started again. */
void replicationHandleMasterDisconnection(client *c) {
    if (c != server.master) return;
    serverLog(LL_NOTICE, "Connection with master lost.");
    /* A protocol error left the stream at an unknown point: a full sync. */
    if (!(c->flags & (CLIENT_PROTOCOL_ERROR | CLIENT_PRE_PSYNC))) {
        serverLog(LL_NOTICE, "Caching the disconnected master state.");
        server.cached_master_replid = server.master_replid;
        server.cached_master_reploff = c->reploff;
        cached_master_db = c->db ? c->db->id : 0;
    }
    server.master = nullptr;
    server.repl_state = REPL_STATE_CONNECT;
    server.repl_down_since = server.unixtime;
    /* Reconnect now rather than at the next cron: a second may be all the
     * master's backlog can cover. */
    if (!server.masterhost.empty()) {
        serverLog(LL_NOTICE, "Reconnecting to MASTER %s:%d", server.masterhost.c_str(), server.masterport);
        connectWithMaster();
    }
}

/* registerMasterStreamProcessed: a request of the master's stream ran.
 * Inside MULTI it is held back, as the transaction counts (and is proxied)
 * only once EXEC ran; then the bytes go to our backlog and replicas as
 * they are, and the applied offset moves past them. */
void replicationMasterStreamProcessed(client *c, std::string_view request) {
    if (c->flags & CLIENT_MULTI) {
        c->pending_querybuf.append(request);
        return;
    }
    std::string_view applied = request;
    if (!c->pending_querybuf.empty()) {
        c->pending_querybuf.append(request);
        applied = c->pending_querybuf;
    }
    c->reploff += static_cast<long long>(applied.size());
    feedReplicationBuffer(applied);
    server.master_repl_offset = c->reploff;
    c->pending_querybuf.clear();
}

namespace {

/* Before turning into a replica, this master's own history is what a
 * promoted replica of ours can continue: PSYNC with our replid and offset
 * (Redis's replicationCacheMasterUsingMyself). */
void replicationCacheMasterUsingMyself() {
    serverLog(LL_NOTICE,
              "Before turning into a replica, using my own master parameters to synthesize a cached master: I may "
              "be able to synchronize with the new master with just a partial transfer.");
    server.cached_master_replid = server.replid;
    server.cached_master_reploff = server.master_repl_offset;
    cached_master_db = 0; /* the new master's stream starts with a SELECT */
}

/* ---- receiving the RDB ------------------------------------------------------- */

/* The RDB is on disk: it becomes dbfilename, replaces the dataset, and the
 * socket becomes the master client (Redis's readSyncBulkPayload, with
 * repl-diskless-load disabled). */
void replicationLoadReceivedRdb() {
    if (fsync(transfer.fd.get()) == -1) {
        serverLog(LL_WARNING, "Failed trying to sync the temp DB to disk in MASTER <-> REPLICA synchronization: %s",
                  strerror(errno));
        cancelReplicationHandshake(true);
        return;
    }
    const char *rdb_filename = server.rdb_filename.c_str();
    if (rename(transfer.tmpfile.c_str(), rdb_filename) == -1) {
        serverLog(LL_WARNING, "Failed trying to rename the temp DB into %s in MASTER <-> REPLICA synchronization: %s",
                  rdb_filename, strerror(errno));
        cancelReplicationHandshake(true);
        return;
    }
    closeTransferFile(false);
    if (fsyncFileDir(rdb_filename) == -1) {
        serverLog(LL_WARNING, "Failed trying to sync DB directory %s in MASTER <-> REPLICA synchronization: %s",
                  rdb_filename, strerror(errno));
        cancelReplicationHandshake(true);
        return;
    }
    /* An AOF rewrite child would copy every page the load touches; the AOF
     * starts again from the new dataset afterwards. */
    if (server.aof_state != AOF_OFF) stopAppendOnly();
    /* A new history: the cached master and our replicas' positions are void. */
    replicationDiscardCachedMaster();
    disconnectSlaves();
    freeReplicationBacklog();
    serverLog(LL_NOTICE, "MASTER <-> REPLICA sync: Flushing old data");
    emptyData(-1, server.repl_slave_lazy_flush ? EMPTYDB_ASYNC : EMPTYDB_NO_FLAGS);
    functionsLibCtxClearCurrent();
    serverLog(LL_NOTICE, "MASTER <-> REPLICA sync: Loading DB in memory");
    bool loaded = rdbLoad(rdb_filename, RDBFLAGS_NONE) == C_OK;
    if (!loaded) serverLog(LL_WARNING, "Failed trying to load the MASTER synchronization DB from disk: %s", strerror(errno));
    if (server.rdb_del_sync_files && allPersistenceDisabled())
        removeSyncRdbFile("Removing the RDB file obtained from the master. This replica has persistence disabled");
    if (!loaded) {
        cancelReplicationHandshake(true);
        return;
    }
    if (!replicationCreateMasterClient(server.master_initial_offset, 0)) {
        server.repl_state = REPL_STATE_CONNECT;
        return;
    }
    /* The master's history is ours now; the second ID belonged to the old one. */
    server.replid = server.master_replid;
    server.master_repl_offset = server.master->reploff;
    clearReplicationId2();
    /* A replica keeps a backlog: its replicas, or a promotion, may PSYNC. */
    if (!server.repl_backlog) createReplicationBacklog();
    serverLog(LL_NOTICE, "MASTER <-> REPLICA sync: Finished with success");
    if (server.supervised_mode == SUPERVISED_SYSTEMD)
        redisCommunicateSystemd("STATUS=MASTER <-> REPLICA sync: Finished with success. Ready to accept connections "
                                "in read-write mode.\n");
    /* A diskless master puts us online on our first ACK. */
    if (transfer.usemark) replicationSendAck();
    if (server.aof_enabled && startAppendOnly() != C_OK)
        serverLog(LL_WARNING, "Failed enabling the AOF after successful master synchronization!");
}

/* "$<size>" or "$EOF:<mark>" (newlines before it keep the link alive).
 * False when the transfer was given up. */
bool readSyncBulkHeader() {
    std::string line;
    int rc = readReplyLine(&line);
    if (rc == 0) return true;
    if (rc == -1) {
        serverLog(LL_WARNING, "I/O error reading bulk count from MASTER: %s", strerror(errno));
        return false;
    }
    if (line.empty()) return true; /* a newline: the master is still preparing the RDB */
    if (line[0] == '-') {
        serverLog(LL_WARNING, "MASTER aborted replication with an error: %s", line.c_str() + 1);
        return false;
    }
    if (line[0] != '$') {
        serverLog(LL_WARNING,
                  "Bad protocol from MASTER, the first byte is not '$' (we received '%s'), are you sure the host "
                  "and port are right?",
                  line.c_str());
        return false;
    }
    if (line.compare(1, 4, "EOF:") == 0 && line.size() >= 5 + CONFIG_RUN_ID_SIZE) {
        transfer.usemark = true;
        memcpy(transfer.eofmark, line.data() + 5, CONFIG_RUN_ID_SIZE);
        memset(transfer.lastbytes, 0, CONFIG_RUN_ID_SIZE);
        transfer.size = 0;
        serverLog(LL_NOTICE, "MASTER <-> REPLICA sync: receiving streamed RDB from master with EOF to disk");
    } else {
        transfer.usemark = false;
        transfer.size = strtoll(line.c_str() + 1, nullptr, 10);
        serverLog(LL_NOTICE, "MASTER <-> REPLICA sync: receiving %lld bytes from master to disk", transfer.size);
    }
    return true;
}

/* With an EOF mark: keeps the last 40 bytes received; true once they are
 * the mark. */
bool eofMarkReached(const char *buf, size_t n) {
    if (n >= CONFIG_RUN_ID_SIZE) {
        memcpy(transfer.lastbytes, buf + n - CONFIG_RUN_ID_SIZE, CONFIG_RUN_ID_SIZE);
    } else {
        size_t rem = CONFIG_RUN_ID_SIZE - n;
        memmove(transfer.lastbytes, transfer.lastbytes + n, rem);
        memcpy(transfer.lastbytes + rem, buf, n);
    }
    return memcmp(transfer.lastbytes, transfer.eofmark, CONFIG_RUN_ID_SIZE) == 0;
}

/* One read of the RDB into the temp file. False when the transfer was
 * given up; *done once the whole file is in. */
bool readSyncBulkChunk(bool *done) {
    char buf[PROTO_IOBUF_LEN];
    size_t readlen = sizeof(buf);
    if (!transfer.usemark) readlen = std::min<long long>(readlen, transfer.size - transfer.read);
    connection *conn = transfer.s.get();
    ssize_t nread = connRead(conn, buf, readlen);
    if (nread == -1 && connGetState(conn) == CONN_STATE_CONNECTED) return true;
    if (nread <= 0) {
        serverLog(LL_WARNING, "I/O error trying to sync with MASTER: %s",
                  connGetState(conn) == CONN_STATE_ERROR ? connGetLastError(conn) : "connection lost");
        return false;
    }
    server.stat_net_repl_input_bytes += nread;
    bool eof_reached = transfer.usemark && eofMarkReached(buf, static_cast<size_t>(nread));
    transfer.lastio = server.unixtime;
    ssize_t nwritten = write(transfer.fd.get(), buf, static_cast<size_t>(nread));
    if (nwritten != nread) {
        serverLog(LL_WARNING,
                  "Write error or short write writing to the DB dump file needed for MASTER <-> REPLICA "
                  "synchronization: %s",
                  nwritten == -1 ? strerror(errno) : "short write");
        return false;
    }
    transfer.read += nread;
    if (eof_reached && ftruncate(transfer.fd.get(), transfer.read - CONFIG_RUN_ID_SIZE) == -1) {
        serverLog(LL_WARNING, "Error truncating the RDB file received from the master for SYNC: %s",
                  strerror(errno));
        return false;
    }
    /* Flushed as it comes, so the final fsync has little left to wait for. */
    if (transfer.read >= transfer.last_fsync_off + REPL_MAX_WRITTEN_BEFORE_FSYNC) {
        if (fdatasync(transfer.fd.get()) == -1) {
            serverLog(LL_WARNING, "Failed trying to sync the temp DB to disk in MASTER <-> REPLICA synchronization: %s",
                      strerror(errno));
            return false;
        }
        transfer.last_fsync_off = transfer.read;
    }
    *done = transfer.usemark ? eof_reached : transfer.read == transfer.size;
    return true;
}

void readSyncBulkPayload(connection *) {
    bool done = false;
    bool ok = transfer.size == -1 ? readSyncBulkHeader() : readSyncBulkChunk(&done);
    if (!ok) {
        cancelReplicationHandshake(true);
        return;
    }
    if (done) replicationLoadReceivedRdb();
}

/* ---- the handshake ----------------------------------------------------------- */

/* Opens the temp file for the RDB and waits for it. */
Step replicationPrepareTransfer() {
    char tmpfile[256];
    snprintf(tmpfile, sizeof(tmpfile), "temp-%d.%ld.rdb", static_cast<int>(server.unixtime),
             static_cast<long>(getpid()));
    int dfd = open(tmpfile, O_CREAT | O_WRONLY | O_EXCL | O_CLOEXEC, 0644);
    if (dfd == -1) {
        serverLog(LL_WARNING, "Opening the temp file needed for MASTER <-> REPLICA synchronization: %s",
                  strerror(errno));
        return Step::Error;
    }
    transfer.fd.reset(dfd);
    transfer.tmpfile = tmpfile;
    if (connSetReadHandler(transfer.s.get(), readSyncBulkPayload) == C_ERR) {
        serverLog(LL_WARNING, "Can't create readable event for SYNC: %s", strerror(errno));
        closeTransferFile(true);
        return Step::Error;
    }
    server.repl_state = REPL_STATE_TRANSFER;
    transfer.size = -1;
    transfer.read = 0;
    transfer.last_fsync_off = 0;
    transfer.usemark = false;
    transfer.lastio = server.unixtime;
    return Step::Wait;
}

Step sendHandshake() {
    std::string err;
    if (!server.masterauth.empty()) {
        err = server.masteruser.empty() ? sendCommand({"AUTH", server.masterauth})
                                        : sendCommand({"AUTH", server.masteruser, server.masterauth});
    }
    int port = server.slave_announce_port ? server.slave_announce_port : server.port;
    if (err.empty()) err = sendCommand({"REPLCONF", "listening-port", std::to_string(port)});
    if (err.empty() && !server.slave_announce_ip.empty())
        err = sendCommand({"REPLCONF", "ip-address", server.slave_announce_ip});
    if (err.empty()) err = sendCommand({"REPLCONF", "capa", "eof", "capa", "psync2"});
    if (!err.empty()) {
        serverLog(LL_WARNING, "Sending command to master in replication handshake: %s", err.c_str());
        return Step::Error;
    }
    server.repl_state = REPL_STATE_RECEIVE_AUTH_REPLY;
    return Step::Wait;
}

Step sendPsync() {
    server.master_initial_offset = -1;
    std::string replid = "?", offset = "-1";
    if (haveCachedMaster()) {
        replid = server.cached_master_replid;
        offset = std::to_string(server.cached_master_reploff + 1);
        serverLog(LL_NOTICE, "Trying a partial resynchronization (request %s:%s).", replid.c_str(), offset.c_str());
    } else {
        serverLog(LL_NOTICE, "Partial resynchronization not possible (no cached master)");
    }
    std::string err = sendCommand({"PSYNC", replid, offset});
    if (!err.empty()) {
        serverLog(LL_WARNING, "Unable to send PSYNC to master: %s", err.c_str());
        return Step::Error;
    }
    server.repl_state = REPL_STATE_RECEIVE_PSYNC_REPLY;
    return Step::Wait;
}

/* +CONTINUE [replid]: the stream goes on from the cached offset. A new
 * replid (the master was promoted) becomes ours, the old one valid up to
 * here as replid2, and our replicas must hear of it. */
Step psyncContinue(const std::string &reply) {
    serverLog(LL_NOTICE, "Successful partial resynchronization with master.");
    std::string newid = reply.size() > 10 ? reply.substr(10) : "";
    if (newid.size() == CONFIG_RUN_ID_SIZE && newid != server.cached_master_replid) {
        serverLog(LL_WARNING, "Master replication ID changed to %s", newid.c_str());
        server.replid2 = server.cached_master_replid;
        server.second_replid_offset = server.master_repl_offset + 1;
        server.replid = newid;
        server.cached_master_replid = newid;
        disconnectSlaves();
    }
    server.master_replid = server.cached_master_replid;
    long long reploff = server.cached_master_reploff;
    int dbid = cached_master_db;
    server.cached_master_replid.clear();
    server.cached_master_reploff = -1;
    if (!replicationCreateMasterClient(reploff, dbid)) return Step::Error;
    if (!server.repl_backlog) createReplicationBacklog();
    serverLog(LL_NOTICE, "MASTER <-> REPLICA sync: Master accepted a Partial Resynchronization.");
    if (server.supervised_mode == SUPERVISED_SYSTEMD)
        redisCommunicateSystemd("STATUS=MASTER <-> REPLICA sync: Partial Resynchronization accepted. Ready to "
                                "accept connections in read-write mode.\n");
    return Step::Wait;
}

/* The PSYNC reply (Redis's slaveTryPartialResynchronization, reading half). */
Step receivePsyncReply() {
    std::string reply;
    if (Step got = receiveHandshakeLine(&reply); got != Step::Next) return got;
    if (reply.empty()) return Step::Wait; /* a newline the master sends while it prepares the reply */
    if (reply.starts_with("+FULLRESYNC")) {
        /* +FULLRESYNC <replid> <offset> */
        size_t id = reply.find(' '), off = id == std::string::npos ? id : reply.find(' ', id + 1);
        if (off == std::string::npos || off - id - 1 != CONFIG_RUN_ID_SIZE) {
            serverLog(LL_WARNING, "Master replied with wrong +FULLRESYNC syntax.");
            server.master_replid.clear(); /* so that the next PSYNC cannot continue it */
        } else {
            server.master_replid = reply.substr(id + 1, CONFIG_RUN_ID_SIZE);
            server.master_initial_offset = strtoll(reply.c_str() + off + 1, nullptr, 10);
            serverLog(LL_NOTICE, "Full resync from master: %s:%lld", server.master_replid.c_str(),
                      server.master_initial_offset);
        }
        return replicationPrepareTransfer();
    }
    if (reply.starts_with("+CONTINUE")) return psyncContinue(reply);
    if (reply.starts_with("-NOMASTERLINK") || reply.starts_with("-LOADING")) {
        serverLog(LL_NOTICE, "Master is currently unable to PSYNC but should be in the future: %s", reply.c_str());
        return Step::Error;
    }
    if (!reply.starts_with("-ERR"))
        serverLog(LL_WARNING, "Unexpected reply to PSYNC from master: %s", reply.c_str());
    else
        serverLog(LL_NOTICE, "Master does not support PSYNC or is in error state (reply: %s)", reply.c_str());
    /* A master older than PSYNC: the old SYNC, and an RDB. */
    serverLog(LL_NOTICE, "Retrying with SYNC...");
    std::string err = sendCommand({"SYNC"});
    if (!err.empty()) {
        serverLog(LL_WARNING, "I/O error writing to MASTER: %s", err.c_str());
        return Step::Error;
    }
    return replicationPrepareTransfer();
}

/* The reply to one handshake command: an error is fatal only for AUTH. */
Step receiveHandshakeReply(int next_state, const char *what) {
    std::string reply;
    if (Step got = receiveHandshakeLine(&reply); got != Step::Next) return got;
    if (!reply.empty() && reply[0] == '-') {
        if (!what) {
            serverLog(LL_WARNING, "Unable to AUTH to MASTER: %s", reply.c_str());
            return Step::Error;
        }
        serverLog(LL_NOTICE, "(Non critical) Master does not understand REPLCONF %s: %s", what, reply.c_str());
    }
    server.repl_state = next_state;
    return Step::Next;
}

Step receivePingReply() {
    std::string reply;
    if (Step got = receiveHandshakeLine(&reply); got != Step::Next) return got;
    /* An error about authentication is expected: AUTH comes next. */
    if (reply.empty() || (reply[0] != '+' && !reply.starts_with("-NOAUTH") && !reply.starts_with("-NOPERM") &&
                          !reply.starts_with("-ERR operation not permitted"))) {
        serverLog(LL_WARNING, "Error reply to PING from master: '%s'", reply.c_str());
        return Step::Error;
    }
    serverLog(LL_NOTICE, "Master replied to PING, replication can continue...");
    server.repl_state = REPL_STATE_SEND_HANDSHAKE;
    return Step::Next;
}

Step connectFired() {
    connection *conn = transfer.s.get();
    if (connGetState(conn) != CONN_STATE_CONNECTED) {
        serverLog(LL_WARNING, "Error condition on socket for SYNC: %s", connGetLastError(conn));
        return Step::Error;
    }
    serverLog(LL_NOTICE, "Non blocking connect for SYNC fired the event.");
    /* From now on the master's replies drive the handshake. */
    if (connSetReadHandler(conn, syncWithMaster) == C_ERR) return Step::Error;
    server.repl_state = REPL_STATE_RECEIVE_PING_REPLY;
    std::string err = sendCommand({"PING"});
    if (!err.empty()) {
        serverLog(LL_WARNING, "Sending command to master in replication handshake: %s", err.c_str());
        return Step::Error;
    }
    return Step::Wait;
}

/* One step of the handshake, for the state it is in. */
Step handshakeStep() {
    switch (server.repl_state) {
    case REPL_STATE_CONNECTING: return connectFired();
    case REPL_STATE_RECEIVE_PING_REPLY: return receivePingReply();
    case REPL_STATE_SEND_HANDSHAKE: return sendHandshake();
    case REPL_STATE_RECEIVE_AUTH_REPLY:
        if (server.masterauth.empty()) {
            server.repl_state = REPL_STATE_RECEIVE_PORT_REPLY;
            return Step::Next;
        }
        return receiveHandshakeReply(REPL_STATE_RECEIVE_PORT_REPLY, nullptr);
    case REPL_STATE_RECEIVE_PORT_REPLY: return receiveHandshakeReply(REPL_STATE_RECEIVE_IP_REPLY, "listening-port");
    case REPL_STATE_RECEIVE_IP_REPLY:
        if (server.slave_announce_ip.empty()) {
            server.repl_state = REPL_STATE_RECEIVE_CAPA_REPLY;
            return Step::Next;
        }
        return receiveHandshakeReply(REPL_STATE_RECEIVE_CAPA_REPLY, "ip-address");
    case REPL_STATE_RECEIVE_CAPA_REPLY: return receiveHandshakeReply(REPL_STATE_SEND_PSYNC, "capa");
    case REPL_STATE_SEND_PSYNC: return sendPsync();
    case REPL_STATE_RECEIVE_PSYNC_REPLY: return receivePsyncReply();
    default:
        serverLog(LL_WARNING, "syncWithMaster(): state machine error, state should be RECEIVE_PSYNC but is %d",
                  server.repl_state);
        return Step::Error;
    }
}

/* The transfer socket's handler until the RDB transfer (or CONNECTED):
 * runs the handshake as far as the replies already in allow. */
void syncWithMaster(connection *) {
    Step step;
    do step = handshakeStep();
    while (step == Step::Next);
    if (step == Step::Error) {
        closeTransferSocket();
        closeTransferFile(true);
        server.repl_state = REPL_STATE_CONNECT; /* the cron tries again in a second */
    }
}

}  // namespace

/* ---- the replicaof directive ------------------------------------------------- */

bool loadReplicaofDirective(std::span<const std::string> argv, std::string &err) {
    if (argv.size() != 3) {
        err = "Bad directive or wrong number of arguments";
        return false;
    }
    if (strEqualNoCase(argv[1], "no") && strEqualNoCase(argv[2], "one")) {
        server.masterhost.clear();
        return true;
    }
    char *end;
    long port = strtol(argv[2].c_str(), &end, 10);
    if (port < 0 || port > 65535 || *end != '\0') {
        err = "Invalid master port";
        return false;
    }
    server.masterhost = argv[1];
    server.masterport = static_cast<int>(port);
    server.repl_state = REPL_STATE_CONNECT;
    return true;
}

std::vector<std::string> rewriteReplicaofDirective() {
    if (server.masterhost.empty()) return {};
    return {"replicaof " + server.masterhost + " " + std::to_string(server.masterport)};
}

namespace {

const char *replstateToString(int replstate) {
    switch (replstate) {
    case SLAVE_STATE_WAIT_BGSAVE_START:
    case SLAVE_STATE_WAIT_BGSAVE_END: return "wait_bgsave";
    case SLAVE_STATE_SEND_BULK: return "send_bulk";
    case SLAVE_STATE_ONLINE: return "online";
    default: return "";
    }
}

/* A replica's address as it announced it, or its connection's peer. */
std::string slaveAddr(const client *slave) {
    return slave->slave_addr.empty() ? clientPeerIp(slave) : slave->slave_addr;
}

} // namespace

/* ==========================================================================
 * replication.h
 * ======================================================================== */

void replicationSetMaster(const std::string &ip, int port) {
    bool was_master = server.masterhost.empty();
    /* masterhost is cleared first: freeing the master client would
     * otherwise reconnect to the old master. */
    server.masterhost.clear();
    if (server.master) freeClient(server.master);
    disconnectAllBlockedClients();
    server.masterhost = ip;
    server.masterport = port;
    /* Our replicas stay: they may PSYNC with us once we follow the new
     * master; they are dropped only if that takes a full sync. */
    cancelReplicationHandshake(false);
    if (was_master) {
        replicationDiscardCachedMaster();
        replicationCacheMasterUsingMyself();
    }
    server.repl_state = REPL_STATE_CONNECT;
    if (was_master) setOOMScoreAdj(-1); /* a replica's oom-score-adj-values now */
    serverLog(LL_NOTICE, "Connecting to MASTER %s:%d", server.masterhost.c_str(), server.masterport);
    connectWithMaster();
}

void replicationUnsetMaster() {
    if (server.masterhost.empty()) return;
    server.masterhost.clear(); /* first: freeing the master client must not reconnect */
    if (server.master) freeClient(server.master);
    replicationDiscardCachedMaster();
    cancelReplicationHandshake(false);
    /* Our replicas continue the same history under a new ID (replid2 lets
     * them PSYNC); they reconnect to learn it. */
    shiftReplicationId();
    disconnectSlaves();
    server.repl_state = REPL_STATE_NONE;
    server.slaveseldb = -1; /* the stream we start needs a SELECT */
    /* The backlog's TTL counts from the promotion, not from the time we
     * last had replicas. */
    server.repl_no_slaves_since = server.unixtime;
    server.repl_down_since = 0;
    setOOMScoreAdj(-1); /* a master's oom-score-adj-values now */
    if (server.aof_enabled && server.aof_state == AOF_OFF && startAppendOnly() != C_OK)
        serverLog(LL_WARNING, "Failed enabling the AOF after the promotion to master");
}

void replicationCloseLinkOnShutdown() { closeTransferSocket(); }

void replicationCronReplica() {
    if (server.masterhost.empty()) return;
    const time_t now = time(nullptr);
    if ((server.repl_state == REPL_STATE_CONNECTING || slaveIsInHandshakeState()) &&
        now - transfer.lastio > server.repl_timeout) {
        serverLog(LL_WARNING, "Timeout connecting to the MASTER...");
        cancelReplicationHandshake(true);
    }
    if (server.repl_state == REPL_STATE_TRANSFER && now - transfer.lastio > server.repl_timeout) {
        serverLog(LL_WARNING,
                  "Timeout receiving bulk data from MASTER... If the problem persists try to set the "
                  "'repl-timeout' parameter in redis.conf to a larger value.");
        cancelReplicationHandshake(true);
    }
    if (server.repl_state == REPL_STATE_CONNECTED && server.master &&
        now - server.master->lastinteraction / 1000 > server.repl_timeout) {
        serverLog(LL_WARNING, "MASTER timeout: no data nor PING received...");
        freeClient(server.master);
    }
    if (server.repl_state == REPL_STATE_CONNECT) {
        serverLog(LL_NOTICE, "Connecting to MASTER %s:%d", server.masterhost.c_str(), server.masterport);
        connectWithMaster();
    }
    /* A master without offsets (before PSYNC) would not understand ACKs. */
    if (server.master && !(server.master->flags & CLIENT_PRE_PSYNC)) replicationSendAck();
}

void replicationSendAck() {
    client *c = server.master;
    if (!c) return;
    c->flags |= CLIENT_MASTER_FORCE_REPLY;
    addReplyArrayLen(c, 3);
    addReplyBulk(c, "REPLCONF");
    addReplyBulk(c, "ACK");
    addReplyBulkLongLong(c, c->reploff);
    c->flags &= ~CLIENT_MASTER_FORCE_REPLY;
}

/* INFO replication, Redis 7.0.15's fields in its order. */
void genReplicationInfoString(std::string &out) {
    InfoSection info(out, "Replication");
    info.field("role", server.masterhost.empty() ? "master" : "slave");
    if (!server.masterhost.empty()) {
        long long slave_repl_offset = 1, slave_read_repl_offset = 1;
        if (server.master) {
            slave_repl_offset = server.master->reploff;
            slave_read_repl_offset = server.master->read_reploff;
        } else if (haveCachedMaster()) {
            slave_repl_offset = slave_read_repl_offset = server.cached_master_reploff;
        }
        info.field("master_host", server.masterhost)
            .field("master_port", server.masterport)
            .field("master_link_status", server.repl_state == REPL_STATE_CONNECTED ? "up" : "down")
            .field("master_last_io_seconds_ago",
                   server.master ? static_cast<int>(server.unixtime - server.master->lastinteraction / 1000) : -1)
            .field("master_sync_in_progress", server.repl_state == REPL_STATE_TRANSFER ? 1 : 0)
            .field("slave_read_repl_offset", slave_read_repl_offset)
            .field("slave_repl_offset", slave_repl_offset);
        if (server.repl_state == REPL_STATE_TRANSFER) {
            double perc = transfer.size > 0 ? static_cast<double>(transfer.read) / transfer.size * 100 : 0;
            char percstr[32];
            snprintf(percstr, sizeof(percstr), "%.2f", perc);
            info.field("master_sync_total_bytes", transfer.size)
                .field("master_sync_read_bytes", transfer.read)
                .field("master_sync_left_bytes", transfer.size - transfer.read)
                .field("master_sync_perc", percstr)
                .field("master_sync_last_io_seconds_ago", static_cast<int>(server.unixtime - transfer.lastio));
        }
        if (server.repl_state != REPL_STATE_CONNECTED)
            info.field("master_link_down_since_seconds",
                       server.repl_down_since ? static_cast<long long>(server.unixtime - server.repl_down_since) : -1LL);
        info.field("slave_priority", server.slave_priority)
            .field("slave_read_only", server.repl_slave_ro ? 1 : 0)
            .field("replica_announced", server.replica_announced ? 1 : 0);
    }
    info.field("connected_slaves", static_cast<unsigned long>(server.slaves.size()));
    if (server.repl_min_slaves_to_write && server.repl_min_slaves_max_lag)
        info.field("min_slaves_good_slaves", server.repl_good_slaves_count);
    int slaveid = 0;
    for (const client *slave : server.slaves) {
        const char *state = replstateToString(slave->replstate);
        if (!*state) continue;
        long lag = slave->replstate == SLAVE_STATE_ONLINE ? static_cast<long>(time(nullptr) - slave->repl_ack_time) : 0;
        std::string line = "ip=" + slaveAddr(slave) + ",port=" + std::to_string(slave->slave_listening_port) +
                           ",state=" + state + ",offset=" + std::to_string(slave->repl_ack_off) +
                           ",lag=" + std::to_string(lag);
        info.field(("slave" + std::to_string(slaveid++)).c_str(), line);
    }
    info.field("master_failover_state", "no-failover")
        .field("master_replid", server.replid)
        .field("master_replid2", server.replid2)
        .field("master_repl_offset", server.master_repl_offset)
        .field("second_repl_offset", server.second_replid_offset)
        .field("repl_backlog_active", server.repl_backlog ? 1 : 0)
        .field("repl_backlog_size", server.repl_backlog_size)
        .field("repl_backlog_first_byte_offset", server.repl_backlog ? server.repl_backlog_off : 0)
        .field("repl_backlog_histlen", server.repl_backlog ? server.repl_backlog_histlen : 0);
}

void replicaofCommand(client *c) {
    if (strEqualNoCase(c->argv[1], "no") && strEqualNoCase(c->argv[2], "one")) {
        if (!server.masterhost.empty()) {
            replicationUnsetMaster();
            serverLog(LL_NOTICE, "MASTER MODE enabled (user request from '%s')", catClientInfoString(c).c_str());
        }
        addReply(c, shared::ok);
        return;
    }
    /* Changing master drops our replicas, this one among them. */
    if (c->flags & CLIENT_SLAVE) {
        addReplyError(c, "Command is not valid when client is a replica.");
        return;
    }
    long port;
    if (!getRangeLongFromObjectOrReply(c, c->argv[2], 0, 65535, &port, "Invalid master port")) return;
    if (!server.masterhost.empty() && strEqualNoCase(server.masterhost, c->argv[1]) && server.masterport == port) {
        serverLog(LL_NOTICE,
                  "REPLICAOF would result into synchronization with the master we are already connected with. No "
                  "operation performed.");
        addReply(c, "+OK Already connected to specified master\r\n");
        return;
    }
    replicationSetMaster(std::string(c->argv[1]), static_cast<int>(port));
    serverLog(LL_NOTICE, "REPLICAOF %s:%d enabled (user request from '%s')", server.masterhost.c_str(),
              server.masterport, catClientInfoString(c).c_str());
    addReply(c, shared::ok);
}

void roleCommand(client *c) {
    if (server.masterhost.empty()) {
        addReplyArrayLen(c, 3);
        addReplyBulk(c, "master");
        addReplyLongLong(c, server.master_repl_offset);
        void *count = addReplyDeferredLen(c);
        long online = 0;
        for (const client *slave : server.slaves) {
            if (slave->replstate != SLAVE_STATE_ONLINE) continue;
            addReplyArrayLen(c, 3);
            addReplyBulk(c, slaveAddr(slave));
            addReplyBulkLongLong(c, slave->slave_listening_port);
            addReplyBulkLongLong(c, slave->repl_ack_off);
            online++;
        }
        setDeferredArrayLen(c, count, online);
        return;
    }
    const char *state;
    if (slaveIsInHandshakeState()) state = "handshake";
    else switch (server.repl_state) {
        case REPL_STATE_CONNECT: state = "connect"; break;
        case REPL_STATE_CONNECTING: state = "connecting"; break;
        case REPL_STATE_TRANSFER: state = "sync"; break;
        case REPL_STATE_CONNECTED: state = "connected"; break;
        default: state = "unknown"; break;
        }
    addReplyArrayLen(c, 5);
    addReplyBulk(c, "slave");
    addReplyBulk(c, server.masterhost);
    addReplyLongLong(c, server.masterport);
    addReplyBulk(c, state);
    addReplyLongLong(c, server.master ? server.master->reploff : -1);
}
