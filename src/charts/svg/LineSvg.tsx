// A line chart drawn as plain SVG. It replaces Recharts for the charts that redraw while a run trains
// (loss, accuracy, memory over time): a Recharts line chart re-renders dozens of components, measures
// every tick label in the DOM and runs its own store on each redraw, which traced as the page's long
// tasks (70–900 ms each on a loaded 2-core machine); this draws the same lines in a few milliseconds.
import { memo, useMemo, useState } from 'react';
import { Axes } from './Axes';
import { frameOf, pathOf, type AxisSpec } from './layout';
import { ChartPlot } from './ChartPlot';
import { Readout, readoutRows } from './Readout';
import type { SvgLine, SvgMarker } from './types';
import { useWidth } from './useWidth';
import './LineSvg.css';

export interface LineSvgProps {
  lines: readonly SvgLine[];
  markers?: readonly SvgMarker[];
  height: number;
  x: AxisSpec & { label: string; format: (v: number) => string };
  y: AxisSpec & {
    /** A tick's label, given the ticks' spacing. */ format: (v: number, step: number) => string;
    /** Room for the tick labels, px. */ width: number;
  };
  /** How the hovered x and each line's value read in the hover box. */
  readout: { x: (v: number) => string; y: (v: number) => string };
}

const MARGIN = { top: 8, right: 16, bottom: 36 };

function Markers({
  markers,
  top,
  bottom,
  px,
}: {
  markers: readonly SvgMarker[];
  top: number;
  bottom: number;
  px: (x: number) => number;
}) {
  return (
    <g className="chart-markers">
      {markers.map((m) => (
        <g key={`${m.label}-${m.x}`}>
          <line x1={px(m.x)} x2={px(m.x)} y1={top} y2={bottom} stroke={m.stroke} strokeDasharray={m.dash} />
          <text
            className="chart-tick"
            x={px(m.x) + 4}
            y={m.at === 'top' ? top + 12 : bottom - 6}
            fontSize={11}
          >
            {m.label}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Lines, grid, ticks, markers, a legend above and a readout of the nearest values under the pointer. */
export const LineSvg = memo(function LineSvg({ lines, markers = [], height, x, y, readout }: LineSvgProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [hover, setHover] = useState<number | null>(null);
  const frame = useMemo(
    () => frameOf(lines, { width, height, left: y.width, ...MARGIN }, x, y),
    [lines, width, height, x, y],
  );
  const paths = useMemo(() => lines.map((l) => pathOf(l.points, frame)), [lines, frame]);
  const onHover = (px: number | null) => {
    const [x0, x1] = frame.xDomain;
    setHover(px === null ? null : x0 + ((px - frame.left) / frame.width) * (x1 - x0));
  };
  const bottom = frame.top + frame.height;
  const rows = hover === null ? [] : readoutRows(lines, hover, readout.y);
  const guide = rows[0] ? frame.px(rows[0].x) : null;
  return (
    <ChartPlot
      drawingRef={ref}
      legend={lines}
      width={width}
      height={height}
      onHover={onHover}
      readout={rows.length > 0 && <Readout rows={rows} frame={frame} format={readout.x} />}
    >
      <Axes frame={frame} xFormat={x.format} yFormat={y.format} xLabel={x.label} />
      <Markers markers={markers} top={frame.top} bottom={bottom} px={frame.px} />
      {lines.map((l, i) => (
        <g key={l.id} className="chart-line">
          <path
            className="chart-line-curve"
            d={paths[i]}
            fill="none"
            stroke={l.stroke}
            strokeWidth={l.width ?? 1.5}
            strokeDasharray={l.dash}
          />
          {l.dots &&
            l.points.map((p) => (
              <circle key={p.x} cx={frame.px(p.x)} cy={frame.py(p.y)} r={3} fill={l.stroke} />
            ))}
        </g>
      ))}
      {guide !== null && <line className="chart-guide" x1={guide} x2={guide} y1={frame.top} y2={bottom} />}
    </ChartPlot>
  );
});
