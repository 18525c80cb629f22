import { augmentIsOff } from '../data/augment';
import type { StepTechnique } from '../memory/memory';
import { stepModeOf } from './stepMode';
import { trainableLabel } from './trainable';
import type { TrainConfig } from './trainConfig';

/** The settings a run's memory depends on, in words, for before/after comparisons. */
export function describeRunSettings(c: TrainConfig): string {
  const t = c.techniques;
  const layers = trainableLabel(c.fineTune);
  const parts = [
    `${c.model} ${c.height}×${c.width}, batch ${c.batchSize}, fine-tune ${layers}`,
    t.backboneOutsideTape ? 'frozen backbone outside the tape' : 'frozen backbone on the tape',
  ];
  if (t.accumulationSteps > 1) parts.push(`${t.accumulationSteps} accumulated micro-batches`);
  if (t.checkpointing === 'blocks') parts.push('per-block checkpointing');
  if (t.float16Storage) parts.push('float16 storage, float32 math');
  if (t.leanBackward) parts.push('lean backward');
  if (featureCache(c).on) parts.push('frozen features cached');
  return parts.join(', ');
}

/** Whether the frozen phase will cache backbone features, and why not when it will not. */
export function featureCache(c: TrainConfig): { on: boolean; why: string } {
  if (!c.techniques.cacheFeatures) return { on: false, why: 'turned off' };
  if (stepModeOf('frozen', c.techniques).mode !== 'outside-tape')
    return { on: false, why: 'needs the frozen backbone outside the tape' };
  if (!augmentIsOff(c.augment))
    return { on: false, why: 'augmentation is on, so every epoch sees different pixels' };
  if (c.frozenEpochs < 2) return { on: false, why: 'needs at least 2 frozen epochs to pay off' };
  return { on: true, why: 'the first frozen epoch stores the features, later ones reuse them' };
}

/** How one step ran, in words. */
export function describeStep(t: StepTechnique): string {
  const mode = {
    'outside-tape': 'backbone outside the tape',
    taped: 'fully taped',
    checkpointed: 'checkpointed',
  }[t.mode];
  const parts = [mode];
  if (t.microBatches > 1) parts.push(`${t.microBatches} micro-batches of up to ${t.microBatchSize} images`);
  if (t.checkpoint)
    parts.push(`${t.checkpoint.recomputed} of ${t.checkpoint.segments} segments recomputed in backward`);
  if (t.featureCache === 'filling') parts.push('features stored for the cache');
  if (t.featureCache === 'reading') parts.push('head only, on cached features');
  return parts.join(', ');
}
