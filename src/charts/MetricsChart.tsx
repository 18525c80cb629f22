import { memo, useMemo } from 'react';
import { downsampleMax } from '../core/run/downsample';
import { useThrottled } from './useThrottled';
import { ChartSummary } from './ChartSummary';
import { LineSvg } from './svg/LineSvg';
import { stepFormat } from './svg/ticks';

/** A per-step series and per-epoch train/validation series of one metric. */
export interface MetricSeries {
  title: string;
  /** Per-batch values: x = step. */ batches: { x: number; y: number }[];
  /** Per-epoch training values: x = step at the epoch's end. */ epochTrain: { x: number; y: number }[];
  /** Per-epoch validation values. */ epochVal: { x: number; y: number }[];
  /** Percent axis for accuracies. */ percent?: boolean;
  testId: string;
}

/** The chart in one sentence, for screen readers and anyone who cannot read the lines. */
function metricSummary({ title, batches, epochVal }: MetricSeries, fmt: (v: number) => string): string {
  const last = batches[batches.length - 1]!;
  const val = epochVal[epochVal.length - 1];
  return (
    `${title}: ${batches.length} steps, ${fmt(last.y)} at the last step` +
    (val ? `, ${fmt(val.y)} on the validation split at the last epoch.` : '.')
  );
}

/** Most per-step points drawn: a long run has thousands of steps and a chart a few hundred pixels. */
export const MAX_DRAWN_STEPS = 400;

type Point = MetricSeries['batches'][number];

/**
 * The per-step line thinned for drawing: each bucket's highest and its lowest point, so a loss spike
 * and a dip both stay visible (the summary sentence still reads every step).
 */
export function drawnSteps(points: readonly Point[]): Point[] {
  if (points.length <= MAX_DRAWN_STEPS) return [...points];
  const buckets = MAX_DRAWN_STEPS / 2;
  const kept = new Set([
    ...downsampleMax(points, buckets, (p) => p.y),
    ...downsampleMax(points, buckets, (p) => -p.y),
  ]);
  return [...kept].sort((a, b) => a.x - b.x);
}

/** The three lines: per batch (faint), and per epoch on the training and validation splits. */
const LINES = [
  { series: 'batches', name: 'per batch', stroke: 'var(--chart-faint)', width: 1 },
  { series: 'epochTrain', name: 'epoch (train)', stroke: 'var(--chart-main)', width: 2 },
  { series: 'epochVal', name: 'epoch (validation)', stroke: 'var(--chart-validation)', width: 2 },
] as const;

/** How a value reads: a percent for accuracies, three significant digits otherwise. */
const formatter = (percent: boolean) => (v: number) =>
  percent ? `${Math.round(v * 100)}%` : String(Number(v.toPrecision(3)));

/** Shortest time between two redraws of the lines, ms; the summary sentence stays live. */
const REDRAW_MS = 1000;

/** Loss or accuracy over training steps; charts take plain arrays, never tensors. */
export function MetricsChart({ title, batches, epochTrain, epochVal, percent, testId }: MetricSeries) {
  const fmt = formatter(percent === true);
  const live = useMemo(() => ({ batches, epochTrain, epochVal }), [batches, epochTrain, epochVal]);
  const shown = useThrottled(live, REDRAW_MS);
  const drawn = useMemo(() => ({ ...shown, batches: drawnSteps(shown.batches) }), [shown]);
  return (
    <figure
      className="chart"
      data-testid={testId}
      data-points={batches.length}
      data-drawn={drawn.batches.length}
    >
      <figcaption>
        {title} <span className="label-measured">measured</span>
      </figcaption>
      {batches.length === 0 ? (
        <p className="muted chart-empty">No steps yet: press Train.</p>
      ) : (
        <>
          <ChartSummary
            testId={`${testId}-summary`}
            text={metricSummary({ title, batches, epochTrain, epochVal, testId }, fmt)}
          />
          <MetricLines series={drawn} percent={percent === true} />
        </>
      )}
    </figure>
  );
}

type Drawn = Pick<MetricSeries, 'batches' | 'epochTrain' | 'epochVal'>;

const X_AXIS = { from: 1, integer: true, label: 'step', format: String };
const READ_STEP = (x: number) => `step ${x}`;
const AXES = {
  percent: { domain: [0, 1] as [number, number], format: formatter(true), width: 48 },
  value: { format: stepFormat, width: 48 },
};
const READOUT = {
  percent: { x: READ_STEP, y: formatter(true) },
  value: { x: READ_STEP, y: formatter(false) },
};

/** The drawing itself, memoised: a new step between redraws re-renders the summary, not the lines. */
const MetricLines = memo(function MetricLines({ series, percent }: { series: Drawn; percent: boolean }) {
  const lines = useMemo(
    () =>
      LINES.map((l) => ({
        id: l.series,
        name: l.name,
        points: series[l.series],
        stroke: l.stroke,
        width: l.width,
        dots: l.series !== 'batches',
      })),
    [series],
  );
  const kind = percent ? 'percent' : 'value';
  return <LineSvg lines={lines} height={220} x={X_AXIS} y={AXES[kind]} readout={READOUT[kind]} />;
});
