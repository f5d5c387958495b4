#!/usr/bin/env bash
# Runs GoogleTest binaries one after the other and ends with one line that
# sums them up, "<label>: N passed, N failed", so CI and people read a single
# verdict. Exits non-zero if any suite failed or crashed.
#
# The integration suites mostly wait (on servers, timers, sockets), so
# their binary runs as TEST_SHARDS GoogleTest shards at once (default: one
# per core), each test in exactly one shard; their outputs are printed one
# after the other. Every test picks its own free ports and directories, so
# shards never share a server or a file.
set -u
label=$1
shift
shards=${TEST_SHARDS:-$(nproc 2>/dev/null || echo 1)}
passed=0 failed=0 status=0

# One run of binary $1 (shard $2 of $3, or all if $3 is 1); its output in
# file $4, its exit status in file $4.rc.
run_one() {
    if [ "$3" -gt 1 ]; then
        GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$2 "./$1" --gtest_brief=1 >"$4" 2>&1
    else
        "./$1" --gtest_brief=1 >"$4" 2>&1
    fi
    echo $? >"$4.rc"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "$@"; do
    echo "=== $t"
    n=1
    case $t in *integration_tests) n=$shards ;; esac
    for ((i = 0; i < n; i++)); do run_one "$t" "$i" "$n" "$tmp/out$i" & done
    wait
    for ((i = 0; i < n; i++)); do
        out=$(cat "$tmp/out$i")
        rc=$(cat "$tmp/out$i.rc")
        printf '%s\n' "$out" | grep -v '^Running main()'
        p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
        f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
        passed=$((passed + ${p:-0}))
        failed=$((failed + ${f:-0}))
        if [ "$rc" -ne 0 ]; then
            status=1
            [ -z "$f" ] && failed=$((failed + 1))  # a crash: count the shard as failed
        fi
    done
done
echo "$label: $passed passed, $failed failed"
exit $status
