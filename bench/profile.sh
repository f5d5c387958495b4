#!/usr/bin/env bash
# bench/profile.sh — where a request's CPU goes, cppredis against Redis 7,
# the same workload on each (bench/lib.sh: WORKLOAD, a queue_bench mode or
# redis-benchmark tests). Two modes:
#
#   MODE=callgrind  both servers run under `valgrind --tool=callgrind`. For
#                   each run: FILL (if any), the workload once to warm up,
#                   then the counters are zeroed (callgrind_control -z), the
#                   workload runs again and is dumped (callgrind_control -d).
#                   Prints the instructions the server executed per request
#                   (user space only: valgrind sees no kernel work), the
#                   cppredis/Redis ratio, and each server's TOP functions by
#                   their own (exclusive) instructions.
#   MODE=perf       both servers run normally; `perf record -e cpu-clock -p
#                   PID` samples the server during the workload. Prints the
#                   share of samples in the kernel ([kernel.kallsyms]) and
#                   each server's TOP symbols, kernel and user alike.
#   MODE=trace      `perf trace --duration SLOW_MS -p PID` during the
#                   workload: the system calls that took longer than SLOW_MS
#                   ms, per call name (how many, the longest), epoll_wait
#                   apart (it sleeps while no client sends).
#
# Usage: bench/profile.sh
# Environment (defaults in brackets), besides WORKLOAD and its variables:
#   MODE [callgrind]  TOP [12]  FREQ [4999] (perf's samples per second)
#   SLOW_MS [2] (MODE=trace)
#   CPPREDIS_BIN, REDIS_BIN, EXTRA_ARGS*   as for the other scripts (lib.sh)
# Requirements: valgrind (callgrind_control, callgrind_annotate) for
# callgrind; perf (Debian: linux-perf), with perf_event_paranoid <= 1 or
# root, for perf. Valgrind slows the servers some 50 times: keep N/MSGS small.
# The raw profiles stay in bench/results/profile-<timestamp>/, the list of
# runs in bench/results/profile-<timestamp>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

MODE=${MODE:-callgrind}
TOP=${TOP:-12}
FREQ=${FREQ:-4999}
SLOW_MS=${SLOW_MS:-2}

case $MODE in
callgrind)
    for t in valgrind callgrind_control callgrind_annotate; do
        command -v $t >/dev/null || { echo "MODE=callgrind needs $t (Debian: valgrind)" >&2; exit 1; }
    done ;;
perf | trace)
    if ! command -v perf >/dev/null || ! perf record -q -e cpu-clock -o /dev/null -- true >/dev/null 2>&1; then
        echo "MODE=perf: perf cannot sample here (not installed, or perf_event_paranoid" \
            "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) forbids it for this user;" \
            "try sysctl kernel.perf_event_paranoid=1 as root, or MODE=callgrind)" >&2
        exit 1
    fi ;;
*) echo "MODE must be callgrind, perf or trace" >&2; exit 2 ;;
esac

workload_init
new_results profile- .txt  # the list of runs; the profiles go beside it
PROFILES=${RESULTS%.txt}
mkdir -p "$PROFILES"
if [[ $MODE == callgrind ]]; then
    # Each dump goes to NAME.PID.N (callgrind appends the dump's number).
    SERVER_WRAPPER=(valgrind --tool=callgrind "--callgrind-out-file=$PWD/$PROFILES/%q{PROFILE_NAME}.%p")
    for name in cppredis redis; do
        export PROFILE_NAME=$name
        start_named "$name"
    done
else
    start_both
fi

# Profiles the workload LABEL on server NAME into $PROFILES/NAME-LABEL.*
profile_run() {  # ROUND LABEL NAME
    local label=$2 name=$3 pid=${SERVER_PID[$3]} out=$PROFILES/$3-$2 perf_pid
    workload_fill "$name"
    if [[ $MODE == callgrind ]]; then
        workload_run "$name" "$label"  # warm-up
        callgrind_control -z "$pid" >/dev/null 2>&1
        workload_run "$name" "$label"
        callgrind_control -d "$label" "$pid" >/dev/null 2>&1
        # the newest dump of this server's profile
        mv "$(ls -t "$PROFILES/$name.$pid".* | head -1)" "$out.callgrind"
    else
        if [[ $MODE == perf ]]; then perf record -q -e cpu-clock -F "$FREQ" -o "$out.perf" -p "$pid" >/dev/null 2>&1 &
        else perf trace --duration "$SLOW_MS" -o "$out.trace" -p "$pid" >/dev/null 2>&1 & fi
        perf_pid=$!
        sleep 1  # attached
        workload_run "$name" "$label"
        kill -INT "$perf_pid"
        wait "$perf_pid" || true
    fi
    echo "$label $name: $WORKLOAD_REQUESTS requests, profile in $out.$MODE" >&2
    echo "label=$label server=$name requests=$WORKLOAD_REQUESTS file=$out.$MODE" >>"$RESULTS"
}
ROUNDS=1
# shellcheck disable=SC2046
for_each_run profile_run $(workload_labels)

echo
machine_line
servers_lines
echo "workload: $WORKLOAD ($(workload_labels | xargs)); mode: $MODE; profiles: $PROFILES"
echo
while read -r line; do
    declare -A f=()
    for kv in $line; do f[${kv%%=*}]=${kv#*=}; done
    if [[ $MODE == callgrind ]]; then
        ir=$(callgrind_annotate "${f[file]}" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
        echo "${f[label]} ${f[server]}: $ir instructions, $(awk -v i="$ir" -v n="${f[requests]}" 'BEGIN { printf "%.0f", i / n }') per request"
        echo "label=${f[label]} server=${f[server]} ir=$ir requests=${f[requests]}" >>"$PROFILES/totals.txt"
        # The frames still on the stack when the dump was taken (main and
        # below) show the whole dump as their own cost: left out.
        callgrind_annotate --inclusive=no --threshold=100 "${f[file]}" 2>/dev/null |
            awk -v top="$TOP" '/^Ir +file:function/ { found = 1; getline; next } found && !NF { found = 0; n = top }
                found && !/\(100\.0%\)/ && n++ < top { print "    " $0 }'
    elif [[ $MODE == trace ]]; then
        # "   time (  12.345 ms): comm/tid name(args) = result"
        echo "${f[label]} ${f[server]}: system calls over $SLOW_MS ms (epoll_wait apart): count, longest ms"
        awk 'match($0, /\( *[0-9.]+ ms\): [^ ]+ [a-z0-9_]+\(/) {
                 split(substr($0, RSTART, RLENGTH - 1), w, /[ ():]+/); ms = w[2] + 0; name = w[5]
                 if (name == "epoll_wait") next
                 n[name]++; if (ms > max[name]) max[name] = ms
             }
             END { for (c in n) printf "    %-16s %6d %10.3f\n", c, n[c], max[c]; if (!length(n)) print "    none" }' "${f[file]}"
    else
        echo "${f[label]} ${f[server]}: $(perf report -i "${f[file]}" --stdio --sort dso 2>/dev/null |
            awk '/\[kernel\.kallsyms\]/ { print $1 " of the samples in the kernel" }')"
        perf report -i "${f[file]}" --stdio --sort sym 2>/dev/null |
            awk -v top="$TOP" '!/^#/ && NF && n++ < top { print "    " $0 }'
    fi
    echo
done <"$RESULTS"

if [[ $MODE == callgrind ]]; then
    python3 - "$PROFILES/totals.txt" <<'EOF'
import sys
from collections import defaultdict
per = defaultdict(dict)
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split())
    per[f["label"]][f["server"]] = float(f["ir"]) / float(f["requests"])
print("| run | instructions/request cppredis | Redis | ratio |")
print("| --- | --: | --: | --: |")
for label, s in per.items():
    print("| %s | %.0f | %.0f | %.3f |" % (label, s["cppredis"], s["redis"], s["cppredis"] / s["redis"]))
EOF
fi
