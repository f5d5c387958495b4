#!/usr/bin/env bash
# Runs GoogleTest binaries one after the other and ends with one line that
# sums them up, "<label>: N passed, N failed, N skipped", so CI and people
# read a single verdict. Exits non-zero if any suite failed or crashed.
# Each binary's section ends with its skipped tests, one a line, with the
# reason the test gave: a skip is never silent.
#
# The integration suites mostly wait (on servers, timers, sockets), so
# their binary runs as TEST_SHARDS GoogleTest shards at once (default: one
# per core), each test in exactly one shard; their outputs are printed one
# after the other. Every test picks its own free ports and directories, so
# shards never share a server or a file. GoogleTest reads GTEST_FILTER
# from the environment, so a filter passes straight through.
set -u
label=$1
shift
shards=${TEST_SHARDS:-$(nproc 2>/dev/null || echo 1)}
passed=0 failed=0 skipped=0 status=0

# One run of binary $1 (shard $2 of $3, or all if $3 is 1); its output in
# file $4, its exit status in file $4.rc. Not --gtest_brief: it names
# neither the skipped tests nor the failed count; summarize trims instead.
run_one() {
    if [ "$3" -gt 1 ]; then
        GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$2 "./$1" >"$4" 2>&1
    else
        "./$1" >"$4" 2>&1
    fi
    echo $? >"$4.rc"
}

# Reads GoogleTest's output $1 and prints it as --gtest_brief would (no
# RUN/OK lines, no banners, no closing lists), less the messages of tests
# that end skipped; writes "passed failed skipped crashed_test" to
# $1.counts and one line per skipped test, "[  SKIPPED ] Suite.Name:
# reason", to $1.skips. A test counts by the line that ends it; a RUN with
# no end is the test the binary crashed in. A skip's message runs from its
# "file:line: Skipped" line to the next failure or the test's end; a
# reason repeated (a helper that skipped each time it was called) is kept
# once; a test that skipped, then failed, prints it all.
summarize() {
    : >"$1.skips"  # the previous binary's, if any, is gone
    awk -v counts="$1.counts" -v skips="$1.skips" '
        function addReason(line) {
            if (index(" / " reason " / ", " / " line " / ") == 0) reason = reason (reason == "" ? "" : " / ") line
        }
        function endTest() { cur = ""; reason = ""; held = ""; inSkip = 0 }
        /^Running main\(\)/ { next }
        /^\[ RUN      \] / { endTest(); cur = $4; next }
        cur != "" && /^\[       OK \] / { p++; endTest(); next }
        cur != "" && /^\[  SKIPPED \] / {
            s++
            print "[  SKIPPED ] " cur ": " (reason == "" ? "(no reason given)" : reason) > skips
            endTest(); next
        }
        cur != "" && /^\[  FAILED  \] / { f++; printf "%s", held; print; endTest(); next }
        cur != "" && /^[^ ]*:[0-9]+: Skipped$/ { inSkip = 1; held = held $0 "\n"; next }
        cur != "" && /: Failure$/ { inSkip = 0 }
        cur != "" && inSkip { addReason($0); held = held $0 "\n"; next }
        /^\[==========\] .* ran\./ { print; next }
        /^\[(==========|----------|  PASSED  |  SKIPPED |  FAILED  )\]/ { next }
        cur == "" && (/^ *[0-9]+ FAILED TESTS?$/ || /^ *YOU HAVE [0-9]+ DISABLED TESTS?$/ || /^$/) { next }
        { print }
        END { printf "%d %d %d %s\n", p, f, s, (cur == "" ? "-" : cur) > counts }
    ' "$1"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "$@"; do
    echo "=== $t"
    n=1
    case $t in *integration_tests) n=$shards ;; esac
    for ((i = 0; i < n; i++)); do run_one "$t" "$i" "$n" "$tmp/out$i" & done
    wait
    : >"$tmp/skips"
    for ((i = 0; i < n; i++)); do
        summarize "$tmp/out$i"
        read -r p f s crashed <"$tmp/out$i.counts"
        rc=$(cat "$tmp/out$i.rc")
        passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
        cat "$tmp/out$i.skips" >>"$tmp/skips"
        [ "$rc" -ne 0 ] && status=1
        # A crash (a test begun, never ended), or a failure outside any
        # test: one more failed.
        if [ "$crashed" != - ]; then
            failed=$((failed + 1))
            echo "$t (shard $i of $n) exited with status $rc in $crashed"
        elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            failed=$((failed + 1))
            echo "$t (shard $i of $n) exited with status $rc"
        fi
    done
    sort "$tmp/skips"
done
echo "$label: $passed passed, $failed failed, $skipped skipped"
exit $status
