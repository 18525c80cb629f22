import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../models/efficientnet';
import { Trainer } from '../train/trainer';
import { StepPeak } from './stepPeak';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('StepPeak', () => {
  it.each(['frozen', 'fine-tune'] as const)(
    'equals tf.profile peakBytes for a %s training step',
    async (phase) => {
      const { model, backboneLayerCount } = buildClassifier({
        ...EFFICIENTNET_PRESETS.tiny,
        height: 32,
        width: 32,
        numClasses: 3,
        seed: 1,
      });
      const trainer = new Trainer(model, backboneLayerCount);
      trainer.compile(phase, 1e-3, 1000);
      const batch = tf.tidy(() => ({
        xs: tf.randomUniform([6, 32, 32, 3], 0, 255) as tf.Tensor4D,
        ys: tf.tensor1d([0, 1, 2, 0, 1, 2], 'int32'),
      }));
      // Warm-up: the first step creates the Adam slots, so both measured steps see the same state.
      await trainer.step(batch);
      const peak = new StepPeak('cpu');
      peak.reset();
      const profile = await tf.profile(async () => {
        await trainer.step(batch);
      });
      expect(peak.value).toBe(profile.peakBytes);
      peak.dispose();
      tf.dispose(batch);
      trainer.dispose();
      model.dispose();
    },
  );
});
