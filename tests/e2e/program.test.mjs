// Programs in the page: starting from one (the Program button), its errors at their line and
// column, the rewritten program beside the plan (one `reload` line per SPILL_IN, the cursor's line
// highlighted), What if (a spill forced, its data moved beside the policy's and the optimum, each
// figure the engine's own for those options), and the classic policies in the menu and the
// compare table. Expected figures come from the WebAssembly engine in Node, not from the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  usePlayground, openPage, waitForResult, waitForFresh, waitForCompare, resultText, graphText, pasteGraph, slideTo,
  text, engineModule,
} from './helpers.mjs';

const pg = usePlayground();

/** The engine's plan of a text with options, as the CLI would make it. */
async function enginePlan(graph, options) {
  const m = await engineModule();
  const r = JSON.parse(m.plan(graph, JSON.stringify(options)));
  assert.ok(!r.error, `the engine plans it: ${JSON.stringify(r.error)}`);
  return r;
}

/** Opens the page and starts from the sample program. */
async function openProgram() {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await page.locator('[data-testid=source-program]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=editor-kind]').textContent === 'Program');
  await waitForFresh(page);
  return { page, context };
}

const spillIns = (result) => result.addedNodes.filter((n) => n.Op === 'SPILL_IN').length;

test('the Program button starts from a program: planned as the engine plans it, the memory line as the capacity', async () => {
  const { page, context } = await openProgram();
  const program = await graphText(page);
  assert.match(program, /^# A program/);
  assert.match(await text(page, 'graph-source'), /Program: a sample/);
  const result = JSON.parse(await resultText(page));
  assert.deepEqual(result.capacities, { REG: 3 });
  assert.equal(await page.locator('[data-testid=cap-REG]').inputValue(), '3');
  const expected = await enginePlan(program, { capacities: { REG: 3 }, cost: { model: 'contest' } });
  assert.equal(result.metrics.extraBytes, expected.metrics.extraBytes);
  assert.deepEqual(result.order, expected.order);
  assert.ok(result.spills.length > 0, 'the sample spills');
  assert.deepEqual(result.program, expected.program);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('an error in a program shows with its line and column, as the engine locates it', async () => {
  const { page, context } = await openProgram();
  const bad = 'registers 2\na = load\nb = mul a zz\n';
  const m = await engineModule();
  const engineError = JSON.parse(m.translate(bad)).error;
  assert.deepEqual([engineError.where.line, engineError.where.column], [3, 11]);
  await pasteGraph(page, bad);
  await page.locator('[data-testid=run]').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=error]').hidden);
  assert.equal(await text(page, 'error-where'), 'line 3, column 11');
  assert.equal(await text(page, 'error-message'), engineError.message);
  assert.equal(await text(page, 'editor-kind'), 'Program');
  await context.close();
});

test('the rewritten program: its reload lines are the plan\'s reloads, the cursor\'s line is marked, a click steps there', async () => {
  const { page, context } = await openProgram();
  const result = JSON.parse(await resultText(page));
  const view = page.locator('[data-testid=program-view]');
  await view.waitFor();
  const lines = await view.locator('[data-testid=program-line]').evaluateAll((els) =>
    els.map((e) => ({ text: e.textContent, step: Number(e.dataset.step), kind: e.dataset.kind })));
  assert.deepEqual(lines.map(({ text, step }) => ({ text, step })), result.program.lines);
  const reloads = lines.filter((l) => l.kind === 'reload');
  assert.equal(reloads.length, spillIns(result), 'one reload line per SPILL_IN');
  assert.equal(reloads.length, result.spills.length);
  assert.ok(reloads.every((l) => /^\s*reload\s/.test(l.text)));
  assert.equal(Number(await view.locator('[data-testid=program-reloads]').getAttribute('data-count')), reloads.length);
  assert.equal(lines.filter((l) => l.kind === 'spill').length, result.spills.length);
  // each reload line sits at its SPILL_IN's step
  const inSteps = result.spills.map((s) => s.inStep).sort((a, b) => a - b);
  assert.deepEqual(reloads.map((l) => l.step).sort((a, b) => a - b), inSteps);
  // the cursor on a reload's step marks that line
  await slideTo(page, reloads[0].step);
  assert.equal(await view.locator('.pl.cursor').getAttribute('data-step'), String(reloads[0].step));
  // ↓ on the list moves the cursor to the next line's step
  const next = lines.slice(lines.indexOf(reloads[0]) + 1).find((l) => l.step >= 0);
  await view.locator('ol').focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), next.step);
  // a click on a line moves the cursor to its step
  const last = lines.filter((l) => l.step >= 0).at(-1);
  await view.locator(`[data-testid=program-line][data-step="${last.step}"]`).click();
  await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), last.step);
  assert.equal(await view.locator('.pl.cursor').getAttribute('data-step'), String(last.step));
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** The what-if panel's three figures. */
const figures = (page) => page.evaluate(() => Object.fromEntries(['forced', 'policy', 'optimum'].map((k) =>
  [k, Number(document.querySelector(`[data-testid=what-if-${k}]`)?.dataset.bytes ?? NaN)])));

test('What if: another buffer written out at a spill, its data moved beside the policy\'s and the optimum, then back', async () => {
  const { page, context } = await openProgram();
  await page.locator('[data-testid=policy]').selectOption('lru');
  await waitForFresh(page);
  const program = await graphText(page);
  const policyResult = JSON.parse(await resultText(page));
  assert.equal(policyResult.policy, 'lru');
  const spill = policyResult.spills[0];
  await slideTo(page, spill.outStep);
  const decision = policyResult.decisions.find((d) => d.kind === 'spill' && d.orderStep === spill.outStep);
  // the choices: every buffer of REG resident there but the policy's, none used by the node served
  const buttons = page.locator('[data-testid=step-decision] [data-testid=what-if-take]');
  const choices = (await buttons.evaluateAll((bs) => bs.map((b) => Number(b.dataset.buf)))).sort((a, b) => a - b);
  const resident = decision.candidates.map((c) => c.buf).filter((b) => b !== spill.buf).sort((a, b) => a - b);
  assert.deepEqual(choices, resident, 'the other candidates (every resident value is one here)');
  // the dearest choice (a dirty value: writing it out moves it), as the engine plans it forced
  const options = { capacities: { REG: 3 }, cost: { model: 'contest' }, order: policyResult.inputOrder };
  const forcedBy = new Map();
  for (const b of choices) forcedBy.set(b, await enginePlan(program, { ...options, policy: 'lru', force: { step: decision.step, buffer: b } }));
  const buffer = choices.reduce((a, b) => (forcedBy.get(b).metrics.extraBytes > forcedBy.get(a).metrics.extraBytes ? b : a));
  const forced = forcedBy.get(buffer);
  assert.ok(forced.metrics.extraBytes > policyResult.metrics.extraBytes, 'a choice that costs more than lru\'s');
  await page.locator(`[data-testid=step-decision] [data-testid=what-if-take][data-buf="${buffer}"]`).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=what-if]').dataset.status === 'done');
  const optimum = await enginePlan(program, { ...options, policy: 'residency' });
  assert.deepEqual(await figures(page), {
    forced: forced.metrics.extraBytes,
    policy: policyResult.metrics.extraBytes,
    optimum: optimum.metrics.extraBytes,
  });
  const more = forced.metrics.extraBytes - policyResult.metrics.extraBytes;
  assert.equal(await text(page, 'what-if-words'),
    `Your choice moves ${forced.metrics.extraBytes} B in all: ${more} B more than lru's ${policyResult.metrics.extraBytes} B; the optimum for this order moves ${optimum.metrics.extraBytes} B.`);
  // the forced plan is on screen, its program view with it
  const shown = JSON.parse(await resultText(page));
  assert.equal(shown.metrics.extraBytes, forced.metrics.extraBytes);
  assert.deepEqual(shown.program, forced.program);
  assert.ok(shown.spills.some((s) => s.buf === buffer), 'the forced buffer is written out');
  assert.equal(await page.locator('[data-testid=step-decision] [data-testid=what-if-take]').count(), 0, 'one forced choice at a time');
  // back to the policy's plan
  await page.locator('[data-testid=what-if-back]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=what-if]').hidden);
  assert.deepEqual(JSON.parse(await resultText(page)), policyResult);
  assert.equal(await text(page, 'step-label'), String(spill.outStep));
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('What if from predict mode, and a policy that cannot be forced says why', async () => {
  const { page, context } = await openProgram();
  await page.locator('[data-testid=policy]').selectOption('belady');
  await waitForFresh(page);
  const result = JSON.parse(await resultText(page));
  await page.locator('[data-testid=predict-toggle]').check();
  await slideTo(page, result.spills[0].outStep);
  const other = page.locator(`[data-testid=predict-choice]:not([data-buf="${result.spills[0].buf}"])`).first();
  await other.click();
  await page.locator('[data-testid=predict-answer] [data-testid=what-if-take]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=what-if]').dataset.status === 'done');
  const f = await figures(page);
  assert.equal(f.policy, result.metrics.extraBytes);
  assert.ok(f.forced >= f.optimum, 'no choice beats the optimum');
  await page.locator('[data-testid=what-if-back]').click();
  // seed decides online: the page says why it cannot force it
  await page.locator('[data-testid=policy]').selectOption('seed');
  await waitForFresh(page);
  const seed = JSON.parse(await resultText(page));
  assert.ok(seed.spills.length > 0, 'seed spills too');
  await page.locator('[data-testid=predict-toggle]').uncheck();
  await slideTo(page, seed.spills[0].outStep);
  await page.locator('[data-testid=step-decision] [data-testid=what-if-take]').first().click();
  assert.match(await text(page, 'what-if-message'), /^seed decides each spill as it goes and cannot take a forced one/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('lru, fifo and belady are in the policy menu with their texts, and in the compare table', async () => {
  const { page, context } = await openProgram();
  const m = await engineModule();
  const policies = JSON.parse(m.policies());
  for (const p of ['lru', 'fifo', 'belady']) assert.ok(policies.includes(p), `the registry lists ${p}`);
  const menu = await page.locator('[data-testid=policy] option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(menu, policies);
  for (const p of ['lru', 'fifo', 'belady']) {
    await page.locator('[data-testid=policy]').selectOption(p);
    assert.match(await text(page, 'policy-help'), new RegExp(`^${p}: The textbook`));
  }
  await waitForFresh(page);
  await waitForCompare(page);
  const rows = await page.locator('[data-testid=compare-row]').evaluateAll((rs) => rs.map((r) => `${r.dataset.policy}|${r.dataset.order}`));
  const expected = JSON.parse(m.compare(await graphText(page), JSON.stringify({ capacities: { REG: 3 }, cost: { model: 'contest' } })));
  assert.deepEqual(rows, expected.map((r) => `${r.policy}|${r.order}`));
  for (const p of ['lru', 'fifo', 'belady']) assert.ok(rows.some((r) => r.startsWith(`${p}|`)), `a compare row of ${p}`);
  assert.match(await text(page, 'compare-legend'), /lru/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
