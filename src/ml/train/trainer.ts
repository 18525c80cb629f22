import * as tf from '@tensorflow/tfjs';
import type { StepBreakdown, StepMode } from '../../core/memory/memory';
import type { TrainerSnapshot } from '../../core/run/resume';
import { microBatchSizes } from '../../core/planner/planner';
import { stepModeOf } from '../../core/settings/stepMode';
import type { TrainingPhase } from '../../core/settings/trainConfig';
import { inPhase, setStepPhase } from '../memory/stepPhase';
import { registeredVariables, releaseAbandonedTape } from '../tfjsInternals';
import { checkpointedGradients } from './checkpoint';
import { variableGradsBy } from './leanBackward';
import { withDropoutSeeds } from './dropoutSeeds';
import type { Accumulated, MicroLosses, MicroPass, MicroStep } from './microStep';
import { applyPhase, type TrainableSummary, type Unfreeze } from './freeze';
import { DynamicLossScale, type LossScaleState } from './lossScale';
import { sparseAccuracy, sparseCategoricalCrossentropy } from './losses';
import { distinctBytes, largerSaved, NOTHING_SAVED, savedActivations } from './measure';
import { restoreOptimizer, saveOptimizer } from './resume';
import { blockSegments, type Segment } from './segments';
import { addInto, images, isTensor, mapValues, sliceRows } from './tensors';
import { DEFAULT_TRAINER_OPTIONS, type StepBatch, type StepMetrics, type TrainerOptions } from './types';
import { append, maxOf } from '../../core/extent';

/** The classifier cut where the head starts: both halves share the classifier's layers and weights. */
interface SplitModel {
  backbone: tf.LayersModel;
  head: tf.LayersModel;
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

  /**
   * What a resumed run needs besides the model's weights: Adam's iteration count and slots, and how many
   * forward passes drew dropout masks (so the resumed steps draw the masks the run would have drawn).
   */
  async snapshotState(): Promise<Omit<TrainerSnapshot, 'weights'>> {
    if (!this.optimizer) throw new Error('Trainer.snapshotState() called before compile()');
    return { optimizer: await saveOptimizer(this.optimizer), draws: this.draws };
  }

  /** Puts snapshotState()'s state back, right after compile() for the phase it was taken in. */
  async restoreState(state: Omit<TrainerSnapshot, 'weights'>): Promise<void> {
    if (!this.optimizer) throw new Error('Trainer.restoreState() called before compile()');
    await restoreOptimizer(this.optimizer, state.optimizer);
    this.draws = state.draws;
  }

  /** Whether the next step runs the backbone outside the tape. */
  get backboneOutsideTape(): boolean {
    return this.mode === 'outside-tape';
  }

  /** How the next step runs its forward and backward: the one rule the planner plans by (stepModeOf). */
  get mode(): StepMode {
    return stepModeOf(this.phase, {
      backboneOutsideTape: this.options.frozenBackboneOutsideTape,
      checkpointing: this.options.checkpointing,
      float16Storage: this.options.activationStorage === 'float16',
    }).mode;
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

  /** The head's class probabilities for backbone features, in inference mode. */
  headInference(features: tf.Tensor): tf.Tensor2D {
    return this.splitModel().head.apply(features, { training: false }) as tf.Tensor2D;
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
      return await this.stepMetrics(batch, run, sum, lossScale);
    } catch (err) {
      releaseAbandonedTape();
      throw err;
    } finally {
      tf.dispose(owned);
      tf.dispose(Object.values(sum));
      setStepPhase('other');
    }
  }

  /** What step() reports: loss and accuracy summed over the micro-batches, bytes by category, technique. */
  private async stepMetrics(
    batch: StepBatch,
    run: Accumulated,
    sum: tf.NamedTensorMap,
    lossScale: LossScaleState | null,
  ): Promise<StepMetrics> {
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
        microBatchSize: maxOf(run.sizes),
        accumulatorBytes: run.sizes.length > 1 ? gradients : 0,
        checkpoint: run.checkpoint,
        featureCache: batch.features ? (batch.xs ? 'filling' : 'reading') : null,
      },
      lossScale,
    };
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
      append(owned, slices);
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
    const kept: MicroLosses = {};
    const lossOf = this.microLoss(micro, share, owned, kept);
    return withDropoutSeeds(this.model, `${this.seed}:${this.draws++}`, (): MicroStep => {
      const pass =
        mode === 'checkpointed'
          ? this.checkpointedPass(micro, weightIds, lossOf)
          : this.tapedPass(micro, weightIds, lossOf, owned);
      return { loss: kept.loss!, accuracy: kept.accuracy!, ...pass };
    });
  }

  /**
   * The loss function of one micro-batch: from the model's probabilities, its cross-entropy weighted by
   * `share` (recorded in `kept` and `owned`, as is the weighted accuracy), times the loss scale when on.
   */
  private microLoss(
    micro: StepBatch,
    share: number,
    owned: tf.Tensor[],
    kept: MicroLosses,
  ): (probs: tf.Tensor) => tf.Scalar {
    const lossScale = this.lossScale;
    return (probs) => {
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
  }

  /** Checkpointed forward and backward: block segments, each recomputed under the tape in backward. */
  private checkpointedPass(
    micro: StepBatch,
    weightIds: ReadonlySet<object>,
    lossOf: (probs: tf.Tensor) => tf.Scalar,
  ): MicroPass {
    let saved = NOTHING_SAVED;
    const segments = this.checkpointSegments();
    const r = checkpointedGradients(
      segments,
      images(micro),
      lossOf,
      (held) => {
        saved = largerSaved(saved, savedActivations(weightIds, held));
      },
      this.options.activationStorage,
      this.options.backward,
    );
    return {
      grads: r.grads,
      saved,
      checkpoint: { segments: segments.length, recomputed: r.recomputed, boundaryBytes: r.boundaryBytes },
    };
  }

  /**
   * Forward and backward under one tape: the whole model, or only the head on backbone features (handed
   * in from the cache, or computed here outside the tape when the backbone is frozen).
   */
  private tapedPass(
    micro: StepBatch,
    weightIds: ReadonlySet<object>,
    lossOf: (probs: tf.Tensor) => tf.Scalar,
    owned: tf.Tensor[],
  ): MicroPass {
    let saved = NOTHING_SAVED;
    // Features handed in (from the cache) stay the caller's; features computed here are freed here.
    const computed =
      this.mode === 'outside-tape' && !micro.features ? this.backboneFeatures(images(micro)) : null;
    if (computed) owned.push(computed);
    const features = micro.features ?? computed;
    setStepPhase('forward');
    const { value, grads } = variableGradsBy(
      this.options.backward,
      () => {
        const loss = lossOf(
          features
            ? (this.splitModel().head.apply(features, { training: true }) as tf.Tensor2D)
            : (this.model.apply(images(micro), { training: true }) as tf.Tensor2D),
        );
        saved = savedActivations(weightIds);
        setStepPhase('backward');
        return loss;
      },
      this.variables,
      (features ? this.splitModel().head : this.model).layers,
    );
    computed?.dispose();
    owned.push(value);
    return { grads, saved, checkpoint: null };
  }

  /** Bytes of the optimizer's slots: every registered variable that is not one of the model's. */
  private optimizerBytes(): number {
    const own = new Set(this.model.weights.map((w) => w.read().id));
    const all = Object.values(registeredVariables());
    return distinctBytes(all.filter((v) => !own.has(v.id)));
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
