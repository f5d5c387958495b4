#!/usr/bin/env bash
# bench/sentinel_failover.sh — how long Sentinel takes to fail a cppredis
# master over, beside the same setup with Redis 7 processes (issue 18).
#
# Each run: a master and two replicas of one kind (cppredis or Redis 7), each
# with a config file of its own (Sentinel rewrites them), three of Debian's
# redis-sentinel processes monitoring the master (quorum 2,
# down-after-milliseconds 1000, failover-timeout 10000), all on free
# 127.0.0.1 ports, and the integration test's producer
# (tests/clients/sentinel_producer.py: LPUSH then WAIT 1 1000, through
# redis-py's Sentinel client) writing. The master is killed with SIGKILL;
# the failover time runs from the kill to the first write the new master
# (the one `SENTINEL get-master-addr-by-name` names) accepts. The run then
# waits for the other replica to follow the new master and for the producer
# to write through it, and fails unless every message the producer had
# acknowledged (WAIT >= 1) is on the new master and on that replica.
# Runs alternate between the kinds (the order flips every round); it prints
# the median failover time of each and the ratio, and saves every run to
# bench/results/sentinel-failover-<timestamp>.txt.
#
# Usage: bench/sentinel_failover.sh
# Environment (defaults in brackets):
#   ROUNDS [3]     runs of each kind
#   CPPREDIS_BIN [build/cppredis-server, built with make if missing]
#   REDIS_BIN [redis-server]  SENTINEL_BIN [/usr/bin/redis-sentinel]
#   PYTHON [/usr/bin/python3: Debian's, which has redis-py]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ROUNDS=${ROUNDS:-3}
SENTINEL_BIN=${SENTINEL_BIN:-/usr/bin/redis-sentinel}
PYTHON=${PYTHON:-/usr/bin/python3}
PRODUCER=tests/clients/sentinel_producer.py
# What the data servers run with: no persistence, the replication timings
# the tests use (no wait before a diskless full sync, a ping a second).
DATA_CONF=$'save ""\nappendonly no\nrepl-diskless-sync-delay 0\nrepl-ping-replica-period 1\n'

bench_init
PRODUCER_PID=
trap '[[ -n $PRODUCER_PID ]] && kill "$PRODUCER_PID" 2>/dev/null; bench_cleanup' EXIT
"$PYTHON" -c 'import redis' 2>/dev/null || { echo "$PYTHON has no redis-py (apt-get install python3-redis)" >&2; exit 2; }
[[ -x $SENTINEL_BIN ]] || { echo "$SENTINEL_BIN is missing (apt-get install redis-sentinel)" >&2; exit 2; }

cli() {  # PORT ARGS...
    local port=$1
    shift
    redis-cli -h 127.0.0.1 -p "$port" "$@" 2>/dev/null
}

# Polls `COND` (a shell command) every 50 ms until it holds; after SECONDS
# the run fails with WHAT.
wait_for() {  # SECONDS WHAT COND...
    local deadline=$((SECONDS + $1)) what=$2
    shift 2
    until "$@"; do
        if ((SECONDS > deadline)); then
            echo "FAILED: $what" >&2
            exit 1
        fi
        sleep 0.05
    done
}

# Starts BIN with its config file CONF first (Redis reads it only there) on
# a free port, in the scratch directory, as server NAME of bench/lib.sh
# (stopped by pid at exit); waits until it answers PING.
start_with_conf() {  # NAME BIN CONF ARGS...
    local name=$1 bin=$2 conf=$3
    shift 3
    for _ in 1 2 3 4 5; do
        SERVER_PORT[$name]=$(free_port)
        "$bin" "$conf" --port "${SERVER_PORT[$name]}" --bind 127.0.0.1 "$@" >"$BENCH_WORK/$name.log" 2>&1 &
        SERVER_PID[$name]=$!
        for _ in $(seq 100); do
            kill -0 "${SERVER_PID[$name]}" 2>/dev/null || break
            [[ $(cli "${SERVER_PORT[$name]}" ping) == PONG ]] && return
            sleep 0.1
        done
        stop_server "$name"
        grep -qi 'address already in use' "$BENCH_WORK/$name.log" || break
    done
    echo "$name ($bin) did not answer PING; its log:" >&2
    cat "$BENCH_WORK/$name.log" >&2
    exit 1
}

field() {  # PORT SECTION FIELD: one INFO field
    cli "$1" info "$2" | tr -d '\r' | sed -n "s/^$3://p"
}
link_up() {  # REPLICA-PORT MASTER-PORT
    [[ $(field "$1" replication master_port) == "$2" && $(field "$1" replication master_link_status) == up ]]
}
sentinels_ready() {  # every Sentinel knows both replicas and the two others
    local s
    for s in 1 2 3; do
        [[ $(cli "${SERVER_PORT[s$s]}" sentinel replicas mymaster | grep -c '^name$') == 2 ]] || return 1
        [[ $(cli "${SERVER_PORT[s$s]}" sentinel sentinels mymaster | grep -c '^name$') == 2 ]] || return 1
    done
}
master_port_now() { cli "${SERVER_PORT[s1]}" sentinel get-master-addr-by-name mymaster | tail -n1; }
llen() {  # PORT: the list's length, 0 while the server cannot tell
    local n
    n=$(cli "$1" llen queue)
    [[ $n =~ ^[0-9]+$ ]] && echo "$n" || echo 0
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }

new_results sentinel-failover- .txt

# One failover of KIND's master; its time goes to RUNS[KIND].
declare -A RUNS
# shellcheck disable=SC2016 # wait_for's conditions are evaluated there, each time
failover_run() {  # ROUND VARIANT KIND
    local round=$1 kind=$3 bin=$REDIS_BIN dir name old new other t0 t1 ms verdict before
    [[ $kind == cppredis ]] && bin=$CPPREDIS_BIN
    dir=$BENCH_WORK/$kind-$round
    mkdir -p "$dir"
    for name in m r1 r2; do printf '%s' "$DATA_CONF" >"$dir/$name.conf"; done
    start_with_conf m "$bin" "$dir/m.conf"
    old=${SERVER_PORT[m]}
    if [[ -z $(field "$old" replication master_replid) ]]; then
        echo "FAILED: $kind has no replication (INFO replication has no master_replid)" >&2
        exit 1
    fi
    for name in r1 r2; do start_with_conf "$name" "$bin" "$dir/$name.conf" --replicaof 127.0.0.1 "$old"; done
    wait_for 20 "replicas of $kind never in sync" eval 'link_up ${SERVER_PORT[r1]} $old && link_up ${SERVER_PORT[r2]} $old'
    for name in s1 s2 s3; do
        printf 'sentinel monitor mymaster 127.0.0.1 %s 2\nsentinel down-after-milliseconds mymaster 1000\nsentinel failover-timeout mymaster 10000\n' \
            "$old" >"$dir/$name.conf"
        start_with_conf "$name" "$SENTINEL_BIN" "$dir/$name.conf"
    done
    wait_for 30 "Sentinels never saw each other and both replicas" sentinels_ready

    "$PYTHON" "$PRODUCER" "${SERVER_PORT[s1]},${SERVER_PORT[s2]},${SERVER_PORT[s3]}" mymaster queue \
        "$dir/stop" 120 >"$dir/producer.json" 2>"$dir/producer.log" &
    PRODUCER_PID=$!
    wait_for 20 "the producer never wrote" eval '(($(llen $old) >= 50))'

    t0=$(now_ms)
    kill -9 "${SERVER_PID[m]}"
    wait "${SERVER_PID[m]}" 2>/dev/null || true
    unset "SERVER_PID[m]"
    wait_for 30 "Sentinel never promoted a replica" eval '[[ $(master_port_now) =~ ^[0-9]+$ && $(master_port_now) != $old ]]'
    new=$(master_port_now)
    wait_for 30 "the new master never accepted a write" eval '[[ $(cli $new set failover-probe 1) == OK ]]'
    t1=$(now_ms)
    ms=$((t1 - t0))
    [[ $new == "${SERVER_PORT[r1]}" ]] && other=${SERVER_PORT[r2]} || other=${SERVER_PORT[r1]}
    wait_for 30 "the other replica never followed the new master" link_up "$other" "$new"
    # shellcheck disable=SC2034 # read by the condition below
    before=$(llen "$new")
    wait_for 20 "the producer never wrote through the new master" eval '(($(llen $new) >= before + 50))'
    touch "$dir/stop"
    wait "$PRODUCER_PID"
    PRODUCER_PID=
    wait_for 20 "the replica never caught up" eval '[[ $(llen $other) == $(llen $new) ]]'
    verdict=$("$PYTHON" - "$dir/producer.json" "$new" "$other" <<'EOF'
import json, sys, redis
acked = ["m%d" % n for n in json.load(open(sys.argv[1]))["acked"]]
for port in sys.argv[2:]:
    have = set(x.decode() for x in redis.Redis(host="127.0.0.1", port=int(port)).lrange("queue", 0, -1))
    lost = [m for m in acked if m not in have]
    if lost:
        print("LOST on %s: %d of %d acknowledged messages, e.g. %s" % (port, len(lost), len(acked), lost[:5]))
        sys.exit(1)
print("acked=%d all present" % len(acked))
EOF
    ) || { echo "FAILED ($kind, round $round): $verdict" >&2; exit 1; }

    for name in r1 r2 s1 s2 s3; do stop_server "$name"; done
    rm -rf "$dir"
    echo "round=$round server=$kind failover_ms=$ms $verdict" >>"$RESULTS"
    echo "round $round/$ROUNDS $kind: failover ${ms} ms ($verdict)" >&2
    RUNS[$kind]+="$ms"$'\n'
}
for_each_run failover_run failover

echo
machine_line
echo "cppredis: $CPPREDIS_BIN"
echo "redis:    $REDIS_BIN ($("$REDIS_BIN" --version | grep -o 'v=[0-9.]*'))"
conf=${DATA_CONF%$'\n'}
echo "each with a config file: ${conf//$'\n'/; }"
echo "sentinel: $SENTINEL_BIN ($("$SENTINEL_BIN" --version | grep -o 'v=[0-9.]*')), quorum 2 of 3," \
    "down-after-milliseconds 1000, failover-timeout 10000; $ROUNDS rounds; raw runs: $RESULTS"
median() { sort -n | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
c=$(printf '%s' "${RUNS[cppredis]}" | median)
r=$(printf '%s' "${RUNS[redis]}" | median)
echo "median failover time (kill -9 -> the new master accepts a write):" \
    "cppredis ${c} ms, redis ${r} ms, ratio cppredis/redis $(awk -v c="$c" -v r="$r" 'BEGIN { printf "%.2f", c / r }')"
