// The playground's own time on a graph (target: the pipe timeline of Matmul_Case0 on screen
// within a second of the result): Run -> result painted, timeline last, in Debian's Chromium
// (headless) at desktop and phone sizes. Wall times are medians of --repeat runs in one page, the
// comparison of the graph ended before each (so the engine's worker has the cores); beside them
// the engine's own time and what the page computed (its main thread's CPU from a trace, and the
// worker's preparing of the view). The e2e tests hold the page's part to a limit; the wall time is
// for a quiet machine, so quote it with the load printed.
// Usage: node scripts/page-times.mjs [--repeat N] [GRAPH.json]   (default ../shared/cases/Matmul_Case0.json)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CASES,
  SIZES,
  serveDist,
  launch,
  openPage,
  waitForResult,
  openGraphFile,
  waitForCompare,
  runUntilPainted,
} from '../tests/e2e/helpers.mjs';

const { values, positionals } = parseArgs({
  options: { repeat: { type: 'string', default: '5' } },
  allowPositionals: true,
});
const file = positionals[0] ?? path.join(CASES, 'Matmul_Case0.json');
if (!fs.existsSync(file)) {
  console.log(`(page times skipped: ${file} is absent)`);
  process.exit(0);
}
const repeat = Math.max(1, Number(values.repeat) || 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const server = await serveDist();
const { browser, close } = await launch();
try {
  console.log(
    `${path.basename(file)}, ${repeat} runs a size; load per core ${(os.loadavg()[0] / os.cpus().length).toFixed(2)} at the start`,
  );
  console.log(
    '| size | Run -> painted, ms (min-max) | engine, ms | the page computed, ms | main thread CPU, ms | preparing the view, ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const size of SIZES) {
    const { page, context } = await openPage(browser, server.url, size.opts);
    await waitForResult(page);
    await openGraphFile(page, file);
    const spans = [];
    for (let i = 0; i < repeat; i++) {
      await waitForCompare(page);
      spans.push(await runUntilPainted(browser, page));
    }
    const col = (k) => median(spans.map((x) => x[k]));
    const totals = spans.map((x) => x.total);
    console.log(
      `| ${size.name} | ${col('total')} (${Math.min(...totals)}-${Math.max(...totals)}) | ${col('engine')} | ${col('page')} | ${col('mainCpu')} | ${col('prepare')} |`,
    );
    await context.close();
  }
  console.log(`load per core ${(os.loadavg()[0] / os.cpus().length).toFixed(2)} at the end`);
} finally {
  await close();
  await server.close();
}
