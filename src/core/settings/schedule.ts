import type { TrainConfig, TrainingPhase } from './trainConfig';

/**
 * A run's schedule, derived once here for the engine and the store: batches per epoch and the phases
 * a run plans before EarlyStopping can end one early.
 */

/** Batches in one epoch of `count` images; a partial last batch counts as one. */
export function batchesPerEpoch(count: number, batchSize: number): number {
  return Math.ceil(count / batchSize);
}

/**
 * The phases a run plans with their epochs: both, or fine-tuning alone when it resumes there. A graph
 * model's run plans the frozen phase only (a frozen graph has nothing to unfreeze).
 */
export function plannedPhases(
  config: Pick<TrainConfig, 'frozenEpochs' | 'fineTuneEpochs'> & { weights?: TrainConfig['weights'] },
  resumeFrom: TrainingPhase | null = null,
): { phase: TrainingPhase; epochs: number }[] {
  const phases: { phase: TrainingPhase; epochs: number }[] = [];
  if (resumeFrom !== 'fine-tune' && config.frozenEpochs > 0)
    phases.push({ phase: 'frozen', epochs: config.frozenEpochs });
  if (config.fineTuneEpochs > 0 && config.weights !== 'graph')
    phases.push({ phase: 'fine-tune', epochs: config.fineTuneEpochs });
  return phases;
}
