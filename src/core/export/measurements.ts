/**
 * The lab's measurements as files: CSV tables (one row per memory sample, per step, per epoch, per
 * sweep point) and one JSON document with everything plus the planner's predictions. Pure formatting of
 * what the store holds; the views pick the data and save the text.
 */
import type { MemorySample, StepBreakdown } from '../memory/memory';
import type { ModelSpec } from '../model/modelSpec';
import { planInput, planKeras, planTfjs, type Plan } from '../planner/planner';
import type { SweepPoint } from '../sweep/sweep';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';

/** One training step as the store keeps it (the fields the export reads). */
export interface StepRow {
  step: number;
  phase: TrainingPhase;
  epoch: number;
  batch: number;
  loss: number;
  accuracy: number;
  stepMs: number;
  t: number;
  peakBytes?: number;
  breakdown: StepBreakdown;
}

/** One finished epoch as the store keeps it. */
export interface EpochRow {
  epoch: number;
  phase: TrainingPhase;
  loss: number;
  accuracy: number;
  valLoss: number;
  valAccuracy: number;
}

/** The planner's peaks for one phase of the settings: tfjs here, Keras float32 and mixed float16 on CUDA. */
export interface PhasePrediction {
  phase: TrainingPhase;
  tfjs: Plan;
  keras: Plan;
  kerasMixed: Plan;
}

/** The planner's predictions for both phases of `config` on the described model. */
export function predictions(spec: ModelSpec, config: TrainConfig): PhasePrediction[] {
  return (['frozen', 'fine-tune'] as const).map((phase) => {
    const input = planInput(spec, config, phase);
    return {
      phase,
      tfjs: planTfjs(input),
      keras: planKeras(input),
      kerasMixed: planKeras(input, 'mixed_float16'),
    };
  });
}

type Cell = string | number | boolean | null | undefined;

/** One CSV field: numbers as JavaScript prints them, text quoted when it holds a comma, quote or newline. */
function field(v: Cell): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A CSV document (RFC 4180: CRLF line ends, a header row). */
export function csv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The memory timeline: one row per sample. */
export function memoryCsv(samples: readonly MemorySample[]): string {
  return csv(
    ['t_ms', 'live_bytes', 'num_tensors', 'gpu_bytes', 'allocated_bytes'],
    samples.map((s) => [s.t, s.liveBytes, s.numTensors, s.gpuBytes, s.allocatedBytes]),
  );
}

/** Every training step with its measured peak and bytes by category. */
export function stepsCsv(steps: readonly StepRow[]): string {
  return csv(
    [
      'step',
      'phase',
      'epoch',
      'batch',
      'loss',
      'accuracy',
      'step_ms',
      't_ms',
      'peak_bytes',
      'weights_bytes',
      'gradients_bytes',
      'optimizer_bytes',
      'saved_activations_bytes',
      'input_bytes',
      'largest_saved_layer',
    ],
    steps.map((s) => [
      s.step,
      s.phase,
      s.epoch,
      s.batch,
      s.loss,
      s.accuracy,
      s.stepMs,
      s.t,
      s.peakBytes,
      s.breakdown.weights,
      s.breakdown.gradients,
      s.breakdown.optimizer,
      s.breakdown.savedActivations,
      s.breakdown.input,
      s.breakdown.largestSaved?.layer,
    ]),
  );
}

/** Per-epoch training and validation metrics. */
export function epochsCsv(epochs: readonly EpochRow[]): string {
  return csv(
    ['epoch', 'phase', 'loss', 'accuracy', 'val_loss', 'val_accuracy'],
    epochs.map((e) => [e.epoch, e.phase, e.loss, e.accuracy, e.valLoss, e.valAccuracy]),
  );
}

/** Sweep or batch-search points: measured against predicted. */
export function sweepCsv(points: readonly SweepPoint[]): string {
  return csv(
    [
      'preset',
      'batch',
      'size',
      'status',
      'peak_bytes',
      'predicted_bytes',
      'keras_bytes',
      'keras_mixed_bytes',
      'oom_kind',
      'oom_layer',
    ],
    points.map((p) => [
      p.presetId,
      p.batch,
      p.size,
      p.status,
      p.peakBytes,
      p.predictedBytes,
      p.kerasBytes,
      p.kerasMixedBytes,
      p.oomKind,
      p.oomLayer,
    ]),
  );
}

/** Everything in one JSON document: settings, backend, timeline, steps, epochs, predictions, sweep. */
export interface MeasurementsDocument {
  config: TrainConfig | null;
  backend: string | null;
  samples: readonly MemorySample[];
  steps: readonly StepRow[];
  epochs: readonly EpochRow[];
  predictions: readonly PhasePrediction[];
  sweep: readonly SweepPoint[];
}

/** The JSON export, indented for reading. JSON has no NaN or Infinity: those numbers are written as null. */
export function measurementsJson(doc: MeasurementsDocument): string {
  return JSON.stringify({ generatedBy: 'VRAM Lab', ...doc }, null, 2);
}
