#!/usr/bin/env bash
# bench/lru_test.sh — how well eviction keeps the hot keys: cppredis against
# Redis 7 under `redis-cli --lru-test`, with the same maxmemory and policy.
#
# redis-cli --lru-test KEYS is a cache workload: pipelined GETs of KEYS keys
# with an 80/20 distribution (a SET of the key after each miss), reporting
# each second the hits and misses of that second. Each run starts a fresh
# server (bench/lib.sh; no persistence) with `--maxmemory MAXMEMORY
# --maxmemory-policy POLICY`, runs the test for SECONDS, and takes the hit
# ratio of the seconds after the first WARMUP (the cache filling), summed
# over those seconds. The servers alternate run by run, the order flipping
# every round; the medians over rounds are printed per policy.
#
# Usage: bench/lru_test.sh
# Environment (defaults in brackets):
#   POLICIES ["allkeys-lru allkeys-lfu"]  KEYS [100000]  MAXMEMORY [4mb]
#   SECONDS_RUN [12]  WARMUP [4]  ROUNDS [3]
#   CPPREDIS_BIN, REDIS_BIN, EXTRA_ARGS...   as bench/lib.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

POLICIES=${POLICIES:-allkeys-lru allkeys-lfu}
KEYS=${KEYS:-100000}
MAXMEMORY=${MAXMEMORY:-4mb}
SECONDS_RUN=${SECONDS_RUN:-12}
WARMUP=${WARMUP:-4}
ROUNDS=${ROUNDS:-3}

bench_init
new_results lru- .txt
BASE_CPPREDIS_ARGS=("${CPPREDIS_ARGS[@]}")
BASE_REDIS_ARGS=("${REDIS_ARGS[@]}")

# The hit ratio (%) of one run's lines after the warm-up, and its evictions.
lru_run() {  # ROUND POLICY NAME
    local round=$1 policy=$2 name=$3 port out ratio evicted
    CPPREDIS_ARGS=("${BASE_CPPREDIS_ARGS[@]}" --maxmemory "$MAXMEMORY" --maxmemory-policy "$policy")
    REDIS_ARGS=("${BASE_REDIS_ARGS[@]}" --maxmemory "$MAXMEMORY" --maxmemory-policy "$policy")
    start_named "$name"
    port=${SERVER_PORT[$name]}
    out=$BENCH_WORK/lru.out
    # redis-cli never ends this mode by itself: the timeout does (status 124).
    "${CLIENT_CPU[@]}" timeout "$SECONDS_RUN" stdbuf -oL redis-cli -h 127.0.0.1 -p "$port" --lru-test "$KEYS" >"$out" || true
    evicted=$(redis-cli -h 127.0.0.1 -p "$port" info stats | tr -d '\r' | sed -n 's/^evicted_keys://p')
    stop_server "$name"
    ratio=$(awk -v warm="$WARMUP" '/Hits:/ && ++n > warm { h += $5; m += $9 } END { if (h + m) printf "%.2f", 100 * h / (h + m); else print "nan" }' "$out")
    echo "round=$round policy=$policy server=$name hit_pct=$ratio evicted_keys=$evicted" | tee -a "$RESULTS" >&2
}
for_each_run lru_run $POLICIES

echo
machine_line
CPPREDIS_ARGS=("${BASE_CPPREDIS_ARGS[@]}" --maxmemory "$MAXMEMORY" --maxmemory-policy POLICY)
REDIS_ARGS=("${BASE_REDIS_ARGS[@]}" --maxmemory "$MAXMEMORY" --maxmemory-policy POLICY)
servers_lines
echo "redis-cli --lru-test $KEYS for ${SECONDS_RUN}s, the first $WARMUP s left out; $ROUNDS rounds; runs: $RESULTS"
awk "$AWK_RUN_FIELDS"'
    { k = field("policy") " " field("server"); n[k]++; v[k, n[k]] = field("hit_pct"); seen[field("policy")] = 1 }
    END {
        printf "%-12s %14s %14s %12s\n", "policy", "hits% cppredis", "hits% redis", "difference"
        for (p in seen) {
            for (s = 1; s <= 2; s++) {
                name = s == 1 ? "cppredis" : "redis"; m = n[p " " name]
                for (i = 1; i <= m; i++) a[i] = v[p " " name, i]
                med[name] = median(a, m)
            }
            printf "%-12s %14.2f %14.2f %+12.2f\n", p, med["cppredis"], med["redis"], med["cppredis"] - med["redis"]
        }
    }' "$RESULTS"
