import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import { DEFAULT_SWEEP_GRID } from '../core/sweep/sweep';
import { LANDING_VIEW } from '../core/settings/views';
import type { LabState, RunSlice } from './types';

export const INITIAL_RUN: RunSlice['run'] = {
  status: 'idle',
  config: null,
  phases: [],
  batches: [],
  epochs: [],
  plan: null,
  appliedFix: null,
  result: null,
  oom: null,
  error: null,
  backend: null,
  previous: null,
  diagnostics: [],
};

export const INITIAL_MEMORY: LabState['memory'] = {
  samples: [],
  markers: [],
  release: { status: 'idle', result: null, error: null },
};

/** The state of a lab that has just opened: default settings, no data, the engine starting. */
export function initialState(): LabState {
  return {
    config: DEFAULT_TRAIN_CONFIG,
    backendRequest: 'auto',
    dataset: { status: 'empty', name: '', scan: null, sources: [], progress: null, error: null },
    engine: { status: 'starting', backend: null, error: null, lastLoss: null },
    run: INITIAL_RUN,
    memory: INITIAL_MEMORY,
    preview: { status: 'idle', images: [], error: null },
    planner: { status: 'idle', spec: null, key: '', error: null, alternates: { key: '', specs: [] } },
    weights: { status: 'idle', loaded: null, report: null, key: '', error: null, reportError: null },
    sweep: {
      grid: DEFAULT_SWEEP_GRID,
      points: [],
      status: 'idle',
      error: null,
      progress: null,
      largest: { status: 'idle', batch: null, tried: [], predicted: null },
      config: null,
    },
    provoke: { status: 'idle', result: null, error: null },
    log: [],
    notice: null,
    nav: { view: LANDING_VIEW },
    workshop: { mode: 'explore', guess: null, view: null, link: null },
    savedRun: { status: 'none', summary: null },
    history: { status: 'loading', entries: [], error: null },
    experiments: { given: {}, active: null, errors: {}, started: null },
    labZip: { loaded: null, error: null, dropped: null },
  };
}
