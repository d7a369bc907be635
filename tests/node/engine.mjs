// What the Node tests share: where the builds are, the WebAssembly engine loaded as the page
// loads it (from its bytes: the module is built for web and worker), and the native CLI's result.
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
