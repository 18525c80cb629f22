import type { TrainConfig, TrainingPhase } from './trainConfig';

/**
 * A run's schedule, derived once here for the engine and the client: batches per epoch and the steps
 * a run plans before EarlyStopping can end a phase early.
 */

/** Batches in one training epoch of `trainCount` images; a partial last batch counts as one. */
export function batchesPerEpoch(trainCount: number, batchSize: number): number {
  return Math.ceil(trainCount / batchSize);
}

/** Epochs a run plans: both phases, or the fine-tune phase alone when it resumes there. */
export function plannedEpochs(
  config: Pick<TrainConfig, 'frozenEpochs' | 'fineTuneEpochs'>,
  resumeFrom?: TrainingPhase,
): number {
  return (resumeFrom === 'fine-tune' ? 0 : config.frozenEpochs) + config.fineTuneEpochs;
}

/** Training steps a run plans: planned epochs × batches per epoch. */
export function plannedSteps(
  config: Pick<TrainConfig, 'frozenEpochs' | 'fineTuneEpochs' | 'batchSize'>,
  trainCount: number,
  resumeFrom?: TrainingPhase,
): number {
  return plannedEpochs(config, resumeFrom) * batchesPerEpoch(trainCount, config.batchSize);
}
