/**
 * The remedy cards' workflow: runs a card's "before" and "after" one after the other as ordinary
 * training runs on the loaded data (the train command), so each is measured, shown and kept in the run
 * history like any run. A side whose exact settings the history already holds on this backend (a run
 * by hand, by a card, in an earlier session) is taken from it instead (selectReusableRun). The settings
 * the user had are put back afterwards. Every step is a named action on the experiments slice.
 */
import type { ExperimentCard, ExperimentPair } from '../core/experiments/experiments';
import { sameValue } from '../core/experiments/math';
import { errorMessage } from '../core/format';
import type { HistoryEntry } from '../core/run/history';
import { actions } from './actions';
import { commands } from './commands';
import { selectReusableRun } from './historySelectors';
import { runEntry } from './runEntry';
import { labStore, updateConfig } from './store';
import type { ExperimentsSlice, SideResult } from './types';

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

/** Runs (or reuses) both sides of `card`; stops after a side that was stopped or failed. */
async function runSides(card: ExperimentCard & { pair: ExperimentPair }): Promise<void> {
  for (const side of ['before', 'after'] as const) {
    const config = card.pair[side];
    const reuse = selectReusableRun(labStore.getState(), config);
    actions.experimentSideStarted(card.id, side);
    const result: SideResult = reuse
      ? { entry: reuse, reused: true }
      : { entry: await trainOnce(config), reused: false };
    actions.experimentSideEnded(card.id, side, result);
    if (!GOES_ON.has(result.entry.outcome)) return;
  }
}

/**
 * Runs a card's experiment; `started` is what the cards were computed from, held while the settings
 * change under the runs. Why it did not run through goes to the card's error.
 */
export async function runExperiment(
  card: ExperimentCard,
  started: NonNullable<ExperimentsSlice['experiments']['started']>,
): Promise<void> {
  const { pair } = card;
  if (!pair) return;
  const original = labStore.getState().config;
  actions.experimentStarted(card.id, started);
  try {
    await runSides({ ...card, pair });
  } catch (err) {
    actions.experimentFailed(card.id, errorMessage(err));
  } finally {
    updateConfig(original);
    actions.experimentEnded();
  }
}
