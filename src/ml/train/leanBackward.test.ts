import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Classifier } from '../models/head';
import { StepPeak } from '../memory/stepPeak';
import { labFamilyModel, noiseBatch, smallEfficientNetV2, tinyClassifier } from './fixtures';
import { Trainer } from './trainer';
import type { Backward, TrainerOptions } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const FAMILIES: [string, (size: number) => Classifier][] = [
  ['MobileNetV2', (s) => labFamilyModel('mobilenetv2', s)],
  ['B0-style (Tiny)', (s) => tinyClassifier(s)],
  ['EfficientNetV2', smallEfficientNetV2],
];

/** One step's gradients, peak and leftovers on a fresh, equally seeded model. */
function gradientsOf(
  build: (size: number) => Classifier,
  backward: Backward,
  phase: 'frozen' | 'fine-tune',
  options: Partial<TrainerOptions> = {},
) {
  const { model, backboneLayerCount } = build(32);
  const trainer = new Trainer(model, backboneLayerCount, { seed: 5, backward, ...options });
  trainer.compile(phase, 1e-3, 10_000);
  const batch = noiseBatch(4, 32, 3, 9);
  const before = tf.memory();
  const peak = new StepPeak('cpu');
  peak.reset();
  const grads = trainer.gradients(batch);
  const measured = peak.value;
  peak.dispose();
  const named = model.weights.flatMap((w) => grads[(w.read() as tf.Variable).name] ?? []);
  const values = named.map((g) => g.dataSync().slice());
  tf.dispose(Object.values(grads));
  const after = tf.memory();
  tf.dispose(batch);
  trainer.dispose();
  model.dispose();
  return {
    values,
    peak: measured,
    leftTensors: after.numTensors - before.numTensors,
    leftBytes: after.numBytes - before.numBytes,
  };
}

/** Largest |a − b| / max |b| over all variables. */
function maxRelative(a: Float32Array[], b: Float32Array[]): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  a.forEach((x, i) => {
    const y = b[i]!;
    let diff = 0;
    let scale = 0;
    x.forEach((v, j) => {
      diff = Math.max(diff, Math.abs(v - y[j]!));
      scale = Math.max(scale, Math.abs(y[j]!));
    });
    worst = Math.max(worst, scale === 0 ? diff : diff / scale);
  });
  return worst;
}

describe('lean backward', () => {
  it.each(FAMILIES)('%s: same gradients as stock tfjs, less peak, nothing left', (name, build) => {
    for (const phase of ['fine-tune'] as const) {
      const stock = gradientsOf(build, 'stock', phase);
      const lean = gradientsOf(build, 'lean', phase);
      const err = maxRelative(lean.values, stock.values);
      console.log(
        `${name} ${phase}: peak stock ${stock.peak} lean ${lean.peak} (${(lean.peak / stock.peak).toFixed(3)}x), max rel err ${err}`,
      );
      expect(err).toBeLessThanOrEqual(1e-5);
      expect(lean.leftTensors).toBe(0);
      expect(lean.leftBytes).toBe(0);
      expect(lean.peak).toBeLessThan(stock.peak);
    }
  });
});
