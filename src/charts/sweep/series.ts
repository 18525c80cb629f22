// What the sweep chart draws, in data units: its lines and its ✕ marks. Pure functions; SweepChart
// only renders what these return.
import type { SweepRow } from '../../core/sweep/sweep';
import type { SvgLine, SvgPoint } from '../svg/types';
import { maxOf } from '../../core/extent';

type Value = 'measured' | 'predicted' | 'keras' | 'kerasMixed';

/** A line through the rows that have `key`; `gaps` breaks it where a row has none (NaN, as pathOf reads it). */
function through(rows: readonly SweepRow[], key: Value, gaps: boolean): SvgPoint[] {
  return rows.flatMap((r) => {
    const y = r[key];
    if (y !== undefined) return [{ x: r.x, y }];
    return gaps ? [{ x: r.x, y: Number.NaN }] : [];
  });
}

/**
 * The chart's lines: measured (unless only predictions are shown), with a dot on each point and a gap
 * where a point did not run; the planner's and the two Keras/CUDA predictions through every point
 * that has one.
 */
export function sweepSeries(
  rows: readonly SweepRow[],
  predictedOnly: boolean,
  backendLabel: string,
): SvgLine[] {
  const measured: SvgLine = {
    id: 'measured',
    name: `measured · ${backendLabel}`,
    points: through(rows, 'measured', true),
    stroke: 'var(--chart-main)',
    width: 2,
    dots: true,
  };
  return [
    ...(predictedOnly ? [] : [measured]),
    {
      id: 'predicted',
      name: 'predicted · planner',
      points: through(rows, 'predicted', false),
      stroke: 'var(--chart-predicted)',
      dash: '5 3',
    },
    {
      id: 'keras',
      name: 'Keras/CUDA float32 · predicted',
      points: through(rows, 'keras', false),
      stroke: 'var(--chart-keras)',
      dash: '2 3',
    },
    {
      id: 'kerasMixed',
      name: 'Keras/CUDA mixed float16 · predicted',
      points: through(rows, 'kerasMixed', false),
      stroke: 'var(--chart-keras-mixed)',
      dash: '2 3',
    },
  ];
}

/**
 * Where each ✕ goes for the points that ran out of memory: at the card's height when one is set (the
 * step needed more than that), else at the point's predicted peak, else at the highest measured one.
 */
export function oomMarks(rows: readonly SweepRow[], budgetBytes: number | null): SvgPoint[] {
  const highest = Math.max(0, maxOf(rows.map((r) => r.measured ?? 0)));
  return rows.filter((r) => r.oom).map((r) => ({ x: r.x, y: budgetBytes ?? r.predicted ?? highest }));
}
