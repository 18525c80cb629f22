import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { gradientDifference, noiseBatch, relativeDifference, tinyClassifier } from './fixtures';
import { Trainer } from './trainer';
import type { TrainerOptions } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const CLASSES = 3;

/** A fine-tuning trainer on a fresh, equally seeded Tiny classifier, dropout on and seeded. */
function fineTuner(options: Partial<TrainerOptions>, unfreezeLastN = 10_000) {
  const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
  const t = new Trainer(model, backboneLayerCount, { seed: 11, ...options });
  t.compile('fine-tune', 1e-3, unfreezeLastN);
  return {
    t,
    model,
    dispose: () => {
      t.dispose();
      model.dispose();
    },
  };
}

/** BatchNorm moving statistics of a model, in order. */
const movingStats = (m: tf.LayersModel) =>
  m.layers
    .filter((l) => /BatchNormalization/.test(l.getClassName()))
    .flatMap((l) => l.nonTrainableWeights.map((w) => w.read()));

describe('gradient checkpointing', () => {
  it('gives the plain gradients with dropout on and BatchNorm training, and moves the statistics once', () => {
    const plain = fineTuner({ checkpointing: 'off' });
    const ckpt = fineTuner({ checkpointing: 'blocks' });
    expect(ckpt.t.mode).toBe('checkpointed');
    const batch = noiseBatch(6, SIZE, CLASSES, 21);
    const gPlain = plain.t.gradients(batch);
    const gCkpt = ckpt.t.gradients(batch);
    expect(Object.keys(gCkpt).length).toBe(plain.model.trainableWeights.length);
    expect(
      gradientDifference({ model: ckpt.model, grads: gCkpt }, { model: plain.model, grads: gPlain }),
    ).toBeLessThan(1e-5);
    // Both ran one training-mode forward pass, so the moving averages moved by the same single update.
    const statsPlain = movingStats(plain.model);
    movingStats(ckpt.model).forEach((s, i) =>
      expect(relativeDifference(s, statsPlain[i]!)).toBeLessThan(1e-6),
    );
    tf.dispose([...Object.values(gPlain), ...Object.values(gCkpt), batch.xs, batch.ys]);
    plain.dispose();
    ckpt.dispose();
  });

  it('with the first blocks frozen, recomputes only the segments from the first unfrozen layer', async () => {
    const plain = fineTuner({ checkpointing: 'off' }, 30);
    const ckpt = fineTuner({ checkpointing: 'blocks' }, 30);
    const batch = noiseBatch(4, SIZE, CLASSES, 22);
    const gPlain = plain.t.gradients(batch);
    const gCkpt = ckpt.t.gradients(batch);
    expect(
      gradientDifference({ model: ckpt.model, grads: gCkpt }, { model: plain.model, grads: gPlain }),
    ).toBeLessThan(1e-5);
    const { technique } = await ckpt.t.step(batch);
    expect(technique.checkpoint!.recomputed).toBeLessThan(technique.checkpoint!.segments);
    expect(technique.checkpoint!.recomputed).toBeGreaterThan(1);
    tf.dispose([...Object.values(gPlain), ...Object.values(gCkpt), batch.xs, batch.ys]);
    plain.dispose();
    ckpt.dispose();
  });

  it('keeps fewer activations than the plain step and leaks nothing across steps', async () => {
    const plain = fineTuner({ checkpointing: 'off' });
    const ckpt = fineTuner({ checkpointing: 'blocks' });
    const batch = noiseBatch(4, SIZE, CLASSES, 23);
    const p = await plain.t.step(batch);
    const c = await ckpt.t.step(batch);
    const after1 = tf.memory().numTensors;
    await ckpt.t.step(batch);
    expect(tf.memory().numTensors).toBe(after1);
    expect(c.loss).toBeCloseTo(p.loss, 5);
    expect(c.breakdown.savedActivations).toBeLessThan(p.breakdown.savedActivations * 0.6);
    expect(c.breakdown.savedActivations).toBeGreaterThan(c.technique.checkpoint!.boundaryBytes);
    expect(c.technique.checkpoint!.segments).toBe(9);
    tf.dispose(batch);
    plain.dispose();
    ckpt.dispose();
  });

  it('a failure during a recompute releases everything the step held', async () => {
    const ckpt = fineTuner({ checkpointing: 'blocks' });
    const batch = noiseBatch(2, SIZE, CLASSES, 24);
    await ckpt.t.step(batch);
    const before = tf.memory().numTensors;
    const layer = ckpt.model.getLayer('block4a_project_conv');
    const call = layer.call.bind(layer);
    let calls = 0;
    // The second call is the recompute in the backward pass, when boundaries and a tape are held.
    layer.call = (inputs, kwargs) => {
      if (++calls === 2) throw new Error('simulated failure in the recompute');
      return call(inputs, kwargs);
    };
    await expect(ckpt.t.step(batch)).rejects.toThrow('simulated failure in the recompute');
    expect(tf.memory().numTensors).toBe(before);
    layer.call = call;
    await ckpt.t.step(batch);
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose(batch);
    ckpt.dispose();
  });
});
