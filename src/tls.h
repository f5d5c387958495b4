/* tls.h — the TLS kind of connection (tls.cpp, Redis's tls.c) and the
 * configuration of its OpenSSL contexts: what the rest of the server
 * needs of TLS beside the connection interface (connection.h). */
#pragma once

#include <string>

#include "ae.h"
#include "connection.h"

/* A TLS connection: the client side uses the client certificate if
 * one is configured; an accepted one checks the peer's per tls-auth-clients. */
connectionPtr connCreateTLS();
connectionPtr connCreateAcceptedTLS(int fd, int require_auth);

/* TLS connections holding decrypted bytes not read yet: beforeSleep runs
 * their read handlers, and does not let the loop sleep while there are. */
bool connHasPendingData();
int connProcessPendingData(); /* how many were served */

/* The TLS kind's event handler, as the loop holds it. */
void tlsEventHandler(aeEventLoop *el, int fd, void *clientData, int mask);
/* Makes the loop's trace name a connection's file event after the handler
 * the connection runs for it (readQueryFromClient), not after the kind's
 * own event handler; installServerHooks calls it once. Here because this
 * file knows both kinds' handlers. */
void connSetTraceResolver();

/* The TLS configuration (Redis's redisTLSContextConfig): the tls-* configs
 * that build the OpenSSL contexts. "" is "not set". */
struct redisTLSContextConfig {
    std::string cert_file, key_file, key_file_pass;
    std::string client_cert_file, client_key_file, client_key_file_pass;
    std::string dh_params_file, ca_cert_file, ca_cert_dir;
    std::string protocols, ciphers, ciphersuites;
    bool prefer_server_ciphers = false;
    bool session_caching = true;
    int session_cache_size = 20 * 1024;
    int session_cache_timeout = 300;
};

/* Builds the server and client contexts from `config` (Redis's
 * tlsConfigure): all or nothing, the old contexts kept on failure, which
 * is logged. `require_ca`: some peer's certificate is to be verified
 * (tls-auth-clients, tls-replication), so a CA must be configured. */
bool tlsConfigure(const redisTLSContextConfig &config, bool require_ca);
bool isTlsConfigured();
