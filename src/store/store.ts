import { createStore } from 'zustand/vanilla';
import { persist, createJSONStorage } from 'zustand/middleware';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import { backendRequestSchema, mergeValid } from '../core/settings/schema';
import type { SweepGrid } from '../core/sweep/sweep';
import type { TrainableSet, TrainConfig } from '../core/settings/trainConfig';
import { readLink } from '../core/settings/url';
import { initialState } from './initial';
import { configChanged, linkOpened, sweepGridChanged } from './reducers';
import type { LabState } from './types';

/**
 * The one store. Slices are plain data, changed only by the named actions (actions.ts) made from pure
 * reducers; derived values come from selectors.ts. Only the settings survive a reload: files dropped in
 * a previous visit cannot be re-read without the user dropping them again. A link's settings
 * (core/settings/url) apply over the saved ones once, before the engine starts, so its backend is used.
 */
export const labStore = createStore<LabState>()(
  persist(() => initialState(), {
    name: 'vram-lab-settings',
    version: 2,
    storage: createJSONStorage(() => localStorage),
    partialize: (s) => ({ config: s.config, backendRequest: s.backendRequest }),
    merge: (persisted, current) => {
      const p = (persisted ?? {}) as {
        config?: Partial<TrainConfig> & LegacyTrainable;
        backendRequest?: unknown;
      };
      // Each saved field goes through the settings schema: one that is no longer valid (or a setting
      // added since, which is missing) takes the current default instead of spoiling the rest.
      const { config } = mergeValid(p.config ? migrated(p.config) : {}, current.config);
      const backend = backendRequestSchema.safeParse(p.backendRequest);
      return { ...current, config, backendRequest: backend.success ? backend.data : current.backendRequest };
    },
  }),
);

/** Saved settings in today's shape: older ones lacked the weights choice and kept the trainable set twice. */
function migrated(saved: Partial<TrainConfig> & LegacyTrainable): Partial<TrainConfig> {
  // Settings saved before weights could be chosen trained from random initialisation.
  const weights = 'weights' in saved ? {} : { weights: 'random' as const };
  // The legacy fields themselves are not in the schema, so mergeValid leaves them out.
  return { ...saved, ...weights, fineTune: migrateFineTune(saved) };
}

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

/** Applies the settings of the link the page was opened with, if any (see core/settings/url). */
function openLink(search: string): void {
  if (search.replace(/^\?/, '') === '') return;
  const s = labStore.getState();
  const base = {
    config: s.config,
    backend: s.backendRequest,
    sample: false,
    view: null,
    mode: s.workshop.mode,
  };
  labStore.setState((state) => linkOpened(state, readLink(search, base)), true);
}

if (typeof location !== 'undefined') openLink(location.search);
