#!/usr/bin/env bash
# `npm start`: set up, build, and serve the playground on localhost.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
port="${PORT:-5173}"
echo
echo "Spillway playground: http://localhost:${port}/"
echo "(Ctrl+C stops it)"
exec npx vite preview --config web/vite.config.ts --host 127.0.0.1 --port "$port" --strictPort
