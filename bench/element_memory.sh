#!/usr/bin/env bash
# bench/element_memory.sh — bytes of memory per element of each aggregate
# type, cppredis against Redis 7 in the same run.
#
# Each load goes into a fresh server (cppredis, then Redis), sent as one
# pipelined `redis-cli --pipe` stream:
#   list-small  N lists "list:%06d" of 10 ten-byte values (RPUSH): a ziplist
#               each in cppredis, a quicklist of one listpack in Redis 7
#   list-big    one list of BIG ten-byte values "v%09d", 100 per RPUSH: a
#               linkedlist in cppredis, a quicklist of many listpacks in Redis 7
#   hash        N hashes of 10 fields "f0".."f9" with ten-byte values (HSET):
#               ziplist / listpack
#   set-int     N sets of 10 integers (SADD): intset in both
#   set-str     N sets of 10 ten-byte strings: hashtable in both (Redis 7.0
#               has no listpack sets)
#   zset        N sorted sets of 10 ten-byte members with integer scores
#               (ZADD): ziplist / listpack
#   stream      one stream of BIG entries of one small field, `XADD stream *
#               f v%09d` (issue 15): a rax of listpacks in both
# and reports how much the process grew per element: from its resident set
# (VmRSS in /proc/PID/status, what the machine pays) and from INFO's
# used_memory (what the allocator hands out). Each key and its dict entry are
# included, shared by the key's elements.
#
# Usage: bench/element_memory.sh
# Environment: LOADS ["list-small list-big hash set-int set-str zset"],
#              N [100000], BIG [1000000], CPPREDIS_BIN [build/cppredis-server],
#              REDIS_BIN [redis-server], run with --save '' --appendonly no
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

LOADS=${LOADS:-list-small list-big hash set-int set-str zset stream}
N=${N:-100000}
BIG=${BIG:-1000000}
bench_init

# The RESP streams, generated once and fed to both servers, and for each
# load a .meta line: "<elements> <replies> <key to ask OBJECT ENCODING>".
python3 - "$N" "$BIG" "$BENCH_WORK" $LOADS <<'EOF'
import sys
n, big, work, loads = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
def bulk(s): return "$%d\r\n%s\r\n" % (len(s), s)
def cmd(*args): return "*%d\r\n" % len(args) + "".join(map(bulk, args))
def write(load, elements, commands, key):
    with open("%s/%s.resp" % (work, load), "w") as out:
        out.writelines(commands)
    with open("%s/%s.meta" % (work, load), "w") as meta:
        meta.write("%d %d %s\n" % (elements, len(commands), key))
def small(load, verb, prefix, members):
    write(load, n * 10, [cmd(verb, "%s:%06d" % (prefix, i), *members(i)) for i in range(n)], prefix + ":000000")
def pairs(a, b): return [x for p in zip(a, b) for x in p]
def tens(i, fmt): return [fmt % (i * 10 + j) for j in range(10)]
for load in loads:
    if load == "list-small":
        small(load, "RPUSH", "list", lambda i: tens(i, "val:%06d"))
    elif load == "list-big":
        write(load, big, [cmd("RPUSH", "biglist", *["v%09d" % k for k in range(s, min(s + 100, big))])
                          for s in range(0, big, 100)], "biglist")
    elif load == "hash":
        small(load, "HSET", "hash", lambda i: pairs(["f%d" % j for j in range(10)], tens(i, "val:%06d")))
    elif load == "set-int":
        small(load, "SADD", "iset", lambda i: tens(i, "%d"))
    elif load == "set-str":
        small(load, "SADD", "sset", lambda i: tens(i, "mem:%06d"))
    elif load == "zset":
        small(load, "ZADD", "zset", lambda i: pairs([str(j) for j in range(10)], tens(i, "mem:%06d")))
    elif load == "stream":
        write(load, big, [cmd("XADD", "stream", "*", "f", "v%09d" % k) for k in range(big)], "stream")
    else:
        sys.exit("unknown load " + load)
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
for load in $LOADS; do
    read -r elements replies key <"$BENCH_WORK/$load.meta"
    for name in cppredis redis; do
        start_named "$name"
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
            printf "%-8s %-10s RSS %7.1f -> %7.1f MB, used_memory %7.1f -> %7.1f MB\n", s, l, r0 / 2^20, r1 / 2^20, u0 / 2^20, u1 / 2^20
        }' >&2
        stop_server "$name"
    done
done

echo
machine_line
servers_lines
echo "$N keys of 10 elements each (list-big: one list of $BIG, stream: one stream of $BIG entries); ten-byte values"
echo
printf "%-28s %10s %10s %7s   %s\n" "bytes per element" cppredis redis ratio "encodings (cppredis / redis)"
for load in $LOADS; do
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
