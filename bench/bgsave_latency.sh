#!/usr/bin/env bash
# bench/bgsave_latency.sh — what a BGSAVE of a big dataset costs, cppredis
# against Redis 7 in the same run.
#
# For each round and server: start a fresh server (core 0, its files in a
# scratch directory), run build/bench/bgsave_latency against it (core 1):
# it loads KEYS keys with pipelined SETs, then starts a BGSAVE while a
# prober times one PING at a time until INFO says the save is done. Stop
# the server. Servers run one after the other, in alternating order from
# round to round. Prints each run, then per server the median of: fork time
# (the server's INFO latest_fork_usec), BGSAVE duration (command to INFO
# showing it done), and the longest PING round trip during the BGSAVE —
# the parent's stall, which is the fork copying the page tables.
#
# Run it as root (or with CAP_SYS_NICE) so that the prober gets SCHED_FIFO.
#
# Usage: bench/bgsave_latency.sh
# Environment: KEYS [1000000], BATCH [1000], ROUNDS [1],
#              CPPREDIS_BIN [build/cppredis-server], REDIS_BIN [redis-server]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

KEYS=${KEYS:-1000000}
BATCH=${BATCH:-1000}
ROUNDS=${ROUNDS:-1}
TOOL=build/bench/bgsave_latency
bench_init "$TOOL"

bgsave_run() { fresh_server_run "$1" "$3" -n "$2" -b "$BATCH"; }  # ROUND KEYS NAME
for_each_run bgsave_run "$KEYS"

echo
machine_line
servers_lines
echo "$KEYS keys; BGSAVE while a client pings; medians over $ROUNDS round(s)"
echo
printf '%-9s %12s %12s %16s %12s\n' server "fork ms" "BGSAVE s" "max stall ms" "p99 ms"
for name in cppredis redis; do
    printf '%s' "${RUNS[$name]}" | awk -v s="$name" "$AWK_RUN_FIELDS"'
        { n++; f[n] = field("fork_ms"); b[n] = field("bgsave_s"); m[n] = field("max_ms"); p[n] = field("p99_ms") }
        END { printf "%-9s %12.3f %12.3f %16.3f %12.3f\n", s, median(f, n), median(b, n), median(m, n), median(p, n) }'
done
