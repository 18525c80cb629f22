import { createStore } from 'zustand/vanilla';
import { persist, createJSONStorage } from 'zustand/middleware';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings';
import { DEFAULT_SWEEP_GRID, type SweepGrid } from '../core/sweep';
import type { TrainableSet, TrainConfig } from '../core/trainConfig';
import type { LabState, RunSlice } from './types';

export const INITIAL_RUN: RunSlice['run'] = {
  status: 'idle',
  config: null,
  phases: [],
  batches: [],
  epochs: [],
  progress: { done: 0, total: 0 },
  result: null,
  oom: null,
  error: null,
  backend: null,
  previous: null,
};

function initialState(): LabState {
  return {
    config: DEFAULT_TRAIN_CONFIG,
    backendRequest: 'auto',
    dataset: { status: 'empty', name: '', scan: null, sources: [], progress: null, error: null },
    engine: { status: 'starting', backend: null, error: null, lastLoss: null },
    run: INITIAL_RUN,
    memory: { samples: [], markers: [], release: { status: 'idle', result: null, error: null } },
    preview: { status: 'idle', images: [], error: null },
    planner: { status: 'idle', spec: null, key: '', error: null },
    weights: { status: 'idle', loaded: null, report: null, key: '', error: null },
    sweep: {
      grid: DEFAULT_SWEEP_GRID,
      points: [],
      status: 'idle',
      error: null,
      progress: null,
      largest: { status: 'idle', batch: null, tried: [] },
      config: null,
    },
    provoke: { status: 'idle', result: null, error: null },
    log: [],
  };
}

/**
 * The one store. Slices are plain data; the commands that change them live with the engine client
 * (src/workers/client.ts), which calls setState directly. Only the settings survive a reload: files
 * dropped in a previous visit cannot be re-read without the user dropping them again.
 */
export const labStore = createStore<LabState>()(
  persist(() => initialState(), {
    name: 'vram-lab-settings',
    version: 2,
    storage: createJSONStorage(() => localStorage),
    partialize: (s) => ({ config: s.config, backendRequest: s.backendRequest }),
    merge: (persisted, current) => {
      const p = (persisted ?? {}) as Partial<LabState>;
      // Settings saved before weights could be chosen trained from random initialisation.
      const weights = p.config && !('weights' in p.config) ? { weights: 'random' as const } : {};
      // Techniques added since the settings were saved take their defaults.
      const techniques = { ...current.config.techniques, ...p.config?.techniques };
      const fineTune = p.config ? { fineTune: migrateFineTune(p.config) } : {};
      return {
        ...current,
        ...p,
        config: { ...current.config, ...p.config, ...weights, techniques, ...fineTune },
      };
    },
  }),
);

/**
 * Settings saved before version 2 kept the trainable set twice (a "last N" count and the explorer's
 * names); the names won when present. Now one rule holds it.
 */
function migrateFineTune(saved: Partial<TrainConfig> & LegacyTrainable): TrainableSet {
  if (saved.fineTune) return saved.fineTune;
  if (Array.isArray(saved.fineTuneLayers)) return { kind: 'layers', names: saved.fineTuneLayers };
  if (typeof saved.unfreezeLastN === 'number') return { kind: 'last', n: saved.unfreezeLastN };
  return DEFAULT_TRAIN_CONFIG.fineTune;
}

interface LegacyTrainable {
  unfreezeLastN?: number;
  fineTuneLayers?: string[] | null;
}

/** Appends a log line (kept to the last 200). */
export function appendLog(level: 'info' | 'warn' | 'error', message: string): void {
  labStore.setState((s) => ({ log: [...s.log.slice(-199), { level, message, at: Date.now() }] }));
}

/** Changes some training settings (persisted). */
export function updateConfig(patch: Partial<LabState['config']>): void {
  labStore.setState((s) => ({ config: { ...s.config, ...patch } }));
}

/** Changes the sweep's grid (not persisted: a grid is an experiment, not a setting). */
export function updateSweepGrid(grid: SweepGrid): void {
  labStore.setState((s) => ({ sweep: { ...s.sweep, grid } }));
}
