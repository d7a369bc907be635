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

echo "==> C++ tests (doctest)"
build/native/spillway_tests
echo "==> C++ tests of reading, checking and timing under AddressSanitizer + UndefinedBehaviorSanitizer (CMakeLists.txt)"
build/sanitize/spillway_tests --test-suite-exclude=long
build/sanitize/spillway_verifier_alone
echo "==> fuzzing, a bounded pass under the sanitizers (npm run fuzz for a long one)"
bash scripts/fuzz.sh --short
echo "==> bindings (node --test)"
node --test tests/node/
echo "==> browser end to end (node --test, headless Chromium)"
node --test --test-concurrency=1 tests/e2e/
