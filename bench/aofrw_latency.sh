#!/usr/bin/env bash
# bench/aofrw_latency.sh — what a BGREWRITEAOF of a big, mixed dataset
# costs, cppredis against Redis 7 in the same run.
#
# For each round and server: start a fresh server (core 0) in an empty
# scratch directory with appendonly yes, appendfsync everysec,
# aof-use-rdb-preamble yes (the default) and no automatic rewrite
# (auto-aof-rewrite-percentage 0: the load alone would start one); run
# build/bench/aofrw_latency against it (core 1): it loads KEYS keys of a
# mixed dataset (70 % strings of 16-100 bytes, lists, hashes, sets, sorted
# sets of 10, one key in 10 with a TTL; the tool's top comment), then sends
# BGREWRITEAOF while a prober times one PING at a time until INFO says
# aof_rewrite_in_progress:0. Then read the size of the new base, the file
# the manifest (appendonlydir/*.manifest) names as type b — or, in the
# one-file layout of Redis 6, the size of appendonly.aof right after the
# rewrite — and stop the server. Servers run one after the other, in
# alternating order from round to round. Prints each run, then per server
# the medians of: the rewrite's time (command to done; the server's own
# aof_last_rewrite_time_sec, whole seconds), the parent's longest PING
# stall and p99, the fork time (latest_fork_usec), the base's size; and the
# cppredis/Redis ratios. Both servers write the same data, so the bases'
# sizes should match (target: within 1 %).
#
# Run it as root (or with CAP_SYS_NICE) so that the prober gets SCHED_FIFO.
#
# Usage: bench/aofrw_latency.sh
# Environment: KEYS [1000000], BATCH [1000 keys per pipeline], ROUNDS [1],
#              CPPREDIS_BIN [build/cppredis-server], REDIS_BIN [redis-server],
#              EXTRA_ARGS, EXTRA_ARGS_CPPREDIS, EXTRA_ARGS_REDIS (bench/lib.sh)
# Memory: each server holds the dataset (~150 MB per million keys), one
# server at a time; its rewrite child shares its pages. Disk: the base and
# the incr file, ~200 MB per million keys, one server's at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRA_ARGS="--appendonly yes --appendfsync everysec --aof-use-rdb-preamble yes --auto-aof-rewrite-percentage 0 ${EXTRA_ARGS:-}"
source bench/lib.sh

KEYS=${KEYS:-1000000}
BATCH=${BATCH:-1000}
ROUNDS=${ROUNDS:-1}
TOOL=build/bench/aofrw_latency
bench_init "$TOOL"

aofrw_run() {  # ROUND KEYS NAME
    local round=$1 keys=$2 name=$3 line base
    rm -rf "${BENCH_WORK:?}/$name"  # a fresh server: no AOF of an earlier round to load
    start_named "$name"
    line=$("${CLIENT_CPU[@]}" "$TOOL" -p "${SERVER_PORT[$name]}" -n "$keys" -b "$BATCH") ||
        { echo "FAILED: $TOOL against $name (round $round): $line" >&2; exit 1; }
    base=$(aof_base_file "$BENCH_WORK/$name")
    line+=" base_bytes=$(stat -c %s "$base") base=${base#"$BENCH_WORK/$name/"}"
    stop_server "$name"
    echo "round $round/$ROUNDS $name: $line" >&2
    RUNS[$name]+="$line"$'\n'
}
for_each_run aofrw_run "$KEYS"

echo
machine_line
servers_lines
echo "$KEYS keys of the mixed dataset; BGREWRITEAOF while a client pings; medians over $ROUNDS round(s)"
echo
declare -A MED
printf '%-9s %11s %14s %14s %10s %10s %14s\n' server "rewrite s" "rewrite_time s" "max stall ms" "p99 ms" "fork ms" "base bytes"
for name in cppredis redis; do
    MED[$name]=$(printf '%s' "${RUNS[$name]}" | awk "$AWK_RUN_FIELDS"'
        { n++; r[n] = field("rewrite_s"); t[n] = field("rewrite_time_sec"); m[n] = field("max_ms")
          p[n] = field("p99_ms"); f[n] = field("fork_ms"); b[n] = field("base_bytes") }
        END { printf "%.3f %.1f %.3f %.3f %.3f %.0f\n", median(r, n), median(t, n), median(m, n), median(p, n),
                     median(f, n), median(b, n) }')
    read -r r t m p f b <<<"${MED[$name]}"
    printf '%-9s %11s %14s %14s %10s %10s %14s\n' "$name" "$r" "$t" "$m" "$p" "$f" "$b"
done
read -ra C <<<"${MED[cppredis]}"
read -ra R <<<"${MED[redis]}"
awk -v r="${C[0]}/${R[0]}" -v m="${C[2]}/${R[2]}" -v p="${C[3]}/${R[3]}" -v f="${C[4]}/${R[4]}" -v b="${C[5]}/${R[5]}" '
    function ratio(s,   ab) { split(s, ab, "/"); return ab[2] > 0 ? sprintf("%.3f", ab[1] / ab[2]) : "n/a" }
    BEGIN {
        printf "cppredis/redis: rewrite %s, max stall %s, p99 %s, fork %s, base size %s", ratio(r), ratio(m), ratio(p), ratio(f), ratio(b)
        split(b, ab, "/")
        d = ab[2] > 0 ? (ab[1] - ab[2]) / ab[2] : 1
        printf " (%s: within 1 %% of Redis'"'"'s)\n", (d <= 0.01 && d >= -0.01) ? "PASS" : "FAIL"
    }'
