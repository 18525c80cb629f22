import type { StepTechnique } from './memory';
import type { TrainConfig } from './protocol';

/** The settings a run's memory depends on, in words, for before/after comparisons. */
export function describeRunSettings(c: TrainConfig): string {
  const t = c.techniques;
  const layers = c.fineTuneLayers
    ? `${c.fineTuneLayers.length} chosen layers`
    : `last ${c.unfreezeLastN} layers`;
  const parts = [
    `${c.model} ${c.height}×${c.width}, batch ${c.batchSize}, fine-tune ${layers}`,
    t.backboneOutsideTape ? 'frozen backbone outside the tape' : 'frozen backbone on the tape',
  ];
  if (t.accumulationSteps > 1) parts.push(`${t.accumulationSteps} accumulated micro-batches`);
  if (t.checkpointing === 'blocks') parts.push('per-block checkpointing');
  return parts.join(', ');
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
  return parts.join(', ');
}
