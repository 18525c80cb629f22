import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../core/run/protocol';
import { FeatureCache } from './featureCache';
import { noiseBatch, quietRunContext, tinyClassifier, withoutDropout } from './fixtures';
import { evaluate, evaluateCached } from './evaluation';
import { runTraining, type RunContext } from './runLoop';
import { Trainer } from './trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const CLASSES = 3;

describe('FeatureCache', () => {
  it('stores rows on the host and hands them back reshuffled, in the stored batch sizes, leaking nothing', async () => {
    const before = tf.memory().numTensors;
    const cache = new FeatureCache();
    const features = tf.tensor(
      Array.from({ length: 5 * 4 }, (_, i) => i),
      [5, 2, 2],
      'float32',
    );
    const ys = tf.tensor1d([0, 1, 2, 0, 1], 'int32');
    const parts = [
      [tf.slice(features, [0], [3]), tf.slice(ys, [0], [3])],
      [tf.slice(features, [3], [2]), tf.slice(ys, [3], [2])],
    ] as const;
    for (const [f, y] of parts) expect(await cache.add(f, y as tf.Tensor1D)).toBe(true);
    tf.dispose([features, ys, ...parts.flat()]);
    cache.complete();

    expect(cache.ready).toBe(true);
    expect(cache.count).toBe(5);
    expect(cache.bytes).toBe(5 * 4 * 4);
    expect(cache.featureShape).toEqual([2, 2]);
    expect(cache.order(null)).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    const shuffled = cache.order(7);
    expect(shuffled.map((b) => b.length)).toEqual([3, 2]);
    expect(shuffled.flat().sort()).toEqual([0, 1, 2, 3, 4]);
    expect(cache.order(8)).not.toEqual(shuffled);

    const batch = cache.batch([4, 0]);
    expect(batch.features.shape).toEqual([2, 2, 2]);
    expect(Array.from(batch.features.dataSync())).toEqual([16, 17, 18, 19, 0, 1, 2, 3]);
    expect(Array.from(batch.ys.dataSync())).toEqual([1, 0]);
    expect(batch.ys.dtype).toBe('int32');
    tf.dispose([batch.features, batch.ys]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('gives up for good when it would pass its byte limit', async () => {
    const cache = new FeatureCache(100);
    const small = tf.zeros([1, 5]);
    const big = tf.zeros([2, 20]);
    const ys = tf.tensor1d([0], 'int32');
    const ys2 = tf.tensor1d([0, 1], 'int32');
    expect(await cache.add(small, ys)).toBe(true);
    expect(await cache.add(big, ys2)).toBe(false);
    expect(await cache.add(small, ys)).toBe(false);
    cache.complete();
    expect(cache.ready).toBe(false);
    expect(cache.active).toBe(false);
    expect(cache.count).toBe(0);
    tf.dispose([small, big, ys, ys2]);
  });
});

describe('training on cached features', () => {
  it('updates the head exactly as a step on the images does', async () => {
    const batch = noiseBatch(6, SIZE, CLASSES, 3);
    const headAfterStep = async (cached: boolean) => {
      const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES, 5);
      withoutDropout(model);
      const trainer = new Trainer(model, backboneLayerCount);
      trainer.compile('frozen', 1e-2, 0);
      const features = cached ? trainer.backboneFeatures(batch.xs) : null;
      const m = await trainer.step(features ? { features, ys: batch.ys } : batch);
      features?.dispose();
      const weights = model
        .getLayer('predictions')
        .getWeights()
        .map((w) => Array.from(w.dataSync()));
      trainer.dispose();
      model.dispose();
      return { weights, m };
    };
    const images = await headAfterStep(false);
    const cached = await headAfterStep(true);
    expect(cached.m.loss).toBeCloseTo(images.m.loss, 5);
    cached.weights.forEach((w, i) => w.forEach((v, j) => expect(v).toBeCloseTo(images.weights[i]![j]!, 5)));
    expect(cached.m.technique.featureCache).toBe('reading');
    expect(images.m.technique.featureCache).toBeNull();
    // Cached steps hold the features, not the images: 6 × 1×1×… floats instead of 6×32×32×3.
    expect(cached.m.breakdown.input).toBeLessThan(images.m.breakdown.input);
    tf.dispose(batch);
  });

  it('is refused when the backbone is on the tape', async () => {
    const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
    const trainer = new Trainer(model, backboneLayerCount);
    trainer.compile('fine-tune', 1e-3, 5);
    const features = tf.zeros([2, 4]);
    const ys = tf.tensor1d([0, 1], 'int32');
    await expect(trainer.step({ features, ys })).rejects.toThrow(/outside the tape/);
    tf.dispose([features, ys]);
    trainer.dispose();
    model.dispose();
  });
});

describe('runTraining with the feature cache', () => {
  function context(events: EngineEvent[], reads: string[], limitBytes?: number): RunContext {
    return quietRunContext(events, {
      dataset: (split, epoch) => {
        reads.push(`${split}:${epoch}`);
        const n = split === 'train' ? 3 : 1;
        return tf.data.generator(function* () {
          for (let b = 0; b < n; b++)
            yield noiseBatch(4, SIZE, CLASSES, 10 * b + (split === 'train' ? 1 : 2));
        });
      },
      batchesPerEpoch: 3,
      patience: 5,
      featureCache: { seed: 1, ...(limitBytes ? { limitBytes } : {}) },
    });
  }

  it('reads the images once, then trains the head on cached features, and frees everything', async () => {
    const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
    const trainer = new Trainer(model, backboneLayerCount);
    const events: EngineEvent[] = [];
    const reads: string[] = [];
    const before = tf.memory().numTensors;
    const result = await runTraining(
      trainer,
      [
        { phase: 'frozen', epochs: 3, learningRate: 1e-3, unfreeze: 0 },
        { phase: 'fine-tune', epochs: 1, learningRate: 1e-4, unfreeze: 5 },
      ],
      context(events, reads),
    );
    expect(result.outcome).toBe('completed');
    // The frozen phase reads each split once; fine-tuning trains the backbone, so it reads them again.
    expect(reads).toEqual(['train:0', 'validation:0', 'train:3', 'validation:3']);
    const steps = events.flatMap((e) =>
      e.kind === 'batch' ? [`${e.phase}:${e.epoch}:${e.technique.featureCache}`] : [],
    );
    expect(steps).toEqual([
      ...Array(3).fill('frozen:0:filling'),
      ...Array(3).fill('frozen:1:reading'),
      ...Array(3).fill('frozen:2:reading'),
      ...Array(3).fill('fine-tune:0:null'),
    ]);
    const log = events.find((e) => e.kind === 'log');
    expect(log && log.kind === 'log' && log.message).toMatch(/12 training and 4 validation images/);
    for (const e of events) if (e.kind === 'epoch') expect(Number.isFinite(e.valLoss)).toBe(true);
    trainer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('says so and runs the backbone every epoch when the features do not fit', async () => {
    const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
    const trainer = new Trainer(model, backboneLayerCount);
    const events: EngineEvent[] = [];
    const reads: string[] = [];
    await runTraining(
      trainer,
      [{ phase: 'frozen', epochs: 2, learningRate: 1e-3, unfreeze: 0 }],
      context(events, reads, 64),
    );
    expect(reads).toEqual(['train:0', 'validation:0', 'train:1', 'validation:1']);
    const log = events.find((e) => e.kind === 'log');
    expect(log && log.kind === 'log' && log.message).toMatch(/would not fit/);
    trainer.dispose();
    model.dispose();
  });

  it('scores the validation set on cached features as the whole model does', async () => {
    const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
    const trainer = new Trainer(model, backboneLayerCount);
    trainer.compile('frozen', 1e-3, 0);
    const data = () =>
      tf.data.generator(function* () {
        for (let b = 0; b < 2; b++) yield noiseBatch(3, SIZE, CLASSES, b + 20);
      });
    const cache = new FeatureCache();
    const plain = await evaluate(trainer, data());
    const filling = await evaluate(trainer, data(), undefined, undefined, cache);
    cache.complete();
    const cached = await evaluateCached(trainer, cache);
    expect(filling.loss).toBeCloseTo(plain.loss, 5);
    expect(cached.loss).toBeCloseTo(plain.loss, 5);
    expect(cached.accuracy).toBe(plain.accuracy);
    trainer.dispose();
    model.dispose();
  });
});
