#!/usr/bin/env bash
# bench/tls_compare.sh — cppredis against Redis 7 over TLS: bench/compare.sh
# (same rounds, alternation, medians and CPU per request) with every
# redis-benchmark run going through `--tls` to the servers' TLS ports.
#
# A CA and a server certificate are made with openssl into a temporary
# directory, removed at the end; the servers run with tls-auth-clients no,
# so redis-benchmark needs only the CA. What the figure shows is the cost
# of the connection abstraction's TLS kind (tls.cpp) against Redis's tls.c,
# both over the same OpenSSL.
#
# Usage: bench/tls_compare.sh [TEST[,TEST...]]      [set,get]
# Environment: as bench/compare.sh; PIPELINES defaults to 16 here.
set -euo pipefail
cd "$(dirname "$0")/.."

TLS_DIR=$(mktemp -d)
trap 'rm -rf "$TLS_DIR"' EXIT
openssl req -x509 -new -nodes -newkey rsa:2048 -keyout "$TLS_DIR/ca.key" -out "$TLS_DIR/ca.crt" \
    -days 2 -subj "/CN=bench CA" 2>/dev/null
openssl req -new -nodes -newkey rsa:2048 -keyout "$TLS_DIR/server.key" -out "$TLS_DIR/server.csr" \
    -subj "/CN=127.0.0.1" 2>/dev/null
openssl x509 -req -in "$TLS_DIR/server.csr" -CA "$TLS_DIR/ca.crt" -CAkey "$TLS_DIR/ca.key" -CAcreateserial \
    -out "$TLS_DIR/server.crt" -days 2 2>/dev/null

export TLS_DIR PIPELINES=${PIPELINES:-16}
bench/compare.sh "${1:-set,get}"
