import * as tf from '@tensorflow/tfjs';
import type { StepBreakdown, StepMode, StepTechnique } from '../../core/memory';
import type { EngineEvent, TrainingPhase, TrainResult } from '../../core/protocol';
import { EarlyStopping } from '../../core/earlyStopping';
import type { Batch } from '../data/pipeline';
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

  /** Class probabilities in training mode, taped from the first layer or only from the head. */
  private forward(xs: tf.Tensor4D, features: tf.Tensor | null): tf.Tensor2D {
    if (features) return this.splitModel().head.apply(features, { training: true }) as tf.Tensor2D;
    return this.model.apply(xs, { training: true }) as tf.Tensor2D;
  }

  /**
   * One forward + backward + Adam update, over `accumulationSteps` micro-batches of the batch. The batch
   * stays owned by the caller. If any kernel fails (a memory budget, a real allocation failure),
   * everything the step created is released, so tf.memory().numTensors returns to its value before the
   * step, and the error is rethrown.
   */
  async step(batch: Batch): Promise<StepMetrics> {
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
        input: distinctBytes([batch.xs, batch.ys]),
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
  gradients(batch: Batch): tf.NamedTensorMap {
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
  private accumulate(batch: Batch, owned: tf.Tensor[], sum: tf.NamedTensorMap): Accumulated {
    const n = batch.ys.shape[0];
    const sizes = microBatchSizes(n, this.options.accumulationSteps);
    const weightIds = new Set<object>(this.model.weights.map((w) => w.read().dataId));
    const run: Accumulated = { sizes, parts: [], saved: NOTHING_SAVED, checkpoint: null };
    let begin = 0;
    for (const size of sizes) {
      const micro =
        sizes.length === 1
          ? batch
          : tf.tidy(() => ({
              xs: tf.slice(batch.xs, [begin, 0, 0, 0], [size, -1, -1, -1]),
              ys: tf.slice(batch.ys, [begin], [size]),
            }));
      if (micro !== batch) owned.push(micro.xs, micro.ys);
      begin += size;
      const r = this.microStep(micro, size / n, weightIds, owned);
      // The slice is not needed for the next micro-batch: free it now, not at the end of the step.
      if (micro !== batch) tf.dispose([micro.xs, micro.ys]);
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
    micro: Batch,
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
        const r = checkpointedGradients(segments, micro.xs, lossOf, (held) => {
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
      const features =
        mode === 'outside-tape'
          ? inPhase('forward', () =>
              tf.tidy(() => this.splitModel().backbone.apply(micro.xs, { training: false }) as tf.Tensor),
            )
          : null;
      if (features) owned.push(features);
      setStepPhase('forward');
      const { value, grads } = tf.variableGrads(() => {
        const loss = lossOf(this.forward(micro.xs, features));
        saved = savedActivations(weightIds);
        setStepPhase('backward');
        return loss;
      }, this.variables);
      features?.dispose();
      owned.push(value);
      return { loss: kept.loss!, accuracy: kept.accuracy!, grads, saved, checkpoint: null };
    });
  }

  /** Bytes of the optimizer's slots: every registered variable that is not one of the model's. */
  private optimizerBytes(): number {
    const own = new Set(this.model.weights.map((w) => w.read().id));
    const all = Object.values(tf.engine().registeredVariables);
    return distinctBytes(all.filter((v) => !own.has(v.id)));
  }

  /** Mean loss and accuracy in inference mode (dropout off, BatchNorm on moving statistics). */
  async evaluate(
    dataset: tf.data.Dataset<Batch>,
    shouldStop: () => boolean = () => false,
    abort: () => void = () => {},
  ): Promise<Metrics> {
    let lossSum = 0;
    let correct = 0;
    let count = 0;
    await forEachBatch(
      dataset,
      shouldStop,
      async (batch) => {
        const n = batch.ys.shape[0];
        const [loss, acc] = inPhase('evaluation', () =>
          tf.tidy(() => {
            const probs = this.model.apply(batch.xs, { training: false }) as tf.Tensor2D;
            return [sparseCategoricalCrossentropy(batch.ys, probs), sparseAccuracy(batch.ys, probs)];
          }),
        );
        const [l, a] = await Promise.all([loss.data(), acc.data()]);
        tf.dispose([loss, acc]);
        lossSum += (l[0] ?? Number.NaN) * n;
        correct += (a[0] ?? Number.NaN) * n;
        count += n;
      },
      abort,
    );
    return count === 0
      ? { loss: Number.NaN, accuracy: Number.NaN }
      : { loss: lossSum / count, accuracy: correct / count };
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
 * When a kernel throws inside tf.variableGrads, tfjs leaves the gradient tape behind with every
 * tensor it saved for the backward pass still kept. Dispose them so a failed step leaks nothing.
 */
export function releaseAbandonedTape(): void {
  const state = tf.engine().state as unknown as {
    gradientDepth: number;
    activeTape: { saved?: tf.Tensor[] }[] | null;
  };
  if (state.gradientDepth !== 0 || !state.activeTape) return;
  for (const node of state.activeTape) for (const t of node.saved ?? []) t.dispose();
  state.activeTape = null;
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
  /** Runs one training step under the backend's error capture (WebGPU error scopes), rethrowing what it catches. */
  guardStep: <T>(step: () => Promise<T>) => Promise<T>;
  /** Lets messages (Stop) and timers (memory sampling) run between steps. */ yieldToEventLoop: () => Promise<void>;
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
    for (let epoch = 0; epoch < p.epochs; epoch++, epochIndex++) {
      let lossSum = 0;
      let accSum = 0;
      let seen = 0;
      const stopped = await forEachBatch(
        ctx.dataset('train', epochIndex),
        ctx.shouldStop,
        async (batch, i) => {
          const start = performance.now();
          const m = await ctx.guardStep(() => trainer.step(batch));
          const peakBytes = ctx.stepPeakBytes?.();
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
            stepMs: performance.now() - start,
            t: ctx.now(),
          });
          await ctx.yieldToEventLoop();
        },
        ctx.abort,
      );
      if (stopped) return ended('stopped');
      const val = await trainer.evaluate(ctx.dataset('validation', epochIndex), ctx.shouldStop, ctx.abort);
      if (ctx.shouldStop()) return ended('stopped');
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
