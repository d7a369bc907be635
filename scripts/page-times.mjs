// The playground's own time on a graph (target: the pipe timeline of Matmul_Case0 on screen
// within a second of the result): Run -> result painted, timeline last, in Debian's Chromium
// (headless) at desktop and phone sizes, and Run -> its first plan on screen (a search's first
// plan, marked as such, on a graph long enough: lib/anytime.ts; the result when none comes); the
// same two from opening the file (its input's change event: reading it, the editor, the run).
// Wall times are medians of --repeat runs in one page, the comparison of the graph ended before
// each (so the engine's worker has the cores); beside them the engine's own time for the result
// (the first plan's call not counted) and what the page computed (its main thread's CPU from a
// trace, the first plan's painting included, and the worker's preparing of the view). The e2e
// tests hold the page's part to a limit; the wall time is for a quiet machine, so quote it with
// the load printed.
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
  watchFirstPlan,
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
/** Opens `file` again (a new document, so a new run): ms from the input's change event until the
 * first plan is on screen (`first`; the result when no first plan came) and the result painted. */
async function openUntilPainted(page, file) {
  await watchFirstPlan(page);
  await page.evaluate(() => {
    window.__openAt = 0;
    document.querySelector('#open-input').value = ''; // as the Open button does: the same file again is a change
    document.addEventListener(
      'change',
      () => {
        window.__openAt = performance.now();
      },
      { once: true, capture: true },
    );
  });
  await page.locator('#open-input').setInputFiles(file);
  return (
    await page.waitForFunction(
      () => {
        const paintedAt = Number(document.querySelector('[data-testid=timeline]').dataset.paintedAt);
        if (
          !window.__openAt ||
          !(paintedAt > window.__openAt) ||
          document.querySelector('[data-testid=progress]').dataset.running === 'true'
        )
          return false;
        return {
          first: Math.round((window.__firstPlanAt || paintedAt) - window.__openAt),
          total: Math.round(paintedAt - window.__openAt),
        };
      },
      null,
      { polling: 5, timeout: 60000 },
    )
  ).jsonValue();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const server = await serveDist();
const { browser, close } = await launch();
try {
  console.log(
    `${path.basename(file)}, ${repeat} runs a size; load per core ${(os.loadavg()[0] / os.cpus().length).toFixed(2)} at the start`,
  );
  console.log(
    '| size | Run -> first plan, ms (min-max) | Run -> painted, ms (min-max) | engine, ms | the page computed, ms | main thread CPU, ms | preparing the view, ms | open file -> first plan, ms | open file -> painted, ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const size of SIZES) {
    const { page, context } = await openPage(browser, server.url, size.opts);
    await waitForResult(page);
    await openGraphFile(page, file);
    const spans = [];
    const opens = [];
    for (let i = 0; i < repeat; i++) {
      await waitForCompare(page);
      spans.push(await runUntilPainted(browser, page));
      await waitForCompare(page);
      opens.push(await openUntilPainted(page, file));
    }
    const col = (k, xs = spans) => median(xs.map((x) => x[k]));
    const range = (k) => `${col(k)} (${Math.min(...spans.map((x) => x[k]))}-${Math.max(...spans.map((x) => x[k]))})`;
    console.log(
      `| ${size.name} | ${range('first')} | ${range('total')} | ${col('engine')} | ${col('page')} | ${col('mainCpu')} | ${col('prepare')} | ${col('first', opens)} | ${col('total', opens)} |`,
    );
    await context.close();
  }
  console.log(`load per core ${(os.loadavg()[0] / os.cpus().length).toFixed(2)} at the end`);
} finally {
  await close();
  await server.close();
}
