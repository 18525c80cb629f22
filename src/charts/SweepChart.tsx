import { memo } from 'react';
import { ChartSummary } from './ChartSummary';
import { CartesianGrid, Legend, LineChart, ResponsiveContainer, Tooltip, XAxis } from 'recharts';
import { formatBytes } from '../core/memory';
import type { SweepRow } from '../core/sweep';
import { byteAxis, byteYAxis, LOG_SPAN } from './sweep/axis';
import { SweepLegend } from './sweep/legend';
import { budgetMarks, sweepLines } from './sweep/series';

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

/** Each row with where its ✕ goes: at the card when one is set, else at the predicted or highest peak. */
function withOomMarks(rows: readonly SweepRow[], budgetBytes: number | null) {
  const highest = Math.max(0, ...rows.map((r) => r.measured ?? 0));
  return rows.map((r) => ({
    ...r,
    oomAt: r.oom ? (budgetBytes ?? r.predicted ?? highest) : undefined,
  }));
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
  const data = withOomMarks(rows, budgetBytes);
  const oomCount = rows.filter((r) => r.oom).length;
  const bytes = (v: unknown) => (typeof v === 'number' ? formatBytes(v) : String(v));
  const axis = byteAxis(rows, budgetBytes);
  const floor = axis.log ? axis.domain[0] : 0;
  return (
    <figure
      className="chart"
      data-testid={testId}
      data-oom-markers={oomCount}
      data-points={rows.length}
      data-scale={axis.log ? 'log' : 'linear'}
    >
      <SweepCaption {...{ title, backendLabel, predictedOnly, testId }} log={axis.log} />
      {rows.length === 0 ? (
        <p className="muted chart-empty">No points here yet: run the sweep.</p>
      ) : (
        <>
          <ChartSummary testId={`${testId}-summary`} text={sweepSummary(xLabel, rows)} />
          <ResponsiveContainer width="100%" height={260} initialDimension={{ width: 480, height: 260 }}>
            <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis
                type="number"
                dataKey="x"
                domain={['dataMin', 'dataMax']}
                ticks={rows.map((r) => r.x)}
                padding={{ left: 16, right: 16 }}
                label={{ value: xLabel, position: 'insideBottom', offset: -8 }}
              />
              {byteYAxis(axis)}
              <Tooltip
                formatter={(v, _name, item) => (item.dataKey === 'oomAt' ? 'ran out' : bytes(v))}
                labelFormatter={(x) => `${xLabel} ${String(x)}`}
              />
              <Legend verticalAlign="top" content={SweepLegend} itemSorter={null} />
              {sweepLines(predictedOnly, backendLabel, oomCount)}
              {budgetMarks(budgetBytes, floor)}
            </LineChart>
          </ResponsiveContainer>
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
 * A sweep's or the planner's peak-vs-batch chart. Memoised on the values it draws: Recharts redrawing
 * it for a store update that changed nothing here was a long task while a run trained.
 */
export const SweepChart = memo(SweepChartView, sameProps);
