import { DEFAULT_AUGMENT } from './config';
import { configProblems } from './settingsSchema';
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
  techniques: {
    backboneOutsideTape: true,
    accumulationSteps: 1,
    checkpointing: 'off',
    cacheFeatures: true,
    float16Storage: false,
  },
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

/** Problems with a configuration, each naming the setting and why; empty when it can run. */
export function validateTrainConfig(c: TrainConfig): string[] {
  return configProblems(c);
}
