#!/usr/bin/env bash
# The libFuzzer drivers over the JSON reader, the option parsers, result files, plan+verify on
# generated graphs and the packer on minimalloc CSV (tests/fuzz/README.md). Built by `scripts/setup.sh --test` in build/sanitize
# (clang, AddressSanitizer + UndefinedBehaviorSanitizer).
#   scripts/fuzz.sh            `npm run fuzz`: FUZZ_SECONDS (default 600) per driver
#   scripts/fuzz.sh --short    the bounded pass `npm test` runs (10 s per driver)
# New inputs go to a temporary folder (the corpus in the repo is only read); a finding is written
# to build/fuzz-artifacts/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-600}
[ "${1:-}" = "--short" ] && seconds=10
build=build/sanitize
for t in graph options result plan pack; do
  if [ ! -x "$build/fuzz_$t" ]; then
    echo "spillway: $build/fuzz_$t is missing: run scripts/setup.sh --test" >&2
    exit 1
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p build/fuzz-artifacts
for t in graph options result plan pack; do
  mkdir -p "$work/$t"
  echo "==> fuzz_$t (${seconds} s)"
  dict=tests/fuzz/json.dict
  [ "$t" = pack ] && dict=tests/fuzz/csv.dict  # minimalloc's CSV
  if ! "$build/fuzz_$t" "$work/$t" "tests/fuzz/corpus/$t" -dict="$dict" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="build/fuzz-artifacts/$t-" -print_final_stats=1 > "$work/$t.log" 2>&1; then
    cat "$work/$t.log" >&2
    echo "spillway: fuzz_$t found a failure; the input is in build/fuzz-artifacts/" >&2
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|^Done" "$work/$t.log" || tail -n 2 "$work/$t.log"
done
