#!/usr/bin/env bash
# `npm test`: the same set-up as `npm start`, the lint (scripts/lint.sh), then every test: C++ (plain and sanitized),
# the WebAssembly bindings under Node, and the page end to end in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
echo "(set-up done, ${SECONDS} s since npm test began)"

bash scripts/lint.sh
echo "(lint done, ${SECONDS} s)"
echo "==> the page's library, web/src/lib (node --test; built for Node by tests/web/build.mjs)"
node tests/web/build.mjs
node --test tests/web/

# The C++ tests and the fuzzers' bounded pass on both cores, their output after: on one the
# long suite (the contest cases planned again and again), on the other the sanitized tests, then
# the other native tests, then the fuzzers (together about as long as the long suite).
logs=$(mktemp -d)
build/native/spillway_tests --test-suite=long >"$logs/long" 2>&1 &
long=$!
{
  status=0
  { build/sanitize/spillway_tests --test-suite-exclude=long && build/sanitize/spillway_verifier_alone; } \
    >"$logs/sanitized" 2>&1 || status=1
  build/native/spillway_tests --test-suite-exclude=long >"$logs/native" 2>&1 || status=1
  bash scripts/fuzz.sh --short >"$logs/fuzz" 2>&1 || status=1
  exit "$status"
} &
others=$!
failed=0
wait "$long" || failed=1
wait "$others" || failed=1
echo "(C++ tests and fuzzers done, ${SECONDS} s)"
echo "==> C++ tests (doctest), all but the long suite"
cat "$logs/native"
echo "==> C++ tests (doctest), the long suite"
cat "$logs/long"
echo "==> C++ tests of reading, checking and timing under AddressSanitizer + UndefinedBehaviorSanitizer (CMakeLists.txt)"
cat "$logs/sanitized"
echo "==> fuzzing, a bounded pass under the sanitizers (npm run fuzz for a long one)"
cat "$logs/fuzz"
rm -rf "$logs"
if [ "$failed" != 0 ]; then
  echo "C++ tests or fuzzers failed (above)" >&2
  exit 1
fi
echo "==> bindings (node --test)"
node --test --test-concurrency=2 tests/node/
echo "(bindings done, ${SECONDS} s)"
echo "==> browser end to end (node --test, headless Chromium)"
# Two files at a time; then, one by one, the files that time the page (each says so at its top:
# "npm test runs this file alone"), so that no other test's work lands in their measurements.
alone=$(grep -l '^// npm test runs this file alone' tests/e2e/*.test.mjs || true)
beside=$(ls tests/e2e/*.test.mjs | grep -vxF "$alone")
failed=0
# shellcheck disable=SC2086 # one argument per file
node --test --test-concurrency=2 $beside || failed=1
echo "(browser tests two at a time done, ${SECONDS} s)"
if [ -n "$alone" ]; then
  # shellcheck disable=SC2086
  node --test --test-concurrency=1 $alone || failed=1
fi
if [ "$failed" != 0 ]; then
  echo "browser tests failed (above)" >&2
  exit 1
fi
echo "(every test done, ${SECONDS} s since npm test began)"
