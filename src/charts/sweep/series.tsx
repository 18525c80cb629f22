import { Line, ReferenceArea, ReferenceLine } from 'recharts';
import { formatBytes } from '../../core/memory';
import { OOM_COLOR, OomMarker } from './legend';

/**
 * The chart's lines: measured (unless only predictions are shown), the planner's, the two Keras/CUDA
 * ones and the ✕ markers. Returned as elements, not a component: Recharts reads its series as
 * children of the chart.
 */
export function sweepLines(predictedOnly: boolean, backendLabel: string, oomCount: number) {
  return (
    <>
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
    </>
  );
}

/** The simulated card: the band that fits under it, from the axis floor, and its line. */
export function budgetMarks(budgetBytes: number | null, floor: number) {
  if (budgetBytes === null) return null;
  return (
    <>
      <ReferenceArea
        y1={floor}
        y2={budgetBytes}
        fill="var(--chart-fits)"
        fillOpacity={0.08}
        ifOverflow="extendDomain"
        label={{ value: 'fits the card', position: 'insideBottomLeft', fontSize: 11 }}
      />
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
    </>
  );
}
