// Error places: the page locates them from the engine's structured `where`
// (docs/result-format.md, "Errors"), never from the message's words, and a memory without a
// capacity is added in the page's terms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePlayground, SIZES, openPage, waitForResult, text, pasteGraph, resultText, waitForNewResult } from './helpers.mjs';

const pg = usePlayground();


const alloc = (id, buf, size, type) => ({ Id: id, Op: 'ALLOC', BufId: buf, Size: size, Type: type });
const free = (id, buf, size, type) => ({ Id: id, Op: 'FREE', BufId: buf, Size: size, Type: type });
/** Two buffers of `type` used together by one node. */
const twoBuffers = (type, size, capacities) => JSON.stringify({
  Nodes: [alloc(0, 0, size, type), alloc(1, 1, size, type), { Id: 2, Op: 'ADD', Pipe: 'VECTOR', Cycles: 10, Bufs: [0, 1] }, free(3, 0, size, type), free(4, 1, size, type)],
  Edges: [[0, 2], [1, 2], [2, 3], [2, 4]],
  Capacities: capacities,
}, null, 1);

/** Runs `graph` and waits for the error; returns the error's where (or null). */
async function runError(page, graph) {
  await pasteGraph(page, graph);
  // the panel may still show the previous run's error: wait for the message this run renders
  await page.evaluate(() => document.querySelectorAll('[data-testid=error-message]').forEach((m) => { m.dataset.previous = ''; }));
  await page.locator('[data-testid=run]').click();
  await page.locator('[data-testid=error-message]:not([data-previous])').waitFor({ state: 'visible' });
  await page.locator('[data-testid=error]').waitFor({ state: 'visible' });
  const where = await page.locator('[data-testid=error]').getAttribute('data-where');
  return where ? JSON.parse(where) : null;
}

const selection = (page) => page.evaluate(() => getSelection()?.toString() ?? '');

for (const size of SIZES) {
  test(`a memory without a capacity: Run offers to add it with a sensible size, in page terms (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    // UB is the graph's, but its Capacities name only L1: UB gets its default, 1,024 bytes
    const where = await runError(page, twoBuffers('UB', 128, { L1: 512 }));
    assert.deepEqual(where, { memory: 'UB' });
    assert.match(await text(page, 'error-message'), /The graph uses memory UB, which has no capacity/);
    assert.doesNotMatch(await text(page, 'error'), /--caps|=\d/, 'no command-line syntax in the page');
    await page.getByRole('button', { name: 'Go to memory UB' }).click();
    assert.equal(await selection(page), '"UB"', 'the editor selects the first Type naming it');
    const fix = page.locator('[data-testid=error-fix]');
    assert.equal(await fix.textContent(), 'Add memory UB with 1,024 bytes and run');
    let before = await resultText(page);
    await fix.click();
    await waitForNewResult(page, before);
    assert.deepEqual(JSON.parse(await resultText(page)).capacities, { L1: 512, UB: 1024 });
    assert.match(await text(page, 'notice'), /Added memory UB to the capacity settings with 1,024 bytes \(its default capacity\)/);
    // a memory of its own: the most one node needs (2 × 100 bytes), rounded up to a power of two
    await runError(page, twoBuffers('SRAM', 100, { L1: 512 }));
    assert.equal(await page.locator('[data-testid=error-fix]').textContent(), 'Add memory SRAM with 256 bytes and run');
    before = await resultText(page);
    await page.locator('[data-testid=error-fix]').click();
    await waitForNewResult(page, before);
    assert.equal(JSON.parse(await resultText(page)).capacities.SRAM, 256);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`engine errors point at their place from \`where\`: cycle, string Id, missing edge target, trailing comma (${size.name})`, async (t) => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    const ops = (edges) => JSON.stringify({
      Nodes: [alloc(0, 0, 64, 'UB'), { Id: 1, Op: 'ADD', Pipe: 'VECTOR', Cycles: 1, Bufs: [0] }, { Id: 2, Op: 'MUL', Pipe: 'VECTOR', Cycles: 1, Bufs: [0] }, free(3, 0, 64, 'UB')],
      Edges: edges,
    }, null, 1);
    const cycle = await runError(page, ops([[0, 1], [1, 2], [2, 1], [2, 3]]));
    if (!cycle || !Object.keys(cycle).length) {
      // today's engine: kind and message only; the page shows the message and guesses no place
      assert.equal(await page.locator('[data-testid=error-goto]').count(), 0);
      assert.equal(await page.locator('[data-testid=error-where]').count(), 0);
      t.skip('this engine build returns no `where` (it comes with the hardened bindings)');
      await context.close();
      return;
    }
    assert.ok(cycle.cycle?.includes(1) && cycle.cycle?.includes(2), JSON.stringify(cycle));
    await page.getByRole('button', { name: 'Go to node 2' }).click();
    assert.match(await selection(page), /"Id": 2/);

    const stringId = await runError(page, JSON.stringify({ Nodes: [alloc(0, 0, 64, 'UB'), { Id: '1', Op: 'ADD', Pipe: 'VECTOR', Cycles: 1, Bufs: [0] }, free(2, 0, 64, 'UB')], Edges: [] }, null, 1));
    assert.equal(stringId.nodeIndex, 1);
    await page.locator('[data-testid=error-where]').waitFor();
    await page.locator('[data-testid=error-goto]').first().click();
    assert.equal(await selection(page), '"1"', 'the string Id itself');

    const edge = await runError(page, ops([[0, 1], [1, 2], [2, 3], [2, 9]]));
    assert.equal(edge.edge, 3);
    await page.getByRole('button', { name: 'Go to edge 3 in Edges' }).click();
    assert.equal((await selection(page)).replace(/\s/g, ''), '[2,9]');
    assert.equal(await page.getByRole('button', { name: 'Go to node 9' }).count(), 0, 'no node that does not exist');

    const comma = '{\n "Nodes": [\n  {"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 64, "Type": "UB"},\n  {"Id": 1, "Op": "FREE", "BufId": 0, "Size": 64, "Type": "UB"},\n ],\n "Edges": [[0, 1]]\n}\n';
    const trailing = await runError(page, comma);
    assert.equal(trailing.line, 4, `the trailing comma's line: ${JSON.stringify(trailing)}`);
    await page.locator('[data-testid=error-where]').waitFor();
    assert.match(await text(page, 'error-where'), /line 4/);
    await page.locator('[data-testid=graph-input] .cm-lintRange-error').first().waitFor();
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test('Run at once after a new graph replaced one that used a memory without a capacity: the new graph is planned', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await runError(page, twoBuffers('SRAM', 100, { L1: 512 }));
  const before = await resultText(page);
  // Run is pressed before the text worker has read the new text: the field error on record
  // ("SRAM has no capacity") is about the old one and must not stop this run
  await page.evaluate(async (g) => { await window.spillway.setGraphText(g); await window.spillway.run(); }, twoBuffers('L1', 100, { L1: 512 }));
  await waitForNewResult(page, before);
  const r = JSON.parse(await resultText(page));
  assert.deepEqual(r.capacities, { L1: 512 });
  assert.equal(r.metrics.spills, 0);
  assert.deepEqual(r.allocations.map((a) => [a.buf, a.type, a.offset]), [[0, 'L1', 0], [1, 'L1', 100]]);
  assert.ok(await page.locator('[data-testid=error]').isHidden(), 'no error left on screen');
  assert.equal(await page.locator('[data-testid=progress]').getAttribute('data-running'), 'false');
  assert.deepEqual(page.errors, []);
  await context.close();
});
