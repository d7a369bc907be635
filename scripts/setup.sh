#!/usr/bin/env bash
# One set-up for `npm start` and `npm test`: installs what is missing (Debian packages when root,
# npm packages), then builds what is needed.
#   scripts/setup.sh          what the playground serves: the WebAssembly engine and the page
#   scripts/setup.sh --test   also what the tests need: Chromium, the native engine (CLI and C++
#                             tests), the sanitizer build and the fuzzers
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's em++ needs Debian's acorn with this Node

for_tests=false
[ "${1:-}" = "--test" ] && for_tests=true

packages=(cmake ninja-build g++ nlohmann-json3-dev doctest-dev emscripten)
$for_tests && packages+=(chromium clang clang-format clang-tidy libfuzzer-14-dev coinor-cbc)  # coinor-cbc: the exact solver the residency tests check against; clang-format, clang-tidy: npm run lint
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "spillway: missing Debian packages: ${missing[*]}" >&2
    echo "run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "==> installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm packages, from the lock file; again only when the lock changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "==> npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

if $for_tests; then
  echo "==> native engine"
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native
  echo "(native engine built, ${SECONDS} s since the set-up began)"
  echo "==> native engine with AddressSanitizer + UndefinedBehaviorSanitizer, and the fuzzers (clang)"
  # An older tree built build/sanitize with g++: the fuzzers need clang, so start it afresh.
  if [ -f build/sanitize/CMakeCache.txt ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' build/sanitize/CMakeCache.txt; then
    rm -rf build/sanitize
  fi
  cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    -DSPILLWAY_SANITIZE=ON -DSPILLWAY_FUZZ=ON >/dev/null
  cmake --build build/sanitize
  echo "(sanitized build done, ${SECONDS} s)"
fi

echo "==> WebAssembly engine"
bash scripts/build-wasm.sh
echo "(WebAssembly engine built, ${SECONDS} s)"

echo "==> page"
npm run --silent build:web
