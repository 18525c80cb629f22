import { achievedFlops } from '../src/core/device/adapterKind';
import { predictionError } from '../src/core/planner/planner';
import type { PlannerRow } from './plannerRows';
import type { BenchRow, BenchSide } from './types';

const mb = (b: number | undefined) => (b === undefined ? '—' : `${(b / 1e6).toFixed(2)} MB`);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}%`;

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2 : NaN;
};

/** The planner's targets (issues 4 and 11): median |error| ≤ 3%, max ≤ 10%, never under by more than 5%. */
const TARGETS = { median: 3, max: 10, under: -5 };

const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** One group's figures against the targets, on one line. */
function groupLine(label: string, of: PlannerRow[]): string {
  const abs = of.map((r) => Math.abs(r.error));
  const med = median(abs);
  const max = Math.max(...abs);
  const under = Math.min(0, ...of.map((r) => r.error));
  const pass = med <= TARGETS.median && max <= TARGETS.max && under >= TARGETS.under;
  return (
    `  ${label}: ${of.length} rows, median |error| ${med.toFixed(2)}%, max ${max.toFixed(2)}%, ` +
    `worst under ${under.toFixed(2)}% ${mark(pass)}`
  );
}

/**
 * The targets over every row, then per family (plain steps) and for the technique rows apart, so that
 * no family's errors hide in another's.
 */
export function plannerSummary(rows: PlannerRow[]): string[] {
  const abs = rows.map((r) => Math.abs(r.error));
  const max = abs.length ? Math.max(...abs) : NaN;
  const under = Math.min(0, ...rows.map((r) => r.error));
  const plain = rows.filter((r) => !r.technique);
  const families = [...new Set(plain.map((r) => r.family))];
  const techniques = rows.filter((r) => r.technique);
  return [
    `${rows.length} configurations on ${rows[0]?.backend ?? '?'}:`,
    `  median |error| ${median(abs).toFixed(2)}% (target ≤ ${TARGETS.median}%) ${mark(median(abs) <= TARGETS.median)}`,
    `  max |error| ${max.toFixed(2)}% (target ≤ ${TARGETS.max}%) ${mark(max <= TARGETS.max)}`,
    `  worst under-prediction ${under.toFixed(2)}% (target ≥ ${TARGETS.under}%) ${mark(under >= TARGETS.under)}`,
    'per family (plain steps):',
    ...families.map((f) =>
      groupLine(
        f,
        plain.filter((r) => r.family === f),
      ),
    ),
    ...(techniques.length ? [groupLine('accumulation and checkpointing', techniques)] : []),
  ];
}

export function plannerTable(rows: PlannerRow[]): string[] {
  const head = `${'configuration'.padEnd(64)} ${'measured'.padStart(11)} ${'predicted'.padStart(11)} ${'error'.padStart(8)}  peak at    ${'Keras/CUDA'.padStart(11)}`;
  return [
    head,
    ...rows.map(
      (r) =>
        `${r.config.padEnd(64)} ${mb(r.measured).padStart(11)} ${mb(r.predicted).padStart(11)} ${pct(r.error).padStart(8)}  ${r.at.padEnd(10)} ${mb(r.keras).padStart(11)}`,
    ),
  ];
}

/** A side's planner prediction and its signed error against the measured peak. */
const predicted = (side: BenchSide): string =>
  side.predictedPeakBytes === undefined
    ? 'predicted —'
    : `predicted ${mb(side.predictedPeakBytes).padStart(10)} (error ${pct(predictionError(side.predictedPeakBytes, side.peakBytes))})`;

/** Achieved GFLOP/s of a side that counts its FLOPs (measured step time, the planner's FLOPs). */
const rate = (side: BenchSide): string =>
  side.flops === undefined || side.stepMs === undefined
    ? ''
    : `  ${(achievedFlops(side.flops, side.stepMs) / 1e9).toFixed(2)} GFLOP/s achieved (${(side.flops / 1e9).toFixed(2)} GFLOP a step)`;

/** A side's memory and the planner's prediction of it, when it measured any (a timing or accuracy side did not). */
const memory = (side: BenchSide): string =>
  Number.isNaN(side.peakBytes)
    ? ''
    : ` peak ${mb(side.peakBytes).padStart(10)}  activations ${mb(side.activationBytes).padStart(10)}  ${predicted(side)}`;

/** A side's step time, when it timed one. */
const step = (side: BenchSide): string =>
  side.stepMs === undefined
    ? ''
    : `  step ${side.stepMs.toFixed(0)} ms${side.kernels === undefined ? '' : ` (${side.kernels} kernels)`}`;

const sideLine = (side: BenchSide): string =>
  memory(side) || step(side)
    ? `  ${side.name.padEnd(30)}${memory(side)}${step(side)}${rate(side)}`
    : `  ${side.name}`;

export function techniqueTable(rows: BenchRow[]): string[] {
  return rows.flatMap((r) => [
    `${r.section} — ${r.config} [${r.backend}]`,
    sideLine(r.a),
    sideLine(r.b),
    `  ${r.metric} ratio ${r.ratio.toFixed(3)}× ${r.target ? `(target ${r.target}) ${r.pass ? 'PASS' : 'FAIL'}` : ''}`,
  ]);
}
