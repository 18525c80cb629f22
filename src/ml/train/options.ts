import type { TrainConfig } from '../../core/settings/trainConfig';
import type { TrainerOptions } from './types';

/** The trainer's options for a configuration's techniques: one home for the run and the batch search. */
export function trainerOptionsFor(config: TrainConfig): Partial<TrainerOptions> {
  return {
    frozenBackboneOutsideTape: config.techniques.backboneOutsideTape,
    accumulationSteps: config.techniques.accumulationSteps,
    checkpointing: config.techniques.checkpointing,
    activationStorage: config.techniques.float16Storage ? 'float16' : 'float32',
    seed: config.seed,
    lossScaling: config.precision.lossScaling,
    backward: config.techniques.leanBackward ? 'lean' : 'stock',
  };
}
