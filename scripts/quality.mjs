// Plan quality against the published results (bench/published.json), per contest case and per
// generated look-alike of the held-back Case1 graphs:
// - data moved by the default plan (`spillway plan GRAPH`: order best, policy best), against the
//   best plan of a team that kept the rules and the award paper's figure, with the lower bound
//   for the plan's order (no plan of that order moves less) and the default plan's time;
// - peaks (sub-problem 1) of the `min-peak` order, all memories and L1+UB.
// Every plan is verified by the engine before it is written.
// Usage: node scripts/quality.mjs [CASES_DIR]   (default ../shared/cases)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = resolve(process.argv[2] ?? join(root, '../shared/cases'));
const cli = join(root, 'build/native/spillway');
const published = JSON.parse(readFileSync(join(root, 'bench/published.json'), 'utf8'));
if (!existsSync(cli)) throw new Error('build the CLI first: npm test, or cmake --build build/native');

// Peak over time of the running sum of +Size at ALLOC, -Size at FREE, for the given memories.
function peakOf(graph, order, types) {
  const byId = new Map(graph.Nodes.map((n) => [n.Id, n]));
  let now = 0,
    peak = 0;
  for (const id of order) {
    const n = byId.get(id);
    if ((n.Op !== 'ALLOC' && n.Op !== 'FREE') || (types && !types.includes(n.Type))) continue;
    now += n.Op === 'ALLOC' ? n.Size : -n.Size;
    peak = Math.max(peak, now);
  }
  return peak;
}

// Runs `spillway plan` and returns the result JSON and the time it printed (parse to verified plan).
function plan(file, args, out) {
  const stdout = execFileSync(cli, ['plan', file, '-o', out, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { result: JSON.parse(readFileSync(out, 'utf8')), ms: Number(/^time: ([\d.]+) ms$/m.exec(stdout)[1]) };
}

const work = mkdtempSync(join(tmpdir(), 'spillway-quality-'));
const rows = [];
for (const [name, target] of Object.entries(published.cases)) {
  let file = join(casesDir, name);
  if (target.generate) {
    file = join(work, name.replace(/\W+/g, '_') + '.json');
    writeFileSync(file, execFileSync(cli, ['generate', ...target.generate], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  } else if (!existsSync(file)) {
    console.log(`${name}: skipped, ${casesDir} is absent (only our machines and CI have the contest cases)`);
    continue;
  }
  const graph = JSON.parse(readFileSync(file, 'utf8'));
  const { result, ms } = plan(file, ['--cost', 'contest'], join(work, 'default.json'));
  const minPeak = plan(file, ['--order', 'min-peak'], join(work, 'min-peak.json')).result.inputOrder;
  rows.push({
    name,
    target,
    ms,
    nodes: graph.Nodes.length,
    extraBytes: result.metrics.extraBytes,
    bound: result.metrics.bound.total,
    order: result.orderSource,
    policy: result.planPolicy,
    peakL1UB: peakOf(graph, minPeak, ['L1', 'UB']),
    peakAll: peakOf(graph, minPeak, null),
  });
}
rmSync(work, { recursive: true, force: true });

const versus = (ours, theirs) =>
  theirs === undefined
    ? `${ours}`
    : `${ours} / ${theirs} ${ours < theirs ? 'below' : ours === theirs ? 'equal' : `(+${(((ours - theirs) / theirs) * 100).toFixed(1)}%)`}`;
console.log('default plan (`spillway plan GRAPH`): data moved against the best published plan that kept the rules,');
console.log('the award paper (breaks the rules), and the lower bound for our order; peaks of `--order min-peak`');
console.log('(ours / published). Every plan verified. Case1 rows plan generated look-alikes (other graphs).');
console.log(
  [
    'case',
    'nodes',
    'data moved: ours / rules kept',
    'award',
    'bound (our order)',
    'min-peak L1+UB',
    'min-peak all',
    'order/policy',
    'plan ms',
  ].join(' | '),
);
for (const r of rows)
  console.log(
    [
      r.name,
      r.nodes,
      versus(r.extraBytes, r.target.extraBytes),
      r.target.awardBytes ?? '-',
      r.bound,
      versus(r.peakL1UB, r.target.peakL1UB),
      versus(r.peakAll, r.target.peakAll),
      `${r.order}/${r.policy}`,
      r.ms.toFixed(0),
    ].join(' | '),
  );
