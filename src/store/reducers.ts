// Pure reducers for everything but runs and sweeps (see runReducers.ts): (state, payload) => state.
// The engine client and the views change state only through the actions made from these (actions.ts).
import { computeKind } from '../core/device/adapterKind';
import type { BackendInfo, BackendRequest } from '../core/device/backend';
import { adoptMachineDefaults } from '../core/settings/settings';
import type { ModelSpec } from '../core/model/modelSpec';
import type {
  ImageSource,
  PreviewImage,
  ProvokeResult,
  ReleaseResult,
  WeightsLoaded,
  WeightsReport,
} from '../core/run/protocol';
import type { ScanResult } from '../core/data/scan';
import type { SweepGrid } from '../core/sweep/sweep';
import type { TrainConfig } from '../core/settings/trainConfig';
import type { Guess } from '../core/run/guess';
import { graphChoice } from '../core/sweep/graphChoice';
import type { LabMode, LinkReading } from '../core/settings/url';
import type { View } from '../core/settings/views';
import type { LabState, LogEntry, Progress } from './types';

/** Log lines kept. */
export const MAX_LOG = 200;

export function logged(s: LabState, level: LogEntry['level'], message: string, at: number): LabState {
  return { ...s, log: [...s.log.slice(-(MAX_LOG - 1)), { level, message, at }] };
}

/** A command the lab would not carry out, and why: shown to the user and logged. */
export function refused(s: LabState, message: string, at: number): LabState {
  return logged({ ...s, notice: { message, at } }, 'warn', message, at);
}

export function noticeCleared(s: LabState): LabState {
  return s.notice ? { ...s, notice: null } : s;
}

export function configChanged(s: LabState, patch: Partial<TrainConfig>): LabState {
  return { ...s, config: { ...s.config, ...patch } };
}

/** Another view is shown (the tabs, back or forward, a fix or an OOM that brings its panel). */
export function viewShown(s: LabState, view: View): LabState {
  return s.nav.view === view ? s : { ...s, nav: { view } };
}

/** Explore or predict-then-run; a new mode asks for a new guess. */
export function workshopModeChanged(s: LabState, mode: LabMode): LabState {
  return { ...s, workshop: { ...s.workshop, mode, guess: null } };
}

/** The participant committed a guess (or took it back with null). */
export function guessCommitted(s: LabState, guess: Guess | null): LabState {
  return { ...s, workshop: { ...s.workshop, guess } };
}

/** The page was opened with a link: its settings apply over the saved ones. */
export function linkOpened(s: LabState, { settings, applied, ignored }: LinkReading): LabState {
  return {
    ...s,
    config: settings.config,
    backendRequest: settings.backend,
    workshop: {
      ...s.workshop,
      mode: settings.mode,
      view: settings.view,
      link: { applied, ignored, sample: settings.sample },
    },
  };
}

export function sweepGridChanged(s: LabState, grid: SweepGrid): LabState {
  return { ...s, sweep: { ...s.sweep, grid } };
}

export function backendRequested(s: LabState, backendRequest: BackendRequest): LabState {
  return { ...s, backendRequest };
}

export function engineStarting(s: LabState): LabState {
  return { ...s, engine: { ...s.engine, status: 'starting', backend: null, error: null } };
}

export function engineReady(s: LabState, backend: BackendInfo): LabState {
  // Untouched defaults become this machine's (core/settings/settings adoptMachineDefaults); a link's settings stay.
  const config = s.workshop.link ? s.config : adoptMachineDefaults(s.config, computeKind(backend));
  return { ...s, config, engine: { ...s.engine, status: 'ready', backend, error: null } };
}

export function engineFailed(s: LabState, message: string): LabState {
  return { ...s, engine: { ...s.engine, status: 'failed', backend: null, error: message } };
}

/** The GPU device or WebGL context went away: a run in progress fails; the engine is re-created. */
export function deviceLost(
  s: LabState,
  loss: { reason: string; message: string; what: string; at: number },
): LabState {
  const training = s.run.status === 'running' || s.run.status === 'stopping';
  return {
    ...s,
    engine: { ...s.engine, lastLoss: { reason: loss.reason, message: loss.message, at: loss.at } },
    run: training
      ? { ...s.run, status: 'failed', error: `${loss.what} during training. Press Train to start again.` }
      : s.run,
  };
}

export function datasetScanning(s: LabState, name: string): LabState {
  return {
    ...s,
    dataset: { status: 'scanning', name, scan: null, sources: [], progress: null, error: null },
    preview: { status: 'idle', images: [], error: null },
  };
}

/** The data set's files are sorted into classes; its decode check is still running (no training yet). */
export function datasetListed(
  s: LabState,
  listed: { name: string; scan: ScanResult; sources: ImageSource[] },
): LabState {
  return { ...s, dataset: { ...s.dataset, status: 'scanning', ...listed } };
}

/** The user cancelled the load in progress: no data set. */
export function datasetCancelled(s: LabState): LabState {
  return {
    ...s,
    dataset: { status: 'empty', name: '', scan: null, sources: [], progress: null, error: null },
  };
}

/** Decode-check progress of the data set being loaded (its name is known once the files are listed). */
export function datasetProgress(s: LabState, name: string, progress: Progress): LabState {
  return { ...s, dataset: { ...s.dataset, name, progress } };
}

export function datasetReady(
  s: LabState,
  ready: { name: string; scan: ScanResult; sources: ImageSource[] },
): LabState {
  return { ...s, dataset: { status: 'ready', ...ready, progress: null, error: null } };
}

export function datasetFailed(s: LabState, message: string): LabState {
  return { ...s, dataset: { ...s.dataset, status: 'error', progress: null, error: message } };
}

export function previewLoading(s: LabState): LabState {
  return { ...s, preview: { ...s.preview, status: 'loading', error: null } };
}

export function previewReady(s: LabState, images: PreviewImage[]): LabState {
  return { ...s, preview: { status: 'ready', images, error: null } };
}

export function previewFailed(s: LabState, message: string): LabState {
  return { ...s, preview: { status: 'error', images: [], error: message } };
}

export function plannerLoading(s: LabState): LabState {
  return { ...s, planner: { ...s.planner, status: 'loading', error: null } };
}

export function plannerReady(s: LabState, spec: ModelSpec, key: string): LabState {
  return { ...s, planner: { ...s.planner, status: 'ready', spec, key, error: null } };
}

export function plannerFailed(s: LabState, key: string, message: string): LabState {
  return { ...s, planner: { ...s.planner, status: 'error', spec: null, key, error: message } };
}

/** One more description of the model at another size; those of another model or class count are dropped. */
export function plannerAlternate(s: LabState, key: string, spec: ModelSpec): LabState {
  const kept = s.planner.alternates.key === key ? s.planner.alternates.specs : [];
  const others = kept.filter((k) => k.height !== spec.height || k.width !== spec.width);
  return { ...s, planner: { ...s.planner, alternates: { key, specs: [...others, spec] } } };
}

export function weightsLoading(s: LabState): LabState {
  return { ...s, weights: { ...s.weights, status: 'loading', error: null } };
}

/**
 * Weights read this session; a file's weights become the run's starting weights. A GraphModel becomes
 * the frozen backbone: its input size, and no fine-tune phase (it has nothing to unfreeze).
 */
export function weightsLoaded(s: LabState, loaded: WeightsLoaded): LabState {
  const next = { ...s, weights: { ...s.weights, status: 'ready' as const, loaded, key: '' } };
  if (loaded.kind !== 'graph-model') return configChanged(next, { weights: 'file' });
  return loaded.inputSize ? configChanged(next, graphChoice(s.config, loaded.inputSize)) : next;
}

export function weightsFailed(s: LabState, message: string): LabState {
  return { ...s, weights: { ...s.weights, status: 'error', error: message } };
}

export function weightsReported(
  s: LabState,
  key: string,
  report: WeightsReport | null,
  error: string | null = null,
): LabState {
  return { ...s, weights: { ...s.weights, report, key, reportError: error } };
}

export function provokeStarted(s: LabState): LabState {
  return { ...s, provoke: { status: 'running', result: null, error: null } };
}

export function provokeDone(s: LabState, result: ProvokeResult): LabState {
  return { ...s, provoke: { status: 'done', result, error: null } };
}

export function provokeFailed(s: LabState, message: string): LabState {
  return { ...s, provoke: { status: 'error', result: null, error: message } };
}

export function releaseStarted(s: LabState): LabState {
  return { ...s, memory: { ...s.memory, release: { status: 'running', result: null, error: null } } };
}

/** Everything was released and the backend re-created (clear_session). */
export function releaseDone(s: LabState, result: ReleaseResult): LabState {
  return {
    ...s,
    memory: { ...s.memory, release: { status: 'done', result, error: null } },
    engine: { ...s.engine, backend: result.backend },
  };
}

export function releaseFailed(s: LabState, message: string): LabState {
  return { ...s, memory: { ...s.memory, release: { status: 'error', result: null, error: message } } };
}
