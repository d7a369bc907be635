// The cycles objective on the contest cases (docs/timing.md): data moved and total cycles of the
// default plan under each objective, against the published cycles; then each technique of the
// cycles objective on its own and added one by one, from the same bytes plan; then the lower
// bounds on total cycles (metrics.cyclesBound) beside what was reached. Every plan is verified
// by the engine (and its timing by the independent verifier) before it is written.
// Usage: node scripts/cycles.mjs [CASES_DIR]   (default ../shared/cases)
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

const work = mkdtempSync(join(tmpdir(), 'spillway-cycles-'));
// `spillway plan FILE ARGS -o OUT`: the result's data moved and cycles.
function plan(file, args) {
  const out = join(work, 'result.json');
  execFileSync(cli, ['plan', file, '-o', out, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const r = JSON.parse(readFileSync(out, 'utf8'));
  return { bytes: r.metrics.extraBytes, cycles: r.metrics.totalCycles, result: r };
}

const techniques = [
  'placement',
  'fit',
  'schedule',
  'hoist',
  'swaps',
  'policies',
  'reserve',
  'orders',
  'search',
  'headroom',
  'stagger',
  'sequence',
  'retime',
];
// Each technique alone, then added one by one (schedule before hoist: hoisting needs it).
const configs = [
  ['bytes plan', []],
  ['placement', ['placement']],
  ['fit', ['fit']],
  ['schedule', ['schedule']],
  ['schedule+hoist', ['schedule', 'hoist']],
  ['policies', ['policies']],
  ['reserve', ['reserve']],
  ['placement+schedule+hoist', ['placement', 'schedule', 'hoist']],
  ['  +fit', ['placement', 'fit', 'schedule', 'hoist']],
  ['  +swaps', ['placement', 'fit', 'schedule', 'hoist', 'swaps']],
  ['  +policies', ['placement', 'fit', 'schedule', 'hoist', 'swaps', 'policies']],
  ['  +reserve', ['placement', 'fit', 'schedule', 'hoist', 'swaps', 'policies', 'reserve']],
  ['  +stagger', ['placement', 'fit', 'schedule', 'hoist', 'swaps', 'policies', 'reserve', 'stagger']],
  ['  +sequence', ['placement', 'fit', 'schedule', 'hoist', 'swaps', 'policies', 'reserve', 'stagger', 'sequence']],
  ['  +retime (all)', techniques],
];
const disableFor = (on) => {
  const off = techniques.filter((t) => !on.includes(t));
  return off.length ? ['--disable', off.join(',')] : [];
};

const objectiveRows = [];
const techniqueRows = [];
for (const [name, target] of Object.entries(published.cases)) {
  if (target.totalCycles === undefined) continue;
  const file = join(casesDir, name);
  if (!existsSync(file)) {
    console.log(`${name}: skipped, ${casesDir} is absent (only our machines and CI have the contest cases)`);
    continue;
  }
  const bytes = plan(file, []);
  const t0 = Date.now();
  const cycles = plan(file, ['--objective', 'cycles']);
  const ms = Date.now() - t0;
  objectiveRows.push({ name, target, bytes, cycles, ms });
  // The techniques from the default plan's own order (given as a file: no search again).
  const orderFile = join(work, 'order.txt');
  writeFileSync(orderFile, bytes.result.inputOrder.join('\n') + '\n');
  const row = { name, cells: [] };
  for (const [, on] of configs) {
    const r = plan(file, ['--order', orderFile, '--objective', 'cycles', ...disableFor(on)]);
    row.cells.push(r);
  }
  techniqueRows.push(row);
}
rmSync(work, { recursive: true, force: true });

const pct = (a, b) =>
  b === 0 ? (a === 0 ? '0%' : '+inf') : `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`;
console.log('default plan (`spillway plan GRAPH`) under each objective (`--objective cycles`): data moved and');
console.log('total cycles (contest cost model, checked by the independent verifier); published: the best');
console.log('cycles any team reported (bench/published.json, their own timing details).');
console.log(
  [
    'case',
    'bytes: extra B',
    'bytes: cycles',
    'cycles: extra B (vs bytes)',
    'cycles: cycles (vs bytes)',
    'published cycles',
    'cycles vs published',
    'cycles ms',
  ].join(' | '),
);
for (const r of objectiveRows)
  console.log(
    [
      r.name,
      r.bytes.bytes,
      r.bytes.cycles,
      `${r.cycles.bytes} (${pct(r.cycles.bytes, r.bytes.bytes)})`,
      `${r.cycles.cycles} (${pct(r.cycles.cycles, r.bytes.cycles)})`,
      r.target.totalCycles,
      pct(r.cycles.cycles, r.target.totalCycles),
      r.ms,
    ].join(' | '),
  );
console.log();
console.log('each technique of --objective cycles on its own, then added one by one, from the default');
console.log("plan's order (`--order FILE --objective cycles --disable ...`): total cycles (data moved where");
console.log("it differs from the bytes plan's).");
console.log(['case', ...configs.map(([label]) => label.trim())].join(' | '));
for (const r of techniqueRows) {
  const base = r.cells[0].bytes;
  console.log(
    [r.name, ...r.cells.map((c) => (c.bytes === base ? `${c.cycles}` : `${c.cycles} (${c.bytes} B)`))].join(' | '),
  );
}
console.log();
console.log('lower bounds on total cycles (docs/timing.md, "How far from possible"; metrics.cyclesBound, what');
console.log("gives each in brackets): any plan of the graph; any plan of the bytes plan's order (it moves at");
console.log("least that order's traffic bound); any order and placement of the bytes plan's spills and of");
console.log("the cycles plan's spills; then the cycles plan and the published figure.");
console.log(
  [
    'case',
    'any plan',
    "bytes plan's order",
    "bytes plan's spills",
    "cycles plan's spills",
    'cycles plan',
    'published cycles',
  ].join(' | '),
);
const boundCell = (b) => `${b.total} (${b.limit})`;
for (const r of objectiveRows) {
  const bytesBound = r.bytes.result.metrics.cyclesBound;
  const cyclesBound = r.cycles.result.metrics.cyclesBound;
  console.log(
    [
      r.name,
      boundCell(bytesBound.graph),
      boundCell(bytesBound.order),
      boundCell(bytesBound.plan),
      boundCell(cyclesBound.plan),
      r.cycles.cycles,
      r.target.totalCycles,
    ].join(' | '),
  );
}
