import * as tf from '@tensorflow/tfjs';
import type { StepBreakdown, StepMode, StepProfile, StepTechnique } from '../../core/memory';
import type { EngineEvent, TrainResult } from '../../core/protocol';
import type { TrainingPhase } from '../../core/trainConfig';
import { EarlyStopping } from '../../core/earlyStopping';
import type { Batch } from '../data/pipeline';
import { FEATURE_CACHE_LIMIT_BYTES, FeatureCache, type FeatureBatch } from './featureCache';
import { inPhase, setStepPhase } from '../memory/stepPhase';
import { checkpointedGradients } from './checkpoint';
import { withDropoutSeeds } from './dropoutSeeds';
import { applyPhase, type TrainableSummary, type Unfreeze } from './freeze';
import { DynamicLossScale, type LossScaleOptions, type LossScaleState } from './lossScale';
import { sparseAccuracy, sparseCategoricalCrossentropy } from './losses';
import {
  distinctBytes,
  largerSaved,
  NOTHING_SAVED,
  savedActivations,
  type SavedActivations,
} from './measure';
import { blockSegments, type Segment } from './segments';
import { registeredVariables, releaseAbandonedTape } from '../tfjsInternals';

/** Loss and accuracy of one step or one pass over a data set. */
export interface Metrics {
  loss: number;
  accuracy: number;
}

/**
 * How the step's forward and backward ran. 'outside-tape': frozen backbone under tf.tidy, only the head
 * taped; 'taped': every layer on the tape; 'checkpointed': block segments, each recomputed in backward.
 */
export type { StepMode, StepTechnique } from '../../core/memory';

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

/** The classifier cut where the head starts: both halves share the classifier's layers and weights. */
interface SplitModel {
  backbone: tf.LayersModel;
  head: tf.LayersModel;
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
}

export const DEFAULT_TRAINER_OPTIONS: TrainerOptions = {
  frozenBackboneOutsideTape: true,
  accumulationSteps: 1,
  checkpointing: 'off',
  lossScaling: 'off',
};

/** Sizes of k near-equal micro-batches of an n-image batch (never an empty one). */
export function microBatchSizes(n: number, k: number): number[] {
  const parts = Math.max(1, Math.min(n, Math.floor(k)));
  return Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));
}

/** One micro-batch's contribution: its scaled loss, weighted accuracy, gradients and measurements. */
interface MicroStep {
  loss: tf.Scalar;
  accuracy: tf.Scalar;
  grads: tf.NamedTensorMap;
  saved: SavedActivations;
  checkpoint: StepTechnique['checkpoint'];
}

/** What the micro-batches of one batch left behind, besides the gradient sum. */
interface Accumulated {
  sizes: number[];
  parts: { loss: tf.Scalar; accuracy: tf.Scalar }[];
  saved: SavedActivations;
  checkpoint: StepTechnique['checkpoint'];
}

/**
 * Owns the optimizer and steps one classifier (a custom loop rather than model.fit, so every step can
 * be measured, stopped and, later, guarded against running out of memory).
 */
export class Trainer {
  readonly options: TrainerOptions;
  private optimizer: tf.Optimizer | null = null;
  private variables: tf.Variable[] = [];
  private phase: TrainingPhase = 'frozen';
  private split: SplitModel | null = null;
  private segments: Segment[] | null = null;
  private lossScale: DynamicLossScale | null = null;
  private readonly seed: number;
  /** Forward passes drawn so far; each gets its own dropout stream. */
  private draws = 0;

  constructor(
    readonly model: tf.LayersModel,
    /** Layers before the head (index of 'avg_pool'). */ readonly backboneLayerCount: number,
    options: Partial<TrainerOptions> = {},
  ) {
    this.options = { ...DEFAULT_TRAINER_OPTIONS, ...options };
    if (!(this.options.accumulationSteps >= 1)) throw new Error('accumulationSteps must be at least 1.');
    this.seed = this.options.seed ?? Math.floor(Math.random() * 2 ** 31);
  }

  /**
   * Keras' "recompile": set which layers train for the phase and start a fresh Adam, whose slots are
   * then created for exactly the trainable variables.
   */
  compile(phase: TrainingPhase, learningRate: number, unfreeze: Unfreeze): TrainableSummary {
    const summary = applyPhase(this.model, this.backboneLayerCount, phase, unfreeze);
    this.phase = phase;
    this.optimizer?.dispose();
    this.optimizer = tf.train.adam(learningRate);
    this.variables = this.model.trainableWeights.map((w) => w.read() as tf.Variable);
    this.lossScale =
      this.options.lossScaling === 'dynamic' ? new DynamicLossScale(this.options.lossScale) : null;
    return summary;
  }

  /** Whether the next step runs the backbone outside the tape. */
  get backboneOutsideTape(): boolean {
    return this.phase === 'frozen' && this.options.frozenBackboneOutsideTape;
  }

  /** How the next step runs its forward and backward. */
  get mode(): StepMode {
    if (this.backboneOutsideTape) return 'outside-tape';
    return this.options.checkpointing === 'blocks' ? 'checkpointed' : 'taped';
  }

  /** Backbone and head as two models over the same layers, built once (each build adds graph nodes). */
  private splitModel(): SplitModel {
    if (this.split) return this.split;
    const layers = this.model.layers;
    const last = layers[this.backboneLayerCount - 1]!;
    const backbone = tf.model({ inputs: this.model.inputs, outputs: last.output as tf.SymbolicTensor });
    const featureShape = (last.outputShape as (number | null)[]).slice(1) as number[];
    const input = tf.input({ shape: featureShape });
    const output = layers
      .slice(this.backboneLayerCount)
      .reduce<tf.SymbolicTensor>((x, layer) => layer.apply(x) as tf.SymbolicTensor, input);
    this.split = { backbone, head: tf.model({ inputs: input, outputs: output }) };
    return this.split;
  }

  /** The checkpoint segments, found once (reading the graph changes nothing). */
  private checkpointSegments(): Segment[] {
    this.segments ??= blockSegments(this.model);
    return this.segments;
  }

  /**
   * The frozen backbone's output for a batch of images, in inference mode and outside the tape (each
   * layer's output freed once used). The caller disposes it.
   */
  backboneFeatures(xs: tf.Tensor4D): tf.Tensor {
    return inPhase('forward', () =>
      tf.tidy(() => this.splitModel().backbone.apply(xs, { training: false }) as tf.Tensor),
    );
  }

  /**
   * One forward + backward + Adam update, over `accumulationSteps` micro-batches of the batch. The batch
   * stays owned by the caller. If any kernel fails (a memory budget, a real allocation failure),
   * everything the step created is released, so tf.memory().numTensors returns to its value before the
   * step, and the error is rethrown.
   */
  async step(batch: StepBatch): Promise<StepMetrics> {
    const optimizer = this.optimizer;
    if (!optimizer) throw new Error('Trainer.step() called before compile()');
    // Tensors this step creates that outlive its tidies; all released when the step ends, however it ends.
    const owned: tf.Tensor[] = [];
    let sum: tf.NamedTensorMap = {};
    try {
      const run = this.accumulate(batch, owned, sum);
      let lossScale: LossScaleState | null = null;
      if (this.lossScale) {
        const scaled = sum;
        sum = {}; // unscale() owns the scaled gradients from here, and frees them however it ends.
        const unscaled = await this.lossScale.unscale(scaled);
        sum = unscaled.grads;
        lossScale = this.lossScale.update(unscaled.finite);
      }
      setStepPhase('optimizer');
      // A step whose gradients overflowed is skipped, as Keras' LossScaleOptimizer does.
      if (!lossScale?.skipped) optimizer.applyGradients(sum);
      setStepPhase('other');
      const gradients = distinctBytes(Object.values(sum));
      const breakdown: StepBreakdown = {
        weights: distinctBytes(this.model.weights.map((w) => w.read())),
        gradients,
        optimizer: this.optimizerBytes(),
        ...run.saved,
        input: distinctBytes([batch.xs ?? batch.features, batch.ys].filter(isTensor)),
      };
      const values = await Promise.all(run.parts.flatMap((p) => [p.loss.data(), p.accuracy.data()]));
      const at = (i: number) => values[i]?.[0] ?? Number.NaN;
      return {
        loss: run.parts.reduce((l, _, i) => l + at(2 * i), 0),
        accuracy: run.parts.reduce((a, _, i) => a + at(2 * i + 1), 0),
        breakdown,
        technique: {
          mode: this.mode,
          microBatches: run.sizes.length,
          microBatchSize: Math.max(...run.sizes),
          accumulatorBytes: run.sizes.length > 1 ? gradients : 0,
          checkpoint: run.checkpoint,
          featureCache: batch.features ? (batch.xs ? 'filling' : 'reading') : null,
        },
        lossScale,
      };
    } catch (err) {
      releaseAbandonedTape();
      throw err;
    } finally {
      tf.dispose(owned);
      tf.dispose(Object.values(sum));
      setStepPhase('other');
    }
  }

  /**
   * The gradients step() would apply for this batch, summed over its micro-batches (and divided by the
   * loss scale), without applying them or moving the scale: for checking that the training modes
   * agree. The caller disposes them.
   */
  gradients(batch: StepBatch): tf.NamedTensorMap {
    if (!this.optimizer) throw new Error('Trainer.gradients() called before compile()');
    const owned: tf.Tensor[] = [];
    const sum: tf.NamedTensorMap = {};
    try {
      this.accumulate(batch, owned, sum);
      const scale = this.lossScale?.scale ?? 1;
      if (scale === 1) return sum;
      const unscaled = tf.tidy(() => mapValues(sum, (g) => tf.div(g, scale)));
      tf.dispose(Object.values(sum));
      return unscaled;
    } catch (err) {
      releaseAbandonedTape();
      tf.dispose(Object.values(sum));
      throw err;
    } finally {
      tf.dispose(owned);
      setStepPhase('other');
    }
  }

  /**
   * Forward and backward over the batch's micro-batches, summing their gradients into `sum`. Losses,
   * accuracies and slices go into `owned`.
   */
  private accumulate(batch: StepBatch, owned: tf.Tensor[], sum: tf.NamedTensorMap): Accumulated {
    if (batch.features && this.mode !== 'outside-tape')
      throw new Error('Backbone features can only be trained on with the backbone outside the tape.');
    const n = batch.ys.shape[0];
    const sizes = microBatchSizes(n, this.options.accumulationSteps);
    const weightIds = new Set<object>(this.model.weights.map((w) => w.read().dataId));
    const run: Accumulated = { sizes, parts: [], saved: NOTHING_SAVED, checkpoint: null };
    let begin = 0;
    for (const size of sizes) {
      const micro: StepBatch = sizes.length === 1 ? batch : sliceRows(batch, begin, size);
      const slices = micro === batch ? [] : [micro.xs, micro.ys, micro.features].filter(isTensor);
      owned.push(...slices);
      begin += size;
      const r = this.microStep(micro, size / n, weightIds, owned);
      // The slice is not needed for the next micro-batch: free it now, not at the end of the step.
      tf.dispose(slices);
      run.parts.push(r);
      run.saved = largerSaved(run.saved, r.saved);
      run.checkpoint = r.checkpoint;
      addInto(sum, r.grads);
    }
    return run;
  }

  /**
   * Forward and backward of one micro-batch, in the trainer's mode, with the loss scaled by `share`
   * (its part of the batch) so the summed gradients are those of the batch mean, and by the loss scale
   * when on. Its loss (weighted, not loss-scaled) and weighted accuracy go into `owned`; its gradients
   * are the caller's.
   */
  private microStep(
    micro: StepBatch,
    share: number,
    weightIds: ReadonlySet<object>,
    owned: tf.Tensor[],
  ): MicroStep {
    const mode = this.mode;
    const kept: { accuracy?: tf.Scalar; loss?: tf.Scalar } = {};
    const lossScale = this.lossScale;
    const lossOf = (probs: tf.Tensor): tf.Scalar => {
      const accuracy = tf.keep(
        tf.tidy(() => tf.mul(sparseAccuracy(micro.ys, probs as tf.Tensor2D), share)) as tf.Scalar,
      );
      kept.accuracy = accuracy;
      owned.push(accuracy);
      const loss = tf.tidy(() => {
        const mean = sparseCategoricalCrossentropy(micro.ys, probs as tf.Tensor2D);
        return share === 1 ? mean : tf.mul(mean, share);
      }) as tf.Scalar;
      // Owned here too: if the backward pass fails, tfjs never hands the loss back.
      owned.push(loss);
      kept.loss = loss;
      if (!lossScale) return loss;
      // The reported loss is the unscaled one; kept, as the tape's scope frees what it does not return.
      tf.keep(loss);
      const scaled = lossScale.scaleLoss(loss);
      owned.push(scaled);
      return scaled;
    };
    return withDropoutSeeds(this.model, `${this.seed}:${this.draws++}`, (): MicroStep => {
      let saved = NOTHING_SAVED;
      if (mode === 'checkpointed') {
        const segments = this.checkpointSegments();
        const r = checkpointedGradients(segments, images(micro), lossOf, (held) => {
          saved = largerSaved(saved, savedActivations(weightIds, held));
        });
        return {
          loss: kept.loss!,
          accuracy: kept.accuracy!,
          grads: r.grads,
          saved,
          checkpoint: { segments: segments.length, recomputed: r.recomputed, boundaryBytes: r.boundaryBytes },
        };
      }
      // Features handed in (from the cache) stay the caller's; features computed here are freed here.
      const computed =
        mode === 'outside-tape' && !micro.features ? this.backboneFeatures(images(micro)) : null;
      if (computed) owned.push(computed);
      const features = micro.features ?? computed;
      setStepPhase('forward');
      const { value, grads } = tf.variableGrads(() => {
        const loss = lossOf(
          features
            ? (this.splitModel().head.apply(features, { training: true }) as tf.Tensor2D)
            : (this.model.apply(images(micro), { training: true }) as tf.Tensor2D),
        );
        saved = savedActivations(weightIds);
        setStepPhase('backward');
        return loss;
      }, this.variables);
      computed?.dispose();
      owned.push(value);
      return { loss: kept.loss!, accuracy: kept.accuracy!, grads, saved, checkpoint: null };
    });
  }

  /** Bytes of the optimizer's slots: every registered variable that is not one of the model's. */
  private optimizerBytes(): number {
    const own = new Set(this.model.weights.map((w) => w.read().id));
    const all = Object.values(registeredVariables());
    return distinctBytes(all.filter((v) => !own.has(v.id)));
  }

  /**
   * Mean loss and accuracy in inference mode (dropout off, BatchNorm on moving statistics). With `fill`,
   * the backbone's features of every batch are stored in it on the way (frozen phase, feature cache).
   */
  async evaluate(
    dataset: tf.data.Dataset<Batch>,
    shouldStop: () => boolean = () => false,
    abort: () => void = () => {},
    fill?: FeatureCache,
  ): Promise<Metrics> {
    const total = new MetricSum();
    await forEachBatch(
      dataset,
      shouldStop,
      async (batch) => {
        if (!fill) {
          await total.add(batch.ys, () => this.model.apply(batch.xs, { training: false }) as tf.Tensor2D);
          return;
        }
        const features = this.backboneFeatures(batch.xs);
        try {
          await fill.add(features, batch.ys);
          await total.add(batch.ys, () => this.headInference(features));
        } finally {
          features.dispose();
        }
      },
      abort,
    );
    return total.mean();
  }

  /** evaluate() over a complete feature cache: the head alone, in inference mode. */
  async evaluateCached(cache: FeatureCache, shouldStop: () => boolean = () => false): Promise<Metrics> {
    const total = new MetricSum();
    for (const rows of cache.order(null)) {
      if (shouldStop()) break;
      const batch = cache.batch(rows);
      try {
        await total.add(batch.ys, () => this.headInference(batch.features));
      } finally {
        tf.dispose([batch.features, batch.ys]);
      }
    }
    return total.mean();
  }

  private headInference(features: tf.Tensor): tf.Tensor2D {
    return this.splitModel().head.apply(features, { training: false }) as tf.Tensor2D;
  }

  /** Frees the optimizer's slots and the split's references; the model stays with its owner. */
  dispose(): void {
    this.optimizer?.dispose();
    this.optimizer = null;
    this.variables = [];
    // Calling the head layers on a new input raised their reference counts, and tfjs frees a layer's
    // weights only at zero: without this, disposing the classifier would leak the head's weights.
    // The backbone half was made from existing tensors, took no references, and must not give any back.
    this.split?.head.dispose();
    this.split = null;
  }
}

function isTensor(t: tf.Tensor | undefined): t is tf.Tensor {
  return t !== undefined;
}

/** The images of a batch that must have them (every mode but training on cached features). */
function images(batch: StepBatch): tf.Tensor4D {
  if (!batch.xs) throw new Error('This training step needs images, and the batch holds only features.');
  return batch.xs;
}

/** Rows [begin, begin + size) of every tensor of the batch (a micro-batch). */
function sliceRows(batch: StepBatch, begin: number, size: number): StepBatch {
  const rows = <T extends tf.Tensor>(t: T): T =>
    tf.slice(t, [begin, ...t.shape.slice(1).map(() => 0)], [size, ...t.shape.slice(1).map(() => -1)]);
  return tf.tidy(() => ({
    ys: rows(batch.ys),
    ...(batch.xs ? { xs: rows(batch.xs) } : {}),
    ...(batch.features ? { features: rows(batch.features) } : {}),
  }));
}

/** Loss and accuracy summed over evaluation batches, weighted by their sizes. */
class MetricSum {
  private loss = 0;
  private correct = 0;
  private count = 0;

  /** Scores the probabilities `probs()` gives for the batch (computed and freed here). */
  async add(ys: tf.Tensor1D, probs: () => tf.Tensor2D): Promise<void> {
    const n = ys.shape[0];
    const [loss, acc] = inPhase('evaluation', () =>
      tf.tidy(() => {
        const p = probs();
        return [sparseCategoricalCrossentropy(ys, p), sparseAccuracy(ys, p)];
      }),
    );
    const [l, a] = await Promise.all([loss.data(), acc.data()]);
    tf.dispose([loss, acc]);
    this.loss += (l[0] ?? Number.NaN) * n;
    this.correct += (a[0] ?? Number.NaN) * n;
    this.count += n;
  }

  mean(): Metrics {
    return this.count === 0
      ? { loss: Number.NaN, accuracy: Number.NaN }
      : { loss: this.loss / this.count, accuracy: this.correct / this.count };
  }
}

/** The map with each tensor replaced by fn of it. */
function mapValues(map: tf.NamedTensorMap, fn: (t: tf.Tensor) => tf.Tensor): tf.NamedTensorMap {
  return Object.fromEntries(Object.entries(map).map(([name, t]) => [name, fn(t)]));
}

/** Adds each gradient into the running sum (taking ownership of both, freeing what the sum replaces). */
function addInto(sum: tf.NamedTensorMap, grads: tf.NamedTensorMap): void {
  for (const [name, g] of Object.entries(grads)) {
    // tf.variableGrads lists a variable made non-trainable since compile() with a null gradient.
    if (!g) continue;
    const previous = sum[name];
    if (!previous) {
      sum[name] = g;
      continue;
    }
    sum[name] = tf.add(previous, g);
    tf.dispose([previous, g]);
  }
}

/**
 * Runs `fn` on each batch and disposes it afterwards. When stopped, or when `fn` or the data set
 * fails, the iterator is still drained so batches already prefetched are disposed, not leaked;
 * `abort` is called first so the data set ends early and draining is quick. A failure is rethrown
 * once drained. Returns whether it stopped early.
 */
export async function forEachBatch(
  dataset: tf.data.Dataset<Batch>,
  shouldStop: () => boolean,
  fn: (batch: Batch, index: number) => Promise<void>,
  abort: () => void = () => {},
): Promise<boolean> {
  const iterator = await dataset.iterator();
  let index = 0;
  let stopped = false;
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => {
    if (failure) return;
    failure = { error };
    abort();
  };
  for (;;) {
    let next: IteratorResult<Batch>;
    try {
      next = await iterator.next();
    } catch (err) {
      fail(err);
      continue;
    }
    if (next.done) break;
    try {
      if (!stopped && !failure) await fn(next.value, index++);
    } catch (err) {
      fail(err);
    } finally {
      tf.dispose([next.value.xs, next.value.ys]);
    }
    if (!stopped && shouldStop()) stopped = true;
  }
  if (failure) throw (failure as { error: unknown }).error;
  return stopped;
}

/** One phase of the plan. */
export interface PhasePlan {
  phase: TrainingPhase;
  epochs: number;
  learningRate: number;
  /** Backbone layers this phase unfreezes: the last N, or these names. */
  unfreeze: Unfreeze;
}

/** What the run loop needs from its surroundings. */
export interface RunContext {
  /** Fresh data set for a split and epoch (the epoch reseeds shuffling and augmentation). */
  dataset: (split: 'train' | 'validation', epoch: number) => tf.data.Dataset<Batch>;
  /** Batches per training epoch, for progress. */ batchesPerEpoch: number;
  /** EarlyStopping patience on val_loss. */ patience: number;
  /** Milliseconds since the run started. */ now: () => number;
  /** Receives phase, batch and epoch events. */ emit: (event: EngineEvent) => void;
  /** True once the user pressed Stop; checked between steps. */ shouldStop: () => boolean;
  /** Ends the data sets early after a failure, so the rest can be drained quickly. */ abort: () => void;
  /** Peak live bytes of the step that just ran, when measured. */ stepPeakBytes?: () => number;
  /** The tf.profile summary of the step that just ran, in precise mode. */ stepProfile?: () => StepProfile | null;
  /** Runs one training step under the backend's error capture (WebGPU error scopes), rethrowing what it catches. */
  guardStep: <T>(step: () => Promise<T>) => Promise<T>;
  /** Lets messages (Stop) and timers (memory sampling) run between steps. */ yieldToEventLoop: () => Promise<void>;
  /**
   * Cache the frozen backbone's features on the host in the first frozen epoch and train the head on
   * them afterwards. Only for data whose pixels never change (no augmentation); `seed` reshuffles the
   * cached images each epoch, `limitBytes` caps the host memory (default FEATURE_CACHE_LIMIT_BYTES).
   */
  featureCache?: { seed: number; limitBytes?: number };
}

/**
 * A frozen-phase step of the cache-filling epoch: the backbone runs outside the tape, as in any frozen
 * step; its features are stored on the host and handed to the step, so the backbone runs once.
 */
async function fillStep(trainer: Trainer, batch: Batch, cache: FeatureCache): Promise<StepMetrics> {
  const features = trainer.backboneFeatures(batch.xs);
  try {
    const metrics = await trainer.step({ ...batch, features });
    await cache.add(features, batch.ys);
    return metrics;
  } finally {
    features.dispose();
  }
}

/** Runs `fn` on the cached batches in a shuffled order, freeing each; returns whether it stopped early. */
async function forEachCached(
  cache: FeatureCache,
  seed: number,
  shouldStop: () => boolean,
  fn: (batch: FeatureBatch, index: number) => Promise<void>,
): Promise<boolean> {
  for (const [i, rows] of cache.order(seed).entries()) {
    const batch = cache.batch(rows);
    try {
      await fn(batch, i);
    } finally {
      tf.dispose([batch.features, batch.ys]);
    }
    if (shouldStop()) return true;
  }
  return false;
}

/** The log line that says what the feature cache holds, or why it was not used. */
function cacheReport(train: FeatureCache, validation: FeatureCache, limitBytes: number): EngineEvent {
  if (!train.ready || !validation.ready) {
    const mb = (limitBytes / 2 ** 20).toFixed(0);
    const which = [!train.ready && 'training', !validation.ready && 'validation']
      .filter(Boolean)
      .join(' and ');
    return {
      kind: 'log',
      level: 'info',
      message: `Feature cache: the ${which} features would not fit in its host memory limit (${mb} MB); those batches run the backbone every epoch.`,
    };
  }
  const shape = train.featureShape?.join('×') ?? '?';
  const mb = ((train.bytes + validation.bytes) / 2 ** 20).toFixed(1);
  return {
    kind: 'log',
    level: 'info',
    message: `Feature cache: stored the frozen backbone's ${shape} features of ${train.count} training and ${validation.count} validation images (${mb} MB of host memory). Later frozen epochs train the head on them: no decoding, no backbone.`,
  };
}

/** Frozen phase then fine-tuning, with EarlyStopping per phase (as the seed's two fit() calls). */
export async function runTraining(
  trainer: Trainer,
  plan: readonly PhasePlan[],
  ctx: RunContext,
): Promise<TrainResult> {
  const phases: TrainingPhase[] = [];
  let last: Metrics = { loss: Number.NaN, accuracy: Number.NaN };
  let outcome: TrainResult['outcome'] = 'completed';
  let epochIndex = 0;
  const ended = (how: TrainResult['outcome']): TrainResult => ({
    outcome: how,
    phases,
    valLoss: last.loss,
    valAccuracy: last.accuracy,
    lastPhase: phases[phases.length - 1] ?? null,
  });
  for (const p of plan) {
    if (p.epochs <= 0) continue;
    const summary = trainer.compile(p.phase, p.learningRate, p.unfreeze);
    phases.push(p.phase);
    ctx.emit({
      kind: 'phase',
      phase: p.phase,
      t: ctx.now(),
      ...summary,
      batchesPerEpoch: ctx.batchesPerEpoch,
      epochs: p.epochs,
    });
    const early = new EarlyStopping(ctx.patience);
    outcome = 'completed';
    const caches =
      ctx.featureCache && trainer.backboneOutsideTape
        ? {
            train: new FeatureCache(ctx.featureCache.limitBytes),
            validation: new FeatureCache(ctx.featureCache.limitBytes),
          }
        : null;
    for (let epoch = 0; epoch < p.epochs; epoch++, epochIndex++) {
      let lossSum = 0;
      let accSum = 0;
      let seen = 0;
      const trainStep = async (batch: StepBatch, i: number) => {
        const start = performance.now();
        const m = await ctx.guardStep(() =>
          batch.xs && caches?.train.active
            ? fillStep(trainer, batch as Batch, caches.train)
            : trainer.step(batch),
        );
        const peakBytes = ctx.stepPeakBytes?.();
        const profile = ctx.stepProfile?.() ?? null;
        const n = batch.ys.shape[0];
        lossSum += m.loss * n;
        accSum += m.accuracy * n;
        seen += n;
        ctx.emit({
          kind: 'batch',
          phase: p.phase,
          epoch,
          batch: i,
          batchesPerEpoch: ctx.batchesPerEpoch,
          loss: m.loss,
          accuracy: m.accuracy,
          breakdown: m.breakdown,
          technique: m.technique,
          lossScale: m.lossScale,
          ...(peakBytes !== undefined ? { peakBytes } : {}),
          ...(profile ? { profile } : {}),
          stepMs: performance.now() - start,
          t: ctx.now(),
        });
        await ctx.yieldToEventLoop();
      };
      const stopped = caches?.train.ready
        ? await forEachCached(caches.train, ctx.featureCache!.seed + epochIndex, ctx.shouldStop, trainStep)
        : await forEachBatch(ctx.dataset('train', epochIndex), ctx.shouldStop, trainStep, ctx.abort);
      if (stopped) return ended('stopped');
      const filling = caches !== null && !caches.train.ready;
      caches?.train.complete();
      const val = caches?.validation.ready
        ? await trainer.evaluateCached(caches.validation, ctx.shouldStop)
        : await trainer.evaluate(
            ctx.dataset('validation', epochIndex),
            ctx.shouldStop,
            ctx.abort,
            caches?.validation.active ? caches.validation : undefined,
          );
      if (ctx.shouldStop()) return ended('stopped');
      caches?.validation.complete();
      if (caches && filling)
        ctx.emit(
          cacheReport(
            caches.train,
            caches.validation,
            ctx.featureCache?.limitBytes ?? FEATURE_CACHE_LIMIT_BYTES,
          ),
        );
      last = val;
      ctx.emit({
        kind: 'epoch',
        phase: p.phase,
        epoch,
        loss: lossSum / seen,
        accuracy: accSum / seen,
        valLoss: val.loss,
        valAccuracy: val.accuracy,
        t: ctx.now(),
      });
      if (Number.isFinite(val.loss) && early.update(val.loss)) {
        ctx.emit({
          kind: 'log',
          level: 'info',
          message: `EarlyStopping: val_loss did not improve for ${ctx.patience} epochs; ${p.phase} phase ends after epoch ${epoch + 1}.`,
        });
        outcome = 'early-stopped';
        break;
      }
    }
  }
  return ended(outcome);
}
