/* networking.cpp — clients (Redis's networking.c): accepting them, reading
 * and parsing their requests, buffering their replies and writing them back.
 *
 * The life of a request:
 *   readQueryFromClient   reads up to 16 KB into the client's query buffer;
 *   processInputBuffer    parses as many complete requests as the buffer
 *                         holds (inline or multibulk, see the two parsers
 *                         below) and runs each with processCommand();
 *   addReply*             append the reply to the client's 16 KB static
 *                         buffer, then to a list of blocks, and queue the
 *                         client in server.clients_pending_write;
 *   beforeSleep           calls handleClientsWithPendingWrites, which writes
 *                         straight to the socket, and installs a write handler
 *                         (sendReplyToClient) only if the kernel did not take
 *                         everything; that handler waits while the AOF has
 *                         unwritten data (aof.h).
 * A client whose reply list outgrows its class's client-output-buffer-limit
 * (a subscriber that stopped reading) is closed instead.
 * Invariants:
 *  - argv views point into the query buffer; the buffer is only trimmed
 *    between requests, and while a request is partial its arguments are kept
 *    as offsets, so growing the buffer never invalidates them.
 *  - freeClient() runs at once only where nothing on the stack touches the
 *    client afterwards: its accept or read handler, which returns at once
 *    (an error, EOF, a query buffer over its limit); the crons (an idle
 *    client, an output buffer over its limit, a timed-out replica or
 *    master); a replica's RDB write handler; the AOF loader's fake client;
 *    and another client's command (CLIENT KILL, ACL DELUSER/LOAD's
 *    freeClientsOf, REPLICAOF's disconnectSlaves and its dropping of the old
 *    master), which never frees the client running it: that one is flagged
 *    CLIENT_CLOSE_AFTER_REPLY instead. Where the client may be mid-command,
 *    mid-reply or in a list being walked (writing its replies, an output
 *    buffer limit reached while replying or publishing, replication walking
 *    its replicas), freeClientAsync() defers it to beforeSleep.
 */
#include "networking.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstring>
#include <sys/uio.h>
#include <unistd.h>

#include "anet.h"
#include "log.h"
#include "livetrace.h"
#include "tls.h" /* acceptTLSHandler: connCreateAcceptedTLS */
#include "util.h"
#include "version.h"

/* Networking sits below server.h (tools/check_layers.sh): it sees its own
 * part of the server, under the usual name. */
using networking::server;

/* ========================================================================
 * Calls up (networking.h): what installServerHooks (hooks.cpp) handed over
 * ====================================================================== */

static processCommandProc processCommandHook;
static std::vector<freeClientProc> freeClientProcs;
static repliesMustWaitProc repliesMustWaitHook;
static masterStreamProcessedProc masterStreamProcessedHook;
static dbIdProc dbIdHook;
static aclNetworkingHooks aclHooks;

void registerProcessCommand(processCommandProc proc) {
    processCommandHook = proc;
}

void registerFreeClientProc(freeClientProc proc) {
    freeClientProcs.push_back(proc);
}

void registerMasterStreamProcessed(masterStreamProcessedProc proc) {
    masterStreamProcessedHook = proc;
}

void registerRepliesMustWait(repliesMustWaitProc proc) {
    repliesMustWaitHook = proc;
}

void registerDbId(dbIdProc proc) {
    dbIdHook = proc;
}

void registerACLNetworkingHooks(const aclNetworkingHooks &hooks) {
    aclHooks = hooks;
}

/* ========================================================================
 * Client creation and destruction
 * ====================================================================== */

client::client() = default;

client::~client() = default; /* conn, if any, closes itself */

/* Creates a client for a connection, or a socketless one when conn is null
 * (scripting's and the AOF loader's clients, benchmarks). */
client *createClient(connectionPtr conn) {
    auto owned = std::make_unique<client>();
    client *c = owned.get();
    if (conn) {
        connNonBlock(conn.get());
        connEnableTcpNoDelay(conn.get());
        if (server.tcpkeepalive) connKeepAlive(conn.get(), server.tcpkeepalive);
        connSetPrivateData(conn.get(), c);
        if (connSetReadHandler(conn.get(), readQueryFromClient) == C_ERR) return nullptr;
        c->addr = connFormatAddr(conn.get(), true);
        c->laddr = connFormatAddr(conn.get(), false);
        c->conn = std::move(conn);
    }
    c->id = server.next_client_id++;
    c->db = server.db.get(); /* db 0 (none in unit tests that never initServer) */
    c->buf = std::make_unique_for_overwrite<char[]>(PROTO_REPLY_CHUNK_BYTES);
    c->buf_peak = c->buf_usable_size;
    c->buf_peak_last_reset_time = server.mstime;
    c->ctime = server.unixtime;
    c->lastinteraction = server.mstime;
    if (aclHooks.clientSetDefaultAuth) aclHooks.clientSetDefaultAuth(c);
    server.clients.push_back(std::move(owned));
    c->self = std::prev(server.clients.end());
    server.clients_index[c->id] = c;
    return c;
}

static void eraseClientPointer(std::vector<client *> &v, client *c) {
    v.erase(std::remove(v.begin(), v.end(), c), v.end());
}

void freeClient(client *c) {
    if (server.current_client == c) server.current_client = nullptr;
    /* The mechanisms' structures point at c (watched keys, waiting lists,
     * subscriptions): each lets go first. Nothing may ever be popped for,
     * or published to, a client that is gone. */
    for (freeClientProc proc : freeClientProcs) proc(c);
    if (c->flags & CLIENT_PENDING_WRITE) eraseClientPointer(server.clients_pending_write, c);
    if (c->flags & CLIENT_CLOSE_ASAP) eraseClientPointer(server.clients_to_close, c);
    server.clients_index.erase(c->id);
    server.clients.erase(c->self); /* destroys c and closes its connection */
}

void freeClientAsync(client *c) {
    if (c->flags & CLIENT_CLOSE_ASAP) return;
    c->flags |= CLIENT_CLOSE_ASAP;
    server.clients_to_close.push_back(c);
}

void freeClientsInAsyncFreeQueue() {
    while (!server.clients_to_close.empty()) {
        client *c = server.clients_to_close.back();
        server.clients_to_close.pop_back();
        c->flags &= ~CLIENT_CLOSE_ASAP;
        freeClient(c);
    }
}

/* ========================================================================
 * Accepting connections
 * ====================================================================== */

static constexpr int MAX_ACCEPTS_PER_CALL = 1000;

/* Redis's words, sent before closing a client protected mode refuses. */
static constexpr std::string_view protected_mode_err =
    "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set "
    "for the default user. In this mode connections are only accepted from the loopback interface. If you "
    "want to connect from external computers to Redis you may adopt one of the following solutions: "
    "1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback "
    "interface by connecting to Redis from the same host the server is running, however MAKE SURE Redis is "
    "not publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. "
    "2) Alternatively you can just disable the protected mode by editing the Redis configuration file, and "
    "setting the protected mode option to 'no', and then restarting the server. 3) If you started the server "
    "manually just for testing, restart it with the '--protected-mode no' option. 4) Setup a an "
    "authentication password for the default user. NOTE: You only need to do one of the above things in "
    "order for the server to start accepting connections from the outside.\r\n";

std::string clientPeerIp(const client *c) {
    if (c->flags & CLIENT_UNIX_SOCKET) return "/unixsocket";
    std::string_view ip(c->addr);
    ip = ip.substr(0, ip.rfind(':'));
    if (ip.size() >= 2 && ip.front() == '[') ip = ip.substr(1, ip.size() - 2);
    return std::string(ip);
}

/* A peer of 127.0.0.1 or ::1 exactly, or any client of the unix socket. */
bool islocalClient(const client *c) {
    if (c->flags & CLIENT_UNIX_SOCKET) return true;
    std::string ip = clientPeerIp(c);
    return ip == "127.0.0.1" || ip == "::1";
}

/* Protected mode, as Redis 7.0: while the default user has no password
 * a client is served only if local, whatever `bind` says. */
static bool protectedModeRefuses(const client *c) {
    bool nopass = !aclHooks.defaultUserIsNopass || aclHooks.defaultUserIsNopass();
    return server.protected_mode && nopass && !islocalClient(c);
}

/* The connection is ready (TLS: its handshake done) or failed. */
static void clientAcceptHandler(connection *conn) {
    client *c = static_cast<client *>(connGetPrivateData(conn));
    if (connGetState(conn) != CONN_STATE_CONNECTED) {
        serverLog(LL_WARNING, "Error accepting a client connection: %s", connGetLastError(conn));
        freeClient(c);
        return;
    }
    if (protectedModeRefuses(c)) {
        ssize_t ignored = connWrite(conn, protected_mode_err.data(), protected_mode_err.size());
        (void)ignored;
        server.stat_rejected_conn++;
        freeClient(c);
        return;
    }
    server.stat_numconnections++;
}

/* A client for the accepted connection, flagged `flags` (CLIENT_UNIX_SOCKET
 * or 0), unless maxclients turns it away; protected mode is asked once the
 * connection is ready (clientAcceptHandler). */
static void acceptCommonHandler(connectionPtr conn, uint64_t flags) {
    if (connGetState(conn.get()) != CONN_STATE_ACCEPTING) {
        serverLog(LL_VERBOSE, "Accepted client connection in error state: %s", connGetLastError(conn.get()));
        return;
    }
    if (server.clients.size() >= server.maxclients) {
        static constexpr std::string_view err = "-ERR max number of clients reached\r\n";
        /* Best effort: the socket is new, so the write almost always fits
         * (TLS has no handshake yet: nothing is written, it just drops). */
        ssize_t ignored = connWrite(conn.get(), err.data(), err.size());
        (void)ignored;
        server.stat_rejected_conn++;
        return;
    }
    connection *raw = conn.get();
    client *c = createClient(std::move(conn));
    if (!c) {
        serverLog(LL_WARNING, "Error registering fd event for the new client: %s", strerror(errno));
        return;
    }
    c->flags |= flags;
    /* A unix socket's peer has no address: Redis shows the socket's path
     * for both ends (genClientAddrString). */
    if (flags & CLIENT_UNIX_SOCKET) c->addr = c->laddr = server.unixsocket + ":0";
    /* May run clientAcceptHandler now (a socket) or later (TLS): nothing
     * of the client may be touched after it. */
    connAccept(raw, clientAcceptHandler);
}

/* Accepts on a TCP listener, each connection made by `create` (the plain
 * or the TLS kind, after the listener). */
static void acceptOn(int fd, connectionPtr (*create)(int fd)) {
    for (int max = MAX_ACCEPTS_PER_CALL; max--;) {
        std::string err, ip;
        int port = 0;
        int cfd = anetTcpAccept(err, fd, ip, port);
        if (cfd == ANET_ERR) {
            if (errno != EWOULDBLOCK && errno != EAGAIN)
                serverLog(LL_WARNING, "Accepting client connection: %s", err.c_str());
            return;
        }
        serverLog(LL_VERBOSE, "Accepted %s:%d", ip.c_str(), port);
        acceptCommonHandler(create(cfd), 0);
    }
}

void acceptTcpHandler(aeEventLoop *, int fd, void *, int) { acceptOn(fd, connCreateAcceptedSocket); }
void acceptTLSHandler(aeEventLoop *, int fd, void *, int) {
    acceptOn(fd, [](int cfd) { return connCreateAcceptedTLS(cfd, server.tls_auth_clients); });
}

/* Clients of the unix socket are plain sockets too. */
void acceptUnixHandler(aeEventLoop *, int fd, void *, int) {
    for (int max = MAX_ACCEPTS_PER_CALL; max--;) {
        std::string err;
        int cfd = anetUnixAccept(err, fd);
        if (cfd == ANET_ERR) {
            if (errno != EWOULDBLOCK && errno != EAGAIN)
                serverLog(LL_WARNING, "Accepting client connection: %s", err.c_str());
            return;
        }
        serverLog(LL_VERBOSE, "Accepted connection to %s", server.unixsocket.c_str());
        acceptCommonHandler(connCreateAcceptedSocket(cfd), CLIENT_UNIX_SOCKET);
    }
}

/* ========================================================================
 * Building replies
 * ====================================================================== */

void putClientInPendingWriteQueue(client *c) {
    if (!(c->flags & CLIENT_PENDING_WRITE)) {
        c->flags |= CLIENT_PENDING_WRITE;
        server.clients_pending_write.push_back(c);
    }
}

/* Queues the client for a write in beforeSleep, the first time it has
 * output. Socketless clients keep their output in the buffers. The master
 * gets no replies (but REPLCONF ACK's); a replica that is not online yet
 * keeps the stream in its buffers until the RDB is sent. */
static inline bool prepareClientToWrite(client *c) {
    if (c->flags & CLIENT_CLOSE_ASAP) return false;
    /* CLIENT REPLY OFF / SKIP silence replies, not push messages. */
    if ((c->flags & (CLIENT_REPLY_OFF | CLIENT_REPLY_SKIP)) && !(c->flags & CLIENT_PUSHING)) return false;
    if ((c->flags & CLIENT_MASTER) && !(c->flags & CLIENT_MASTER_FORCE_REPLY)) return false;
    if (!c->conn) return true;
    if (c->replstate == 0 || (c->replstate == SLAVE_STATE_ONLINE && !c->repl_start_cmd_stream_on_ack))
        putClientInPendingWriteQueue(c);
    return true;
}

static size_t _addReplyToBuffer(client *c, const char *s, size_t len) {
    if (!c->reply.empty()) return 0; /* order: once the list is used, append there */
    size_t avail = c->buf_usable_size - c->bufpos;
    size_t n = std::min(avail, len);
    memcpy(c->buf.get() + c->bufpos, s, n);
    c->bufpos += n;
    if (c->buf_peak < c->bufpos) c->buf_peak = c->bufpos;
    return n;
}

static void _addReplyProtoToList(client *c, const char *s, size_t len) {
    if (!c->reply.empty()) {
        clientReplyBlock &tail = c->reply.back();
        size_t n = std::min(tail.size - tail.used, len);
        if (n) memcpy(tail.buf.get() + tail.used, s, n); /* a deferred-length block is still empty (null) */
        tail.used += n;
        s += n;
        len -= n;
    }
    if (len == 0) return;
    size_t size = std::max(len, PROTO_REPLY_CHUNK_BYTES);
    clientReplyBlock block{size, len, std::make_unique_for_overwrite<char[]>(size)};
    memcpy(block.buf.get(), s, len);
    c->reply.push_back(std::move(block));
    c->reply_bytes += size;
    closeClientOnOutputBufferLimitReached(c, true);
}

void addReplyProto(client *c, const char *s, size_t len) {
    if (!prepareClientToWrite(c)) return;
    size_t n = _addReplyToBuffer(c, s, len);
    if (n != len) _addReplyProtoToList(c, s + n, len - n);
}

void addReply(client *c, std::string_view proto) { addReplyProto(c, proto.data(), proto.size()); }

/* Writes "<prefix><ll>\r\n" — the header of arrays, bulks and integers. */
static void addReplyLongLongWithPrefix(client *c, long long ll, char prefix) {
    char buf[32];
    buf[0] = prefix;
    int len = ll2string(buf + 1, sizeof(buf) - 1, ll);
    buf[len + 1] = '\r';
    buf[len + 2] = '\n';
    addReplyProto(c, buf, len + 3);
}

void addReplyLongLong(client *c, long long v) {
    if (v == 0) return addReply(c, shared::czero);
    if (v == 1) return addReply(c, shared::cone);
    addReplyLongLongWithPrefix(c, v, ':');
}

/* The aggregate headers. RESP3 gives maps, sets and push messages types
 * of their own; under RESP2 they are arrays (a map of n pairs: 2n
 * elements). Every command writes through these, so a command's RESP3
 * types are chosen here, not per command (Redis's addReplyMapLen...). */
void addReplyArrayLen(client *c, long long len) { addReplyLongLongWithPrefix(c, len, '*'); }
void addReplyMapLen(client *c, long long len) {
    if (c->resp == 2) addReplyLongLongWithPrefix(c, len * 2, '*');
    else addReplyLongLongWithPrefix(c, len, '%');
}
void addReplySetLen(client *c, long long len) { addReplyLongLongWithPrefix(c, len, c->resp == 2 ? '*' : '~'); }
void addReplyPairsLen(client *c, long long len) { addReplyArrayLen(c, c->resp == 2 ? len * 2 : len); }
void addReplyPairLen(client *c) {
    if (c->resp != 2) addReplyArrayLen(c, 2);
}
void addReplyPairedMapLen(client *c, long long len) { addReplyLongLongWithPrefix(c, len, c->resp == 2 ? '*' : '%'); }
void addReplyPairedMapEntry(client *c) {
    if (c->resp == 2) addReplyArrayLen(c, 2);
}
void addReplyAttributeLen(client *c, long long len) { addReplyLongLongWithPrefix(c, len, '|'); }
void addReplyPushLen(client *c, long long len) { addReplyLongLongWithPrefix(c, len, c->resp == 2 ? '*' : '>'); }

void addReplyBulk(client *c, std::string_view s) {
    addReplyLongLongWithPrefix(c, static_cast<long long>(s.size()), '$');
    addReplyProto(c, s.data(), s.size());
    addReplyProto(c, "\r\n", 2);
}

void addReplyBulkLongLong(client *c, long long v) {
    char buf[32];
    int len = ll2string(buf, sizeof(buf), v);
    addReplyBulk(c, std::string_view(buf, len));
}

/* A bulk string under RESP2, RESP3's double type (",1.5") otherwise. */
void addReplyDouble(client *c, double d) {
    char buf[128];
    int len = d2string(buf, sizeof(buf), d);
    if (c->resp == 2) return addReplyBulk(c, std::string_view(buf, len));
    addReplyProto(c, ",", 1);
    addReplyProto(c, buf, len);
    addReplyProto(c, "\r\n", 2);
}

/* A long double in its human form (%.17Lg, no exponent, trailing zeros
 * trimmed): GEOPOS's coordinates. */
void addReplyHumanLongDouble(client *c, long double d) {
    char buf[MAX_LONG_DOUBLE_CHARS];
    int len = ld2string(buf, sizeof(buf), d, LD_STR_HUMAN);
    if (c->resp == 2) return addReplyBulk(c, std::string_view(buf, len));
    addReplyProto(c, ",", 1);
    addReplyProto(c, buf, len);
    addReplyProto(c, "\r\n", 2);
}

/* A number too big for an integer reply: RESP3's big number "(...". */
void addReplyBigNum(client *c, std::string_view digits) {
    if (c->resp == 2) return addReplyBulk(c, digits);
    addReplyProto(c, "(", 1);
    addReplyProto(c, digits.data(), digits.size());
    addReplyProto(c, "\r\n", 2);
}

void addReplyBool(client *c, bool b) {
    if (c->resp == 2) addReply(c, b ? shared::cone : shared::czero);
    else addReply(c, b ? "#t\r\n" : "#f\r\n");
}

/* RESP3 has one null, "_"; RESP2 a null bulk and a null array. */
void addReplyNull(client *c) { addReply(c, c->resp == 2 ? shared::null_bulk : "_\r\n"); }
void addReplyNullArray(client *c) { addReply(c, c->resp == 2 ? shared::null_array : "_\r\n"); }

/* RESP3's verbatim string ("=<len>\r\ntxt:..."): text meant for a human,
 * which a client may print as is. `ext` is its three-letter format. */
void addReplyVerbatim(client *c, std::string_view text, const char *ext) {
    if (c->resp == 2) return addReplyBulk(c, text);
    addReplyLongLongWithPrefix(c, static_cast<long long>(text.size()) + 4, '=');
    addReplyProto(c, ext, 3);
    addReplyProto(c, ":", 1);
    addReplyProto(c, text.data(), text.size());
    addReplyProto(c, "\r\n", 2);
}

void addReplyStatus(client *c, std::string_view status) {
    addReplyProto(c, "+", 1);
    addReplyProto(c, status.data(), status.size());
    addReplyProto(c, "\r\n", 2);
}

/* Every error reply is counted (INFO's total_error_replies and
 * errorstat_<PREFIX>). One sent to the client that replays the AOF, to the
 * master or to a replica never reaches anyone, yet means the two sides no
 * longer hold the same data (Redis logs it as critical, and counts it
 * apart). `err` is the text as the caller gave it, without CRLF: "-CODE
 * ..." names its own code, anything else is an ERR. */
static std::string last_error_reply; /* for the trace's call events */

const std::string &lastErrorReply() { return last_error_reply; }

/* The error's code: what follows the '-' up to the first space within its
 * first 32 bytes; "ERR" when there is no '-' or no such space. */
static std::string_view errorCodeOf(std::string_view err) {
    if (err.empty() || err[0] != '-') return "ERR";
    size_t space = err.substr(0, 32).find(' ');
    if (space == std::string_view::npos) return "ERR";
    return err.substr(1, space - 1);
}

static void logErrorToPeer(client *c, int type, std::string_view err) {
    const char *to, *from;
    if (c->id == CLIENT_ID_AOF) to = "AOF-loading-client", from = "server";
    else if (type == CLIENT_TYPE_MASTER) to = "master", from = "replica";
    else to = "replica", from = "master";
    serverLog(LL_WARNING, "== CRITICAL == This %s is sending an error to its %s: '%.*s' after processing the command "
                          "'%s'",
              from, to, static_cast<int>(std::min<size_t>(err.size(), 4096)), err.data(),
              c->lastcmd ? c->lastcmd->fullname.c_str() : "<unknown>");
    server.stat_unexpected_error_replies++;
}

void incrementErrorCount(std::string_view code) {
    auto it = server.errors.find(code);
    if (it == server.errors.end()) it = server.errors.emplace(std::string(code), 0).first;
    it->second++;
}

void resetErrorTableStats() { server.errors.clear(); }

void afterErrorReply(client *c, std::string_view err, int flags) {
    if (!(flags & ERR_REPLY_FLAG_NO_STATS_UPDATE)) {
        server.stat_total_error_replies++;
        incrementErrorCount(errorCodeOf(err));
    } else if (c->cmd) {
        /* Counted when the command that raised it replied it (a script's
         * redis.call); the command that relays it still failed. */
        c->cmd->failed_calls++;
    }
    if (traceOn(TRACE_CMD)) last_error_reply.assign(err);
    int type = getClientType(c);
    if (c->id == CLIENT_ID_AOF || type == CLIENT_TYPE_MASTER || type == CLIENT_TYPE_SLAVE) logErrorToPeer(c, type, err);
}

/* Errors may not contain newlines (they would break the protocol), so, as
 * Redis 7 does, any CR or LF becomes a space. "ERR " is implied unless the
 * text starts with '-' and its own error code. */
void addReplyError(client *c, std::string_view err) { addReplyErrorEx(c, err, 0); }

void addReplyErrorEx(client *c, std::string_view err, int flags) {
    std::string_view err_as_given = err;
    std::string line;
    line.reserve(err.size() + 8);
    if (!err.empty() && err[0] == '-') {
        err.remove_prefix(1);
        line += '-';
    } else {
        line += "-ERR ";
    }
    for (char ch : err) line += (ch == '\r' || ch == '\n') ? ' ' : ch;
    line += "\r\n";
    addReply(c, line);
    afterErrorReply(c, err_as_given, flags);
}

/* A pre-encoded error (shared::wrongtypeerr ...): counted in INFO's
 * total_error_replies and the command's failed_calls like any other. */
void addReplyErrorObject(client *c, std::string_view proto) {
    addReply(c, proto);
    afterErrorReply(c, proto.substr(0, proto.size() - 2), 0);
}

/* For replies chosen by the caller, which may be an error or not. A
 * shared null (lookupKey*OrReply's "missing key" answer, spelled in RESP2)
 * is typed for the client's protocol here, as Redis's shared.null[c->resp]. */
void addReplyOrErrorObject(client *c, std::string_view proto) {
    if (!proto.empty() && proto[0] == '-') addReplyErrorObject(c, proto);
    else if (proto == shared::null_bulk) addReplyNull(c);
    else if (proto == shared::null_array) addReplyNullArray(c);
    else addReply(c, proto);
}

void addReplyErrorFormat(client *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < static_cast<int>(sizeof(small))) {
        va_end(ap2);
        return addReplyError(c, std::string_view(small, n));
    }
    std::string big(n + 1, '\0');
    vsnprintf(big.data(), big.size(), fmt, ap2);
    va_end(ap2);
    big.resize(n);
    addReplyError(c, big);
}

void addReplyErrorArity(client *c) {
    addReplyErrorFormat(c, "wrong number of arguments for '%s' command", c->cmd->fullname.c_str());
}

void addReplySubcommandSyntaxError(client *c) {
    std::string cmd(c->argv[0]);
    std::transform(cmd.begin(), cmd.end(), cmd.begin(), ::toupper);
    addReplyErrorFormat(c, "unknown subcommand or wrong number of arguments for '%.128s'. Try %s HELP.",
                        std::string(c->argv[1]).c_str(), cmd.c_str());
}

/* `help` is a null-terminated list of lines; the title names the command. */
void addReplyHelp(client *c, const char *const *help) {
    std::string cmd(c->argv[0]);
    std::transform(cmd.begin(), cmd.end(), cmd.begin(), ::toupper);
    long n = 0;
    while (help[n]) n++;
    addReplyArrayLen(c, n + 3);
    addReplyStatus(c, cmd + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
    for (long i = 0; i < n; i++) addReplyStatus(c, help[i]);
    addReplyStatus(c, "HELP");
    addReplyStatus(c, "    Prints this help.");
}

/* Deferred lengths: reserve an empty block now, fill in the header once
 * the number of elements is known (Redis's setDeferredReply). The handle
 * is the address of that block, which std::list keeps stable. */
void *addReplyDeferredLen(client *c) {
    if (!prepareClientToWrite(c)) return nullptr;
    c->reply.push_back(clientReplyBlock{0, 0, nullptr});
    return &c->reply.back();
}

static void setDeferredAggregateLen(client *c, void *node, long length, char prefix) {
    if (!node) return;
    auto *block = static_cast<clientReplyBlock *>(node);
    char hdr[32];
    hdr[0] = prefix;
    int len = ll2string(hdr + 1, sizeof(hdr) - 1, length) + 1;
    hdr[len++] = '\r';
    hdr[len++] = '\n';
    block->buf = std::make_unique_for_overwrite<char[]>(len);
    memcpy(block->buf.get(), hdr, len);
    block->size = block->used = len;
    c->reply_bytes += len;
}

void setDeferredArrayLen(client *c, void *node, long length) { setDeferredAggregateLen(c, node, length, '*'); }
void setDeferredMapLen(client *c, void *node, long length) {
    if (c->resp == 2) setDeferredAggregateLen(c, node, length * 2, '*');
    else setDeferredAggregateLen(c, node, length, '%');
}
void setDeferredSetLen(client *c, void *node, long length) {
    setDeferredAggregateLen(c, node, length, c->resp == 2 ? '*' : '~');
}
void setDeferredPairsLen(client *c, void *node, long length) {
    setDeferredAggregateLen(c, node, c->resp == 2 ? length * 2 : length, '*');
}
void setDeferredPairedMapLen(client *c, void *node, long length) {
    setDeferredAggregateLen(c, node, length, c->resp == 2 ? '*' : '%');
}

/* ========================================================================
 * Writing replies
 * ====================================================================== */

bool clientHasPendingReplies(const client *c) { return c->bufpos || !c->reply.empty(); }

/* Drops `n` sent bytes from the front of the output: static buffer first. */
static void consumeSentBytes(client *c, size_t n) {
    if (c->bufpos) {
        size_t take = std::min(n, c->bufpos - c->sentlen);
        c->sentlen += take;
        n -= take;
        if (c->sentlen == c->bufpos) c->bufpos = c->sentlen = 0;
    }
    while (!c->reply.empty() && (n || c->reply.front().used == 0)) {
        clientReplyBlock &head = c->reply.front();
        size_t take = std::min(n, head.used - c->sentlen);
        c->sentlen += take;
        n -= take;
        if (c->sentlen == head.used) {
            c->reply_bytes -= head.size;
            c->reply.pop_front();
            c->sentlen = 0;
        }
    }
}

/* One writev of everything pending (up to IOV_MAX pieces). Returns bytes
 * written, 0 if the connection takes nothing now, -1 once it failed. */
static ssize_t writevToClient(client *c) {
    constexpr int kMaxIov = 64;
    iovec iov[kMaxIov];
    int cnt = 0;
    size_t offset = c->sentlen;
    if (c->bufpos) {
        iov[cnt++] = {c->buf.get() + offset, c->bufpos - offset};
        offset = 0;
    }
    for (auto it = c->reply.begin(); it != c->reply.end() && cnt < kMaxIov; ++it) {
        if (it->used == offset) {
            offset = 0;
            continue;
        }
        iov[cnt++] = {it->buf.get() + offset, it->used - offset};
        offset = 0;
    }
    /* The common case, one small reply in the static buffer: plain write. */
    connection *conn = c->conn.get();
    ssize_t n = cnt == 1 ? connWrite(conn, iov[0].iov_base, iov[0].iov_len) : connWritev(conn, iov, cnt);
    if (n == -1) return connGetState(conn) == CONN_STATE_CONNECTED ? 0 : -1;
    return n;
}

/* Writes as much as the socket takes — at most NET_MAX_WRITES_PER_EVENT,
 * so one client with a huge reply cannot starve the others, but no limit
 * for a replica, as Redis: a master busier than 64 KB of stream per
 * iteration would otherwise grow the replica's buffer without end.
 * Returns C_ERR when the client was scheduled to be freed. */
static int writeToClient(client *c, bool handler_installed) {
    size_t totwritten = 0;
    while (clientHasPendingReplies(c)) {
        ssize_t n = writevToClient(c);
        if (n == -1) {
            serverLog(LL_VERBOSE, "Error writing to client: %s", connGetLastError(c->conn.get()));
            freeClientAsync(c);
            return C_ERR;
        }
        consumeSentBytes(c, n); /* with n == 0 it still drops empty blocks */
        if (n == 0) break;
        totwritten += n;
        if (totwritten > NET_MAX_WRITES_PER_EVENT && !(c->flags & CLIENT_SLAVE)) break;
    }
    /* A replica's stream is replication traffic (total_net_repl_output_bytes). */
    if (getClientType(c) == CLIENT_TYPE_SLAVE) server.stat_net_repl_output_bytes += totwritten;
    else server.stat_net_output_bytes += totwritten;
    server.stat_total_writes_processed++;
    if (totwritten && !(c->flags & CLIENT_MASTER)) c->lastinteraction = server.mstime; /* a master: its reads only */
    if (!clientHasPendingReplies(c)) {
        c->sentlen = 0;
        if (handler_installed) connSetWriteHandler(c->conn.get(), nullptr);
        if (c->flags & CLIENT_CLOSE_AFTER_REPLY) {
            freeClientAsync(c);
            return C_ERR;
        }
    }
    return C_OK;
}

/* The write handler runs in the middle of an event-loop iteration, after
 * read handlers that may have run writes not yet in the AOF: a reply to one
 * of them (or showing its effect) must wait for beforeSleep, which writes
 * the AOF first and then this client's output. Redis inverts the order of
 * the client's own events (AE_BARRIER) instead, which does not cover a
 * reply that shows another client's write (a served BLPOP). */
void sendReplyToClient(connection *conn) {
    if (repliesMustWaitHook && repliesMustWaitHook()) return;
    writeToClient(static_cast<client *>(connGetPrivateData(conn)), true);
}

/* Called from beforeSleep: write replies directly, without a round trip
 * through the event loop; only leftovers get a write handler. With a
 * tally, counts the clients written and their bytes, trace readers apart
 * (their output is the trace's own delivery). */
int handleClientsWithPendingWrites(pendingWritesTally *tally) {
    static std::vector<client *> pending; /* reused: no allocation per call */
    pending.swap(server.clients_pending_write);
    int processed = static_cast<int>(pending.size());
    for (client *c : pending) {
        c->flags &= ~CLIENT_PENDING_WRITE;
        if (c->flags & CLIENT_CLOSE_ASAP) continue;
        long long before = server.stat_net_output_bytes + server.stat_net_repl_output_bytes;
        int written = writeToClient(c, false);
        if (tally && !(c->flags & CLIENT_TRACE_READER)) {
            tally->clients++;
            tally->bytes += server.stat_net_output_bytes + server.stat_net_repl_output_bytes - before;
        }
        if (written == C_ERR) continue;
        if (clientHasPendingReplies(c) && connSetWriteHandler(c->conn.get(), sendReplyToClient) == C_ERR)
            freeClientAsync(c);
    }
    pending.clear();
    return processed;
}

/* ========================================================================
 * Parsing requests
 * ====================================================================== */

/* The parser's state for a new request. */
static void resetRequest(client *c) {
    c->argv.clear();
    c->argv_len_sum = 0;
    c->cmd = nullptr;
    c->req.reqtype = 0;
    c->req.multibulklen = 0;
    c->req.bulklen = -1;
    c->req.argspan.clear();
}

/* Clears the state of the request just run, ready for the next one. The
 * reply of the command after CLIENT REPLY SKIP is the one skipped: a
 * blocked command's comes later, and unblockClient resets it again then. */
void resetClient(client *c) {
    /* CLIENT CACHING concerns the next command or transaction only; any
     * CLIENT subcommand keeps it (Redis's one clientCommand proc). */
    if ((c->flags & CLIENT_TRACKING_CACHING) && !(c->flags & CLIENT_MULTI) &&
        !(c->cmd && c->cmd->parent && c->cmd->parent->fullname == "client"))
        c->flags &= ~CLIENT_TRACKING_CACHING;
    resetRequest(c);
    if (c->flags & CLIENT_BLOCKED) return;
    c->flags &= ~CLIENT_REPLY_SKIP;
    if (c->flags & CLIENT_REPLY_SKIP_NEXT) {
        c->flags |= CLIENT_REPLY_SKIP;
        c->flags &= ~CLIENT_REPLY_SKIP_NEXT;
    }
}

void retainOriginalCommandVector(client *c) {
    if (c->original_argv.empty()) c->original_argv = c->argv;
}

void redactClientCommandArgument(client *c, size_t i) {
    retainOriginalCommandVector(c);
    c->original_argv[i] = "(redacted)";
}

/* The views point into the request, which is reset while the client waits:
 * the bytes move to the client (one buffer, kept for its next block). They
 * never point into that buffer already: it is only used while blocked. */
void keepOriginalArgvWhileBlocked(client *c) {
    std::span<const std::string_view> argv = c->original_argv.empty() ? c->argv : c->original_argv;
    std::string &bytes = c->original_argv_bytes;
    bytes.clear();
    for (std::string_view arg : argv) bytes.append(arg);
    if (c->original_argv.empty()) c->original_argv.resize(argv.size()); /* argv is c->argv then */
    size_t at = 0;
    for (size_t j = 0; j < argv.size(); j++) {
        size_t len = argv[j].size();
        c->original_argv[j] = std::string_view(bytes.data() + at, len);
        at += len;
    }
}

void freeClientOriginalArgv(client *c) { c->original_argv.clear(); }

static void setProtocolError(client *c, const char *errstr) {
    if (logging::server.verbosity <= LL_VERBOSE) {
        std::string snippet;
        catRepr(snippet, std::string_view(c->querybuf.data() + c->req.pos,
                                          std::min<size_t>(c->querybuf.size() - c->req.pos, 128)));
        serverLog(LL_VERBOSE, "Protocol error (%s) from client: %s. Query buffer: %s", errstr,
                  catClientInfoString(c).c_str(), snippet.c_str());
    }
    addReplyErrorFormat(c, "Protocol error: %s", errstr);
    c->flags |= CLIENT_CLOSE_AFTER_REPLY | CLIENT_PROTOCOL_ERROR;
}

/* Turns the parsed (offset, length) spans into argv views. */
static void buildArgv(client *c) {
    const char *base = c->querybuf.data();
    c->argv.clear();
    for (auto [off, len] : c->req.argspan) {
        c->argv.emplace_back(base + off, len);
        c->argv_len_sum += len;
    }
}

/* The parser's verdict (request_parser.h) for the client: a whole request
 * becomes argv (C_OK); an error is replied and closes the client. */
static int afterParse(client *c, ParseStatus st, const std::string &err) {
    if (st == PARSE_ERROR) setProtocolError(c, err.c_str());
    if (st != PARSE_OK) return C_ERR;
    buildArgv(c);
    return C_OK;
}

int processInlineBuffer(client *c) {
    std::string err;
    return afterParse(c, parseInlineRequest(c->querybuf, c->req, err), err);
}

/* Redis 7.0.15: a client that must still authenticate may announce at most
 * 10 arguments of at most 16 KB each, so that it cannot make the server
 * buffer a large request. */
static const char *unauthenticatedRequestError(const client *c) {
    if (c->authenticated || !aclHooks.authRequired || !aclHooks.authRequired(c)) return nullptr;
    constexpr size_t UNAUTH_MAX_ARGS = 10, UNAUTH_MAX_BULK = 16384;
    if (c->req.argspan.size() + static_cast<size_t>(c->req.multibulklen) > UNAUTH_MAX_ARGS)
        return "unauthenticated multibulk length";
    if (c->req.bulklen > static_cast<long long>(UNAUTH_MAX_BULK)) return "unauthenticated bulk length";
    for (auto [off, len] : c->req.argspan)
        if (len > UNAUTH_MAX_BULK) return "unauthenticated bulk length";
    return nullptr;
}

int processMultibulkBuffer(client *c) {
    std::string err;
    ParseStatus st = parseMultibulkRequest(c->querybuf, c->req, server.proto_max_bulk_len, err);
    if (st != PARSE_ERROR) {
        if (const char *unauth = unauthenticatedRequestError(c)) {
            st = PARSE_ERROR;
            err = unauth;
        }
    }
    return afterParse(c, st, err);
}

/* Drops the bytes of requests already run. Arguments of a partial request
 * are offsets from the buffer start, so they are shifted along. */
static void trimQueryBuffer(client *c, size_t request_start) {
    if (request_start == 0) return;
    c->querybuf.consume(request_start);
    c->req.pos -= request_start;
    for (auto &span : c->req.argspan) span.first -= request_start;
}

/* Runs every complete request in the query buffer. On return the buffer
 * starts with the unfinished request, if any, so a call always begins with
 * the current request at offset 0 (its parsed part included). */
void processInputBuffer(client *c) {
    size_t request_start = 0;
    while (c->req.pos < c->querybuf.size()) {
        if (c->flags & (CLIENT_CLOSE_AFTER_REPLY | CLIENT_CLOSE_ASAP)) break;
        /* Blocked: what follows waits in the buffer until processUnblockedClients. */
        if (c->flags & CLIENT_BLOCKED) {
            if (traceOn(TRACE_CMD))
                traceEvent(TRACE_CMD, "processInputBuffer")
                    .client(c->id)
                    .num("pending_bytes", static_cast<long long>(c->querybuf.size() - c->req.pos))
                    .str("why", "blocked")
                    .emit();
            break;
        }
        if (!c->req.reqtype)
            c->req.reqtype = c->querybuf.data()[c->req.pos] == '*' ? PROTO_REQ_MULTIBULK : PROTO_REQ_INLINE;
        int rc = c->req.reqtype == PROTO_REQ_INLINE ? processInlineBuffer(c) : processMultibulkBuffer(c);
        if (rc != C_OK) break;
        if (!c->argv.empty()) {
            server.current_client = c;
            processCommandHook(c);
            server.current_client = nullptr;
            /* Postponed (CLIENT PAUSE): the request stays in the buffer, to
             * be parsed and run afresh once the client is unblocked. */
            if ((c->flags & CLIENT_BLOCKED) && c->btype == BLOCKED_POSTPONE) {
                c->req.pos = request_start;
                resetRequest(c);
                break;
            }
        }
        if ((c->flags & CLIENT_MASTER) && masterStreamProcessedHook)
            masterStreamProcessedHook(c, std::string_view(c->querybuf.data() + request_start, c->req.pos - request_start));
        resetClient(c);
        request_start = c->req.pos;
    }
    if (c->flags & CLIENT_PROTOCOL_ERROR) {
        c->querybuf.clear(); /* nothing more will be read from it */
        c->req.pos = 0;
        return;
    }
    trimQueryBuffer(c, request_start);
}

/* ========================================================================
 * Reading from the socket
 * ====================================================================== */

void readQueryFromClient(connection *conn) {
    client *c = static_cast<client *>(connGetPrivateData(conn));
    size_t readlen = PROTO_IOBUF_LEN;
    /* While a big argument arrives, read exactly what is missing of it, so
     * it lands in the room processMultibulkBuffer reserved for it. */
    const RequestParser &r = c->req;
    if (r.reqtype == PROTO_REQ_MULTIBULK && r.multibulklen &&
        r.bulklen >= static_cast<long long>(PROTO_MBULK_BIG_ARG)) {
        size_t have = c->querybuf.size() - r.pos;
        size_t need = static_cast<size_t>(r.bulklen) + 2;
        if (need > have) readlen = need - have;
    }
    c->querybuf.makeRoomFor(readlen);
    ssize_t nread = connRead(conn, c->querybuf.data() + c->querybuf.size(), readlen);
    if (nread == -1 && connGetState(conn) == CONN_STATE_CONNECTED) return; /* nothing yet */
    if (nread == -1 && connGetState(conn) == CONN_STATE_ERROR) {
        serverLog(LL_VERBOSE, "Reading from client: %s", connGetLastError(conn));
        freeClient(c);
        return;
    }
    if (nread <= 0) {
        serverLog(LL_VERBOSE, "Client closed connection id=%llu addr=%s",
                  static_cast<unsigned long long>(c->id), c->addr.c_str());
        freeClient(c);
        return;
    }
    c->querybuf.commit(nread);
    if (c->flags & CLIENT_MASTER) c->read_reploff += nread;
    c->lastinteraction = server.mstime;
    /* The master's stream is replication traffic (total_net_repl_input_bytes). */
    if (c->flags & CLIENT_MASTER) server.stat_net_repl_input_bytes += nread;
    else server.stat_net_input_bytes += nread;
    server.stat_total_reads_processed++;
    if (!(c->flags & CLIENT_MASTER) && c->querybuf.size() > static_cast<size_t>(server.client_max_querybuf_len)) {
        std::string bytes;
        catRepr(bytes, std::string_view(c->querybuf.data(), std::min<size_t>(c->querybuf.size(), 64)));
        serverLog(LL_WARNING, "Closing client that reached max query buffer length: %s (qbuf initial bytes: %s)",
                  catClientInfoString(c).c_str(), bytes.c_str());
        freeClient(c);
        return;
    }
    processInputBuffer(c);
}

/* ========================================================================
 * The trace's view of the loop: names for the handlers, and who owns an fd
 * ====================================================================== */

/* A listening socket's file event carries no client (clientData nullptr). */
static uint64_t traceClientOfFd(int fd, bool *trace_reader) {
    auto *conn = static_cast<connection *>(aeGetFileClientData(server.el.get(), fd));
    auto *c = conn ? static_cast<client *>(connGetPrivateData(conn)) : nullptr;
    if (!c) return 0;
    *trace_reader = c->flags & CLIENT_TRACE_READER;
    return c->id;
}

void traceNameNetworkingProcs() {
    traceNameProc(reinterpret_cast<const void *>(acceptTcpHandler), "acceptTcpHandler");
    traceNameProc(reinterpret_cast<const void *>(acceptUnixHandler), "acceptUnixHandler");
    traceNameProc(reinterpret_cast<const void *>(readQueryFromClient), "readQueryFromClient");
    traceNameProc(reinterpret_cast<const void *>(sendReplyToClient), "sendReplyToClient");
    traceSetFdOwner(traceClientOfFd);
}

/* ========================================================================
 * Introspection: CLIENT LIST lines
 * ====================================================================== */

static std::string clientFlagsString(const client *c) {
    std::string f;
    if (c->flags & CLIENT_SLAVE) f += (c->flags & CLIENT_MONITOR) ? 'O' : 'S';
    if (c->flags & CLIENT_MASTER) f += 'M';
    if (c->flags & CLIENT_PUBSUB) f += 'P';
    if (c->flags & CLIENT_MULTI) f += 'x';
    if (c->flags & CLIENT_BLOCKED) f += 'b';
    if (c->flags & CLIENT_TRACKING) f += 't';
    if (c->flags & CLIENT_TRACKING_BROKEN_REDIR) f += 'R';
    if (c->flags & CLIENT_TRACKING_BCAST) f += 'B';
    if (c->flags & CLIENT_DIRTY_CAS) f += 'd';
    if (c->flags & CLIENT_CLOSE_AFTER_REPLY) f += 'c';
    if (c->flags & CLIENT_UNBLOCKED) f += 'u';
    if (c->flags & CLIENT_CLOSE_ASAP) f += 'A';
    if (c->flags & CLIENT_UNIX_SOCKET) f += 'U';
    if (c->flags & CLIENT_NO_EVICT) f += 'e';
    if (f.empty()) f = "N";
    return f;
}

std::string catClientInfoString(const client *c) {
    char line[1024];
    std::string ev;
    if (c->conn && connHasReadHandler(c->conn.get())) ev += 'r';
    if (c->conn && connHasWriteHandler(c->conn.get())) ev += 'w';
    size_t obufmem = getClientOutputBufferMemoryUsage(c);
    std::string cmd = c->lastcmd ? c->lastcmd->fullname : "NULL";
    const char *username = c->user && aclHooks.userName ? aclHooks.userName(c->user).c_str() : "(superuser)";
    long long redir = (c->flags & CLIENT_TRACKING) ? static_cast<long long>(c->client_tracking_redirection) : -1;
    snprintf(line, sizeof(line),
             "id=%llu addr=%s laddr=%s fd=%d name=%s age=%lld idle=%lld flags=%s db=%d sub=%zu psub=%zu "
             "ssub=%zu multi=%lld qbuf=%zu qbuf-free=%zu argv-mem=%zu multi-mem=%zu rbs=%zu rbp=%zu "
             "obl=%zu oll=%zu omem=%zu tot-mem=%zu events=%s cmd=%s user=%s redir=%lld resp=%d",
             static_cast<unsigned long long>(c->id), c->addr.c_str(), c->laddr.c_str(), c->conn ? connGetFd(c->conn.get()) : -1,
             c->name.c_str(), static_cast<long long>(server.unixtime - c->ctime),
             static_cast<long long>(server.unixtime - c->lastinteraction / 1000), clientFlagsString(c).c_str(),
             c->db ? dbIdHook(c->db) : 0, c->pubsub_channels.size(), c->pubsub_patterns.size(),
             c->pubsub_shard_channels.size(),
             c->flags & CLIENT_MULTI ? static_cast<long long>(c->mstate.commands.size()) : -1LL,
             c->querybuf.size(), c->querybuf.avail(), c->argv_len_sum, c->mstate.argv_len_sums,
             c->buf_usable_size, c->buf_peak, c->bufpos, c->reply.size(), obufmem,
             getClientMemoryUsage(c), ev.c_str(), cmd.c_str(), username, redir, c->resp);
    return line;
}

std::string getClientPeerId(client *c) { return c->addr; }

/* ========================================================================
 * Output buffer limits (client-output-buffer-limit): a client that does not
 * read what it is sent (a slow subscriber) would make its reply list, and
 * the server, grow without bound. Past its class's hard limit it is closed
 * at once; past the soft limit, once it has stayed there for more than the
 * soft seconds without a break.
 * ====================================================================== */

int getClientType(const client *c) {
    if (c->flags & CLIENT_MASTER) return CLIENT_TYPE_MASTER;
    /* A MONITOR client is flagged a replica too, but is of the normal class. */
    if ((c->flags & CLIENT_SLAVE) && !(c->flags & CLIENT_MONITOR)) return CLIENT_TYPE_SLAVE;
    return (c->flags & CLIENT_PUBSUB) ? CLIENT_TYPE_PUBSUB : CLIENT_TYPE_NORMAL;
}

static constexpr std::pair<const char *, int> kClientTypeNames[] = {
    {"normal", CLIENT_TYPE_NORMAL}, {"slave", CLIENT_TYPE_SLAVE}, {"replica", CLIENT_TYPE_SLAVE},
    {"pubsub", CLIENT_TYPE_PUBSUB}, {"master", CLIENT_TYPE_MASTER}};

int getClientTypeByName(std::string_view name) {
    for (auto [tname, type] : kClientTypeNames)
        if (strEqualNoCase(name, tname)) return type;
    return -1;
}

/* The first name of each type: "slave" (not "replica"), as CONFIG GET prints it. */
const char *getClientTypeName(int type) {
    for (auto [tname, t] : kClientTypeNames)
        if (t == type) return tname;
    return "";
}

static int getClientTypeByNameOrReply(client *c, std::string_view name) {
    int type = getClientTypeByName(name);
    if (type == -1) addReplyErrorFormat(c, "Unknown client type '%s'", std::string(name).c_str());
    return type;
}

/* The reply list's blocks and their list nodes; the static buffer is part
 * of every client and does not count (as in Redis). */
size_t getClientOutputBufferMemoryUsage(const client *c) {
    constexpr size_t node_overhead = sizeof(clientReplyBlock) + 2 * sizeof(void *);
    return c->reply_bytes + c->reply.size() * node_overhead;
}

/* Redis's getClientMemoryUsage (CLIENT LIST tot-mem; MEMORY STATS sums it
 * per type): what the client itself holds (its struct, query buffer, static
 * reply buffer and reply list), its arguments, its transaction and WATCH
 * state and its subscriptions' bookkeeping. */
size_t getClientMemoryUsage(const client *c) {
    size_t mem = getClientOutputBufferMemoryUsage(c) + sizeof(client) + c->querybuf.capacity() + c->buf_usable_size;
    mem += c->argv_len_sum + sizeof(c->argv[0]) * c->argv.size();
    mem += c->mstate.argv_len_sums + c->watched_keys.size() * sizeof(watchedKey) +
           c->mstate.commands.capacity() * sizeof(multiCmd);
    mem += c->pubsub_patterns.size() * sizeof(sds);
    for (const clientChannelsDict *d : {&c->pubsub_channels, &c->pubsub_shard_channels})
        mem += d->size() * sizeof(clientChannelsDict::entry) + d->buckets() * sizeof(void *);
    return mem;
}

bool checkClientOutputBufferLimits(client *c) {
    int type = getClientType(c);
    if (type == CLIENT_TYPE_MASTER) type = CLIENT_TYPE_NORMAL; /* as Redis: the normal class (no limit by default) */
    const clientBufferLimitsConfig &limit = server.client_obuf_limits[type];
    unsigned long long used = getClientOutputBufferMemoryUsage(c);
    bool hard = limit.hard_limit_bytes && used >= limit.hard_limit_bytes;
    bool soft = limit.soft_limit_bytes && used >= limit.soft_limit_bytes;
    if (!soft) {
        c->obuf_soft_limit_reached_time = 0; /* back under: the count starts over */
        return hard;
    }
    if (c->obuf_soft_limit_reached_time == 0) {
        c->obuf_soft_limit_reached_time = server.unixtime;
        return hard;
    }
    return hard || server.unixtime - c->obuf_soft_limit_reached_time > limit.soft_limit_seconds;
}

/* Async when called while replying (the client may be the one running a
 * command, or one being served or published to); clientsCron frees at once. */
bool closeClientOnOutputBufferLimitReached(client *c, bool async) {
    if (!c->conn || c->reply_bytes == 0 || (c->flags & CLIENT_CLOSE_ASAP)) return false;
    if (!checkClientOutputBufferLimits(c)) return false;
    std::string info = catClientInfoString(c);
    if (async) {
        freeClientAsync(c);
        serverLog(LL_WARNING, "Client %s scheduled to be closed ASAP for overcoming of output buffer limits.",
                  info.c_str());
    } else {
        freeClient(c);
        serverLog(LL_WARNING, "Client %s closed for overcoming of output buffer limits.", info.c_str());
    }
    return true;
}

/* ========================================================================
 * clientsCron: per-client housekeeping, a slice of the clients per call
 * ====================================================================== */

/* Closes a client idle for longer than `timeout`. Returns true if freed. */
static bool clientsCronHandleTimeout(client *c, long long now_ms) {
    if (!server.maxidletime) return false;
    if (c->flags & (CLIENT_SLAVE | CLIENT_MASTER)) return false; /* replication has its own timeouts */
    if (c->flags & CLIENT_BLOCKED) return false; /* waiting in BLPOP is not idling */
    if (c->flags & CLIENT_PUBSUB) return false;  /* nor is waiting for messages */
    if ((now_ms - c->lastinteraction) / 1000 <= server.maxidletime) return false;
    serverLog(LL_VERBOSE, "Closing idle client");
    if (traceOn(TRACE_CRON))
        traceEvent(TRACE_CRON, "clientsCronHandleTimeout")
            .client(c->id)
            .num("idle_s", (now_ms - c->lastinteraction) / 1000)
            .num("timeout_s", server.maxidletime)
            .emit();
    freeClient(c);
    return true;
}

/* The reply buffer's peak (CLIENT LIST rbp) covers the last few seconds
 * only: every REPLY_BUFFER_PEAK_RESET_TIME ms it restarts from what the
 * buffer holds now (Redis's reply-buffer-peak-reset-time default). */
static constexpr long long REPLY_BUFFER_PEAK_RESET_TIME = 5000;

static void clientsCronResetReplyBufferPeak(client *c, long long now_ms) {
    if (now_ms - c->buf_peak_last_reset_time < REPLY_BUFFER_PEAK_RESET_TIME) return;
    c->buf_peak = c->bufpos;
    c->buf_peak_last_reset_time = now_ms;
}

/* INFO's client_recent_max_input_buffer / _output_buffer: the largest input
 * and output memory seen on any client in each of the last
 * CLIENTS_PEAK_MEM_USAGE_SLOTS seconds (slot = unixtime % slots), so that
 * INFO reads a few numbers instead of walking every client. */
static constexpr int CLIENTS_PEAK_MEM_USAGE_SLOTS = 8;
static size_t ClientsPeakMemInput[CLIENTS_PEAK_MEM_USAGE_SLOTS];
static size_t ClientsPeakMemOutput[CLIENTS_PEAK_MEM_USAGE_SLOTS];

/* Input is the query buffer's allocation and argv's array: the arguments'
 * bytes live inside the query buffer. */
static void clientsCronTrackExpansiveClients(const client *c, int time_idx) {
    size_t in_usage = c->querybuf.capacity() + c->argv.capacity() * sizeof(c->argv[0]);
    size_t out_usage = getClientOutputBufferMemoryUsage(c);
    ClientsPeakMemInput[time_idx] = std::max(ClientsPeakMemInput[time_idx], in_usage);
    ClientsPeakMemOutput[time_idx] = std::max(ClientsPeakMemOutput[time_idx], out_usage);
}

void getExpansiveClientsInfo(size_t *in_usage, size_t *out_usage) {
    *in_usage = *std::max_element(std::begin(ClientsPeakMemInput), std::end(ClientsPeakMemInput));
    *out_usage = *std::max_element(std::begin(ClientsPeakMemOutput), std::end(ClientsPeakMemOutput));
}

/* Visits numclients/hz clients per call (at least 5), so that every client
 * is seen about once a second whatever hz is, without a long pause. The
 * head of the list is rotated to the tail as it is processed. */
void clientsCron() {
    size_t numclients = server.clients.size();
    size_t iterations = numclients / server.hz;
    constexpr size_t CLIENTS_CRON_MIN_ITERATIONS = 5;
    if (iterations < CLIENTS_CRON_MIN_ITERATIONS)
        iterations = std::min(numclients, CLIENTS_CRON_MIN_ITERATIONS);
    long long now = server.mstime;
    /* The next second's slot starts empty, so that it holds only what is seen
     * in that second. After a stall of the cron (a slow command) a slot may
     * hold older figures: still "recent" enough for this purpose. */
    int curr_peak_mem_usage_slot = static_cast<int>(server.unixtime % CLIENTS_PEAK_MEM_USAGE_SLOTS);
    int zeroidx = (curr_peak_mem_usage_slot + 1) % CLIENTS_PEAK_MEM_USAGE_SLOTS;
    ClientsPeakMemInput[zeroidx] = 0;
    ClientsPeakMemOutput[zeroidx] = 0;
    while (iterations-- && !server.clients.empty()) {
        server.clients.splice(server.clients.end(), server.clients, server.clients.begin());
        client *c = server.clients.back().get();
        if (!c->conn) continue;
        if (clientsCronHandleTimeout(c, now)) continue;
        /* The soft limit's seconds may run out while nothing is appended. */
        if (closeClientOnOutputBufferLimitReached(c, false)) continue;
        c->querybuf.shrinkIfIdle(PROTO_IOBUF_LEN * 2);
        clientsCronResetReplyBufferPeak(c, now);
        clientsCronTrackExpansiveClients(c, curr_peak_mem_usage_slot);
    }
}

/* ========================================================================
 * Connection commands: CLIENT, HELLO, QUIT
 * ====================================================================== */

void quitCommand(client *c) {
    addReply(c, shared::ok);
    c->flags |= CLIENT_CLOSE_AFTER_REPLY;
}

void clientIdCommand(client *c) { addReplyLongLong(c, static_cast<long long>(c->id)); }

void clientInfoCommand(client *c) { addReplyVerbatim(c, catClientInfoString(c) + "\n"); }

/* CLIENT LIST [TYPE normal|master|replica|pubsub] [ID id ...] */
void clientListCommand(client *c) {
    std::vector<long long> ids;
    int type = -1;
    size_t i = 2;
    while (i < c->argv.size()) {
        if (strEqualNoCase(c->argv[i], "type") && i + 1 < c->argv.size()) {
            if ((type = getClientTypeByNameOrReply(c, c->argv[i + 1])) == -1) return;
            i += 2;
        } else if (strEqualNoCase(c->argv[i], "id") && i + 1 < c->argv.size()) {
            for (i++; i < c->argv.size(); i++) {
                long long id;
                if (!string2ll(c->argv[i], &id) || id <= 0)
                    return addReplyError(c, "Invalid client ID");
                ids.push_back(id);
            }
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }
    std::string out;
    for (const auto &owned : server.clients) {
        if (!owned->conn) continue;
        if (!ids.empty() && std::find(ids.begin(), ids.end(), static_cast<long long>(owned->id)) == ids.end())
            continue;
        if (type != -1 && getClientType(owned.get()) != type) continue;
        out += catClientInfoString(owned.get());
        out += '\n';
    }
    addReplyVerbatim(c, out);
}

/* Validates a name as Redis does: printable ASCII without spaces. */
static bool validateClientName(std::string_view name) {
    return std::all_of(name.begin(), name.end(), [](char ch) { return ch >= '!' && ch <= '~'; });
}

void clientSetNameCommand(client *c) {
    if (!validateClientName(c->argv[2]))
        return addReplyError(c, "Client names cannot contain spaces, newlines or special characters.");
    c->name.assign(c->argv[2]);
    addReply(c, shared::ok);
}

void clientGetNameCommand(client *c) {
    if (c->name.empty()) return addReplyNull(c);
    addReplyBulk(c, c->name);
}

/* Closing another client: the current one is closed after its reply,
 * any other one at once (it is not running a command). */
static void killClient(client *c, client *target) {
    if (target == c) c->flags |= CLIENT_CLOSE_AFTER_REPLY;
    else freeClient(target);
}

/* Filters of CLIENT KILL's new form. */
struct ClientKillFilter {
    long long id = 0;
    std::string addr, laddr;
    bool skipme = true;
    const struct user *user = nullptr;
    int type = -1;
    long long maxage = 0;
};

static bool parseClientKillFilter(client *c, ClientKillFilter &f) {
    for (size_t i = 2; i < c->argv.size(); i += 2) {
        if (i + 1 >= c->argv.size()) {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
        std::string_view opt = c->argv[i], val = c->argv[i + 1];
        if (strEqualNoCase(opt, "id")) {
            if (!string2ll(val, &f.id) || f.id <= 0) {
                addReplyError(c, "client-id should be greater than 0");
                return false;
            }
        } else if (strEqualNoCase(opt, "addr")) {
            f.addr.assign(val);
        } else if (strEqualNoCase(opt, "laddr")) {
            f.laddr.assign(val);
        } else if (strEqualNoCase(opt, "type")) {
            if ((f.type = getClientTypeByNameOrReply(c, val)) == -1) return false;
        } else if (strEqualNoCase(opt, "user")) {
            if (!aclHooks.getUserByName || !(f.user = aclHooks.getUserByName(val))) {
                addReplyErrorFormat(c, "No such user '%s'", std::string(val).c_str());
                return false;
            }
        } else if (strEqualNoCase(opt, "skipme")) {
            if (strEqualNoCase(val, "yes")) f.skipme = true;
            else if (strEqualNoCase(val, "no")) f.skipme = false;
            else {
                addReplyErrorObject(c, shared::syntaxerr);
                return false;
            }
        } else if (strEqualNoCase(opt, "maxage")) {
            if (!string2ll(val, &f.maxage) || f.maxage < 0) {
                addReplyErrorObject(c, shared::syntaxerr);
                return false;
            }
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
    }
    return true;
}

static bool clientMatchesKillFilter(client *c, client *other, const ClientKillFilter &f) {
    if (!other->conn) return false;
    if (f.user && other->user != f.user) return false;
    if (f.id && static_cast<long long>(other->id) != f.id) return false;
    if (f.type != -1 && getClientType(other) != f.type) return false;
    if (!f.addr.empty() && other->addr != f.addr) return false;
    if (!f.laddr.empty() && other->laddr != f.laddr) return false;
    if (f.skipme && other == c) return false;
    if (f.maxage && server.unixtime - other->ctime < f.maxage) return false;
    return true;
}

/* CLIENT KILL ip:port (old form, +OK) or CLIENT KILL <filter> <value> ...
 * (new form, replies the number of clients killed). */
void clientKillCommand(client *c) {
    if (c->argv.size() == 3) {
        for (auto &owned : server.clients) {
            if (owned->conn && owned->addr == c->argv[2]) {
                killClient(c, owned.get());
                return addReply(c, shared::ok);
            }
        }
        return addReplyError(c, "No such client");
    }
    ClientKillFilter f;
    if (!parseClientKillFilter(c, f)) return;
    std::vector<client *> victims;
    for (auto &owned : server.clients)
        if (clientMatchesKillFilter(c, owned.get(), f)) victims.push_back(owned.get());
    for (client *v : victims) killClient(c, v);
    addReplyLongLong(c, static_cast<long long>(victims.size()));
}

/* Redis 7.0.15's text, word for word. */
void clientHelpCommand(client *c) {
    static const char *const help[] = {
        "CACHING (YES|NO)",
        "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
        "GETREDIR",
        "    Return the client ID we are redirecting to when tracking is enabled.",
        "GETNAME",
        "    Return the name of the current connection.",
        "ID",
        "    Return the ID of the current connection.",
        "INFO",
        "    Return information about the current client connection.",
        "KILL <ip:port>",
        "    Kill connection made from <ip:port>.",
        "KILL <option> <value> [<option> <value> [...]]",
        "    Kill connections. Options are:",
        "    * ADDR (<ip:port>|<unixsocket>:0)",
        "      Kill connections made from the specified address",
        "    * LADDR (<ip:port>|<unixsocket>:0)",
        "      Kill connections made to specified local address",
        "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
        "      Kill connections by type.",
        "    * USER <username>",
        "      Kill connections authenticated by <username>.",
        "    * SKIPME (YES|NO)",
        "      Skip killing current connection (default: yes).",
        "LIST [options ...]",
        "    Return information about client connections. Options:",
        "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
        "      Return clients of specified type.",
        "UNPAUSE",
        "    Stop the current client pause, resuming traffic.",
        "PAUSE <timeout> [WRITE|ALL]",
        "    Suspend all, or just write, clients for <timeout> milliseconds.",
        "REPLY (ON|OFF|SKIP)",
        "    Control the replies sent to the current connection.",
        "SETNAME <name>",
        "    Assign the name <name> to the current connection.",
        "UNBLOCK <clientid> [TIMEOUT|ERROR]",
        "    Unblock the specified blocked client.",
        "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
        "         [OPTIN] [OPTOUT] [NOLOOP]",
        "    Control server assisted client side caching.",
        "TRACKINGINFO",
        "    Report tracking status for the current connection.",
        "NO-EVICT (ON|OFF)",
        "    Protect current client connection from eviction.",
        nullptr};
    addReplyHelp(c, help);
}

/* HELLO [protover [AUTH user pass] [SETNAME name]]: switches the protocol
 * (2 or 3) once the client is authenticated, and replies who we are (a map,
 * flat in RESP2). Options act in order, as in Redis: a SETNAME before a
 * failing AUTH stays applied. */
void helloCommand(client *c) {
    long long ver = 0;
    size_t j = 1;
    if (c->argv.size() >= 2) {
        if (!string2ll(c->argv[1], &ver)) return addReplyError(c, "Protocol version is not an integer or out of range");
        if (ver < 2 || ver > 3) return addReplyError(c, "-NOPROTO unsupported protocol version");
        j = 2;
    }
    for (; j < c->argv.size(); j++) {
        size_t more = c->argv.size() - j - 1;
        if (strEqualNoCase(c->argv[j], "auth") && more >= 2) {
            redactClientCommandArgument(c, j + 1);
            redactClientCommandArgument(c, j + 2);
            if (aclHooks.authenticateUser && !aclHooks.authenticateUser(c, c->argv[j + 1], c->argv[j + 2]))
                return addReplyError(c, "-WRONGPASS invalid username-password pair or user is disabled.");
            j += 2;
        } else if (strEqualNoCase(c->argv[j], "setname") && more >= 1) {
            std::string_view name = c->argv[++j];
            if (!validateClientName(name))
                return addReplyError(c, "Client names cannot contain spaces, newlines or special characters.");
            c->name.assign(name);
        } else {
            return addReplyErrorFormat(c, "Syntax error in HELLO option '%s'", std::string(c->argv[j]).c_str());
        }
    }
    if (!c->authenticated)
        return addReplyError(c, "-NOAUTH HELLO must be called with the client already authenticated, otherwise the "
                                "HELLO AUTH <user> <pass> option can be used to authenticate the client and select "
                                "the RESP protocol version at the same time");
    if (ver) c->resp = static_cast<int>(ver);
    addReplyMapLen(c, 7);
    addReplyBulk(c, "server");
    addReplyBulk(c, "redis");
    addReplyBulk(c, "version");
    addReplyBulk(c, REDIS_COMPAT_VERSION);
    addReplyBulk(c, "proto");
    addReplyLongLong(c, c->resp);
    addReplyBulk(c, "id");
    addReplyLongLong(c, static_cast<long long>(c->id));
    addReplyBulk(c, "mode");
    addReplyBulk(c, "standalone");
    addReplyBulk(c, "role");
    addReplyBulk(c, logging::server.masterhost.empty() ? "master" : "replica");
    addReplyBulk(c, "modules");
    addReply(c, shared::empty_array);
}

/* Everything queued for the client, in order: how a socketless client
 * (benchmarks, tests, later scripting) reads the replies it was given. */
std::string clientOutputBytes(const client *c) {
    std::string out(c->buf.get() + c->sentlen, c->bufpos - (c->bufpos ? c->sentlen : 0));
    for (const clientReplyBlock &b : c->reply) out.append(b.buf.get(), b.used);
    return out;
}

/* CLIENT REPLY ON|OFF|SKIP: OFF and SKIP themselves get no reply; SKIP
 * silences the next command's (resetClient), unless all are off already. */
void clientReplyCommand(client *c) {
    std::string_view mode = c->argv[2];
    if (strEqualNoCase(mode, "on")) {
        c->flags &= ~(CLIENT_REPLY_SKIP | CLIENT_REPLY_OFF);
        addReply(c, shared::ok);
    } else if (strEqualNoCase(mode, "off")) {
        c->flags |= CLIENT_REPLY_OFF;
    } else if (strEqualNoCase(mode, "skip")) {
        if (!(c->flags & CLIENT_REPLY_OFF)) c->flags |= CLIENT_REPLY_SKIP_NEXT;
    } else {
        addReplyErrorObject(c, shared::syntaxerr);
    }
}

/* CLIENT NO-EVICT ON|OFF: the flag Redis's client eviction (maxmemory-clients)
 * honours; cppredis has no client eviction, so only CLIENT LIST shows it. */
void clientNoEvictCommand(client *c) {
    std::string_view mode = c->argv[2];
    if (strEqualNoCase(mode, "on")) c->flags |= CLIENT_NO_EVICT;
    else if (strEqualNoCase(mode, "off")) c->flags &= ~CLIENT_NO_EVICT;
    else return addReplyErrorObject(c, shared::syntaxerr);
    addReply(c, shared::ok);
}
