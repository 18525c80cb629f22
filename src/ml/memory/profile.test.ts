import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { noiseBatch, tinyClassifier } from '../train/fixtures';
import { Trainer } from '../train/trainer';
import { profileStep, TOP_KERNELS } from './profile';
import { StepPeak } from './stepPeak';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('profileStep (precise mode)', () => {
  it('summarises a training step as tf.profile sees it, agreeing with the kernel hook, and leaks nothing', async () => {
    const { model, backboneLayerCount } = tinyClassifier(32, 3);
    const trainer = new Trainer(model, backboneLayerCount);
    trainer.compile('fine-tune', 1e-3, 1000);
    const batch = noiseBatch(4, 32, 3, 1);
    await trainer.step(batch);
    const before = tf.memory().numTensors;
    const hook = new StepPeak('cpu');
    hook.reset();
    const { result, profile } = await profileStep(() => trainer.step(batch));
    hook.dispose();

    expect(Number.isFinite(result.loss)).toBe(true);
    expect(profile.peakBytes).toBe(hook.value);
    expect(profile.newTensors).toBe(0);
    expect(tf.memory().numTensors).toBe(before);
    expect(profile.kernelCount).toBeGreaterThan(100);
    expect(profile.kernelMs).toBeGreaterThan(0);
    expect(profile.largest).toHaveLength(TOP_KERNELS);
    expect(profile.slowest).toHaveLength(TOP_KERNELS);
    const bytes = profile.largest.map((k) => k.bytesAdded);
    expect(bytes).toEqual([...bytes].sort((a, b) => b - a));
    const times = profile.slowest.map((k) => k.ms ?? Number.NaN);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(profile.largest[0]!.outputShapes.length).toBeGreaterThan(0);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  });
});
