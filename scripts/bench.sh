#!/usr/bin/env bash
# `npm run bench`: speed (median of each stage) and plan quality (against published results).
# Figures are medians of repeated runs in one process; quote them with the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/native/spillway ] || bash scripts/setup.sh
cases=../shared/cases
graphs=()
[ -d "$cases" ] && graphs=("$cases"/*.json)
work=$(mktemp -d)
for e in tiled-matmul flash-attention-like conv-like; do
  build/native/spillway example "$e" > "$work/$e.json"
  graphs+=("$work/$e.json")
done
echo "== speed: default options (order best: schedule and reuse; policy best: lifetime and seed)"
build/native/spillway bench "${graphs[@]}"
echo
echo "== speed: policy seed on ascending id (the seed's setting)"
build/native/spillway bench "${graphs[@]}" --policy seed --order id
echo
echo "== quality"
node scripts/quality.mjs
rm -rf "$work"
