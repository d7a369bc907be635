// WebAssembly against native on the same graphs (target: within 1.6x): the default plan of
// generated graphs, CPU seconds of the native CLI's `spillway plan GRAPH -o OUT` (user + system,
// from /usr/bin/time, peak memory beside) and of the bindings' plan() (the CPU time of the thread
// that runs it, from /proc: V8's background compiles on other threads are not counted; wall time
// beside), medians of --repeat runs alternated; the two results must be byte-identical.
// The first call's CPU of all the engine's process's threads is shown too: V8 compiles its
// optimised code on other threads meanwhile (in Chromium the renderer's other threads count too).
// Each graph gets a fresh engine (in Chromium a fresh browser), and its first plan() is shown
// apart: V8 runs a function at its baseline tier until its next call, so a long first call is
// slower (docs/benchmarks.md, "WebAssembly against native").
// --browser also times each graph's plan() as the playground first makes it (medians of --repeat
// fresh browsers): after the page's start, which plans its first example (web/src/main.ts) in the
// engine's worker and compares it in a second worker.
//   Node:     plan() in a child Node process, the graph's text already read.
//   --browser: plan() in a module Worker of a page in Debian's Chromium (headless), as the
//             playground's engine runs it: the module fetched and compiled by the browser, the
//             graph's text posted to the worker beforehand; the worker's thread is found by its
//             name in the renderer's /proc entry.
// Usage: node scripts/wasm-ratio.mjs [--browser] [--repeat N] [--graphs "matmul 24 24 24 --frees-at-end;random 36000"]
//        [--module DIR]   (spillway.mjs and spillway.wasm from DIR: another build to compare)
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'build/native/spillway');
const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '3' },
    graphs: { type: 'string', default: 'matmul 24 24 24 --frees-at-end;random 36000' },
    browser: { type: 'boolean', default: false },
    module: { type: 'string', default: join(root, 'web/src/engine/generated') },
    'engine-of': { type: 'string' },
  },
});
const repeat = Number(values.repeat);
const generated = resolve(values.module);
if (!Number.isInteger(repeat) || repeat < 1)
  throw new Error(`--repeat: expected a positive integer, got "${values.repeat}"`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** Seconds a thread has run (its schedstat's first field, in nanoseconds). */
const threadCpu = (pid, tid) => Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
/** Seconds all threads of a process have run (utime + stime of its stat, in ticks of 1/100 s). */
const processCpu = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

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

/** The engine in a fresh Node process (V8 shares a module's compiled code within a process). */
async function nodeEngine(file) {
  const child = fork(fileURLToPath(import.meta.url), ['--engine-of', file, '--module', generated]);
  const reply = () => new Promise((r) => child.once('message', r));
  await reply();
  return {
    plan() {
      child.send('plan');
      return reply();
    },
    close() {
      child.disconnect();
    },
  };
}

/** The child's side: plan() of the graph on each request, timed on the thread that runs it. */
async function serveEngine(file) {
  const text = readFileSync(file, 'utf8');
  const { default: createSpillway } = await import(join(generated, 'spillway.mjs'));
  const engine = await createSpillway({ wasmBinary: readFileSync(join(generated, 'spillway.wasm')) });
  process.on('message', () => {
    const cpu0 = threadCpu(process.pid, process.pid),
      all0 = processCpu(process.pid);
    const t0 = performance.now();
    const result = engine.plan(text, '{}');
    const wall = (performance.now() - t0) / 1000;
    const cpu = threadCpu(process.pid, process.pid) - cpu0;
    process.send({ cpu, all: processCpu(process.pid) - all0, wall, hash: sha256(result) });
  });
  process.send('ready');
}

// The browser's side: a page that starts a module Worker, which loads the module as the
// playground's worker does (web/src/engine/worker.ts) and runs plan() on the graph it was sent.
const BROWSER_FILES = {
  '/': [
    'text/html',
    '<!doctype html><script type="module">window.worker = new Worker("./worker.mjs", { type: "module" });</script>',
  ],
  '/worker.mjs': [
    'text/javascript',
    `
import createSpillway from './spillway.mjs';
const engine = createSpillway({ locateFile: () => new URL('./spillway.wasm', import.meta.url).href });
let graph = '', result = '';
self.onmessage = async ({ data }) => {
  const m = await engine;
  if (data.graph !== undefined) {
    graph = data.graph;
    self.postMessage({});
  } else if (data.start) {
    // the page's start (web/src/main.ts): the engine's registries, then its first example planned
    m.version(); m.policies(); m.orders(); m.examples();
    const t0 = performance.now();
    m.planWithProgress(m.example(data.start), '{}', () => true);
    self.postMessage({ ms: performance.now() - t0 });
  } else if (data.compare) {
    // the page's compare worker (web/src/app/runner.ts): every policy on every order, after the plan
    const t0 = performance.now();
    m.compare(m.example(data.compare), '{}');
    self.postMessage({ ms: performance.now() - t0 });
  } else if (data.plan) {
    const t0 = performance.now();
    result = m.plan(graph, '{}');
    self.postMessage({ ms: performance.now() - t0 });
  } else {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(result)));
    self.postMessage({ hash: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') });
  }
};`,
  ],
  '/spillway.mjs': ['text/javascript', () => readFileSync(join(generated, 'spillway.mjs'))],
  '/spillway.wasm': ['application/wasm', () => readFileSync(join(generated, 'spillway.wasm'))],
};

/** Threads (pid, tid) named `name` in the processes descended from `ancestor`. */
function threadsNamed(ancestor, name) {
  const parent = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      // the field after the parenthesised name: state, then the parent's pid
      parent.set(
        pid,
        readFileSync(`/proc/${pid}/stat`, 'utf8')
          .replace(/^.*\) /, '')
          .split(' ')[1],
      );
    } catch {
      /* the process ended meanwhile */
    }
  }
  const descends = (pid) => {
    for (let p = pid; p && p !== '0'; p = parent.get(p)) if (p === String(ancestor)) return true;
    return false;
  };
  const found = [];
  for (const pid of parent.keys()) {
    if (!descends(pid)) continue;
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`))
        if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === name) found.push({ pid, tid });
    } catch {
      /* the process ended meanwhile */
    }
  }
  return found;
}

/** The example the playground plans when it starts (web/src/main.ts, FIRST_EXAMPLE). */
function pageStartExample() {
  const name = /const FIRST_EXAMPLE = '([^']+)'/.exec(readFileSync(join(root, 'web/src/main.ts'), 'utf8'))?.[1];
  if (!name) throw new Error('web/src/main.ts: no FIRST_EXAMPLE, the example the page plans first');
  return name;
}

/** The engine in a module Worker of a fresh headless Chromium. With `startExample`, what the
 * playground does when it starts comes first: the engine's worker plans that example, then a
 * second worker (the page's compare worker) compares it; `start` holds their wall times. */
async function browserEngine(text, startExample) {
  const { chromium } = await import('playwright-core');
  const files = http.createServer((req, res) => {
    const file = BROWSER_FILES[new URL(req.url, 'http://x').pathname];
    if (!file) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': file[0] });
    res.end(typeof file[1] === 'function' ? file[1]() : file[1]);
  });
  await new Promise((r) => files.listen(0, '127.0.0.1', r));
  // a server, not launch(): its process() is where the worker's thread is looked for
  const chromiumServer = await chromium.launchServer({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const browser = await chromium.connect(chromiumServer.wsEndpoint());
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${files.address().port}/`);
  await page.evaluate(() => {
    window.call = (message, worker = window.worker) =>
      new Promise((r) => {
        worker.onmessage = (e) => r(e.data);
        worker.postMessage(message);
      });
  });
  await page.evaluate((graph) => window.call({ graph }), text);
  // Chromium names a dedicated worker's thread "DedicatedWorker thread" (15 characters kept).
  const threads = threadsNamed(chromiumServer.process().pid, 'DedicatedWorker');
  if (threads.length !== 1) throw new Error(`expected one worker thread in Chromium, found ${threads.length}`);
  const [{ pid, tid }] = threads;
  const start = !startExample
    ? null
    : await page.evaluate(async (name) => {
        const plan = await window.call({ start: name });
        const compare = await window.call({ compare: name }, new Worker('./worker.mjs', { type: 'module' }));
        return { plan: plan.ms / 1000, compare: compare.ms / 1000 };
      }, startExample);
  return {
    start,
    async plan() {
      const cpu0 = threadCpu(pid, tid),
        all0 = processCpu(pid);
      const { ms } = await page.evaluate(() => window.call({ plan: true }));
      const cpu = threadCpu(pid, tid) - cpu0,
        all = processCpu(pid) - all0;
      const { hash } = await page.evaluate(() => window.call({ hash: true }));
      return { cpu, all, wall: ms / 1000, hash };
    },
    async close() {
      await browser.close();
      await chromiumServer.close();
      await new Promise((r) => files.close(r));
    },
  };
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
async function main() {
  const work = mkdtempSync(join(tmpdir(), 'spillway-wasm-ratio-'));
  const loadBefore = load();
  const rows = [];
  const startExample = values.browser ? pageStartExample() : '';
  for (const spec of values.graphs.split(';')) {
    const file = join(work, 'graph.json');
    execFileSync(cli, ['generate', ...spec.trim().split(/\s+/), '-o', file]);
    const text = readFileSync(file, 'utf8');
    const nodes = JSON.parse(text).Nodes.length;
    const out = join(work, 'result.json');
    const engine = await (values.browser ? browserEngine(text) : nodeEngine(file));
    const nativeCpu = [],
      wasmCpu = [],
      wasmWall = [];
    let peakMb = 0,
      identical = true,
      first = null;
    for (let r = 0; r < repeat; ++r) {
      const n = native(file, out);
      nativeCpu.push(n.cpu);
      peakMb = Math.max(peakMb, n.peakMb);
      const w = await engine.plan();
      if (first) {
        wasmCpu.push(w.cpu);
        wasmWall.push(w.wall);
      } else {
        first = w;
        --r; // the first call is not one of the warm runs
      }
      identical &&= w.hash === sha256(readFileSync(out));
    }
    await engine.close();
    // In the playground a user's graph is never the engine's first call: the page has planned
    // (and compared) its start example. That call, in a fresh browser each time.
    const afterStart = [];
    for (let r = 0; values.browser && r < repeat; ++r) {
      const started = await browserEngine(text, startExample);
      afterStart.push({ ...(await started.plan()), start: started.start });
      await started.close();
      identical &&= afterStart.at(-1).hash === sha256(readFileSync(out));
    }
    rows.push({
      spec,
      nodes,
      native: median(nativeCpu),
      wasm: median(wasmCpu),
      wall: median(wasmWall),
      first,
      afterStart,
      peakMb,
      identical,
    });
  }
  rmSync(work, { recursive: true, force: true });

  const where = values.browser
    ? `Chromium's module Worker (${execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()})`
    : `Node ${process.version}`;
  console.log(
    `WebAssembly in ${where} against native, CPU seconds, medians of ${repeat} warm calls alternated with native runs; load ${loadBefore} -> ${load()}`,
  );
  // --browser adds the graph's call after the page's start (medians of --repeat fresh browsers)
  const of = (calls, key) => median(calls.map((c) => c[key]));
  const startHeads = values.browser
    ? ` after "${startExample}" planned and compared (wall; all threads) | its ratio |`
    : '';
  console.log(
    `| graph | nodes | native | native peak MB | WebAssembly (wall) | ratio | first call (wall; all threads) |${startHeads} results |`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|---:|${values.browser ? '---:|---:|' : ''}---|`);
  for (const r of rows) {
    const afterStart = values.browser
      ? ` ${of(r.afterStart, 'cpu').toFixed(2)} (${of(r.afterStart, 'wall').toFixed(2)}; ${of(r.afterStart, 'all').toFixed(2)}) | ${(of(r.afterStart, 'cpu') / r.native).toFixed(2)} |`
      : '';
    console.log(
      `| ${r.spec} | ${r.nodes} | ${r.native.toFixed(2)} | ${r.peakMb.toFixed(0)} | ${r.wasm.toFixed(2)} (${r.wall.toFixed(2)}) | ` +
        `${(r.wasm / r.native).toFixed(2)} | ${r.first.cpu.toFixed(2)} (${r.first.wall.toFixed(2)}; ${r.first.all.toFixed(2)}) |${afterStart} ${r.identical ? 'byte-identical' : 'DIFFERENT'} |`,
    );
  }
  if (values.browser) {
    const starts = rows.flatMap((r) => r.afterStart.map((c) => c.start));
    console.log(
      `The page's start before those calls, wall s: "${startExample}" planned ${starts.map((s) => s.plan.toFixed(2)).join(', ')}; ` +
        `compared in a second worker ${starts.map((s) => s.compare.toFixed(2)).join(', ')}.`,
    );
  }
  if (rows.some((r) => !r.identical)) process.exitCode = 1;
}

if (values['engine-of']) await serveEngine(values['engine-of']);
else await main();
