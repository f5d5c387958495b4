#!/usr/bin/env bash
# bench/waiters_bench.sh — many blocked clients on cppredis and Redis 7, in
# alternation: how late their timeouts are answered, and what the server
# spends while they all wait.
#
# Both servers are started once with --maxclients 20000, pinned to core 0;
# build/bench/waiters_bench runs on core 1, once per server, size and round,
# the order flipping every round. For each size N it opens N connections,
# each sends `BLPOP <missing key of its own> t` with t uniform over
# [TMIN, TMAX] s (whole ms, sent as a fraction), SEND_RATE of them per second,
# and measures each null reply's lateness: reply time - (send time + t). Then every connection sends
# `BLPOP <key> 30` and the server's CPU time is read over IDLE_WINDOW seconds
# in which nobody's deadline is near. Prints, per size and server, the median
# over rounds of the lateness p50 and p99, the worst maximum, and the median
# CPU of the idle window, with the cppredis/Redis ratio of that CPU; also the
# machine's noise floor (how late a 1 ms sleep on the servers' core wakes up
# during the same runs: median p99, worst max) and the range of the load
# average, since on a shared machine other processes show up as lateness.
# Then one line per target of bench/README.md, PASS or FAIL; the script exits
# 1 if any target fails. Every run is saved to bench/results/waiters-<timestamp>.txt.
#
# Usage: bench/waiters_bench.sh
# Environment (defaults in brackets):
#   ROUNDS [3]  SIZES ["1000 5000 10000"]  TMIN [1]  TMAX [3]  IDLE_WINDOW [2]
#   SEND_RATE [20000]  BLPOPs sent per second in the lateness phase (0: all at once)
#   CPPREDIS_BIN [build/cppredis-server]  REDIS_BIN [redis-server]
#   EXTRA_ARGS_CPPREDIS, EXTRA_ARGS_REDIS   server options, shell-quoted
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-1000 5000 10000}
TMIN=${TMIN:-1}
TMAX=${TMAX:-3}
IDLE_WINDOW=${IDLE_WINDOW:-2}
SEND_RATE=${SEND_RATE:-20000}
CPPREDIS_ARGS=(--maxclients 20000 "${CPPREDIS_ARGS[@]}")
REDIS_ARGS=(--maxclients 20000 "${REDIS_ARGS[@]}")
TOOL=build/bench/waiters_bench
# The tool's noise-floor probes run on the servers' core and its own (see
# waiters_bench.cpp).
PROBE=()
if ((${#SERVER_CPU[@]})); then PROBE=(--probe-cpus "${SERVER_CPU[2]},${CLIENT_CPU[2]}"); fi
bench_init "$TOOL"

# The servers raise their own file limit to fit maxclients, up to the hard
# limit this shell passes on; the tool raises its own.
start_both
new_results waiters- .txt

waiters_run() {  # ROUND N NAME
    run_tool "$1" "n=$2" "$3" -n "$2" --tmin "$TMIN" --tmax "$TMAX" --idle-window "$IDLE_WINDOW" --seed "$1" \
        --send-rate "$SEND_RATE" "${PROBE[@]}"
    sleep 0.5  # let the server finish closing the connections
}
for_each_run waiters_run $SIZES

echo
machine_line
servers_lines
echo "$ROUNDS rounds; BLPOP timeouts uniform over [$TMIN, $TMAX] s, $SEND_RATE BLPOPs/s; idle window $IDLE_WINDOW s (all waiting, timeout 30 s)"
echo "raw runs: $RESULTS"
echo
python3 - "$RESULTS" <<'EOF'
import statistics, sys
from collections import defaultdict
sys.dont_write_bytecode = True  # no bench/__pycache__
sys.path.insert(0, "bench")
from targets import report

runs = defaultdict(lambda: defaultdict(list))  # n -> server -> [fields]
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split())
    runs[int(f["n"])][f["server"]].append(f)

def med(rs, key):
    return statistics.median(float(r[key]) for r in rs)

print("| waiters | server | lateness p50 ms | p99 ms | max ms (worst) | idle CPU ms / window | idle CPU ratio | CPU ms, timeout phase | floor p99 / max ms |")
print("| --: | --- | --: | --: | --: | --: | --: | --: | --: |")
for n in sorted(runs):
    by = runs[n]
    idle = {s: med(by[s], "idle_cpu_ms") for s in ("cppredis", "redis")}
    for s in ("cppredis", "redis"):
        rs = by[s]
        ratio = "%.3f" % (idle["cppredis"] / idle["redis"]) if s == "cppredis" and idle["redis"] > 0 else ""
        fk = [k for k in rs[0] if k.startswith("floor_") and k.endswith("_p99_ms")][:1]
        floor = "%.2f / %.2f" % (med(rs, fk[0]), max(float(r[fk[0].replace("p99", "max")]) for r in rs)) if fk else "-"
        print("| %d | %s | %.3f | %.3f | %.3f | %.2f | %s | %.1f | %s |" % (
            n, s, med(rs, "late_p50_ms"), med(rs, "late_p99_ms"), max(float(r["late_max_ms"]) for r in rs),
            idle[s], ratio, med(rs, "timeout_phase_cpu_ms"), floor))
print("\nmedians over %d rounds (max: the worst run)" % max(len(v) for by in runs.values() for v in by.values()))
loads = [float(r["load1"]) for by in runs.values() for rs in by.values() for r in rs]
print("load average (1 min) at the end of the runs: %.2f-%.2f" % (min(loads), max(loads)))

# The targets of bench/README.md ("The targets the scripts check", many waiters),
# for the sizes this run measured: (what, cppredis's figure, limit).
targets = []
for n in sorted(runs):
    mine, redis = runs[n]["cppredis"], runs[n]["redis"]
    targets.append(("n=%d: lateness p99 ms (median) <= 5 (issue 5)" % n, med(mine, "late_p99_ms"), 5.0))
    if n == 10000:
        targets.append(("n=%d: lateness p99 ms in every run <= 3 (issue 14)" % n,
                        max(float(r["late_p99_ms"]) for r in mine), 3.0))
    targets.append(("n=%d: idle CPU ms, cppredis <= Redis's %.2f (issue 5)" % (n, med(redis, "idle_cpu_ms")),
                    med(mine, "idle_cpu_ms"), med(redis, "idle_cpu_ms")))
sys.exit(report(targets))
EOF
