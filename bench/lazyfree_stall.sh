#!/usr/bin/env bash
# bench/lazyfree_stall.sh — the longest stall a client sees while a set of
# MEMBERS members is deleted by UNLINK (freed on the lazyfree thread) and
# by DEL (freed by the event loop), cppredis against Redis 7 in the same run.
#
# For each round, command and server: start a fresh server, run
# build/bench/lazyfree_stall against it (client core: builds the set with
# pipelined SADDs of BATCH members, then times one PING at a time while
# the command runs and until INFO says nothing is left to free), stop the
# server. Servers run one after the other (10 M members take about 1 GB
# each), in alternating order from round to round. Prints each run, then
# for each server and command the worst maximum and the median p99 of the
# PING round trips, and cppredis/redis ratios.
#
# The servers are not pinned to one core, unlike the other scripts: the
# lazyfree thread must have a core besides the event loop's, as it would
# on any production machine; pinned to one core with its main thread, its
# time slices would pass for stalls of the loop. Each server may use at
# most MAXMEMORY (noeviction: a server that needed more makes SADD fail
# and the run stop). Run as root for a SCHED_FIFO prober (prober=fifo) and
# servers at nice SERVER_NICE. Before each command the prober runs 2 s on
# the idle server ("idle max ms"): the longest round trip the machine gives
# with nothing being freed, the floor under "worst max ms".
#
# Usage: bench/lazyfree_stall.sh
# Environment: MEMBERS [10000000], BATCH [1000], ROUNDS [1],
#              MAXMEMORY [4gb], SERVER_NICE [-20],
#              CPPREDIS_BIN [build/cppredis-server], REDIS_BIN [redis-server]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

MEMBERS=${MEMBERS:-10000000}
BATCH=${BATCH:-1000}
ROUNDS=${ROUNDS:-1}
TOOL=build/bench/lazyfree_stall
SERVER_CPU=(nice -n "${SERVER_NICE:--20}")
CPPREDIS_ARGS+=(--maxmemory "${MAXMEMORY:-4gb}")
REDIS_ARGS+=(--maxmemory "${MAXMEMORY:-4gb}")
bench_init "$TOOL"

stall_run() { fresh_server_run "$1" "$3" -n "$MEMBERS" -b "$BATCH" -c "$2"; }  # ROUND COMMAND NAME
for_each_run stall_run UNLINK DEL

echo
machine_line
servers_lines
echo "a set of $MEMBERS members, SADDs of $BATCH; PING round trips seen while it is deleted, $ROUNDS round(s)"
echo
SUMMARY=$(for name in cppredis redis; do
    printf '%s' "${RUNS[$name]}" | awk -v s="$name" "$AWK_RUN_FIELDS"'
        { c = field("command"); n[c]++; mx[c, n[c]] = field("max_ms"); p[c, n[c]] = field("p99_ms")
          cm[c, n[c]] = field("cmd_ms"); fr[c, n[c]] = field("free_ms"); pr = field("prober")
          if (mx[c, n[c]] > worst[c]) worst[c] = mx[c, n[c]]
          if (field("idle_max_ms") > idle[c]) idle[c] = field("idle_max_ms") }
        END { for (c in n) {
                  for (i = 1; i <= n[c]; i++) { a[i] = p[c, i]; b[i] = cm[c, i]; f[i] = fr[c, i] }
                  printf "%s %s %.3f %.3f %.3f %.1f %.3f %s\n", s, c, worst[c], median(a, n[c]), median(b, n[c]),
                         median(f, n[c]), idle[c], pr } }'
done)
printf '%-9s %-7s %12s %14s %12s %12s %14s %7s\n' server command "worst max ms" "median p99 ms" "cmd ms" "freed in ms" \
       "idle max ms" prober
sort -k1,1 -k2,2r <<<"$SUMMARY" | awk '{ printf "%-9s %-7s %12.3f %14.3f %12.3f %12.1f %14.3f %7s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
echo
awk '{ mx[$1, $2] = $3; p[$1, $2] = $4; if ($7 > idle[$1]) idle[$1] = $7 }
     END { split("UNLINK DEL", cs, " ")
           for (i = 1; i <= 2; i++) { c = cs[i]
               printf "%-7s cppredis/redis: worst max %.2f, p99 %.2f\n", c,
                      mx["cppredis", c] / mx["redis", c], p["cppredis", c] / p["redis", c] }
           printf "target (issue 20): cppredis UNLINK worst max <= 2 ms: %s", mx["cppredis", "UNLINK"] <= 2 ? "met" : "NOT met"
           printf " (the same prober on the idle servers: worst %.3f ms)\n", (idle["cppredis"] > idle["redis"] ? idle["cppredis"] : idle["redis"]) }' <<<"$SUMMARY"
