import * as tf from '@tensorflow/tfjs';
import type { StepBreakdown } from '../../core/memory';
import { tensorBytes } from '../../core/oom';
import type { EngineEvent, TrainingPhase, TrainResult } from '../../core/protocol';
import { EarlyStopping } from '../../core/earlyStopping';
import type { Batch } from '../data/pipeline';
import { layerOfData } from '../memory/layerContext';
import { inPhase, setStepPhase } from '../memory/stepPhase';
import { applyPhase, type TrainableSummary } from './freeze';
import { sparseAccuracy, sparseCategoricalCrossentropy } from './losses';

/** Loss and accuracy of one step or one pass over a data set. */
export interface Metrics {
  loss: number;
  accuracy: number;
}

/** What a training step reports. */
export interface StepMetrics extends Metrics {
  /** Bytes by category, measured during the step. */ breakdown: StepBreakdown;
}

/** Bytes of these tensors, each buffer counted once. */
const distinctBytes = (ts: readonly tf.Tensor[]): number => {
  const seen = new Set<object>();
  let bytes = 0;
  for (const t of ts) {
    if (seen.has(t.dataId)) continue;
    seen.add(t.dataId);
    bytes += tensorBytes(t.shape, t.dtype);
  }
  return bytes;
};

/** How many layers the by-layer view of saved activations lists before summing the rest. */
const TOP_LAYERS = 12;

/**
 * The activations the active gradient tape saved for the backward pass: their bytes (shared buffers
 * once, weights excluded since they are counted as weights), by layer, and the largest one.
 */
function savedActivations(
  weightIds: ReadonlySet<object>,
): Pick<StepBreakdown, 'savedActivations' | 'savedByLayer' | 'largestSaved'> {
  const tape = (tf.engine().state as unknown as { activeTape: { saved?: tf.Tensor[] }[] | null }).activeTape;
  const seen = new Set<object>(weightIds);
  const byLayer = new Map<string, number>();
  let total = 0;
  let largest: StepBreakdown['largestSaved'] = null;
  for (const t of (tape ?? []).flatMap((node) => node.saved ?? [])) {
    if (seen.has(t.dataId)) continue;
    seen.add(t.dataId);
    const bytes = tensorBytes(t.shape, t.dtype);
    const layer = layerOfData(t.dataId)?.name ?? '(loss and head ops)';
    total += bytes;
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + bytes);
    if (!largest || bytes > largest.bytes) largest = { layer, shape: [...t.shape], bytes };
  }
  const sorted = [...byLayer].map(([layer, bytes]) => ({ layer, bytes })).sort((a, b) => b.bytes - a.bytes);
  const rest = sorted.slice(TOP_LAYERS).reduce((n, e) => n + e.bytes, 0);
  const savedByLayer = sorted.slice(0, TOP_LAYERS);
  if (rest > 0) savedByLayer.push({ layer: `${sorted.length - TOP_LAYERS} other layers`, bytes: rest });
  return { savedActivations: total, savedByLayer, largestSaved: largest };
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
}

/**
 * Owns the optimizer and steps one classifier (a custom loop rather than model.fit, so every step can
 * be measured, stopped and, later, guarded against running out of memory).
 */
export class Trainer {
  private optimizer: tf.Optimizer | null = null;
  private variables: tf.Variable[] = [];
  private phase: TrainingPhase = 'frozen';
  private split: SplitModel | null = null;

  constructor(
    readonly model: tf.LayersModel,
    /** Layers before the head (index of 'avg_pool'). */ readonly backboneLayerCount: number,
    readonly options: TrainerOptions = { frozenBackboneOutsideTape: true },
  ) {}

  /**
   * Keras' "recompile": set which layers train for the phase and start a fresh Adam, whose slots are
   * then created for exactly the trainable variables.
   */
  compile(phase: TrainingPhase, learningRate: number, unfreezeLastN: number): TrainableSummary {
    const summary = applyPhase(this.model, this.backboneLayerCount, phase, unfreezeLastN);
    this.phase = phase;
    this.optimizer?.dispose();
    this.optimizer = tf.train.adam(learningRate);
    this.variables = this.model.trainableWeights.map((w) => w.read() as tf.Variable);
    return summary;
  }

  /** Whether the next step runs the backbone outside the tape. */
  get backboneOutsideTape(): boolean {
    return this.phase === 'frozen' && this.options.frozenBackboneOutsideTape;
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

  /** Class probabilities in training mode, taped from the first layer or only from the head. */
  private forward(xs: tf.Tensor4D, features: tf.Tensor | null): tf.Tensor2D {
    if (features) return this.splitModel().head.apply(features, { training: true }) as tf.Tensor2D;
    return this.model.apply(xs, { training: true }) as tf.Tensor2D;
  }

  /**
   * One forward + backward + Adam update. The batch stays owned by the caller. If any kernel fails
   * (a memory budget, a real allocation failure), everything the step created is released, so
   * tf.memory().numTensors returns to its value before the step, and the error is rethrown.
   */
  async step(batch: Batch): Promise<StepMetrics> {
    const optimizer = this.optimizer;
    if (!optimizer) throw new Error('Trainer.step() called before compile()');
    // Tensors this step creates that outlive its tidies; all released when the step ends, however it ends.
    const owned: tf.Tensor[] = [];
    const kept: { accuracy?: tf.Scalar } = {};
    let saved: ReturnType<typeof savedActivations> = {
      savedActivations: 0,
      savedByLayer: [],
      largestSaved: null,
    };
    const weightIds = new Set<object>(this.model.weights.map((w) => w.read().dataId));
    try {
      const features = this.backboneOutsideTape
        ? inPhase('forward', () =>
            tf.tidy(() => this.splitModel().backbone.apply(batch.xs, { training: false }) as tf.Tensor),
          )
        : null;
      if (features) owned.push(features);
      setStepPhase('forward');
      const { value, grads } = tf.variableGrads(() => {
        const probs = this.forward(batch.xs, features);
        kept.accuracy = tf.keep(sparseAccuracy(batch.ys, probs));
        owned.push(kept.accuracy);
        const loss = sparseCategoricalCrossentropy(batch.ys, probs);
        // Owned here too: if the backward pass fails, tfjs never hands the loss back.
        owned.push(loss);
        saved = savedActivations(weightIds);
        setStepPhase('backward');
        return loss;
      }, this.variables);
      const gradTensors = Object.values(grads).filter((g): g is tf.Tensor => g != null);
      owned.push(value, ...gradTensors);
      setStepPhase('optimizer');
      optimizer.applyGradients(grads);
      setStepPhase('other');
      const breakdown: StepBreakdown = {
        weights: distinctBytes(this.model.weights.map((w) => w.read())),
        gradients: distinctBytes(gradTensors),
        optimizer: this.optimizerBytes(),
        ...saved,
        input: distinctBytes([batch.xs, batch.ys]),
      };
      const [loss, acc] = await Promise.all([
        value.data(),
        kept.accuracy?.data() ?? Promise.resolve([Number.NaN]),
      ]);
      return { loss: loss[0] ?? Number.NaN, accuracy: acc[0] ?? Number.NaN, breakdown };
    } catch (err) {
      releaseAbandonedTape();
      throw err;
    } finally {
      tf.dispose(owned);
      setStepPhase('other');
    }
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
  unfreezeLastN: number;
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
    const summary = trainer.compile(p.phase, p.learningRate, p.unfreezeLastN);
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
            ...m,
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
