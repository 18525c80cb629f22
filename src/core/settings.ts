import { DEFAULT_AUGMENT, validateAugment } from './config';
import { isModelId } from './models';
import { validateTrainable } from './trainable';
import type { TrainConfig } from './trainConfig';

/**
 * Defaults sized for the built-in sample on a laptop GPU: the offline pretrained MobileNetV2 (from the
 * nsfwjs package) at 128×128, so fine-tuning starts from learned features with no download.
 */
export const DEFAULT_TRAIN_CONFIG: TrainConfig = {
  model: 'mobilenetv2',
  weights: 'nsfwjs',
  height: 128,
  width: 128,
  batchSize: 8,
  frozenEpochs: 2,
  fineTuneEpochs: 1,
  frozenLearningRate: 1e-3,
  fineTuneLearningRate: 1e-4,
  fineTune: { kind: 'last', n: 20 },
  techniques: { backboneOutsideTape: true, accumulationSteps: 1, checkpointing: 'off', cacheFeatures: true },
  precision: { webglF16Textures: false, lossScaling: 'off' },
  augment: DEFAULT_AUGMENT,
  augmentOn: 'gpu',
  validationFraction: 0.2,
  seed: 42,
  patience: 2,
  prefetch: 1,
  budgetBytes: null,
  preciseProfile: false,
};

/** Card sizes offered for the simulated budget, in GB (10^9 bytes, as cards are sold). */
export const BUDGET_PRESETS_GB = [2, 4, 8, 12, 16, 24, 40, 80] as const;

const LIMITS = {
  height: [8, 2048],
  width: [8, 2048],
  batchSize: [1, 1024],
  frozenEpochs: [0, 1000],
  fineTuneEpochs: [0, 1000],
  patience: [1, 1000],
  prefetch: [0, 16],
} as const satisfies Partial<Record<keyof TrainConfig, readonly [number, number]>>;

const LABELS: Record<keyof typeof LIMITS, string> = {
  height: 'Input height',
  width: 'Input width',
  batchSize: 'Batch size',
  frozenEpochs: 'Frozen epochs',
  fineTuneEpochs: 'Fine-tune epochs',
  patience: 'Patience',
  prefetch: 'Prefetch',
};

/** Problems with a configuration, each naming the setting; empty when it can run. */
export function validateTrainConfig(c: TrainConfig): string[] {
  const problems: string[] = [];
  for (const [key, [lo, hi]] of Object.entries(LIMITS) as [
    keyof typeof LIMITS,
    readonly [number, number],
  ][]) {
    const v = c[key];
    if (!Number.isInteger(v) || v < lo || v > hi)
      problems.push(`${LABELS[key]} must be a whole number from ${lo} to ${hi} (got ${v}).`);
  }
  for (const [key, label] of [
    ['frozenLearningRate', 'Frozen learning rate'],
    ['fineTuneLearningRate', 'Fine-tune learning rate'],
  ] as const) {
    if (!(c[key] > 0 && c[key] < 10)) problems.push(`${label} must be above 0 and below 10 (got ${c[key]}).`);
  }
  if (!(c.validationFraction > 0 && c.validationFraction < 1)) {
    problems.push(
      `Validation share must be above 0 and below 1 (got ${c.validationFraction}); EarlyStopping needs val_loss.`,
    );
  }
  if (!isModelId(c.model)) problems.push(`Unknown model '${String(c.model)}'; choose one from the list.`);
  if (c.weights === 'nsfwjs' && c.model !== 'mobilenetv2') {
    problems.push('The packaged pretrained weights are a MobileNetV2: choose MobileNetV2, or other weights.');
  }
  if (c.model === 'mobilenetv2' && (c.height < 32 || c.width < 32)) {
    problems.push(`MobileNetV2 needs at least 32×32 pixels (got ${c.height}×${c.width}).`);
  }
  const k = c.techniques.accumulationSteps;
  if (!Number.isInteger(k) || k < 1 || k > 64) {
    problems.push(`Accumulation steps must be a whole number from 1 to 64 (got ${k}).`);
  } else if (c.batchSize >= 1 && k > c.batchSize) {
    problems.push(
      `Accumulation steps (${k}) cannot exceed the batch size (${c.batchSize}): each micro-batch needs an image.`,
    );
  }
  if (c.frozenEpochs + c.fineTuneEpochs === 0) problems.push('Set at least one epoch in either phase.');
  if (!Number.isInteger(c.seed)) problems.push(`Seed must be a whole number (got ${c.seed}).`);
  if (c.preciseProfile && c.budgetBytes !== null) {
    problems.push(
      'Precise profiling cannot run with a simulated card: tf.profile hides the error the card raises inside a kernel. Turn one of them off.',
    );
  }
  if (c.budgetBytes !== null && !(c.budgetBytes >= 1e6)) {
    problems.push(`The simulated card must hold at least 1 MB (got ${c.budgetBytes} bytes).`);
  }
  return [...problems, ...validateTrainable(c.fineTune), ...validateAugment(c.augment)];
}
