import type { LayerNames } from '../../core/model/layerTable';
import { plannedPhases } from '../../core/settings/schedule';
import { fineTunedBackbone } from '../../core/settings/trainable';
import type { TrainConfig, TrainingPhase } from '../../core/settings/trainConfig';
import type { PhasePlan } from './runLoop';

/**
 * The phases a run trains, as the run loop takes them: which phases and how many epochs come from
 * plannedPhases (core/settings/schedule, the one home the store's progress reads too, so a graph model's
 * "frozen only" is decided there), each with its learning rate and the backbone layers it unfreezes
 * (none frozen; the configured trainable set when fine-tuning, resolved on the built model's layers).
 * `continueFrom` is the phase a kept model continues from, null for a fresh model.
 */
export function runPhasePlan(
  config: TrainConfig,
  names: LayerNames,
  continueFrom: TrainingPhase | null,
): PhasePlan[] {
  return plannedPhases(config, continueFrom).map(({ phase, epochs }) =>
    phase === 'frozen'
      ? { phase, epochs, learningRate: config.frozenLearningRate, unfreeze: 0 }
      : {
          phase,
          epochs,
          learningRate: config.fineTuneLearningRate,
          unfreeze: fineTunedBackbone(names, config.fineTune),
        },
  );
}
