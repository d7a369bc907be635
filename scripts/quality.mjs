// Plan quality against the published results (bench/published.json), per contest case:
// - peaks (sub-problem 1, an order with low residency): of the `schedule` order;
// - data moved and cycles (sub-problem 2, spills; the order may be revised): of the default plan.
// Usage: node scripts/quality.mjs [CASES_DIR]   (default ../shared/cases)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = resolve(process.argv[2] ?? join(root, '../shared/cases'));
const cli = join(root, 'build/native/spillway');
const published = JSON.parse(readFileSync(join(root, 'bench/published.json'), 'utf8'));
if (!existsSync(cli)) throw new Error('build the CLI first: npm test, or cmake --build build/native');
if (!existsSync(casesDir)) {
  console.log(`skipped: ${casesDir} is absent (only our machines and CI have the contest cases)`);
  process.exit(0);
}

// Peak over time of the running sum of +Size at ALLOC, -Size at FREE, for the given memories.
function peakOf(graph, order, types) {
  const byId = new Map(graph.Nodes.map((n) => [n.Id, n]));
  let now = 0, peak = 0;
  for (const id of order) {
    const n = byId.get(id);
    if ((n.Op !== 'ALLOC' && n.Op !== 'FREE') || (types && !types.includes(n.Type))) continue;
    now += n.Op === 'ALLOC' ? n.Size : -n.Size;
    peak = Math.max(peak, now);
  }
  return peak;
}

const work = mkdtempSync(join(tmpdir(), 'spillway-quality-'));
const rows = [];
for (const [name, target] of Object.entries(published.cases)) {
  const file = join(casesDir, name);
  const out = join(work, `${name}.result.json`);
  const t0 = process.hrtime.bigint();
  execFileSync(cli, ['plan', file, '--cost', 'contest', '-o', out], { stdio: 'pipe' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const graph = JSON.parse(readFileSync(file, 'utf8'));
  const result = JSON.parse(readFileSync(out, 'utf8'));
  const scheduled = join(work, `${name}.schedule.json`);
  execFileSync(cli, ['plan', file, '--cost', 'contest', '--order', 'schedule', '-o', scheduled], { stdio: 'pipe' });
  const scheduleOrder = JSON.parse(readFileSync(scheduled, 'utf8')).inputOrder;
  const ours = {
    peakL1UB: peakOf(graph, scheduleOrder, ['L1', 'UB']),
    peakAll: peakOf(graph, scheduleOrder, null),
    extraBytes: result.metrics.extraBytes,
    totalCycles: result.metrics.totalCycles,
  };
  rows.push({ name, ours, target, policy: result.planPolicy, order: result.orderSource, ms });
}

const cell = (ours, target) => `${ours} / ${target} ${ours <= target ? 'ok' : `(+${(((ours - target) / target) * 100).toFixed(0)}%)`}`;
console.log('ours / published best; peaks of the order `schedule` (sub-problem 1), data moved and cycles of the');
console.log('default plan (`spillway plan GRAPH --cost contest`: best order, best policy); every plan verified');
console.log(['case', 'peak L1+UB', 'peak all', 'extra data moved', 'total cycles', 'default order/policy', 'ms'].join(' | '));
for (const r of rows)
  console.log([r.name, cell(r.ours.peakL1UB, r.target.peakL1UB), cell(r.ours.peakAll, r.target.peakAll),
    cell(r.ours.extraBytes, r.target.extraBytes), cell(r.ours.totalCycles, r.target.totalCycles),
    `${r.order}/${r.policy}`, r.ms.toFixed(0)].join(' | '));
