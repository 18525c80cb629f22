/**
 * The arithmetic behind the experiment cards (core/experiments/experiments.ts), on the model as the planner describes
 * it: per-phase predictions, a real convolution against its depthwise-separable form, the pool against
 * the live bytes, and which kept run has exactly a card's settings. Pure numbers, no tfjs.
 */
import type { HistoryEntry } from '../run/history';
import type { MemorySample } from '../memory/memory';
import { product, type LayerSpec, type ModelSpec } from '../model/modelSpec';
import { planInput, planKeras, planTfjs, type Plan } from '../planner/planner';
import { resolveTrainable } from '../settings/trainable';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';
import { maxOf } from '../extent';

/** The planner's peak of one step of a phase: tfjs here, and Keras/CUDA in float32 and mixed float16. */
export interface PhasePrediction {
  phase: TrainingPhase;
  tfjsBytes: number;
  kerasBytes: number;
  kerasMixedBytes: number;
}

/** The phases a configuration trains, in order. */
export function phasesOf(c: TrainConfig): TrainingPhase[] {
  return [
    ...(c.frozenEpochs > 0 ? (['frozen'] as const) : []),
    ...(c.fineTuneEpochs > 0 ? (['fine-tune'] as const) : []),
  ];
}

/** Whether a description is of a configuration's input size (the caller keeps model and classes in step). */
export const specFits = (spec: ModelSpec | null, c: TrainConfig): spec is ModelSpec =>
  spec !== null && spec.height === c.height && spec.width === c.width;

/** The tfjs plan of one step of a phase. */
export const planPhase = (spec: ModelSpec, c: TrainConfig, phase: TrainingPhase): Plan =>
  planTfjs(planInput(spec, c, phase));

/** The planner's peaks for every phase a configuration trains; null without a description at its size. */
export function predictPhases(spec: ModelSpec | null, c: TrainConfig): PhasePrediction[] | null {
  if (!specFits(spec, c)) return null;
  return phasesOf(c).map((phase) => {
    const input = planInput(spec, c, phase);
    return {
      phase,
      tfjsBytes: planTfjs(input).peakBytes,
      kerasBytes: planKeras(input, 'float32').peakBytes,
      kerasMixedBytes: planKeras(input, 'mixed_float16').peakBytes,
    };
  });
}

/** The highest tfjs peak over the phases a configuration trains. */
export function highestPeak(spec: ModelSpec, c: TrainConfig): number {
  return Math.max(0, maxOf(phasesOf(c).map((p) => planPhase(spec, c, p).peakBytes)));
}

/** A Conv2D layer's shape as its weights give it: a k×k kernel from cin to cout channels. */
export interface ConvShape {
  layer: string;
  k: number;
  cin: number;
  cout: number;
  /** k·k·cin·cout. */ weights: number;
  /** Depthwise k·k·cin plus pointwise cin·cout. */ depthwise: number;
  pointwise: number;
}

/** The kernel of a Conv2D layer, from its first weight and its channels; null for another layer. */
export function convShape(layer: LayerSpec): ConvShape | null {
  if (layer.kind !== 'conv2d') return null;
  const cin = layer.inputShapes[0]?.at(-1) ?? 0;
  const cout = layer.outputShape.at(-1) ?? 0;
  const kernel = layer.trainableWeightSizes[0] ?? 0;
  if (cin === 0 || cout === 0 || kernel % (cin * cout) !== 0) return null;
  const k = Math.round(Math.sqrt(kernel / (cin * cout)));
  if (k * k * cin * cout !== kernel) return null;
  return { layer: layer.name, k, cin, cout, weights: kernel, depthwise: k * k * cin, pointwise: cin * cout };
}

/** The first Conv2D with a kernel larger than 1×1 (the stem, in every model the lab builds). */
export function firstSpatialConv(spec: ModelSpec): ConvShape | null {
  for (const layer of spec.layers) {
    const shape = convShape(layer);
    if (shape && shape.k > 1) return shape;
  }
  return null;
}

/** The head's weights after global average pooling against after flattening the last feature map. */
export function headWeights(
  spec: ModelSpec,
  units = 128,
): { features: number[]; pooled: number; flattened: number } | null {
  const backbone = spec.layers[spec.backboneLayerCount - 1];
  const features = backbone?.outputShape ?? [];
  if (features.length !== 3) return null;
  const channels = features[2]!;
  return { features, pooled: channels * units + units, flattened: product(features) * units + units };
}

/** Weights that train in the fine-tune phase under a configuration's trainable set. */
export function trainableWeights(spec: ModelSpec, c: TrainConfig): number {
  const trainable = resolveTrainable(spec, 'fine-tune', c.fineTune);
  return spec.layers
    .filter((l) => trainable.has(l.name))
    .reduce((n, l) => n + l.trainableWeightSizes.reduce((a, b) => a + b, 0), 0);
}

/** The largest single layer output of one example, float32 bytes, and the layer. */
export function largestActivation(spec: ModelSpec): { layer: string; shape: number[]; bytes: number } {
  let best = { layer: '', shape: [] as number[], bytes: 0 };
  for (const l of spec.layers) {
    const bytes = product(l.outputShape) * 4;
    if (l.kind !== 'input' && bytes > best.bytes) best = { layer: l.name, shape: l.outputShape, bytes };
  }
  return best;
}

/** What a run's memory samples say about tfjs' pool: the live bytes against what the backend holds. */
export interface PoolVsLive {
  /** Highest live tensor bytes. */ peakLive: number;
  /** Highest bytes the backend had allocated, pool of freed buffers included. */ peakAllocated: number;
  /** At the last sample: live bytes, and allocated bytes. */ endLive: number;
  endAllocated: number;
}

/** Null when the backend reports no allocated bytes (the cpu backend has no pool to show). */
export function poolVsLive(samples: readonly MemorySample[]): PoolVsLive | null {
  const reported = samples.filter((s) => s.allocatedBytes !== undefined);
  const last = reported[reported.length - 1];
  if (!last) return null;
  return {
    peakLive: maxOf(reported.map((s) => s.liveBytes)),
    peakAllocated: maxOf(reported.map((s) => s.allocatedBytes!)),
    endLive: last.liveBytes,
    endAllocated: last.allocatedBytes!,
  };
}

/** Deep equality of plain JSON-like values, key order ignored. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => k in rb && sameValue((a as Record<string, unknown>)[k], rb[k]));
}

/** Outcomes a card can show: the run went through every step, or memory ran out (a result too). */
const USABLE = new Set(['completed', 'oom']);

/**
 * The latest kept training run with exactly these settings on this backend that completed or ran out of
 * memory, so a card shows it instead of training again; stopped or failed runs are never reused.
 */
export function matchingRun(
  entries: readonly HistoryEntry[],
  c: TrainConfig,
  backend: string | null,
): HistoryEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === 'run' && USABLE.has(e.outcome) && e.backend === backend && sameValue(e.settings, c))
      return e;
  }
  return null;
}

/** The largest batch below `from` whose predicted peak, every phase, is within `limit`; 0 when none. */
export function largestFittingBatch(spec: ModelSpec, c: TrainConfig, limit: number, from: number): number {
  for (let b = from - 1; b >= 1; b--) if (highestPeak(spec, { ...c, batchSize: b }) <= limit) return b;
  return 0;
}

/** Bytes rounded up to a whole MB (10^6), as the card field takes them. */
export const ceilMB = (bytes: number): number => Math.ceil(bytes / 1e6) * 1e6;
