#!/usr/bin/env bash
# bench/compare.sh — cppredis against Redis 7 under redis-benchmark, on this machine.
#
# Starts both servers on free 127.0.0.1 ports, pinned to core 0, and drives
# them with redis-benchmark pinned to core 1, in alternation, one test per run.
# For each run it records requests/s and the server's CPU time per request;
# it prints the medians over rounds, the cppredis/Redis ratios and their
# geometric means, and saves every run to bench/results/<timestamp>.csv.
# bench/README.md explains the method and the columns.
#
# Usage: bench/compare.sh TEST[,TEST...]        names as redis-benchmark -t takes them
#        BENCH_ARGS="lpush q x" bench/compare.sh    a custom command instead of tests
# Environment (defaults in brackets):
#   ROUNDS [5]  PIPELINES ["1 16"]  CLIENTS [50]
#   N           requests per run [100000 at -P 1, 200000 deeper]
#   CPPREDIS_BIN [build/cppredis-server, built with make if missing]
#   REDIS_BIN   [redis-server], always run with --save '' --appendonly no
#   EXTRA_ARGS_CPPREDIS, EXTRA_ARGS_REDIS   server options, shell-quoted
#   BENCH_ARGS  extra redis-benchmark arguments, shell-quoted
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
PIPELINES=${PIPELINES:-1 16}
CLIENTS=${CLIENTS:-50}
CPPREDIS_BIN=${CPPREDIS_BIN:-build/cppredis-server}
REDIS_BIN=${REDIS_BIN:-redis-server}
# The options are shell-quoted so that '' can pass an empty argument.
eval "CPPREDIS_ARGS=(${EXTRA_ARGS_CPPREDIS:-})"
eval "REDIS_ARGS=(--save '' --appendonly no ${EXTRA_ARGS_REDIS:-})"
eval "BENCH=(${BENCH_ARGS:-})"

if [[ -n ${1:-} ]]; then
    IFS=, read -ra TESTS <<<"$1"
elif [[ -n ${BENCH_ARGS:-} ]]; then
    TESTS=("")  # the custom command in BENCH_ARGS is the test
else
    sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
    exit 2
fi

if [[ $CPPREDIS_BIN == build/cppredis-server && ! -x $CPPREDIS_BIN ]]; then
    make
fi
# Servers start in scratch directories, so their paths must be absolute; -s
# keeps symlinks, as redis-server is one whose name tells the binary its role.
abspath() { if [[ $1 == */* ]]; then realpath -s "$1"; else command -v "$1"; fi; }
CPPREDIS_BIN=$(abspath "$CPPREDIS_BIN")
REDIS_BIN=$(abspath "$REDIS_BIN")

WORK=$(mktemp -d)
declare -A PID PORT
cleanup() {
    for pid in "${PID[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# Two free ports below the kernel's ephemeral range, so that no client
# connection (redis-cli's PING of the first server, say) can take the second
# server's port before it binds.
read -r 'PORT[cppredis]' 'PORT[redis]' < <(python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
held = []
while len(held) < 2:
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", random.randrange(10000, low)))
        held.append(s)
    except OSError:
        s.close()
print(*(s.getsockname()[1] for s in held))')

start_server() {  # NAME BIN ARGS...
    local name=$1 bin=$2; shift 2
    mkdir "$WORK/$name"
    # exec keeps one pid from this subshell through taskset to the server,
    # so $! is the process whose CPU time is read. Its own directory keeps
    # any RDB or AOF it writes out of the work tree.
    (cd "$WORK/$name" && exec taskset -c 0 "$bin" --port "${PORT[$name]}" --bind 127.0.0.1 "$@") \
        >"$WORK/$name.log" 2>&1 &
    PID[$name]=$!
    for _ in $(seq 100); do
        kill -0 "${PID[$name]}" 2>/dev/null || break
        [[ $(redis-cli -h 127.0.0.1 -p "${PORT[$name]}" ping 2>/dev/null) == PONG ]] && return
        sleep 0.1
    done
    echo "$name ($bin) did not answer PING; its log:" >&2
    cat "$WORK/$name.log" >&2
    exit 1
}
start_server cppredis "$CPPREDIS_BIN" "${CPPREDIS_ARGS[@]}"
start_server redis "$REDIS_BIN" "${REDIS_ARGS[@]}"

# On-CPU time (ns) of all the server's threads so far. schedstat's first field
# is exact; /proc/PID/stat's utime+stime only counts whole clock ticks. (%.0f:
# mawk's %d stops at 2^31 ns.)
cpu_ns() { awk '{ s += $1 } END { printf "%.0f\n", s }' /proc/"$1"/task/*/schedstat; }

mkdir -p bench/results
RESULTS=bench/results/$(date +%Y%m%d-%H%M%S).csv
echo "round,server,pipeline,clients,requests,cpu_ns,cpu_us_per_req,test,rps,avg_latency_ms,min_latency_ms,p50_latency_ms,p95_latency_ms,p99_latency_ms,max_latency_ms" >"$RESULTS"

for round in $(seq "$ROUNDS"); do
    # Alternate which server goes first, so a drift in machine load or a
    # first-run warm-up does not always favour the same side.
    if ((round % 2)); then order=(cppredis redis); else order=(redis cppredis); fi
    for P in $PIPELINES; do
        n=${N:-$((P == 1 ? 100000 : 200000))}
        for test in "${TESTS[@]}"; do
            targs=() name=""
            if [[ -n $test ]]; then targs=(-t "$test"); fi
            # `-t lrange_N` first runs as many LPUSHes of its own to fill
            # "mylist", which would count in the CPU measured for LRANGE. So
            # the list is filled beforehand, untimed, by the same LPUSHes, and
            # the run times LRANGE alone, sent as the command -t would send.
            if [[ $test =~ ^lrange_([0-9]+)$ ]]; then
                targs=(LRANGE mylist 0 $((BASH_REMATCH[1] - 1)))
                name="LRANGE_${BASH_REMATCH[1]} (first ${BASH_REMATCH[1]} elements)"
            fi
            for server in "${order[@]}"; do
                pid=${PID[$server]}
                if [[ -n $name ]]; then
                    redis-cli -h 127.0.0.1 -p "${PORT[$server]}" del mylist >/dev/null
                    taskset -c 1 redis-benchmark -h 127.0.0.1 -p "${PORT[$server]}" \
                        -c "$CLIENTS" -n "$n" -P "$P" -t lpush -q >/dev/null
                fi
                before=$(cpu_ns "$pid")
                out=$(taskset -c 1 redis-benchmark -h 127.0.0.1 -p "${PORT[$server]}" \
                    -c "$CLIENTS" -n "$n" -P "$P" --csv "${targs[@]}" "${BENCH[@]}")
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
                    redis-cli -h 127.0.0.1 -p "${PORT[$server]}" del mylist >/dev/null
                fi
                echo "$round,$server,$P,$CLIENTS,$n,$((after - before)),$us,$row" >>"$RESULTS"
                echo "round $round/$ROUNDS -P $P $server: $(cut -d, -f1,2 <<<"$row") cpu_us/req=$us" >&2
            done
        done
    done
done

echo
echo "$(date -Is)  $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "cppredis: $CPPREDIS_BIN $(printf '%q ' "${CPPREDIS_ARGS[@]}")"
echo "redis:    $REDIS_BIN $(printf '%q ' "${REDIS_ARGS[@]}")"
echo "$ROUNDS rounds, -c $CLIENTS, BENCH_ARGS: ${BENCH_ARGS:-none}; raw runs: $RESULTS"
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
