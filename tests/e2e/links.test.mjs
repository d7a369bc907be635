// Links: compact (whitespace removed before compressing, the length shown; a built-in example by
// its name), kept in the address bar once opened, and hostile links refused with a message naming
// the limit or the setting, never freezing the page, never stored. And the built page served from
// a subfolder, as a static host serves it.
// npm test runs this file alone (not beside another): it times how long a hostile link holds the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import lz from 'lz-string';
import { usePlayground, SIZES, openPage, waitForResult, waitForFresh, text, resultText, graphText, selectExample, storedState, watchLongTasks, longTasks, engineModule, oneOf, pasteGraph, slideTo, serveDist } from './helpers.mjs';

const pg = usePlayground();

const { compressToEncodedURIComponent } = lz;

const link = (c) => `${pg.url}#case=${compressToEncodedURIComponent(JSON.stringify(c))}`;
const okSettings = { capacities: [['UB', 512]], costModel: 'contest', fixedLatency: 0, cyclesPerByte: 1, policy: '', orderSource: 'graph', orderFile: null };
const smallGraph = '{"Nodes": [{"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 64, "Type": "UB"}, {"Id": 1, "Op": "COPY_IN", "Pipe": "MTE2", "Cycles": 10, "Bufs": [0]}, {"Id": 2, "Op": "FREE", "BufId": 0, "Size": 64, "Type": "UB"}], "Edges": [[0, 1], [1, 2]]}';

for (const size of SIZES) {
  test(`a link carries a pasted graph without its whitespace and says how long it is (${size.name})`, async () => {
    const { page, context } = await openPage(pg.browser, pg.url, size.opts);
    await waitForResult(page);
    await selectExample(page, 'flash-attention-like');
    const graph = await graphText(page);
    await pasteGraph(page, graph); // no longer the example: the link carries the text
    await page.waitForFunction(() => /Pasted graph/.test(document.querySelector('[data-testid=graph-source]')?.textContent ?? ''));
    const want = await resultText(page);
    await page.locator('[data-testid=share]').click();
    const url = await page.locator('[data-testid=share-url]').inputValue();
    assert.match(await text(page, 'share-length'), new RegExp(`^${url.length.toLocaleString('en-US')} characters$`));
    const c = JSON.parse(lz.decompressFromEncodedURIComponent(url.slice(url.indexOf('#case=') + 6)));
    assert.equal(c.v, 8);
    assert.equal(c.settings.objective, 'bytes', 'the objective travels too');
    assert.deepEqual(c.view, { step: 0, spill: null, lesson: null }, "the step, spill and lesson travel too");
    assert.equal(c.graph, JSON.stringify(JSON.parse(graph)), 'the graph travels compacted (this one has no spaces inside strings)');
    const verbatim = compressToEncodedURIComponent(JSON.stringify({ ...c, graph }));
    assert.ok(url.length < verbatim.length, `compacted link ${url.length} < verbatim ${verbatim.length} characters`);
    await context.close();

    const fresh = await openPage(pg.browser, url, size.opts);
    await fresh.page.waitForFunction((w) => window.spillway.resultText() === w, want, { timeout: 90000 });
    assert.deepEqual(JSON.parse(await graphText(fresh.page)), JSON.parse(graph));
    assert.ok((await graphText(fresh.page)).split('\n').length > 100, 'laid out again, a node a line');
    assert.deepEqual(fresh.page.errors, []);
    await fresh.context.close();
  });
}

/** Opens `url` after the page has stored a known state; returns the notice and storage after. */
async function openHostile(url, t) {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'copyin-cheaper');
  const stored = await storedState(page);
  assert.match(stored['spillway.graph'], /"Capacities"/);
  await watchLongTasks(page);
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => /refused|damaged/.test(document.querySelector('[data-testid=notice]')?.textContent ?? ''), null, { timeout: 20000 });
  const ms = Date.now() - t0;
  const notice = await text(page, 'notice');
  await waitForResult(page);
  const tasks = await longTasks(page);
  t.diagnostic(`refused in ${ms} ms; long tasks ${JSON.stringify(tasks)}`);
  const after = await storedState(page);
  assert.deepEqual(after, stored, 'nothing from the refused link was stored');
  // the page works on: the stored graph is back and plans
  assert.equal(await graphText(page), stored['spillway.graph']);
  await selectExample(page, 'one-spill');
  assert.equal(await text(page, 'spill-count'), '1');
  assert.deepEqual(page.errors, []);
  await context.close();
  return { notice, tasks };
}

test('hostile link: 60,000 capacity rows in a small link are refused, naming the limit', async (t) => {
  const rows = Array.from({ length: 60000 }, (_, i) => [`M${i}`, 1024]);
  const url = link({ v: 2, graph: smallGraph, settings: { ...okSettings, capacities: rows } });
  assert.ok(url.length < 400000, `the link is ${url.length} characters`);
  const { notice, tasks } = await openHostile(url, t);
  assert.match(notice, /This link is refused: 60,000 capacity rows; the page takes at most 64\./);
  assert.ok(Math.max(0, ...tasks) < 1000, 'the page never froze');
});

test('hostile link: a small link that expands to a huge graph is refused before it is built', async (t) => {
  // compressing the 8.5 MB state takes lz-string far longer than the rest of the test: the payload is kept in a file
  const state = JSON.stringify({ v: 2, graph: `{"Nodes": [], "Edges": [], "x": "${'a'.repeat(8_500_000)}"}`, settings: okSettings });
  const payload = fs.readFileSync(new URL('fixtures/bomb.lz', import.meta.url), 'utf8').trim();
  assert.ok(lz.decompressFromEncodedURIComponent(payload) === state,
    'tests/e2e/fixtures/bomb.lz is this state compressed (remake it with lz-string\'s compressToEncodedURIComponent)');
  const bomb = `${pg.url}#case=${payload}`;
  assert.ok(bomb.length < 30000, `the link is ${bomb.length} characters`);
  const { notice } = await openHostile(bomb, t);
  assert.match(notice, /This link is refused: it expands to more than 8,000,000 characters/);
});

test('hostile link: a link over 1,000,000 characters is refused before decompressing', async (t) => {
  const { notice } = await openHostile(`${pg.url}#case=${'A'.repeat(1_000_001)}`, t);
  assert.match(notice, /This link is refused: it is 1,000,001 characters long; the page opens links of at most 1,000,000/);
});

// the page names the engine's registries (policies(), orders()) and its own order file
const engine = await engineModule();
const policyNames = JSON.parse(engine.policies());
const orderNames = JSON.parse(engine.orders()).map((o) => o.name);
for (const [what, settings, message] of [
  ['an unknown policy', { ...okSettings, policy: 'evil' }, `policy "evil" is not one of ${oneOf(policyNames)}`],
  ['an unknown order source', { ...okSettings, orderSource: 'sideways' }, `order source "sideways" is not one of ${oneOf([...orderNames, 'file'])}`],
  ['an effort over the engine\'s limit', { ...okSettings, effort: 100_000_001 }, /the effort must be a whole number of evaluations from 0 to 100,000,000/],
  ['an effort that is not a number', { ...okSettings, effort: 'lots' }, /the effort must be a whole number of evaluations/],
  ['a memory without a name', { ...okSettings, capacities: [['', 64]] }, /a memory has an empty name/],
  ['a capacity that is not a whole number', { ...okSettings, capacities: [['UB', 1.5]] }, /the capacity of UB: "1.5" is not a whole number of bytes/],
  ['a cost parameter out of range', { ...okSettings, costModel: 'seed', cyclesPerByte: 1048577 }, /cyclesPerByte must be a whole number from 0 to 1,048,576/],
]) {
  test(`hostile link: ${what} is refused and never stored`, async (t) => {
    const { notice } = await openHostile(link({ v: 2, graph: smallGraph, settings }), t);
    assert.match(notice, /This link is refused/);
    if (typeof message === 'string') assert.ok(notice.includes(message), `${notice} names ${message}`);
    else assert.match(notice, message);
  });
}

test('an accepted link is stored only once accepted; bad stored settings give the defaults', async () => {
  const { page, context } = await openPage(pg.browser, link({ v: 2, graph: smallGraph, settings: { ...okSettings, policy: 'seed' } }));
  await page.waitForFunction(() => window.spillway.resultText()?.includes('"policy":"seed"'), null, { timeout: 20000 });
  const stored = await storedState(page);
  assert.equal(JSON.parse(stored['spillway.settings']).policy, 'seed');
  assert.deepEqual(JSON.parse(stored['spillway.graph']), JSON.parse(smallGraph));
  // settings that were stored by an older page with a policy and an order source this engine
  // lacks: its defaults (the first of each registry), and it runs
  await page.evaluate(() => localStorage.setItem('spillway.settings', JSON.stringify({ policy: 'gone', orderSource: 'vanished', capacities: [['UB', 512]] })));
  await page.evaluate(() => history.replaceState(null, '', location.pathname)); // else the reload reopens the link
  await page.reload();
  await waitForResult(page);
  assert.equal(await page.locator('[data-testid=policy]').inputValue(), policyNames[0]);
  assert.equal(await page.locator('[data-testid=order-source]').inputValue(), orderNames[0]);
  assert.equal(await page.locator('[data-testid=error]').isHidden(), true);
  assert.deepEqual(page.errors, []);
  await context.close();
});

const caseOf = (url) => JSON.parse(lz.decompressFromEncodedURIComponent(url.slice(url.indexOf('#case=') + 6).split('&')[0]));

test('the first example travels by its name: a short link that opens the same graph and plan; edited, it carries its text', async (t) => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForFresh(page);
  const example = await page.locator('[data-testid=graph-source]').getAttribute('data-example');
  assert.equal(example, 'one-spill', 'a first visit shows the first example');
  const want = { graph: await graphText(page), result: await resultText(page) };
  await page.locator('[data-testid=share]').click();
  const url = await page.locator('[data-testid=share-url]').inputValue();
  const fragment = url.slice(url.indexOf('#') + 1);
  assert.ok(fragment.length <= 300, `the first example's link has ${fragment.length} characters after '#'`);
  t.diagnostic(`the first example's link: ${fragment.length} characters after '#'`);
  const c = caseOf(url);
  assert.equal(c.v, 8);
  assert.equal(c.example, 'one-spill');
  assert.equal('graph' in c, false, 'the graph stays home');
  assert.match(await page.locator('[data-testid=share-popover]').textContent(), /names the example or lesson/);
  await page.keyboard.press('Escape');

  // an edited example travels as its text
  await page.locator('[data-testid=graph-input] .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' ');
  await page.locator('[data-testid=source-edited]').waitFor();
  await page.locator('[data-testid=share]').click();
  const editedUrl = await page.locator('[data-testid=share-url]').inputValue();
  const e = caseOf(editedUrl);
  assert.equal(e.example, undefined);
  assert.deepEqual(JSON.parse(e.graph), JSON.parse(want.graph), 'the edited text travels');
  await context.close();

  const fresh = await openPage(pg.browser, url);
  await fresh.page.waitForFunction((w) => window.spillway.resultText() === w, want.result, { timeout: 30000 });
  assert.equal(await graphText(fresh.page), want.graph, "the example's own text");
  assert.equal(await fresh.page.locator('[data-testid=graph-source]').getAttribute('data-example'), 'one-spill', 'named as the example again');
  assert.deepEqual(fresh.page.errors, []);
  await fresh.context.close();
});

test('an opened link stays in the address bar, follows the step, keeps its flags, and a reload reopens it', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await selectExample(page, 'copyin-cheaper');
  await waitForFresh(page);
  await slideTo(page, 3);
  await page.locator('[data-testid=share]').click();
  const url = await page.locator('[data-testid=share-url]').inputValue();
  const want = await resultText(page);
  await context.close();

  const fresh = await openPage(pg.browser, `${url}&flag`);
  const p = fresh.page;
  await p.waitForFunction((w) => window.spillway.resultText() === w, want, { timeout: 30000 });
  await p.waitForFunction(() => document.querySelector('[data-testid=step-label]')?.textContent === '3');
  await p.waitForTimeout(800); // longer than the address bar's wait after a change
  assert.equal(p.url(), `${url}&flag`, 'the fragment stays as it came');

  await slideTo(p, 5);
  await p.waitForFunction((old) => location.href !== old, `${url}&flag`, { timeout: 5000 });
  const now = p.url();
  assert.ok(now.endsWith('&flag'), `the flag stays: ${now}`);
  assert.deepEqual(caseOf(now).view, { step: 5 }, 'the address bar follows the step');
  assert.equal(caseOf(now).example, 'copyin-cheaper');

  await p.reload();
  await p.waitForFunction((w) => window.spillway.resultText() === w, want, { timeout: 30000 });
  await p.waitForFunction(() => document.querySelector('[data-testid=step-label]')?.textContent === '5');
  assert.equal(p.url(), now, 'a reload reopens the same case');
  assert.deepEqual(p.errors, []);
  await fresh.context.close();
});

test('the built page works from a subfolder (served under /spillway/, nothing at the root)', async () => {
  const sub = await serveDist({ base: '/spillway/' });
  try {
    const root = await fetch(new URL('/', sub.url));
    assert.equal(root.status, 404, 'nothing is served outside the folder');
    const { page, context } = await openPage(pg.browser, sub.url);
    const missing = [];
    page.on('response', (r) => { if (r.status() >= 400) missing.push(r.url()); });
    await waitForResult(page, 30000);
    await waitForFresh(page);
    assert.equal(await text(page, 'spill-count'), '1', 'the first example planned: one spill');
    assert.equal(await page.locator('[data-testid=error]').isHidden(), true);
    await page.locator('[data-testid=share]').click();
    const url = await page.locator('[data-testid=share-url]').inputValue();
    assert.ok(url.startsWith(`${sub.url}#case=`), `the link points into the folder: ${url}`);
    assert.deepEqual(missing, []);
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    await sub.close();
  }
});
