import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Classifier } from '../models/head';
import { StepPeak } from '../memory/stepPeak';
import {
  gradientDifference,
  labFamilyModel,
  noiseBatch,
  smallEfficientNetV2,
  tinyClassifier,
} from './fixtures';
import { Trainer } from './trainer';
import type { Backward } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const FAMILIES: [string, (size: number) => Classifier][] = [
  ['MobileNetV2', (s) => labFamilyModel('mobilenetv2', s)],
  ['B0-style (Tiny)', (s) => tinyClassifier(s)],
  ['EfficientNetV2', smallEfficientNetV2],
];

/**
 * One step's gradients and peak on a fresh, equally seeded model; `finish` frees the gradients and the
 * trainer and says what the step left behind.
 */
function gradientsOf(build: (size: number) => Classifier, backward: Backward) {
  const { model, backboneLayerCount } = build(32);
  const trainer = new Trainer(model, backboneLayerCount, { seed: 5, backward });
  trainer.compile('fine-tune', 1e-3, 10_000);
  const batch = noiseBatch(4, 32, 3, 9);
  const before = tf.memory();
  const peak = new StepPeak('cpu');
  peak.reset();
  const grads = trainer.gradients(batch);
  const measured = peak.value;
  peak.dispose();
  const finish = () => {
    tf.dispose(Object.values(grads));
    const after = tf.memory();
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
    return { tensors: after.numTensors - before.numTensors, bytes: after.numBytes - before.numBytes };
  };
  return { model, grads, peak: measured, finish };
}

describe('lean backward', () => {
  it.each(FAMILIES)(
    '%s fine-tune: the gradients of stock tfjs, a lower peak, nothing left',
    (name, build) => {
      const stock = gradientsOf(build, 'stock');
      const lean = gradientsOf(build, 'lean');
      const err = gradientDifference(lean, stock);
      console.log(
        `${name}: step peak stock ${stock.peak} B, lean ${lean.peak} B; max relative gradient error ${err}`,
      );
      expect(err).toBeLessThanOrEqual(1e-5);
      expect(lean.peak).toBeLessThan(stock.peak);
      // Last made, first freed: the stock side's baseline was taken before the lean side existed.
      expect(lean.finish()).toEqual({ tensors: 0, bytes: 0 });
      expect(stock.finish()).toEqual({ tensors: 0, bytes: 0 });
    },
    300_000,
  );
});
