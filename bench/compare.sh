#!/usr/bin/env bash
# bench/compare.sh — cppredis against Redis 7 under redis-benchmark, on this machine.
#
# Starts both servers on free 127.0.0.1 ports (bench/lib.sh), pinned to core 0,
# and drives them with redis-benchmark pinned to core 1, in alternation (the
# order flips every round), one test per run.
# For each run it records requests/s and the server's CPU time per request;
# it prints the medians over rounds, the cppredis/Redis ratios and their
# geometric means, and saves every run to bench/results/<timestamp>.csv.
# bench/README.md explains the method and the columns.
#
# Usage: bench/compare.sh TEST[,TEST...]        names as redis-benchmark -t takes them
#        BENCH_ARGS="lpush q x" bench/compare.sh    a custom command instead of tests
# Environment (defaults in brackets):
#   ROUNDS [5]  PIPELINES ["1 16"]  CLIENTS [50]
#   TLS_DIR     redis-benchmark --tls on the servers' TLS ports (bench/tls_compare.sh)
#   N           requests per run [100000 at -P 1, 200000 deeper]
#   CPPREDIS_BIN [build/cppredis-server, built with make if missing]
#   REDIS_BIN   [redis-server]; both servers run with --save '' --appendonly no,
#               each in its own scratch directory, then:
#   EXTRA_ARGS  options for both servers, shell-quoted, e.g. the AOF figure:
#               EXTRA_ARGS="--appendonly yes --appendfsync everysec" bench/compare.sh set,lpush,incr
#               (each server's appendonlydir in its own scratch directory; a
#               WARNING if one rewrote its AOF on its own during the runs)
#               or eviction all the time (a keyspace far over the limit):
#               EXTRA_ARGS="--maxmemory 8mb --maxmemory-policy allkeys-lru" BENCH_ARGS="-r 1000000 -d 64" \
#               PIPELINES=16 bench/compare.sh set,get,lpush
#   EXTRA_ARGS_CPPREDIS, EXTRA_ARGS_REDIS   options for one of them, after EXTRA_ARGS
#   BENCH_ARGS  extra redis-benchmark arguments, shell-quoted, given before the
#               test (so options reach LRANGE_N too), e.g. RESP3: BENCH_ARGS="-3"
#   AUTH_CPPREDIS, AUTH_REDIS   a server's password (bench/lib.sh), e.g. ACL's cost:
#               EXTRA_ARGS_CPPREDIS="--requirepass pw --user alice on '>a' '~*' '+@all'" \
#               AUTH_CPPREDIS=pw REDIS_BIN=build/cppredis-server bench/compare.sh set,get,lpush
#   SUBSCRIBERS N clients subscribed to SUB_CHANNEL [bench] on each server for
#               the whole run (build/bench/subscribers), for PUBLISH:
#               SUBSCRIBERS=10 BENCH_ARGS="publish bench hello" bench/compare.sh
#   MONITORS    N clients in MONITOR mode (redis-cli monitor, reading every
#               line) on each server for the whole run: what MONITOR costs,
#               MONITORS=1 bench/compare.sh set,get
#   SETUP       a command (redis-cli arguments, shell-quoted) sent once to each
#               server before the runs, e.g. to load the script EVALSHA runs:
#               SETUP="script load \"return redis.call('incr', KEYS[1])\"" \
#               BENCH_ARGS="evalsha 2bab3b661081db58bd2341920e0ba7cf5dc77b25 1 counter" bench/compare.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ROUNDS=${ROUNDS:-5}
PIPELINES=${PIPELINES:-1 16}
CLIENTS=${CLIENTS:-50}
# Shell-quoted, as EXTRA_ARGS_* (bench/lib.sh).
eval "BENCH=(${BENCH_ARGS:-})"

if [[ -n ${1:-} ]]; then
    IFS=, read -ra TESTS <<<"$1"
elif [[ -n ${BENCH_ARGS:-} ]]; then
    TESTS=("")  # the custom command in BENCH_ARGS is the test
else
    sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
    exit 2
fi

bench_init ${SUBSCRIBERS:+build/bench/subscribers}
start_both
SUB_CHANNEL=${SUB_CHANNEL:-bench}
if [[ -n ${SETUP:-} ]]; then
    eval "SETUP_CMD=($SETUP)"
    for name in cppredis redis; do
        redis-cli -p "${SERVER_PORT[$name]}" "${SETUP_CMD[@]}" >/dev/null
    done
fi
if [[ -n ${MONITORS:-} ]]; then
    start_monitors cppredis "$MONITORS"
    start_monitors redis "$MONITORS"
fi
if [[ -n ${SUBSCRIBERS:-} ]]; then
    start_subscribers cppredis "$SUBSCRIBERS" "$SUB_CHANNEL"
    start_subscribers redis "$SUBSCRIBERS" "$SUB_CHANNEL"
fi

# On-CPU time (ns) of all the server's threads so far. schedstat's first field
# is exact; /proc/PID/stat's utime+stime only counts whole clock ticks. (%.0f:
# mawk's %d stops at 2^31 ns.)
cpu_ns() { awk '{ s += $1 } END { printf "%.0f\n", s }' /proc/"$1"/task/*/schedstat; }

new_results "" .csv
echo "round,server,pipeline,clients,requests,cpu_ns,cpu_us_per_req,test,rps,avg_latency_ms,min_latency_ms,p50_latency_ms,p95_latency_ms,p99_latency_ms,max_latency_ms" >"$RESULTS"

# One redis-benchmark run: VARIANT is "PIPELINE/TEST" (TEST empty for the
# custom command of BENCH_ARGS).
compare_run() {  # ROUND VARIANT NAME
    local round=$1 P=${2%%/*} test=${2#*/} server=$3 targs=() name="" before after out us row
    local port=${SERVER_PORT[$server]} pid=${SERVER_PID[$server]} n=${N:-$((P == 1 ? 100000 : 200000))}
    local auth bport=$port tls=()
    read -ra auth <<<"$(auth_args "$server")"
    if [[ -n ${TLS_DIR:-} ]]; then bport=${SERVER_TLS_PORT[$server]} tls=(--tls --cacert "$TLS_DIR/ca.crt"); fi
    if [[ -n $test ]]; then targs=(-t "$test"); fi
    # `-t lrange_N` first runs as many LPUSHes of its own to fill
    # "mylist", which would count in the CPU measured for LRANGE. So
    # the list is filled beforehand, untimed, by the same LPUSHes, and
    # the run times LRANGE alone, sent as the command -t would send.
    if [[ $test =~ ^lrange_([0-9]+)$ ]]; then
        targs=(LRANGE mylist 0 $((BASH_REMATCH[1] - 1)))
        name="LRANGE_${BASH_REMATCH[1]} (first ${BASH_REMATCH[1]} elements)"
        redis-cli -h 127.0.0.1 -p "$port" "${auth[@]}" del mylist >/dev/null
        "${CLIENT_CPU[@]}" redis-benchmark -h 127.0.0.1 -p "$bport" "${tls[@]}" "${auth[@]}" -c "$CLIENTS" -n "$n" -P "$P" -t lpush -q >/dev/null
    fi
    before=$(cpu_ns "$pid")
    out=$("${CLIENT_CPU[@]}" redis-benchmark -h 127.0.0.1 -p "$bport" "${tls[@]}" "${auth[@]}" \
        -c "$CLIENTS" -n "$n" -P "$P" --csv "${BENCH[@]}" "${targs[@]}")
    after=$(cpu_ns "$pid")
    if [[ $(wc -l <<<"$out") != 2 ]]; then
        echo "redis-benchmark gave no single result for '$test' on $server:" >&2
        echo "$out" >&2
        exit 1
    fi
    us=$(awk -v d=$((after - before)) -v n="$n" 'BEGIN { printf "%.4f", d / n / 1000 }')
    row=$(tail -n1 <<<"$out")
    if [[ -n $name ]]; then
        row="\"$name\",${row#*\",}"
        redis-cli -h 127.0.0.1 -p "$port" "${auth[@]}" del mylist >/dev/null
    fi
    echo "$round,$server,$P,$CLIENTS,$n,$((after - before)),$us,$row" >>"$RESULTS"
    echo "round $round/$ROUNDS -P $P $server: $(cut -d, -f1,2 <<<"$row") cpu_us/req=$us" >&2
}
VARIANTS=()
for P in $PIPELINES; do
    for test in "${TESTS[@]}"; do VARIANTS+=("$P/$test"); done
done
for_each_run compare_run "${VARIANTS[@]}"

# A subscriber dropped on the way (client-output-buffer-limit) would have
# made PUBLISH cheaper for that server: say so.
if [[ -n ${SUBSCRIBERS:-} ]]; then
    for name in cppredis redis; do
        left=$(redis-cli -h 127.0.0.1 -p "${SERVER_PORT[$name]}" pubsub numsub "$SUB_CHANNEL" | tail -n1)
        if [[ $left != "$SUBSCRIBERS" ]]; then
            echo "WARNING: $name has $left of $SUBSCRIBERS subscribers left: its PUBLISH figures are not comparable" >&2
        fi
    done
fi

# With the AOF on, each server rewrites it on its own once it outgrows
# auto-aof-rewrite-min-size (64 MB: a few rounds of SETs), forking a child
# onto its core mid-run, and the two need not rewrite in the same runs: say
# so (--auto-aof-rewrite-percentage 0 in EXTRA_ARGS rules it out).
for name in cppredis redis; do
    rewrites=$(info_field "$name" persistence aof_rewrites)
    if [[ ${rewrites:-0} != 0 ]]; then
        echo "WARNING: $name rewrote its AOF $rewrites time(s) during the runs: its figures include those forks" >&2
    fi
done

echo
machine_line
servers_lines
echo "$ROUNDS rounds, -c $CLIENTS, BENCH_ARGS: ${BENCH_ARGS:-none}, MONITORS: ${MONITORS:-0}; raw runs: $RESULTS"
echo
python3 - "$RESULTS" <<'EOF'
import csv, math, statistics, sys
from collections import defaultdict

runs = defaultdict(lambda: defaultdict(dict))  # (test, P) -> round -> server -> row
for r in csv.DictReader(open(sys.argv[1])):
    runs[(r["test"], int(r["pipeline"]))][r["round"]][r["server"]] = r

def med(rounds, server, field):
    return statistics.median(float(s[server][field]) for s in rounds.values())

def gmean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))

head = ("test", "-P", "rps cppredis", "rps redis", "rps ratio",
        "CPU us/req cppredis", "CPU us/req redis", "CPU ratio", "CPU ratio min-max")
w = max(len(t) for t, _ in runs)
print("%-*s %3s %13s %13s %9s %19s %16s %9s %17s" % (w, *head))
ratios = defaultdict(list)  # P -> [(rps ratio, cpu ratio)]
for (test, p), rounds in runs.items():
    rps = [med(rounds, s, "rps") for s in ("cppredis", "redis")]
    cpu = [med(rounds, s, "cpu_us_per_req") for s in ("cppredis", "redis")]
    # Spread: the ratio of each round's pair of adjacent runs.
    per_round = [float(s["cppredis"]["cpu_us_per_req"]) / float(s["redis"]["cpu_us_per_req"])
                 for s in rounds.values()]
    ratios[p].append((rps[0] / rps[1], cpu[0] / cpu[1]))
    print("%-*s %3d %13.0f %13.0f %9.3f %19.3f %16.3f %9.3f %8.3f-%.3f"
          % (w, test, p, *rps, rps[0] / rps[1], *cpu, cpu[0] / cpu[1],
             min(per_round), max(per_round)))

print("\ngeometric means of the ratios (cppredis/redis; rps: higher is better, CPU: lower is better)")
for p, rs in sorted(ratios.items()):
    print("  -P %-3d  rps %.3f  CPU %.3f  (%d tests)"
          % (p, gmean([r for r, _ in rs]), gmean([c for _, c in rs]), len(rs)))
allr = [x for rs in ratios.values() for x in rs]
print("  overall rps %.3f  CPU %.3f" % (gmean([r for r, _ in allr]), gmean([c for _, c in allr])))
EOF
