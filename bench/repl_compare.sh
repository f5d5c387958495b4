#!/usr/bin/env bash
# bench/repl_compare.sh — what one replica costs a master: bench/compare.sh
# with a replica attached to each server, cppredis against Redis 7.
#
# Runs bench/compare.sh (same rounds, alternation, medians and table) with
# WITH_REPLICA=1: each master gets a replica of its own implementation
# (bench/lib.sh start_replica), attached and in sync before the first run,
# so that every write the benchmark sends is also streamed to it, through
# bench/cpu_split.sh, which adds the master's user and system CPU per
# request separately (from /proc/PID/stat ticks). The figure of issue 18
# is the master's CPU per request with a replica, cppredis ≤ Redis: the
# table's "CPU ratio" (exact, from schedstat) and the user/system split.
#
# Usage: bench/repl_compare.sh [TEST[,TEST...]]     [set,lpush,incr]
# Environment: as bench/compare.sh; PIPELINES defaults to 16 here. N
#   requests per run: ticks are 10 ms, so a run should cost the master
#   100+ ticks (N=400000 at -P 16 on this machine) for a split to 1 %.
#   REPLICA_CPU ["", the kernel's choice]: e.g. "taskset -c 1".
set -euo pipefail
cd "$(dirname "$0")/.."

export WITH_REPLICA=1 PIPELINES=${PIPELINES:-16}
CPU_SPLIT_TITLE="each master with one replica of its own implementation; the master" \
    exec bench/cpu_split.sh "${1:-set,lpush,incr}"
