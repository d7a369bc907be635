// A lecturer's own question in a link (format v7 and later): written on the page at a spill decision or about
// the whole plan, copied as a link that carries no answer, opened in a fresh page (and in the
// embed view) where it is asked like a lesson's: nothing answers it before the right answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import { usePlayground, openPage, waitForResult, waitForFresh, resultText, slideTo, tablesShow } from './helpers.mjs';

const pg = usePlayground();

/** Writes a question at the cursor and resolves to the link the editor makes (a new one: the
 * field still shows the link made before until the new one is ready). */
async function askAsLink(page, text, field) {
  if ((await page.locator('[data-testid=ask-text]').isVisible()) === false) await page.locator('[data-testid=ask-open]').click();
  const url = page.locator('[data-testid=ask-url]');
  const previous = (await url.isVisible()) ? await url.inputValue() : null;
  await page.locator('[data-testid=ask-text]').fill(text);
  await page.locator('[data-testid=ask-field]').selectOption(field);
  await page.locator('[data-testid=ask-make]').click();
  await page.locator('[data-testid=ask-url]:visible').waitFor();
  await page.waitForFunction((old) => document.querySelector('[data-testid=ask-url]').value !== old, previous);
  return url.inputValue();
}

/** The case a link carries (decompressed). */
const caseOf = (url) => JSON.parse(LZString.decompressFromEncodedURIComponent(url.split('#case=')[1].split('&')[0]));

test('a question written at a spill decision travels in a link without its answer, and is asked like a lesson\'s: no spill shown until the right answer', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForFresh(page);
  const result = JSON.parse(await resultText(page));
  const d = result.decisions.find((x) => x.kind === 'spill');
  assert.ok(d, 'the first example spills');
  const choices = d.candidates.map((c) => c.buf).sort((a, b) => a - b);
  assert.ok(choices.length >= 2 && choices.includes(d.buf), `the decision weighed ${choices}`);
  await slideTo(page, d.orderStep - 1);
  const refused = await askAsLink(page, 'Which buffer goes out?', 'metrics.spills').then(() => page.locator('[data-testid=ask-field] option[value=buf]').isDisabled());
  assert.equal(refused, true, 'no spill decision at the cursor: its victim cannot be asked');
  await slideTo(page, d.orderStep);
  const text = 'UB is full and t needs room: which buffer goes out?';
  const url = await askAsLink(page, text, 'buf');
  const c = caseOf(url);
  assert.equal(c.v, 8);
  assert.deepEqual(c.view.question, { text, field: 'buf', at: d.orderStep, choices }, 'the question, its step and choices; no answer');
  assert.doesNotMatch(JSON.stringify(c), /answer/);
  // what was typed stays while the lecturer moves on and closes and opens the editor
  await slideTo(page, 0);
  await page.locator('[data-testid=ask-open]').click();
  await page.locator('[data-testid=ask-open]').click();
  assert.equal(await page.locator('[data-testid=ask-text]').inputValue(), text);
  assert.deepEqual(page.errors, []);
  await context.close();

  const { page: p, context: ctx } = await openPage(pg.browser, url);
  await p.waitForFunction(() => window.spillway.resultText(), null, { timeout: 30000 }); // (the summary waits for the answer)
  await waitForFresh(p);
  await p.locator('[data-testid=asked-text]').waitFor();
  assert.match(await p.locator('[data-testid=asked-text]').textContent(), new RegExp(text.replace(/[?]/g, '\\?')));
  assert.equal(await p.locator('[data-testid=step-label]').textContent(), String(d.orderStep - 1), 'it opens a step before the question\'s');
  const opened = JSON.parse(await resultText(p));
  const before = await tablesShow(p, opened);
  assert.equal(before.spills, 0, '#spills shows no spill');
  assert.equal(before.spillRowsDrawn, 0);
  assert.equal(before.spillOuts, 0, '#order shows no SPILL_OUT row');
  assert.equal(await p.locator('[data-testid=order-table] .vt-row.spill-out:visible').count(), 0);
  // the count of spills would tell whether the decision asked about spills
  assert.equal(await p.locator('[data-testid=summary-hidden]').isVisible(), true, 'the totals are hidden');
  assert.equal(await p.locator('[data-testid=spill-count]').count(), 0);
  assert.deepEqual(
    await p.locator('[data-testid=asked-choice]').evaluateAll((bs) => bs.map((b) => Number(b.dataset.value))),
    choices,
  );
  const wrong = choices.find((b) => b !== d.buf);
  await p.locator(`[data-testid=asked-choice][data-value="${wrong}"]`).click();
  await p.locator('[data-testid=asked-answer][data-right=false]').waitFor();
  assert.match(await p.locator('[data-testid=asked-answer]').textContent(), new RegExp(`Not buffer ${wrong}: try again`));
  // a step on, the question's step: still nothing that answers it
  await p.locator('[data-testid=step-next]').click();
  const still = await tablesShow(p, opened);
  assert.deepEqual([still.spills, still.spillOuts], [0, 0], 'a wrong answer leaves it unanswered');
  await p.locator(`[data-testid=asked-choice][data-value="${d.buf}"]`).click();
  await p.locator('[data-testid=asked-answer][data-right=true]').waitFor();
  const after = await tablesShow(p, opened);
  assert.equal(after.spills, opened.spills.length, 'the right answer shows every spill');
  assert.ok(after.spillOuts > 0, 'and the SPILL_OUT rows');
  assert.equal(await p.locator('[data-testid=spill-count]').textContent(), String(opened.metrics.spills), 'and the totals');
  assert.deepEqual(p.errors, []);
  await ctx.close();

  // the same link in the embed view: the question, without the editor
  const embed = await openPage(pg.browser, `${url}&embed`, { viewport: { width: 640, height: 480 } });
  const e = embed.page;
  await e.waitForFunction(() => window.spillway.resultText(), null, { timeout: 30000 }); // (the summary waits for the answer)
  await waitForFresh(e);
  await e.locator('[data-testid=asked-text]').waitFor();
  for (const sel of ['[data-testid=asked-text]', '[data-testid=asked-choice]', '#chart canvas'])
    assert.equal(await e.locator(sel).first().isVisible(), true, `${sel} is shown`);
  for (const sel of ['[data-testid=ask-open]', '[data-testid=ask-text]', '[data-testid=graph-input]', '[data-testid=asked-answer]'])
    assert.equal(await e.locator(sel).first().isVisible(), false, `${sel} is not shown`);
  const inEmbed = await tablesShow(e, opened);
  assert.deepEqual([inEmbed.spills, inEmbed.spillOuts], [0, 0], 'the embed hides the answer too');
  assert.deepEqual(e.errors, []);
  await embed.context.close();
});

test('a question about the whole plan hides its totals until the number typed is the plan\'s', async () => {
  const { page, context } = await openPage(pg.browser, pg.url);
  await waitForResult(page);
  await waitForFresh(page);
  const result = JSON.parse(await resultText(page));
  const url = await askAsLink(page, 'How many spills does this plan make?', 'metrics.spills');
  assert.deepEqual(caseOf(url).view.question, { text: 'How many spills does this plan make?', field: 'metrics.spills', at: 0 });
  await context.close();

  const { page: p, context: ctx } = await openPage(pg.browser, url);
  await p.waitForFunction(() => window.spillway.resultText(), null, { timeout: 30000 }); // (the summary waits for the answer)
  await waitForFresh(p);
  await p.locator('[data-testid=asked-input]').waitFor();
  assert.equal(await p.locator('[data-testid=summary-hidden]').isVisible(), true, 'the totals are hidden');
  assert.equal(await p.locator('[data-testid=spill-count]').count(), 0);
  await p.locator('[data-testid=asked-input]').fill(String(result.metrics.spills + 1));
  await p.locator('[data-testid=asked-submit]').click();
  await p.locator('[data-testid=asked-answer][data-right=false]').waitFor();
  assert.equal(await p.locator('[data-testid=summary-hidden]').isVisible(), true, 'still hidden after a wrong answer');
  await p.locator('[data-testid=asked-input]').fill(String(result.metrics.spills));
  await p.locator('[data-testid=asked-input]').press('Enter');
  await p.locator('[data-testid=asked-answer][data-right=true]').waitFor();
  assert.equal(await p.locator('[data-testid=spill-count]').textContent(), String(result.metrics.spills));
  assert.deepEqual(p.errors, []);
  await ctx.close();
});
