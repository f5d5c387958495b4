#!/usr/bin/env bash
# bench/aof_load.sh — how long a server takes to start on a big AOF (a
# base written by BGREWRITEAOF plus ~100 MB of commands after it),
# cppredis against Redis 7 in the same run.
#
# Each round first writes the directories, then times the loads:
# - write (per server, or only Redis's with WRITER=redis): a fresh server
#   (core 0) in an empty scratch directory with appendonly yes, appendfsync
#   everysec, aof-use-rdb-preamble yes and no automatic rewrite;
#   build/bench/aofrw_latency loads KEYS keys of its mixed dataset and
#   rewrites the AOF (a base .rdb); then redis-benchmark -t set,lpush,hset
#   -r 1000000 -d 100 -P 16 (core 1), CHUNK requests per test at a time,
#   until INFO's aof_current_size - aof_base_size (what went into the incr
#   file) reaches INCR_MB MiB, at most MAX_CHUNKS times; its DBSIZE and
#   DEBUG DIGEST are noted, then SHUTDOWN NOSAVE, and the directory is kept.
# - load, LOADS times per server, alternating: a copy of the directory
#   (the server's own by default; Redis's for both with WRITER=redis, as
#   Redis 7's multi-part layout is meant to be shared; WRITER=cppredis
#   the other way round) becomes the server's scratch directory, the server
#   starts on it, and build/bench/wait_ready (core 1) polls PING once a
#   millisecond until +PONG (-LOADING meanwhile). The load time is from
#   right before the spawn to the reply; the server's own "DB loaded from
#   append only file" figure (its log) is shown beside it. The loaded
#   DBSIZE and DEBUG DIGEST must be the writer's, or the script fails.
# The copies are synced to disk first and read from the page cache, for
# both servers alike. Prints each run, then per server the medians of the load
# time (and min-max) and the server's own figure, the directory's base and
# incr sizes, and the cppredis/Redis ratio.
#
# Usage: bench/aof_load.sh
# Environment: KEYS [1000000], BATCH [1000], INCR_MB [100], CHUNK [50000],
#              MAX_CHUNKS [20], LOADS [5], ROUNDS [1], WRITER [own|redis|cppredis],
#              CPPREDIS_BIN [build/cppredis-server], REDIS_BIN [redis-server],
#              EXTRA_ARGS, EXTRA_ARGS_CPPREDIS, EXTRA_ARGS_REDIS (bench/lib.sh)
# Memory: one server at a time holds the dataset (~150 MB per million keys)
# plus what redis-benchmark adds (a list and a hash of 100-byte elements,
# ~100 MB at 100 MB of incr file). Disk: ~300 MB per written directory,
# plus one copy.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRA_ARGS="--appendonly yes --appendfsync everysec --aof-use-rdb-preamble yes --auto-aof-rewrite-percentage 0 --enable-debug-command local ${EXTRA_ARGS:-}"
source bench/lib.sh

KEYS=${KEYS:-1000000}
BATCH=${BATCH:-1000}
INCR_MB=${INCR_MB:-100}
CHUNK=${CHUNK:-50000}
MAX_CHUNKS=${MAX_CHUNKS:-20}
LOADS=${LOADS:-5}
ROUNDS=${ROUNDS:-1}
WRITER=${WRITER:-own}
[[ $WRITER =~ ^(own|redis|cppredis)$ ]] || { echo "WRITER must be own, redis or cppredis" >&2; exit 2; }
TOOL=build/bench/aofrw_latency
READY_TOOL=build/bench/wait_ready
make --no-print-directory "$READY_TOOL" >&2
bench_init "$TOOL"

cli() { redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$1]}" "${@:2}"; }  # NAME ARGS...
declare -A WRITTEN FILES  # IMPL -> "dbsize digest base_bytes incr_bytes"; its files' sizes

# Server NAME's DBSIZE and DEBUG DIGEST, on one line.
dataset_id() { echo "$(cli "$1" dbsize) $(cli "$1" debug digest)"; }  # NAME

# Writes $BENCH_WORK/written-IMPL: the mixed dataset, rewritten, then at
# least INCR_MB MiB of commands in the incr file; the server is gone after.
write_dir() {  # ROUND IMPL
    local round=$1 impl=$2 line chunks=0 incr
    rm -rf "${BENCH_WORK:?}/$impl" "$BENCH_WORK/written-$impl"
    start_named "$impl"
    line=$("${CLIENT_CPU[@]}" "$TOOL" -p "${SERVER_PORT[$impl]}" -n "$KEYS" -b "$BATCH") ||
        { echo "FAILED: $TOOL against $impl (round $round): $line" >&2; exit 1; }
    while incr=$(($(info_field "$impl" persistence aof_current_size) - $(info_field "$impl" persistence aof_base_size)))
          ((incr < INCR_MB * 1048576)); do
        if ((chunks++ == MAX_CHUNKS)); then
            echo "FAILED: $impl's incr file holds $incr bytes after $MAX_CHUNKS chunks" >&2
            exit 1
        fi
        "${CLIENT_CPU[@]}" redis-benchmark -h 127.0.0.1 -p "${SERVER_PORT[$impl]}" -c 50 -P 16 -n "$CHUNK" \
            -r 1000000 -d 100 -t set,lpush,hset -q >/dev/null
    done
    WRITTEN[$impl]="$(dataset_id "$impl") $(info_field "$impl" persistence aof_base_size) $incr"
    cli "$impl" shutdown nosave >/dev/null 2>&1 || true
    wait "${SERVER_PID[$impl]}" 2>/dev/null || true
    unset "SERVER_PID[$impl]"
    mv "$BENCH_WORK/$impl" "$BENCH_WORK/written-$impl"
    find "$BENCH_WORK/written-$impl" -type f -exec sync -- {} +  # no write-back during the first load
    FILES[$impl]=$(cd "$BENCH_WORK/written-$impl" && find . -type f -printf '%P=%s ')
    echo "round $round/$ROUNDS wrote $impl's directory: dbsize digest base incr = ${WRITTEN[$impl]}; $line" >&2
}

# Starts server NAME on a copy of the directory IMPL wrote and times it
# until it answers PING; checks it holds what IMPL wrote.
load_dir() {  # ROUND NAME IMPL
    local round=$1 name=$2 impl=$3 ready said got
    rm -rf "${BENCH_WORK:?}/$name"
    cp -a "$BENCH_WORK/written-$impl" "$BENCH_WORK/$name"
    # On disk before the clock starts, so that no write-back of the copy
    # runs during the load (it stays in the page cache for the server).
    find "$BENCH_WORK/$name" -type f -exec sync -- {} +
    run_named launch_server "$name"
    ready=$("${CLIENT_CPU[@]}" "$READY_TOOL" -p "${SERVER_PORT[$name]}" --server-pid "${SERVER_PID[$name]}") ||
        { echo "FAILED: $name did not get ready on $impl's directory (round $round): $ready; its log:" >&2
          cat "$BENCH_WORK/$name.log" >&2; exit 1; }
    local load_s
    load_s=$(awk -v a="${SERVER_LAUNCHED[$name]}" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
    said=$(grep -o 'DB loaded from append only file: [0-9.]*' "$BENCH_WORK/$name.log" | awk '{ print $NF }' || true)
    got=$(dataset_id "$name")
    stop_server "$name"
    if [[ $got != "${WRITTEN[$impl]% * *}" ]]; then
        echo "FAILED: $name loaded $impl's directory as dbsize digest = $got, $impl wrote ${WRITTEN[$impl]% * *}" >&2
        exit 1
    fi
    local line="load_s=$load_s server_said_s=${said:--1} $ready writer=$impl"
    echo "round $round/$ROUNDS $name: $line" >&2
    RUNS[$name]+="$line"$'\n'
}

aof_load_run() {  # ROUND VARIANT NAME
    local round=$1 variant=$2 name=$3
    if [[ $variant == write ]]; then
        if [[ $WRITER == own || $WRITER == "$name" ]]; then write_dir "$round" "$name"; fi
    else
        load_dir "$round" "$name" "$([[ $WRITER == own ]] && echo "$name" || echo "$WRITER")"
    fi
}
VARIANTS=(write)
for _ in $(seq "$LOADS"); do VARIANTS+=(load); done
for_each_run aof_load_run "${VARIANTS[@]}"

echo
machine_line
servers_lines
echo "$KEYS keys of the mixed dataset, rewritten, then >= $INCR_MB MiB of set/lpush/hset; directories written by: $WRITER;" \
     "$LOADS load(s) per server in each of $ROUNDS round(s); medians"
echo
for impl in "${!WRITTEN[@]}"; do
    read -r dbsize _ base incr <<<"${WRITTEN[$impl]}"
    echo "the last directory $impl wrote: $dbsize keys; INFO's aof_base_size $base bytes, $incr bytes after it;" \
         "files (bytes): ${FILES[$impl]}"
done
echo
declare -A MED
printf '%-9s %10s %17s %16s\n' server "load s" "load s min-max" "server's own s"
for name in cppredis redis; do
    MED[$name]=$(printf '%s' "${RUNS[$name]}" | awk "$AWK_RUN_FIELDS"'
        { n++; l[n] = field("load_s"); s[n] = field("server_said_s") }
        END { m = median(l, n); printf "%.3f %.3f-%.3f %.3f\n", m, l[1], l[n], median(s, n) }')
    read -r l range s <<<"${MED[$name]}"
    printf '%-9s %10s %17s %16s\n' "$name" "$l" "$range" "$s"
done
awk -v c="${MED[cppredis]%% *}" -v r="${MED[redis]%% *}" 'BEGIN { printf "cppredis/redis: load %.3f\n", c / r }'
