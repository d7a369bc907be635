// The case in a link (web/src/lib/share.ts): what encodeCase writes, decodeCaseFragment reads back.
import test from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import {
  CASE_PREFIX,
  CASE_VERSION,
  caseJson,
  decodeCaseFragment,
  encodeCase,
  parseCaseText,
} from '../../build/web-lib/share.js';
import { defaultSettings } from '../../build/web-lib/settings.js';
import { LIMITS } from '../../build/web-lib/limits.js';

const { compressToEncodedURIComponent } = LZString; // a CommonJS module
const NAMES = { policies: ['best', 'seed', 'belady'], orders: ['graph', 'best', 'id', 'search'] };
const GRAPH =
  '{\n  "Nodes": [\n    {"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 8, "Type": "L1"}\n  ],\n  "Edges": []\n}';
const fragmentOf = (c) => CASE_PREFIX + compressToEncodedURIComponent(JSON.stringify(c));

test('a case goes through a link and comes back with its settings and view', () => {
  const settings = {
    ...defaultSettings(),
    policy: 'belady',
    orderSource: 'search',
    effort: 300,
    objective: 'cycles',
    margin: 40,
  };
  settings.capacities = [
    ['L1', 64],
    ['UB', 32],
  ];
  const view = { step: 3, spill: 1, lesson: 'one-spill' };
  const { fragment, graphChars, compacted } = encodeCase(GRAPH, settings, view);
  assert.ok(fragment.startsWith('case='));
  assert.equal(compacted, true);
  assert.equal(graphChars, '{"Nodes":[{"Id":0,"Op":"ALLOC","BufId":0,"Size":8,"Type":"L1"}],"Edges":[]}'.length);
  const decoded = decodeCaseFragment(fragment, NAMES);
  assert.equal(decoded.ok, true);
  assert.equal(decoded.case.v, CASE_VERSION);
  assert.deepEqual(decoded.case.settings, settings);
  assert.deepEqual(decoded.case.view, view);
  assert.deepEqual(JSON.parse(decoded.case.graph), JSON.parse(GRAPH), 'the same graph, laid out again');
  assert.ok(decoded.case.graph.includes('\n'), 'laid out for the editor, not one long line');
});

test('a graph that is not valid JSON travels as typed', () => {
  const typed = '{"Nodes": [ oops';
  const { fragment, compacted, graphChars } = encodeCase(typed, defaultSettings());
  assert.equal(compacted, false);
  assert.equal(graphChars, typed.length);
  assert.equal(decodeCaseFragment(fragment, NAMES).case.graph, typed);
});

test('a case file reads back like a link', () => {
  const settings = { ...defaultSettings(), costModel: 'seed', fixedLatency: 7, cyclesPerByte: 3 };
  const decoded = parseCaseText(caseJson(GRAPH, settings, { step: 2 }), NAMES, 'case file');
  assert.deepEqual(decoded, { ok: true, case: { v: CASE_VERSION, graph: GRAPH, settings, view: { step: 2 } } });
});

test('a fragment without a case is not a case; a damaged or refused one says why', () => {
  assert.equal(decodeCaseFragment('step=3', NAMES), null);
  assert.match(decodeCaseFragment('case=%%%', NAMES).message, /damaged: its case could not be decompressed/);
  assert.match(
    decodeCaseFragment(CASE_PREFIX + compressToEncodedURIComponent('{oops'), NAMES).message,
    /not valid JSON/,
  );
  const newer = fragmentOf({ v: CASE_VERSION + 1, graph: GRAPH, settings: {} });
  assert.match(
    decodeCaseFragment(newer, NAMES).message,
    new RegExp(`case format v${CASE_VERSION + 1}; this page reads v${CASE_VERSION}`),
  );
  const badPolicy = fragmentOf({ v: CASE_VERSION, graph: GRAPH, settings: { policy: 'nosuch' } });
  assert.equal(
    decodeCaseFragment(badPolicy, NAMES).message,
    'This link is refused: policy "nosuch" is not one of best, seed or belady.',
  );
  const badView = fragmentOf({ v: CASE_VERSION, graph: GRAPH, settings: {}, view: { step: -1 } });
  assert.equal(decodeCaseFragment(badView, NAMES).message, 'This link is refused: its step is not a step number.');
  const badLesson = fragmentOf({ v: CASE_VERSION, graph: GRAPH, settings: {}, view: { lesson: '../x' } });
  assert.equal(decodeCaseFragment(badLesson, NAMES).message, 'This link is refused: its lesson is not a lesson name.');
});

test('a link over the length limit is refused before it is decompressed', () => {
  const decoded = decodeCaseFragment(CASE_PREFIX + 'A'.repeat(LIMITS.linkChars + 1), NAMES);
  assert.equal(decoded.ok, false);
  assert.match(
    decoded.message,
    /^This link is refused: it is 1,000,001 characters long; the page opens links of at most 1,000,000\.$/,
  );
});

test('a small link that expands past the case limit is refused', () => {
  const huge = { v: CASE_VERSION, graph: ' '.repeat(LIMITS.caseChars), settings: {} };
  const fragment = fragmentOf(huge);
  assert.ok(fragment.length < 10000, `the link is short (${fragment.length} characters)`);
  assert.match(decodeCaseFragment(fragment, NAMES).message, /expands to more than 8,000,000 characters/);
});

test('a v1 case reads with the defaults it ran with: policy seed, ascending ids without an Order', () => {
  const v1 = (graph, settings) => decodeCaseFragment(fragmentOf({ v: 1, graph, settings }), NAMES).case.settings;
  const noOrder = v1(GRAPH, {});
  assert.equal(noOrder.policy, 'seed');
  assert.equal(noOrder.orderSource, 'id');
  const withOrder = v1('{"Nodes": [], "Edges": [], "Order": [0]}', { policy: 'belady' });
  assert.equal(withOrder.policy, 'belady');
  assert.equal(withOrder.orderSource, 'graph');
  const v2 = decodeCaseFragment(fragmentOf({ v: 2, graph: GRAPH, settings: {} }), NAMES).case.settings;
  assert.deepEqual(v2, defaultSettings(), 'v2 and later: the engine defaults');
});

test('an unedited example or lesson travels by name, with only the settings that differ from the defaults', () => {
  const settings = { ...defaultSettings(), policy: 'belady', capacities: [['UB', 512]] };
  const { fragment, named } = encodeCase(
    GRAPH,
    settings,
    { step: 4, spill: null, lesson: null },
    { example: 'one-spill' },
  );
  assert.equal(named, true);
  const raw = JSON.parse(LZString.decompressFromEncodedURIComponent(fragment.slice(CASE_PREFIX.length)));
  assert.deepEqual(raw, {
    v: CASE_VERSION,
    example: 'one-spill',
    settings: { capacities: [['UB', 512]], policy: 'belady' },
    view: { step: 4 },
  });
  const decoded = decodeCaseFragment(fragment, { ...NAMES, examples: ['one-spill'] });
  assert.equal(decoded.ok, true);
  assert.equal(decoded.case.graph, null);
  assert.equal(decoded.case.example, 'one-spill');
  assert.deepEqual(decoded.case.settings, settings);
  assert.deepEqual(decoded.case.view, { step: 4 });

  const lesson = encodeCase(GRAPH, defaultSettings(), { step: 0, spill: null, lesson: null }, { lesson: 'belady' });
  const back = decodeCaseFragment(lesson.fragment, NAMES);
  assert.equal(back.ok, true);
  assert.equal(back.case.graph, null);
  assert.equal(back.case.example, undefined);
  assert.deepEqual(back.case.view, { step: 0, lesson: 'belady' });
  assert.deepEqual(back.case.settings, defaultSettings());
});

test('a named example the page lacks, or a case naming nothing, is refused', () => {
  const fragment = encodeCase(GRAPH, defaultSettings(), undefined, { example: 'gone' }).fragment;
  const refused = decodeCaseFragment(fragment, { ...NAMES, examples: ['one-spill'] });
  assert.deepEqual(refused, {
    ok: false,
    message: 'This link is refused: its example "gone" is not one of this page\'s examples.',
  });
  const bad = decodeCaseFragment(fragmentOf({ v: 6, example: '../x', settings: {} }), NAMES);
  assert.equal(bad.ok, false);
  assert.match(bad.message, /its example "..\/x" is not one of this page's examples/);
  const nothing = decodeCaseFragment(fragmentOf({ v: 6, settings: {} }), NAMES);
  assert.deepEqual(nothing, {
    ok: false,
    message: 'This link is damaged: the case names neither a graph, an example nor a lesson.',
  });
  const v5 = decodeCaseFragment(fragmentOf({ v: 5, example: 'one-spill', settings: {} }), NAMES);
  assert.deepEqual(
    v5,
    { ok: false, message: 'This link is damaged: the case has no graph.' },
    'before v6 a case carries its graph',
  );
});

test('flags after the case ("&embed") leave the case readable', () => {
  const { fragment } = encodeCase(GRAPH, defaultSettings(), { step: 2 });
  const decoded = decodeCaseFragment(`${fragment}&embed&x=1`, NAMES);
  assert.equal(decoded.ok, true);
  assert.deepEqual(JSON.parse(decoded.case.graph), JSON.parse(GRAPH));
  assert.deepEqual(decoded.case.view, { step: 2 });
});

const QUESTION = { text: 'Which buffer does the seed write out?', field: 'buf', at: 8, choices: [0, 1, 2, 3] };

test('v7: a question travels in the view, without an answer, with a named example or the graph', () => {
  const settings = { ...defaultSettings(), policy: 'seed', capacities: [['UB', 512]] };
  const view = { step: 7, spill: null, lesson: null, question: QUESTION };
  const named = encodeCase(GRAPH, settings, view, { example: 'one-spill' });
  const raw = JSON.parse(LZString.decompressFromEncodedURIComponent(named.fragment.slice(CASE_PREFIX.length)));
  assert.equal(raw.v, CASE_VERSION);
  assert.deepEqual(raw.view, { step: 7, question: QUESTION });
  const back = decodeCaseFragment(named.fragment, { ...NAMES, examples: ['one-spill'] });
  assert.equal(back.ok, true);
  assert.deepEqual(back.case.view, { step: 7, question: QUESTION });

  const metric = { text: 'How many spills?', field: 'metrics.spills', at: 0 };
  const carried = decodeCaseFragment(encodeCase(GRAPH, settings, { step: 0, question: metric }).fragment, NAMES);
  assert.equal(carried.ok, true);
  assert.deepEqual(carried.case.view, { step: 0, question: metric }, 'no choices: the answer is typed');
  assert.deepEqual(JSON.parse(carried.case.graph), JSON.parse(GRAPH));
});

test('v7: every field of a question is checked, with a message naming it', () => {
  const refused = (question, v = CASE_VERSION) =>
    decodeCaseFragment(fragmentOf({ v, graph: GRAPH, settings: {}, view: { step: 1, question } }), NAMES);
  const cases = [
    ['not a question', 'its question is not an object'],
    [[QUESTION], 'its question is not an object'],
    [{ ...QUESTION, answer: 0 }, 'its question carries an answer: the page works the answer out from the plan'],
    [{ ...QUESTION, text: '  ' }, 'its question has no text'],
    [{ ...QUESTION, text: 7 }, 'its question has no text'],
    [
      { ...QUESTION, text: 'x'.repeat(LIMITS.questionChars + 1) },
      'its question text has 1,001 characters; a question has at most 1,000',
    ],
    [
      { ...QUESTION, field: 'offset' },
      'its question asks for "offset", not one of buf, metrics.spills, metrics.extraBytes',
    ],
    [
      { ...QUESTION, field: undefined },
      'its question asks for "undefined", not one of buf, metrics.spills, metrics.extraBytes',
    ],
    [{ ...QUESTION, at: -1 }, 'its question step ("at") is not a step number'],
    [{ ...QUESTION, at: 1.5 }, 'its question step ("at") is not a step number'],
    [{ ...QUESTION, at: undefined }, 'its question step ("at") is not a step number'],
    [{ ...QUESTION, choices: [1] }, 'its question choices are not a list of 2 to 64 numbers'],
    [{ ...QUESTION, choices: '0,1' }, 'its question choices are not a list of 2 to 64 numbers'],
    [
      { ...QUESTION, choices: Array.from({ length: 65 }, (_, i) => i) },
      'its question choices are not a list of 2 to 64 numbers',
    ],
    [{ ...QUESTION, choices: [0, -1] }, 'its question choices are not all whole numbers'],
    [{ ...QUESTION, choices: [0, '1'] }, 'its question choices are not all whole numbers'],
    [{ ...QUESTION, choices: [2, 2] }, 'its question choices repeat a number'],
  ];
  for (const [question, why] of cases)
    assert.deepEqual(
      refused(question),
      { ok: false, message: `This link is refused: ${why}.` },
      JSON.stringify(question)?.slice(0, 80),
    );
  assert.deepEqual(refused(QUESTION, 6), {
    ok: false,
    message: 'This link is refused: its view has a question, which links carry from format v7 on (this one is v6).',
  });
  assert.equal(refused(QUESTION).ok, true, 'the question itself is fine');
});

test('v6 links (and a v7 link without a question) still open', () => {
  const v6 = decodeCaseFragment(fragmentOf({ v: 6, example: 'one-spill', settings: {}, view: { step: 3 } }), {
    ...NAMES,
    examples: ['one-spill'],
  });
  assert.equal(v6.ok, true);
  assert.deepEqual(v6.case.view, { step: 3 });
  const plain = decodeCaseFragment(encodeCase(GRAPH, defaultSettings(), { step: 3 }).fragment, NAMES);
  assert.equal(plain.ok, true);
  assert.equal(plain.case.view.question, undefined);
});

test('v8: the cycles objective\u2019s margin travels when it is not the default; a v7 link opens with 10', () => {
  const withMargin = { ...defaultSettings(), objective: 'cycles', margin: 0 };
  const named = encodeCase(GRAPH, withMargin, {}, { example: 'one-spill' });
  const raw = JSON.parse(LZString.decompressFromEncodedURIComponent(named.fragment.slice(CASE_PREFIX.length)));
  assert.equal(raw.settings.margin, 0);
  const plain = encodeCase(GRAPH, { ...defaultSettings(), objective: 'cycles' }, {}, { example: 'one-spill' });
  const rawPlain = JSON.parse(LZString.decompressFromEncodedURIComponent(plain.fragment.slice(CASE_PREFIX.length)));
  assert.equal('margin' in rawPlain.settings, false, 'the default margin is left out');
  const back = decodeCaseFragment(named.fragment, { ...NAMES, examples: ['one-spill'] });
  assert.equal(back.case.settings.margin, 0);
  const v7 = fragmentOf({ v: 7, graph: GRAPH, settings: { objective: 'cycles' } });
  assert.equal(decodeCaseFragment(v7, NAMES).case.settings.margin, 10);
  const bad = fragmentOf({ v: 8, graph: GRAPH, settings: { objective: 'cycles', margin: 5000 } });
  assert.match(
    decodeCaseFragment(bad, NAMES).message,
    /the data margin must be a whole number of percent from 0 to 1,000/,
  );
});
