import { memo, useMemo } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { downsampleMax } from '../core/downsample';
import { formatBytes, type TimelineMarker } from '../core/memory';
import { useThrottled } from '../components/useThrottled';
import { ChartSummary } from './ChartSummary';

/** Most points drawn; each kept point is its bucket's peak, so thinning never hides the maximum. */
export const MAX_DRAWN_SAMPLES = 300;

/** Shortest time between two redraws of the lines, ms; the summary sentence above stays live. */
const REDRAW_MS = 1000;

/** One drawn point: seconds since the run started and bytes. */
export interface MemoryPoint {
  s: number;
  live: number;
  allocated?: number;
}

interface Props {
  points: MemoryPoint[];
  markers: TimelineMarker[];
  /** Backend the numbers were measured on. */ backend: string;
  /** Whether the backend reports its allocated (pool) bytes. */ hasPool: boolean;
}

/**
 * A phase or epoch marker. An element, not a component: Recharts reads reference lines as children of
 * the chart.
 */
function markerLine(m: TimelineMarker) {
  const phase = m.label.includes('phase');
  return (
    <ReferenceLine
      key={`${m.label}-${m.t}`}
      x={m.t / 1000}
      stroke={phase ? 'var(--chart-phase)' : 'var(--chart-epoch)'}
      strokeDasharray={phase ? undefined : '2 4'}
      label={{
        value: m.label,
        // Phase labels on top, epoch labels at the bottom, so a phase and its first epoch do not overlap.
        position: phase ? 'insideTopLeft' : 'insideBottomLeft',
        fontSize: 11,
      }}
    />
  );
}

/** The chart in one sentence, for screen readers and anyone who cannot read the lines. */
function timelineSummary(points: readonly MemoryPoint[], markers: readonly TimelineMarker[]): string {
  const peak = points.reduce((best, p) => (p.live > best.live ? p : best), points[0]!);
  const last = points[points.length - 1]!;
  return (
    `${points.length} samples over ${last.s.toFixed(0)} s; live tensors peaked at ${formatBytes(peak.live)} ` +
    `${peak.s.toFixed(1)} s in and were ${formatBytes(last.live)} at the last sample; ${markers.length} phase and epoch markers.`
  );
}

/** tf.memory() over time with phase and epoch markers; the lines redraw at most once every REDRAW_MS. */
export function MemoryTimeline({ points, markers, backend, hasPool }: Props) {
  const live = useMemo(() => ({ points, markers }), [points, markers]);
  const shown = useThrottled(live, REDRAW_MS);
  const drawn = useMemo(() => downsampleMax(shown.points, MAX_DRAWN_SAMPLES, (p) => p.live), [shown]);
  return (
    <figure
      className="chart"
      data-testid="memory-timeline"
      data-points={points.length}
      data-drawn={drawn.length}
    >
      <figcaption>
        Memory over time <span className="label-measured">measured · {backend} · tf.memory()</span>
      </figcaption>
      {points.length === 0 ? (
        <p className="muted chart-empty">
          No samples yet: memory is sampled from the moment training starts.
        </p>
      ) : (
        <>
          <ChartSummary testId="memory-timeline-summary" text={timelineSummary(points, markers)} />
          <TimelineLines drawn={drawn} markers={shown.markers} hasPool={hasPool} />
        </>
      )}
    </figure>
  );
}

interface LinesProps {
  drawn: MemoryPoint[];
  markers: TimelineMarker[];
  hasPool: boolean;
}

/** The drawing itself, memoised: a new sample between redraws re-renders the summary, not Recharts. */
const TimelineLines = memo(function TimelineLines({ drawn, markers, hasPool }: LinesProps) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <LineChart data={drawn} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          type="number"
          dataKey="s"
          domain={[0, 'dataMax']}
          tickFormatter={(s: number) => `${s.toFixed(0)}s`}
          label={{ value: 'seconds since start', position: 'insideBottom', offset: -8 }}
        />
        <YAxis tickFormatter={(b: number) => formatBytes(b)} width={72} />
        <Tooltip
          formatter={(v) => (typeof v === 'number' ? formatBytes(v) : String(v))}
          labelFormatter={(s) => `${Number(s).toFixed(1)} s`}
        />
        <Legend verticalAlign="top" height={24} />
        <Line
          dataKey="live"
          name="live tensors (peak per 50 ms)"
          stroke="var(--chart-main)"
          dot={false}
          isAnimationActive={false}
        />
        {hasPool && (
          <Line
            dataKey="allocated"
            name="allocated by backend, incl. pool"
            stroke="var(--chart-pool)"
            strokeDasharray="4 2"
            dot={false}
            isAnimationActive={false}
          />
        )}
        {markers.map(markerLine)}
      </LineChart>
    </ResponsiveContainer>
  );
});
