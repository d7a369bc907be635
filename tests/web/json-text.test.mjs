// JSON text helpers (web/src/lib/json-text.ts): compacting and laying out keep the value; paths
// find the text of a value.
import test from 'node:test';
import assert from 'node:assert/strict';
import { compactJson, layoutJson, nodeIndexWhere, rangeOfPath } from '../../build/web-lib/json-text.js';

const GRAPH = `{ "Nodes": [ {"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 8, "Type": "L1"},
  {"Id": 1, "Op": "MM \\"x\\" y", "Bufs": [0]},
  {"Id": 2, "Op": "FREE", "BufId": 0, "Type": "L1"} ],
  "Edges": [[0, 1], [1, 2]], "Order": [0, 1, 2], "Note": "a  b\\n" }`;

test('compactJson removes whitespace outside strings only', () => {
  const compact = compactJson(GRAPH);
  assert.deepEqual(JSON.parse(compact), JSON.parse(GRAPH));
  assert.ok(!/\s/.test(compact.replace(/"(?:[^"\\]|\\.)*"/g, '')), 'no whitespace outside strings');
  assert.ok(compact.includes('"MM \\"x\\" y"') && compact.includes('"a  b\\n"'), 'strings as written');
});

test('layoutJson keeps the value and puts one node a line', () => {
  const laid = layoutJson(compactJson(GRAPH));
  assert.deepEqual(JSON.parse(laid), JSON.parse(GRAPH));
  const lines = laid.split('\n');
  assert.equal(lines.filter((l) => l.includes('"Id":')).length, 3, 'each node on its own line');
  assert.equal(compactJson(laid), compactJson(GRAPH), 'compacting the layout gives the compact text back');
});

test('rangeOfPath and nodeIndexWhere find values in the text', () => {
  const r = rangeOfPath(GRAPH, ['Nodes', 1, 'Op']);
  assert.equal(GRAPH.slice(r.from, r.to), '"MM \\"x\\" y"');
  const e = rangeOfPath(GRAPH, ['Edges', 1]);
  assert.equal(GRAPH.slice(e.from, e.to), '[1, 2]');
  assert.equal(rangeOfPath(GRAPH, ['Nodes', 3]), null);
  assert.equal(nodeIndexWhere(GRAPH, 'Op', '"FREE"'), 2);
  assert.equal(nodeIndexWhere(GRAPH, 'Id', '1'), 1);
  assert.equal(nodeIndexWhere(GRAPH, 'Id', '7'), -1);
});
