// Not part of the suite: takes docs/screenshot.png of the page with a result.
// Usage: node tests/e2e/screenshot.mjs [graph.json] [--dark] [--out file.png]
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, CASES, serveDist, launch, openPage, waitForResult } from './helpers.mjs';

const args = process.argv.slice(2);
const dark = args.includes('--dark');
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? args[outIdx + 1] : path.join(ROOT, 'docs/screenshot.png');
const graphArg = args.find((a, i) => a.endsWith('.json') && args[i - 1] !== '--out');
const graph = graphArg ?? path.join(CASES, 'FlashAttention_Case0.json');

const server = await serveDist();
const { browser, close } = await launch();
try {
  const { page } = await openPage(browser, server.url, { colorScheme: dark ? 'dark' : 'light', deviceScaleFactor: 1, viewport: { width: 1440, height: 1560 } });
  await waitForResult(page);
  if (fs.existsSync(graph)) {
    await page.locator('#open-input').setInputFiles(graph);
    await page.waitForFunction(() => (window.spillway?.result()?.order.length ?? 0) > 1000, null, { timeout: 20000 });
  }
  await page.waitForTimeout(300);
  // pick the first spill so the decision view shows something
  const firstSpill = page.locator('[data-testid=spill-table] .vt-row').first();
  if (await firstSpill.count()) await firstSpill.click();
  await page.evaluate(() => document.querySelector('#results').scrollTo(0, 0));
  await page.evaluate(() => document.querySelector('[data-testid=notice] .icon-btn')?.click());
  await page.waitForTimeout(200);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
  if (page.errors.length) console.log('page errors:', page.errors);
} finally {
  await close();
  await server.close();
}
