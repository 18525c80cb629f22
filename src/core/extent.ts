/**
 * The largest and smallest of a list of numbers, in a loop. `Math.max(...xs)` passes every value as an
 * argument, and past about 100,000 of them (a results file's peaks, a long run's samples) the call stack
 * overflows; these take any length. As `Math.max()` and `Math.min()`: NaN wins, 0 is above −0, and
 * the empty list gives −Infinity and Infinity.
 */
export function maxOf(xs: Iterable<number>): number {
  let best = -Infinity;
  for (const x of xs) if (x > best || Number.isNaN(x) || (x === 0 && Object.is(best, -0))) best = x;
  return best;
}

export function minOf(xs: Iterable<number>): number {
  let best = Infinity;
  for (const x of xs) if (x < best || Number.isNaN(x) || (Object.is(x, -0) && best === 0)) best = x;
  return best;
}

/** Appends `items` to `target` one by one (`target.push(...items)` overflows the stack on long lists). */
export function append<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
