#!/usr/bin/env bash
# bench/build_time.sh — how long a cold build of cppredis takes against one
# of Redis 7.0.15 on the same machine, both with `make -j$JOBS`.
#
#   cppredis: build/cppredis-server from nothing, into a fresh BUILD
#             directory, with plain g++ (no ccache: a cold build);
#             then its incremental rebuild after a change to one file
#             (t_list.o removed: recompiled, archived, relinked)
#   Redis:    `make BUILD_TLS=yes` in a fresh copy of Debian's source of
#             7.0.15 (tools/fetch_redis_source.sh) but for Debian's
#             patch to link the system's jemalloc, its bundled jemalloc,
#             Lua, hiredis, linenoise and hdr_histogram included; every
#             program its `make` builds (redis-server, -cli, -benchmark...)
#
# ROUNDS rounds (3), cppredis and Redis alternating (A B A B...) so that a
# change in the machine's load falls on both; prints each run's wall and
# CPU (user+sys) time, the medians and the ratios cppredis/Redis. The
# machine's load average is printed too: wall times from a busy machine
# compare only with each other. Logs and trees go to a scratch directory,
# removed at exit.
#
# Usage: bench/build_time.sh        ROUNDS=N JOBS=N in the environment
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-2}
redis_src=$(tools/fetch_redis_source.sh)
scratch=$(mktemp -d /tmp/build_time.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
unset MAKEFLAGS MAKELEVEL CCACHE_DISABLE

# timed LOG CMD...: runs CMD, its output into LOG; prints "wall cpu" in seconds.
timed() {
    local log=$1
    shift
    /usr/bin/time -o "$log.time" -f '%e %U %S' "$@" >"$log" 2>&1 ||
        { echo "failed: $* (see below)" >&2; tail -20 "$log" >&2; exit 1; }
    awk '{printf "%.1f %.1f\n", $1, $2 + $3}' "$log.time"
}

cppredis_round() {
    local build=$scratch/cppredis$1
    timed "$build.log" make -j"$JOBS" BUILD="$build" CXX=g++ "$build/cppredis-server"
}

cppredis_incremental() {
    local build=$scratch/cppredis$1
    rm "$build/obj/t_list.o"
    timed "$build.incr.log" make -j"$JOBS" BUILD="$build" CXX=g++ "$build/cppredis-server"
}

redis_round() {
    local tree=$scratch/redis$1
    cp -a "$redis_src" "$tree"
    # Debian's patch for its system jemalloc renames jemalloc's functions
    # whatever USE_SYSTEM_JEMALLOC says (its `#if USE_SYSTEM_JEMALLOC == yes`
    # holds when neither is defined): without it the bundled jemalloc links.
    patch -s -R -p1 -d "$tree" <"$tree/debian/patches/0004-Add-support-for-USE_SYSTEM_JEMALLOC-flag.patch"
    (cd "$tree" && timed "$tree.log" make -j"$JOBS" BUILD_TLS=yes)
    rm -rf "$tree"
}

echo "cold builds, make -j$JOBS, g++ $(g++ -dumpfullversion), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
results=$scratch/results
# record NAME ROUND FN: FN ROUND's times as a line of $results (a failed
# build stops the script: set -e sees the assignment fail).
record() {
    local times
    times=$("$3" "$2")
    echo "$1 $2 $times" | tee -a "$results"
}
for round in $(seq 1 "$ROUNDS"); do
    record cppredis "$round" cppredis_round
    record incremental "$round" cppredis_incremental
    record redis "$round" redis_round
    rm -rf "$scratch/cppredis$round"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, _, wall, cpu = line.split()
    runs.setdefault(name, []).append((float(wall), float(cpu)))
med = {n: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for n, r in runs.items()}
print("medians over %d rounds (s):      wall    cpu" % len(runs["redis"]))
for n, label in (("cppredis", "cppredis cold"), ("redis", "Redis 7.0.15 cold"), ("incremental", "cppredis, t_list.cpp changed")):
    print("  %-28s %7.1f %7.1f" % (label, *med[n]))
print("ratio cppredis/Redis, cold:    %7.2f %7.2f" % (med["cppredis"][0] / med["redis"][0], med["cppredis"][1] / med["redis"][1]))
EOF
