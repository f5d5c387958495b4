#!/usr/bin/env bash
# bench/queue_bench.sh — a LPUSH / BRPOP work queue on cppredis and Redis 7,
# in alternation (or, with KIND=stream, a stream work queue: XADD producers,
# XREADGROUP BLOCK consumers that XACK each message), in two modes:
#
#   rate        RATE msgs/s offered over PRODUCERS connections for RATE_SECS
#               seconds: the consumers are mostly blocked, each message
#               wakes one of them (the blocking machinery's common case);
#   saturation  SAT_MSGS messages, each producer keeping SAT_DEPTH LPUSHes in
#               flight, at most SAT_WINDOW messages produced but not yet
#               consumed (0: no cap, the lists then grow and BRPOP no longer
#               blocks).
#
# CONSUMERS connections loop `BRPOP q0 .. q(KEYS-1) TIMEOUT`. Both servers are
# started once, pinned to core 0; build/bench/queue_bench runs on core 1,
# once per server, mode and round, the order flipping every round (A B, B A,
# ...). The tool checks that every message is consumed exactly once (a run
# that loses or duplicates one stops the script with an error) and reads the
# server's CPU time (/proc/PID/task/*/schedstat) around the run. Prints the
# median over rounds of throughput, latency and server CPU per message, and
# the cppredis/Redis ratio of CPU per message (below 1: cppredis spends less),
# with the server's CPU also split into user and system time; then one line
# per target of bench/README.md, PASS or FAIL, and the script exits 1 if any
# target fails. Every run is saved to bench/results/queue-<timestamp>.txt.
#
# Usage: bench/queue_bench.sh
#        KIND=stream bench/queue_bench.sh     (the targets of issue 15)
# Environment (defaults in brackets):
#   ROUNDS [5]  MODES ["rate saturation"]  KIND [list] (list or stream)
#   PRODUCERS [4]  CONSUMERS [8]  KEYS [4]  TIMEOUT [1] (BRPOP's, seconds)
#   RATE [5000]  RATE_SECS [6]  SAT_MSGS [200000]  SAT_DEPTH [16]  SAT_WINDOW [64]
#   CPPREDIS_BIN [build/cppredis-server]  REDIS_BIN [redis-server]
#   EXTRA_ARGS_CPPREDIS, EXTRA_ARGS_REDIS   server options, shell-quoted
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ROUNDS=${ROUNDS:-5}
MODES=${MODES:-rate saturation}
PRODUCERS=${PRODUCERS:-4}
CONSUMERS=${CONSUMERS:-8}
KEYS=${KEYS:-4}
TIMEOUT=${TIMEOUT:-1}
RATE=${RATE:-5000}
RATE_SECS=${RATE_SECS:-6}
SAT_MSGS=${SAT_MSGS:-200000}
SAT_DEPTH=${SAT_DEPTH:-16}
SAT_WINDOW=${SAT_WINDOW:-64}
KIND=${KIND:-list}
case $KIND in
list) KIND_ARGS=() ;;
stream) KIND_ARGS=(--stream 1) ;;
*) echo "unknown KIND $KIND (list, stream)" >&2; exit 2 ;;
esac
TOOL=build/bench/queue_bench
bench_init "$TOOL"

start_both
new_results queue- .txt

queue_run() {  # ROUND MODE NAME
    local args
    case $2 in
    rate) args=(-r "$RATE" -n $((RATE * RATE_SECS))) ;;
    saturation) args=(-r 0 -n "$SAT_MSGS" -d "$SAT_DEPTH" -w "$SAT_WINDOW") ;;
    *) echo "unknown mode $2 (rate, saturation)" >&2; exit 2 ;;
    esac
    run_tool "$1" "$2" "$3" -P "$PRODUCERS" -C "$CONSUMERS" -K "$KEYS" -t "$TIMEOUT" "${args[@]}" "${KIND_ARGS[@]}"
}
for_each_run queue_run $MODES

echo
machine_line
servers_lines
echo "$ROUNDS rounds; $KIND queue: $PRODUCERS producers, $CONSUMERS consumers, $KEYS keys, blocking timeout $TIMEOUT s;" \
    "rate: $RATE msgs/s for $RATE_SECS s; saturation: $SAT_MSGS msgs, depth $SAT_DEPTH, window $SAT_WINDOW"
echo "raw runs: $RESULTS; every run: 0 lost, 0 duplicated"
echo
python3 - "$RESULTS" "$KIND" <<'EOF'
import statistics, sys
from collections import defaultdict
sys.dont_write_bytecode = True  # no bench/__pycache__
sys.path.insert(0, "bench")
from targets import report

runs = defaultdict(lambda: defaultdict(dict))  # mode -> round -> server -> fields
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split())
    runs[f["mode"]][f["round"]][f["server"]] = f

def med(rounds, server, key):
    return statistics.median(float(r[server][key]) for r in rounds.values())

print("| mode | server | msgs/s | latency p50 ms | p90 ms | p99 ms | max ms | CPU µs/msg | user µs/msg | system µs/msg | CPU ratio | CPU ratio min-max |")
print("| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |")
cpu_ratio = {}
for mode, rounds in runs.items():
    cpu = {s: med(rounds, s, "cpu_us_per_msg") for s in ("cppredis", "redis")}
    cpu_ratio[mode] = cpu["cppredis"] / cpu["redis"]
    per_round = [float(r["cppredis"]["cpu_us_per_msg"]) / float(r["redis"]["cpu_us_per_msg"])
                 for r in rounds.values() if "cppredis" in r and "redis" in r]
    for s in ("cppredis", "redis"):
        ratio = ("%.3f" % cpu_ratio[mode], "%.3f-%.3f" % (min(per_round), max(per_round))) \
            if s == "cppredis" else ("", "")
        print("| %s | %s | %.0f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %s | %s |" % (
            mode, s, med(rounds, s, "msgs_per_s"), med(rounds, s, "p50_ms"), med(rounds, s, "p90_ms"),
            med(rounds, s, "p99_ms"), med(rounds, s, "max_ms"), cpu[s], med(rounds, s, "user_us_per_msg"),
            med(rounds, s, "sys_us_per_msg"), *ratio))
print("\nmedians over %d rounds; CPU ratio = cppredis / Redis of the medians, min-max = the per-round ratios;"
      " user and system split the CPU as /proc/PID/stat does (tick-sampled)" % len(next(iter(runs.values()))))
loads = [float(f["load1"]) for rounds in runs.values() for r in rounds.values() for f in r.values()]
print("load average (1 min) at the end of the runs: %.2f-%.2f" % (min(loads), max(loads)))

# The targets of bench/README.md ("The targets the scripts check"):
# on the medians above, for the modes this run measured: (what,
# cppredis's figure, limit).
targets = []
if sys.argv[2] == "stream":
    for mode in runs:
        targets.append(("stream %s: CPU per message, cppredis / Redis <= 1.0 (issue 15)" % mode, cpu_ratio[mode], 1.0))
elif "rate" in runs:
    r = runs["rate"]
    targets.append(("rate: CPU per message, cppredis / Redis <= 1.0 (issue 5, as decided)", cpu_ratio["rate"], 1.0))
    for p in ("p50", "p90"):
        targets.append(("rate: latency %s ms, cppredis <= Redis's %.3f (issue 14)" % (p, med(r, "redis", p + "_ms")),
                        med(r, "cppredis", p + "_ms"), med(r, "redis", p + "_ms")))
if "saturation" in runs and sys.argv[2] == "list":
    targets.append(("saturation: CPU per message, cppredis / Redis <= 0.9 (issue 5)", cpu_ratio["saturation"], 0.9))
sys.exit(report(targets))
EOF
