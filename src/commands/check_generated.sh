#!/usr/bin/env bash
# src/commands/check_generated.sh — checks that the generated tables,
# keyspecs.cpp and commanddocs.cpp, are current: regenerates both from a
# running Redis 7.0 (Debian's redis-server) and the built cppredis, as
# their generators' docstrings say, and compares them with the committed
# files. Fails, saying which file is stale and how to regenerate it, when
# they differ (a command added to commands.cpp without its key specs or
# docs, or a generator changed without its output).
#
# Both servers bind 127.0.0.1 on free ports, in a scratch directory, with
# no persistence; each is stopped by its own pid and the directory removed
# at exit, whatever happens.
#
# Usage: src/commands/check_generated.sh [CPPREDIS_BIN]   (build/cppredis-server)
#        make check-commands                               builds it first
set -euo pipefail
cd "$(dirname "$0")/../.."

ours_bin=$(realpath "${1:-build/cppredis-server}")
[[ -x $ours_bin ]] || { echo "$0: no $ours_bin (make build/cppredis-server)" >&2; exit 1; }
command -v redis-server >/dev/null || { echo "$0: needs Debian's redis-server (Redis 7.0)" >&2; exit 1; }
case $(redis-server --version) in
    *v=7.0.*) ;;
    *) echo "$0: redis-server is not Redis 7.0: $(redis-server --version)" >&2; exit 1 ;;
esac

scratch=$(mktemp -d /tmp/check_generated.XXXXXX)
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT

# A port nothing listens on: the kernel's choice for a socket bound to 0.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start NAME BIN: BIN on a free port in its own directory; sets $port once
# it answers PING.
start() {
    local name=$1 bin=$2 try
    port=$(free_port)
    mkdir -p "$scratch/$name"
    (cd "$scratch/$name" && exec "$bin" --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
        >"$scratch/$name.log" 2>&1) &
    pids+=($!)
    for try in $(seq 100); do
        redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG && return 0
        sleep 0.05
    done
    echo "$0: $name did not start on port $port:" >&2
    cat "$scratch/$name.log" >&2
    exit 1
}

start redis "$(command -v redis-server)"
ref_port=$port
start cppredis "$ours_bin"
ours_port=$port

stale=0
for table in keyspecs commanddocs; do
    python3 "src/commands/gen_$table.py" "$ref_port" "$ours_port" >"$scratch/$table.cpp"
    if ! diff -u "src/commands/$table.cpp" "$scratch/$table.cpp" >"$scratch/$table.diff"; then
        echo "src/commands/$table.cpp is stale: it differs from what src/commands/gen_$table.py" \
             "generates from Redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') and this cppredis:"
        head -40 "$scratch/$table.diff"
        echo "(regenerate it as src/commands/gen_$table.py's docstring says)"
        stale=1
    fi
done
if ((stale)); then exit 1; fi
echo "src/commands/keyspecs.cpp and commanddocs.cpp are current"
