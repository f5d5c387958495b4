#!/usr/bin/env bash
# bench/dict_latency.sh — the worst latency a client sees while the keyspace
# grows to KEYS keys, cppredis against Redis 7 in the same run.
#
# For each round and server: start a fresh server (pinned to core 0), run
# build/bench/dict_latency against it (core 1: a loader inserting KEYS keys
# with pipelined SETs of BATCH commands, and a prober timing one PING at a
# time), stop the server. Servers run one after the other (10 M keys take
# ~1.2 GB each), in alternating order from round to round, so a change in
# machine load hits both alike. Prints each run, then the worst and the
# median of the per-run maxima for each server.
#
# Run it as root (or with CAP_SYS_NICE) so that the tool's prober thread
# gets SCHED_FIFO (its output says prober=fifo): otherwise its own loader
# thread delays it. For the same reason both servers run at nice
# SERVER_NICE: on a shared machine a compiler on core 0 would otherwise
# take time slices of several milliseconds from the server being measured,
# and the figure is about the server's own stalls.
#
# Usage: bench/dict_latency.sh
# Environment: KEYS [10000000], BATCH [1000], ROUNDS [1], SERVER_NICE [-20],
#              CPPREDIS_BIN [build/cppredis-server], REDIS_BIN [redis-server]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

KEYS=${KEYS:-10000000}
BATCH=${BATCH:-1000}
ROUNDS=${ROUNDS:-1}
TOOL=build/bench/dict_latency
SERVER_CPU=(nice -n "${SERVER_NICE:--20}" "${SERVER_CPU[@]}")
bench_init "$TOOL"

dict_run() { fresh_server_run "$1" "$3" -n "$2" -b "$BATCH"; }  # ROUND KEYS NAME
for_each_run dict_run "$KEYS"

echo
machine_line
echo "$KEYS keys, SET pipelines of $BATCH, $ROUNDS round(s); PING round trips seen by a concurrent client"
echo
printf '%-9s %12s %14s %14s %12s %12s\n' server "worst max ms" "median max ms" "median p99.9" "load s" "SETs/s"
for name in cppredis redis; do
    printf '%s' "${RUNS[$name]}" | awk -v s="$name" "$AWK_RUN_FIELDS"'
        { n++; mx[n] = field("max_ms"); p[n] = field("p999_ms"); ld[n] = field("load_s"); r[n] = field("sets_per_s")
          if (mx[n] > worst) worst = mx[n] }
        END { printf "%-9s %12.3f %14.3f %14.3f %12.2f %12.0f\n", s, worst, median(mx, n), median(p, n), median(ld, n), median(r, n) }'
done
