#!/usr/bin/env bash
# bench/repl_lag.sh — a replica's lag behind a loaded master, cppredis
# against Redis 7 in the same run.
#
# For each round and server: start a master (core 0) and a replica of the
# same implementation following it (bench/lib.sh start_replica), load the
# master with redis-benchmark SETs (core 1, -P PIPELINE, random keys among
# KEYSPACE), and meanwhile run build/bench/repl_lag (core 1): SAMPLES times,
# SET a probe key on the master and time from the master's +OK until a GET
# on the replica returns the new value. Stop the load and both servers.
# The order of the servers alternates from round to round. Prints each run,
# then per server the medians over rounds of the lag's p50, p99 and max,
# the master's commands per second during the sampling (the load keeps it
# busy; a faster master streams more), and the cppredis/Redis ratios.
#
# Usage: bench/repl_lag.sh
# Environment: SAMPLES [2000], INTERVAL_US [1000] between samples,
#   CLIENTS [50], PIPELINE [16], KEYSPACE [100000], DATA [16] value size,
#   ROUNDS [3], CPPREDIS_BIN [build/cppredis-server], REDIS_BIN [redis-server],
#   REPLICA_CPU ["", the kernel's choice]
#   MASTER_IMPL [each replica's own]: cppredis or redis, the master every
#   replica follows. With one master for both (MASTER_IMPL=redis), the
#   replicas get the same stream at the same rate: the figure is then the
#   replica's own. Without, a master that runs faster streams more to its
#   replica; on two cores a replica of a master at twice Redis's rate falls
#   behind whichever implementation it is.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

SAMPLES=${SAMPLES:-2000}
INTERVAL_US=${INTERVAL_US:-1000}
CLIENTS=${CLIENTS:-50}
PIPELINE=${PIPELINE:-16}
KEYSPACE=${KEYSPACE:-100000}
DATA=${DATA:-16}
ROUNDS=${ROUNDS:-3}
TOOL=build/bench/repl_lag
bench_init "$TOOL"

lag_run() {  # ROUND - NAME
    local round=$1 name=$3 line load
    start_named "$name" "${MASTER_IMPL:-$name}"
    start_replica "$name"
    # Far more requests than the sampling lasts: it is stopped afterwards.
    "${CLIENT_CPU[@]}" redis-benchmark -h 127.0.0.1 -p "${SERVER_PORT[$name]}" -c "$CLIENTS" -P "$PIPELINE" \
        -r "$KEYSPACE" -d "$DATA" -n 1000000000 -t set -q >/dev/null 2>&1 &
    load=$!
    # The load is on before the first sample.
    local before
    before=$(info_field "$name" stats total_commands_processed)
    while (($(info_field "$name" stats total_commands_processed) < before + 10000)); do sleep 0.05; done
    line=$("${CLIENT_CPU[@]}" "$TOOL" -p "${SERVER_PORT[$name]}" -r "${SERVER_PORT[$name-replica]}" \
        -n "$SAMPLES" -i "$INTERVAL_US") || { kill "$load"; echo "FAILED: $TOOL against $name: $line" >&2; exit 1; }
    kill "$load"
    wait "$load" 2>/dev/null || true
    if [[ $(info_field "$name" stats sync_full) != 1 ]]; then
        echo "WARNING: $name's replica synced again during the run (output buffer limit?)" >&2
    fi
    stop_server "$name-replica"
    stop_server "$name"
    echo "round $round/$ROUNDS $name: $line" >&2
    RUNS[$name]+="$line"$'\n'
}
for_each_run lag_run -

echo
machine_line
servers_lines
echo "${MASTER_IMPL:+every master is $MASTER_IMPL, the rows name the replica; }each master with one replica; load: redis-benchmark -t set -c $CLIENTS -P $PIPELINE -r $KEYSPACE -d $DATA"
echo "lag: from a SET's +OK on the master to the value visible on the replica, $SAMPLES samples ${INTERVAL_US} us apart; medians over $ROUNDS round(s)"
echo
printf '%-9s %12s %12s %12s %16s\n' server "lag p50 ms" "lag p99 ms" "lag max ms" "master ops/s"
declare -A MED
for name in cppredis redis; do
    MED[$name]=$(printf '%s' "${RUNS[$name]}" | awk "$AWK_RUN_FIELDS"'
        { n++; a[n] = field("lag_p50_ms"); b[n] = field("lag_p99_ms"); c[n] = field("lag_max_ms"); d[n] = field("master_ops_per_s") }
        END { print median(a, n), median(b, n), median(c, n), median(d, n) }')
    read -r a b c d <<<"${MED[$name]}"
    printf '%-9s %12.3f %12.3f %12.3f %16.0f\n' "$name" "$a" "$b" "$c" "$d"
done
awk -v a="${MED[cppredis]}" -v b="${MED[redis]}" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "%-9s", "ratio"
    for (i = 1; i <= 4; i++) printf(i == 4 ? " %16s" : " %12s", y[i] > 0 ? sprintf("%.3f", x[i] / y[i]) : "-")
    print ""
}'
