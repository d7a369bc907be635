// The page's reading of programs and of the rewritten program (web/src/lib/program.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import { isProgram, lineAtStep, lineKind, reloadLines, SAMPLE_PROGRAM } from '../../build/web-lib/program.js';

test('a text is a program when its first non-blank character is there and is neither { nor [', () => {
  assert.equal(isProgram('registers 3\na = load\n'), true);
  assert.equal(isProgram('\n  # a comment first\nregisters 2'), true);
  assert.equal(isProgram(' \t\n{"Nodes": []}'), false);
  assert.equal(isProgram('\ufeff{}'), false, 'a byte order mark is blank');
  assert.equal(isProgram(' [1, 2]'), false, 'an array is JSON, as the engine reads it');
  assert.equal(isProgram(''), false);
  assert.equal(isProgram(' \n\t '), false);
  assert.equal(isProgram(SAMPLE_PROGRAM), true);
});

const lines = [
  { text: 'registers 2', step: -1 },
  { text: 'a = load            # a in r0', step: 1 },
  { text: 'b = load            # b in r1', step: 3 },
  { text: 'spill a', step: 4 },
  { text: 'c = mul b b         # c in r0', step: 6 },
  { text: '  reload a          # a in r1', step: 8 },
  { text: 'use a c', step: 9 },
];

test("lines are the memory line, inserted spills and reloads, or the program's own", () => {
  assert.deepEqual(lines.map(lineKind), [
    'memory',
    'instruction',
    'instruction',
    'spill',
    'instruction',
    'reload',
    'instruction',
  ]);
  assert.equal(lineKind({ text: 'spilled = load', step: 2 }), 'instruction', 'a value named like the keyword');
  assert.equal(reloadLines(lines), 1);
  assert.equal(reloadLines([]), 0);
});

test("the cursor's line: its step's line, else the last before it; an ALLOC belongs to the next", () => {
  assert.equal(lineAtStep(lines, 3), 2, 'the step of a line');
  assert.equal(lineAtStep(lines, 7), 4, 'a FREE after c = mul b b');
  assert.equal(lineAtStep(lines, 5, true), 4, 'the ALLOC of c');
  assert.equal(lineAtStep(lines, 0), -1, 'before the first line');
  assert.equal(lineAtStep(lines, 0, true), 1, 'the ALLOC of a');
  assert.equal(lineAtStep(lines, 20), 6, 'after the last line');
  assert.equal(lineAtStep(lines, 20, true), 6, 'an ALLOC with no line after it');
});
