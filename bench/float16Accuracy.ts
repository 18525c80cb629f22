import * as tf from '@tensorflow/tfjs';
import type { ComputeKind } from '../src/core/device/adapterKind';
import { augmentIsOff } from '../src/core/data/augment';
import { defaultsFor } from '../src/core/settings/settings';
import { stratifiedSplit } from '../src/core/data/split';
import { featureCache } from '../src/core/settings/techniques';
import { fineTunedBackbone } from '../src/core/settings/trainable';
import type { TrainConfig } from '../src/core/settings/trainConfig';
import { makeDataset, type DecodedImage, type PipelineItem } from '../src/ml/data/pipeline';
import { buildClassifier } from '../src/ml/models/registry';
import { runTraining, type PhasePlan } from '../src/ml/train/runLoop';
import { Trainer } from '../src/ml/train/trainer';
import { NSFWJS_INPUT_SCALE, nsfwjsBackboneWeights } from '../src/ml/weights/nsfwjs';
import { assignWeights } from '../src/ml/weights/report';
import type { BenchRow, BenchSide } from './types';

/**
 * Issue 17's accuracy row: the built-in sample trained with the lab's default settings and epochs for
 * the machine (defaultsFor: on the cpu backend and on a software adapter such as SwiftShader, 64×64
 * with augmentation off, so the feature cache serves the second frozen epoch; on a GPU 128×128 with
 * augmentation), float16 storage against float32, on whatever backend is active (no Node or browser
 * imports: the caller hands the sample in, decoded, and says what computes the kernels). Both runs
 * start from the same weights and seeds, so float16 storage (which only the fine-tune phase uses) is
 * the one difference.
 */

/** The built-in sample, decoded: each image's path and label, and its pixels by path. */
export interface Sample {
  items: PipelineItem[];
  images: Map<string, DecodedImage>;
  classes: number;
}

/** The sample from its manifest's paths, labelled by folder (sorted, as the lab's scan does), decoded by `decode`. */
export async function loadSample(
  paths: readonly string[],
  decode: (path: string) => Promise<DecodedImage>,
): Promise<Sample> {
  const folder = (path: string) => path.split('/')[0]!;
  const classes = [...new Set(paths.map(folder))].sort();
  const images = new Map<string, DecodedImage>();
  for (const path of paths) images.set(path, await decode(path));
  return {
    items: paths.map((path) => ({ path, label: classes.indexOf(folder(path)) })),
    images,
    classes: classes.length,
  };
}

/** The machine's default configuration with float16 storage on or off. */
const withStorage = (base: TrainConfig, float16Storage: boolean): TrainConfig => ({
  ...base,
  techniques: { ...base.techniques, float16Storage },
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
export async function float16AccuracyRows(
  sample: Sample,
  kind: ComputeKind,
  log: (line: string) => void = () => {},
): Promise<BenchRow[]> {
  const base = defaultsFor(kind);
  const f32 = await train(sample, withStorage(base, false));
  log(`float32 run: val accuracy ${(f32.accuracy * 100).toFixed(1)}% in ${(f32.ms / 1000).toFixed(0)} s`);
  const f16 = await train(sample, withStorage(base, true));
  log(`float16 run: val accuracy ${(f16.accuracy * 100).toFixed(1)}% in ${(f16.ms / 1000).toFixed(0)} s`);
  // The whole run's time goes in the name: stepMs is one step's.
  const side = (name: string, r: { accuracy: number; ms: number }): BenchSide => ({
    name: `${name}: val accuracy ${(r.accuracy * 100).toFixed(1)}% (run ${(r.ms / 1000).toFixed(0)} s)`,
    peakBytes: Number.NaN,
  });
  const points = (f16.accuracy - f32.accuracy) * 100;
  const settings = `${base.height}×${base.width}, augmentation ${augmentIsOff(base.augment) ? 'off' : 'on'}`;
  return [
    {
      section: 'float16 storage',
      config: `built-in sample, the ${kind} defaults (${settings}) and epochs (${base.frozenEpochs} frozen + ${base.fineTuneEpochs} fine-tune)`,
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
