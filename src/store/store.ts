import { createStore } from 'zustand/vanilla';
import { persist, createJSONStorage } from 'zustand/middleware';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings';
import type { SweepGrid } from '../core/sweep';
import type { TrainableSet, TrainConfig } from '../core/trainConfig';
import { initialState } from './initial';
import { configChanged, sweepGridChanged } from './reducers';
import type { LabState } from './types';

/**
 * The one store. Slices are plain data, changed only by the named actions (actions.ts) made from pure
 * reducers; derived values come from selectors.ts. Only the settings survive a reload: files dropped in
 * a previous visit cannot be re-read without the user dropping them again.
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

/** Changes some training settings (persisted). */
export function updateConfig(patch: Partial<LabState['config']>): void {
  labStore.setState((s) => configChanged(s, patch), true);
}

/** Changes the sweep's grid (not persisted: a grid is an experiment, not a setting). */
export function updateSweepGrid(grid: SweepGrid): void {
  labStore.setState((s) => sweepGridChanged(s, grid), true);
}
