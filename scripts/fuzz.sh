#!/usr/bin/env bash
# Runs each libFuzzer target of build-fuzz for FUZZ_SECONDS (docs/fuzzing.md).
#   usage: scripts/fuzz.sh BUILD_DIR SECONDS [TARGET...]     (default: every target)
# Seeds come from tests/fuzz/corpus/TARGET/ and are never written to; what the
# fuzzer learns accumulates in BUILD_DIR/corpus/TARGET/, crashes land in
# BUILD_DIR/crashes/TARGET/. Extra libFuzzer flags: FUZZ_ARGS="-fork=2".
# Prints one line per target (runs, exec/s, coverage) and exits 1 when any
# target crashed, leaked, timed out or ran out of memory.
set -uo pipefail
cd "$(dirname "$0")/.."
build="$1"
seconds="$2"
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for entry in tests/fuzz/fuzz_*.cpp; do
    name=$(basename "$entry" .cpp)
    targets+=("${name#fuzz_}")
  done
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
summary=()
for target in "${targets[@]}"; do
  binary="$build/bin/fuzz_$target"
  seeds="tests/fuzz/corpus/$target"
  work="$build/corpus/$target"
  crashes="$build/crashes/$target"
  log="$build/fuzz-$target.log"
  if [ ! -x "$binary" ]; then
    echo "fuzz: no $binary; run make fuzz" >&2
    exit 2
  fi
  mkdir -p "$work" "$crashes"
  echo "fuzz: $target for $seconds s (log $log)"
  # shellcheck disable=SC2086 # FUZZ_ARGS holds several flags
  "$binary" "$work" "$seeds" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$crashes/" ${FUZZ_ARGS:-} >"$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1)
  line=$(printf '%-13s %10s runs  %7s exec/s  %s' "$target" "${runs:-?}" "${speed:-?}" "${cov:-no coverage line}")
  if [ $status -ne 0 ]; then
    line="$line  FAILED (exit $status): $(ls -t "$crashes" | head -1)"
    failed+=("$target")
    grep -E '^==[0-9]+==ERROR|SUMMARY|BrokenPromise|what\(\)' "$log" | head -5 >&2
  fi
  summary+=("$line")
done

echo
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: ${failed[*]} failed; the inputs are in $build/crashes/ (docs/fuzzing.md: add a regression)" >&2
  exit 1
fi
