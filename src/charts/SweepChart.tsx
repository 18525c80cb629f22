import type { CSSProperties } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type DefaultLegendContentProps,
  type DotItemDotProps,
} from 'recharts';
import { formatBytes } from '../core/memory';
import type { SweepRow } from '../core/sweep';

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

const OOM_COLOR = 'var(--chart-oom)';

/** A red ✕ where a point ran out of memory. */
function OomMarker({ cx, cy, index }: DotItemDotProps) {
  if (typeof cx !== 'number' || typeof cy !== 'number' || !Number.isFinite(cx) || !Number.isFinite(cy))
    return <g key={index} />;
  return (
    <path
      key={index}
      d={`M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx - 6},${cy + 6}L${cx + 6},${cy - 6}`}
      stroke={OOM_COLOR}
      strokeWidth={3}
      strokeLinecap="round"
      data-testid="sweep-oom-marker"
    />
  );
}

const LEGEND_STYLE: CSSProperties = {
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'center',
  gap: '0.2rem 1rem',
  listStyle: 'none',
  margin: '0 0 0.4rem',
  padding: 0,
  fontSize: '0.8rem',
};
const LEGEND_ICONS: Record<string, string> = {
  measured: '—●—',
  predicted: '- - -',
  keras: '· · ·',
  kerasMixed: '· · ·',
  oomAt: '✕',
};

/** The legend, with the ✕ the chart draws (recharts' own 'cross' icon is a plus). */
function SweepLegend({ payload }: DefaultLegendContentProps) {
  return (
    <ul style={LEGEND_STYLE}>
      {payload?.map((entry) => (
        <li key={entry.value} style={{ color: entry.color }}>
          <span aria-hidden="true">{LEGEND_ICONS[String(entry.dataKey)]}</span> {entry.value}
        </li>
      ))}
    </ul>
  );
}

/** Values wider apart than this share a log axis: on a linear one the small ones lie on the floor. */
const LOG_SPAN = 20;

/**
 * The byte axis: linear from 0 when the values are of one size; otherwise logarithmic over whole
 * decades (ticks at 1, 2 and 5 when few decades are shown), so a 16 GB card under an 800 GB curve and
 * the batches that fit below it stay visible.
 */
function byteAxis(rows: readonly SweepRow[], budgetBytes: number | null) {
  const values = rows
    .flatMap((r) => [r.measured, r.predicted, r.keras, r.kerasMixed])
    .concat(budgetBytes ?? undefined)
    .filter((v): v is number => v !== undefined && v > 0);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (values.length === 0 || hi / lo <= LOG_SPAN) return { log: false as const };
  const from = Math.floor(Math.log10(lo));
  const to = Math.ceil(Math.log10(hi));
  const steps = to - from <= 3 ? [1, 2, 5] : [1];
  const ticks: number[] = [];
  for (let e = from; e <= to; e++)
    for (const m of steps) if (m * 10 ** e <= 10 ** to) ticks.push(m * 10 ** e);
  return { log: true as const, domain: [10 ** from, 10 ** to] as [number, number], ticks };
}

/**
 * Peak step memory against one swept quantity: measured points, the planner's curve, the simulated
 * card, and a ✕ for each point that ran out of memory: at the card's height when one is set (the step
 * needed more than that), otherwise at the predicted peak.
 */
export function SweepChart({
  title,
  xLabel,
  rows,
  budgetBytes,
  backendLabel,
  predictedOnly = false,
  testId = 'sweep-chart',
}: Props) {
  const highest = Math.max(0, ...rows.map((r) => r.measured ?? 0));
  const data = rows.map((r) => ({
    ...r,
    oomAt: r.oom ? (budgetBytes ?? r.predicted ?? highest) : undefined,
  }));
  const oomCount = rows.filter((r) => r.oom).length;
  const xs = rows.map((r) => r.x);
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
      <figcaption>
        {title} {!predictedOnly && <span className="label-measured">measured · {backendLabel}</span>}
        <span className="label-predicted">predicted · planner</span>
        {axis.log && (
          <span className="hint" data-testid={`${testId}-log-note`}>
            {' '}
            Log axis: the values span more than {LOG_SPAN}×, so each gridline multiplies.
          </span>
        )}
      </figcaption>
      {rows.length === 0 ? (
        <p className="muted chart-empty">No points here yet: run the sweep.</p>
      ) : (
        <ResponsiveContainer width="100%" height={260} initialDimension={{ width: 480, height: 260 }}>
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="x"
              domain={['dataMin', 'dataMax']}
              ticks={xs}
              padding={{ left: 16, right: 16 }}
              label={{ value: xLabel, position: 'insideBottom', offset: -8 }}
            />
            {axis.log ? (
              <YAxis
                scale="log"
                domain={axis.domain}
                ticks={axis.ticks}
                allowDataOverflow
                tickFormatter={(b: number) => formatBytes(b)}
                width={72}
              />
            ) : (
              <YAxis domain={[0, 'auto']} tickFormatter={(b: number) => formatBytes(b)} width={72} />
            )}
            <Tooltip
              formatter={(v, _name, item) => (item.dataKey === 'oomAt' ? 'ran out' : bytes(v))}
              labelFormatter={(x) => `${xLabel} ${String(x)}`}
            />
            <Legend verticalAlign="top" content={SweepLegend} itemSorter={null} />
            {!predictedOnly && (
              <Line
                dataKey="measured"
                name={`measured · ${backendLabel}`}
                stroke="var(--chart-main)"
                strokeWidth={2}
                isAnimationActive={false}
              />
            )}
            <Line
              dataKey="predicted"
              name="predicted · planner"
              stroke="var(--chart-predicted)"
              strokeDasharray="5 3"
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
            <Line
              dataKey="keras"
              name="Keras/CUDA float32 · predicted"
              stroke="var(--chart-keras)"
              strokeDasharray="2 3"
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
            <Line
              dataKey="kerasMixed"
              name="Keras/CUDA mixed float16 · predicted"
              stroke="var(--chart-keras-mixed)"
              strokeDasharray="2 3"
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
            {oomCount > 0 && (
              <Line
                dataKey="oomAt"
                name="out of memory"
                stroke={OOM_COLOR}
                strokeWidth={0}
                dot={OomMarker}
                activeDot={false}
                isAnimationActive={false}
              />
            )}
            {budgetBytes !== null && (
              <ReferenceArea
                y1={floor}
                y2={budgetBytes}
                fill="var(--chart-fits)"
                fillOpacity={0.08}
                ifOverflow="extendDomain"
                label={{ value: 'fits the card', position: 'insideBottomLeft', fontSize: 11 }}
              />
            )}
            {budgetBytes !== null && (
              <ReferenceLine
                y={budgetBytes}
                stroke={OOM_COLOR}
                strokeDasharray="6 3"
                ifOverflow="extendDomain"
                label={{
                  value: `simulated card · ${formatBytes(budgetBytes)}`,
                  position: 'insideTopRight',
                  fontSize: 11,
                }}
              />
            )}
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
