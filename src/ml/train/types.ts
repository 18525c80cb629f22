import type * as tf from '@tensorflow/tfjs';
import type { StepBreakdown, StepTechnique } from '../../core/memory/memory';
import type { BoundaryStorage } from './checkpoint';
import type { LossScaleOptions, LossScaleState } from './lossScale';

/** Loss and accuracy of one step or one pass over a data set. */
export interface Metrics {
  loss: number;
  accuracy: number;
}

/**
 * How the step's forward and backward ran. 'outside-tape': frozen backbone under tf.tidy, only the head
 * taped; 'taped': every layer on the tape; 'checkpointed': block segments, each recomputed in backward.
 */
export type { StepMode, StepTechnique } from '../../core/memory/memory';

/** What a training step reports. */
export interface StepMetrics extends Metrics {
  /**
   * Bytes by category, measured during the step. With micro-batches or checkpointing, savedActivations
   * (and by layer, largest) are of the micro-batch or segment recompute that held the most, boundaries
   * included.
   */
  breakdown: StepBreakdown;
  technique: StepTechnique;
  /** Dynamic loss scaling: the scale this step used and whether it skipped the update; null when off. */
  lossScale: LossScaleState | null;
}

/**
 * What a step trains on: images; cached backbone features (the frozen phase's later epochs); or both,
 * images with the features just computed from them for the cache. Owned by the caller.
 */
export interface StepBatch {
  xs?: tf.Tensor4D;
  ys: tf.Tensor1D;
  features?: tf.Tensor;
}

/** Options of the training step. */
export interface TrainerOptions {
  /**
   * In the frozen phase, run the backbone outside the gradient tape. tfjs keeps every taped
   * activation alive until backprop ends, even for layers that get no gradient; outside the tape
   * they are freed as soon as the next layer has used them. Same maths, lower peak.
   */
  frozenBackboneOutsideTape: boolean;
  /**
   * Gradient accumulation: each batch is split into this many micro-batches, their gradients summed
   * (each micro-batch's loss weighted by its share of the batch) and applied in one update. Same
   * update as the whole batch up to float rounding, with the activations of one micro-batch. Trainable
   * BatchNorm normalises each micro-batch with its own statistics and moves its averages once per
   * micro-batch, so fine-tuning with trainable BatchNorm is close to, not equal to, the big batch.
   */
  accumulationSteps: number;
  /**
   * Gradient checkpointing when the backbone is taped (fine-tuning): 'blocks' keeps only block
   * outputs during the forward pass and recomputes one block at a time in backward. Same gradients,
   * one extra forward pass.
   */
  checkpointing: 'off' | 'blocks';
  /**
   * How the activations kept for the backward pass are stored when the step is checkpointed: 'float16'
   * keeps each segment boundary as IEEE binary16 pairs (half the bytes, precision/kernels.ts) and
   * unpacks it, rounded, when its segment is recomputed; weights, gradients, Adam slots and all
   * arithmetic stay float32 (tfjs has no float16 arithmetic). Gradients move by about 2^-11 relative.
   */
  activationStorage: BoundaryStorage;
  /**
   * 'dynamic': Keras' LossScaleOptimizer. The loss is multiplied by a scale before the backward pass and
   * the gradients divided by it after; a step with a non-finite gradient is skipped and halves the
   * scale, and a run of finite steps doubles it. It exists for low-precision formats (float16 textures),
   * where small gradients would otherwise round to zero; in float32 it changes nothing but rounding.
   * The scale starts afresh at every compile(), as a recompiled Keras model gets a new optimizer.
   */
  lossScaling: 'off' | 'dynamic';
  /** Loss scale settings (Keras' defaults: start at 2^15, double after 2000 finite steps). */
  lossScale?: Partial<LossScaleOptions>;
  /** Seeds the dropout masks of every step (a fresh stream per micro-batch); random when unset. */
  seed?: number;
  /**
   * 'lean': the lab's backward pass (leanBackward.ts), which frees each forward intermediate, saved
   * tensor and activation gradient once nothing later reads it; same gradients as 'stock', tfjs' own.
   */
  backward: Backward;
}

/** Which backward pass a step runs: tfjs' own, or the lab's that frees as it goes. */
export type Backward = 'stock' | 'lean';

export const DEFAULT_TRAINER_OPTIONS: TrainerOptions = {
  frozenBackboneOutsideTape: true,
  accumulationSteps: 1,
  checkpointing: 'off',
  activationStorage: 'float32',
  lossScaling: 'off',
  backward: 'stock',
};
