import type { StepMode } from '../memory/memory';
import type { TechniqueConfig, TrainingPhase } from './trainConfig';

/** The techniques a step's mode depends on (the trainer's options carry the same three facts). */
export type StepModeTechniques = Pick<
  TechniqueConfig,
  'backboneOutsideTape' | 'checkpointing' | 'float16Storage'
>;

/** How one step of a phase runs, as the trainer runs it and the planner plans it. */
export interface StepModeOf {
  /** Outside the tape (frozen backbone), fully taped, or checkpointed per block. */ mode: StepMode;
  /** Per-block checkpointing: exactly when the mode is 'checkpointed'. */ checkpointing: 'off' | 'blocks';
  /** How a checkpointed step keeps its segment boundaries; float32 for every other mode. */
  boundaryStorage: 'float32' | 'float16';
}

/**
 * The one rule for a step's mode. The frozen phase runs its backbone outside the tape when asked; with
 * the backbone on the tape it runs fully taped, because checkpointing (and float16 storage, which is
 * checkpointing with packed boundaries) is a fine-tune technique: the settings say so, the planner
 * plans it so, and a frozen backbone has no gradient of its own to recompute for.
 */
export function stepModeOf(phase: TrainingPhase, t: StepModeTechniques): StepModeOf {
  if (phase === 'frozen')
    return {
      mode: t.backboneOutsideTape ? 'outside-tape' : 'taped',
      checkpointing: 'off',
      boundaryStorage: 'float32',
    };
  const checkpointed = t.checkpointing === 'blocks' || t.float16Storage;
  return {
    mode: checkpointed ? 'checkpointed' : 'taped',
    checkpointing: checkpointed ? 'blocks' : 'off',
    boundaryStorage: checkpointed && t.float16Storage ? 'float16' : 'float32',
  };
}
