/* tls.cpp — the TLS kind of connection, over OpenSSL (Redis's tls.c):
 * the contexts built from the tls-* configs (tlsConfigure), and a
 * connection whose reads and writes go through SSL_read/SSL_write on a
 * non-blocking socket. See connection.h for the interface.
 *
 * What TLS adds to a socket:
 *  - A handshake after the TCP connect or accept (states CONNECTING and
 *    ACCEPTING): the connect or accept handler runs once it is done.
 *  - A read may need the socket writable and a write readable (a
 *    renegotiation, a key update): the flags READ_WANT_WRITE and
 *    WRITE_WANT_READ remember it, and updateSSLEvent waits for whichever
 *    direction is needed, besides the handlers' own.
 *  - SSL_read decrypts a whole record and may return only part of it: the
 *    rest sits in OpenSSL (SSL_pending) and no socket event will announce
 *    it. After a read handler ran, a connection with such bytes goes on
 *    `pending`, which beforeSleep drains (connProcessPendingData) and
 *    which keeps the loop from sleeping while not empty.
 */
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <vector>

#include "tls.h"
#include "livetrace.h"
#include "log.h"
#include "util.h"

using connections::server;

namespace {

constexpr int TLS_PROTO_TLSv1 = 1 << 0, TLS_PROTO_TLSv1_1 = 1 << 1, TLS_PROTO_TLSv1_2 = 1 << 2,
              TLS_PROTO_TLSv1_3 = 1 << 3;
constexpr int TLS_PROTO_DEFAULT = TLS_PROTO_TLSv1_2 | TLS_PROTO_TLSv1_3;

struct sslCtxFree {
    void operator()(SSL_CTX *ctx) const { SSL_CTX_free(ctx); }
};
using sslCtxPtr = std::unique_ptr<SSL_CTX, sslCtxFree>;
struct sslFree {
    void operator()(SSL *ssl) const { SSL_free(ssl); }
};
using sslPtr = std::unique_ptr<SSL, sslFree>;

sslCtxPtr redis_tls_ctx;        /* the server side, and the client side without a client certificate */
sslCtxPtr redis_tls_client_ctx; /* the client side with tls-client-cert-file */

/* OpenSSL's initialization, once, before the first context. */
void tlsInit() {
    static bool done = false;
    if (done) return;
    done = true;
    /* No cleanup at exit: the clients, and their SSL objects, are freed
     * with `server` after the atexit handlers OpenSSL would register. */
    OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG | OPENSSL_INIT_ATFORK | OPENSSL_INIT_NO_ATEXIT, nullptr);
    if (!RAND_poll()) serverLog(LL_WARNING, "OpenSSL: Failed to seed random number generator.");
}

std::string lastOpenSSLError() {
    char errbuf[256];
    ERR_error_string_n(ERR_get_error(), errbuf, sizeof(errbuf));
    return errbuf;
}

/* tls-protocols: "TLSv1.2 TLSv1.3"...; "" for the safe default. -1 if invalid. */
int parseProtocolsConfig(const std::string &str) {
    if (str.empty()) return TLS_PROTO_DEFAULT;
    std::istringstream words(str);
    std::string w;
    int protocols = 0;
    while (words >> w) {
        if (strcasecmp(w.c_str(), "tlsv1") == 0) protocols |= TLS_PROTO_TLSv1;
        else if (strcasecmp(w.c_str(), "tlsv1.1") == 0) protocols |= TLS_PROTO_TLSv1_1;
        else if (strcasecmp(w.c_str(), "tlsv1.2") == 0) protocols |= TLS_PROTO_TLSv1_2;
        else if (strcasecmp(w.c_str(), "tlsv1.3") == 0) protocols |= TLS_PROTO_TLSv1_3;
        else {
            serverLog(LL_WARNING,
                      "Invalid tls-protocols specified. Use a combination of 'TLSv1', 'TLSv1.1', 'TLSv1.2' and 'TLSv1.3'.");
            return -1;
        }
    }
    return protocols;
}

/* The key file's passphrase, handed to OpenSSL while the key is read. */
int tlsPasswordCallback(char *buf, int size, int, void *u) {
    const auto *pass = static_cast<const std::string *>(u);
    if (!pass || pass->empty() || pass->size() > static_cast<size_t>(size)) return -1;
    memcpy(buf, pass->data(), pass->size());
    return static_cast<int>(pass->size());
}

/* What both contexts share (Redis's createSSLContext): protocols, the
 * certificate and key, the CA to verify peers with, the ciphers. */
sslCtxPtr createSSLContext(const redisTLSContextConfig &cfg, int protocols, bool client) {
    const std::string &cert_file = client ? cfg.client_cert_file : cfg.cert_file;
    const std::string &key_file = client ? cfg.client_key_file : cfg.key_file;
    const std::string &key_file_pass = client ? cfg.client_key_file_pass : cfg.key_file_pass;
    sslCtxPtr ctx(SSL_CTX_new(TLS_method()));
    if (!ctx) return nullptr;
    SSL_CTX *c = ctx.get();
    SSL_CTX_set_options(c, SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3 | SSL_OP_DONT_INSERT_EMPTY_FRAGMENTS | SSL_OP_NO_COMPRESSION);
    if (!(protocols & TLS_PROTO_TLSv1)) SSL_CTX_set_options(c, SSL_OP_NO_TLSv1);
    if (!(protocols & TLS_PROTO_TLSv1_1)) SSL_CTX_set_options(c, SSL_OP_NO_TLSv1_1);
    if (!(protocols & TLS_PROTO_TLSv1_2)) SSL_CTX_set_options(c, SSL_OP_NO_TLSv1_2);
    if (!(protocols & TLS_PROTO_TLSv1_3)) SSL_CTX_set_options(c, SSL_OP_NO_TLSv1_3);
    /* A write retried after WANT_WRITE may come from a reply buffer that
     * moved or grew, and may be taken in part (as write(2)). */
    SSL_CTX_set_mode(c, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_verify(c, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);

    SSL_CTX_set_default_passwd_cb(c, tlsPasswordCallback);
    SSL_CTX_set_default_passwd_cb_userdata(c, const_cast<std::string *>(&key_file_pass));
    bool ok = true;
    if (SSL_CTX_use_certificate_chain_file(c, cert_file.c_str()) <= 0) {
        serverLog(LL_WARNING, "Failed to load certificate: %s: %s", cert_file.c_str(), lastOpenSSLError().c_str());
        ok = false;
    } else if (SSL_CTX_use_PrivateKey_file(c, key_file.c_str(), SSL_FILETYPE_PEM) <= 0) {
        serverLog(LL_WARNING, "Failed to load private key: %s: %s", key_file.c_str(), lastOpenSSLError().c_str());
        ok = false;
    }
    /* The passphrase is not kept: the config may change after this. */
    SSL_CTX_set_default_passwd_cb_userdata(c, nullptr);
    if (!ok) return nullptr;

    if ((!cfg.ca_cert_file.empty() || !cfg.ca_cert_dir.empty()) &&
        SSL_CTX_load_verify_locations(c, cfg.ca_cert_file.empty() ? nullptr : cfg.ca_cert_file.c_str(),
                                      cfg.ca_cert_dir.empty() ? nullptr : cfg.ca_cert_dir.c_str()) <= 0) {
        serverLog(LL_WARNING, "Failed to configure CA certificate(s) file/directory: %s", lastOpenSSLError().c_str());
        return nullptr;
    }
    if (!cfg.ciphers.empty() && !SSL_CTX_set_cipher_list(c, cfg.ciphers.c_str())) {
        serverLog(LL_WARNING, "Failed to configure ciphers: %s", cfg.ciphers.c_str());
        return nullptr;
    }
    if (!cfg.ciphersuites.empty() && !SSL_CTX_set_ciphersuites(c, cfg.ciphersuites.c_str())) {
        serverLog(LL_WARNING, "Failed to configure ciphersuites: %s", cfg.ciphersuites.c_str());
        return nullptr;
    }
    return ctx;
}

/* tls-dh-params-file into the server context; false (logged) on failure. */
bool loadDHParams(SSL_CTX *ctx, const std::string &path) {
    std::unique_ptr<FILE, int (*)(FILE *)> dhfile(fopen(path.c_str(), "r"), fclose);
    if (!dhfile) {
        serverLog(LL_WARNING, "Failed to load %s: %s", path.c_str(), strerror(errno));
        return false;
    }
    EVP_PKEY *pkey = nullptr;
    std::unique_ptr<OSSL_DECODER_CTX, void (*)(OSSL_DECODER_CTX *)> dctx(
        OSSL_DECODER_CTX_new_for_pkey(&pkey, "PEM", nullptr, "DH", OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS, nullptr,
                                      nullptr),
        OSSL_DECODER_CTX_free);
    if (!dctx) {
        serverLog(LL_WARNING, "No decoder for DH params.");
        return false;
    }
    if (!OSSL_DECODER_from_fp(dctx.get(), dhfile.get())) {
        serverLog(LL_WARNING, "%s: failed to read DH params.", path.c_str());
        return false;
    }
    if (SSL_CTX_set0_tmp_dh_pkey(ctx, pkey) <= 0) { /* on success the context owns pkey */
        serverLog(LL_WARNING, "Failed to load DH params file: %s: %s", path.c_str(), lastOpenSSLError().c_str());
        EVP_PKEY_free(pkey);
        return false;
    }
    return true;
}

}  // namespace

bool tlsConfigure(const redisTLSContextConfig &cfg, bool require_ca) {
    tlsInit();
    if (cfg.cert_file.empty()) {
        serverLog(LL_WARNING, "No tls-cert-file configured!");
        return false;
    }
    if (cfg.key_file.empty()) {
        serverLog(LL_WARNING, "No tls-key-file configured!");
        return false;
    }
    if (require_ca && cfg.ca_cert_file.empty() && cfg.ca_cert_dir.empty()) {
        serverLog(LL_WARNING, "Either tls-ca-cert-file or tls-ca-cert-dir must be specified when tls-cluster, "
                              "tls-replication or tls-auth-clients are enabled!");
        return false;
    }
    int protocols = parseProtocolsConfig(cfg.protocols);
    if (protocols == -1) return false;

    sslCtxPtr ctx = createSSLContext(cfg, protocols, false);
    if (!ctx) return false;
    if (cfg.session_caching) {
        SSL_CTX_set_session_cache_mode(ctx.get(), SSL_SESS_CACHE_SERVER);
        SSL_CTX_sess_set_cache_size(ctx.get(), cfg.session_cache_size);
        SSL_CTX_set_timeout(ctx.get(), cfg.session_cache_timeout);
        SSL_CTX_set_session_id_context(ctx.get(), reinterpret_cast<const unsigned char *>("redis"), 5);
    } else {
        SSL_CTX_set_session_cache_mode(ctx.get(), SSL_SESS_CACHE_OFF);
    }
    /* OpenSSL 3 refuses a client's renegotiation by default (Redis sets
     * SSL_OP_NO_CLIENT_RENEGOTIATION where OpenSSL has it). */
    SSL_CTX_set_options(ctx.get(), SSL_OP_SINGLE_DH_USE);
    if (cfg.prefer_server_ciphers) SSL_CTX_set_options(ctx.get(), SSL_OP_CIPHER_SERVER_PREFERENCE);
    if (!cfg.dh_params_file.empty()) {
        if (!loadDHParams(ctx.get(), cfg.dh_params_file)) return false;
    } else {
        SSL_CTX_set_dh_auto(ctx.get(), 1);
    }
    sslCtxPtr client_ctx;
    if (!cfg.client_cert_file.empty() && !cfg.client_key_file.empty()) {
        client_ctx = createSSLContext(cfg, protocols, true);
        if (!client_ctx) return false;
    }
    redis_tls_ctx = std::move(ctx);
    redis_tls_client_ctx = std::move(client_ctx);
    return true;
}

bool isTlsConfigured() { return redis_tls_ctx != nullptr; }

/* ========================================================================
 * The TLS connection
 * ====================================================================== */

namespace {

constexpr int TLS_CONN_FLAG_READ_WANT_WRITE = 1 << 0, TLS_CONN_FLAG_WRITE_WANT_READ = 1 << 1,
              TLS_CONN_FLAG_FD_SET = 1 << 2;

class tlsConnection;

/* Connections with decrypted bytes not yet read; each knows its index. */
std::vector<tlsConnection *> pending;

class tlsConnection final : public connection {
public:
    tlsConnection(bool client_side, int accepted_fd, int require_auth) {
        SSL_CTX *ctx = client_side && redis_tls_client_ctx ? redis_tls_client_ctx.get() : redis_tls_ctx.get();
        ssl.reset(ctx ? SSL_new(ctx) : nullptr);
        fd = accepted_fd;
        if (accepted_fd == -1) return;
        state = CONN_STATE_ACCEPTING;
        if (!ssl) {
            updateTLSError();
            state = CONN_STATE_ERROR;
            return;
        }
        switch (require_auth) {
        case TLS_CLIENT_AUTH_NO: SSL_set_verify(ssl.get(), SSL_VERIFY_NONE, nullptr); break;
        case TLS_CLIENT_AUTH_OPTIONAL: SSL_set_verify(ssl.get(), SSL_VERIFY_PEER, nullptr); break;
        default: SSL_set_verify(ssl.get(), SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr); break;
        }
        SSL_set_fd(ssl.get(), fd);
        SSL_set_accept_state(ssl.get());
    }
    ~tlsConnection() override { shutdownTransport(); }

    int type() const override { return CONN_TYPE_TLS; }

    int connect(const char *addr, int port, ConnectionCallbackFunc handler) override {
        if (state != CONN_STATE_NONE || !ssl) return C_ERR;
        /* The handshake starts from the event handler once the socket is connected. */
        return connectSocket(addr, port, handler, tlsEventHandler);
    }

    void accept(ConnectionCallbackFunc handler) override {
        conn_handler = handler;
        if (state == CONN_STATE_ACCEPTING) {
            ERR_clear_error();
            int want = 0;
            if (int ret = SSL_accept(ssl.get()); ret > 0) state = CONN_STATE_CONNECTED;
            else if (!handleSSLReturnCode(ret, &want)) {
                registerSSLEvent(want); /* the handshake goes on from the event handler */
                return;
            } else state = CONN_STATE_ERROR;
        }
        if (!callHandler(this, conn_handler)) return;
        conn_handler = nullptr;
        updateSSLEvent();
    }

    ssize_t read(void *buf, size_t len) override {
        if (state != CONN_STATE_CONNECTED) return -1;
        ERR_clear_error();
        return updateStateAfterSSLIO(SSL_read(ssl.get(), buf, static_cast<int>(len)));
    }

    ssize_t write(const void *data, size_t len) override {
        if (state != CONN_STATE_CONNECTED) return -1;
        ERR_clear_error();
        return updateStateAfterSSLIO(SSL_write(ssl.get(), data, static_cast<int>(len)));
    }

    /* SSL has no writev: pieces up to NET_MAX_WRITES_PER_EVENT in all are
     * copied into one buffer and written as one record (fewer records and
     * system calls); more than that is written piece by piece. */
    ssize_t writev(const iovec *iov, int iovcnt) override {
        if (iovcnt == 1) return write(iov[0].iov_base, iov[0].iov_len);
        size_t total = 0;
        for (int i = 0; i < iovcnt && total <= NET_MAX_WRITES_PER_EVENT; i++) total += iov[i].iov_len;
        if (total > NET_MAX_WRITES_PER_EVENT) {
            ssize_t sent_total = 0;
            for (int i = 0; i < iovcnt; i++) {
                ssize_t sent = write(iov[i].iov_base, iov[i].iov_len);
                if (sent <= 0) return sent_total > 0 ? sent_total : sent;
                sent_total += sent;
                if (static_cast<size_t>(sent) != iov[i].iov_len) break;
            }
            return sent_total;
        }
        static char buf[NET_MAX_WRITES_PER_EVENT]; /* one loop thread: reused, no allocation */
        size_t off = 0;
        for (int i = 0; i < iovcnt; i++) {
            memcpy(buf + off, iov[i].iov_base, iov[i].iov_len);
            off += iov[i].iov_len;
        }
        return write(buf, total);
    }

    int setReadHandler(ConnectionCallbackFunc handler) override {
        read_handler = handler;
        updateSSLEvent();
        return C_OK;
    }
    int setWriteHandler(ConnectionCallbackFunc handler) override {
        write_handler = handler;
        updateSSLEvent();
        return C_OK;
    }

    void shutdownTransport() override {
        if (ssl) {
            if (state == CONN_STATE_CONNECTED) SSL_shutdown(ssl.get()); /* best effort close_notify */
            ssl.reset();
        }
        leavePending();
        if (fd == -1) return;
        if (server.el) aeDeleteFileEvent(server.el.get(), fd, AE_READABLE | AE_WRITABLE);
        close(fd);
        fd = -1;
    }

    const char *lastError() const override { return ssl_error.c_str(); }

    /* One event of the socket (Redis's tlsHandleEvent): the handshake's
     * next step, or the handlers, then what the loop must wait for next. */
    void handleEvent(int mask) {
        ERR_clear_error();
        switch (state) {
        case CONN_STATE_CONNECTING:
        case CONN_STATE_ACCEPTING:
            if (!handshakeStep()) return;
            if (!callHandler(this, conn_handler)) return;
            conn_handler = nullptr;
            break;
        case CONN_STATE_CONNECTED: {
            bool call_read = ((mask & AE_READABLE) && read_handler) ||
                             ((mask & AE_WRITABLE) && (flags & TLS_CONN_FLAG_READ_WANT_WRITE));
            bool call_write = ((mask & AE_WRITABLE) && write_handler) ||
                              ((mask & AE_READABLE) && (flags & TLS_CONN_FLAG_WRITE_WANT_READ));
            if (call_read) {
                flags &= ~TLS_CONN_FLAG_READ_WANT_WRITE;
                if (!callHandler(this, read_handler)) return;
            }
            if (call_write) {
                flags &= ~TLS_CONN_FLAG_WRITE_WANT_READ;
                if (!callHandler(this, write_handler)) return;
            }
            /* Bytes already decrypted would wait for a socket event that may
             * never come: beforeSleep serves them. */
            if (mask & AE_READABLE) {
                if (ssl && SSL_pending(ssl.get()) > 0) joinPending();
                else leavePending();
            }
            break;
        }
        default: break;
        }
        updateSSLEvent();
    }

    size_t pending_index = SIZE_MAX; /* in `pending`, SIZE_MAX if not there */

private:
    enum { WANT_READ = 1, WANT_WRITE = 2 };

    sslPtr ssl;
    int flags = 0;
    std::string ssl_error;

    void updateTLSError() {
        last_errno = 0;
        ssl_error = lastOpenSSLError();
    }

    /* 0 if `ret` only asks to wait (*want says for what), else the SSL
     * error, recorded in the connection. */
    int handleSSLReturnCode(int ret, int *want) {
        if (ret > 0) return 0;
        int ssl_err = SSL_get_error(ssl.get(), ret);
        switch (ssl_err) {
        case SSL_ERROR_WANT_WRITE: *want = WANT_WRITE; return 0;
        case SSL_ERROR_WANT_READ: *want = WANT_READ; return 0;
        case SSL_ERROR_SYSCALL:
            last_errno = errno;
            ssl_error = errno ? strerror(errno) : "";
            break;
        default: updateTLSError(); break;
        }
        return ssl_err;
    }

    /* The result of SSL_read/SSL_write as read(2)/write(2) would give it:
     * -1 with errno EAGAIN (state still CONNECTED) when OpenSSL waits for
     * the socket, the state CLOSED or ERROR when the connection is over. */
    ssize_t updateStateAfterSSLIO(int ret) {
        if (ret > 0) return ret;
        if (errno == EINTR) {
            last_errno = EINTR;
            return -1;
        }
        int want = 0;
        int ssl_err = handleSSLReturnCode(ret, &want);
        if (!ssl_err) {
            if (want == WANT_READ) flags |= TLS_CONN_FLAG_WRITE_WANT_READ;
            if (want == WANT_WRITE) flags |= TLS_CONN_FLAG_READ_WANT_WRITE;
            updateSSLEvent();
            errno = EAGAIN;
            return -1;
        }
        bool clean = ssl_err == SSL_ERROR_ZERO_RETURN || (ssl_err == SSL_ERROR_SYSCALL && !errno);
        state = clean ? CONN_STATE_CLOSED : CONN_STATE_ERROR;
        return -1;
    }

    /* The handshake's next step. False if it waits for the socket (the
     * event is registered); true once done, or failed (state ERROR). */
    bool handshakeStep() {
        if (state == CONN_STATE_CONNECTING) {
            int sockerr = 0;
            socklen_t len = sizeof(sockerr);
            if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &sockerr, &len) == -1) sockerr = errno;
            if (sockerr) {
                last_errno = sockerr;
                ssl_error = strerror(sockerr);
                state = CONN_STATE_ERROR;
                return true;
            }
            if (!(flags & TLS_CONN_FLAG_FD_SET)) {
                SSL_set_fd(ssl.get(), fd);
                flags |= TLS_CONN_FLAG_FD_SET;
            }
        }
        int ret = state == CONN_STATE_CONNECTING ? SSL_connect(ssl.get()) : SSL_accept(ssl.get());
        int want = 0;
        if (ret > 0) {
            state = CONN_STATE_CONNECTED;
        } else if (!handleSSLReturnCode(ret, &want)) {
            registerSSLEvent(want);
            return false;
        } else {
            state = CONN_STATE_ERROR;
        }
        return true;
    }

    /* During the handshake: wait for exactly what OpenSSL wants. */
    void registerSSLEvent(int want) {
        int mask = aeGetFileEvents(server.el.get(), fd);
        int drop = want == WANT_READ ? AE_WRITABLE : AE_READABLE, add = want == WANT_READ ? AE_READABLE : AE_WRITABLE;
        if (mask & drop) aeDeleteFileEvent(server.el.get(), fd, drop);
        if (!(mask & add)) aeCreateFileEvent(server.el.get(), fd, add, tlsEventHandler, this);
    }

    /* Once connected: the handlers' directions, and what a read or write waits for. */
    void updateSSLEvent() {
        if (fd == -1 || state == CONN_STATE_CONNECTING || state == CONN_STATE_ACCEPTING) return;
        int mask = aeGetFileEvents(server.el.get(), fd);
        bool need_read = read_handler || (flags & TLS_CONN_FLAG_WRITE_WANT_READ);
        bool need_write = write_handler || (flags & TLS_CONN_FLAG_READ_WANT_WRITE);
        if (need_read && !(mask & AE_READABLE)) aeCreateFileEvent(server.el.get(), fd, AE_READABLE, tlsEventHandler, this);
        if (!need_read && (mask & AE_READABLE)) aeDeleteFileEvent(server.el.get(), fd, AE_READABLE);
        if (need_write && !(mask & AE_WRITABLE)) aeCreateFileEvent(server.el.get(), fd, AE_WRITABLE, tlsEventHandler, this);
        if (!need_write && (mask & AE_WRITABLE)) aeDeleteFileEvent(server.el.get(), fd, AE_WRITABLE);
    }

    void joinPending() {
        if (pending_index != SIZE_MAX) return;
        pending_index = pending.size();
        pending.push_back(this);
    }

    void leavePending() {
        if (pending_index == SIZE_MAX) return;
        tlsConnection *last = pending.back();
        pending[pending_index] = last;
        last->pending_index = pending_index;
        pending.pop_back();
        pending_index = SIZE_MAX;
    }
};

}  // namespace

void tlsEventHandler(aeEventLoop *, int, void *clientData, int mask) {
    static_cast<tlsConnection *>(clientData)->handleEvent(mask);
}

namespace {

/* The loop's trace names a file event after the handler the connection
 * runs for it (readQueryFromClient), not after the connection's own.
 * Here, not in connection.cpp, because this file knows both kinds' event
 * handlers and connection.cpp, below it, knows only the socket's. */
const void *connectionHandlerOf(const void *proc, void *clientData, int mask) {
    auto *conn = static_cast<connection *>(clientData);
    if (!conn || (proc != reinterpret_cast<const void *>(connSocketEventHandler) &&
                  proc != reinterpret_cast<const void *>(tlsEventHandler)))
        return proc;
    if ((mask & AE_READABLE) && conn->read_handler) return reinterpret_cast<const void *>(conn->read_handler);
    if (conn->write_handler) return reinterpret_cast<const void *>(conn->write_handler);
    return reinterpret_cast<const void *>(conn->conn_handler);
}
}  // namespace

void connSetTraceResolver() { traceSetFileProcResolver(connectionHandlerOf); }

connectionPtr connCreateTLS() { return connectionPtr(new tlsConnection(true, -1, TLS_CLIENT_AUTH_NO)); }

connectionPtr connCreateAcceptedTLS(int fd, int require_auth) {
    return connectionPtr(new tlsConnection(false, fd, require_auth));
}

bool connHasPendingData() { return !pending.empty(); }

/* Each pending connection's read handler runs once; one that closes or
 * drains leaves the vector (its last element takes its place, so the
 * index only moves on when the slot still holds the one just served). */
int connProcessPendingData() {
    int processed = static_cast<int>(pending.size());
    for (size_t i = 0; i < pending.size();) {
        tlsConnection *conn = pending[i];
        conn->handleEvent(AE_READABLE);
        if (i < pending.size() && pending[i] == conn) i++;
    }
    return processed;
}
