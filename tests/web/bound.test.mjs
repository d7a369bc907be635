// How far a plan is from its order's lower bounds, in data and in cycles (web/src/lib/bound.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import { boundGap, cyclesGap, fixed1 } from '../../build/web-lib/bound.js';

test('fixed1 rounds an exact tie to the even digit, as printf("%.1f") does', () => {
  assert.equal(fixed1(0.25), '0.2');
  assert.equal(fixed1(0.75), '0.8');
  assert.equal(fixed1(12.5), '12.5');
  assert.equal(fixed1(2.25), '2.2');
  assert.equal(fixed1(1.25), '1.2');
  assert.equal((1.25).toFixed(1), '1.3', 'where toFixed differs');
  assert.equal(fixed1(100), '100.0');
});

test('boundGap names the plan at the bound, above a bound of 0, or the percentage above it', () => {
  assert.equal(boundGap(4096, 4096), 'at the bound: optimal for this order');
  assert.equal(boundGap(0, 0), 'at the bound: optimal for this order');
  assert.equal(boundGap(512, 0), 'above the lower bound for this order, which is 0');
  assert.equal(boundGap(1125, 1000), 'within 12.5% of the lower bound for this order');
  assert.equal(boundGap(10125, 10000), 'within 1.2% of the lower bound for this order');
  assert.equal(boundGap(3000, 1000), 'within 200.0% of the lower bound for this order');
});

test('cyclesGap says a plan is at its cycles bound, or how far above it', () => {
  assert.equal(cyclesGap(83012, 83012, 'this bound'), 'at this bound');
  assert.equal(cyclesGap(0, 0, 'this bound'), 'at this bound');
  assert.equal(cyclesGap(94508, 83012, 'the lower bound for this order'), '13.8% above the lower bound for this order');
  assert.equal(cyclesGap(1125, 1000, 'this bound'), '12.5% above this bound');
  assert.equal(cyclesGap(7, 0, 'this bound'), 'above this bound, which is 0');
});
