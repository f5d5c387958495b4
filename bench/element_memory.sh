#!/usr/bin/env bash
# bench/list_memory.sh — bytes of memory per list element, cppredis against Redis 7.
#
# Two loads, each into a fresh server (cppredis, then Redis, in the same run),
# each sent as one pipelined `redis-cli --pipe` stream of RPUSHes:
#   small  LISTS lists "list:%06d" of 10 ten-byte values "val:%06d": small
#          lists, a ziplist each in cppredis, a quicklist of one listpack in
#          Redis 7
#   big    one list of BIG ten-byte values "v%09d", 100 per RPUSH: a
#          linkedlist in cppredis, a quicklist of many listpacks in Redis 7
# and reports how much the process grew per element: from its resident set
# (VmRSS in /proc/PID/status, what the machine pays) and from INFO's
# used_memory (what the allocator hands out). The small load includes each
# list's key and dict entry, shared by its 10 elements.
#
# Usage: bench/list_memory.sh
# Environment: LISTS [100000], BIG [1000000], CPPREDIS_BIN [build/cppredis-server],
#              REDIS_BIN [redis-server], run with --save '' --appendonly no
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

LISTS=${LISTS:-100000}
BIG=${BIG:-1000000}
bench_init

# The two RESP streams, generated once and fed to both servers.
python3 - "$LISTS" "$BIG" "$BENCH_WORK" <<'EOF'
import sys
lists, big, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def bulk(s): return "$%d\r\n%s\r\n" % (len(s), s)
with open(work + "/small.resp", "w") as out:
    for i in range(lists):
        out.write("*12\r\n$5\r\nRPUSH\r\n" + bulk("list:%06d" % i) +
                  "".join(bulk("val:%06d" % (i * 10 + j)) for j in range(10)))
with open(work + "/big.resp", "w") as out:
    for start in range(0, big, 100):
        values = ["v%09d" % i for i in range(start, min(start + 100, big))]
        out.write("*%d\r\n$5\r\nRPUSH\r\n$7\r\nbiglist\r\n" % (len(values) + 2) + "".join(map(bulk, values)))
EOF

rss_bytes() { awk '/^VmRSS:/ { print $2 * 1024 }' /proc/"$1"/status; }
used_memory() { redis-cli -p "$1" info memory | tr -d '\r' | awk -F: '$1 == "used_memory" { print $2 }'; }

# Freed buffers (the query buffer of the loading connection, a rehash's old
# bucket array) go back to the system a little later: read RSS once it holds
# still.
settled_rss() {
    local pid=$1 last=-1 now
    for _ in $(seq 40); do
        now=$(rss_bytes "$pid")
        [[ $now == "$last" ]] && break
        last=$now
        sleep 0.25
    done
    echo "$now"
}

declare -A RSS_PER_ELEMENT USED_PER_ELEMENT ENCODING
for load in small big; do
    if [[ $load == small ]]; then elements=$((LISTS * 10)) key=list:000000 replies=$LISTS
    else elements=$BIG key=biglist replies=$(((BIG + 99) / 100)); fi
    for name in cppredis redis; do
        if [[ $name == cppredis ]]; then start_server cppredis "$CPPREDIS_BIN"
        else start_server redis "$REDIS_BIN" "${REDIS_DEFAULT_ARGS[@]}"; fi
        port=${SERVER_PORT[$name]}
        pid=${SERVER_PID[$name]}
        rss0=$(settled_rss "$pid") used0=$(used_memory "$port")
        out=$("${CLIENT_CPU[@]}" redis-cli -p "$port" --pipe <"$BENCH_WORK/$load.resp")
        if ! grep -q "errors: 0, replies: $replies" <<<"$out"; then
            echo "$name: the $load load failed: $out" >&2
            exit 1
        fi
        rss1=$(settled_rss "$pid") used1=$(used_memory "$port")
        ENCODING[$load,$name]=$(redis-cli -p "$port" object encoding "$key")
        RSS_PER_ELEMENT[$load,$name]=$(awk -v a="$rss0" -v b="$rss1" -v n="$elements" 'BEGIN { printf "%.1f", (b - a) / n }')
        USED_PER_ELEMENT[$load,$name]=$(awk -v a="$used0" -v b="$used1" -v n="$elements" 'BEGIN { printf "%.1f", (b - a) / n }')
        awk -v s="$name" -v l="$load" -v r0="$rss0" -v r1="$rss1" -v u0="$used0" -v u1="$used1" 'BEGIN {
            printf "%-8s %-5s RSS %7.1f -> %7.1f MB, used_memory %7.1f -> %7.1f MB\n", s, l, r0 / 2^20, r1 / 2^20, u0 / 2^20, u1 / 2^20
        }' >&2
        stop_server "$name"
    done
done

echo
echo "$(date -Is)  $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "small: $LISTS lists of 10 ten-byte values; big: one list of $BIG ten-byte values"
echo
printf "%-28s %10s %10s %7s   %s\n" "bytes per element" cppredis redis ratio "encodings (cppredis / redis)"
for load in small big; do
    for measure in RSS used_memory; do
        if [[ $measure == RSS ]]; then
            c=${RSS_PER_ELEMENT[$load,cppredis]} r=${RSS_PER_ELEMENT[$load,redis]}
        else
            c=${USED_PER_ELEMENT[$load,cppredis]} r=${USED_PER_ELEMENT[$load,redis]}
        fi
        awk -v label="$load, $measure growth" -v c="$c" -v r="$r" \
            -v enc="${ENCODING[$load,cppredis]} / ${ENCODING[$load,redis]}" \
            'BEGIN { printf "%-28s %10.1f %10.1f %7.3f   %s\n", label, c, r, c / r, enc }'
    done
done
