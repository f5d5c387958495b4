/* connection.h — the connection abstraction (Redis's connection.h and
 * connection.c): one interface for a client's or a replication link's
 * connection, whatever carries it: a plain socket (TCP, or any fd-based
 * stream socket) or TLS (tls.cpp, Redis's tls.c). Networking and
 * replication read, write, connect, accept and wait for events through it
 * and never ask which kind they hold.
 *
 * Invariants:
 *  - A connection is owned by one connectionPtr (a client's `conn`, the
 *    replica's link before it becomes the master client). Dropping it
 *    closes the connection (connClose): the fd and its events go at once.
 *  - Handlers run through callHandler, which holds a reference: a handler
 *    may close its own connection (freeClient of its client); the object
 *    then outlives the close until the handler returns, and nothing of it
 *    is touched after.
 *  - read/write/writev return what read(2)/write(2)/writev(2) return; -1
 *    with the state still CONN_STATE_CONNECTED means "try again later"
 *    (EAGAIN, or TLS wanting the other direction), any other state means
 *    the connection is finished (connGetLastError says why).
 *  - TLS may hold decrypted bytes no socket event will announce
 *    (SSL_pending): such connections are listed, and beforeSleep runs
 *    connProcessPendingData and keeps the loop from sleeping while
 *    connHasPendingData (tls.h).
 */
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <memory>
#include <string>

#include "ae.h"

constexpr int CONN_STATE_NONE = 0, CONN_STATE_CONNECTING = 1, CONN_STATE_ACCEPTING = 2,
              CONN_STATE_CONNECTED = 3, CONN_STATE_CLOSED = 4, CONN_STATE_ERROR = 5;
constexpr int CONN_TYPE_SOCKET = 1, CONN_TYPE_TLS = 2;

/* What one write event sends at most (Redis 7.0's number): networking's
 * writeToClient stops there, and TLS, which has no writev, copies a
 * writev of up to this many bytes into one record. */
constexpr size_t NET_MAX_WRITES_PER_EVENT = 64 * 1024;

/* tls-auth-clients (Redis's TLS_CLIENT_AUTH_*): whether an accepted TLS
 * connection asks its peer for a certificate. Declared with the kinds of
 * connection, not in tls.h, because networking's settings hold it
 * (redisServerNetworking) and networking needs nothing else of TLS. */
constexpr int TLS_CLIENT_AUTH_NO = 0, TLS_CLIENT_AUTH_YES = 1, TLS_CLIENT_AUTH_OPTIONAL = 2;

/* The connections' part of Redis's struct redisServer: the event loop
 * their events live in. redisServerNetworking (networking.h), and so the
 * global `server`, derives from it; the kinds of connection, below
 * networking, reach it as connections::server (bound in server.cpp). */
struct redisServerConnection {
    std::unique_ptr<aeEventLoop> el;
};

namespace connections {
extern redisServerConnection &server;
}

struct connection;
using ConnectionCallbackFunc = void (*)(connection *conn);

/* What the kinds of connection implement (Redis's ConnectionType, as
 * virtual functions). */
struct connection {
    int state = CONN_STATE_NONE;
    int fd = -1;
    int last_errno = 0;
    int refs = 0;                 /* handlers running on it (callHandler) */
    bool close_scheduled = false; /* closed inside a handler: freed once it returns */
    void *private_data = nullptr; /* the client, for the handlers */
    ConnectionCallbackFunc conn_handler = nullptr;  /* connect or accept done */
    ConnectionCallbackFunc read_handler = nullptr;
    ConnectionCallbackFunc write_handler = nullptr;

    virtual ~connection() = default;
    virtual int type() const = 0;
    /* Non-blocking connect to addr:port; `handler` runs once it completed or failed. */
    virtual int connect(const char *addr, int port, ConnectionCallbackFunc handler) = 0;
    /* Completes an accepted connection (TLS: the handshake); `handler` runs
     * once that is done or failed, maybe before accept returns. */
    virtual void accept(ConnectionCallbackFunc handler) = 0;
    virtual ssize_t read(void *buf, size_t len) = 0;
    virtual ssize_t write(const void *data, size_t len) = 0;
    virtual ssize_t writev(const iovec *iov, int iovcnt) = 0;
    virtual int setReadHandler(ConnectionCallbackFunc handler) = 0;
    virtual int setWriteHandler(ConnectionCallbackFunc handler) = 0;
    /* Releases the fd (and TLS state) and its events; the object stays. */
    virtual void shutdownTransport() = 0;
    virtual const char *lastError() const; /* never null */

protected:
    /* The TCP part of connect, for the kinds: a non-blocking connect whose
     * completion runs `ae_handler` (writable), which then runs `handler`. */
    int connectSocket(const char *addr, int port, ConnectionCallbackFunc handler, aeFileProc ae_handler);
};

/* Closes and frees a connection, or, inside one of its handlers, closes it
 * and leaves the freeing to callHandler (Redis's connClose). */
void connClose(connection *conn);
struct connCloser {
    void operator()(connection *conn) const { connClose(conn); }
};
using connectionPtr = std::unique_ptr<connection, connCloser>;

/* Runs `handler` holding a reference; false if the handler closed the
 * connection (it is freed then, and must not be touched). */
bool callHandler(connection *conn, ConnectionCallbackFunc handler);

/* The socket kind: a new one to connect, or one around an accepted fd. */
connectionPtr connCreateSocket();
connectionPtr connCreateAcceptedSocket(int fd);

inline int connGetState(const connection *conn) { return conn->state; }
inline int connGetType(const connection *conn) { return conn->type(); }
inline int connGetFd(const connection *conn) { return conn->fd; }
inline void *connGetPrivateData(const connection *conn) { return conn->private_data; }
inline void connSetPrivateData(connection *conn, void *data) { conn->private_data = data; }
inline const char *connGetLastError(const connection *conn) { return conn->lastError(); }
inline bool connHasReadHandler(const connection *conn) { return conn->read_handler != nullptr; }
inline bool connHasWriteHandler(const connection *conn) { return conn->write_handler != nullptr; }
inline int connConnect(connection *conn, const char *addr, int port, ConnectionCallbackFunc handler) {
    return conn->connect(addr, port, handler);
}
inline void connAccept(connection *conn, ConnectionCallbackFunc handler) { conn->accept(handler); }
inline ssize_t connRead(connection *conn, void *buf, size_t len) { return conn->read(buf, len); }
inline ssize_t connWrite(connection *conn, const void *data, size_t len) { return conn->write(data, len); }
inline ssize_t connWritev(connection *conn, const iovec *iov, int iovcnt) { return conn->writev(iov, iovcnt); }
/* nullptr removes the handler (and its event). */
inline int connSetReadHandler(connection *conn, ConnectionCallbackFunc h) { return conn->setReadHandler(h); }
inline int connSetWriteHandler(connection *conn, ConnectionCallbackFunc h) { return conn->setWriteHandler(h); }

/* The socket kind's event handler, as the loop holds it (the clientData
 * is the connection): the trace names its events after the connection's
 * handlers. */
void connSocketEventHandler(aeEventLoop *el, int fd, void *clientData, int mask);

/* Socket options, on the fd whatever the kind (Redis's connhelpers). */
int connNonBlock(connection *conn);
int connEnableTcpNoDelay(connection *conn);
int connDisableTcpNoDelay(connection *conn);
int connKeepAlive(connection *conn, int interval);
/* "ip:port" of the peer (remote) or the local side; "" when unknown. */
std::string connFormatAddr(const connection *conn, bool remote);

