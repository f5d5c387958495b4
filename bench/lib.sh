# bench/lib.sh — what the benchmark scripts share: free ports, starting a
# server in a scratch directory and stopping it by pid. Source it from a
# script that runs in the repository root with `set -euo pipefail`.
#
#   bench_init                      scratch dir $BENCH_WORK, removed on exit
#   start_server NAME BIN ARGS...   starts it on a free port ($SERVER_PORT[NAME],
#                                   pid $SERVER_PID[NAME]) and waits for PING
#   stop_server NAME                SIGTERM, then waits for it to exit
#   CPPREDIS_BIN / REDIS_BIN        absolute paths (cppredis built with make if missing)

CPPREDIS_BIN=${CPPREDIS_BIN:-build/cppredis-server}
REDIS_BIN=${REDIS_BIN:-redis-server}
# Debian's redis-server, as the tests and compare.sh run it: no persistence.
REDIS_DEFAULT_ARGS=(--save '' --appendonly no)
# Taskset prefix for servers (core 0) and the load generators (core 1), so
# that a client never steals its server's core. Empty on a single core.
if (($(nproc) > 1)); then SERVER_CPU=(taskset -c 0) CLIENT_CPU=(taskset -c 1); else SERVER_CPU=() CLIENT_CPU=(); fi

declare -A SERVER_PID SERVER_PORT

# Servers start in scratch directories, so their paths must be absolute; -s
# keeps symlinks, as redis-server is one whose name tells the binary its role.
abspath() { if [[ $1 == */* ]]; then realpath -s "$1"; else command -v "$1"; fi; }

bench_init() {
    if [[ $CPPREDIS_BIN == build/cppredis-server && ! -x $CPPREDIS_BIN ]]; then make; fi
    CPPREDIS_BIN=$(abspath "$CPPREDIS_BIN")
    REDIS_BIN=$(abspath "$REDIS_BIN")
    BENCH_WORK=$(mktemp -d)
    trap bench_cleanup EXIT
}

bench_cleanup() {
    for name in "${!SERVER_PID[@]}"; do stop_server "$name"; done
    rm -rf "$BENCH_WORK"
}

# A port below the kernel's ephemeral range, so that no client connection
# can take it before its server binds it.
free_port() {
    python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
while True:
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", random.randrange(10000, low)))
        print(s.getsockname()[1])
        break
    except OSError:
        s.close()'
}

# Starts the server on a free port ($SERVER_PORT[NAME]) and waits until it
# answers PING. Another process may take the port between the pick and the
# server's bind: then it tries another.
start_server() {  # NAME BIN ARGS...
    local name=$1 bin=$2 attempt
    shift 2
    mkdir -p "$BENCH_WORK/$name"
    for attempt in 1 2 3 4 5; do
        SERVER_PORT[$name]=$(free_port)
        # exec keeps one pid from this subshell through taskset to the
        # server, so $! is the server process whose memory and CPU are read.
        (cd "$BENCH_WORK/$name" && exec "${SERVER_CPU[@]}" "$bin" --port "${SERVER_PORT[$name]}" --bind 127.0.0.1 "$@") \
            >"$BENCH_WORK/$name.log" 2>&1 &
        SERVER_PID[$name]=$!
        for _ in $(seq 100); do
            if ! kill -0 "${SERVER_PID[$name]}" 2>/dev/null; then
                wait "${SERVER_PID[$name]}" || true
                break
            fi
            [[ $(redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$name]}" ping 2>/dev/null) == PONG ]] && return
            sleep 0.1
        done
        grep -qi 'address already in use' "$BENCH_WORK/$name.log" || break
    done
    echo "$name ($bin) did not answer PING; its log:" >&2
    cat "$BENCH_WORK/$name.log" >&2
    unset "SERVER_PID[$name]"
    exit 1
}

stop_server() {  # NAME
    local pid=${SERVER_PID[$1]:-}
    [[ -n $pid ]] || return 0
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    unset "SERVER_PID[$1]"
}
