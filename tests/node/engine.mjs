// What the Node tests share: where the builds are, the WebAssembly engine loaded as the page
// loads it (from its bytes: the module is built for web and worker), the native CLI's result, and
// the check of a result's timing waits.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const generated = join(root, 'web/src/engine/generated');
export const cli = join(root, 'build/native/spillway');
export const sharedCases = resolve(root, '../shared/cases');

/** A new instance of the WebAssembly engine (and a check that the CLI is built beside it). */
export async function loadEngine() {
  assert.ok(existsSync(join(generated, 'spillway.mjs')), 'build the wasm first: bash scripts/build-wasm.sh');
  assert.ok(existsSync(cli), 'build the CLI first: cmake --build build/native');
  const { default: createSpillway } = await import(join(generated, 'spillway.mjs'));
  return createSpillway({ wasmBinary: readFileSync(join(generated, 'spillway.wasm')) });
}

/** A fresh temporary folder named for the test file. */
export const workDir = (name) => mkdtempSync(join(tmpdir(), `spillway-${name}-`));

const cliWork = workDir('cli');
/** What `spillway plan GRAPH -o OUT ...args` writes, as text. */
export function cliResult(graphText, args = []) {
  const graph = join(cliWork, 'graph.json');
  const out = join(cliWork, 'result.json');
  writeFileSync(graph, graphText);
  execFileSync(cli, ['plan', graph, '-o', out, ...args], { stdio: 'pipe' });
  return readFileSync(out, 'utf8');
}

// Checks every wait of a result against its own timing and graph: the named node ends exactly
// where the waiting node starts, "none" only at cycle 0, the pipe is the node's.
export function checkWaits(graph, result) {
  const nodes = new Map([...graph.Nodes, ...result.addedNodes].map((n) => [n.Id, n]));
  const endOf = new Map(result.timing.map(([id, , end]) => [id, end]));
  assert.equal(result.waits.length, result.order.length);
  assert.equal(result.timing.length, result.order.length);
  const causes = new Set();
  result.waits.forEach((w, i) => {
    const [id, start] = result.timing[i];
    const node = nodes.get(id);
    assert.equal(w.pipe, node.Pipe, `waits[${i}].pipe`);
    causes.add(w.cause);
    if (w.cause === 'none') {
      assert.equal(start, 0, `waits[${i}]`);
      assert.deepEqual(Object.keys(w).filter((k) => k !== 'pipe'), ['cause']);
      return;
    }
    assert.equal(endOf.get(w.node), start, `waits[${i}]: node ${w.node} ends where node ${id} starts`);
    assert.ok(w.cycles >= 0 && w.cycles <= start, `waits[${i}].cycles`);
    assert.equal('buffer' in w, w.cause === 'address', `waits[${i}].buffer`);
    if (w.cause === 'pipe') assert.equal(nodes.get(w.node).Pipe, node.Pipe);
    if (w.cause === 'address') assert.ok(node.Op === 'ALLOC' || node.Op === 'SPILL_IN');
  });
  return causes;
}
