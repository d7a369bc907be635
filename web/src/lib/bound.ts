// How far a plan is from the lower bounds of its order: the data it moves (metrics.bound), in the
// CLI summary's words ("lower bound for this order: N bytes (the plan is within X% of it)"), and
// its cycles (metrics.cyclesBound).

/** x with one decimal as C's printf("%.1f") writes it: an exact tie rounds to the even digit
 * (JavaScript's toFixed rounds it up), so that the page and the CLI print the same percentage. */
export function fixed1(x: number): string {
  const tenths = x * 10;
  if (tenths % 1 === 0.5) {
    const down = Math.floor(tenths);
    return ((down % 2 === 0 ? down : down + 1) / 10).toFixed(1);
  }
  return x.toFixed(1);
}

/** "at the bound: optimal for this order", "within 12.5% of the lower bound for this order", or
 * (a bound of 0 under a plan that moves data) "above the bound, which is 0". */
export function boundGap(moved: number, bound: number): string {
  if (moved === bound) return 'at the bound: optimal for this order';
  if (bound === 0) return 'above the lower bound for this order, which is 0';
  return `within ${fixed1((100 * (moved - bound)) / bound)}% of the lower bound for this order`;
}

/** "at WHAT" or "12.5% above WHAT": `cycles` against a lower bound `bound` named `what`. */
export function cyclesGap(cycles: number, bound: number, what: string): string {
  if (cycles <= bound) return `at ${what}`;
  if (bound === 0) return `above ${what}, which is 0`;
  return `${fixed1((100 * (cycles - bound)) / bound)}% above ${what}`;
}
