// The peak-vs-batch (or size) chart of the sweep and the planner, drawn as plain SVG: a Recharts line
// chart measured its tick labels in the DOM and re-rendered dozens of components on each redraw, which
// traced as 67–107 ms tasks while a dropped folder's files were opened and the planner redrew.
import { memo, useMemo, useState } from 'react';
import { ChartSummary } from './ChartSummary';
import type { SweepRow } from '../core/sweep/sweep';
import { Axes } from './svg/Axes';
import { pathOf } from './svg/layout';
import { ChartPlot } from './svg/ChartPlot';
import { crossPath } from './svg/Legend';
import { Readout, type ReadoutRow } from './svg/Readout';
import type { SvgLine, SvgPoint } from './svg/types';
import { useWidth } from './svg/useWidth';
import './svg/LineSvg.css';
import { byteAxis, LOG_SPAN } from './sweep/axis';
import { nearestX, sweepFrame, type SweepFrame } from './sweep/frame';
import { oomMarks, sweepSeries } from './sweep/series';
import { formatBytes } from '../core/format';

const OOM = 'var(--chart-oom)';
const FITS = 'var(--chart-fits)';

interface Props {
  title: string;
  /** What x is, e.g. "batch size". */ xLabel: string;
  rows: SweepRow[];
  /** Simulated card in bytes; null when none is set. */ budgetBytes: number | null;
  /** Backend the peaks were measured on. */ backendLabel: string;
  /** Only the planner's curves, before anything ran (no measured line, no measured label). */
  predictedOnly?: boolean;
  /** The figure's test id (charts outside the sweep must not be taken for the sweep's). */
  testId?: string;
}

type CaptionProps = Pick<Props, 'title' | 'backendLabel'> & {
  predictedOnly: boolean;
  testId: string;
  log: boolean;
};

function SweepCaption({ title, backendLabel, predictedOnly, testId, log }: CaptionProps) {
  return (
    <figcaption>
      {title} {!predictedOnly && <span className="label-measured">measured · {backendLabel}</span>}
      <span className="label-predicted">predicted · planner</span>
      {log && (
        <span className="hint" data-testid={`${testId}-log-note`}>
          {' '}
          Log axis: the values span more than {LOG_SPAN}×, so each gridline multiplies.
        </span>
      )}
    </figcaption>
  );
}

/** The chart in one sentence: each point's predicted and measured peak, or that it ran out. */
function sweepSummary(xLabel: string, rows: readonly SweepRow[]): string {
  const point = (r: SweepRow) => {
    const parts = [
      r.predicted !== undefined ? `predicted ${formatBytes(r.predicted)}` : '',
      r.measured !== undefined ? `measured ${formatBytes(r.measured)}` : '',
      r.oom ? 'ran out of memory' : '',
    ].filter(Boolean);
    return `${xLabel} ${r.x}: ${parts.join(', ') || 'not measured'}`;
  };
  return `${rows.map(point).join('; ')}.`;
}

const BOX = { height: 260, left: 72, right: 16, top: 8, bottom: 36 };

interface DrawingProps {
  xLabel: string;
  rows: readonly SweepRow[];
  budgetBytes: number | null;
  lines: readonly SvgLine[];
  ooms: readonly SvgPoint[];
}

/** The simulated card: the band that fits under it, from the axis floor, and its line, both labelled. */
function BudgetMarks({ budgetBytes, frame }: { budgetBytes: number; frame: SweepFrame }) {
  const y = frame.py(budgetBytes);
  const floor = frame.py(frame.floor);
  const right = frame.left + frame.width;
  // Above the line, or under it when the line runs along the top of the plot.
  const labelY = y - frame.top < 14 ? y + 13 : y - 5;
  return (
    <g className="chart-budget">
      <rect
        x={frame.left}
        y={y}
        width={frame.width}
        height={Math.max(0, floor - y)}
        fill={FITS}
        fillOpacity={0.08}
      />
      <line x1={frame.left} x2={right} y1={y} y2={y} stroke={OOM} strokeDasharray="6 3" />
      <text className="chart-tick" x={frame.left + 6} y={floor - 6} fontSize={11}>
        fits the card
      </text>
      <text className="chart-tick" x={right - 6} y={labelY} fontSize={11} textAnchor="end">
        simulated card · {formatBytes(budgetBytes)}
      </text>
    </g>
  );
}

/** Each value at the hovered swept point, and whether it ran out. */
function hoverRows(lines: readonly SvgLine[], row: SweepRow): ReadoutRow[] {
  const values = lines.flatMap((l) => {
    const y = l.points.find((p) => p.x === row.x)?.y;
    return y !== undefined && Number.isFinite(y)
      ? [{ id: l.id, name: l.name, stroke: l.stroke, x: row.x, value: formatBytes(y) }]
      : [];
  });
  return row.oom
    ? [...values, { id: 'oom', name: 'out of memory', stroke: OOM, x: row.x, value: 'ran out' }]
    : values;
}

/** The lines, a dot on each measured point, and a ✕ where a point ran out of memory. */
function Curves({
  lines,
  ooms,
  frame,
}: {
  lines: readonly SvgLine[];
  ooms: readonly SvgPoint[];
  frame: SweepFrame;
}) {
  return (
    <>
      {lines.map((l) => (
        <g key={l.id} className="chart-line">
          <path
            d={pathOf(l.points, frame)}
            fill="none"
            stroke={l.stroke}
            strokeWidth={l.width ?? 1.5}
            strokeDasharray={l.dash}
          />
          {l.dots &&
            l.points
              .filter((p) => Number.isFinite(p.y))
              .map((p) => <circle key={p.x} cx={frame.px(p.x)} cy={frame.py(p.y)} r={3} fill={l.stroke} />)}
        </g>
      ))}
      {ooms.map((p) => (
        <path
          key={p.x}
          d={crossPath(frame.px(p.x), frame.py(p.y), 6)}
          stroke={OOM}
          strokeWidth={3}
          strokeLinecap="round"
          data-testid="sweep-oom-marker"
        />
      ))}
    </>
  );
}

/** Grid, byte axis, the card, the lines, the ✕ marks and a readout of the point under the pointer. */
function SweepDrawing({ xLabel, rows, budgetBytes, lines, ooms }: DrawingProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [hover, setHover] = useState<number | null>(null);
  const frame = useMemo(() => sweepFrame(rows, budgetBytes, { ...BOX, width }), [rows, budgetBytes, width]);
  const onHover = (px: number | null) =>
    setHover(
      px === null
        ? null
        : (nearestX(
            rows.map((r) => r.x),
            px,
            frame.px,
          ) ?? null),
    );
  const bottom = frame.top + frame.height;
  const hovered = rows.find((r) => r.x === hover);
  const readout = hovered ? hoverRows(lines, hovered) : [];
  const legend = [
    ...lines,
    ...(ooms.length > 0 ? [{ id: 'oom', name: 'out of memory', stroke: OOM, mark: 'cross' as const }] : []),
  ];
  return (
    <ChartPlot
      drawingRef={ref}
      legend={legend}
      width={width}
      height={BOX.height}
      onHover={onHover}
      readout={
        readout.length > 0 && <Readout rows={readout} frame={frame} format={(x) => `${xLabel} ${x}`} />
      }
    >
      <Axes frame={frame} xFormat={String} yFormat={formatBytes} xLabel={xLabel} />
      {budgetBytes !== null && Number.isFinite(budgetBytes) && (
        <BudgetMarks budgetBytes={budgetBytes} frame={frame} />
      )}
      <Curves lines={lines} ooms={ooms} frame={frame} />
      {hovered && (
        <line
          className="chart-guide"
          x1={frame.px(hovered.x)}
          x2={frame.px(hovered.x)}
          y1={frame.top}
          y2={bottom}
        />
      )}
    </ChartPlot>
  );
}

/**
 * Peak step memory against one swept quantity: measured points, the planner's curve, the simulated
 * card, and a ✕ for each point that ran out of memory: at the card's height when one is set (the step
 * needed more than that), otherwise at the predicted peak.
 */
function SweepChartView({
  title,
  xLabel,
  rows,
  budgetBytes,
  backendLabel,
  predictedOnly = false,
  testId = 'sweep-chart',
}: Props) {
  const lines = useMemo(
    () => sweepSeries(rows, predictedOnly, backendLabel),
    [rows, predictedOnly, backendLabel],
  );
  const ooms = useMemo(() => oomMarks(rows, budgetBytes), [rows, budgetBytes]);
  const log = byteAxis(rows, budgetBytes).log;
  return (
    <figure
      className="chart"
      data-testid={testId}
      data-oom-markers={ooms.length}
      data-points={rows.length}
      data-scale={log ? 'log' : 'linear'}
    >
      <SweepCaption {...{ title, backendLabel, predictedOnly, testId }} log={log} />
      {rows.length === 0 ? (
        <p className="muted chart-empty">No points here yet: run the sweep.</p>
      ) : (
        <>
          <ChartSummary testId={`${testId}-summary`} text={sweepSummary(xLabel, rows)} />
          <SweepDrawing {...{ xLabel, rows, budgetBytes, lines, ooms }} />
        </>
      )}
    </figure>
  );
}

/** Same props, same drawing: rows rebuilt with equal values (a store update elsewhere) are equal. */
function sameProps(a: Props, b: Props): boolean {
  const { rows: ra, ...restA } = a;
  const { rows: rb, ...restB } = b;
  const keys = Object.keys({ ...restA, ...restB }) as (keyof typeof restA)[];
  return (
    keys.every((k) => Object.is(restA[k], restB[k])) &&
    (ra === rb || JSON.stringify(ra) === JSON.stringify(rb))
  );
}

/**
 * A sweep's or the planner's peak-vs-batch chart. Memoised on the values it draws: a store update that
 * changed nothing here redraws nothing.
 */
export const SweepChart = memo(SweepChartView, sameProps);
