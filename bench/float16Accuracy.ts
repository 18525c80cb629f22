import * as tf from '@tensorflow/tfjs';
import { DEFAULT_TRAIN_CONFIG } from '../src/core/settings';
import { stratifiedSplit } from '../src/core/split';
import { featureCache } from '../src/core/techniques';
import { fineTunedBackbone } from '../src/core/trainable';
import type { TrainConfig } from '../src/core/trainConfig';
import { makeDataset, type DecodedImage, type PipelineItem } from '../src/ml/data/pipeline';
import { buildClassifier } from '../src/ml/models/registry';
import { runTraining, type PhasePlan } from '../src/ml/train/runLoop';
import { Trainer } from '../src/ml/train/trainer';
import { NSFWJS_INPUT_SCALE, nsfwjsBackboneWeights } from '../src/ml/weights/nsfwjs';
import { assignWeights } from '../src/ml/weights/report';
import type { BenchRow, BenchSide } from './types';

/**
 * Issue 17's accuracy row: the built-in sample trained with the default settings and epochs (2 frozen,
 * 1 fine-tune) with float16 storage against float32, on whatever backend is active (no Node or browser
 * imports: the caller hands the sample in, decoded). The input is 64×64 instead of the default 128×128:
 * the smallest size at which the pretrained MobileNetV2 still learns the shapes, and a quarter of the
 * pixels to train. Both runs start from the same weights and seeds, so float16 storage (which only the
 * fine-tune phase uses) is the one difference.
 */

/** The built-in sample, decoded: each image's path and label, and its pixels by path. */
export interface Sample {
  items: PipelineItem[];
  images: Map<string, DecodedImage>;
  classes: number;
}

const SIZE = 64;

/** The default configuration at the bench's size, with float16 storage on or off. */
const configFor = (float16Storage: boolean): TrainConfig => ({
  ...DEFAULT_TRAIN_CONFIG,
  height: SIZE,
  width: SIZE,
  techniques: { ...DEFAULT_TRAIN_CONFIG.techniques, float16Storage },
});

/** One run's final validation accuracy and its wall time. */
async function train(sample: Sample, config: TrainConfig): Promise<{ accuracy: number; ms: number }> {
  const split = stratifiedSplit(sample.items, config.validationFraction, config.seed);
  const dataset = (which: 'train' | 'validation', epoch: number) =>
    makeDataset(which === 'train' ? split.train : split.validation, {
      height: config.height,
      width: config.width,
      batchSize: config.batchSize,
      numClasses: sample.classes,
      ...(which === 'train' ? { augment: config.augment } : {}),
      augmentOn: config.augmentOn,
      seed: config.seed + epoch,
      shuffle: which === 'train',
      prefetch: config.prefetch,
      decode: async ({ path }) => sample.images.get(path)!,
    });
  const { model, backboneLayerCount } = buildClassifier({
    id: config.model,
    height: config.height,
    width: config.width,
    includePreprocessing: true,
    inputScale: NSFWJS_INPUT_SCALE,
    numClasses: sample.classes,
    seed: config.seed,
  });
  assignWeights(model, await nsfwjsBackboneWeights());
  const trainer = new Trainer(model, backboneLayerCount, {
    frozenBackboneOutsideTape: config.techniques.backboneOutsideTape,
    activationStorage: config.techniques.float16Storage ? 'float16' : 'float32',
    seed: config.seed,
  });
  const names = { name: model.name, backboneLayerCount, layers: model.layers.map((l) => ({ name: l.name })) };
  const plan: PhasePlan[] = [
    { phase: 'frozen', epochs: config.frozenEpochs, learningRate: config.frozenLearningRate, unfreeze: 0 },
    {
      phase: 'fine-tune',
      epochs: config.fineTuneEpochs,
      learningRate: config.fineTuneLearningRate,
      unfreeze: fineTunedBackbone(names, config.fineTune),
    },
  ];
  const start = performance.now();
  try {
    const result = await runTraining(trainer, plan, {
      dataset,
      batchesPerEpoch: Math.ceil(split.train.length / config.batchSize),
      patience: config.patience,
      now: () => performance.now(),
      emit: () => {},
      shouldStop: () => false,
      abort: () => {},
      guardStep: (step) => step(),
      yieldToEventLoop: async () => {},
      ...(featureCache(config).on ? { featureCache: { seed: config.seed } } : {}),
    });
    return { accuracy: result.valAccuracy, ms: performance.now() - start };
  } finally {
    trainer.dispose();
    model.dispose();
  }
}

/** The row: validation accuracy with float16 storage over float32, target within 2 points of it. */
export async function float16AccuracyRows(sample: Sample): Promise<BenchRow[]> {
  const f32 = await train(sample, configFor(false));
  const f16 = await train(sample, configFor(true));
  // The whole run's time goes in the name: stepMs is one step's.
  const side = (name: string, r: { accuracy: number; ms: number }): BenchSide => ({
    name: `${name}: val accuracy ${(r.accuracy * 100).toFixed(1)}% (run ${(r.ms / 1000).toFixed(0)} s)`,
    peakBytes: Number.NaN,
  });
  const points = (f16.accuracy - f32.accuracy) * 100;
  return [
    {
      section: 'float16 storage',
      config: `built-in sample, default settings and epochs (${DEFAULT_TRAIN_CONFIG.frozenEpochs} frozen + ${DEFAULT_TRAIN_CONFIG.fineTuneEpochs} fine-tune) at ${SIZE}×${SIZE}`,
      backend: tf.getBackend(),
      a: side('float32', f32),
      b: side('float16 storage', f16),
      metric: 'validation accuracy',
      ratio: f16.accuracy / f32.accuracy,
      target: `within 2 points (${points >= 0 ? '+' : ''}${points.toFixed(1)})`,
      pass: Math.abs(points) <= 2,
    },
  ];
}
