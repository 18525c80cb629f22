import { memo, useMemo } from 'react';
import { downsampleMax } from '../core/run/downsample';
import { type TimelineMarker } from '../core/memory/memory';
import { useThrottled } from './useThrottled';
import { ChartSummary } from './ChartSummary';
import { LineSvg } from './svg/LineSvg';
import type { SvgMarker } from './svg/types';
import { formatBytes } from '../core/format';

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

/** A phase or epoch marker; phase labels on top, epoch labels at the bottom, so the two never overlap. */
function markerLine(m: TimelineMarker): SvgMarker {
  const phase = m.label.includes('phase');
  return {
    x: m.t / 1000,
    label: m.label,
    stroke: phase ? 'var(--chart-phase)' : 'var(--chart-epoch)',
    dash: phase ? undefined : '2 4',
    at: phase ? 'top' : 'bottom',
  };
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

const X_AXIS = { from: 0, label: 'seconds since start', format: (s: number) => `${s.toFixed(0)}s` };
const Y_AXIS = { fromZero: true, format: formatBytes, width: 72 };
const READOUT = { x: (s: number) => `${s.toFixed(1)} s`, y: formatBytes };

/** The drawing itself, memoised: a new sample between redraws re-renders the summary, not the lines. */
const TimelineLines = memo(function TimelineLines({ drawn, markers, hasPool }: LinesProps) {
  const lines = useMemo(
    () => [
      {
        id: 'live',
        name: 'live tensors (peak per 50 ms)',
        points: drawn.map((p) => ({ x: p.s, y: p.live })),
        stroke: 'var(--chart-main)',
      },
      ...(hasPool
        ? [
            {
              id: 'allocated',
              name: 'allocated by backend, incl. pool',
              points: drawn.flatMap((p) => (p.allocated === undefined ? [] : [{ x: p.s, y: p.allocated }])),
              stroke: 'var(--chart-pool)',
              dash: '4 2',
            },
          ]
        : []),
    ],
    [drawn, hasPool],
  );
  const marks = useMemo(() => markers.map(markerLine), [markers]);
  return <LineSvg lines={lines} markers={marks} height={260} x={X_AXIS} y={Y_AXIS} readout={READOUT} />;
});
