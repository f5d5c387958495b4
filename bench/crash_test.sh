#!/usr/bin/env bash
# bench/crash_test.sh — the AOF crash test of issues 7 and 32, as long as you like.
#
# Runs the AofCrash tests of build/integration_tests (tests/integration/
# aof_test.cpp) with CRASH_CYCLES cycles each, on cppredis and on Redis
# 7.0.15 (/usr/bin/redis-server): three writers pipeline RPUSH list:<id>
# <seq>, INCR counter:<id>, SET last:<id> <seq> on their own connections and
# record every acknowledged write; the server is kill -9'd once a random
# number of rounds (5 to 300) is acknowledged, sometimes during a
# BGREWRITEAOF; it restarts on the same directory (the multi-part AOF in
# appendonlydir, which the tests never read themselves: the server loads it)
# and every list must be 1..n in order, the counter and the last value n,
# with n covering every acknowledged round (appendfsync always) or losing
# at most the last two seconds (everysec); the files must load every time.
# The rewrite variant issues BGREWRITEAOF after BGREWRITEAOF throughout, so
# that the kills land inside rewrites, at any of their steps (the kill at
# each single step is aof_crash_test.cpp's AofCrashStep, run by make test).
# Each test prints one "[ crash    ]" line: cycles (how many killed a
# rewrite), rounds acknowledged, rounds lost and the loss window, and how
# many times a torn tail was cut at load. The output is kept in
# bench/results/crash-<timestamp>.txt.
#
# Usage: bench/crash_test.sh [CYCLES=500] [FSYNC=always|everysec|rewrite|all]
#                            [SERVER=cppredis|redis|both]
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
    case $arg in
    CYCLES=* | FSYNC=* | SERVER=*) export "${arg?}" ;;
    *) sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2 ;;
    esac
done
CYCLES=${CYCLES:-500}
case ${FSYNC:-all} in
always) tests='AlwaysLosesNoAcknowledgedWrite' ;;
everysec) tests='Everysec*' ;;
rewrite) tests='AlwaysWhileRewriting*' ;;
all | both) tests='*' ;;
*) echo "FSYNC must be always, everysec, rewrite or all" >&2; exit 2 ;;
esac
case ${SERVER:-both} in
cppredis) servers='Cppredis' ;;
redis) servers='Redis7' ;;
both) servers='*' ;;
*) echo "SERVER must be cppredis, redis or both" >&2; exit 2 ;;
esac
filter="Servers/AofCrash.$tests/$servers"

make --no-print-directory -j2 build/cppredis-server build/integration_tests >&2
mkdir -p bench/results
out=bench/results/crash-$(date +%Y%m%d-%H%M%S).txt
{
    echo "$(date -Is)  $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $CYCLES cycles per test"
    CRASH_CYCLES=$CYCLES build/integration_tests --gtest_filter="$filter"
} | tee "$out"
