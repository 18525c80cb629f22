import { NO_AUGMENT } from '../data/augment';
import type { TrainConfig } from './trainConfig';

/**
 * The settings a workshop starts from on the built-in sample: the packaged pretrained MobileNetV2 at the
 * sample's own 64×64, augmentation off so the feature cache makes every frozen epoch after the first
 * train the head alone, five frozen epochs, then one fine-tune epoch so the room sees memory jump.
 *
 * Why not the Tiny model: randomly initialised, its frozen BatchNorm layers (moving mean 0, variance 1)
 * normalise nothing and its swish and squeeze-excite gates shrink the signal block by block, so the head
 * sees features of about 1e-5 that hardly differ between images and every epoch ends at val_loss ln 3.
 * Measured on cpu (src/ml/train/presetLearns.test.ts): this preset reaches 80% on the three shapes.
 */
export const WORKSHOP_PRESET = {
  model: 'mobilenetv2',
  weights: 'nsfwjs',
  height: 64,
  width: 64,
  batchSize: 8,
  augment: NO_AUGMENT,
  frozenEpochs: 5,
  fineTuneEpochs: 1,
  frozenLearningRate: 1e-3,
  fineTuneLearningRate: 1e-4,
  fineTune: { kind: 'last', n: 20 },
} as const satisfies Partial<TrainConfig>;
