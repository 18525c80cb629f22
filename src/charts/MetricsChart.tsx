import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** A per-step series and per-epoch train/validation series of one metric. */
export interface MetricSeries {
  title: string;
  /** Per-batch values: x = step. */ batches: { x: number; y: number }[];
  /** Per-epoch training values: x = step at the epoch's end. */ epochTrain: { x: number; y: number }[];
  /** Per-epoch validation values. */ epochVal: { x: number; y: number }[];
  /** Percent axis for accuracies. */ percent?: boolean;
  testId: string;
}

/** Loss or accuracy over training steps; charts take plain arrays, never tensors. */
export function MetricsChart({ title, batches, epochTrain, epochVal, percent, testId }: MetricSeries) {
  const fmt = (v: number) => (percent ? `${Math.round(v * 100)}%` : String(Number(v.toPrecision(3))));
  return (
    <figure className="chart" data-testid={testId} data-points={batches.length}>
      <figcaption>
        {title} <span className="label-measured">measured</span>
      </figcaption>
      {batches.length === 0 ? (
        <p className="muted chart-empty">No steps yet: press Train.</p>
      ) : (
        <ResponsiveContainer width="100%" height={220}>
          <LineChart margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="x"
              domain={[1, 'dataMax']}
              allowDecimals={false}
              label={{ value: 'step', position: 'insideBottom', offset: -8 }}
            />
            <YAxis domain={percent ? [0, 1] : ['auto', 'auto']} tickFormatter={fmt} width={48} />
            <Tooltip
              formatter={(v) => (typeof v === 'number' ? fmt(v) : String(v))}
              labelFormatter={(x) => `step ${x}`}
            />
            <Legend verticalAlign="top" height={24} />
            <Line
              data={batches}
              dataKey="y"
              name="per batch"
              stroke="var(--chart-faint)"
              dot={false}
              isAnimationActive={false}
            />
            <Line
              data={epochTrain}
              dataKey="y"
              name="epoch (train)"
              stroke="var(--chart-main)"
              strokeWidth={2}
              isAnimationActive={false}
            />
            <Line
              data={epochVal}
              dataKey="y"
              name="epoch (validation)"
              stroke="var(--chart-validation)"
              strokeWidth={2}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
