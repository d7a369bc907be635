// Teaching with a plan: the step cursor and the memories at it, every decision with
// what it chose among, predict mode, two plans side by side, and a link that keeps the step, the
// spill and the lesson. The memories at a step are recomputed here from the result JSON and the
// graph alone (nothing of the page's code), and compared with what the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import lz from 'lz-string';
import { usePlayground, SIZES, CASES, ROOT, openPage, waitForResult, text, pasteGraph, resultText, graphText, waitForNewResult, selectExample, waitForFresh, slideTo } from './helpers.mjs';

const pg = usePlayground();

// ---- the state at a step, from the result JSON (independent of the page) ----------------------

/** Every memory while step k of result.order runs: buffers resident from their ALLOC (or SPILL_IN)
 * step through their FREE (or SPILL_OUT) step, both included. */
function stateFromResult(graph, result, k) {
  const nodes = new Map([...graph.Nodes, ...result.addedNodes].map((n) => [n.Id, n]));
  const alloc = new Map(result.allocations.map((a) => [a.buf, a]));
  const spillIn = new Map(result.spills.map((s) => [s.inNode, s]));
  const live = new Map(); // buf -> { mem, offset, size }
  for (let s = 0; s <= k; s++) {
    const n = nodes.get(result.order[s]);
    if (n.Op === 'ALLOC') live.set(n.BufId, { mem: n.Type, offset: alloc.get(n.BufId).offset, size: n.Size });
    if (n.Op === 'SPILL_IN') { const sp = spillIn.get(n.Id); live.set(sp.buf, { mem: sp.type, offset: sp.newOffset, size: sp.size }); }
    if (s === k) break;
    if (n.Op === 'FREE') live.delete(n.BufId);
    if (n.Op === 'SPILL_OUT') live.delete(n.Bufs[0]);
  }
  const isOp = (n) => !['ALLOC', 'FREE', 'SPILL_OUT', 'SPILL_IN'].includes(n.Op);
  const nextUse = (buf) => {
    for (let s = k + 1; s < result.order.length; s++) {
      const n = nodes.get(result.order[s]);
      if (isOp(n) && n.Bufs.includes(buf)) return s;
    }
    return -1;
  };
  const rows = [...live].map(([buf, b]) => ({ mem: b.mem, buf, offset: b.offset, next: nextUse(buf) }));
  const holes = [];
  const used = new Set(result.allocations.map((a) => a.type)); // the memories the plan uses
  for (const [mem, cap] of Object.entries(result.capacities)) {
    if (!used.has(mem)) continue;
    const here = [...live.values()].filter((b) => b.mem === mem).sort((a, b) => a.offset - b.offset);
    let at = 0;
    for (const b of here) {
      if (b.offset > at) holes.push({ mem, start: at, end: b.offset });
      at = Math.max(at, b.offset + b.size);
    }
    if (at < cap) holes.push({ mem, start: at, end: cap });
  }
  const key = (x) => `${x.mem}|${String(x.buf ?? x.start).padStart(9)}`;
  return { rows: rows.sort((a, b) => key(a).localeCompare(key(b))), holes: holes.sort((a, b) => key(a).localeCompare(key(b))) };
}

/** What the page shows at its cursor. */
const stateOnPage = (page) => page.evaluate(() => {
  const key = (x) => `${x.mem}|${String(x.buf ?? x.start).padStart(9)}`;
  const rows = [...document.querySelectorAll('[data-testid=step-state]')].map((r) => ({ mem: r.dataset.mem, buf: Number(r.dataset.buf), offset: Number(r.dataset.offset), next: Number(r.dataset.next) }));
  const holes = [...document.querySelectorAll('[data-testid=step-free]')].map((x) => ({ mem: x.dataset.mem, start: Number(x.dataset.start), end: Number(x.dataset.end) }));
  return { rows: rows.sort((a, b) => key(a).localeCompare(key(b))), holes: holes.sort((a, b) => key(a).localeCompare(key(b))) };
});

/** Moves the cursor with the slider, as a drag would, and waits for the step card to follow. */
async function checkStates(page, graph, result, steps) {
  for (const k of steps) {
    await slideTo(page, k);
    assert.deepEqual(await stateOnPage(page), stateFromResult(graph, result, k), `the memories at step ${k}`);
  }
}

/** Steps worth looking at: the ends, every spill's SPILL_OUT and SPILL_IN, and some in between. */
function sampleSteps(result, n = 6) {
  const last = result.order.length - 1;
  const spills = result.spills.slice(0, 4).flatMap((s) => [s.outStep, s.inStep]);
  return [...new Set([0, last, ...spills, ...Array.from({ length: n }, (_, i) => Math.round(((i + 1) * last) / (n + 1)))])];
}

/** A random graph (seeded, so the same every run): buffers in UB and L1 with random sizes and
 * lifetimes, some filled by COPY_IN, used by operations of one to four buffers; ALLOC just before
 * a buffer's first use, FREE just after its last; the capacities leave room for the busiest node
 * and not much more, so the plan spills. */
function randomGraph(seed, ops = 70) {
  let x = seed >>> 0;
  const rnd = (n) => { x = (x * 1103515245 + 12345) >>> 0; return (x >>> 8) % n; };
  const bufs = [];
  for (let j = 0; j < ops; j++) {
    for (let c = rnd(2) + (j % 2 === 0 ? 1 : 0); c > 0; c--) {
      const end = Math.min(ops - 1, j + 1 + rnd(30));
      bufs.push({ id: bufs.length, first: j, last: end, size: 16 * (1 + rnd(8)), mem: rnd(3) ? 'UB' : 'L1', copyIn: rnd(2) === 0 });
    }
  }
  const uses = Array.from({ length: ops }, () => new Set());
  for (const b of bufs) {
    uses[b.first].add(b.id);
    uses[b.last].add(b.id);
    const mid = b.first + rnd(b.last - b.first + 1);
    if (uses[mid].size < 4) uses[mid].add(b.id);
  }
  const Nodes = [];
  const Edges = [];
  const users = new Map(bufs.map((b) => [b.id, []]));
  const allocOf = new Map();
  const add = (n) => { n.Id = Nodes.length; Nodes.push(n); return n.Id; };
  for (let j = 0; j < ops; j++) {
    const here = [...uses[j]].sort((a, b) => a - b);
    if (!here.length) continue;
    for (const id of here) {
      const b = bufs[id];
      if (b.first === j) allocOf.set(id, add({ Op: 'ALLOC', BufId: id, Size: b.size, Type: b.mem }));
    }
    const copyIn = here.length === 1 && bufs[here[0]].first === j && bufs[here[0]].copyIn;
    const op = add(copyIn ? { Op: 'COPY_IN', Pipe: 'MTE2', Cycles: 100, Bufs: here } : { Op: ['ADD', 'MUL', 'EXP'][rnd(3)], Pipe: 'VECTOR', Cycles: 20 + rnd(50), Bufs: here });
    for (const id of here) {
      const list = users.get(id);
      Edges.push([list.length ? list[list.length - 1] : allocOf.get(id), op]);
      list.push(op);
    }
    for (const id of here) {
      const b = bufs[id];
      if (b.last === j) Edges.push([op, add({ Op: 'FREE', BufId: id, Size: b.size, Type: b.mem })]);
    }
  }
  const need = { UB: 0, L1: 0 };
  for (const n of Nodes) {
    if (!n.Bufs) continue;
    const sum = { UB: 0, L1: 0 };
    for (const id of n.Bufs) sum[bufs[id].mem] += bufs[id].size;
    for (const m of ['UB', 'L1']) need[m] = Math.max(need[m], sum[m]);
  }
  const ordered = Nodes.map(({ Id, ...rest }) => ({ Id, ...rest })); // Id first, as in the contest's files
  return { Nodes: ordered, Edges, Order: ordered.map((n) => n.Id), Capacities: { UB: Math.max(need.UB, 128) + 32, L1: Math.max(need.L1, 128) } };
}

for (const size of SIZES) {
  test(`the memories at the cursor equal those recomputed from the result: an example and a random graph, every policy (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await selectExample(page, 'flash-attention-like');
    let graph = JSON.parse(await graphText(page));
    let result = JSON.parse(await resultText(page));
    assert.ok(result.spills.length > 2);
    await checkStates(page, graph, result, sampleSteps(result, size.name === 'desktop' ? 8 : 4));
    // a random graph, under each policy
    const random = randomGraph(size.name === 'desktop' ? 7 : 11);
    await pasteGraph(page, JSON.stringify(random, null, 1));
    graph = JSON.parse(await graphText(page));
    for (const policy of ['seed', 'window', 'lifetime']) {
      const before = await resultText(page);
      await page.locator('[data-testid=policy]').selectOption(policy);
      if (policy === 'seed') await page.locator('[data-testid=run]').click();
      await waitForNewResult(page, before);
      result = JSON.parse(await resultText(page));
      assert.equal(result.policy, policy);
      assert.ok(result.spills.length >= 2, `${policy} spills on the random graph (${result.spills.length})`);
      await checkStates(page, graph, result, sampleSteps(result, 3));
    }
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('the memories at the cursor equal those recomputed from the result: FlashAttention_Case0', async (t) => {
  const file = path.join(CASES, 'FlashAttention_Case0.json');
  if (!fs.existsSync(file)) return t.skip(`${file} is absent`);
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const before = await resultText(page);
  await page.locator('#open-input').setInputFiles(file);
  await waitForNewResult(page, before);
  const graph = JSON.parse(await graphText(page));
  const result = JSON.parse(await resultText(page));
  await checkStates(page, graph, result, sampleSteps(result, 10));
  // a click on the chart moves the cursor to the step under the pointer
  const canvas = page.locator('[data-testid=chart-canvas]');
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + box.width * 0.6, box.y + box.height - 12);
  const k = Number(await text(page, 'step-label'));
  assert.ok(k > result.order.length * 0.45 && k < result.order.length * 0.75, `the click at 60% of the width went to step ${k} of ${result.order.length}`);
  assert.deepEqual(await stateOnPage(page), stateFromResult(graph, result, k));
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** The decision panel at the cursor against the decision in the result. */
async function checkDecision(page, d, spills) {
  await slideTo(page, d.orderStep);
  const panel = page.locator('[data-testid=step-decision]');
  await page.waitForFunction((kind) => document.querySelector('[data-testid=step-decision]').dataset.kind === kind, d.kind);
  assert.equal(await panel.locator('[data-testid=decision-reason]').textContent(), d.reason);
  if (d.kind === 'place' || d.kind === 'reload') {
    const holes = await panel.locator('[data-testid=decision-hole]').evaluateAll((rs) => rs.map((r) => [Number(r.dataset.start), Number(r.dataset.end), r.classList.contains('chosen')]));
    assert.deepEqual(holes, d.holes.map(([a, b]) => [a, b, a <= d.offset && d.offset + d.size <= b]));
    return;
  }
  const k = spills.findIndex((s) => s.outStep === d.orderStep);
  assert.match(await panel.locator('.dec-head').textContent(), new RegExp(`Spill ${k + 1} of ${spills.length}: buffer ${d.buf} is written out`));
  assert.equal(await panel.locator('[data-testid=decision-formula]').textContent(), `Formula: ${d.formula}`);
  const room = await panel.locator('[data-testid=decision-room]').textContent();
  assert.ok(room.includes(`${d.room.shortfall.toLocaleString('en-US')} B`), `the room names the bytes missing: ${room}`);
  const cands = await panel.locator('[data-testid=decision-candidate]').evaluateAll((rs) => rs.map((r) => [Number(r.dataset.buf), r.classList.contains('chosen')]));
  assert.deepEqual(cands, d.candidates.map((c) => [c.buf, c.buf === d.buf]));
  assert.equal(await panel.locator('[data-testid=decision-window]').count(), (d.windows ?? []).length);
}

test('every decision of every policy opens with what it chose among: holes, or the room, formula and candidates', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'flash-attention-like');
  for (const policy of ['seed', 'window', 'lifetime', 'best']) {
    const before = await resultText(page);
    await page.locator('[data-testid=policy]').selectOption(policy);
    if (policy === 'best') await page.locator('[data-testid=run]').click();
    await waitForNewResult(page, before);
    const result = JSON.parse(await resultText(page));
    const spills = result.decisions.filter((d) => d.kind === 'spill');
    assert.ok(spills.length > 0, `${policy} spills`);
    assert.ok(spills.every((d) => d.formula && d.candidates.length && d.room), `${policy}: every spill decision has its formula, room and candidates`);
    if (result.planPolicy === 'window') assert.ok(spills.some((d) => d.windows?.length), 'window records the windows it weighed');
    const places = result.decisions.filter((d) => d.kind === 'place' || d.kind === 'reload');
    for (const d of [...spills.slice(0, 3), spills[spills.length - 1], places[0], places[places.length - 1]]) await checkDecision(page, d, result.spills);
  }
  // an operation's step says that no decision is taken there
  const result = JSON.parse(await resultText(page));
  const opStep = result.order.findIndex((_id, s) => s > 0 && !result.decisions.some((d) => d.orderStep === s));
  await slideTo(page, opStep);
  assert.equal(await page.locator('[data-testid=step-decision]').getAttribute('data-kind'), 'none');
  assert.match(await text(page, 'step-decision'), /No decision is taken at this step/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('one numbering: steps of the new order everywhere, the input step beside it where it differs', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const result = JSON.parse(await resultText(page)); // one-spill: one SPILL_OUT before step 9 of the input
  const sp = result.spills[0];
  const after = sp.inStep + 1; // a graph node after both spill nodes: its input step is 2 less
  await slideTo(page, after);
  assert.match(await text(page, 'step-controls'), new RegExp(`Step ${after} of ${result.order.length} · input step ${after - 2}`));
  const row = page.locator(`[data-testid=order-table] .vt-row[data-row="${after}"]`);
  await row.waitFor();
  assert.equal(await row.locator('div').nth(1).textContent(), String(after - 2), 'the order table shows the input step beside');
  await slideTo(page, 2);
  assert.doesNotMatch(await text(page, 'step-controls'), /input step/, 'none where both are the same');
  await context.close();
});

for (const size of SIZES) {
  test(`predict mode stops at each spill, takes a pick from the keyboard, reveals the policy's and Belady's choices, keeps score (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await selectExample(page, 'copyin-cheaper');
    await page.locator('[data-testid=policy]').selectOption('seed');
    await waitForFresh(page);
    const result = JSON.parse(await resultText(page));
    const spill = result.decisions.find((d) => d.kind === 'spill');
    assert.equal(spill.buf, 0, 'seed writes out q');
    const belady = spill.candidates.reduce((a, c) => (c.nextUseStep > a.nextUseStep ? c : a));
    assert.equal(belady.buf, 2, 'Belady would write out p');
    // keyboard only: the toggle, then Next until the cursor stops
    const toggle = page.locator('[data-testid=predict-toggle]');
    await toggle.focus();
    await page.keyboard.press('Space');
    assert.equal(await toggle.isChecked(), true);
    await page.locator('[data-testid=step-next]').focus();
    for (let i = 0; i < spill.orderStep + 3; i++) await page.keyboard.press('Enter');
    await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), spill.orderStep);
    assert.match(await text(page, 'step-node'), /what will it be/, 'the step does not name the victim');
    assert.match(await text(page, 'step-decision'), /Predict: buffer 4 needs 128 B in UB/);
    const choices = await page.locator('[data-testid=predict-choice]').evaluateAll((bs) => bs.map((b) => Number(b.dataset.buf)));
    assert.deepEqual(choices, [0, 2, 3], 'the buffers of UB the node does not use');
    // Belady's pick, with the keyboard
    await page.locator('[data-testid=predict-choice][data-buf="2"]').focus();
    await page.keyboard.press('Enter');
    const answer = page.locator('[data-testid=predict-answer]');
    await answer.waitFor();
    assert.match(await answer.textContent(), /You picked buffer 2: the policy wrote out buffer 0\. In hindsight, Belady's rule .* picks buffer 2 ✓/);
    assert.equal(await text(page, 'predict-score'), 'Score: 0 of 1 like the policy · 1 like Belady');
    assert.match(await text(page, 'step-decision'), /Spill 1 of 1: buffer 0 is written out/, 'then the decision');
    await page.locator('[data-testid=step-next]').click();
    await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s + 1), spill.orderStep);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('play steps on at the chosen speed and stops at the end, or at a spill in predict mode', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  const result = JSON.parse(await resultText(page)); // one-spill: 24 steps
  await page.locator('[data-testid=step-speed]').selectOption('25');
  const play = page.locator('[data-testid=step-play]');
  await play.click();
  assert.equal(await play.getAttribute('aria-pressed'), 'true');
  await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), result.order.length - 1, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=step-play]').getAttribute('aria-pressed') === 'false');
  assert.equal(await page.locator('[data-testid=step-next]').isDisabled(), true, 'nothing after the last step');
  // predict mode: play from the start stops at the spill, and goes on once it is answered
  await page.locator('[data-testid=predict-toggle]').check();
  await play.click(); // at the end, Play starts again from step 0
  const out = result.spills[0].outStep;
  await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s) && document.querySelector('[data-testid=step-play]').getAttribute('aria-pressed') === 'false', out, { timeout: 20000 });
  await page.locator('[data-testid=predict-skip]').click();
  assert.match(await text(page, 'predict-answer'), new RegExp(`Skipped. The policy wrote out buffer ${result.spills[0].buf}`));
  await play.click();
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid=step-label]').textContent) > s, out, { timeout: 20000 });
  await play.click();
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('predict mode: a pick from the memory table; a buffer that cannot leave is refused with a reason', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'flash-attention-like');
  // the scheduled order: its first spill (in UB) comes while L1 holds buffers too
  const before = await resultText(page);
  await page.locator('[data-testid=order-source]').selectOption('schedule');
  await waitForNewResult(page, before);
  const result = JSON.parse(await resultText(page));
  const spill = result.decisions.find((d) => d.kind === 'spill');
  await page.locator('[data-testid=predict-toggle]').check();
  await slideTo(page, spill.orderStep);
  assert.equal(await page.locator('[data-testid=step-decision] [data-testid=decision-candidate]').count(), 0, 'the decision stays hidden');
  // a buffer of another memory cannot make room in the spill's
  const other = page.locator(`[data-testid=step-state][data-mem]:not([data-mem="${spill.type}"]) button`).first();
  await other.click();
  assert.match(await text(page, 'predict-note'), new RegExp(`cannot be written out here: pick one of the ${spill.type} buffers`));
  await page.locator(`[data-testid=step-state][data-buf="${spill.buf}"] button`).click();
  await page.locator('[data-testid=predict-answer]').waitFor();
  const belady = spill.candidates.reduce((a, c) => (c.nextUseStep > a.nextUseStep ? c : a)).buf;
  assert.equal(await text(page, 'predict-score'), `Score: 1 of 1 like the policy · ${belady === spill.buf ? 1 : 0} like Belady`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('two rows of the compare table side by side: summaries, the spills only one makes, one cursor over both charts', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'flash-attention-like');
  const table = page.locator('[data-testid=compare-table]:not(.stale)');
  await table.waitFor({ timeout: 60000 });
  const rowA = table.locator('[data-testid=compare-row][data-policy=seed][data-order=schedule]');
  const rowB = table.locator('[data-testid=compare-row][data-policy=lifetime][data-order=schedule]');
  await rowA.locator('[data-testid=diff-pick]').focus();
  await page.keyboard.press('Space');
  await rowB.locator('[data-testid=diff-pick]').check();
  const diff = page.locator('[data-testid=diff]');
  await diff.locator('[data-testid=diff-spills-count]').waitFor({ timeout: 60000 });
  const cell = async (row, col) => Number((await row.locator(`td[data-col=${col}]`).textContent()).replace(/[^0-9]/g, ''));
  const sum = (testid, col) => diff.locator(`[data-testid=${testid}] td[data-col=${col}]`).textContent().then((t) => Number(t.replace(/,/g, '')));
  assert.equal(await sum('diff-spills-count', 'a'), await cell(rowA, 'spills'));
  assert.equal(await sum('diff-spills-count', 'b'), await cell(rowB, 'spills'));
  assert.equal(await sum('diff-extra-bytes', 'a'), await cell(rowA, 'extra-bytes'));
  assert.equal(await sum('diff-extra-bytes', 'b'), await cell(rowB, 'extra-bytes'));
  assert.equal(await sum('diff-cycles', 'b'), await cell(rowB, 'total-cycles'));
  // the spills only one makes, against both plans made here by the engine
  const graph = await graphText(page);
  const generated = path.join(ROOT, 'web/src/engine/generated');
  const { default: createSpillway } = await import(path.join(generated, 'spillway.mjs'));
  const engine = await createSpillway({ wasmBinary: fs.readFileSync(path.join(generated, 'spillway.wasm')) });
  const caps = JSON.parse(await resultText(page)).capacities;
  const plan = (policy) => JSON.parse(engine.plan(graph, JSON.stringify({ capacities: caps, order: 'schedule', policy, cost: { model: 'contest' } })));
  const [a, b] = [plan('seed'), plan('lifetime')];
  const count = (r) => r.spills.reduce((m, s) => m.set(s.buf, (m.get(s.buf) ?? 0) + 1), new Map());
  const ca = count(a), cb = count(b);
  const only = (x, y) => [...x].filter(([buf, n]) => n > (y.get(buf) ?? 0)).map(([buf, n]) => [buf, n - (y.get(buf) ?? 0)]).sort((p, q) => p[0] - q[0]);
  const shown = (id) => diff.locator(`[data-testid=${id}] li`).evaluateAll((ls) => ls.map((l) => [Number(l.dataset.buf), Number(l.dataset.n)]));
  assert.deepEqual(await shown('diff-only-a'), only(ca, cb));
  assert.deepEqual(await shown('diff-only-b'), only(cb, ca));
  assert.ok((await shown('diff-only-a')).length + (await shown('diff-only-b')).length > 0, 'the two plans differ');
  // one cursor: the arrows on chart A move both, to the steps where each plan runs the same node
  const canvasA = page.locator('[data-testid=diff-chart-a-canvas]');
  await canvasA.scrollIntoViewIfNeeded();
  const box = await canvasA.boundingBox();
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height - 12);
  await canvasA.focus();
  await page.keyboard.press('ArrowRight');
  const cursors = async () => page.evaluate(() => ['a', 'b'].map((k) => Number(document.querySelector(`[data-testid=diff-chart-${k}]`).dataset.cursor)));
  await page.waitForFunction(() => ['a', 'b'].every((k) => document.querySelector(`[data-testid=diff-chart-${k}]`).dataset.cursor !== ''));
  const [ka, kb] = await cursors();
  const nodeAt = (r, k) => { for (let s = k; s >= 0; s--) if (!r.addedNodes.some((n) => n.Id === r.order[s])) return r.order[s]; return -1; };
  assert.equal(b.order[kb], nodeAt(a, ka), `A's step ${ka} and B's step ${kb} run the same node`);
  assert.ok(ka > 0 && kb > 0);
  await page.locator('[data-testid=diff-close]').click();
  await page.locator('#diff-card').waitFor({ state: 'hidden' });
  assert.deepEqual(page.errors, []);
  await context.close();
});

for (const size of SIZES) {
  test(`a link keeps the step, the selected spill and the lesson, in a fresh browser (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await page.locator('[data-testid=lesson-item][data-lesson=copyin-cheaper]').click();
    await page.waitForFunction(() => /Lesson 4 of \d+/.test(document.querySelector('[data-testid=lesson-title]')?.textContent ?? ''));
    await waitForFresh(page);
    const result = JSON.parse(await resultText(page));
    // the spills show once the lesson's question is answered (no spoilers before)
    const lesson = JSON.parse(fs.readFileSync(path.join(ROOT, 'web/src/lessons/04-copyin-cheaper.json'), 'utf8'));
    await page.locator(`[data-testid=lesson-choice][data-value="${lesson.question.answer}"]`).click();
    await page.locator('[data-testid=spill-table] .vt-row').first().click(); // spill 1: the cursor goes to it
    await page.waitForFunction((s) => document.querySelector('[data-testid=step-label]').textContent === String(s), result.spills[0].outStep);
    await slideTo(page, 14);
    await page.locator('[data-testid=share]').click();
    const url = await page.locator('[data-testid=share-url]').inputValue();
    const c = JSON.parse(lz.decompressFromEncodedURIComponent(url.slice(url.indexOf('#case=') + 6)));
    assert.deepEqual(c.view, { step: 14, spill: 0, lesson: 'copyin-cheaper' });
    assert.equal('graph' in c, false, 'an unedited lesson travels by its name');
    await context.close();

    const fresh = await openPage(pg.browser, url, size.opts);
    await fresh.page.waitForFunction(() => document.querySelector('[data-testid=step-label]')?.textContent === '14', null, { timeout: 60000 });
    assert.deepEqual(JSON.parse(await resultText(fresh.page)).spills, result.spills, 'the same plan');
    assert.match(await text(fresh.page, 'lesson-title'), /Lesson 4 of \d+: COPY_IN buffers are cheaper to spill/);
    await fresh.page.locator(`[data-testid=lesson-choice][data-value="${lesson.question.answer}"]`).click();
    await fresh.page.locator('[data-testid=spill-table] .vt-row.sel').waitFor();
    assert.equal(await fresh.page.locator('[data-testid=spill-table] .vt-row.sel').getAttribute('data-row'), '0', 'the spill is selected');
    assert.deepEqual(fresh.page.errors, []);
    await fresh.context.close();
  });
}

test('an older link (format v2, without a view) opens at step 0', async () => {
  const graph = '{"Nodes": [{"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 64, "Type": "UB"}, {"Id": 1, "Op": "COPY_IN", "Pipe": "MTE2", "Cycles": 10, "Bufs": [0]}, {"Id": 2, "Op": "FREE", "BufId": 0, "Size": 64, "Type": "UB"}], "Edges": [[0, 1], [1, 2]]}';
  const settings = { capacities: [['UB', 512]], costModel: 'contest', fixedLatency: 0, cyclesPerByte: 1, policy: '', orderSource: 'graph', orderFile: null };
  const url = `${pg.url}#case=${lz.compressToEncodedURIComponent(JSON.stringify({ v: 2, graph, settings }))}`;
  const { page, context } = await openPage(pg.browser, url);
  await page.waitForFunction(() => JSON.parse(window.spillway.resultText() ?? '{"order":[]}').order.length === 3, null, { timeout: 30000 });
  assert.equal(await text(page, 'step-label'), '0');
  assert.equal(await page.locator('[data-testid=lesson]').isHidden(), true);
  assert.deepEqual(page.errors, []);
  await context.close();
});
