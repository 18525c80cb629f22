import type { ModelSpec } from '../model/modelSpec';
import type { BatchTrial } from './batchSearch';
import { resolveTrainable } from '../settings/trainable';
import { stepModeOf } from '../settings/stepMode';
import type { OomKind } from '../memory/oom';
import { planInput, planKeras, planTfjs, type Plan, type PlanInput } from '../planner/planner';
import { gridPresets, type SweepPrecision } from './precision';
import type { TrainableSet, TrainConfig, TrainingPhase } from '../settings/trainConfig';

/**
 * Sweeps: one training step measured at every point of a grid of batch sizes × input sizes × trainable
 * presets, each point either measured or out of memory, next to the planner's prediction. The search
 * for the largest batch that fits is core/sweep/batchSearch.ts.
 */

/** Which layers train at a sweep point, as a trainable-set rule (resolved by core/settings/trainable.ts). */
export interface SweepPreset {
  /** Stable key; points refer to their preset by it. */ id: string;
  /** What the user reads. */ label: string;
  /** Frozen: head only, backbone outside the tape; fine-tune: the rule's backbone layers too. */
  phase: 'frozen' | 'fine-tune';
  /** What fine-tuning unfreezes besides the head; ignored in the frozen phase. */
  fineTune: TrainableSet;
  /** How the step keeps activations: float16 storage checkpoints and packs the boundaries (default float32). */
  storage?: 'float32' | 'float16';
}

export const DEFAULT_SWEEP_PRESETS: readonly SweepPreset[] = [
  { id: 'head', label: 'head only (backbone frozen)', phase: 'frozen', fineTune: { kind: 'head' } },
  { id: 'last30', label: 'last 30 layers', phase: 'fine-tune', fineTune: { kind: 'last', n: 30 } },
  { id: 'last80', label: 'last 80 layers', phase: 'fine-tune', fineTune: { kind: 'last', n: 80 } },
  { id: 'all', label: 'all layers', phase: 'fine-tune', fineTune: { kind: 'all' } },
];

export interface SweepGrid {
  /** Batch sizes to try. */ batches: number[];
  /** Square input sizes to try: a size s means s×s pixels. */ sizes: number[];
  /** Trainable sets to try. */ presets: SweepPreset[];
  /** Precisions to measure each fine-tune preset at (sweepPrecision.ts); absent: float32 only. */
  precisions?: SweepPrecision[];
}

/** A small grid that runs in a minute or two on a laptop GPU: 4 × 2 × 2 = 16 points. */
export const DEFAULT_SWEEP_GRID: SweepGrid = {
  batches: [4, 8, 16, 32],
  sizes: [64, 128],
  presets: DEFAULT_SWEEP_PRESETS.filter((p) => p.id === 'head' || p.id === 'all'),
};

/** One point of a grid, before it runs. */
export interface SweepTarget {
  batch: number;
  /** Square input size in pixels. */ size: number;
  presetId: string;
}

/** One point of a grid, after it ran (or was skipped). */
export interface SweepPoint extends SweepTarget {
  /** measured: the step ran; oom: it ran out of memory; skipped: a smaller batch already ran out. */
  status: 'measured' | 'oom' | 'skipped';
  /** Peak bytes of the training step, when measured. */ peakBytes?: number;
  /** The planner's peak for the same point. */ predictedBytes?: number;
  /** Predicted peak of the same step in Keras on a CUDA card, float32 and mixed float16. */
  kerasBytes?: number;
  kerasMixedBytes?: number;
  /** How memory ran out, for an OOM point; only a budget OOM lets larger batches be skipped. */
  oomKind?: OomKind;
  /** Layer running when memory ran out. */ oomLayer?: string;
  /** The error message, for an OOM point. */ message?: string;
}

/** Bounds a grid must respect. */
export interface SweepLimits {
  /** Most points one sweep may run. */ maxPoints: number;
  /** Largest batch size accepted. */ maxBatch: number;
  /** Smallest input size accepted, in pixels. */ minSize: number;
  /** Largest input size accepted, in pixels. */ maxSize: number;
  /** Input sizes must be multiples of this (EfficientNet halves the input five times). */ sizeMultiple: number;
}

export const DEFAULT_SWEEP_LIMITS: SweepLimits = {
  maxPoints: 40,
  maxBatch: 1024,
  minSize: 32,
  maxSize: 2048,
  sizeMultiple: 8,
};

/** A problem with a grid, and the field it belongs to ('points': the grid as a whole). */
export interface SweepProblem {
  field: 'batches' | 'sizes' | 'presets' | 'points';
  message: string;
}

/** What each field is called on screen; problem messages start with it. */
export const SWEEP_FIELD_LABELS: Record<SweepProblem['field'], string> = {
  batches: 'Batch sizes',
  sizes: 'Input sizes',
  presets: 'Trainable presets',
  points: 'Grid',
};

const ascendingUnique = (xs: readonly number[]) => [...new Set(xs)].sort((a, b) => a - b);

/**
 * Numbers from a comma- or space-separated list as typed into a field, and a problem naming `field`
 * for each entry that is not a number. Empty entries ("8, , 16" or a trailing comma) are ignored.
 */
export function parseNumberList(
  text: string,
  field: SweepProblem['field'],
): { values: number[]; problems: SweepProblem[] } {
  const values: number[] = [];
  const problems: SweepProblem[] = [];
  for (const token of text.split(/[\s,;]+/).filter((t) => t !== '')) {
    const value = Number(token);
    if (Number.isFinite(value)) values.push(value);
    else problems.push({ field, message: `${SWEEP_FIELD_LABELS[field]}: "${token}" is not a number.` });
  }
  return { values, problems };
}

/** Problems with a grid, each naming its field; empty when the grid can run. */
export function validateGrid(grid: SweepGrid, limits: SweepLimits = DEFAULT_SWEEP_LIMITS): SweepProblem[] {
  const problems: SweepProblem[] = [];
  const add = (field: SweepProblem['field'], text: string) =>
    problems.push({ field, message: `${SWEEP_FIELD_LABELS[field]}: ${text}` });

  if (grid.batches.length === 0) add('batches', 'list at least one.');
  for (const b of ascendingUnique(grid.batches)) {
    if (!Number.isInteger(b) || b < 1 || b > limits.maxBatch)
      add('batches', `${b} is not a whole number from 1 to ${limits.maxBatch}.`);
  }

  if (grid.sizes.length === 0) add('sizes', 'list at least one.');
  for (const s of ascendingUnique(grid.sizes)) {
    if (!Number.isInteger(s) || s < limits.minSize || s > limits.maxSize)
      add('sizes', `${s} is not a whole number of pixels from ${limits.minSize} to ${limits.maxSize}.`);
    else if (s % limits.sizeMultiple !== 0) add('sizes', `${s} is not a multiple of ${limits.sizeMultiple}.`);
  }

  if (grid.presets.length === 0) add('presets', 'tick at least one.');
  if (grid.precisions?.length === 0) add('presets', 'tick at least one precision.');
  const ids = grid.presets.map((p) => p.id);
  for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i)))
    add('presets', `"${id}" appears more than once.`);

  const count = gridPoints(grid).length;
  if (count > limits.maxPoints) {
    add(
      'points',
      `${count} points (${ascendingUnique(grid.batches).length} batch sizes × ${ascendingUnique(grid.sizes).length} input sizes × ${gridPresets(grid).length} presets); one sweep runs at most ${limits.maxPoints}.`,
    );
  }
  return problems;
}

/**
 * The points of a grid in the order they run: presets as listed, then input sizes ascending, then
 * batches ascending, so that every batch of a size and preset runs after the smaller ones (see
 * `skipCause`). Duplicate batch sizes and input sizes run once.
 */
export function gridPoints(grid: SweepGrid): SweepTarget[] {
  const batches = ascendingUnique(grid.batches);
  const sizes = ascendingUnique(grid.sizes);
  return gridPresets(grid).flatMap((preset) =>
    sizes.flatMap((size) => batches.map((batch) => ({ batch, size, presetId: preset.id }))),
  );
}

/**
 * The point that makes running `next` pointless: a smaller batch at the same input size and preset
 * that ran out of the simulated card. Activations grow with the batch and nothing else changes, so
 * the larger batch would not fit either. Only a budget OOM counts: a real device failure may come
 * from fragmentation or a lost device and need not repeat, so the larger batch still runs.
 */
export function skipCause(points: readonly SweepPoint[], next: SweepTarget): SweepPoint | undefined {
  return points.find(
    (p) =>
      p.status === 'oom' &&
      p.oomKind === 'budget' &&
      p.size === next.size &&
      p.presetId === next.presetId &&
      p.batch < next.batch,
  );
}

/** Whether `next` can be marked 'skipped' without running it (see `skipCause`). */
export function shouldSkip(points: readonly SweepPoint[], next: SweepTarget): boolean {
  return skipCause(points, next) !== undefined;
}

/**
 * The planner's peak for one sweep point, the way the trainer runs it: Adam, and in the frozen phase
 * the backbone outside the tape. `spec` must describe the model at `size`×`size`.
 */
export function predictSweepPeak(
  spec: ModelSpec,
  batch: number,
  preset: SweepPreset,
  queuedBatches: number,
): number {
  return planTfjs(sweepPlanInput(spec, batch, preset, queuedBatches)).peakBytes;
}

/**
 * What TensorFlow/Keras on a CUDA card would need for the same point, in float32 and in mixed float16:
 * predicted only, beside the lab's measured float16 storage (sweepPrecision.ts), as tfjs 4.22 has no
 * float16 arithmetic.
 */
export function predictSweepKeras(
  spec: ModelSpec,
  batch: number,
  preset: SweepPreset,
): { kerasBytes: number; kerasMixedBytes: number } {
  const input = sweepPlanInput(spec, batch, preset, 0);
  return {
    kerasBytes: planKeras(input).peakBytes,
    kerasMixedBytes: planKeras(input, 'mixed_float16').peakBytes,
  };
}

function sweepPlanInput(
  spec: ModelSpec,
  batch: number,
  preset: SweepPreset,
  queuedBatches: number,
): PlanInput {
  // The sweep's trainer runs with its default options: a frozen backbone outside the tape, and only a
  // float16 preset checkpointed.
  const step = stepModeOf(preset.phase, {
    backboneOutsideTape: true,
    checkpointing: 'off',
    float16Storage: preset.storage === 'float16',
  });
  return {
    spec,
    batch,
    trainable: resolveTrainable(spec, preset.phase, preset.fineTune),
    optimizer: 'adam',
    backboneOutsideTape: step.mode === 'outside-tape',
    queuedBatches,
    checkpointing: step.checkpointing,
    boundaryStorage: step.boundaryStorage,
  };
}

/**
 * A point planned as the run would train it: the configuration's techniques, prefetched batches and
 * trainable set at `batch` images (accumulation is capped at one image per micro-batch). The batch search
 * predicts and measures points this way, so its answer trains under the card.
 */
export function planRunPoint(spec: ModelSpec, config: TrainConfig, preset: SweepPreset, batch: number): Plan {
  const techniques = {
    ...config.techniques,
    accumulationSteps: Math.min(config.techniques.accumulationSteps, batch),
    float16Storage: config.techniques.float16Storage || preset.storage === 'float16',
  };
  return planTfjs(
    planInput(spec, { ...config, batchSize: batch, techniques, fineTune: preset.fineTune }, preset.phase),
  );
}

/** One point on a sweep chart. */
export interface SweepRow {
  /** Batch size or input size. */ x: number;
  /** Measured step peak, bytes. */ measured?: number;
  /** Planner's peak, bytes. */ predicted?: number;
  /** Keras/CUDA predictions, float32 and mixed float16, bytes. */ keras?: number;
  kerasMixed?: number;
  /** The point ran out of memory. */ oom?: boolean;
}

function series(
  points: readonly SweepPoint[],
  keep: (p: SweepPoint) => boolean,
  x: (p: SweepPoint) => number,
) {
  const rows = new Map<number, SweepRow>();
  for (const p of points.filter(keep)) {
    const row: SweepRow = { x: x(p) };
    if (p.status === 'measured' && p.peakBytes !== undefined) row.measured = p.peakBytes;
    if (p.predictedBytes !== undefined) row.predicted = p.predictedBytes;
    if (p.kerasBytes !== undefined) row.keras = p.kerasBytes;
    if (p.kerasMixedBytes !== undefined) row.kerasMixed = p.kerasMixedBytes;
    if (p.status === 'oom') row.oom = true;
    rows.set(row.x, row);
  }
  return [...rows.values()].sort((a, b) => a.x - b.x);
}

/** Batch sizes for a predicted curve around `batch`: powers of two up to twice the larger of it and 32, and it. */
export function curveBatches(batch: number): number[] {
  const top = 2 * Math.max(batch, 32);
  const powers = Array.from({ length: Math.floor(Math.log2(top)) + 1 }, (_, i) => 2 ** i);
  return [...new Set([...powers, batch])].sort((a, b) => a - b);
}

/**
 * The planner's peak of one phase of a configuration against batch size, before anything runs: tfjs as
 * the trainer runs it (with the configuration's techniques) and Keras/CUDA in float32 and mixed float16.
 */
export function predictedBatchCurve(
  spec: ModelSpec,
  c: TrainConfig,
  phase: TrainingPhase,
  batches: readonly number[],
): SweepRow[] {
  return batches.map((batch) => {
    const input = {
      ...planInput(spec, { ...c, batchSize: batch }, phase),
      accumulationSteps: Math.min(batch, c.techniques.accumulationSteps),
    };
    return {
      x: batch,
      predicted: planTfjs(input).peakBytes,
      keras: planKeras(input).peakBytes,
      kerasMixed: planKeras(input, 'mixed_float16').peakBytes,
    };
  });
}

/** Peak against batch size at one input size and preset, batches ascending (the latest point wins a tie). */
export function byBatch(points: readonly SweepPoint[], size: number, presetId: string): SweepRow[] {
  return series(
    points,
    (p) => p.size === size && p.presetId === presetId,
    (p) => p.batch,
  );
}

/** Peak against input size at one batch size and preset, sizes ascending (the latest point wins a tie). */
export function bySize(points: readonly SweepPoint[], batch: number, presetId: string): SweepRow[] {
  return series(
    points,
    (p) => p.batch === batch && p.presetId === presetId,
    (p) => p.size,
  );
}

/** Where a sweep and the largest-batch search stand, as the store keeps it and the panel shows it. */
export interface SweepStatus {
  status: 'idle' | 'running' | 'done' | 'error';
  error: string | null;
  /** Points finished out of the grid's, while a sweep runs. */ progress: {
    done: number;
    total: number;
  } | null;
  /**
   * The largest-batch search: its state, answer (null: even the smallest did not fit), probes, and the
   * planner's largest fitting batch it started from (null without a card or when none was predicted).
   */
  largest: {
    status: 'idle' | 'running' | 'done';
    batch: number | null;
    tried: BatchTrial[];
    predicted: number | null;
  };
}
