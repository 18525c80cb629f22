// The sweep chart's frame: an x axis with a tick at each swept value (labels thinned where they would
// collide) and a byte axis that is linear from 0 or logarithmic over whole decades. Pure functions.
import type { SweepRow } from '../../core/sweep/sweep';
import type { Box } from '../svg/layout';
import { niceTicks, scale } from '../svg/ticks';
import type { Frame } from '../svg/types';
import { byteAxis, byteValues } from './axis';
import { maxOf, minOf } from '../../core/extent';

/** Room left and right of the first and last swept value, px, so their dots and ✕ are not cut. */
export const X_PAD = 16;
/** Closest two x tick labels may be, px; a batch axis of 1, 2, 4 … 64 would print 1, 2 and 4 on top of each other. */
export const MIN_TICK_GAP = 28;

export interface SweepFrame extends Frame {
  log: boolean;
  /** The axis' floor: where the "fits the card" band starts. */ floor: number;
}

/** The values whose labels do not collide, walking from the last (which is always kept) to the first. */
export function spacedTicks(xs: readonly number[], px: (x: number) => number, gap = MIN_TICK_GAP): number[] {
  const kept: number[] = [];
  for (const x of [...xs].reverse()) {
    const last = kept.at(-1);
    if (last === undefined || px(last) - px(x) >= gap) kept.push(x);
  }
  return kept.reverse();
}

function xMapping(xs: readonly number[], box: Box, width: number) {
  const x0 = minOf(xs);
  const x1 = maxOf(xs);
  const left = box.left + X_PAD;
  const right = box.left + width - X_PAD;
  // One swept value sits in the middle.
  if (x1 === x0) return { domain: [x0 - 1, x1 + 1] as [number, number], px: () => (left + right) / 2 };
  return { domain: [x0, x1] as [number, number], px: scale([x0, x1], [left, right]) };
}

function yMapping(rows: readonly SweepRow[], budgetBytes: number | null, bottom: number, top: number) {
  const axis = byteAxis(rows, budgetBytes);
  if (axis.log) {
    const [d0, d1] = axis.domain;
    const onLog = scale([Math.log10(d0), Math.log10(d1)], [bottom, top]);
    return {
      log: true,
      floor: d0,
      ticks: axis.ticks,
      step: 1,
      py: (v: number) => onLog(Math.log10(Math.min(d1, Math.max(d0, v)))),
    };
  }
  const hi = Math.max(0, maxOf(byteValues(rows, budgetBytes)));
  const ys = niceTicks(0, hi, 5, { extend: true });
  return {
    log: false,
    floor: 0,
    ticks: ys.ticks,
    step: ys.ticks.length > 1 ? ys.ticks[1]! - ys.ticks[0]! : 1,
    py: scale(ys.domain, [bottom, top]),
  };
}

/** The frame for `rows` (sorted by x, at least one) and the card in a box. */
export function sweepFrame(rows: readonly SweepRow[], budgetBytes: number | null, box: Box): SweepFrame {
  const width = Math.max(10, box.width - box.left - box.right);
  const height = Math.max(10, box.height - box.top - box.bottom);
  const xs = rows.map((r) => r.x);
  const x = xMapping(xs, box, width);
  const y = yMapping(rows, budgetBytes, box.top + height, box.top);
  return {
    left: box.left,
    top: box.top,
    width,
    height,
    xDomain: x.domain,
    px: x.px,
    py: y.py,
    xTicks: spacedTicks(xs, x.px),
    yTicks: y.ticks,
    yStep: y.step,
    log: y.log,
    floor: y.floor,
  };
}

/** The swept value whose tick is nearest to a pointer at `px`. */
export function nearestX(xs: readonly number[], px: number, toPx: (x: number) => number): number | undefined {
  let best: number | undefined;
  for (const x of xs) if (best === undefined || Math.abs(toPx(x) - px) < Math.abs(toPx(best) - px)) best = x;
  return best;
}
