import type { LayerNames } from './layerTable';
import type { ModelSpec } from './modelSpec';
import { fineTunedBackbone } from './trainable';
import type { OomDetails } from './oom';
import { planInput, planTfjs, type Plan } from './planner';
import type { TrainConfig, TrainingPhase } from './trainConfig';

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
 * slots scale with the trainable set. `rankRemedies` adds the planner's prediction for each.
 */
export function remediesFor(
  oom: OomDetails,
  config: TrainConfig,
  phase: 'frozen' | 'fine-tune' | null,
  /** The model's layers, to count the trainable set; null when not described yet. */
  spec: LayerNames | null,
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
  // Counted on the model itself, so the fix always unfreezes fewer layers than the set that failed.
  const unfrozen = spec && phase === 'fine-tune' ? fineTunedBackbone(spec, config.fineTune).length : 0;
  const fewerLayers: Remedy | null =
    unfrozen > 1
      ? {
          id: 'fewer-layers',
          title: `Unfreeze fewer layers: ${unfrozen} → the last ${Math.floor(unfrozen / 2)}`,
          why: 'Each trainable weight needs a gradient and two Adam slots. In tfjs the frozen layers still keep their activations on the tape, so this saves less than in Keras.',
          patch: { fineTune: { kind: 'last', n: Math.floor(unfrozen / 2) } },
        }
      : null;
  const t = config.techniques;
  const accumulate: Remedy | null =
    t.accumulationSteps * 2 <= config.batchSize
      ? {
          id: 'accumulate',
          title: `Accumulate gradients: ${t.accumulationSteps * 2} micro-batches of ${Math.ceil(config.batchSize / (t.accumulationSteps * 2))}`,
          why: 'The optimizer still sees the whole batch of images, but activations are held for one micro-batch at a time.',
          patch: { techniques: { ...t, accumulationSteps: t.accumulationSteps * 2 } },
        }
      : null;
  const checkpoint: Remedy | null =
    phase === 'fine-tune' && t.checkpointing === 'off'
      ? {
          id: 'checkpoint',
          title: 'Checkpoint gradients per block',
          why: 'Keeps only block boundaries in the forward pass and recomputes each block in backward: one more forward pass for most of the activations.',
          patch: { techniques: { ...t, checkpointing: 'blocks' } },
        }
      : null;
  const outsideTape: Remedy | null =
    phase === 'frozen' && !t.backboneOutsideTape
      ? {
          id: 'outside-tape',
          title: 'Run the frozen backbone outside the gradient tape',
          why: 'tfjs keeps every taped activation until backprop ends, frozen layers too; outside the tape they are freed as soon as they are used.',
          patch: { techniques: { ...t, backboneOutsideTape: true } },
        }
      : null;
  const ordered = activations
    ? [outsideTape, smallerBatch, accumulate, checkpoint, lowerResolution, fewerLayers]
    : [fewerLayers, outsideTape, smallerBatch, accumulate, checkpoint, lowerResolution];
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

/** A remedy with the planner's peak for the phase that failed, once applied. */
export interface RankedRemedy {
  remedy: Remedy;
  /** Predicted peak of one step of the failing phase with the remedy applied (tfjs model). */
  predictedBytes: number;
  /** Whether the prediction is under the limit. */ fits: boolean;
  /** How the prediction was made, when not directly from the planner. */ note: string | null;
}

/**
 * The remedies ranked by the planner: those predicted to fit first, then by predicted peak. `spec`
 * describes the model at the current resolution; a remedy that changes the resolution is predicted by
 * scaling the activation and input bytes with the pixel count (convolutions scale with H × W).
 */
export function rankRemedies(
  remedies: readonly Remedy[],
  spec: ModelSpec,
  config: TrainConfig,
  phase: TrainingPhase,
  limit: number,
): RankedRemedy[] {
  const ranked = remedies.map((remedy) => {
    const c = { ...config, ...remedy.patch };
    const plan = planTfjs(planInput(spec, c, phase));
    const area = (c.height * c.width) / (config.height * config.width);
    const scaled = area !== 1;
    const k = plan.categories;
    const predictedBytes = scaled
      ? k.weights + k.gradients + k.optimizer + area * (k.input + k.savedActivations + k.transient)
      : plan.peakBytes;
    const note = scaled ? 'activations scaled by the pixel count' : null;
    return { remedy, predictedBytes, fits: predictedBytes <= limit, note };
  });
  return ranked.sort((a, b) => Number(b.fits) - Number(a.fits) || a.predictedBytes - b.predictedBytes);
}

/** The planner's categories in the order a training step brings them alive. */
export const ALLOCATION_ORDER: readonly (keyof Plan['categories'])[] = [
  'weights',
  'optimizer',
  'input',
  'gradients',
  'savedActivations',
  'transient',
];

/**
 * Which category pushed the predicted step over the limit: the planner's categories added in the order
 * they come alive (weights, optimizer slots, input, gradients, saved activations, the rest), and the
 * first that crosses. Null when the prediction stays under the limit.
 */
export function crossingCategory(plan: Plan, limit: number): keyof Plan['categories'] | null {
  let total = 0;
  for (const key of ALLOCATION_ORDER) {
    total += plan.categories[key];
    if (total > limit) return key;
  }
  return null;
}
