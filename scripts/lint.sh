#!/usr/bin/env bash
# `npm run lint`, and the first step of `npm test`: every check of the code's form, no build needed.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> TypeScript and JavaScript: lint and format (Biome, biome.json; npx biome check --write fixes the format)"
npx biome check --error-on-warnings

echo "==> no function or closure over 120 lines in web/src (scripts/long-functions.mjs)"
node scripts/long-functions.mjs web/src

cpp_sources() { git ls-files 'core/*.cpp' 'core/*.h' 'cli/*.cpp' 'cli/*.h' 'wasm/*.cpp' 'wasm/*.h'; }

echo "==> C++ format (clang-format, .clang-format; clang-format -i fixes it)"
cpp_sources | xargs clang-format --dry-run -Werror

echo "==> no function over 120 lines in core, cli, wasm (scripts/long-functions.py)"
python3 scripts/long-functions.py

# clang-tidy reads the compile commands of a configured native build (configuring is enough:
# it writes them and the one generated source); the bindings need Emscripten's headers, not here.
echo "==> C++ checks (clang-tidy, .clang-tidy)"
tidy_build=build/lint
cmake -S . -B "$tidy_build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# Quiet on success; on a finding, its report without the "N warnings generated." counts.
if ! tidy=$(git ls-files 'core/*.cpp' 'cli/*.cpp' | xargs -P "$(nproc)" -n 4 clang-tidy -p "$tidy_build" --quiet 2>&1); then
  echo "$tidy" | grep -v 'warnings\? generated\.$'
  exit 1
fi
