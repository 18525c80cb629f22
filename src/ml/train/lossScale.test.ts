import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { gradientDifference, noiseBatch, relativeDifference, tinyClassifier } from './fixtures';
import { DEFAULT_LOSS_SCALE_OPTIONS, DynamicLossScale } from './lossScale';
import { Trainer } from './trainer';
import type { TrainerOptions } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('DynamicLossScale', () => {
  it("starts at Keras' defaults: 2^15, growing every 2000 finite steps", () => {
    expect(DEFAULT_LOSS_SCALE_OPTIONS).toMatchObject({ initialScale: 2 ** 15, growthInterval: 2000 });
    expect(new DynamicLossScale().scale).toBe(2 ** 15);
  });

  it('halves after a non-finite step, never below the minimum, and counts the skips', () => {
    const s = new DynamicLossScale({ initialScale: 4 });
    expect(s.update(false)).toEqual({ scale: 4, nextScale: 2, skipped: true, skippedSteps: 1 });
    expect(s.update(false)).toEqual({ scale: 2, nextScale: 1, skipped: true, skippedSteps: 2 });
    expect(s.update(false)).toEqual({ scale: 1, nextScale: 1, skipped: true, skippedSteps: 3 });
  });

  it('doubles after growthInterval finite steps in a row, a skip restarts the count, and it stops at the cap', () => {
    const s = new DynamicLossScale({ initialScale: 8, growthInterval: 3, maxScale: 32 });
    s.update(true);
    s.update(true);
    s.update(false); // 8 → 4, count restarts
    expect(s.update(true).nextScale).toBe(4);
    expect(s.update(true).nextScale).toBe(4);
    expect(s.update(true)).toEqual({ scale: 4, nextScale: 8, skipped: false, skippedSteps: 1 });
    for (let i = 0; i < 9; i++) s.update(true);
    expect(s.scale).toBe(32);
    for (let i = 0; i < 3; i++) s.update(true);
    expect(s.scale).toBe(32);
  });

  it('rejects inconsistent options', () => {
    expect(() => new DynamicLossScale({ initialScale: 0.5 })).toThrow(/minScale/);
    expect(() => new DynamicLossScale({ initialScale: 2 ** 30 })).toThrow(/maxScale/);
    expect(() => new DynamicLossScale({ growthInterval: 0 })).toThrow(/growthInterval/);
  });

  it('scales the loss and unscales gradients exactly, freeing the scaled ones', async () => {
    const s = new DynamicLossScale({ initialScale: 1024 });
    const before = tf.memory().numTensors;
    const loss = tf.scalar(1.5);
    const scaled = s.scaleLoss(loss);
    expect(scaled.dataSync()[0]).toBe(1536);
    const grads = { a: tf.tensor1d([1024, -2048, 3]), b: tf.tensor2d([[0.5, 4096]]) };
    const { grads: out, finite } = await s.unscale(grads);
    expect(finite).toBe(true);
    expect(Array.from(out.a!.dataSync())).toEqual([1, -2, 3 / 1024]);
    expect(Array.from(out.b!.dataSync())).toEqual([0.5 / 1024, 4]);
    expect(grads.a.isDisposed && grads.b.isDisposed).toBe(true);
    tf.dispose([loss, scaled, ...Object.values(out)]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it.each([Infinity, -Infinity, NaN])(
    'reports a gradient holding %s as not finite, leaking nothing',
    async (bad) => {
      const s = new DynamicLossScale();
      const before = tf.memory().numTensors;
      const { grads, finite } = await s.unscale({ a: tf.tensor1d([1, 2]), b: tf.tensor1d([3, bad]) });
      expect(finite).toBe(false);
      tf.dispose(Object.values(grads));
      expect(tf.memory().numTensors).toBe(before);
    },
  );
});

const SIZE = 32;
const CLASSES = 3;

/** A trainer on a fresh, equally seeded Tiny classifier, dropout seeded. */
function make(options: Partial<TrainerOptions>, phase: 'frozen' | 'fine-tune') {
  const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
  const t = new Trainer(model, backboneLayerCount, { seed: 5, ...options });
  t.compile(phase, 1e-3, 10_000);
  return {
    t,
    model,
    dispose: () => {
      t.dispose();
      model.dispose();
    },
  };
}

describe('Trainer with dynamic loss scaling', () => {
  it.each([
    ['frozen, backbone outside the tape', 'frozen', {}],
    ['fine-tune, taped', 'fine-tune', {}],
    ['fine-tune, 3 accumulated micro-batches', 'fine-tune', { accumulationSteps: 3 }],
    ['fine-tune, checkpointed', 'fine-tune', { checkpointing: 'blocks' }],
  ] as const)('%s: in float32 the scaled step equals the plain one', async (_, phase, options) => {
    const plain = make(options, phase);
    const scaled = make({ ...options, lossScaling: 'dynamic' }, phase);
    const batch = noiseBatch(6, SIZE, CLASSES, 9);

    const gPlain = plain.t.gradients(batch);
    const gScaled = scaled.t.gradients(batch);
    expect(
      gradientDifference({ model: scaled.model, grads: gScaled }, { model: plain.model, grads: gPlain }),
    ).toBeLessThan(1e-6);
    tf.dispose([...Object.values(gPlain), ...Object.values(gScaled)]);

    const mPlain = await plain.t.step(batch);
    const mScaled = await scaled.t.step(batch);
    expect(mPlain.lossScale).toBeNull();
    expect(mScaled.lossScale).toEqual({
      scale: 2 ** 15,
      nextScale: 2 ** 15,
      skipped: false,
      skippedSteps: 0,
    });
    // The reported loss is the unscaled one.
    expect(mScaled.loss).toBeCloseTo(mPlain.loss, 5);
    const wPlain = plain.model.weights.map((w) => w.read());
    scaled.model.weights.forEach((w, i) =>
      expect(relativeDifference(w.read(), wPlain[i]!)).toBeLessThan(1e-6),
    );

    const afterFirst = tf.memory().numTensors;
    await scaled.t.step(batch);
    expect(tf.memory().numTensors).toBe(afterFirst);
    tf.dispose([batch.xs, batch.ys]);
    plain.dispose();
    scaled.dispose();
  });

  it.each([
    ['taped', {}],
    ['checkpointed', { checkpointing: 'blocks' }],
  ] as const)(
    '%s: an overflowing scale skips the update, halves the scale and leaks nothing',
    async (_, options) => {
      // 2^127 is finite in float32, but the scaled loss's gradients overflow to Infinity.
      const { t, model, dispose } = make(
        { ...options, lossScaling: 'dynamic', lossScale: { initialScale: 2 ** 127, maxScale: 2 ** 127 } },
        'fine-tune',
      );
      const batch = noiseBatch(6, SIZE, CLASSES, 10);
      const trainable = () => model.trainableWeights.map((w) => Array.from(w.read().dataSync()));
      const weightsBefore = trainable();
      const tensorsBefore = tf.memory().numTensors;

      const m = await t.step(batch);
      expect(m.lossScale).toEqual({ scale: 2 ** 127, nextScale: 2 ** 126, skipped: true, skippedSteps: 1 });
      expect(Number.isFinite(m.loss)).toBe(true);
      expect(trainable()).toEqual(weightsBefore);
      // Adam made no slots and nothing else stayed behind.
      expect(tf.memory().numTensors).toBe(tensorsBefore);

      const m2 = await t.step(batch);
      expect(m2.lossScale).toMatchObject({ scale: 2 ** 126, skipped: true, skippedSteps: 2 });
      expect(tf.memory().numTensors).toBe(tensorsBefore);
      tf.dispose([batch.xs, batch.ys]);
      dispose();
    },
  );

  it('recovers: once the halved scale stops overflowing, updates resume', async () => {
    // 2^128 is Infinity in float32, so the first scaled loss is Infinity and its step is skipped; the
    // halved scales are tried until the head's gradients stay finite.
    const { t, model, dispose } = make(
      { lossScaling: 'dynamic', lossScale: { initialScale: 2 ** 128, maxScale: 2 ** 128 } },
      'frozen',
    );
    const batch = noiseBatch(6, SIZE, CLASSES, 11);
    const head = () => Array.from(model.getLayer('predictions').getWeights()[0]!.dataSync());
    const before = head();
    const states = [];
    for (let i = 0; i < 8; i++) {
      const m = await t.step(batch);
      states.push(m.lossScale!);
      if (!m.lossScale!.skipped) break;
    }
    const last = states[states.length - 1]!;
    expect(states[0]!.skipped).toBe(true);
    expect(last.skipped).toBe(false);
    expect(last.skippedSteps).toBe(states.length - 1);
    expect(last.scale).toBe(2 ** (128 - states.length + 1));
    expect(head()).not.toEqual(before);
    tf.dispose([batch.xs, batch.ys]);
    dispose();
  });
});
