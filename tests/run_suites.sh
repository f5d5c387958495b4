#!/usr/bin/env bash
# Runs GoogleTest binaries one after the other and ends with one line that
# sums them up, "<label>: N passed, N failed", so CI and people read a single
# verdict. Exits non-zero if any suite failed or crashed.
set -u
label=$1
shift
passed=0 failed=0 status=0
for t in "$@"; do
    echo "=== $t"
    out=$("./$t" --gtest_brief=1 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -v '^Running main()'
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    if [ "$rc" -ne 0 ]; then
        status=1
        [ -z "$f" ] && failed=$((failed + 1))  # a crash: count the suite as failed
    fi
done
echo "$label: $passed passed, $failed failed"
exit $status
