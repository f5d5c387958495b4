#!/usr/bin/env bash
# bench/crash_test.sh — the AOF crash test of issue 7, as long as you like.
#
# Runs the AofCrash tests of build/integration_tests (tests/integration/
# aof_test.cpp) with CRASH_CYCLES cycles each: three writers pipeline RPUSH
# list:<id> <seq>, INCR counter:<id>, SET last:<id> <seq> on their own
# connections and record every acknowledged write; the server is kill -9'd
# once a random number of rounds (5 to 300) is acknowledged, sometimes during
# a BGREWRITEAOF; it restarts on the same directory and every list must be
# 1..n in order, the counter and the last value n, with n covering every
# acknowledged round (appendfsync always) or losing at most the last two
# seconds (everysec); the file must load every time. Each test prints one
# "[ crash    ]" line: cycles, rounds acknowledged, rounds lost and the
# loss window, and how many times a torn tail was cut at load. The output is
# kept in bench/results/crash-<timestamp>.txt.
#
# Usage: bench/crash_test.sh [CYCLES=500] [FSYNC=always|everysec|both]
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
    case $arg in
    CYCLES=* | FSYNC=*) export "${arg?}" ;;
    *) sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2 ;;
    esac
done
CYCLES=${CYCLES:-500}
case ${FSYNC:-both} in
always) filter='AofCrash.Always*' ;;
everysec) filter='AofCrash.Everysec*' ;;
both) filter='AofCrash.*' ;;
*) echo "FSYNC must be always, everysec or both" >&2; exit 2 ;;
esac

make --no-print-directory -j2 build/cppredis-server build/integration_tests >&2
mkdir -p bench/results
out=bench/results/crash-$(date +%Y%m%d-%H%M%S).txt
{
    echo "$(date -Is)  $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $CYCLES cycles per policy"
    CRASH_CYCLES=$CYCLES build/integration_tests --gtest_filter="$filter"
} | tee "$out"
