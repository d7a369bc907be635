#!/usr/bin/env bash
# `npm run bench`: speed (median of each stage) and plan quality (against published results, with
# the lower bound of each plan's order). Figures are medians of repeated runs in one process;
# quote them with the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/native/spillway ] && [ -f web/src/engine/generated/spillway.wasm ] || bash scripts/setup.sh
cases=../shared/cases
graphs=()
[ -d "$cases" ] && graphs=("$cases"/*.json)
work=$(mktemp -d)
for e in tiled-matmul flash-attention-like conv-like; do
  build/native/spillway example "$e" > "$work/$e.json"
  graphs+=("$work/$e.json")
done
build/native/spillway generate matmul 16 16 16 --frees-at-end > "$work/matmul-16x16x16.json"
echo "== speed: default options (order best: schedule, reuse and search; policy best: every policy)"
build/native/spillway bench "${graphs[@]}" "$work/matmul-16x16x16.json" --repeat 3
echo
echo "== speed: policy seed on ascending id (the seed's setting)"
build/native/spillway bench "${graphs[@]}" --policy seed --order id
echo
echo "== scale: the default plan of generated graphs of 10^4, 10^5 and 10^6 nodes, CPU seconds per"
echo "   stage (the order once; parse and the stages after the plan the mean of runs adding up to
   0.05 s) and each stage's fitted growth exponent (target: each <= 1.15,"
echo "   whole run < 10 s; peak memory: /usr/bin/time around the 10^6 run)"
for kind in matmul random; do
  /usr/bin/time -f "peak memory %M KB" build/native/spillway scale "$kind"
done
echo
echo "== a million nodes, the whole CLI run: spillway plan GRAPH -o RESULT with default options, from"
echo "   the graph's file (target: under 10 s of CPU and 800 MB); CPU = user + system, /usr/bin/time"
build/native/spillway generate matmul 52 52 52 --frees-at-end -o "$work/matmul-1m.json"
build/native/spillway generate random 357142 -o "$work/random-1m.json"
printf '%-10s %9s %8s %8s %8s %8s %9s\n' graph nodes "CPU s" "wall s" "peak MB" spills verified
for g in matmul-1m random-1m; do
  summary=$(/usr/bin/time -o "$work/time.txt" -f "%U %S %e %M" build/native/spillway plan "$work/$g.json" -o "$work/$g.result.json")
  nodes=$(sed -nE 's/^graph: .* \(([0-9]+) nodes.*/\1/p' <<< "$summary")
  spills=$(sed -nE 's/^spills: ([0-9]+).*/\1/p' <<< "$summary")
  verified=$(sed -nE 's/^verified: ([a-z]+).*/\1/p' <<< "$summary")
  awk -v g="$g" -v n="$nodes" -v s="$spills" -v v="$verified" \
    '{ printf "%-10s %9s %8.2f %8.2f %8d %8s %9s\n", g, n, $1 + $2, $3, $4 / 1024, s, v }' "$work/time.txt"
  rm -f "$work/$g.json" "$work/$g.result.json"
done
echo
echo "== WebAssembly against native: the default plan, CPU seconds (target: within 1.6x), results byte-identical;
   in Node, then in a module Worker of headless Chromium (the page's way)"
node scripts/wasm-ratio.mjs --repeat 3
if [ -x /usr/bin/chromium ]; then
  node scripts/wasm-ratio.mjs --browser --repeat 3
else
  echo "(Chromium's worker skipped: /usr/bin/chromium is missing; bash scripts/setup.sh --test installs it)"
fi
echo
echo "== the page: Run -> result painted, pipe timeline last (target: within a second of the result)"
if [ -x /usr/bin/chromium ]; then
  node scripts/page-times.mjs --repeat 5
else
  echo "(skipped: /usr/bin/chromium is missing; bash scripts/setup.sh --test installs it)"
fi
echo
echo "== quality"
node scripts/quality.mjs
echo
echo "== cycles: the cycles objective against the bytes plan and the published figures (docs/timing.md)"
node scripts/cycles.mjs
echo
echo "== policy lifetime: orders on which it fell back to seed (spillway compare, every order)"
for g in "${graphs[@]}"; do
  build/native/spillway compare "$g" --json - | node -e '
    let text = "";
    process.stdin.on("data", (d) => (text += d)).on("end", () => {
      const rows = JSON.parse(text).filter((r) => r.policy === "lifetime");
      const fell = rows.filter((r) => r.planPolicy !== "lifetime").map((r) => r.order);
      console.log(`${process.argv[1]}: ${fell.length} of ${rows.length}${fell.length ? " (" + fell.join(", ") + ")" : ""}`);
    });' "$(basename "$g")"
done
echo
echo "== exact packing: generated instances like minimalloc's \"challenging\" ones (capacity 1048576, a"
echo "   packing known to exist), CPU ms each and how many pack within 10 CPU seconds (target: >= 95%),"
echo "   then policy lifetime on each as a graph with a fixed order (figures: docs/packing.md)."
echo "   cut (rectangle cuts): 100 instances; measured (calibrated to their statistics): 20, since"
echo "   nearly every one runs out of its budget (about 10 s each)"
build/native/spillway pack-bench --budget 1000000 --family cut
build/native/spillway pack-bench --budget 1000000 --family measured --instances 20
echo
echo "== exact packing: minimalloc's own 11 challenging instances (bench/minimalloc-challenging)"
build/native/spillway pack-bench bench/minimalloc-challenging/*.csv
rm -rf "$work"
