#!/usr/bin/env bash
# `npm run bench`: speed (median of each stage) and plan quality (against published results, with
# the lower bound of each plan's order). Figures are medians of repeated runs in one process;
# quote them with the machine's load.
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
build/native/spillway generate matmul m=16 n=16 k=16 > "$work/matmul-16x16x16.json"
echo "== speed: default options (order best: schedule, reuse and search; policy best: every policy)"
build/native/spillway bench "${graphs[@]}" "$work/matmul-16x16x16.json" --repeat 3
echo
echo "== speed: policy seed on ascending id (the seed's setting)"
build/native/spillway bench "${graphs[@]}" --policy seed --order id
echo
echo "== quality"
node scripts/quality.mjs
rm -rf "$work"
