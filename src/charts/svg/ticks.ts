// Axis arithmetic for the hand-drawn line charts: a domain padded to round numbers and the round
// ticks inside it, as a reader expects them (0, 0.5, 1 … or 0, 20, 40 …). Pure functions, no DOM.

/** The round step nearest to `span / count`: 1, 2 or 5 times a power of ten. */
export function niceStep(span: number, count: number, integer = false): number {
  if (!(span > 0) || count < 1) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  return integer ? Math.max(1, Math.round(step)) : step;
}

/** The decimals a tick needs to differ from its neighbour `step` away (0.005 → 3). */
export function stepDecimals(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/** A tick label with just the decimals its step needs: 1.095 beside 1.1, not 1.1 beside 1.1. */
export const stepFormat = (v: number, step: number) => String(Number(v.toFixed(stepDecimals(step))));

/** A span that is never zero, so a flat series still gets an axis around its value. */
function widened(lo: number, hi: number): [number, number] {
  if (hi > lo) return [lo, hi];
  const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
  return [lo - pad, hi + pad];
}

/**
 * Ticks of about `count` round values covering [lo, hi]. With `extend` the first and last ticks may
 * lie outside it and become the axis' ends (a value axis: the line never touches the frame); without,
 * only ticks inside are kept (a step or time axis that starts and ends at the data).
 */
export function niceTicks(
  lo: number,
  hi: number,
  count = 5,
  opts: { integer?: boolean; extend?: boolean } = {},
) {
  const [a, b] = widened(lo, hi);
  const step = niceStep(b - a, count, opts.integer);
  const first = opts.extend ? Math.floor(a / step) * step : Math.ceil(a / step) * step;
  const last = opts.extend ? Math.ceil(b / step) * step : Math.floor(b / step) * step;
  const ticks: number[] = [];
  // Rounded to the step's decimals so 0.1 + 0.2 reads 0.3, not 0.30000000000000004.
  const decimals = stepDecimals(step);
  for (let i = 0; first + i * step <= last + step * 1e-9; i++)
    ticks.push(Number((first + i * step).toFixed(decimals)));
  return { ticks, domain: (opts.extend ? [first, last] : [a, b]) as [number, number] };
}

/** Maps a value in `domain` to a pixel in `range` (either may run backwards, as a y axis does). */
export function scale(domain: readonly [number, number], range: readonly [number, number]) {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v: number) => r0 + (v - d0) * k;
}

/** The index of the point whose x is nearest to `x`, in points sorted by x; -1 when there is none. */
export function nearestIndex(xs: readonly number[], x: number): number {
  if (xs.length === 0) return -1;
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid;
    else hi = mid;
  }
  return Math.abs(xs[hi]! - x) < Math.abs(xs[lo]! - x) ? hi : lo;
}
