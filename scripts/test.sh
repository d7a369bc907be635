#!/usr/bin/env bash
# `npm test`: the same set-up as `npm start`, the lint (scripts/lint.sh), then every test: C++ (plain and sanitized),
# the WebAssembly bindings under Node, and the page end to end in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test

bash scripts/lint.sh
echo "==> the page's library, web/src/lib (node --test; built for Node by tests/web/build.mjs)"
node tests/web/build.mjs
node --test tests/web/

# The plain and the sanitized C++ tests side by side (each runs on one core); their output after.
logs=$(mktemp -d)
build/native/spillway_tests >"$logs/native" 2>&1 &
native=$!
{ build/sanitize/spillway_tests --test-suite-exclude=long && build/sanitize/spillway_verifier_alone; } >"$logs/sanitized" 2>&1 &
sanitized=$!
failed=0
wait "$native" || failed=1
wait "$sanitized" || failed=1
echo "==> C++ tests (doctest)"
cat "$logs/native"
echo "==> C++ tests of reading, checking and timing under AddressSanitizer + UndefinedBehaviorSanitizer (CMakeLists.txt)"
cat "$logs/sanitized"
rm -rf "$logs"
if [ "$failed" != 0 ]; then
  echo "C++ tests failed (above)" >&2
  exit 1
fi
echo "==> fuzzing, a bounded pass under the sanitizers (npm run fuzz for a long one)"
bash scripts/fuzz.sh --short
echo "==> bindings (node --test)"
node --test --test-concurrency=2 tests/node/
echo "==> browser end to end (node --test, headless Chromium)"
node --test --test-concurrency=1 tests/e2e/
