import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batchNorm, dropout, KerasBatchNormalization, rescaling } from './layers';

function movingStats(layer: KerasBatchNormalization): Float32Array[] {
  return layer.weights
    .filter((w) => /moving_(mean|variance)/.test(w.name))
    .map((w) => Float32Array.from(w.read().dataSync()));
}

function apply(layer: KerasBatchNormalization, x: tf.Tensor, training: boolean): tf.Tensor {
  return layer.apply(x, { training }) as tf.Tensor;
}

describe('KerasBatchNormalization', () => {
  // Batch statistics far from the initial moving mean 0 / variance 1, so any update is visible.
  let x: tf.Tensor4D;

  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  afterEach(() => {
    x.dispose();
  });

  function setup(trainable: boolean): KerasBatchNormalization {
    x = tf.randomNormal([4, 5, 5, 3], 5, 3, 'float32', 7);
    const layer = batchNorm({ axis: -1, momentum: 0.99, epsilon: 1e-3, trainable });
    tf.dispose(apply(layer, x, false));
    return layer;
  }

  it('runs in inference mode when frozen, even with training: true', () => {
    const layer = setup(false);
    const before = movingStats(layer);
    const inference = apply(layer, x, false);
    const training = apply(layer, x, true);

    expect(movingStats(layer)).toEqual(before);
    expect(training.arraySync()).toEqual(inference.arraySync());
    tf.dispose([inference, training]);
    layer.dispose();
  });

  it('updates the moving statistics when trainable', () => {
    const layer = setup(true);
    const before = movingStats(layer);
    tf.dispose(apply(layer, x, true));

    const after = movingStats(layer);
    expect(after).toHaveLength(2);
    after.forEach((stat, i) => expect(stat).not.toEqual(before[i]));
    layer.dispose();
  });

  it.each([true, false])('leaks no tensors (trainable=%s)', (trainable) => {
    const layer = setup(trainable);
    const count = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      tf.tidy(() => {
        apply(layer, x, true);
      });
    }
    expect(tf.memory().numTensors).toBe(count);
    layer.dispose();
  });

  it('round-trips through model JSON under its own class name', async () => {
    x = tf.zeros([1, 2, 2, 3]);
    const model = tf.sequential({ layers: [batchNorm({ inputShape: [2, 2, 3], trainable: false })] });
    const restored = await tf.models.modelFromJSON({ modelTopology: model.toJSON(null, false) });

    expect(restored.layers[0]).toBeInstanceOf(KerasBatchNormalization);
    expect(restored.layers[0]?.getClassName()).toBe('KerasBatchNormalization');
    model.dispose();
    restored.dispose();
  });
});

describe('rescaling and dropout with Keras arguments', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('rescales each channel by its own scale', () => {
    const layer = rescaling({ scale: [1, 2, 4], offset: 1 });
    const y = tf.tidy(() => Array.from((layer.apply(tf.ones([1, 2, 2, 3])) as tf.Tensor).dataSync()));
    expect(y).toEqual([2, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3, 5]);
    expect(layer.getClassName()).toBe('Rescaling');
  });

  it('drops whole samples with a noise shape of [null, 1, 1, 1], and leaks nothing', () => {
    const layer = dropout({ rate: 0.5, noiseShape: [null, 1, 1, 1], seed: 3 });
    const x = tf.ones([16, 3, 3, 2]);
    const before = tf.memory().numTensors;
    const perSample = tf.tidy(() => {
      const y = layer.apply(x, { training: true }) as tf.Tensor;
      return tf.stack([tf.min(y, [1, 2, 3]), tf.max(y, [1, 2, 3])]).arraySync() as number[][];
    });
    expect(tf.memory().numTensors).toBe(before);
    x.dispose();
    const [min, max] = perSample;
    // Each sample is either all dropped or all kept (and scaled by 1 / (1 − rate)); both occur.
    expect(min).toEqual(max);
    expect(new Set(max)).toEqual(new Set([0, 2]));
  });
});
