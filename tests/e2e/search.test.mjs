// The order search in the playground, against the native CLI on the same graph: the lower bound
// beside every plan (and in the compare table), the effort setting (the CLI's `--effort N` gives
// the same bytes), anytime progress with a Cancel that keeps a verified plan of a smaller effort,
// and the effort in links and stored settings, a contest case's first plan before its search's. Desktop and phone
// (390×844).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import lz from 'lz-string';
import { usePlayground, SIZES, scratch, CLI, cliPlan, openPage, waitForResult, waitForFresh, waitForNewResult, text, num, resultText, graphText, pasteGraph, selectExample, storedState, engineModule, sharedCaseOrSkip, waitForCompare } from './helpers.mjs';

const pg = usePlayground();
const tmp = scratch();

// A tiled matmul whose L1 is too small: the order search makes the default order in ~0.1 s.
// Made by the CLI, with the capacities in the graph (the page and the CLI both take them).
execFileSync(CLI, ['generate', 'matmul', '4', '4', '4', '-o', path.join(tmp, 'm444.json')]);
const matmul = JSON.stringify({
  ...JSON.parse(fs.readFileSync(path.join(tmp, 'm444.json'), 'utf8')),
  Capacities: { L1: 1024, UB: 1024, L0A: 256, L0B: 256, L0C: 512 },
}, null, 1);

const fmt = (n) => n.toLocaleString('en-US');

/** Two result texts are the same bytes (a failure names where they differ, not both megabytes). */
function sameBytes(got, want, what) {
  if (got === want) return;
  let i = 0;
  while (i < Math.min(got.length, want.length) && got[i] === want[i]) i++;
  assert.fail(`${what}: they differ at character ${i}: …${got.slice(Math.max(0, i - 60), i + 60)}… instead of …${want.slice(Math.max(0, i - 60), i + 60)}…`);
}

/** Pastes a graph, runs it, and waits for its plan. */
async function planGraph(page, graph) {
  const before = await resultText(page);
  await pasteGraph(page, graph);
  await page.locator('[data-testid=run]').click();
  await waitForNewResult(page, before);
  await waitForFresh(page);
}

/** The CLI's summary line of the bound: [bound, "at the bound: …" | "within X% of it"]. */
function cliBound(graph, args = []) {
  const g = path.join(tmp, `s-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(g, graph);
  const out = execFileSync(CLI, ['plan', g, ...args], { encoding: 'utf8' });
  const m = out.match(/^lower bound for this order: (\d+) bytes \(the plan is (.*)\)$/m);
  assert.ok(m, out);
  return [Number(m[1]), m[2]];
}

/** Chooses an effort in the settings: a named choice, or a number typed in its field. */
async function chooseEffort(page, effort) {
  const select = page.locator('[data-testid=effort]');
  if (typeof effort === 'string') return select.selectOption(effort);
  await select.selectOption('number');
  await page.locator('[data-testid=effort-number]').fill(String(effort));
}

/** Re-verifies a result file with the CLI (exit 0: the plan and every claim hold). */
function cliVerify(graph, result) {
  const g = path.join(tmp, `v-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(g, graph);
  fs.writeFileSync(`${g}.result`, result);
  return execFileSync(CLI, ['verify', g, `${g}.result`], { encoding: 'utf8' });
}

for (const size of SIZES) {
  test(`the summary puts the plan beside the lower bound of its order, as the CLI does (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await planGraph(page, matmul);
    const r = JSON.parse(await resultText(page));
    assert.ok(r.search, 'the search made this order');
    assert.equal(await num(page, 'bound'), r.metrics.bound.total);
    for (const [type, bytes] of Object.entries(r.metrics.bound.byType))
      assert.equal(await text(page, `bound-${type}`), `${type} ${fmt(bytes)} B`);
    const [bound, said] = cliBound(matmul);
    assert.equal(bound, r.metrics.bound.total);
    assert.equal(said, 'at the bound: optimal for this order');
    assert.equal(await text(page, 'bound-gap'), `The plan is ${said}`);
    assert.equal(await text(page, 'search-info'), `Order search: ${fmt(r.search.evaluations)} evaluations (effort ${fmt(r.search.effort)}), from ${r.search.start}`);
    // per memory: the details row opens
    await page.locator('[data-testid=bound-details] summary').click();
    assert.ok(await page.locator(`[data-testid=bound-L1]`).isVisible());

    // the compare table's bound column: the CLI's compare rows
    const table = page.locator('[data-testid=compare-table]:not(.stale)');
    await table.waitFor({ timeout: 30000 });
    const g = path.join(tmp, 'compare.json');
    fs.writeFileSync(g, matmul);
    const rows = JSON.parse(execFileSync(CLI, ['compare', g, '--json', '-'], { encoding: 'utf8' }));
    assert.equal(await table.locator('[data-testid=compare-row]').count(), rows.length);
    for (const row of rows) {
      const cell = table.locator(`[data-testid=compare-row][data-policy="${row.policy}"][data-order="${row.order}"] td[data-col=bound]`);
      assert.equal(Number((await cell.textContent()).replace(/,/g, '')), row.bound.total, `${row.policy} on ${row.order}`);
    }

    // a plan above its bound: the same percentage as the CLI's (the schedule order: no search)
    const before = await resultText(page);
    await page.locator('[data-testid=order-source]').selectOption('schedule');
    await waitForNewResult(page, before);
    await selectExample(page, 'conv-like');
    const conv = await graphText(page);
    const r2 = JSON.parse(await resultText(page));
    const [bound2, said2] = cliBound(conv, ['--order', 'schedule']);
    assert.equal(bound2, r2.metrics.bound.total);
    assert.equal(await num(page, 'bound'), bound2);
    const pct = said2.match(/^within ([\d.]+)% of it$/)[1];
    assert.ok(r2.metrics.extraBytes > bound2);
    assert.equal(await text(page, 'bound-gap'), `The plan is within ${pct}% of the lower bound for this order`);
    assert.equal(await page.locator('[data-testid=search-info]').count(), 0, 'no search made this order');
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`an effort chosen in the settings gives the CLI's plan with that effort, and travels in a link (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await planGraph(page, matmul);
    sameBytes(await resultText(page), (await cliPlan(tmp, matmul)).text, 'the default effort: the CLI without --effort');
    for (const [effort, n] of [['quick', 100], [300, 300]]) {
      const before = await resultText(page);
      await chooseEffort(page, effort);
      await waitForNewResult(page, before);
      await waitForFresh(page);
      const got = await resultText(page);
      assert.equal(JSON.parse(got).search.effort, n);
      sameBytes(got, (await cliPlan(tmp, matmul, ['--effort', String(n)])).text, `effort ${effort}: the CLI's bytes`);
    }
    // a typed number that is not one: named, Run refuses, the last plan stays
    await page.locator('[data-testid=effort-number]').fill('12x');
    await page.locator('[data-testid=settings-errors]').filter({ hasText: /The effort field: "12x" is not a whole number from 0 to 100,000,000/ }).waitFor();
    await page.locator('[data-testid=effort-number]').fill('300');
    await page.locator('[data-testid=settings-errors]').filter({ hasText: /effort/ }).waitFor({ state: 'detached' }).catch(() => {});
    assert.equal(JSON.parse((await storedState(page))['spillway.settings']).effort, 300, 'stored like the other settings');
    const want = await resultText(page);

    await page.locator('[data-testid=share]').click();
    const url = await page.locator('[data-testid=share-url]').inputValue();
    const c = JSON.parse(lz.decompressFromEncodedURIComponent(url.slice(url.indexOf('#case=') + 6)));
    assert.equal(c.v, 8);
    assert.equal(c.settings.effort, 300);
    await context.close();

    const fresh = await openPage(pg.browser, url, size.opts);
    await fresh.page.waitForFunction((w) => window.spillway.resultText() === w, want, { timeout: 60000 });
    assert.equal(await fresh.page.locator('[data-testid=effort]').inputValue(), 'number');
    assert.equal(await fresh.page.locator('[data-testid=effort-number]').inputValue(), '300');
    // a reload keeps it (stored settings)
    await fresh.page.reload();
    await waitForResult(fresh.page);
    await waitForFresh(fresh.page);
    assert.equal(await fresh.page.locator('[data-testid=effort-number]').inputValue(), '300');
    sameBytes(await resultText(fresh.page), want, 'after a reload');

    // an older (v3) link has no effort: it opens with the engine's default, as it was made
    const v3 = lz.compressToEncodedURIComponent(JSON.stringify({ v: 3, graph: matmul, settings: { ...c.settings, effort: undefined } }));
    await fresh.page.goto(`${pg.url}#case=${v3}`);
    await fresh.page.waitForFunction(() => document.querySelector('[data-testid=effort]')?.value === '');
    await waitForFresh(fresh.page);
    sameBytes(await resultText(fresh.page), (await cliPlan(tmp, matmul)).text, 'a v3 link: the default effort');
    assert.deepEqual(fresh.page.errors, []);
    await fresh.context.close();
  });

  test(`a long search shows its progress; Cancel keeps the best plan so far, verified (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    // the flash-attention example: its thorough search takes ~6 times the tiled matmul's (5.5 s
    // natively against 0.9 s), so it is still running when Cancel is clicked, even on a quiet machine
    await selectExample(page, 'flash-attention-like');
    const graph = await graphText(page);
    // thorough: 20,000 evaluations, many seconds; plans of smaller efforts come first
    await chooseEffort(page, 'thorough');
    const early = page.locator('[data-testid=early-plan][data-stopped=false]');
    await early.waitFor({ timeout: 60000 });
    assert.match(await text(page, 'early-plan'), /^(First plan, from a short search \(effort 50\)|Best plan so far, at effort [\d,]+); the search goes on toward 20,000\.$/);
    const progress = page.locator('[data-testid=progress]');
    await page.waitForFunction(() => /Searching orders at effort [\d,]+(, on the way to 20,000)?: [\d,]+ of [\d,]+ evaluations, best so far [\d,]+ B · \d+\.\d s/
      .test(document.querySelector('[data-testid=progress]')?.textContent ?? ''), null, { timeout: 30000 });
    assert.equal(await page.locator('#summary-card').getAttribute('data-stale'), 'false', 'the best so far is not marked out of date');
    await page.locator('[data-testid=cancel]').click();
    await progress.waitFor({ state: 'hidden' });
    const stopped = page.locator('[data-testid=early-plan][data-stopped=true]');
    await stopped.waitFor();
    const effort = Number(await stopped.getAttribute('data-effort'));
    assert.ok(effort > 0 && effort < 20000);
    assert.equal(await text(page, 'early-plan'), `Search stopped at effort ${fmt(effort)} (asked: 20,000): this is the best plan it made before Cancel. Run to search again.`);
    assert.match(await text(page, 'notice'), new RegExp(`Search stopped at effort ${fmt(effort)}`));
    const kept = await resultText(page);
    assert.equal(JSON.parse(kept).search.effort, effort);
    sameBytes(kept, (await cliPlan(tmp, graph, ['--effort', String(effort)])).text, 'the plan kept is the CLI\'s at that effort');
    assert.match(cliVerify(graph, kept), /^ok: /);
    assert.equal(await page.locator('#summary-card').getAttribute('data-stale'), 'false');

    // the page stays usable: another effort plans in the restarted engine
    await chooseEffort(page, 'quick');
    await page.locator('[data-testid=early-plan]').waitFor({ state: 'detached', timeout: 60000 });
    await waitForFresh(page);
    sameBytes(await resultText(page), (await cliPlan(tmp, graph, ['--effort', '100'])).text, 'the next run, effort 100');
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('the order and policy menus are the engine\'s registries, explained', async () => {
  const engine = await engineModule();
  const orders = JSON.parse(engine.orders());
  const policies = JSON.parse(engine.policies());
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const opts = await page.locator('[data-testid=order-source] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent, o.title]));
  assert.deepEqual(opts, [
    ...orders.map((o, i) => [o.name, i === 0 ? `${o.title} (default)` : o.title, o.description]),
    ['file', 'order file…', ''],
  ]);
  assert.deepEqual(await page.locator('[data-testid=policy] option').evaluateAll((os) => os.map((o) => o.value)), policies);
  for (const o of orders) {
    if (o.name === orders[0].name) continue;
    await page.locator('[data-testid=order-source]').selectOption(o.name);
    assert.equal(await text(page, 'order-help'), `${o.title}: ${o.description}`);
  }
  for (const p of policies) {
    await page.locator('[data-testid=policy]').selectOption(p);
    assert.doesNotMatch(await text(page, 'policy-help'), /no description/, `${p} is explained`);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** The first plan once it is on screen, marked as such while the search goes on (read at once:
 * the search's plan may replace it any moment): its result text, its mark, and whether it is
 * marked out of date. */
const firstPlan = async (page) => (await page.waitForFunction(() => {
  const mark = document.querySelector('[data-testid=early-plan][data-stopped=false]');
  return mark && { result: window.spillway.resultText(), mark: mark.textContent, stale: document.querySelector('#summary-card').dataset.stale };
}, null, { timeout: 60000, polling: 10 })).jsonValue();

/** Runs again and clicks Cancel in the same task that first sees a plan before the answer (the
 * next plan cannot come between); returns the plan's mark once it says stopped. */
async function runAndCancelAtFirstPlan(page) {
  await page.locator('[data-testid=run]').click();
  await page.waitForFunction(() => {
    if (!document.querySelector('[data-testid=early-plan][data-stopped=false]')) return false;
    document.querySelector('[data-testid=cancel]').click();
    return true;
  }, null, { timeout: 60000, polling: 'raf' });
  const stopped = page.locator('[data-testid=early-plan][data-stopped=true]');
  await stopped.waitFor();
  return stopped;
}

test('a contest case shows a first plan (the CLI\'s at effort 50) while its search goes on, then the search\'s; Cancel keeps the first', async (t) => {
  const file = sharedCaseOrSkip(t, 'Matmul_Case0.json');
  if (!file) return;
  const graph = fs.readFileSync(file, 'utf8');
  const cliFirst = cliPlan(tmp, graph, ['--effort', '50']);
  const cliFinal = cliPlan(tmp, graph);
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForCompare(page);
  await page.locator('#open-input').setInputFiles(file);
  const { result: first, mark, stale } = await firstPlan(page);
  assert.equal(mark, 'First plan, from a short search (effort 50); the search goes on toward the default.');
  assert.equal(stale, 'false', 'the first plan is the run\'s, not out of date');
  sameBytes(first, (await cliFirst).text, 'the first plan: the CLI\'s with --effort 50');
  // then the search's plan replaces it, unmarked: the CLI's bytes with the same (default) options
  await page.locator('[data-testid=early-plan]').waitFor({ state: 'detached', timeout: 60000 });
  await waitForFresh(page);
  sameBytes(await resultText(page), (await cliFinal).text, 'the final plan: the CLI\'s');

  // Run again, Cancel as soon as the first plan is on screen (in the same task: the search's plan
  // cannot come between): it stays, marked as stopped at effort 50
  const stopped = await runAndCancelAtFirstPlan(page);
  assert.equal(await stopped.getAttribute('data-effort'), '50');
  sameBytes(await resultText(page), first, 'Cancel keeps the first plan');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a contest case under the objective cycles shows its bytes plan while the run goes on, then the run\'s plan; Cancel keeps the best so far, verified', async (t) => {
  const file = sharedCaseOrSkip(t, 'Matmul_Case0.json');
  if (!file) return;
  const graph = fs.readFileSync(file, 'utf8');
  const cli = cliPlan(tmp, graph, ['--objective', 'cycles']);
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const before = await resultText(page);
  await page.locator('[data-testid=objective]').selectOption('cycles');
  await waitForNewResult(page, before);
  await page.locator('#open-input').setInputFiles(file);
  // the bytes plan comes after the first order search, seconds before the longer searches end
  const { result: first, mark, stale } = await firstPlan(page);
  const want = (await cli).text;
  const { bytesPlan } = JSON.parse(want).objective;
  assert.equal(mark, 'Best plan so far at step 1 of 5; the run goes on toward fewer cycles.');
  assert.equal(stale, 'false', 'the plan so far is the run\'s, not out of date');
  const firstResult = JSON.parse(first);
  assert.deepEqual({ extraBytes: firstResult.metrics.extraBytes, totalCycles: firstResult.metrics.totalCycles }, bytesPlan);
  assert.deepEqual(firstResult.objective.steps, []);
  assert.match(cliVerify(graph, first), /^ok: /);
  // then the run's plan replaces it, unmarked: the CLI's bytes
  await page.locator('[data-testid=early-plan]').waitFor({ state: 'detached', timeout: 120000 });
  await waitForFresh(page);
  sameBytes(await resultText(page), want, 'the final plan: the CLI\'s');

  // Run again and Cancel as soon as a plan so far is on screen: it stays, marked as stopped
  const stopped = await runAndCancelAtFirstPlan(page);
  assert.equal(await stopped.getAttribute('data-stage'), '1');
  assert.equal(await text(page, 'early-plan'), 'Run stopped at step 1 of 5: this is the best plan it made before Cancel. Run to plan again.');
  assert.match(await text(page, 'notice'), /^Run stopped at step 1 of 5: the plan below is the best it made so far\./);
  sameBytes(await resultText(page), first, 'Cancel keeps the plan so far');
  assert.equal(await page.locator('#summary-card').getAttribute('data-stale'), 'false');
  assert.deepEqual(page.errors, []);
  await context.close();
});
