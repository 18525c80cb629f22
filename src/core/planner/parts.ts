import { maxOf } from '../extent';
import { layerParams, type ModelSpec } from '../model/modelSpec';

/** What the planner takes and gives, and the parameter-side bytes both plans share (see planner.ts). */

export type OptimizerName = 'adam' | 'sgd' | 'momentum';

export interface PlanInput {
  spec: ModelSpec;
  batch: number;
  /** Names of the layers that train (see `trainableLayers`). */
  trainable: ReadonlySet<string>;
  optimizer: OptimizerName;
  /** Run the backbone outside the gradient tape (only when no backbone layer trains). */
  backboneOutsideTape: boolean;
  /** Batches the input pipeline holds ready besides the current one (prefetch). */
  queuedBatches?: number;
  /**
   * Gradient accumulation: the batch is split into this many near-equal micro-batches whose gradients
   * are summed into one update (default 1, no accumulation).
   */
  accumulationSteps?: number;
  /**
   * Gradient checkpointing at Keras block boundaries (default 'off'); only when the backbone is taped,
   * as the trainer does.
   */
  checkpointing?: 'off' | 'blocks';
  /**
   * How checkpointing keeps its segment boundaries (default 'float32'): 'float16' packs each into
   * binary16 pairs, ceil(n / 2) int32 words (float16 storage); ignored without checkpointing.
   */
  boundaryStorage?: 'float32' | 'float16';
  /**
   * A step of the frozen phase's later epochs with the feature cache (only with the backbone outside the
   * tape): the head trains on stored backbone features, made one batch at a time from host memory, so
   * there are no images, no prefetched batches and no backbone pass.
   */
  cachedFeatures?: boolean;
}

/** Bytes at the predicted peak, by category; they add up to `peakBytes`. */
export interface PlanCategories {
  weights: number;
  gradients: number;
  optimizer: number;
  input: number;
  /** Tensors kept for the backward pass. */
  savedActivations: number;
  /** Layer outputs and activation gradients alive at the peak, and the peak op's temporaries. */
  transient: number;
}

export interface Plan {
  peakBytes: number;
  /** When in the step the peak falls. */
  at: 'forward' | 'backward' | 'backbone' | 'optimizer';
  categories: PlanCategories;
  /** Bytes each layer holds at the peak (saved tensors plus gradients), largest first. */
  byLayer: { layer: string; bytes: number }[];
  /** Floating-point operations of one step (2 per multiply-accumulate), checkpointing's recompute included. */
  flops: number;
  /** Layer kinds without a measured recipe; their share is estimated. */
  approximateKinds: string[];
}

export const F32 = 4;
const OPTIMIZER_SLOTS: Record<OptimizerName, number> = { adam: 2, momentum: 1, sgd: 0 };

/**
 * Temporaries of the update. tfjs' Adam updates every variable inside one tidy, and each variable leaves
 * 14 temporaries of its size until the last one is done; SGD (2) and momentum (4) tidy per variable.
 */
export function optimizerTemporaries(
  optimizer: OptimizerName,
  params: { gradients: number; largestTrainable: number },
): number {
  if (optimizer === 'adam') return 14 * params.gradients;
  return (optimizer === 'momentum' ? 4 : 2) * params.largestTrainable;
}

/** Bytes of the weights, their gradients and the optimizer slots. */
export function parameterBytes(input: PlanInput) {
  const { spec, trainable, optimizer } = input;
  const weights = sum(spec.layers.map((l) => layerParams(l))) * F32;
  const trainableBytes =
    sum(spec.layers.filter((l) => trainable.has(l.name)).map((l) => sum(l.trainableWeightSizes))) * F32;
  const largestTrainable = Math.max(
    0,
    maxOf(spec.layers.filter((l) => trainable.has(l.name)).flatMap((l) => l.trainableWeightSizes)),
  );
  return {
    weights,
    gradients: trainableBytes,
    optimizer: trainableBytes * OPTIMIZER_SLOTS[optimizer],
    largestTrainable: largestTrainable * F32,
  };
}

/** One moment of the step that may be its peak: the bytes alive then, by category and by layer. */
export type Candidate = { at: Plan['at']; categories: PlanCategories; byLayer: Map<string, number> };
/** The parameter side of a plan (weights, their gradients, optimizer slots). */
export type Params = ReturnType<typeof parameterBytes>;

/** Bytes alive besides one micro-batch's own pass: the batch, its slice, and the running gradient sum. */
export interface Held {
  input: number;
  accumulator: number;
}

/** Sizes of k near-equal micro-batches of an n-image batch, as the trainer splits it. */
export function microBatchSizes(n: number, k: number): number[] {
  const parts = Math.max(1, Math.min(n, Math.floor(k)));
  return Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));
}

/** A candidate's categories: the weights and optimizer slots always, the rest as given. */
export function cats(
  params: { weights: number; optimizer: number },
  input: number,
  rest: Partial<PlanCategories>,
): PlanCategories {
  return {
    weights: params.weights,
    gradients: 0,
    optimizer: params.optimizer,
    input,
    savedActivations: 0,
    transient: 0,
    ...rest,
  };
}

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
