#!/usr/bin/env bash
# Builds the libFuzzer targets (make fuzz) and runs each, one after the
# other, for a number of executions or a time, then says how many
# executions ran and whether any crashed.
#
#   tests/fuzz/run.sh [-n RUNS | -t SECONDS] [TARGET...]
#     TARGET: request_parser, command (default: both)
#     -n RUNS      executions per target (default 10000000)
#     -t SECONDS   time per target instead
#
# Each target starts from its seed corpus (tests/fuzz/corpus/<target>,
# committed) plus what earlier runs found (build/fuzz/corpus/<target>, not
# committed); a crashing input is written to build/fuzz/artifacts/<target>/
# and the run stops there. Runs are niced, under an RSS limit, with inputs
# of at most -max_len bytes.
set -euo pipefail
cd "$(dirname "$0")/../.."

limit=(-runs=10000000)
while getopts "n:t:" opt; do
  case $opt in
    n) limit=(-runs="$OPTARG") ;;
    t) limit=(-max_total_time="$OPTARG") ;;
    *) echo "usage: $0 [-n RUNS | -t SECONDS] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(request_parser command)

make -s fuzz FUZZ_BINS="${targets[*]/%/_fuzz}"

# Bytes per input: the parser's streams hold several pipelined requests;
# the dispatch target's inputs, up to its 32 commands.
declare -A max_len=([request_parser]=1024 [command]=512)

status=0
for t in "${targets[@]}"; do
  bin=build/fuzz/${t}_fuzz
  work=build/fuzz/corpus/$t
  artifacts=build/fuzz/artifacts/$t
  mkdir -p "$work" "$artifacts"
  stamp=$(mktemp)
  log=build/fuzz/$t.log
  echo "=== $t: ${limit[*]}"
  set +e
  # Leaks are checked after each input (ASan's LeakSanitizer, on by
  # default under libFuzzer); UBSan stops at the first report
  # (-fno-sanitize-recover=all).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
    nice "$bin" "${limit[@]}" -max_len="${max_len[$t]}" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=20 -reload=0 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=$(find "$artifacts" -type f -newer "$stamp" | wc -l)
  rm -f "$stamp"
  echo "$t: ${execs:-?} executions, exit status $rc, $crashes crashing inputs in $artifacts (log: $log)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    grep -m5 -E "ERROR|runtime error|_fuzz: " "$log" || true
    status=1
  fi
done
exit $status
