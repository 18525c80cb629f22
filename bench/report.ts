import type { PlannerRow } from './plannerRows';
import type { BenchRow } from './types';

const mb = (b: number | undefined) => (b === undefined ? '—' : `${(b / 1e6).toFixed(2)} MB`);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}%`;

/** Issue 4's targets for the planner: median |error| ≤ 3%, max ≤ 10%, never under by more than 5%. */
export function plannerSummary(rows: PlannerRow[]): string[] {
  const abs = rows.map((r) => Math.abs(r.error)).sort((a, b) => a - b);
  const median = abs.length ? (abs[(abs.length - 1) >> 1]! + abs[abs.length >> 1]!) / 2 : NaN;
  const max = abs.at(-1) ?? NaN;
  const under = Math.min(0, ...rows.map((r) => r.error));
  const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  return [
    `${rows.length} configurations on ${rows[0]?.backend ?? '?'}:`,
    `  median |error| ${median.toFixed(2)}% (target ≤ 3%) ${mark(median <= 3)}`,
    `  max |error| ${max.toFixed(2)}% (target ≤ 10%) ${mark(max <= 10)}`,
    `  worst under-prediction ${under.toFixed(2)}% (target ≥ −5%) ${mark(under >= -5)}`,
  ];
}

export function plannerTable(rows: PlannerRow[]): string[] {
  const head = `${'configuration'.padEnd(52)} ${'measured'.padStart(11)} ${'predicted'.padStart(11)} ${'error'.padStart(8)}  peak at    ${'Keras/CUDA'.padStart(11)}`;
  return [
    head,
    ...rows.map(
      (r) =>
        `${r.config.padEnd(52)} ${mb(r.measured).padStart(11)} ${mb(r.predicted).padStart(11)} ${pct(r.error).padStart(8)}  ${r.at.padEnd(10)} ${mb(r.keras).padStart(11)}`,
    ),
  ];
}

export function techniqueTable(rows: BenchRow[]): string[] {
  return rows.flatMap((r) => [
    `${r.section} — ${r.config} [${r.backend}]`,
    `  ${r.a.name.padEnd(30)} peak ${mb(r.a.peakBytes).padStart(10)}  activations ${mb(r.a.activationBytes).padStart(10)}  step ${r.a.stepMs?.toFixed(0) ?? '—'} ms  predicted ${mb(r.a.predictedPeakBytes)}`,
    `  ${r.b.name.padEnd(30)} peak ${mb(r.b.peakBytes).padStart(10)}  activations ${mb(r.b.activationBytes).padStart(10)}  step ${r.b.stepMs?.toFixed(0) ?? '—'} ms  predicted ${mb(r.b.predictedPeakBytes)}`,
    `  ${r.metric} ratio ${r.ratio.toFixed(3)}× ${r.target ? `(target ${r.target}) ${r.pass ? 'PASS' : 'FAIL'}` : ''}`,
  ]);
}
