/**
 * Every value derived from the store's state, computed in one place. Views, the engine client and the
 * tests read these instead of re-deriving them, so two copies cannot disagree. Selectors that build an
 * object or a set remember their last inputs, so a view subscribed to one re-renders only when it changes.
 */
import type { ModelSpec } from '../core/model/modelSpec';
import { stepPeaks } from '../core/memory/phasePeaks';
import { guessSettingsKey } from '../core/run/guess';
import { batchesPerEpoch, plannedPhases } from '../core/settings/schedule';
import { validateTrainConfig } from '../core/settings/settings';
import { isTrainable } from '../core/data/scan';
import { stratifiedSplit } from '../core/data/split';
import { resolveTrainable } from '../core/settings/trainable';
import type { TrainableSet, TrainConfig } from '../core/settings/trainConfig';
import type { LabState } from './types';
import { formatDuration } from '../core/format';

/** Classes the planner assumes before a data set is loaded (the built-in sample has three). */
export const DEFAULT_PLANNER_CLASSES = 3;

/** A training run holds the engine (running, or finishing its step after Stop). */
export const selectTraining = (s: LabState): boolean =>
  s.run.status === 'running' || s.run.status === 'stopping';

/** A sweep or a largest-batch search holds the engine. */
const selectSweeping = (s: LabState): boolean => s.sweep.status === 'running';

/**
 * The lab is busy: a run or a sweep holds the engine, so nothing may replace the data, the weights, the
 * backend or the settings a job reads until it ends. The one rule every control and command uses.
 */
export const selectBusy = (s: LabState): boolean => selectTraining(s) || selectSweeping(s);

/** The engine can take a new job now. */
export const selectEngineFree = (s: LabState): boolean => s.engine.status === 'ready' && !selectBusy(s);

/** Classes of the loaded data set, or the planner's assumption before one is loaded. */
export const selectNumClasses = (s: LabState): number =>
  s.dataset.scan?.classes.length ?? DEFAULT_PLANNER_CLASSES;

/** What the planner's model description depends on: model, resolution and classes. */
export const selectPlannerKey = (s: LabState): string =>
  `${s.config.model}|${s.config.height}|${s.config.width}|${selectNumClasses(s)}` +
  // A loaded graph model is described instead of the preset: another graph is another model.
  (s.config.weights === 'graph' ? `|graph:${s.weights.loaded?.label ?? ''}` : '');

/** What descriptions of the model at other sizes depend on: model and classes. */
export const selectModelKey = (s: LabState): string => `${s.config.model}|${selectNumClasses(s)}`;

/** The described model at every size at hand: the current one first, then the alternates for this model. */
export const selectSpecs = memoThree(
  (spec: ModelSpec | null, alternates: LabState['planner']['alternates'], key: string): ModelSpec[] => [
    ...(spec ? [spec] : []),
    ...(alternates.key === key ? alternates.specs : []),
  ],
  (s) => s.planner.spec,
  (s) => s.planner.alternates,
  selectModelKey,
);

/**
 * The loaded data set split into training and validation items (the settings' share and seed), or null
 * without a data set, with a share outside [0, 1) or a seed that is no number (a cleared field: the
 * settings' problems name it). The settings show its counts and the client posts it to the engine: one
 * split, computed once per change of the scan, the share or the seed.
 */
export const selectSplit = memoThree(
  (scan: LabState['dataset']['scan'], fraction: number, seed: number) =>
    scan && fraction >= 0 && fraction < 1 && Number.isFinite(seed)
      ? stratifiedSplit(scan.items, fraction, seed)
      : null,
  (s) => s.dataset.scan,
  (s) => s.config.validationFraction,
  (s) => s.config.seed,
);

/** What the weights' match report depends on. */
export const selectWeightsKey = (s: LabState): string =>
  `${s.config.weights}|${selectPlannerKey(s)}|${s.weights.loaded?.label ?? ''}`;

/**
 * The weights' error to show: a failed load says what went wrong with what the user just gave, so it
 * comes before the report's (which is about the choice); kept apart in the store, the answer does not
 * depend on which of the two arrived last.
 */
export const selectWeightsError = (s: LabState): string | null => s.weights.error ?? s.weights.reportError;

/** Problems with the settings, each naming the setting; empty when a run can start. */
export const selectConfigProblems = memoOne(
  (config: TrainConfig) => validateTrainConfig(config),
  (s) => s.config,
);

/**
 * Predict mode asks for a guess first: until the participant has committed one for the current settings
 * (changing any setting asks again), the planner's numbers stay hidden and Train waits for it.
 */
export const selectGuessNeeded = (s: LabState): boolean =>
  s.workshop.mode === 'predict' && (s.workshop.guess?.settings ?? null) !== guessSettingsKey(s.config);

/** A run can start now: engine free, a trainable data set, valid settings. */
export const selectCanTrain = (s: LabState): boolean =>
  selectEngineFree(s) &&
  s.dataset.status === 'ready' &&
  !!s.dataset.scan &&
  isTrainable(s.dataset.scan) &&
  selectConfigProblems(s).length === 0;

/** The layers fine-tuning trains on the described model (empty before it is described). */
export const selectTrainableSet = memoTwo(
  (spec: ModelSpec | null, rule: TrainableSet): ReadonlySet<string> =>
    spec ? resolveTrainable(spec, 'fine-tune', rule) : new Set<string>(),
  (s) => s.planner.spec,
  (s) => s.config.fineTune,
);

/** The highest measured step peak per phase of the current run. */
export const selectMeasuredPeaks = memoOne(stepPeaks, (s) => s.run.batches);

/** Where a run is, what is left, and how it ended. */
export interface RunProgressView {
  /** Training steps done, both phases. */ done: number;
  /**
   * Steps planned. A phase that EarlyStopping ended counts the steps it ran; a run cut short by Stop, an
   * OOM or a failure keeps its plan, so its bar shows how far it got.
   */
  total: number;
  /** Remaining time including the validation passes still to run, ms; null before a step was timed. */
  etaMs: number | null;
  /** Where the run is (or stopped), in words. */ where: string;
  /** How and why it ended, or null while it runs or before it ran. */ ended: string | null;
}

/** Steps of recent history used for the time left: robust to the slow first steps that compile shaders. */
const RECENT_STEPS = 10;

export const selectRunProgress = memoOne(runProgress, (s) => s.run);

function runProgress(run: LabState['run']): RunProgressView {
  const config = run.config;
  if (!config || !run.plan) return { done: 0, total: 0, etaMs: null, where: '', ended: null };
  const perEpoch = batchesPerEpoch(run.plan.trainCount, config.batchSize);
  const validationBatches = batchesPerEpoch(run.plan.validationCount, config.batchSize);
  const phases = plannedPhases(config, run.plan.resumeFrom);
  const started = new Set(run.phases.map((p) => p.phase));
  const current = run.phases[run.phases.length - 1]?.phase ?? null;
  const active = run.status === 'running' || run.status === 'stopping';
  const completed = run.status === 'completed';
  let total = 0;
  let epochsLeft = 0;
  for (const { phase, epochs } of phases) {
    const ran = run.batches.filter((b) => b.phase === phase).length;
    // Phases end by themselves only when the next one starts or the whole run completes.
    const over = completed || (started.has(phase) && phase !== current);
    total += over ? ran : epochs * perEpoch;
    if (!over) epochsLeft += epochs - run.epochs.filter((e) => e.phase === phase).length;
  }
  const done = run.batches.length;
  const step = median(run.batches.slice(-RECENT_STEPS).map((b) => b.stepMs));
  const timedValidation = run.epochs.map((e) => e.validationMs).filter((ms) => ms > 0);
  // Until a validation pass was timed, assume its batches cost what a training step costs (an upper bound:
  // validation runs forward only).
  const validationMs = timedValidation.length > 0 ? mean(timedValidation) : (step ?? 0) * validationBatches;
  const etaMs = active && step !== null ? Math.max(0, total - done) * step + epochsLeft * validationMs : null;
  return { done, total, etaMs, where: whereText(run, perEpoch), ended: endedText(run, perEpoch) };
}

/** The step the run is at: the last one done, or, after an OOM, the one that failed. */
function whereText(run: LabState['run'], perEpoch: number): string {
  const last = run.batches[run.batches.length - 1];
  const failedPhase = run.status === 'oom' ? (run.result?.lastPhase ?? null) : null;
  if (failedPhase) {
    const sameEpoch = last && last.phase === failedPhase;
    const epoch = sameEpoch ? (last.batch + 1 >= perEpoch ? last.epoch + 1 : last.epoch) : 0;
    const batch = sameEpoch ? (last.batch + 1) % perEpoch : 0;
    return `${failedPhase} phase, epoch ${epoch + 1}, batch ${batch + 1}/${perEpoch}`;
  }
  if (!last) return run.status === 'running' ? 'building the model…' : '';
  return `${last.phase} phase, epoch ${last.epoch + 1}, batch ${last.batch + 1}/${perEpoch}`;
}

function endedText(run: LabState['run'], perEpoch: number): string | null {
  const where = whereText(run, perEpoch);
  const result = run.result;
  switch (run.status) {
    case 'stopped':
      return `Stopped by you after ${where}; the model keeps the weights of its last step.`;
    case 'stopping':
      return null;
    case 'oom':
      return `Ran out of memory at ${where}${result?.oom ? ` (${result.oom.phase} pass, layer ${result.oom.layer ?? 'unknown'})` : ''}; the model keeps its last good weights.`;
    case 'failed':
      // The error itself is shown beside the run (run.error).
      return null;
    case 'completed': {
      if (result?.outcome !== 'early-stopped')
        return `Completed: every planned epoch ran (${formatDuration(runMs(run))}).`;
      const phase = result.lastPhase ?? 'last';
      const epochs = run.epochs.filter((e) => e.phase === phase).length;
      return `Ended by EarlyStopping in the ${phase} phase after ${epochs} ${epochs === 1 ? 'epoch' : 'epochs'}: val_loss did not improve for ${run.config?.patience ?? '?'} epochs.`;
    }
    default:
      return null;
  }
}

function runMs(run: LabState['run']): number {
  return run.batches[run.batches.length - 1]?.t ?? 0;
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** A selector of one input that recomputes only when that input changes (by reference). */
function memoOne<A, R>(compute: (a: A) => R, pick: (s: LabState) => A): (s: LabState) => R {
  let last: { a: A; r: R } | null = null;
  return (s) => {
    const a = pick(s);
    if (!last || last.a !== a) last = { a, r: compute(a) };
    return last.r;
  };
}

/** As memoOne, for three inputs. */
function memoThree<A, B, C, R>(
  compute: (a: A, b: B, c: C) => R,
  pickA: (s: LabState) => A,
  pickB: (s: LabState) => B,
  pickC: (s: LabState) => C,
): (s: LabState) => R {
  let last: { a: A; b: B; c: C; r: R } | null = null;
  return (s) => {
    const [a, b, c] = [pickA(s), pickB(s), pickC(s)];
    if (!last || last.a !== a || last.b !== b || last.c !== c) last = { a, b, c, r: compute(a, b, c) };
    return last.r;
  };
}

/** As memoOne, for two inputs. */
function memoTwo<A, B, R>(
  compute: (a: A, b: B) => R,
  pickA: (s: LabState) => A,
  pickB: (s: LabState) => B,
): (s: LabState) => R {
  let last: { a: A; b: B; r: R } | null = null;
  return (s) => {
    const a = pickA(s);
    const b = pickB(s);
    if (!last || last.a !== a || last.b !== b) last = { a, b, r: compute(a, b) };
    return last.r;
  };
}
