/** A kept training run for the store's tests: completed, with the given settings and any fields changed. */
import type { HistoryEntry } from '../core/run/history';
import type { TrainConfig } from '../core/settings/trainConfig';

export const keptRun = (settings: TrainConfig, over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  kind: 'run',
  at: 0,
  settings,
  changed: [],
  predicted: [],
  measured: [],
  outcome: 'completed',
  oomAt: null,
  stepMs: null,
  valAccuracy: null,
  backend: null,
  adapter: null,
  ...over,
});
