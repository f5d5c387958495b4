#!/usr/bin/env bash
# bench/data_commands.sh — issue 19's figures: server CPU per request of
# cppredis against Redis 7 for the data commands it added, each measured by
# bench/compare.sh (both servers, alternating, medians, ratios) at -P 16,
# with the user/system split of bench/cpu_split.sh:
#   SETBIT / GETBIT / BITCOUNT on a 1 MB bitmap, PFADD / PFCOUNT, GEOADD /
#   GEOSEARCH on 100,000 points, SORT of a 1,000-element list, FCALL.
# Usage: bench/data_commands.sh [FIGURE...]   (default: all; names below)
# Environment: ROUNDS [5], N, and what bench/compare.sh takes.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIPELINES=16 ROUNDS=${ROUNDS:-5}

# SETBIT at a fixed offset: redis-benchmark's __rand_int__ is zero-padded,
# which neither server takes as a bit offset. After the first request the
# bit is already set, so SETBIT measures the lookup and the unchanged bit.
BITMAP='setbit bm 8388607 1'
# 100,000 points on a 1000 x 100 grid over [0,10) x [0,1) degrees; the
# searches' centres ("__rand_int__e-5": 12 digits read as a double) fall in it.
POINTS="eval \"for i=0,99999 do redis.call('geoadd', KEYS[1], (i % 1000) * 0.01, math.floor(i / 1000) * 0.01, i) end\" 1 pts"
# A permutation of 0..999, not already sorted.
LIST="eval \"for i=1,1000 do redis.call('rpush', KEYS[1], (i*7919)%1000) end\" 1 mylist"
DENSE_HLL="pfadd hll $(seq -s ' ' 1 5000)"
LIBRARY="function load \"#!lua name=bench
redis.register_function('incrit', function(keys) return redis.call('incr', keys[1]) end)\""

figure() {  # NAME SETUP BENCH_ARGS
    local name=$1 setup=$2 args=$3
    if [[ ${#WANTED[@]} -gt 0 && ! " ${WANTED[*]} " =~ " $name " ]]; then return; fi
    echo "### $name: $args"
    SETUP=$setup BENCH_ARGS=$args bench/cpu_split.sh
}

WANTED=("$@")
figure setbit "$BITMAP" "setbit bm 4194304 1"
figure getbit "$BITMAP" "getbit bm 4194304"
figure bitcount "$BITMAP" "bitcount bm"
figure pfadd "" "-r 1000000 pfadd hll __rand_int__"
figure pfcount "$DENSE_HLL" "pfcount hll"
figure pfcount-merge "$DENSE_HLL" "pfcount hll hll"
figure geoadd "$POINTS" "-r 1000000 geoadd pts __rand_int__e-5 __rand_int__e-6 __rand_int__"
figure geosearch "$POINTS" "-r 1000000 geosearch pts FROMLONLAT __rand_int__e-5 __rand_int__e-6 BYRADIUS 2 km ASC"
figure sort "$LIST" "sort mylist"
figure fcall "$LIBRARY" "fcall incrit 1 counter"
