import type { Frame } from './types';

interface AxesProps {
  frame: Frame;
  xFormat: (v: number) => string;
  /** A y tick's label; gets the ticks' spacing too. */ yFormat: (v: number, step: number) => string;
  xLabel: string;
}

/** Grid, axis lines, tick labels and the x axis' name. */
export function Axes({ frame, xFormat, yFormat, xLabel }: AxesProps) {
  const { left, top, width, height, px, py, xTicks, yTicks } = frame;
  const bottom = top + height;
  return (
    <g className="chart-axes">
      <g className="chart-grid">
        {yTicks.map((t) => (
          <line key={`y${t}`} x1={left} x2={left + width} y1={py(t)} y2={py(t)} />
        ))}
        {xTicks.map((t) => (
          <line key={`x${t}`} x1={px(t)} x2={px(t)} y1={top} y2={bottom} />
        ))}
      </g>
      <line className="chart-axis" x1={left} x2={left + width} y1={bottom} y2={bottom} />
      <line className="chart-axis" x1={left} x2={left} y1={top} y2={bottom} />
      {yTicks.map((t) => (
        <text key={`yl${t}`} className="chart-tick" x={left - 6} y={py(t)} dy="0.32em" textAnchor="end">
          {yFormat(t, frame.yStep)}
        </text>
      ))}
      {xTicks.map((t) => (
        <text key={`xl${t}`} className="chart-tick" x={px(t)} y={bottom + 14} textAnchor="middle">
          {xFormat(t)}
        </text>
      ))}
      <text className="chart-tick" x={left + width / 2} y={bottom + 30} textAnchor="middle">
        {xLabel}
      </text>
    </g>
  );
}
