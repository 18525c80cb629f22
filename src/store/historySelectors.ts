/**
 * What the run history decides: the planner's peaks an entry keeps, the kept run an experiment reuses
 * instead of training again, and each card's results.
 */
import type { ExperimentCard } from '../core/experiments/experiments';
import { matchingRun } from '../core/experiments/math';
import type { ModelSpec } from '../core/model/modelSpec';
import { planInput, planTfjs } from '../core/planner/planner';
import type { PhasePeak } from '../core/run/guess';
import type { HistoryEntry } from '../core/run/history';
import type { TrainConfig, TrainingPhase } from '../core/settings/trainConfig';
import type { LabState, Side, SideResult } from './types';

/** The planner's tfjs peak of each phase the settings train, as the history keeps it. */
export function plannedPeaks(spec: ModelSpec, c: TrainConfig): PhasePeak[] {
  const phases: TrainingPhase[] = c.fineTuneEpochs > 0 ? ['frozen', 'fine-tune'] : ['frozen'];
  return phases.map((phase) => ({ phase, peakBytes: planTfjs(planInput(spec, c, phase)).peakBytes }));
}

/**
 * The kept run an experiment takes instead of training `c` again: the latest in the history with exactly
 * these settings on the engine's backend that completed or ran out of memory (however it was started:
 * by hand, by a card, in an earlier session); null when `c` must be trained.
 */
export const selectReusableRun = (s: LabState, c: TrainConfig): HistoryEntry | null =>
  matchingRun(s.history.entries, c, s.engine.backend?.name ?? null);

/**
 * A card's results: what its last experiment gave for a side, else the kept run with that side's exact
 * settings on `backend` (run before the card: in another session, or with the same settings by hand),
 * marked as reused from the history. Takes the slices rather than the state so a view can memoise it.
 */
export function cardResults(
  card: ExperimentCard,
  history: readonly HistoryEntry[],
  backend: string | null,
  given: Partial<Record<Side, SideResult>> = {},
): Partial<Record<Side, SideResult>> {
  const out: Partial<Record<Side, SideResult>> = {};
  if (!card.pair) return out;
  for (const side of ['before', 'after'] as const) {
    const entry = matchingRun(history, card.pair[side], backend);
    const last = given[side];
    if (last) out[side] = last;
    else if (entry) out[side] = { entry, reused: true };
  }
  return out;
}
