// Where a chart's lines go: the data's extent, round ticks and the pixel mappings, and each line as
// an SVG path. Pure functions: the chart component only renders what these return.
import { niceTicks, scale } from './ticks';
import type { Frame, SvgLine, SvgPoint } from './types';

export interface AxisSpec {
  /** x: where the axis starts ('data': at the first point). */ from?: number | 'data';
  /** y: a fixed domain (accuracies: 0 to 1). */ domain?: [number, number];
  /** y: include zero (bytes). */ fromZero?: boolean;
  /** Ticks on whole numbers only (steps). */ integer?: boolean;
}

export interface Box {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function extent(lines: readonly SvgLine[], of: (p: SvgPoint) => number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const l of lines)
    for (const p of l.points) {
      const v = of(p);
      if (Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** The plot's frame for `lines` in a box, with about one x tick per 80 px and five y ticks. */
export function frameOf(lines: readonly SvgLine[], box: Box, x: AxisSpec, y: AxisSpec): Frame {
  const width = Math.max(10, box.width - box.left - box.right);
  const height = Math.max(10, box.height - box.top - box.bottom);
  const [x0, x1] = extent(lines, (p) => p.x);
  const xs = niceTicks(typeof x.from === 'number' ? x.from : x0, x1, Math.max(2, Math.floor(width / 80)), {
    integer: x.integer,
  });
  const [y0, y1] = extent(lines, (p) => p.y);
  const ys = y.domain
    ? niceTicks(y.domain[0], y.domain[1], 5)
    : niceTicks(y.fromZero ? Math.min(0, y0) : y0, y1, 5, { extend: true });
  return {
    left: box.left,
    top: box.top,
    width,
    height,
    xDomain: xs.domain,
    px: scale(xs.domain, [box.left, box.left + width]),
    py: scale(ys.domain, [box.top + height, box.top]),
    xTicks: xs.ticks,
    yTicks: ys.ticks,
    yStep: ys.ticks.length > 1 ? ys.ticks[1]! - ys.ticks[0]! : 1,
  };
}

/** The line as a path's `d`; a non-finite value (a NaN loss) breaks the line instead of bending it. */
export function pathOf(points: readonly SvgPoint[], frame: Pick<Frame, 'px' | 'py'>): string {
  let d = '';
  let open = false;
  for (const p of points) {
    if (!Number.isFinite(p.y) || !Number.isFinite(p.x)) {
      open = false;
      continue;
    }
    d += `${open ? 'L' : 'M'}${frame.px(p.x).toFixed(1)},${frame.py(p.y).toFixed(1)}`;
    open = true;
  }
  return d;
}
