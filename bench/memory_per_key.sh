#!/usr/bin/env bash
# bench/memory_per_key.sh — bytes of memory per key, cppredis against Redis 7.
#
# Starts each server in turn on a free port, loads KEYS keys "key:%010d"
# (14 bytes) with 16-byte string values "val:%012d" through one pipelined
# `redis-cli --pipe` stream, and reports how much the process grew per key:
# from its resident set (VmRSS in /proc/PID/status, what the machine pays)
# and from INFO's used_memory (what the allocator hands out).
#
# Usage: bench/memory_per_key.sh
# Environment: KEYS [1000000], CPPREDIS_BIN [build/cppredis-server],
#              REDIS_BIN [redis-server], run with --save '' --appendonly no
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

KEYS=${KEYS:-1000000}
bench_init

# One RESP stream of SETs, generated once and fed to both servers.
python3 - "$KEYS" >"$BENCH_WORK/load.resp" <<'EOF'
import sys
out = sys.stdout
for i in range(int(sys.argv[1])):
    out.write("*3\r\n$3\r\nSET\r\n$14\r\nkey:%010d\r\n$16\r\nval:%012d\r\n" % (i, i))
EOF

rss_bytes() { awk '/^VmRSS:/ { print $2 * 1024 }' /proc/"$1"/status; }
used_memory() { redis-cli -p "$1" info memory | tr -d '\r' | awk -F: '$1 == "used_memory" { print $2 }'; }

# Freed memory leaves the RSS late: a finished rehash frees the old bucket
# arrays, and jemalloc hands dirty pages back to the kernel in steps over its
# 10 s decay time, on allocator activity. So poll with INFO every second (a
# little traffic, as a live server sees) for at least MIN seconds, then until
# RSS has held still for 5 s (at most 60 s); print "RSS used_memory".
settled_memory() {  # PID PORT MIN
    local last=-1 now used still=0 t
    for t in $(seq 60); do
        used=$(used_memory "$2")
        now=$(rss_bytes "$1")
        if [[ $now == "$last" ]]; then still=$((still + 1)); else still=0; fi
        ((t <= $3 || still < 5)) || break
        last=$now
        sleep 1
    done
    echo "$now $used"
}

declare -A RSS_PER_KEY USED_PER_KEY
for name in cppredis redis; do
    start_named "$name"
    port=${SERVER_PORT[$name]}
    pid=${SERVER_PID[$name]}
    read -r rss0 used0 < <(settled_memory "$pid" "$port" 0)
    out=$("${CLIENT_CPU[@]}" redis-cli -p "$port" --pipe <"$BENCH_WORK/load.resp")
    if ! grep -q "errors: 0, replies: $KEYS" <<<"$out"; then
        echo "$name: the load failed: $out" >&2
        exit 1
    fi
    dbsize=$(redis-cli -p "$port" dbsize)
    [[ $dbsize == "$KEYS" ]] || { echo "$name: DBSIZE is $dbsize, expected $KEYS" >&2; exit 1; }
    read -r rss1 used1 < <(settled_memory "$pid" "$port" 15)
    RSS_PER_KEY[$name]=$(awk -v a="$rss0" -v b="$rss1" -v n="$KEYS" 'BEGIN { printf "%.1f", (b - a) / n }')
    USED_PER_KEY[$name]=$(awk -v a="$used0" -v b="$used1" -v n="$KEYS" 'BEGIN { printf "%.1f", (b - a) / n }')
    awk -v s="$name" -v r0="$rss0" -v r1="$rss1" -v u0="$used0" -v u1="$used1" 'BEGIN {
        printf "%-8s RSS %7.1f -> %7.1f MB, used_memory %7.1f -> %7.1f MB\n", s, r0 / 2^20, r1 / 2^20, u0 / 2^20, u1 / 2^20
    }' >&2
    stop_server "$name"
done

echo
machine_line
echo "$KEYS keys of 14 bytes with 16-byte string values (embstr)"
echo
awk -v rc="${RSS_PER_KEY[cppredis]}" -v rr="${RSS_PER_KEY[redis]}" \
    -v uc="${USED_PER_KEY[cppredis]}" -v ur="${USED_PER_KEY[redis]}" 'BEGIN {
    printf "%-22s %10s %10s %7s\n", "bytes per key", "cppredis", "redis", "ratio"
    printf "%-22s %10.1f %10.1f %7.3f\n", "RSS growth", rc, rr, rc / rr
    printf "%-22s %10.1f %10.1f %7.3f\n", "used_memory growth", uc, ur, uc / ur
}'
