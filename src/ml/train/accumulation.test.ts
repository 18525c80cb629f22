import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { gradientDifference, noiseBatch, tinyClassifier, withoutDropout } from './fixtures';
import { microBatchSizes } from '../../core/planner/planner';
import { Trainer } from './trainer';
import type { TrainerOptions } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const CLASSES = 3;

/** A trainer on a fresh, equally seeded Tiny classifier without dropout. */
function trainer(options: Partial<TrainerOptions>, phase: 'frozen' | 'fine-tune', freezeBatchNorm = false) {
  const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
  withoutDropout(model);
  const t = new Trainer(model, backboneLayerCount, options);
  // The app's frozen-phase rate: Adam's first update is about lr · g/|g|, which amplifies rounding in
  // near-zero gradient entries, so the update is compared at the rate the app uses, the gradients exactly.
  t.compile(phase, 1e-3, 10_000);
  if (freezeBatchNorm) {
    // Frozen BatchNorm runs in inference mode, so a micro-batch is normalised exactly like the big batch.
    for (const l of model.layers) if (/BatchNormalization/.test(l.getClassName())) l.trainable = false;
  }
  return {
    t,
    model,
    dispose: () => {
      t.dispose();
      model.dispose();
    },
  };
}

describe('microBatchSizes', () => {
  it('splits a batch into k near-equal parts, never an empty one', () => {
    expect(microBatchSizes(16, 4)).toEqual([4, 4, 4, 4]);
    expect(microBatchSizes(10, 4)).toEqual([3, 3, 2, 2]);
    expect(microBatchSizes(3, 4)).toEqual([1, 1, 1]);
    expect(microBatchSizes(5, 1)).toEqual([5]);
  });
});

describe('gradient accumulation', () => {
  it('frozen phase: 4 micro-batches of 2 give the gradients and the update of one batch of 8', async () => {
    const big = trainer({ accumulationSteps: 1 }, 'frozen');
    const small = trainer({ accumulationSteps: 4 }, 'frozen');
    const batch = noiseBatch(8, SIZE, CLASSES, 3);
    const gBig = big.t.gradients(batch);
    const gSmall = small.t.gradients(batch);
    expect(
      gradientDifference({ model: small.model, grads: gSmall }, { model: big.model, grads: gBig }),
    ).toBeLessThan(1e-5);
    tf.dispose([...Object.values(gBig), ...Object.values(gSmall)]);

    const mBig = await big.t.step(batch);
    const mSmall = await small.t.step(batch);
    expect(mSmall.loss).toBeCloseTo(mBig.loss, 5);
    expect(mSmall.accuracy).toBeCloseTo(mBig.accuracy, 5);
    expect(mSmall.technique).toMatchObject({ microBatches: 4, microBatchSize: 2, mode: 'outside-tape' });
    for (const name of ['head_dense', 'predictions']) {
      const a = small.model.getLayer(name).getWeights();
      const b = big.model.getLayer(name).getWeights();
      a.forEach((w, i) => expect(tf.max(tf.abs(tf.sub(w, b[i]!))).dataSync()[0]).toBeLessThan(1e-5));
    }
    tf.dispose(batch);
    big.dispose();
    small.dispose();
  });

  it('fine-tuning with BatchNorm frozen: the same gradients as the big batch', () => {
    const big = trainer({ accumulationSteps: 1 }, 'fine-tune', true);
    const small = trainer({ accumulationSteps: 4 }, 'fine-tune', true);
    const batch = noiseBatch(8, SIZE, CLASSES, 4);
    const gBig = big.t.gradients(batch);
    const gSmall = small.t.gradients(batch);
    expect(Object.keys(gBig).length).toBeGreaterThan(20);
    expect(
      gradientDifference({ model: small.model, grads: gSmall }, { model: big.model, grads: gBig }),
    ).toBeLessThan(1e-5);
    tf.dispose([...Object.values(gBig), ...Object.values(gSmall), batch.xs, batch.ys]);
    big.dispose();
    small.dispose();
  });

  it('fine-tuning with trainable BatchNorm: micro-batches use their own statistics, so gradients differ', () => {
    const big = trainer({ accumulationSteps: 1 }, 'fine-tune');
    const small = trainer({ accumulationSteps: 4 }, 'fine-tune');
    const batch = noiseBatch(8, SIZE, CLASSES, 4);
    const gBig = big.t.gradients(batch);
    const gSmall = small.t.gradients(batch);
    expect(
      gradientDifference({ model: small.model, grads: gSmall }, { model: big.model, grads: gBig }),
    ).toBeGreaterThan(1e-3);
    tf.dispose([...Object.values(gBig), ...Object.values(gSmall), batch.xs, batch.ys]);
    big.dispose();
    small.dispose();
  });

  it('saves the activations of one micro-batch', async () => {
    const big = trainer({ accumulationSteps: 1 }, 'fine-tune');
    const small = trainer({ accumulationSteps: 4 }, 'fine-tune');
    const batch = noiseBatch(8, SIZE, CLASSES, 5);
    const b = (await big.t.step(batch)).breakdown;
    const s = await small.t.step(batch);
    expect(s.breakdown.savedActivations).toBeLessThan(b.savedActivations * 0.35);
    expect(s.breakdown.largestSaved!.shape[0]).toBe(2);
    expect(s.breakdown.gradients).toBe(b.gradients);
    expect(s.technique.accumulatorBytes).toBe(b.gradients);
    tf.dispose(batch);
    big.dispose();
    small.dispose();
  });

  it.each([
    ['frozen', 'off'],
    ['fine-tune', 'off'],
    ['fine-tune', 'blocks'],
  ] as const)('leaks nothing across steps (%s phase, checkpointing %s)', async (phase, checkpointing) => {
    const { t, dispose } = trainer({ accumulationSteps: 2, checkpointing }, phase);
    const batch = noiseBatch(3, SIZE, CLASSES, 6);
    await t.step(batch);
    const after1 = tf.memory().numTensors;
    await t.step(batch);
    expect(tf.memory().numTensors).toBe(after1);
    tf.dispose(batch);
    dispose();
  });
});
