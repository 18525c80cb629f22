import type { OomDetails } from './oom';
import type { TrainConfig } from './protocol';

/** One fix the user can apply with a click. */
export interface Remedy {
  /** Stable id for tests and keys. */ id: string;
  /** Short imperative title, with the concrete change. */ title: string;
  /** Why it helps, in one or two plain sentences. */ why: string;
  /** The settings it changes. */ patch: Partial<TrainConfig>;
}

/** Three quarters of a side, rounded to a multiple of 8 (at least 8). */
function shrinkSide(side: number): number {
  return Math.max(8, Math.round((side * 0.75) / 8) * 8);
}

/**
 * Fixes for a run that ran out of memory, most effective first for where it failed. Activations
 * (forward and backward) scale with batch × height × width, so those come first; gradients and Adam
 * slots scale with the trainable set. Predicted savings come with the planner; until then each fix's
 * effect is measured by training again.
 */
export function remediesFor(
  oom: OomDetails,
  config: TrainConfig,
  phase: 'frozen' | 'fine-tune' | null,
): Remedy[] {
  const out: Remedy[] = [];
  const activations = oom.phase === 'forward' || oom.phase === 'backward' || oom.phase === 'input';
  const smallerBatch: Remedy | null =
    config.batchSize > 1
      ? {
          id: 'halve-batch',
          title: `Halve the batch: ${config.batchSize} → ${Math.max(1, Math.floor(config.batchSize / 2))}`,
          why: 'Every activation kept for the backward pass holds one slice per image, so they shrink with the batch. Set on the data set, where it takes effect.',
          patch: { batchSize: Math.max(1, Math.floor(config.batchSize / 2)) },
        }
      : null;
  const lowerResolution: Remedy | null =
    config.height > 8 || config.width > 8
      ? {
          id: 'lower-resolution',
          title: `Lower the input size: ${config.height}×${config.width} → ${shrinkSide(config.height)}×${shrinkSide(config.width)}`,
          why: 'Activation maps scale with height × width: three quarters of each side is about 56% of the pixels.',
          patch: { height: shrinkSide(config.height), width: shrinkSide(config.width) },
        }
      : null;
  const fewerLayers: Remedy | null =
    phase === 'fine-tune' && config.unfreezeLastN > 1
      ? {
          id: 'fewer-layers',
          title: `Unfreeze fewer layers: ${config.unfreezeLastN} → ${Math.floor(config.unfreezeLastN / 2)}`,
          why: 'Each trainable weight needs a gradient and two Adam slots. In tfjs the frozen layers still keep their activations on the tape, so this saves less than in Keras.',
          patch: { unfreezeLastN: Math.floor(config.unfreezeLastN / 2), fineTuneLayers: null },
        }
      : null;
  const ordered = activations
    ? [smallerBatch, lowerResolution, fewerLayers]
    : [fewerLayers, smallerBatch, lowerResolution];
  for (const r of ordered) if (r) out.push(r);
  if (oom.kind === 'budget' && config.budgetBytes !== null) {
    out.push({
      id: 'bigger-card',
      title: `Use a card twice as large: ${(config.budgetBytes / 1e6).toFixed(0)} MB → ${((config.budgetBytes * 2) / 1e6).toFixed(0)} MB`,
      why: 'Only possible on a simulated card; on a real one this means different hardware.',
      patch: { budgetBytes: config.budgetBytes * 2 },
    });
  }
  return out;
}
