// A horizontal bar chart drawn as plain SVG. It replaces Recharts for the layer bars: when a run's
// fine-tune phase began, Recharts redrew them measuring every label's words in the DOM, a single
// 349 ms task in a Chrome trace of a training run on a loaded 2-core machine.
import { memo, useMemo } from 'react';
import { barsFrame, fitted } from './barsLayout';
import { useWidth } from './useWidth';
import './LineSvg.css';

export interface SvgBar {
  label: string;
  value: number;
}

interface BarsSvgProps {
  bars: readonly SvgBar[];
  /** A value as its tick label and its hover title read. */ format: (v: number) => string;
  /** Room for the labels, px. */ labelWidth: number;
  /** What a bar's hover title calls its value. */ name: string;
}

const ROW = 24;
const FONT = 11;
// Room on the right for half of the last tick label, which is centred on the axis end.
const BOX = { row: ROW, top: 4, right: 32, bottom: 28 };

/** Bars, vertical grid lines at the ticks, the value axis below and a label beside each bar. */
export const BarsSvg = memo(function BarsSvg({ bars, format, labelWidth, name }: BarsSvgProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const f = useMemo(
    () =>
      barsFrame(
        bars.map((b) => b.value),
        { ...BOX, width, labelWidth },
      ),
    [bars, width, labelWidth],
  );
  const bottom = f.top + f.height;
  return (
    <div className="chart-drawing" ref={ref}>
      <svg className="chart-svg" width={width} height={bottom + BOX.bottom} aria-hidden="true">
        <g className="chart-grid">
          {f.ticks.map((t) => (
            <line key={t} x1={f.px(t)} x2={f.px(t)} y1={f.top} y2={bottom} />
          ))}
        </g>
        {bars.map((b, i) => (
          <g key={b.label}>
            <title>{`${b.label}: ${name} ${format(b.value)}`}</title>
            <rect
              x={f.left}
              y={f.rowTop(i) + 3}
              width={Math.max(0, f.px(b.value) - f.left)}
              height={ROW - 6}
              fill="var(--chart-main)"
            />
            <text
              className="chart-tick"
              x={f.left - 6}
              y={f.rowTop(i) + ROW / 2}
              dy="0.32em"
              textAnchor="end"
              style={{ fontSize: FONT }}
            >
              {fitted(b.label, labelWidth - 8, FONT)}
            </text>
          </g>
        ))}
        <line className="chart-axis" x1={f.left} x2={f.left + f.width} y1={bottom} y2={bottom} />
        <line className="chart-axis" x1={f.left} x2={f.left} y1={f.top} y2={bottom} />
        {f.ticks.map((t) => (
          <text key={t} className="chart-tick" x={f.px(t)} y={bottom + 16} textAnchor="middle">
            {format(t)}
          </text>
        ))}
      </svg>
    </div>
  );
});
