import { formatBytes } from '../../core/format';
import type * as tf from '@tensorflow/tfjs';
import { EarlyStopping } from '../../core/run/earlyStopping';
import type { StepProfile } from '../../core/memory/memory';
import type { EngineEvent, TrainResult } from '../../core/run/protocol';
import { pointAfter, type ResumePoint } from '../../core/run/resume';
import type { TrainingPhase } from '../../core/settings/trainConfig';
import type { Batch } from '../data/pipeline';
import { evaluate, evaluateCached, type Evaluation } from './evaluation';
import { FEATURE_CACHE_LIMIT_BYTES, FeatureCache } from './featureCache';
import type { Unfreeze } from './freeze';
import { onHeadInputs } from './headInputs';
import { forEachBatch, forEachCached } from './iteration';
import type { Trainer } from './trainer';
import type { Metrics, StepBatch, StepMetrics } from './types';
import { validationReport, type Predictions } from './validationReport';

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
  /**
   * The head's input for a batch of images when the backbone is a graph model outside the lab's model
   * (its features, see graphFeatures): computed before every training, validation and diagnostics step.
   */
  headInput?: (xs: tf.Tensor4D) => tf.Tensor;
  /** The validation split's paths in order; when set, every phase not stopped ends with classifier diagnostics. */
  validationPaths?: readonly string[];
  /**
   * Called after every completed epoch that leaves one to run, with where the run would continue; the
   * trainer's state is then that point's (the engine saves it so a reload can resume there).
   */
  checkpoint?: (point: ResumePoint) => Promise<void>;
}

/** A saved run to continue: its point, and how to put the trainer's state back once its phase is compiled. */
export interface ResumeFrom {
  point: ResumePoint;
  /**
   * Restores the trainer's state once the resumed phase is compiled: the dropout draws, and the
   * optimizer of a phase resumed mid-way (a point at a phase's start saves no optimizer: it starts afresh).
   */
  restore: (trainer: Trainer) => Promise<void>;
}

/** Where a phase starts: its first epoch, the val_loss history EarlyStopping replays, and any restore. */
interface PhaseStart {
  index: number;
  epoch: number;
  valLosses: number[];
  restore?: ResumeFrom['restore'];
}

/** The feature caches of one frozen phase, with the settings they were made with. */
interface PhaseCaches {
  train: FeatureCache;
  validation: FeatureCache;
  seed: number;
  limitBytes: number;
}

/**
 * What the phases have done so far; `epochIndex` counts epochs across phases (it seeds the data);
 * `predictions` are the current phase's last validation pass's, which its diagnostics report.
 */
interface RunState {
  phases: TrainingPhase[];
  last: Metrics;
  epochIndex: number;
  predictions: Predictions | null;
}

/** Where in the run a step is. */
interface StepPlace {
  phase: TrainingPhase;
  epoch: number;
}

/** Training loss and accuracy summed over an epoch's images, weighted by batch size. */
interface EpochSums {
  loss: number;
  accuracy: number;
  seen: number;
}

/**
 * Frozen phase then fine-tuning, with EarlyStopping per phase (as the seed's two fit() calls); from a
 * saved point when resuming, so no epoch is repeated or lost.
 */
export async function runTraining(
  trainer: Trainer,
  plan: readonly PhasePlan[],
  ctx: RunContext,
  resume?: ResumeFrom,
): Promise<TrainResult> {
  const point = resume?.point;
  const run: RunState = point
    ? { phases: [...point.phasesDone], last: point.last, epochIndex: point.epochIndex, predictions: null }
    : { phases: [], last: { loss: Number.NaN, accuracy: Number.NaN }, epochIndex: 0, predictions: null };
  const first = point ? plan.findIndex((p) => p.phase === point.phase) : 0;
  if (first < 0) throw new Error(`The saved run continues a ${point?.phase} phase this plan does not have.`);
  let outcome: TrainResult['outcome'] = 'completed';
  // Steps train and validate on the head's inputs; diagnostics still reads the images (thumbnails).
  const steps = ctx.headInput ? onHeadInputs(ctx, ctx.headInput) : ctx;
  for (const [index, p] of plan.entries()) {
    if (index < first || p.epochs <= 0) continue;
    const resumed = point && index === first;
    const start: PhaseStart = resumed
      ? { index, epoch: point.epoch, valLosses: [...point.valLosses], restore: resume.restore }
      : { index, epoch: 0, valLosses: [] };
    outcome = await runPhase(trainer, plan, start, steps, run);
    if (outcome === 'stopped') break;
    if (ctx.validationPaths && run.predictions) {
      // The images, not the head's inputs: the report's thumbnails are pictures.
      const epochIndex = run.epochIndex;
      const images = () => ctx.dataset('validation', epochIndex);
      const options = {
        phase: p.phase,
        paths: ctx.validationPaths,
        shouldStop: ctx.shouldStop,
        abort: ctx.abort,
      };
      ctx.emit({ kind: 'diagnostics', report: await validationReport(run.predictions, images, options) });
    }
  }
  return {
    outcome,
    phases: run.phases,
    valLoss: run.last.loss,
    valAccuracy: run.last.accuracy,
    lastPhase: run.phases[run.phases.length - 1] ?? null,
  };
}

/**
 * One phase: recompile for it (and restore its optimizer when resumed mid-way), then its epochs until
 * they end, EarlyStopping ends them, or Stop; a checkpoint after each completed epoch.
 */
async function runPhase(
  trainer: Trainer,
  plan: readonly PhasePlan[],
  start: PhaseStart,
  ctx: RunContext,
  run: RunState,
): Promise<TrainResult['outcome']> {
  const p = plan[start.index]!;
  const summary = trainer.compile(p.phase, p.learningRate, p.unfreeze);
  await start.restore?.(trainer);
  run.phases.push(p.phase);
  ctx.emit({
    kind: 'phase',
    phase: p.phase,
    t: ctx.now(),
    ...summary,
    batchesPerEpoch: ctx.batchesPerEpoch,
    epochs: p.epochs,
  });
  const early = new EarlyStopping(ctx.patience);
  // A resumed phase's EarlyStopping sees the val_loss of its earlier epochs again, as it had.
  for (const loss of start.valLosses) if (Number.isFinite(loss)) early.update(loss);
  const valLosses = [...start.valLosses];
  const caches = phaseCaches(trainer, ctx);
  run.predictions = null;
  // An epoch that EarlyStopping ends does not advance epochIndex: the next phase starts on its seed.
  for (let epoch = start.epoch; epoch < p.epochs; epoch++, run.epochIndex++) {
    const val = await runEpoch(trainer, { phase: p.phase, epoch }, run.epochIndex, ctx, caches);
    if (!val) return 'stopped';
    run.last = { loss: val.loss, accuracy: val.accuracy };
    run.predictions = val.predictions;
    valLosses.push(val.loss);
    const earlyStopped = Number.isFinite(val.loss) && early.update(val.loss);
    const next = pointAfter(plan, {
      phaseIndex: start.index,
      epoch,
      earlyStopped,
      nextEpochIndex: earlyStopped ? run.epochIndex : run.epochIndex + 1,
      phases: run.phases,
      valLosses,
      last: run.last,
    });
    if (next) await ctx.checkpoint?.(next);
    if (earlyStopped) {
      ctx.emit({
        kind: 'log',
        level: 'info',
        message: `EarlyStopping: val_loss did not improve for ${ctx.patience} epochs; ${p.phase} phase ends after epoch ${epoch + 1}.`,
      });
      return 'early-stopped';
    }
  }
  return 'completed';
}

/** Feature caches for a phase whose backbone runs outside the tape, when the run asks for them. */
function phaseCaches(trainer: Trainer, ctx: RunContext): PhaseCaches | null {
  if (!ctx.featureCache || !trainer.backboneOutsideTape) return null;
  const limitBytes = ctx.featureCache.limitBytes ?? FEATURE_CACHE_LIMIT_BYTES;
  return {
    train: new FeatureCache(limitBytes),
    validation: new FeatureCache(limitBytes),
    seed: ctx.featureCache.seed,
    limitBytes,
  };
}

/** Trains one epoch, then validates; the validation pass, or null when stopped. */
async function runEpoch(
  trainer: Trainer,
  place: StepPlace,
  epochIndex: number,
  ctx: RunContext,
  caches: PhaseCaches | null,
): Promise<Evaluation | null> {
  const sums = await trainEpoch(trainer, place, epochIndex, ctx, caches);
  if (!sums) return null;
  const filling = caches !== null && !caches.train.ready;
  caches?.train.complete();
  const val = caches?.validation.ready
    ? await evaluateCached(trainer, caches.validation, ctx.shouldStop)
    : await evaluate(
        trainer,
        ctx.dataset('validation', epochIndex),
        ctx.shouldStop,
        ctx.abort,
        caches?.validation.active ? caches.validation : undefined,
      );
  if (ctx.shouldStop()) return null;
  caches?.validation.complete();
  if (caches && filling) ctx.emit(cacheReport(caches));
  ctx.emit({
    kind: 'epoch',
    ...place,
    loss: sums.loss / sums.seen,
    accuracy: sums.accuracy / sums.seen,
    valLoss: val.loss,
    valAccuracy: val.accuracy,
    t: ctx.now(),
  });
  return val;
}

/** The training batches of one epoch, from the feature cache once it is complete; null when stopped. */
async function trainEpoch(
  trainer: Trainer,
  place: StepPlace,
  epochIndex: number,
  ctx: RunContext,
  caches: PhaseCaches | null,
): Promise<EpochSums | null> {
  const sums: EpochSums = { loss: 0, accuracy: 0, seen: 0 };
  const step = (batch: StepBatch, i: number) => trainStep(trainer, batch, i, place, ctx, caches, sums);
  const stopped = caches?.train.ready
    ? await forEachCached(caches.train, caches.seed + epochIndex, ctx.shouldStop, step)
    : await forEachBatch(ctx.dataset('train', epochIndex), ctx.shouldStop, step, ctx.abort);
  return stopped ? null : sums;
}

/** One guarded training step, added into the epoch's sums and reported as a batch event. */
async function trainStep(
  trainer: Trainer,
  batch: StepBatch,
  index: number,
  place: StepPlace,
  ctx: RunContext,
  caches: PhaseCaches | null,
  sums: EpochSums,
): Promise<void> {
  const start = performance.now();
  const m = await ctx.guardStep(() =>
    batch.xs && caches?.train.active
      ? fillStep(trainer, { xs: batch.xs, ys: batch.ys }, caches.train)
      : trainer.step(batch),
  );
  const peakBytes = ctx.stepPeakBytes?.();
  const profile = ctx.stepProfile?.() ?? null;
  const n = batch.ys.shape[0];
  sums.loss += m.loss * n;
  sums.accuracy += m.accuracy * n;
  sums.seen += n;
  ctx.emit({
    kind: 'batch',
    ...place,
    batch: index,
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

/** The log line that says what the feature cache holds, or why it was not used. */
function cacheReport({ train, validation, limitBytes }: PhaseCaches): EngineEvent {
  if (!train.ready || !validation.ready) {
    const which = [!train.ready && 'training', !validation.ready && 'validation']
      .filter(Boolean)
      .join(' and ');
    return {
      kind: 'log',
      level: 'info',
      message: `Feature cache: the ${which} features would not fit in its host memory limit (${formatBytes(limitBytes)}); those batches run the backbone every epoch.`,
    };
  }
  const shape = train.featureShape?.join('×') ?? '?';
  return {
    kind: 'log',
    level: 'info',
    message: `Feature cache: stored the frozen backbone's ${shape} features of ${train.count} training and ${validation.count} validation images (${formatBytes(train.bytes + validation.bytes)} of host memory). Later frozen epochs train the head on them: no decoding, no backbone.`,
  };
}
