#!/usr/bin/env bash
# bench/cpu_split.sh — bench/compare.sh, then each server's user and system
# CPU per request separately (the kernel's share shows: where it does most
# of the work, a ratio of totals says little about the server's own code).
#
# Runs bench/compare.sh (same rounds, alternation, medians and table) with
# RUN_CPU_LOG set, so bench/lib.sh logs each run's CPU ticks from
# /proc/PID/stat; prints the user and system CPU per request, their medians
# over rounds and the cppredis/Redis ratios. The table's "CPU ratio" is
# exact (schedstat); the split counts clock ticks of 10 ms, so a run should
# cost a server 100+ ticks (N=400000 at -P 16 for SET on this machine) for
# a split to 1 %.
#
# Usage: bench/cpu_split.sh [TEST[,TEST...]]   as bench/compare.sh, and its environment
set -euo pipefail
cd "$(dirname "$0")/.."

RUN_CPU_LOG=$(mktemp)
export RUN_CPU_LOG
trap 'rm -f "$RUN_CPU_LOG"' EXIT

report=$(bench/compare.sh "$@")
printf '%s\n' "$report"
results=$(sed -n 's/.*raw runs: \([^ ]*\)$/\1/p' <<<"$report")

echo
echo "${CPU_SPLIT_TITLE:-each server}'s CPU per request, user and system"
echo "(from /proc/PID/stat, clock ticks; medians over rounds)"
python3 - "$results" "$RUN_CPU_LOG" "$(getconf CLK_TCK)" <<'EOF'
import csv, statistics, sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
ticks = [line.split() for line in open(sys.argv[2])]
us_per_tick = 1e6 / int(sys.argv[3])
if len(rows) != len(ticks):
    sys.exit("%d runs in %s but %d CPU samples" % (len(rows), sys.argv[1], len(ticks)))
split = defaultdict(lambda: defaultdict(list))  # (test, P) -> server -> [(user, sys)]
for r, (rnd, variant, server, user, system) in zip(rows, ticks):
    if (r["round"], r["server"], r["pipeline"]) != (rnd, server, variant.split("/")[0]):
        sys.exit("run order differs: %s against %s" % (r, (rnd, variant, server)))
    n = int(r["requests"])
    split[(r["test"], int(r["pipeline"]))][server].append(
        (int(user) * us_per_tick / n, int(system) * us_per_tick / n))

w = max(len(t) for t, _ in split)
print("%-*s %3s %16s %13s %8s %15s %12s %8s" % (w, "test", "-P", "user us cppredis", "user us redis",
      "ratio", "sys us cppredis", "sys us redis", "ratio"))
for (test, p), by in split.items():
    u = [statistics.median(x[0] for x in by[s]) for s in ("cppredis", "redis")]
    k = [statistics.median(x[1] for x in by[s]) for s in ("cppredis", "redis")]
    ratio = lambda a, b: "%8.3f" % (a / b) if b else "%8s" % "-"
    print("%-*s %3d %16.3f %13.3f %s %15.3f %12.3f %s" % (w, test, p, u[0], u[1], ratio(*u), k[0], k[1], ratio(*k)))
EOF
