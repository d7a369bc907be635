// The engine's registries (policies, order sources) and what the TypeScript side names: the
// types of wasm/spillway.d.ts and the page's policy texts must list exactly the registry's
// names, so that a policy or order source added to the engine cannot go missing in the page.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, loadEngine, root } from './engine.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

const dts = readFileSync(join(root, 'wasm/spillway.d.ts'), 'utf8');

/** The string literals of `export type NAME = "a" | "b" ...;` in the d.ts. */
function unionOf(name) {
  const m = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(m, `wasm/spillway.d.ts declares ${name}`);
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}

test('spillway.d.ts PolicyName lists the policies of the registry, in its order', () => {
  const policies = JSON.parse(engine.policies());
  assert.deepEqual(unionOf('PolicyName'), policies);
  assert.deepEqual(JSON.parse(engine.policyList()).map((p) => p.name), policies);
});

test('spillway.d.ts OrderSourceName lists the order sources of the registry, in its order', () => {
  assert.deepEqual(unionOf('OrderSourceName'), JSON.parse(engine.orders()).map((o) => o.name));
});

test('policyList() gives each policy a title and a description, as `spillway --help` lists them', () => {
  const list = JSON.parse(engine.policyList());
  const help = execFileSync(cli, ['--help'], { encoding: 'utf8' });
  assert.ok(help.includes(`--policy ${list.map((p) => p.name).join('|')}\n`), 'the --policy line');
  for (const [i, p] of list.entries()) {
    assert.ok(p.title.length > 10 && p.description.length > 40, p.name);
    assert.ok(help.includes(`${p.name}${i === 0 ? ' (default)' : ''}: ${p.title}`), `${p.name} in --help`);
  }
});

test("the page's policy texts (web/src/lib/explanations.ts) are exactly the registry's policies", () => {
  const text = readFileSync(join(root, 'web/src/lib/explanations.ts'), 'utf8');
  const block = text.match(/POLICY_TEXT[^=]*=\s*\{([\s\S]*?)\n\};/);
  assert.ok(block, 'explanations.ts holds POLICY_TEXT');
  const keys = [...block[1].matchAll(/^\s{2}([a-z][\w-]*|'[^']+'):/gm)].map((m) => m[1].replace(/'/g, ''));
  assert.deepEqual([...keys].sort(), [...JSON.parse(engine.policies())].sort());
});

test("the page's menus take their entries from the engine, not from a list of its own", () => {
  const settings = readFileSync(join(root, 'web/src/components/settings.ts'), 'utf8');
  assert.match(settings, /engine\?\.policies/);
  assert.match(settings, /engine\?\.orders/);
  const names = [...JSON.parse(engine.policies()), ...JSON.parse(engine.orders()).map((o) => o.name)];
  // "graph" is also a capacity's origin and "seed" a cost model there: names of other settings.
  for (const name of names.filter((n) => n !== 'graph' && n !== 'seed')) {
    assert.doesNotMatch(settings, new RegExp(`['"]${name}['"]`), `settings.ts names "${name}" itself`);
  }
});
