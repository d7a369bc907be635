// WebAssembly against native on the same graphs (issue 12: within 1.6x): the default plan of
// generated graphs, CPU seconds of the native CLI's `spillway plan GRAPH -o OUT` (user + system,
// from /usr/bin/time, peak memory beside) and of the bindings' plan() in this Node process
// (process.cpuUsage around the call, the graph text already read), medians of --repeat runs
// alternated; the two results must be byte-identical. The first plan() of each graph is shown
// apart too: V8 runs a function at its baseline tier until its next call, so a long first call
// is slower (docs/benchmarks.md, "WebAssembly against native").
// Usage: node scripts/wasm-ratio.mjs [--repeat N] [--graphs "matmul 24 24 24 --frees-at-end;random 36000"]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'build/native/spillway');
const generated = join(root, 'web/src/engine/generated');
const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '3' },
    graphs: { type: 'string', default: 'matmul 24 24 24 --frees-at-end;random 36000' },
  },
});
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat: expected a positive integer, got "${values.repeat}"`);

const { default: createSpillway } = await import(join(generated, 'spillway.mjs'));
const engine = await createSpillway({ wasmBinary: readFileSync(join(generated, 'spillway.wasm')) });
const work = mkdtempSync(join(tmpdir(), 'spillway-wasm-ratio-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function native(graph, out) {
  // /usr/bin/time writes its line last on stderr; the CLI prints its summary on stdout.
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S %M', cli, 'plan', graph, '-o', out], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`spillway plan ${graph} failed: ${run.stderr}`);
  const [user, system, peakKb] = run.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { cpu: user + system, peakMb: peakKb / 1024 };
}

function wasm(text) {
  const before = process.cpuUsage();
  const result = engine.plan(text, '{}');
  const used = process.cpuUsage(before);
  return { cpu: (used.user + used.system) / 1e6, result };
}

const rows = [];
for (const spec of values.graphs.split(';')) {
  const file = join(work, 'graph.json');
  execFileSync(cli, ['generate', ...spec.trim().split(/\s+/), '-o', file]);
  const text = readFileSync(file, 'utf8');
  const nodes = JSON.parse(text).Nodes.length;
  const out = join(work, 'result.json');
  const nativeCpu = [], wasmCpu = [];
  let peakMb = 0, identical = true, first = null;
  for (let r = 0; r < repeat; ++r) {
    const n = native(file, out);
    nativeCpu.push(n.cpu);
    peakMb = Math.max(peakMb, n.peakMb);
    const w = wasm(text);
    wasmCpu.push(w.cpu);
    first ??= w.cpu;
    identical &&= w.result === readFileSync(out, 'utf8');
  }
  rows.push({ spec, nodes, native: median(nativeCpu), wasm: median(wasmCpu), first, peakMb, identical });
}
rmSync(work, { recursive: true, force: true });

console.log(`WebAssembly (Node ${process.version}) against native, CPU seconds, medians of ${repeat}`);
console.log('| graph | nodes | native | native peak MB | WebAssembly | ratio | WebAssembly, first call | results |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows)
  console.log(`| ${r.spec} | ${r.nodes} | ${r.native.toFixed(2)} | ${r.peakMb.toFixed(0)} | ${r.wasm.toFixed(2)} | ` +
    `${(r.wasm / r.native).toFixed(2)} | ${r.first.toFixed(2)} | ${r.identical ? 'byte-identical' : 'DIFFERENT'} |`);
if (rows.some((r) => !r.identical)) process.exitCode = 1;
