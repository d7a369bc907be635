// The settings model (web/src/lib/settings.ts): what a run sends, and the strict checker of
// settings from outside.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  capacityProblem,
  checkCapacities,
  checkSettings,
  compareOptions,
  defaultSettings,
  runOptions,
  settingsKeys,
} from '../../build/web-lib/settings.js';

const NAMES = { policies: ['best', 'seed'], orders: ['graph', 'best', 'id'] };

test('runOptions: the engine defaults send only capacities, order and cost', () => {
  assert.deepEqual(runOptions(defaultSettings()), {
    capacities: { L1: 4096, UB: 1024, L0A: 256, L0B: 256, L0C: 512 },
    order: 'graph',
    cost: { model: 'contest' },
  });
});

test('runOptions: every setting the page changes reaches the engine', () => {
  const s = { ...defaultSettings(), capacities: [['L1', 100]], costModel: 'seed', fixedLatency: 4, cyclesPerByte: 2 };
  Object.assign(s, {
    policy: 'seed',
    orderSource: 'file',
    orderFile: { name: 'o.txt', ids: [2, 0, 1] },
    effort: 0,
    objective: 'cycles',
    margin: 0,
  });
  assert.deepEqual(runOptions(s), {
    capacities: { L1: 100 },
    order: [2, 0, 1],
    policy: 'seed',
    effort: 0,
    objective: 'cycles',
    margin: 0,
    cost: { model: 'seed', fixedLatency: 4, cyclesPerByte: 2 },
  });
  assert.deepEqual(compareOptions(s), {
    capacities: { L1: 100 },
    cost: { model: 'seed', fixedLatency: 4, cyclesPerByte: 2 },
    effort: 0,
    objective: 'cycles',
    margin: 0,
  });
  assert.equal(runOptions({ ...s, margin: 10 }).margin, undefined, 'the default margin is the engine\u2019s own');
  assert.equal(runOptions({ ...s, objective: 'bytes' }).margin, undefined, 'a margin only under cycles');
  assert.equal(runOptions({ ...s, orderFile: null }).order, 'graph', 'a file order without its file: the default');
});

test('settingsKeys: equal exactly when the run is the same; compare ignores policy and order', () => {
  const a = defaultSettings();
  const b = { ...defaultSettings(), policy: 'seed' };
  assert.equal(settingsKeys(a).run, settingsKeys(defaultSettings()).run);
  assert.notEqual(settingsKeys(a).run, settingsKeys(b).run);
  assert.equal(settingsKeys(a).compare, settingsKeys(b).compare);
  assert.notEqual(settingsKeys(a).compare, settingsKeys({ ...a, effort: 5 }).compare);
});

test('capacityProblem names what is wrong with a typed capacity', () => {
  assert.equal(capacityProblem(' 4096 '), null);
  assert.equal(capacityProblem(String(2 ** 36)), null);
  assert.equal(capacityProblem(''), 'the field is empty');
  assert.equal(capacityProblem('1.5'), '"1.5" is not a whole number of bytes');
  assert.equal(capacityProblem('0'), '0 is less than 1 byte');
  assert.equal(capacityProblem(String(2 ** 36 + 1)), '68719476737 is more than 68,719,476,736 bytes (2^36)');
});

test('checkCapacities refuses repeated names, control characters and bad values', () => {
  assert.deepEqual(
    checkCapacities([
      ['L1', 8],
      ['UB', 4],
    ]),
    {
      ok: true,
      capacities: [
        ['L1', 8],
        ['UB', 4],
      ],
    },
  );
  assert.equal(
    checkCapacities([
      ['L1', 8],
      ['L1', 4],
    ]).message,
    'memory "L1" appears twice',
  );
  assert.equal(checkCapacities([['L\n1', 8]]).message, 'a memory name holds a control character');
  assert.equal(checkCapacities([['', 8]]).message, 'a memory has an empty name');
  assert.equal(checkCapacities([[1, 8]]).message, 'a memory name is not a string');
  assert.equal(checkCapacities([['L1', '8']]).message, 'the capacity of L1: is not a number');
  assert.equal(
    checkCapacities(Array.from({ length: 65 }, (_, i) => [`M${i}`, 1])).message,
    '65 memories; the page takes at most 64',
  );
});

test('checkSettings: absent fields take the defaults; known names pass', () => {
  assert.deepEqual(checkSettings({}, NAMES), { ok: true, settings: defaultSettings() });
  const r = checkSettings(
    { policy: 'seed', orderSource: 'id', effort: 100, objective: 'cycles', margin: 40, fixedLatency: 3 },
    NAMES,
  );
  assert.deepEqual(r.settings, {
    ...defaultSettings(),
    policy: 'seed',
    orderSource: 'id',
    effort: 100,
    objective: 'cycles',
    margin: 40,
    fixedLatency: 3,
  });
});

test('checkSettings refuses the whole settings on anything unknown, with the valid names', () => {
  const message = (raw, names = NAMES) => checkSettings(raw, names).message;
  assert.equal(message(null), 'the settings are missing');
  assert.equal(message([]), 'the settings are missing');
  assert.equal(message({ policy: 'nosuch' }), 'policy "nosuch" is not one of best or seed');
  assert.equal(message({ orderSource: 'nosuch' }), 'order source "nosuch" is not one of graph, best, id or file');
  assert.equal(
    message({ policy: 'nosuch' }, null),
    undefined,
    'before the engine is loaded a name must only look like one',
  );
  assert.equal(message({ policy: 'No Such' }, null), 'policy "No Such" is not one of the engine\u2019s policies');
  assert.equal(message({ costModel: 'x' }), 'cost model "x" is neither seed nor contest');
  assert.equal(message({ cyclesPerByte: -1 }), 'cyclesPerByte must be a whole number from 0 to 1,048,576');
  assert.equal(message({ effort: 1.5 }), 'the effort must be a whole number of evaluations from 0 to 100,000,000');
  assert.equal(message({ objective: 'time' }), 'objective "time" is neither bytes nor cycles');
  for (const margin of [-1, 1001, 2.5, '10'])
    assert.equal(message({ margin }), 'the data margin must be a whole number of percent from 0 to 1,000');
  assert.equal(message({ capacities: [['L1']] }), 'a capacity row is not a [name, bytes] pair');
  assert.equal(message({ orderSource: 'file' }), 'the order source is a file, but the file is missing');
  assert.equal(
    message({ orderSource: 'file', orderFile: { ids: [0, -1] } }),
    'the order file holds something that is not a node id',
  );
  const withFile = checkSettings({ orderSource: 'file', orderFile: { ids: [1, 0] } }, NAMES).settings;
  assert.deepEqual(withFile.orderFile, { name: 'order.txt', ids: [1, 0] });
});
