import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { sparseAccuracy, sparseCategoricalCrossentropy } from './losses';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('sparseCategoricalCrossentropy', () => {
  it('matches −mean(log p[label]) computed by hand, with Keras clipping', async () => {
    const probs = tf.tensor2d([
      [0.7, 0.2, 0.1],
      [0.1, 0.1, 0.8],
      [1, 0, 0],
    ]);
    const labels = tf.tensor1d([0, 1, 1], 'int32');
    const loss = sparseCategoricalCrossentropy(labels, probs);
    const expected = -(Math.log(0.7) + Math.log(0.1) + Math.log(1e-7)) / 3;
    expect((await loss.data())[0]).toBeCloseTo(expected, 4);
    tf.dispose([probs, labels, loss]);
  });
});

describe('sparseAccuracy', () => {
  it('counts rows whose arg-max is the label', async () => {
    const probs = tf.tensor2d([
      [0.7, 0.3],
      [0.4, 0.6],
      [0.9, 0.1],
      [0.2, 0.8],
    ]);
    const labels = tf.tensor1d([0, 1, 1, 0], 'int32');
    const before = tf.memory().numTensors;
    const acc = sparseAccuracy(labels, probs);
    expect((await acc.data())[0]).toBeCloseTo(0.5);
    acc.dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([probs, labels]);
  });
});
