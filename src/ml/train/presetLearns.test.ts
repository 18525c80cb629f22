import * as tf from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pngjs from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKSHOP_PRESET } from '../../core/settings/presets';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import { stratifiedSplit } from '../../core/data/split';
import { featureCache } from '../../core/settings/techniques';
import { fineTunedBackbone } from '../../core/settings/trainable';
import type { TrainConfig } from '../../core/settings/trainConfig';
import { makeDataset, type DecodedImage, type PipelineItem } from '../data/pipeline';
import { buildClassifier } from '../models/registry';
import { NSFWJS_INPUT_SCALE, nsfwjsBackboneWeights } from '../weights/nsfwjs';
import { assignWeights } from '../weights/report';
import { runTraining, type PhasePlan } from './runLoop';
import { Trainer } from './trainer';

/** The workshop preset the lab's button applies (core/settings/presets.ts), on top of the defaults. */
const WORKSHOP: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  ...WORKSHOP_PRESET,
  fineTune: { ...WORKSHOP_PRESET.fineTune },
  augment: { ...WORKSHOP_PRESET.augment },
};
const SAMPLE = new URL('../../../public/sample/', import.meta.url);
const CLASSES = ['circles', 'squares', 'triangles'];

/** The built-in sample as the lab reads it: every PNG of manifest.json, labelled by its folder. */
function loadSample(): { items: PipelineItem[]; images: Map<string, DecodedImage> } {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', SAMPLE), 'utf8')) as {
    files: { path: string }[];
  };
  const images = new Map<string, DecodedImage>();
  const items = manifest.files.map(({ path }) => {
    const png = pngjs.PNG.sync.read(readFileSync(fileURLToPath(new URL(path, SAMPLE))));
    images.set(path, { data: png.data, width: png.width, height: png.height, channels: 4 });
    return { path, label: CLASSES.indexOf(path.split('/')[0]!) };
  });
  return { items, images };
}

/** Frozen phase then fine-tuning with the workshop's epochs, learning rates and trainable set. */
function plan(model: tf.LayersModel, backboneLayerCount: number): PhasePlan[] {
  const names = { name: model.name, backboneLayerCount, layers: model.layers.map((l) => ({ name: l.name })) };
  return [
    {
      phase: 'frozen',
      epochs: WORKSHOP.frozenEpochs,
      learningRate: WORKSHOP.frozenLearningRate,
      unfreeze: 0,
    },
    {
      phase: 'fine-tune',
      epochs: WORKSHOP.fineTuneEpochs,
      learningRate: WORKSHOP.fineTuneLearningRate,
      unfreeze: fineTunedBackbone(names, WORKSHOP.fineTune),
    },
  ];
}

describe('a workshop preset on the built-in sample', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('learns the three shapes (≥ 70% validation accuracy), and its output depends on the image', async () => {
    const { items, images } = loadSample();
    expect(items.map((i) => i.label).filter((l) => l < 0)).toEqual([]);
    const split = stratifiedSplit(items, WORKSHOP.validationFraction, WORKSHOP.seed);
    const dataset = (which: 'train' | 'validation', epoch: number) =>
      makeDataset(which === 'train' ? split.train : split.validation, {
        height: WORKSHOP.height,
        width: WORKSHOP.width,
        batchSize: WORKSHOP.batchSize,
        numClasses: CLASSES.length,
        ...(which === 'train' ? { augment: WORKSHOP.augment } : {}),
        augmentOn: WORKSHOP.augmentOn,
        seed: WORKSHOP.seed + epoch,
        shuffle: which === 'train',
        prefetch: WORKSHOP.prefetch,
        decode: async ({ path }) => images.get(path)!,
      });
    const before = tf.memory().numTensors;
    const { model, backboneLayerCount } = buildClassifier({
      id: WORKSHOP.model,
      height: WORKSHOP.height,
      width: WORKSHOP.width,
      includePreprocessing: true,
      inputScale: NSFWJS_INPUT_SCALE,
      numClasses: CLASSES.length,
      seed: WORKSHOP.seed,
    });
    assignWeights(model, await nsfwjsBackboneWeights());
    const trainer = new Trainer(model, backboneLayerCount, {
      frozenBackboneOutsideTape: WORKSHOP.techniques.backboneOutsideTape,
      seed: WORKSHOP.seed,
    });
    const epochs: string[] = [];
    const result = await runTraining(trainer, plan(model, backboneLayerCount), {
      dataset,
      batchesPerEpoch: Math.ceil(split.train.length / WORKSHOP.batchSize),
      patience: WORKSHOP.patience,
      now: () => performance.now(),
      emit: (e) => {
        if (e.kind === 'epoch') epochs.push(`${e.phase} ${e.epoch + 1}: val ${e.valAccuracy.toFixed(3)}`);
      },
      shouldStop: () => false,
      abort: () => {},
      guardStep: (step) => step(),
      yieldToEventLoop: async () => {},
      ...(featureCache(WORKSHOP).on ? { featureCache: { seed: WORKSHOP.seed } } : {}),
    });
    expect(result.phases).toEqual(['frozen', 'fine-tune']);
    expect(result.valAccuracy, epochs.join(', ')).toBeGreaterThanOrEqual(0.7);

    // Different images get different outputs (the random Tiny gave 1/3 ± 2e-6 to every image).
    const spread = tf.tidy(() => {
      const xs = tf.stack(
        split.validation.map(({ path }) => {
          const { data } = images.get(path)!;
          return tf.slice(tf.tensor3d(Float32Array.from(data), [64, 64, 4]), 0, [64, 64, 3]);
        }),
      );
      const probs = model.predict(xs) as tf.Tensor2D;
      return tf.max(tf.sub(tf.max(probs, 0), tf.min(probs, 0))).dataSync()[0]!;
    });
    expect(spread).toBeGreaterThan(0.3);

    trainer.dispose();
    model.dispose();
    expect(tf.memory().numTensors).toBe(before);
    // About 100 s on a quiet 2-core machine; the margin is for a loaded one.
  }, 600_000);
});
