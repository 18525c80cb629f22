import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installBudget, ResourceExhaustedError } from '../memory/budget';
import { onKernel } from '../memory/kernelHook';
import { attributeOutputs, trackLayers } from '../memory/layerContext';
import { stepPhase } from '../memory/stepPhase';
import { gradientDifference, noiseBatch, tinyClassifier } from './fixtures';
import { Trainer } from './trainer';
import type { StepBatch, TrainerOptions } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

let remove: (() => void) | null = null;
afterEach(() => {
  remove?.();
  remove = null;
});

const SIZE = 16;
const CLASSES = 3;

/** A way of running the step: trainer options, phase, and whether the batch carries cached features. */
interface Combo {
  name: string;
  options: Partial<TrainerOptions>;
  phase: 'frozen' | 'fine-tune';
  cache?: boolean;
}

const COMBOS: Combo[] = [
  { name: 'fine-tune', options: {}, phase: 'fine-tune' },
  { name: 'fine-tune, accumulation 2', options: { accumulationSteps: 2 }, phase: 'fine-tune' },
  { name: 'fine-tune, checkpointing', options: { checkpointing: 'blocks' }, phase: 'fine-tune' },
  {
    name: 'fine-tune, checkpointing, float16 storage, accumulation 2',
    options: { checkpointing: 'blocks', activationStorage: 'float16', accumulationSteps: 2 },
    phase: 'fine-tune',
  },
  { name: 'fine-tune, loss scaling', options: { lossScaling: 'dynamic' }, phase: 'fine-tune' },
  { name: 'frozen on the tape', options: { frozenBackboneOutsideTape: false }, phase: 'frozen' },
  { name: 'frozen outside the tape', options: {}, phase: 'frozen' },
  { name: 'frozen, feature cache', options: {}, phase: 'frozen', cache: true },
];

/** A trainer on a fresh, equally seeded Tiny classifier, dropout on and seeded, and its batch. */
function setup(combo: Combo, backward: TrainerOptions['backward']) {
  const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
  trackLayers(model);
  const trainer = new Trainer(model, backboneLayerCount, { seed: 5, ...combo.options, backward });
  trainer.compile(combo.phase, 1e-3, 10_000);
  const images = noiseBatch(4, SIZE, CLASSES, 9);
  const features = combo.cache ? trainer.backboneFeatures(images.xs) : null;
  const batch: StepBatch = features ? { ys: images.ys, features } : images;
  return {
    model,
    trainer,
    batch,
    dispose: () => {
      tf.dispose([images.xs, images.ys, ...(features ? [features] : [])]);
      trainer.dispose();
      model.dispose();
    },
  };
}

/** Backward kernels of one unconstrained step. */
async function backwardKernels(step: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const off = onKernel('cpu', () => {
    if (stepPhase() === 'backward') n++;
  });
  await step().finally(off);
  return n;
}

describe('lean backward with every technique', () => {
  it.each(COMBOS.map((c) => [c.name, c] as const))('%s: the gradients of stock tfjs', (_, combo) => {
    const stock = setup(combo, 'stock');
    const lean = setup(combo, 'lean');
    const a = stock.trainer.gradients(stock.batch);
    const b = lean.trainer.gradients(lean.batch);
    expect(Object.keys(b).length).toBe(Object.keys(a).length);
    expect(
      gradientDifference({ model: lean.model, grads: b }, { model: stock.model, grads: a }),
    ).toBeLessThanOrEqual(1e-5);
    tf.dispose([...Object.values(a), ...Object.values(b)]);
    stock.dispose();
    lean.dispose();
  });

  it.each(COMBOS.map((c) => [c.name, c] as const))(
    '%s: OOMs early, midway and late in the backward walk leave nothing behind',
    async (_, combo) => {
      const { trainer, batch, dispose } = setup(combo, 'lean');
      const step = () => trainer.step(batch);
      await step();
      const before = tf.memory();
      const total = await backwardKernels(step);
      expect(tf.memory().numTensors).toBe(before.numTensors);
      const offAttribution = attributeOutputs('cpu');
      // A card that is full from the k-th backward kernel on: that kernel's outputs do not fit.
      let seen = 0;
      let target = 0;
      remove = installBudget('cpu', () =>
        stepPhase() === 'backward' && ++seen > target ? tf.memory().numBytes : null,
      );
      for (const f of [0.1, 0.5, 0.9]) {
        seen = 0;
        target = Math.floor(f * total);
        const err = await step().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ResourceExhaustedError);
        const details = (err as ResourceExhaustedError).details;
        expect(details.phase).toBe('backward');
        expect(details.layer).not.toBeNull();
        expect(tf.memory().numTensors, `after an OOM at ${f} of the walk`).toBe(before.numTensors);
        expect(tf.memory().numBytes, `after an OOM at ${f} of the walk`).toBe(before.numBytes);
      }
      target = Number.POSITIVE_INFINITY;
      await step();
      expect(tf.memory().numTensors).toBe(before.numTensors);
      expect(tf.memory().numBytes).toBe(before.numBytes);
      offAttribution();
      dispose();
    },
  );

  it('twenty OOMs in a row inside the walk, then a good step', async () => {
    const { trainer, batch, dispose } = setup(COMBOS[0]!, 'lean');
    const step = () => trainer.step(batch);
    await step();
    const before = tf.memory();
    const total = await backwardKernels(step);
    let seen = 0;
    let full = true;
    remove = installBudget('cpu', () =>
      full && stepPhase() === 'backward' && ++seen > total / 2 ? tf.memory().numBytes : null,
    );
    for (let i = 0; i < 20; i++) {
      seen = 0;
      await expect(step()).rejects.toBeInstanceOf(ResourceExhaustedError);
      expect(tf.memory().numTensors).toBe(before.numTensors);
    }
    full = false;
    const m = await step();
    expect(Number.isFinite(m.loss)).toBe(true);
    expect(tf.memory().numBytes).toBe(before.numBytes);
    dispose();
  });
});
