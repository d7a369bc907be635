// The playground's lessons (web/src/lessons/*.json) are tested like the examples: each lesson's
// graph plans with its settings to byte-identical JSON natively and in WebAssembly, the plan
// passes the verifier, the step it opens at exists, and its question's answer is what the engine
// decided. A program lesson's graph is its program text, as the page's editor holds it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, loadEngine, root, workDir } from './engine.mjs';

const lessonDir = join(root, 'web/src/lessons');
const work = workDir('lessons');
const DEFAULT_CAPACITIES = { L1: 4096, UB: 1024, L0A: 256, L0B: 256, L0C: 512 };

let engine;
before(async () => { engine = await loadEngine(); });

const files = readdirSync(lessonDir).filter((f) => f.endsWith('.json')).sort();
const lessons = files.map((f) => ({ file: f, ...JSON.parse(readFileSync(join(lessonDir, f), 'utf8')) }));

/** The graph JSON of a program, as the engine's translate() gives it. */
function translated(program) {
  const text = engine.translate(program);
  assert.equal(JSON.parse(text).error, undefined, `translate: ${JSON.parse(text).error?.message}`);
  return text;
}

/** The text the page puts in the editor for a lesson. */
function lessonText(lesson) {
  if (lesson.program) return lesson.program;
  return lesson.example ? engine.example(lesson.example) : JSON.stringify(lesson.graph);
}

/** The graph text and the options the page sends for a lesson (settings over the defaults, the
 * graph's Capacities as the capacities: a program's from its memory line, through the engine's
 * translation), with `extra` settings over the lesson's. */
function lessonRun(lesson, extra = {}) {
  const graph = lessonText(lesson);
  const s = { ...lesson.settings, ...extra };
  const options = {
    capacities: JSON.parse(lesson.program ? translated(graph) : graph).Capacities ?? DEFAULT_CAPACITIES,
    order: s.orderSource ?? 'graph',
    ...(s.policy ? { policy: s.policy } : {}),
    cost: { model: s.costModel ?? 'contest' },
  };
  return { graph, options };
}

/** The CLI's result for the same graph and options. */
function cliResult(graph, options) {
  const g = join(work, 'graph.json');
  const out = join(work, 'result.json');
  writeFileSync(g, graph);
  const caps = Object.entries(options.capacities).map(([k, v]) => `${k}=${v}`).join(',');
  const args = ['plan', g, '-o', out, '--caps', caps, '--order', options.order, '--cost', options.cost.model];
  if (options.policy) args.push('--policy', options.policy);
  execFileSync(cli, args, { stdio: 'pipe' });
  return readFileSync(out, 'utf8');
}

function planned(lesson, extra) {
  const { graph, options } = lessonRun(lesson, extra);
  const text = engine.plan(graph, JSON.stringify(options));
  const result = JSON.parse(text);
  assert.equal(result.error, undefined, `${lesson.id}: ${result.error?.message}`);
  assert.deepEqual(JSON.parse(engine.verify(graph, text, JSON.stringify(options))).violations, [], `${lesson.id}: the verifier accepts the plan`);
  if (existsSync(cli)) assert.equal(text, cliResult(graph, options), `${lesson.id}: the same bytes as the CLI`);
  return result;
}

test('the lesson path: twelve lessons in file order, each complete', () => {
  assert.deepEqual(lessons.map((l) => l.id), [
    'fits', 'one-spill', 'belady', 'copyin-cheaper', 'fragmentation', 'order', 'real-kernel',
    'furthest-next-use', 'lru-vs-belady', 'fifo-anomaly', 'clean-vs-dirty', 'sizes-break-belady',
  ]);
  for (const l of lessons) {
    assert.match(l.id, /^[a-z0-9-]{1,40}$/, l.file);
    assert.ok(l.title && Array.isArray(l.text) && l.text.length > 0 && l.text.every((p) => typeof p === 'string' && p.length > 20), `${l.file}: title and text`);
    assert.equal([l.example, l.graph, l.program].filter((x) => x !== undefined).length, 1, `${l.file}: an example, a graph or a program`);
    if (l.program !== undefined) assert.ok(typeof l.program === 'string' && !l.program.trimStart().startsWith('{'), `${l.file}: a program's text`);
    assert.ok(Object.keys(l.settings).every((k) => ['policy', 'orderSource', 'costModel'].includes(k)), `${l.file}: settings`);
    assert.ok(Number.isInteger(l.step) && l.step >= 0, `${l.file}: step`);
    const q = l.question;
    assert.ok(q.text && q.explain && Number.isInteger(q.answer), `${l.file}: question`);
    if (q.choices) {
      assert.ok(q.choices.includes(q.answer), `${l.file}: the answer is among the choices`);
      assert.equal(new Set(q.choices).size, q.choices.length, `${l.file}: distinct choices`);
    } else assert.equal(q.field, 'buf', `${l.file}: only a victim question takes its choices from the decision`);
  }
  if (engine) for (const l of lessons.filter((x) => x.example)) assert.ok(JSON.parse(engine.examples()).some((e) => e.name === l.example), `${l.file}: example ${l.example}`);
});

for (const lesson of lessons) {
  test(`lesson ${lesson.file}: plans, verifies, opens at a real step, and its answer is the engine's`, () => {
    const result = planned(lesson);
    assert.ok(lesson.step < result.order.length, `step ${lesson.step} of ${result.order.length}`);
    if (lesson.program) {
      // the page's program view: the rewritten program, one reload line per spill
      assert.equal(result.program?.unit, 'registers');
      assert.equal(result.program.lines.filter((l) => /^reload /.test(l.text)).length, result.metrics.spills);
    }
    const q = lesson.question;
    if (q.field.startsWith('metrics.')) {
      const r = q.with ? planned(lesson, q.with) : result;
      assert.equal(r.metrics[q.field.slice('metrics.'.length)], q.answer, `${q.field} with ${JSON.stringify(q.with ?? {})}`);
      return;
    }
    const at = q.at ?? lesson.step;
    assert.ok(at >= lesson.step && at < result.order.length, 'the question is about this step or a later one');
    const d = result.decisions.find((x) => x.orderStep === at);
    assert.ok(d, `a decision at step ${at}`);
    if (q.field === 'buf') {
      assert.equal(d.kind, 'spill');
      assert.equal(d.buf, q.answer, 'the victim');
      assert.ok(d.candidates.length >= 2, 'a real choice');
      assert.ok(d.candidates.some((c) => c.buf === q.answer));
    } else if (q.field === 'offset') {
      assert.ok(d.kind === 'place' || d.kind === 'reload');
      assert.equal(d.offset, q.answer);
    } else if (q.field.startsWith('room.')) {
      assert.equal(d.kind, 'spill');
      assert.equal(d.room[q.field.slice('room.'.length)], q.answer);
    } else assert.fail(`unknown field ${q.field}`);
  });
}

/** The figures the program lessons cite besides their answers: the policy, the memory line when
 * not the lesson's own, the metric and its value. Each is the engine's, and the lesson says it. */
const CITED = {
  'furthest-next-use': [
    { policy: 'belady', metric: 'spills', value: 1 },
    { policy: 'residency', metric: 'spills', value: 1 },
  ],
  'lru-vs-belady': [
    { policy: 'lru', metric: 'spills', value: 6 },
    { policy: 'fifo', metric: 'spills', value: 6 },
    { policy: 'belady', metric: 'spills', value: 2 },
  ],
  'fifo-anomaly': [
    { policy: 'fifo', memory: 'registers 3', metric: 'spills', value: 7 },
    { policy: 'lru', memory: 'registers 3', metric: 'spills', value: 10 },
    { policy: 'lru', metric: 'spills', value: 6 },
    { policy: 'belady', memory: 'registers 3', metric: 'spills', value: 5 },
    { policy: 'belady', metric: 'spills', value: 3 },
  ],
  'clean-vs-dirty': [
    { policy: 'belady', metric: 'extraBytes', value: 2 },
    { policy: 'belady', metric: 'spills', value: 1 },
    { policy: 'residency', metric: 'spills', value: 1 },
  ],
  'sizes-break-belady': [
    { policy: 'residency', metric: 'extraBytes', value: 1 },
    { policy: 'belady', metric: 'extraBytes', value: 2 },
    { policy: 'lru', metric: 'extraBytes', value: 2 },
    { policy: 'fifo', metric: 'extraBytes', value: 2 },
  ],
};

test('the program lessons: the figures they cite are the engine\'s', () => {
  assert.deepEqual(Object.keys(CITED), lessons.filter((l) => l.program).map((l) => l.id));
  for (const lesson of lessons.filter((l) => l.program)) {
    const words = [...lesson.text, lesson.question.text, lesson.question.explain].join(' ');
    for (const { policy, memory, metric, value } of CITED[lesson.id]) {
      const program = memory ? lesson.program.replace(/^registers \d+$/m, memory) : lesson.program;
      if (memory) assert.ok(program !== lesson.program && words.includes(memory), `${lesson.id}: ${memory}`);
      const r = planned({ ...lesson, program }, { policy });
      assert.equal(r.metrics[metric], value, `${lesson.id}: ${metric} of ${policy} ${memory ?? ''}`);
      assert.match(words, new RegExp(`\\b${value}\\b`), `${lesson.id} says ${value}`);
    }
  }
});

/** The figures the other lessons cite besides their answers: the settings over the lesson's, the
 * metric, its value, and the words that state it. Each is the engine's, and the lesson says it. */
const CITED_PLANS = {
  'one-spill': [{ with: {}, metric: 'extraBytes', value: 128, says: 'only its reload moves data: 128 bytes' }],
  'copyin-cheaper': [{ with: {}, metric: 'extraBytes', value: 128, says: '128 bytes moved instead of 256' }],
  fragmentation: [
    { with: {}, metric: 'spills', value: 1, says: 'yet a spill happens' },
    { with: { policy: 'lifetime' }, metric: 'spills', value: 0, says: 'switch the policy and it spills nothing' },
  ],
  order: [
    { with: {}, metric: 'spills', value: 514, says: 'against 514 in ascending id order' },
    { with: { orderSource: 'schedule' }, metric: 'spills', value: 12, says: '12, against' },
  ],
};

test('the example lessons: the figures they cite are the engine\'s', () => {
  for (const [id, cited] of Object.entries(CITED_PLANS)) {
    const lesson = lessons.find((l) => l.id === id);
    const words = [...lesson.text, lesson.question.text, lesson.question.explain].join(' ');
    for (const c of cited) {
      assert.equal(planned(lesson, c.with).metrics[c.metric], c.value, `${id}: ${c.metric} with ${JSON.stringify(c.with)}`);
      assert.ok(words.includes(c.says), `${id} says "${c.says}"`);
    }
  }
});
