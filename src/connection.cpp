/* connection.cpp — connections (Redis's connection.c and connhelpers.h): the
 * abstraction's common part and its plain socket kind. See connection.h.
 *
 * The socket kind is a thin layer: read, write and writev are the system
 * calls themselves on the fd, and its one event handler (registered for
 * both directions with the connection as clientData) runs the connect
 * handler once a non-blocking connect completes, then the read and write
 * handlers as their events fire.
 */
#include "connection.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "anet.h"
#include "util.h"

using connections::server;

const char *connection::lastError() const { return strerror(last_errno); }

int connection::connectSocket(const char *addr, int port, ConnectionCallbackFunc handler, aeFileProc ae_handler) {
    std::string err;
    fd = anetTcpNonBlockConnect(err, addr, port);
    if (fd != -1) {
        state = CONN_STATE_CONNECTING;
        conn_handler = handler;
        /* Writable once the connect completed (or failed: SO_ERROR says). */
        if (aeCreateFileEvent(server.el.get(), fd, AE_WRITABLE, ae_handler, this) != AE_ERR) return C_OK;
    }
    state = CONN_STATE_ERROR;
    last_errno = errno;
    return C_ERR;
}

void connClose(connection *conn) {
    conn->shutdownTransport();
    if (conn->refs > 0) {
        conn->close_scheduled = true;
        return;
    }
    std::unique_ptr<connection> owned(conn); /* the owner let go: freed here */
}

bool callHandler(connection *conn, ConnectionCallbackFunc handler) {
    conn->refs++;
    if (handler) handler(conn);
    conn->refs--;
    if (!conn->close_scheduled) return true;
    if (conn->refs == 0) connClose(conn);
    return false;
}

/* ========================================================================
 * The socket kind
 * ====================================================================== */

namespace {

class socketConnection final : public connection {
public:
    explicit socketConnection(int accepted_fd = -1) {
        fd = accepted_fd;
        if (fd != -1) state = CONN_STATE_ACCEPTING;
    }
    ~socketConnection() override { shutdownTransport(); }

    int type() const override { return CONN_TYPE_SOCKET; }

    int connect(const char *addr, int port, ConnectionCallbackFunc handler) override {
        return connectSocket(addr, port, handler, connSocketEventHandler);
    }

    void accept(ConnectionCallbackFunc handler) override {
        if (state == CONN_STATE_ACCEPTING) state = CONN_STATE_CONNECTED;
        callHandler(this, handler);
    }

    ssize_t read(void *buf, size_t len) override {
        ssize_t n = ::read(fd, buf, len);
        if (n == 0) {
            state = CONN_STATE_CLOSED;
        } else if (n < 0 && errno != EAGAIN) {
            last_errno = errno;
            if (errno != EINTR && state == CONN_STATE_CONNECTED) state = CONN_STATE_ERROR;
        }
        return n;
    }

    ssize_t write(const void *data, size_t len) override { return afterWrite(::write(fd, data, len)); }
    ssize_t writev(const iovec *iov, int iovcnt) override { return afterWrite(::writev(fd, iov, iovcnt)); }

    int setReadHandler(ConnectionCallbackFunc handler) override {
        return setHandler(read_handler, handler, AE_READABLE);
    }
    int setWriteHandler(ConnectionCallbackFunc handler) override {
        return setHandler(write_handler, handler, AE_WRITABLE);
    }

    void shutdownTransport() override {
        if (fd == -1) return;
        if (server.el) aeDeleteFileEvent(server.el.get(), fd, AE_READABLE | AE_WRITABLE);
        close(fd);
        fd = -1;
    }

private:
    ssize_t afterWrite(ssize_t n) {
        if (n < 0 && errno != EAGAIN) {
            last_errno = errno;
            if (errno != EINTR && state == CONN_STATE_CONNECTED) state = CONN_STATE_ERROR;
        }
        return n;
    }

    int setHandler(ConnectionCallbackFunc &slot, ConnectionCallbackFunc handler, int mask) {
        if (slot == handler) return C_OK;
        slot = handler;
        if (!handler) {
            aeDeleteFileEvent(server.el.get(), fd, mask);
            return C_OK;
        }
        return aeCreateFileEvent(server.el.get(), fd, mask, connSocketEventHandler, this) == AE_ERR ? C_ERR : C_OK;
    }
};

}  // namespace

void connSocketEventHandler(aeEventLoop *el, int fd, void *clientData, int mask) {
    auto *conn = static_cast<connection *>(clientData);
    if (conn->state == CONN_STATE_CONNECTING && (mask & AE_WRITABLE) && conn->conn_handler) {
        int sockerr = 0;
        socklen_t len = sizeof(sockerr);
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &sockerr, &len) == -1) sockerr = errno;
        conn->last_errno = sockerr;
        conn->state = sockerr ? CONN_STATE_ERROR : CONN_STATE_CONNECTED;
        if (!conn->write_handler) aeDeleteFileEvent(el, fd, AE_WRITABLE);
        if (!callHandler(conn, conn->conn_handler)) return;
        conn->conn_handler = nullptr;
    }
    /* Read first: a reply to what was just read can go out in the same turn. */
    if ((mask & AE_READABLE) && conn->read_handler && !callHandler(conn, conn->read_handler)) return;
    if ((mask & AE_WRITABLE) && conn->write_handler) callHandler(conn, conn->write_handler);
}

connectionPtr connCreateSocket() { return connectionPtr(new socketConnection()); }
connectionPtr connCreateAcceptedSocket(int fd) { return connectionPtr(new socketConnection(fd)); }

/* ========================================================================
 * Helpers on the fd, whatever the kind
 * ====================================================================== */

int connNonBlock(connection *conn) {
    std::string err;
    return anetNonBlock(err, conn->fd) == ANET_OK ? C_OK : C_ERR;
}

int connEnableTcpNoDelay(connection *conn) {
    std::string err;
    return anetEnableTcpNoDelay(err, conn->fd) == ANET_OK ? C_OK : C_ERR;
}

int connDisableTcpNoDelay(connection *conn) {
    int no = 0;
    return setsockopt(conn->fd, IPPROTO_TCP, TCP_NODELAY, &no, sizeof(no)) == -1 ? C_ERR : C_OK;
}

int connKeepAlive(connection *conn, int interval) {
    std::string err;
    return anetKeepAlive(err, conn->fd, interval) == ANET_OK ? C_OK : C_ERR;
}

std::string connFormatAddr(const connection *conn, bool remote) {
    return conn->fd == -1 ? "" : anetFdToString(conn->fd, remote);
}
