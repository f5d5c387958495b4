#!/usr/bin/env bash
# tools/install_deps.sh — the Debian packages cppredis needs, in this one
# place, installed when missing. `make run`, `make test` and .ci/run call it.
#   tools/install_deps.sh build   what building the server needs (make run)
#   tools/install_deps.sh test    that, and what the tests need (make test)
# Checks with dpkg-query (Node.js and npm: by their commands, see below);
# when everything is there it does nothing else
# (no apt-get, no network). When something is missing: as root it runs
# apt-get update and installs the missing packages; as another user it
# prints the exact `sudo apt-get install` line to run and exits 1.
# Without dpkg-query (not Debian) it checks nothing: the build says what
# it lacks.
set -euo pipefail

# The compiler and the libraries the server links: jemalloc, LZF (RDB
# compression), Lua 5.1 with the cjson and bit libraries Redis loads,
# OpenSSL (TLS).
BUILD_PACKAGES=(g++ make libjemalloc-dev liblzf-dev liblua5.1-0-dev lua-cjson-dev lua-bitop-dev libssl-dev)
# GoogleTest and Google Benchmark; real Redis 7.0 and its tools, which the
# tests compare with and drive cppredis with (redis-cli, redis-benchmark,
# redis-sentinel); python3 with python3-rq, a queue library run end to end,
# and python3-redis, which the TLS and Sentinel tests drive; openssl, which
# makes the TLS tests' certificates; util-linux's prlimit (essential, so
# always there in practice). A test lacking one of these skips, and fails
# under CI (tests/integration/package_skip.h).
TEST_PACKAGES=("${BUILD_PACKAGES[@]}" libgtest-dev libbenchmark-dev redis-server redis-tools redis-sentinel
               python3 python3-rq python3-redis openssl util-linux)
# Node.js and npm, which install and run tests/clients's BullMQ and
# node-redis: Debian's nodejs and npm, only when no `node` (or `npm`) is
# on PATH, so a Node.js from elsewhere (NodeSource's, with its own npm)
# is used as it is rather than fought with.

case ${1:-} in
    build) wanted=("${BUILD_PACKAGES[@]}") ;;
    test) wanted=("${TEST_PACKAGES[@]}") ;;
    *) echo "usage: $0 build|test" >&2; exit 2 ;;
esac

command -v dpkg-query >/dev/null || exit 0

# One dpkg-query for all: the names of those installed.
declare -A installed=()
while read -r name status; do
    [[ $status == installed ]] && installed[$name]=1
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${wanted[@]}" 2>/dev/null || true)
missing=()
for p in "${wanted[@]}"; do
    [[ -n ${installed[$p]:-} ]] || missing+=("$p")
done
if [[ $1 == test ]]; then
    command -v node >/dev/null || missing+=(nodejs)
    command -v npm >/dev/null || missing+=(npm)
fi
((${#missing[@]} == 0)) && exit 0

if ((EUID != 0)); then
    echo "cppredis needs these Debian packages; install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

# Debian's redis-server package starts a server on port 6379 at install
# where the system allows it (a container's policy-rc.d usually denies),
# the port `make run` wants. A server the install started is stopped, and
# only that one: under systemd its service is also disabled (systemd would
# restart a killed one); otherwise the pid its init script recorded is
# ended.
stop_installed_redis() {  # PID_BEFORE
    if [[ -d /run/systemd/system ]]; then
        if systemctl is-active --quiet redis-server.service; then
            echo "install_deps: stopping and disabling redis-server.service, which the package install started"
            systemctl disable --now --quiet redis-server.service
        fi
        return
    fi
    local pid
    pid=$(cat /run/redis/redis-server.pid 2>/dev/null || true)
    if [[ -n $pid && $pid != "$1" ]] && kill -0 "$pid" 2>/dev/null; then
        echo "install_deps: stopping redis-server pid $pid, started by the package install"
        kill "$pid"
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    fi
}

echo "install_deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
redis_before=$(cat /run/redis/redis-server.pid 2>/dev/null || true)
apt-get update -qq
apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}"
[[ " ${missing[*]} " == *" redis-server "* ]] && stop_installed_redis "$redis_before"
exit 0
