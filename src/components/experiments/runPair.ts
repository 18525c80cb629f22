/**
 * Runs an experiment card's "before" and "after" one after the other as ordinary training runs on the
 * loaded data (the store's train command), so each is measured, shown and kept in the run history like
 * any run. A side whose exact settings already ran on this backend is taken from the history instead.
 * The settings the user had are put back afterwards.
 */
import type { ExperimentPair } from '../../core/experiments/experiments';
import { matchingRun, sameValue } from '../../core/experiments/math';
import type { HistoryEntry } from '../../core/run/history';
import { commands } from '../../store/commands';
import { labStore, updateConfig } from '../../store/store';
import { runEntry } from '../workshop/runEntry';

export type Side = 'before' | 'after';

/** One side's result: the run's history entry, and whether it was reused rather than trained now. */
export interface SideResult {
  entry: HistoryEntry;
  reused: boolean;
}

/** Outcomes after which the other side still runs: a run that ran out of memory is a result too. */
const GOES_ON = new Set(['completed', 'oom']);

/** Trains one configuration and reads its entry from the store, or throws why it did not run. */
async function trainOnce(config: ExperimentPair['before']): Promise<HistoryEntry> {
  updateConfig(config);
  await commands().train();
  const s = labStore.getState();
  if (!s.run.config || !sameValue(s.run.config, config))
    throw new Error(s.notice?.message ?? s.run.error ?? 'The run did not start.');
  return runEntry(s, null, Date.now());
}

/**
 * Runs (or reuses) both sides, reporting each as it ends; stops after a side that was stopped or failed.
 * `kept` is the run history to reuse from.
 */
export async function runPair(
  pair: ExperimentPair,
  kept: readonly HistoryEntry[],
  onStart: (side: Side) => void,
  onSide: (side: Side, result: SideResult) => void,
): Promise<void> {
  const original = labStore.getState().config;
  try {
    for (const side of ['before', 'after'] as const) {
      const config = pair[side];
      const backend = labStore.getState().engine.backend?.name ?? null;
      const reuse = matchingRun(kept, config, backend);
      onStart(side);
      const result = reuse
        ? { entry: reuse, reused: true }
        : { entry: await trainOnce(config), reused: false };
      onSide(side, result);
      if (!GOES_ON.has(result.entry.outcome)) return;
    }
  } finally {
    updateConfig(original);
  }
}
