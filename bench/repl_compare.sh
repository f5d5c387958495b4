#!/usr/bin/env bash
# bench/repl_compare.sh — what one replica costs a master: bench/compare.sh
# with a replica attached to each server, cppredis against Redis 7.
#
# Runs bench/compare.sh (same rounds, alternation, medians and table) with
# WITH_REPLICA=1: each master gets a replica of its own implementation
# (bench/lib.sh start_replica), attached and in sync before the first run,
# so that every write the benchmark sends is also streamed to it. Then,
# from the per-run CPU ticks bench/lib.sh logs (RUN_CPU_LOG, /proc/PID/stat),
# it prints the master's user and system CPU per request separately, their
# medians over rounds and the cppredis/Redis ratios. The figure of issue 18
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
RUN_CPU_LOG=$(mktemp)
export RUN_CPU_LOG
trap 'rm -f "$RUN_CPU_LOG"' EXIT

report=$(bench/compare.sh "${1:-set,lpush,incr}")
printf '%s\n' "$report"
results=$(sed -n 's/.*raw runs: \([^ ]*\)$/\1/p' <<<"$report")

echo
echo "each master with one replica of its own implementation; the master's CPU per request, user and system"
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
