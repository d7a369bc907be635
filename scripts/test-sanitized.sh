#!/usr/bin/env bash
# `npm run test:sanitized`: every C++ test, the suite "long" included, under AddressSanitizer +
# UndefinedBehaviorSanitizer (clang), in build/sanitize-all. `npm test` runs the tests of reading,
# checking and timing this way, and the rest natively; this is the whole set (about 15 minutes of
# CPU: the sanitizers make the planning tests ~20 times slower).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
cmake -S . -B build/sanitize-all -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
  -DSPILLWAY_SANITIZE=ON -DSPILLWAY_SANITIZE_ALL_TESTS=ON >/dev/null
cmake --build build/sanitize-all --target spillway_tests spillway_verifier_alone
build/sanitize-all/spillway_tests
build/sanitize-all/spillway_verifier_alone
