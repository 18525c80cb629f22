import { nearestIndex } from './ticks';
import type { Frame, SvgLine } from './types';

/** One line's point nearest the pointer, as the hover box shows it. */
export interface ReadoutRow {
  id: string;
  name: string;
  stroke: string;
  x: number;
  value: string;
}

/** Each line's point nearest to `x`; lines without points are left out. */
export function readoutRows(
  lines: readonly SvgLine[],
  x: number,
  format: (v: number) => string,
): ReadoutRow[] {
  return lines.flatMap((l) => {
    const p =
      l.points[
        nearestIndex(
          l.points.map((q) => q.x),
          x,
        )
      ];
    return p ? [{ id: l.id, name: l.name, stroke: l.stroke, x: p.x, value: format(p.y) }] : [];
  });
}

/** The hover box beside the guide line, on the side of the plot with more room. */
export function Readout({
  rows,
  frame,
  format,
}: {
  rows: ReadoutRow[];
  frame: Frame;
  format: (v: number) => string;
}) {
  const at = rows[0]!.x;
  const left = frame.px(at);
  const onRight = left < frame.left + frame.width / 2;
  const place = onRight ? { left: left + 8 } : { right: `calc(100% - ${left - 8}px)` };
  return (
    <div className="chart-readout" style={{ ...place, top: frame.top + 24 }}>
      <div>{format(at)}</div>
      {rows.map((r) => (
        <div key={r.id} style={{ color: r.stroke }}>
          {r.name}: {r.value}
        </div>
      ))}
    </div>
  );
}
