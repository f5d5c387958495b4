#!/usr/bin/env bash
# bench/syscalls.sh — what a request costs the kernel, cppredis against
# Redis 7: system calls and TCP segments per request (or queue message).
#
# For each run of the workload (bench/lib.sh: WORKLOAD, a queue_bench mode or
# redis-benchmark tests) and each server, in turn on the same two servers:
#   - the server's system calls during the run, counted by `perf stat -e
#     syscalls:sys_enter_NAME -p PID` (kernel tracepoints: exact, and cheap
#     enough not to change the run), or, where perf cannot count them (no
#     perf, no tracefs, perf_event_paranoid too strict for the user), by
#     `strace -c -f -p PID`, which also counts every call but slows the
#     server several times over;
#   - the TCP segments sent and received (nstat's TcpInSegs, TcpOutSegs, and
#     the pure ACKs TcpExtTCPPureAcks and delayed ones TcpExtDelayedACKs)
#     around the run. On loopback every segment one side sends the other
#     receives, so In = Out = the segments of both directions. The script runs
#     itself in a network namespace of its own when it can (root), so these
#     count its runs alone; otherwise they count the whole machine's TCP and
#     the output says so.
# Prints one row per run and server, counts divided by the run's requests.
#
# Usage: bench/syscalls.sh
# Environment (defaults in brackets), besides WORKLOAD and its variables:
#   SYSCALLS ["read write writev epoll_wait epoll_ctl"]  the calls to count
#   COUNTER [auto]  perf, strace, or auto (perf if it can count tracepoints)
#   CPPREDIS_BIN, REDIS_BIN, EXTRA_ARGS*   as for the other scripts (lib.sh)
# Requirements: perf (Debian: linux-perf) or strace, nstat (iproute2),
# unshare (util-linux) for the private namespace.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
enter_private_netns "$@"

SYSCALLS=${SYSCALLS:-read write writev epoll_wait epoll_ctl}
COUNTER=${COUNTER:-auto}

perf_can_count() {
    command -v perf >/dev/null && perf stat -x, -e syscalls:sys_enter_read -- true >/dev/null 2>&1
}
if [[ $COUNTER == auto ]]; then
    if perf_can_count; then COUNTER=perf
    else
        echo "perf cannot count syscall tracepoints here (missing, no tracefs, or perf_event_paranoid" \
            "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)); counting with strace -c instead" >&2
        COUNTER=strace
    fi
fi
case $COUNTER in
perf) perf_can_count || { echo "COUNTER=perf: perf cannot count syscalls:sys_enter_read here" >&2; exit 1; } ;;
strace) command -v strace >/dev/null || { echo "COUNTER=strace: strace is not installed" >&2; exit 1; } ;;
*) echo "COUNTER must be perf, strace or auto" >&2; exit 2 ;;
esac

workload_init
start_both
new_results syscalls- .txt

# Starts the counter on server NAME's process; stop_counter ends it (SIGINT,
# on which both write their totals) and leaves "name count" lines in
# $BENCH_WORK/counts (it must run in this shell, which waits for the counter).
start_counter() {  # NAME
    local out=$BENCH_WORK/counter.out events=() s
    rm -f "$out"
    if [[ $COUNTER == perf ]]; then
        for s in $SYSCALLS; do events+=(-e "syscalls:sys_enter_$s"); done
        perf stat -x, -o "$out" "${events[@]}" -p "${SERVER_PID[$1]}" &
    else
        strace -c -f -q -o "$out" -p "${SERVER_PID[$1]}" &
    fi
    COUNTER_PID=$!
    sleep 1  # attached (perf and strace print nothing when they are)
}
stop_counter() {
    kill -INT "$COUNTER_PID"
    wait "$COUNTER_PID" || true
    local out=$BENCH_WORK/counter.out
    if [[ $COUNTER == perf ]]; then
        # CSV: count,unit,event,...
        awk -F, '$3 ~ /^syscalls:sys_enter_/ { sub("syscalls:sys_enter_", "", $3); print $3, ($1 ~ /^[0-9]+$/ ? $1 : 0) }' "$out"
    else
        # strace -c's table: % time, seconds, usecs/call, calls, [errors,] syscall
        awk '$1 ~ /^[0-9.]+$/ && NF >= 5 { print $NF, $4 }' "$out"
    fi >"$BENCH_WORK/counts"
}
nstat_counts() {
    nstat -asz TcpInSegs TcpOutSegs TcpExtTCPPureAcks TcpExtDelayedACKs 2>/dev/null | awk 'NF >= 2 && $1 !~ /^#/ { print $1, $2 }'
}

syscalls_run() {  # ROUND LABEL NAME (one round)
    local label=$2 name=$3 before after line
    workload_fill "$name"
    before=$(nstat_counts)
    start_counter "$name"
    workload_run "$name" "$label"
    stop_counter
    after=$(nstat_counts)
    line="label=$label server=$name requests=$WORKLOAD_REQUESTS counter=$COUNTER"
    line+=" $(awk '{ printf "sys_%s=%s ", $1, $2 }' "$BENCH_WORK/counts")"
    line+=" $(join -a1 <(sort <<<"$after") <(sort <<<"$before") | awk '{ printf "%s=%d ", $1, $2 - ($3 == "" ? 0 : $3) }')"
    echo "$line" >>"$RESULTS"
    echo "$label $name: $line" >&2
}
ROUNDS=1
# shellcheck disable=SC2046
for_each_run syscalls_run $(workload_labels)

echo
machine_line
servers_lines
echo "workload: $WORKLOAD ($(workload_labels | xargs)); counted with $COUNTER;" \
    "TCP counters: $([[ -n $NETNS_PRIVATE ]] && echo "this script's network namespace alone" ||
        echo "the whole machine (no private namespace: other traffic included)")"
echo "raw runs: $RESULTS"
echo
python3 - "$RESULTS" "$SYSCALLS" <<'EOF'
import sys

calls = sys.argv[2].split()
tcp = [("TcpInSegs", "segments in"), ("TcpOutSegs", "segments out"), ("TcpExtTCPPureAcks", "pure ACKs"),
       ("TcpExtDelayedACKs", "delayed ACKs")]
print("| run | server | requests | " + " | ".join("%s / req" % c for c in calls) + " | " +
      " | ".join("%s / req" % t for _, t in tcp) + " |")
print("| --- | --- | --: | " + " | ".join("--:" for _ in calls + tcp) + " |")
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split())
    n = float(f["requests"])
    cells = ["%.3f" % (float(f.get("sys_" + c, 0)) / n) for c in calls]
    cells += ["%.3f" % (float(f.get(k, 0)) / n) for k, _ in tcp]
    print("| %s | %s | %d | %s |" % (f["label"], f["server"], n, " | ".join(cells)))
EOF
