#!/usr/bin/env bash
# Builds the engine as an ES6 WebAssembly module (Debian's Emscripten) and hands it to the page.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's em++ needs Debian's acorn with this Node
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm
mkdir -p web/src/engine/generated
cp build/wasm/spillway.mjs build/wasm/spillway.wasm web/src/engine/generated/
