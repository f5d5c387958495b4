# bench/lib.sh — what the benchmark scripts share: free ports, starting a
# server in a scratch directory and stopping it by pid, the alternation of
# the two servers over rounds, and the report's header. Source it from a
# script that runs in the repository root with `set -euo pipefail`.
#
#   bench_init [TOOL]               builds TOOL (make) if given; scratch dir
#                                   $BENCH_WORK, removed on exit
#   start_server NAME BIN ARGS...   starts it (under $SERVER_WRAPPER, if set) on a free
#                                   port ($SERVER_PORT[NAME], pid $SERVER_PID[NAME])
#                                   and waits for PING
#   launch_server NAME BIN ARGS...  the same without waiting ($SERVER_LAUNCHED[NAME]:
#                                   when, for timing a start-up)
#   start_named cppredis|redis      start_server with its binary and arguments
#   start_both                      both of them
#   run_named STARTER NAME [IMPL]   STARTER (start_server, launch_server) with
#                                   IMPL's binary and arguments
#   stop_server NAME                SIGTERM, then waits for it to exit
#   aof_base_file DIR               the AOF's base file in server directory DIR
#                                   (the manifest's type b, or Redis 6's one file)
#   for_each_run FN VARIANT...      FN ROUND VARIANT NAME for every round, variant
#                                   and server, the servers' order flipping each round
#   run_tool ROUND LABEL NAME ARGS...  $TOOL against server NAME, its line into $RESULTS
#   fresh_server_run ROUND NAME ARGS... $TOOL against a server started for it alone,
#                                   its line into RUNS[NAME]; $AWK_RUN_FIELDS reads them
#   start_subscribers NAME N CHANNEL   N clients subscribed to CHANNEL on server NAME,
#                                   draining (build/bench/subscribers), for PUBLISH runs
#   start_monitors NAME N           N `redis-cli monitor` clients on server NAME, each
#                                   reading (and discarding) every command's line
#   new_results PREFIX SUFFIX       $RESULTS = bench/results/PREFIX<timestamp>SUFFIX
#   workload_*                      the load bench/syscalls.sh and bench/profile.sh
#                                   observe (WORKLOAD; see below)
#   enter_private_netns "$@"        re-runs the script in a network namespace of its own
#   machine_line, servers_lines     the header of a report
#   CPPREDIS_BIN / REDIS_BIN        absolute paths (cppredis built with make if missing)
#   CPPREDIS_ARGS / REDIS_ARGS      the servers' arguments: no persistence, then
#                                   $EXTRA_ARGS (both), then $EXTRA_ARGS_CPPREDIS /
#                                   $EXTRA_ARGS_REDIS (a script may add its own);
#                                   each server runs in its own scratch directory,
#                                   so EXTRA_ARGS="--appendonly yes" gives each its AOF
#   TLS_DIR=DIR                     each server also listens with TLS on
#                                   $SERVER_TLS_PORT[NAME] (DIR's ca.crt, server.crt,
#                                   server.key; tls-auth-clients no); bench/tls_compare.sh
#   AUTH_CPPREDIS / AUTH_REDIS      the default user's password on that server
#                                   (with --requirepass in its EXTRA_ARGS_*):
#                                   auth_args NAME gives redis-cli/redis-benchmark's -a
# Replication (bench/repl_*.sh):
#   start_replica NAME [detached]   server NAME-replica, NAME's binary and arguments,
#                                   following NAME once its link is up (detached: not
#                                   told to follow it yet); on REPLICA_CPU [any core]
#   wait_link_up NAME               until replica NAME says master_link_status:up
#   info_field NAME SECTION FIELD   one field of INFO SECTION on server NAME
#   WITH_REPLICA=1                  start_named gives each server a replica
#                                   (bench/repl_compare.sh runs compare.sh so)
#   RUN_CPU_LOG=FILE                for_each_run appends, for each run, "ROUND VARIANT
#                                   NAME USER_TICKS SYS_TICKS": the server's user and
#                                   system CPU during it (/proc/PID/stat, clock ticks)

CPPREDIS_BIN=${CPPREDIS_BIN:-build/cppredis-server}
REDIS_BIN=${REDIS_BIN:-redis-server}
# Both servers as the tests run Debian's redis-server: no persistence (by
# default each snapshots on its save points, which would fork mid-run).
DEFAULT_ARGS=(--save '' --appendonly no)
# The extra options are shell-quoted so that '' can pass an empty argument.
eval "CPPREDIS_ARGS=(\"\${DEFAULT_ARGS[@]}\" ${EXTRA_ARGS:-} ${EXTRA_ARGS_CPPREDIS:-})"
eval "REDIS_ARGS=(\"\${DEFAULT_ARGS[@]}\" ${EXTRA_ARGS:-} ${EXTRA_ARGS_REDIS:-})"
# Taskset prefix for servers (core 0) and the load generators (core 1), so
# that a client never steals its server's core. Empty on a single core.
if (($(nproc) > 1)); then SERVER_CPU=(taskset -c 0) CLIENT_CPU=(taskset -c 1); else SERVER_CPU=() CLIENT_CPU=(); fi

declare -A SERVER_PID SERVER_PORT SERVER_TLS_PORT SERVER_LAUNCHED
declare -A SERVER_AUTH=([cppredis]=${AUTH_CPPREDIS:-} [redis]=${AUTH_REDIS:-})
# "-a PASSWORD" for a server with a password, else nothing.
auth_args() {  # NAME
    if [[ -n ${SERVER_AUTH[$1]:-} ]]; then echo "-a ${SERVER_AUTH[$1]}"; fi
}
# A command the servers run under (valgrind ... for bench/profile.sh), keeping
# their pid; empty by default.
SERVER_WRAPPER=()

# Servers start in scratch directories, so their paths must be absolute; -s
# keeps symlinks, as redis-server is one whose name tells the binary its role.
abspath() { if [[ $1 == */* ]]; then realpath -s "$1"; else command -v "$1"; fi; }

bench_init() {  # [TOOL]
    if [[ -n ${1:-} ]]; then make --no-print-directory "$1" >&2; fi
    if [[ $CPPREDIS_BIN == build/cppredis-server && ! -x $CPPREDIS_BIN ]]; then make; fi
    CPPREDIS_BIN=$(abspath "$CPPREDIS_BIN")
    REDIS_BIN=$(abspath "$REDIS_BIN")
    BENCH_WORK=$(mktemp -d)
    trap bench_cleanup EXIT
}

bench_cleanup() {
    # $? is the script's exit status: a failed run's replicas say nothing.
    if [[ $? == 0 && -n ${WITH_REPLICA:-} ]]; then warn_lost_replicas; fi
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

# Spawns the server on a free port ($SERVER_PORT[NAME]) in its scratch
# directory, $BENCH_WORK/NAME, without waiting for it: its pid in
# $SERVER_PID[NAME], and in $SERVER_LAUNCHED[NAME] the moment ($EPOCHREALTIME)
# right before it was spawned, for the scripts that time its start-up.
launch_server() {  # NAME BIN ARGS...
    local name=$1 bin=$2 tls=()
    shift 2
    mkdir -p "$BENCH_WORK/$name"
    SERVER_PORT[$name]=$(free_port)
    if [[ -n ${TLS_DIR:-} ]]; then
        SERVER_TLS_PORT[$name]=$(free_port)
        tls=(--tls-port "${SERVER_TLS_PORT[$name]}" --tls-cert-file "$TLS_DIR/server.crt"
             --tls-key-file "$TLS_DIR/server.key" --tls-ca-cert-file "$TLS_DIR/ca.crt" --tls-auth-clients no)
    fi
    SERVER_LAUNCHED[$name]=$EPOCHREALTIME
    # exec keeps one pid from this subshell through taskset to the
    # server, so $! is the server process whose memory and CPU are read.
    (cd "$BENCH_WORK/$name" && exec "${SERVER_CPU[@]}" "${SERVER_WRAPPER[@]}" "$bin" --port "${SERVER_PORT[$name]}" --bind 127.0.0.1 "${tls[@]}" "$@") \
        >"$BENCH_WORK/$name.log" 2>&1 &
    SERVER_PID[$name]=$!
}

# Starts the server (launch_server) and waits until it answers PING.
# Another process may take the port between the pick and the server's
# bind: then it tries another.
start_server() {  # NAME BIN ARGS...
    local name=$1 bin=$2 attempt
    for attempt in 1 2 3 4 5; do
        launch_server "$@"
        for _ in $(seq 100); do
            if ! kill -0 "${SERVER_PID[$name]}" 2>/dev/null; then
                wait "${SERVER_PID[$name]}" || true
                break
            fi
            # shellcheck disable=SC2046 # auth_args is words by design
            [[ $(redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$name]}" $(auth_args "$name") ping 2>/dev/null) == PONG ]] && return
            sleep 0.1
        done
        grep -qi 'address already in use' "$BENCH_WORK/$name.log" || break
    done
    echo "$name ($bin) did not answer PING; its log:" >&2
    cat "$BENCH_WORK/$name.log" >&2
    unset "SERVER_PID[$name]"
    exit 1
}

# Server NAME runs IMPL's binary and arguments (by default its own),
# started by STARTER (start_server, or launch_server not to wait for it).
run_named() {  # STARTER NAME [IMPL]
    if [[ ${3:-$2} == cppredis ]]; then "$1" "$2" "$CPPREDIS_BIN" "${CPPREDIS_ARGS[@]}"
    else "$1" "$2" "$REDIS_BIN" "${REDIS_ARGS[@]}"; fi
}

# Server NAME runs IMPL's binary and arguments, answering PING (and with a
# replica of its own if WITH_REPLICA is set).
start_named() {  # cppredis|redis [IMPL]
    run_named start_server "$@"
    if [[ -n ${WITH_REPLICA:-} ]]; then start_replica "$1"; fi
}

# One field of INFO SECTION on server NAME ("" if absent).
info_field() {  # NAME SECTION FIELD
    # shellcheck disable=SC2046 # auth_args is words by design
    redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$1]}" $(auth_args "$1") info "$2" |
        awk -F: -v f="$3" '$1 == f { sub(/\r$/, "", $2); print $2 }'
}

# The replica has no core of its own on a 2-core machine: by default the
# kernel places it (REPLICA_CPU="taskset -c 1" pins it).
read -ra REPLICA_CPU <<<"${REPLICA_CPU:-}"

# Starts NAME-replica with NAME's binary and arguments (and NAME's password
# as masterauth), then, unless `detached`, makes it follow NAME and waits
# for the link. The master's repl-diskless-sync-delay is set to 0 first, so
# that the transfer starts at once instead of after Redis's 5 s default.
start_replica() {  # NAME [detached]
    local name=$1 replica=$1-replica bin args
    if [[ $name == cppredis ]]; then bin=$CPPREDIS_BIN args=("${CPPREDIS_ARGS[@]}")
    else bin=$REDIS_BIN args=("${REDIS_ARGS[@]}"); fi
    SERVER_AUTH[$replica]=${SERVER_AUTH[$name]:-}
    if [[ -n ${SERVER_AUTH[$name]:-} ]]; then args+=(--masterauth "${SERVER_AUTH[$name]}"); fi
    local SERVER_CPU=("${REPLICA_CPU[@]}")
    start_server "$replica" "$bin" "${args[@]}"
    [[ ${2:-} == detached ]] && return
    # shellcheck disable=SC2046 # auth_args is words by design
    redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$name]}" $(auth_args "$name") config set repl-diskless-sync-delay 0 >/dev/null
    local reply
    # shellcheck disable=SC2046
    reply=$(redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$replica]}" $(auth_args "$replica") replicaof 127.0.0.1 "${SERVER_PORT[$name]}")
    if [[ $reply != OK* ]]; then
        echo "$replica refused REPLICAOF: $reply" >&2
        exit 1
    fi
    wait_link_up "$replica"
}

# Polls replica NAME's INFO replication for master_link_status:up, for at
# most a minute (a full sync of a big dataset takes seconds).
wait_link_up() {  # NAME
    for _ in $(seq 600); do
        [[ $(info_field "$1" replication master_link_status) == up ]] && return
        sleep 0.1
    done
    echo "$1 never got its master's link up; its log:" >&2
    cat "$BENCH_WORK/$1.log" >&2
    exit 1
}

# A replica that lost its link, had to sync again, or did not receive the
# whole stream during the runs made its master's work lighter or heavier
# than the others': say so. Once the load stops the replica's offset must
# reach the master's within a few seconds, with as many keys.
warn_lost_replicas() {
    local replica master
    for replica in "${!SERVER_PID[@]}"; do
        [[ $replica == *-replica ]] || continue
        master=${replica%-replica}
        if [[ $(info_field "$replica" replication master_link_status) != up ||
              $(info_field "$master" stats sync_full) != 1 ]]; then
            echo "WARNING: $replica lost its link to $master or synced again: $master's figures are not comparable" >&2
        fi
        for _ in $(seq 50); do
            [[ $(info_field "$master" replication master_repl_offset) == \
               "$(info_field "$replica" replication slave_repl_offset)" ]] && break
            sleep 0.1
        done
        if [[ $(info_field "$master" replication master_repl_offset) != \
              "$(info_field "$replica" replication slave_repl_offset)" ||
              $(redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$master]}" $(auth_args "$master") dbsize) != \
              "$(redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$replica]}" $(auth_args "$replica") dbsize)" ]]; then
            echo "WARNING: $replica did not catch up with $master (offsets or key counts differ): $master's figures are suspect" >&2
        fi
    done
}

# The AOF's base in server directory DIR: the file that its manifest
# (appendonlydir/appendonly.aof.manifest, Redis 7's multi-part layout)
# names as type b, else the one file of Redis 6's layout, appendonly.aof.
aof_base_file() {  # DIR
    local manifest=$1/appendonlydir/appendonly.aof.manifest
    if [[ ! -f $manifest ]]; then echo "$1/appendonly.aof"; return; fi
    awk -v dir="$1/appendonlydir" '
        $1 == "file" { for (i = 3; i < NF; i += 2) if ($i == "type" && $(i + 1) == "b") print dir "/" $2 }' "$manifest"
}

# The user and system CPU of process PID so far, in clock ticks: fields 14
# and 15 of /proc/PID/stat, counted after the ")" that ends the command name
# (which may hold spaces).
user_sys_ticks() {  # PID
    sed 's/.*) //' /proc/"$1"/stat | awk '{ print $12, $13 }'
}

start_both() {
    start_named cppredis
    start_named redis
}

stop_server() {  # NAME
    local pid=${SERVER_PID[$1]:-}
    [[ -n $pid ]] || return 0
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    unset "SERVER_PID[$1]"
}

# Calls FN ROUND VARIANT NAME for each of $ROUNDS rounds, each VARIANT (a
# mode, a size ...) and both servers. The order of the servers flips every
# round (cppredis first in odd ones), so that a drift in the machine's load
# or a first-run warm-up does not always favour the same side.
for_each_run() {  # FN VARIANT...
    local fn=$1 round variant name order
    shift
    for round in $(seq "$ROUNDS"); do
        if ((round % 2)); then order=(cppredis redis); else order=(redis cppredis); fi
        for variant in "$@"; do
            for name in "${order[@]}"; do
                if [[ -z ${RUN_CPU_LOG:-} ]]; then "$fn" "$round" "$variant" "$name"; continue; fi
                local before after
                before=$(user_sys_ticks "${SERVER_PID[$name]}")
                "$fn" "$round" "$variant" "$name"
                after=$(user_sys_ticks "${SERVER_PID[$name]}")
                echo "$round $variant $name $before $after" |
                    awk '{ print $1, $2, $3, $6 - $4, $7 - $5 }' >>"$RUN_CPU_LOG"
            done
        done
    done
}

# Runs the bench tool $TOOL against server NAME on the client core; the one
# line of key=value figures it prints goes to $RESULTS after round= and
# server=, and to stderr as progress. A failed run stops the script.
run_tool() {  # ROUND LABEL NAME TOOL-ARGS...
    local round=$1 label=$2 name=$3 line
    shift 3
    if ! line=$("${CLIENT_CPU[@]}" "$TOOL" -p "${SERVER_PORT[$name]}" --server-pid "${SERVER_PID[$name]}" "$@"); then
        echo "FAILED: $TOOL against $name (round $round, $label): $line" >&2
        exit 1
    fi
    echo "round=$round server=$name $line" >>"$RESULTS"
    echo "round $round/$ROUNDS $label $name: $line" >&2
}

# Starts server NAME, runs $TOOL against it (client core), stops it: for
# tools that fill a server (millions of keys) and measure it. The tool's
# line of key=value figures goes to RUNS[NAME], one line per run, and to
# stderr as progress.
declare -A RUNS
fresh_server_run() {  # ROUND NAME TOOL-ARGS...
    local round=$1 name=$2 line
    shift 2
    start_named "$name"
    line=$("${CLIENT_CPU[@]}" "$TOOL" -p "${SERVER_PORT[$name]}" "$@")
    stop_server "$name"
    echo "round $round/$ROUNDS $name: $line" >&2
    RUNS[$name]+="$line"$'\n'
}

# awk helpers for those lines: field(k) is the value of k= on the current
# line, median(a, n) the median of a[1..n] (which it sorts).
AWK_RUN_FIELDS='
    function field(k,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } }
    function median(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }'

# Starts build/bench/subscribers (built by bench_init's caller) on the
# client core: N connections to server NAME subscribed to CHANNEL, reading
# everything published until the server stops. Returns once all are
# subscribed.
start_subscribers() {  # NAME N CHANNEL
    local name=$1 out=$BENCH_WORK/$1.subscribers
    "${CLIENT_CPU[@]}" build/bench/subscribers -p "${SERVER_PORT[$name]}" --clients "$2" --channel "$3" >"$out" 2>&1 &
    for _ in $(seq 100); do
        grep -q '^ready' "$out" && return
        sleep 0.1
    done
    echo "subscribers for $name never got ready:" >&2
    cat "$out" >&2
    exit 1
}

# They end with their server. Ready once the server lists N monitors (flags=O).
start_monitors() {  # NAME N
    local name=$1 port=${SERVER_PORT[$1]} auth
    read -ra auth <<<"$(auth_args "$name")"
    for _ in $(seq "$2"); do
        "${CLIENT_CPU[@]}" redis-cli -h 127.0.0.1 -p "$port" "${auth[@]}" monitor >/dev/null 2>&1 &
    done
    for _ in $(seq 100); do
        [[ $(redis-cli -h 127.0.0.1 -p "$port" "${auth[@]}" client list | grep -c ' flags=O ') == "$2" ]] && return
        sleep 0.1
    done
    echo "monitors for $name never got attached" >&2
    exit 1
}

# Every run is kept: $RESULTS, a new empty file under bench/results.
new_results() {  # PREFIX SUFFIX
    mkdir -p bench/results
    RESULTS=bench/results/$1$(date +%Y%m%d-%H%M%S)$2
    : >"$RESULTS"
}

machine_line() {
    echo "$(date -Is)  $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
}

# Both servers as they ran: binary, arguments (shell-quoted), Redis's version.
servers_lines() {
    echo "cppredis:" "$CPPREDIS_BIN" "${CPPREDIS_ARGS[@]@Q}"
    echo "redis:   " "$REDIS_BIN" "${REDIS_ARGS[@]@Q}" "($("$REDIS_BIN" --version | grep -o 'v=[0-9.]*'))"
}

# The workloads bench/syscalls.sh and bench/profile.sh observe, chosen by
# WORKLOAD (default queue-rate):
#   queue-rate        build/bench/queue_bench, 4 producers, 8 consumers
#                     BRPOPping 4 keys: RATE [5000] msgs/s until MSGS [20000]
#   queue-saturation  the same, MSGS messages as fast as they go, 16 LPUSHes
#                     in flight per producer, at most 64 unconsumed
#   dict-load         build/bench/dict_latency: KEYS [1000000] SETs in pipelines
#                     of 1000 while it times PINGs (the keyspace growing)
#   benchmark         redis-benchmark -c CLIENTS [50] -n N [20000] -P PIPELINE [1],
#                     one run per test of TESTS [incr] (names of -t), or
#                     BENCH_ARGS's command (shell-quoted) as one run "custom";
#                     FILL (redis-benchmark arguments, shell-quoted) is what
#                     workload_fill runs before each, outside the measurement,
#                     e.g. FILL="-t lpush -n 10000" before LRANGEs
# workload_init builds what they need; workload_labels lists the runs;
# workload_fill NAME runs FILL against server NAME; workload_run NAME LABEL
# runs one against it on the client core and sets WORKLOAD_REQUESTS
# (messages or requests); a failed run stops the script.
WORKLOAD=${WORKLOAD:-queue-rate}
workload_init() {
    case $WORKLOAD in
    queue-rate | queue-saturation) WORKLOAD_TOOL=build/bench/queue_bench ;;
    dict-load) WORKLOAD_TOOL=build/bench/dict_latency ;;
    benchmark) WORKLOAD_TOOL=redis-benchmark ;;
    *) echo "unknown WORKLOAD $WORKLOAD (queue-rate, queue-saturation, dict-load, benchmark)" >&2; exit 2 ;;
    esac
    bench_init "$([[ $WORKLOAD_TOOL == build/* ]] && echo "$WORKLOAD_TOOL")"
}
workload_labels() {
    if [[ $WORKLOAD != benchmark ]]; then echo "$WORKLOAD"
    elif [[ -n ${BENCH_ARGS:-} ]]; then echo custom
    else echo "${TESTS:-incr}" | tr ',' ' '; fi
}
workload_fill() {  # NAME
    [[ -n ${FILL:-} ]] || return 0
    eval "\"\${CLIENT_CPU[@]}\" redis-benchmark -h 127.0.0.1 -p \"\${SERVER_PORT[\$1]}\" -q $FILL" >/dev/null
}
workload_run() {  # NAME LABEL
    local port=${SERVER_PORT[$1]} log=$BENCH_WORK/workload.log args
    case $WORKLOAD in
    queue-rate) args=(-r "${RATE:-5000}" -n "${MSGS:-20000}") ;;
    queue-saturation) args=(-r 0 -n "${MSGS:-20000}" -d 16 -w 64) ;;
    esac
    if [[ $WORKLOAD == queue-* ]]; then
        WORKLOAD_REQUESTS=${MSGS:-20000}
        args=(-P 4 -C 8 -K 4 -t 1 "${args[@]}")
    elif [[ $WORKLOAD == dict-load ]]; then
        WORKLOAD_REQUESTS=${KEYS:-1000000}
        args=(-n "$WORKLOAD_REQUESTS")
    fi
    if [[ $WORKLOAD != benchmark ]]; then
        "${CLIENT_CPU[@]}" "$WORKLOAD_TOOL" -p "$port" "${args[@]}" >"$log" 2>&1 ||
            { echo "FAILED: $WORKLOAD against $1:" >&2; cat "$log" >&2; exit 1; }
        return
    fi
    local bench=("${CLIENT_CPU[@]}" redis-benchmark -h 127.0.0.1 -p "$port" -c "${CLIENTS:-50}" -P "${PIPELINE:-1}" -q)
    WORKLOAD_REQUESTS=${N:-20000}
    if [[ $2 == custom ]]; then eval "\"\${bench[@]}\" -n \"\$WORKLOAD_REQUESTS\" $BENCH_ARGS" >"$log" 2>&1
    else "${bench[@]}" -n "$WORKLOAD_REQUESTS" -t "$2" >"$log" 2>&1; fi ||
        { echo "FAILED: redis-benchmark $2 against $1:" >&2; cat "$log" >&2; exit 1; }
}

# Re-executes the calling script ("$0" "$@") in a network namespace of its
# own with only lo up, if it can (root, unshare(1)), so that the kernel's
# TCP counters (nstat) count its runs alone; NETNS_PRIVATE=1 says it did.
enter_private_netns() {  # "$@" of the script
    [[ -n ${NETNS_PRIVATE:-} ]] && return
    if unshare -n true 2>/dev/null; then
        exec unshare -n env NETNS_PRIVATE=1 bash -c 'ip link set lo up && exec "$0" "$@"' "$(realpath "$0")" "$@"
    fi
    NETNS_PRIVATE=
}
