// Pure reducers for training runs, sweeps and the engine's events: (state, payload) => state.
import { stepPeaks } from '../core/memory/phasePeaks';
import type { EngineEvent, LargestBatchResult, TrainResult } from '../core/run/protocol';
import type { TrainConfig } from '../core/settings/trainConfig';
import { INITIAL_MEMORY, INITIAL_RUN } from './initial';
import { logged } from './reducers';
import type { AppliedFix, BatchPoint, LabState, PreviousRun, RunPlan } from './types';
import { count } from '../core/format';

/** Longest memory timeline kept (points); older points are dropped first. */
export const MAX_SAMPLES = 50_000;

/** A run that could not start: its problems, in words. */
export function runRefused(s: LabState, problems: string[]): LabState {
  return {
    ...s,
    run: { ...INITIAL_RUN, previous: s.run.previous, status: 'failed', error: problems.join(' ') },
  };
}

/** What the memory view compares the next run against: this run if it measured steps, else the one before. */
function previousOf(run: LabState['run']): PreviousRun | null {
  return run.config && run.batches.length > 0
    ? { config: run.config, backend: run.backend, peaks: stepPeaks(run.batches) }
    : run.previous;
}

export function runStarted(
  s: LabState,
  start: { config: TrainConfig; plan: RunPlan; appliedFix: AppliedFix | null },
): LabState {
  return {
    ...s,
    run: {
      ...INITIAL_RUN,
      previous: previousOf(s.run),
      status: 'running',
      config: start.config,
      plan: start.plan,
      appliedFix: start.appliedFix,
      backend: s.engine.backend?.name ?? null,
    },
    memory: INITIAL_MEMORY,
  };
}

export function runStopping(s: LabState): LabState {
  return s.run.status === 'running' ? { ...s, run: { ...s.run, status: 'stopping' } } : s;
}

/** The run ended as the engine reports it; the model keeps its last good weights. */
export function runEnded(s: LabState, result: TrainResult): LabState {
  const status = result.outcome === 'stopped' || result.outcome === 'oom' ? result.outcome : 'completed';
  return { ...s, run: { ...s.run, status, result, oom: result.oom ?? null } };
}

export function runFailed(s: LabState, message: string): LabState {
  return { ...s, run: { ...s.run, status: 'failed', error: message } };
}

/** One engine event applied to the run, the memory view, the sweep or the log. */
export function engineEvent(s: LabState, e: EngineEvent, at: number): LabState {
  switch (e.kind) {
    case 'phase':
      return phaseStarted(s, e, at);
    case 'batch':
      return batchDone(s, e);
    case 'epoch':
      return epochDone(s, e);
    case 'memory':
      return {
        ...s,
        memory: { ...s.memory, samples: [...s.memory.samples, ...e.samples].slice(-MAX_SAMPLES) },
      };
    case 'log':
      return logged(s, e.level, e.message, at);
    case 'backend':
      return { ...s, engine: { ...s.engine, backend: e.info } };
    case 'sweep-point':
      return {
        ...s,
        sweep: {
          ...s.sweep,
          points: [...s.sweep.points, e.point],
          progress: s.sweep.progress ? { ...s.sweep.progress, done: s.sweep.progress.done + 1 } : null,
        },
      };
    case 'device-lost':
      return s;
    case 'diagnostics':
      return { ...s, run: { ...s.run, diagnostics: [...s.run.diagnostics, e.report] } };
    case 'checkpoint':
      // Saved by workers/runSaver before it reaches the store; the store keeps no weights.
      return s;
  }
}

/** An engine event with the time it reached the page. */
export interface TimedEvent {
  event: EngineEvent;
  at: number;
}

/** Several engine events in one update, in order (workers/engineEvents batches the high-rate ones). */
export function engineEvents(s: LabState, events: readonly TimedEvent[]): LabState {
  return events.reduce((acc, { event, at }) => engineEvent(acc, event, at), s);
}

type PhaseEvent = Extract<EngineEvent, { kind: 'phase' }>;

function phaseStarted(s: LabState, e: PhaseEvent, at: number): LabState {
  const next: LabState = {
    ...s,
    run: {
      ...s.run,
      phases: [
        ...s.run.phases,
        {
          phase: e.phase,
          t: e.t,
          trainableParams: e.trainableParams,
          totalParams: e.totalParams,
          trainableLayers: e.trainableLayers,
          epochs: e.epochs,
          batchesPerEpoch: e.batchesPerEpoch,
        },
      ],
    },
    memory: {
      ...s.memory,
      markers: [
        ...s.memory.markers,
        { t: e.t, label: e.phase === 'frozen' ? 'frozen phase' : 'fine-tune phase' },
      ],
    },
  };
  const what = e.phase === 'frozen' ? 'Phase 1, backbone frozen' : 'Phase 2, fine-tuning';
  return logged(
    next,
    'info',
    `${what}: ${count(e.trainableParams)} of ${count(e.totalParams)} parameters trainable in ${e.trainableLayers} layers.`,
    at,
  );
}

type BatchEvent = Extract<EngineEvent, { kind: 'batch' }>;

function batchDone(s: LabState, e: BatchEvent): LabState {
  const point: BatchPoint = {
    step: s.run.batches.length + 1,
    phase: e.phase,
    epoch: e.epoch,
    batch: e.batch,
    loss: e.loss,
    accuracy: e.accuracy,
    stepMs: e.stepMs,
    t: e.t,
    breakdown: e.breakdown,
    technique: e.technique,
    lossScale: e.lossScale,
    ...(e.peakBytes !== undefined ? { peakBytes: e.peakBytes } : {}),
    ...(e.profile ? { profile: e.profile } : {}),
  };
  const markers =
    e.batch === 0
      ? [...s.memory.markers, { t: e.t - e.stepMs, label: `epoch ${e.epoch + 1}` }]
      : s.memory.markers;
  return {
    ...s,
    run: {
      ...s.run,
      batches: [...s.run.batches, point],
    },
    memory: { ...s.memory, markers },
  };
}

type EpochEvent = Extract<EngineEvent, { kind: 'epoch' }>;

function epochDone(s: LabState, e: EpochEvent): LabState {
  // Validation runs after the epoch's last step, so its time is from that step's end to the epoch event.
  const lastStepAt = s.run.batches[s.run.batches.length - 1]?.t ?? e.t;
  return {
    ...s,
    run: {
      ...s.run,
      epochs: [
        ...s.run.epochs,
        {
          epoch: s.run.epochs.length + 1,
          phase: e.phase,
          step: s.run.batches.length,
          loss: e.loss,
          accuracy: e.accuracy,
          valLoss: e.valLoss,
          valAccuracy: e.valAccuracy,
          validationMs: Math.max(0, e.t - lastStepAt),
        },
      ],
    },
  };
}

export function sweepStarted(s: LabState, config: TrainConfig, total: number): LabState {
  return {
    ...s,
    sweep: { ...s.sweep, points: [], status: 'running', error: null, progress: { done: 0, total }, config },
  };
}

export function sweepDone(s: LabState): LabState {
  return { ...s, sweep: { ...s.sweep, status: 'done', progress: null } };
}

export function sweepFailed(s: LabState, message: string): LabState {
  return {
    ...s,
    sweep: {
      ...s.sweep,
      status: 'error',
      error: message,
      progress: null,
      largest:
        s.sweep.largest.status === 'running' ? { ...s.sweep.largest, status: 'idle' } : s.sweep.largest,
    },
  };
}

export function largestStarted(s: LabState, config: TrainConfig): LabState {
  return {
    ...s,
    sweep: {
      ...s.sweep,
      points: [],
      status: 'running',
      error: null,
      progress: null,
      config,
      largest: { status: 'running', batch: null, tried: [], predicted: null },
    },
  };
}

export function largestDone(s: LabState, result: LargestBatchResult): LabState {
  const tried = result.points.map((p) => ({ batch: p.batch, fits: p.status === 'measured' }));
  return {
    ...s,
    sweep: {
      ...s.sweep,
      status: 'done',
      largest: { status: 'done', batch: result.largest, tried, predicted: result.predicted },
    },
  };
}
