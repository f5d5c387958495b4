#!/usr/bin/env bash
# bench/repl_fullsync.sh — a replica's full sync of a big dataset: how long
# it takes and how long the master stalls meanwhile, cppredis against
# Redis 7 in the same run.
#
# For each round and server: start a fresh master (core 0) and a fresh
# replica of the same implementation (bench/lib.sh start_replica, not yet
# following), then build/bench/repl_fullsync (core 1) loads KEYS keys into
# the master with pipelined SETs, sends REPLICAOF to the replica and polls
# it until master_link_status:up, while a prober times one PING at a time on
# the master. Stop both. Servers run one after the other, in alternating
# order from round to round. Prints each run, then per server the medians
# of: the sync's time (REPLICAOF to link up), the master's fork time (its
# INFO latest_fork_usec), and the master's longest PING round trip during
# the sync (its stall: the fork, and whatever the transfer costs it) and
# p99; then the cppredis/Redis ratios.
#
# Both masters sync to disk first (repl-diskless-sync no, the 2.8 path)
# unless DISKLESS=1 (repl-diskless-sync yes, delay 0). Run it as root (or
# with CAP_SYS_NICE) so that the prober gets SCHED_FIFO.
#
# Usage: bench/repl_fullsync.sh
# Environment: KEYS [1000000], BATCH [1000], ROUNDS [1], DISKLESS [unset],
#              CPPREDIS_BIN [build/cppredis-server], REDIS_BIN [redis-server],
#              REPLICA_CPU ["", the kernel's choice]
# Memory: each server holds KEYS keys (~100 MB per million); the master's
# fork child shares its pages.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n ${DISKLESS:-} ]]; then MODE=(--repl-diskless-sync yes --repl-diskless-sync-delay 0)
else MODE=(--repl-diskless-sync no); fi
EXTRA_ARGS="${EXTRA_ARGS:-} ${MODE[*]}"
source bench/lib.sh

KEYS=${KEYS:-1000000}
BATCH=${BATCH:-1000}
ROUNDS=${ROUNDS:-1}
TOOL=build/bench/repl_fullsync
bench_init "$TOOL"

fullsync_run() {  # ROUND KEYS NAME
    local round=$1 keys=$2 name=$3 line
    start_named "$name"
    start_replica "$name" detached
    line=$("${CLIENT_CPU[@]}" "$TOOL" -p "${SERVER_PORT[$name]}" -r "${SERVER_PORT[$name-replica]}" -n "$keys" -b "$BATCH") ||
        { echo "FAILED: $TOOL against $name (round $round): $line" >&2; exit 1; }
    stop_server "$name-replica"
    stop_server "$name"
    echo "round $round/$ROUNDS $name: $line" >&2
    RUNS[$name]+="$line"$'\n'
}
for_each_run fullsync_run "$KEYS"

echo
machine_line
servers_lines
echo "$KEYS keys; a replica of the same implementation attaches ($([[ -n ${DISKLESS:-} ]] && echo diskless || echo disk) sync); medians over $ROUNDS round(s)"
echo
printf '%-9s %10s %10s %16s %10s\n' server "sync s" "fork ms" "max stall ms" "p99 ms"
declare -A MED
for name in cppredis redis; do
    MED[$name]=$(printf '%s' "${RUNS[$name]}" | awk "$AWK_RUN_FIELDS"'
        { n++; s[n] = field("sync_s"); f[n] = field("fork_ms"); m[n] = field("max_ms"); p[n] = field("p99_ms") }
        END { print median(s, n), median(f, n), median(m, n), median(p, n) }')
    read -r s f m p <<<"${MED[$name]}"
    printf '%-9s %10.3f %10.3f %16.3f %10.3f\n' "$name" "$s" "$f" "$m" "$p"
done
awk -v a="${MED[cppredis]}" -v b="${MED[redis]}" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "%-9s", "ratio"
    for (i = 1; i <= 4; i++) printf(i == 3 ? " %16s" : " %10s", y[i] > 0 ? sprintf("%.3f", x[i] / y[i]) : "-")
    print ""
}'
