import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainableLayers } from '../../core/model/modelSpec';
import { planTfjs, predictionError } from '../../core/planner/planner';
import { keptBoundaryBytes } from '../../core/planner/checkpoint';
import { describeModel } from '../memory/describe';
import { releaseAbandonedTape } from '../tfjsInternals';
import { checkpointedGradients, type BoundaryStorage } from './checkpoint';
import {
  gradientDifference,
  type ModelGradients,
  noiseBatch,
  relativeDifference,
  tinyClassifier,
  withoutDropout,
} from './fixtures';
import { sparseCategoricalCrossentropy } from './losses';
import { savedActivations } from './measure';
import { blockSegments } from './segments';
import { Trainer } from './trainer';
import type { StepMetrics, TrainerOptions } from './types';

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

/** Checkpointed gradients of a fresh, equally seeded Tiny classifier with its boundaries stored as `storage`. */
function storedGradients(storage: BoundaryStorage, batch: { xs: tf.Tensor4D; ys: tf.Tensor1D }) {
  const { model } = tinyClassifier(SIZE, CLASSES);
  withoutDropout(model);
  const weightIds = new Set<object>(model.weights.map((w) => w.read().dataId));
  let saved = 0;
  const r = checkpointedGradients(
    blockSegments(model),
    batch.xs,
    (probs) => sparseCategoricalCrossentropy(batch.ys, probs as tf.Tensor2D),
    (held) => {
      saved = Math.max(saved, savedActivations(weightIds, held).savedActivations);
    },
    storage,
  );
  return { model, ...r, saved };
}

/** ‖a − b‖ / ‖b‖ over all gradients of two equally built models, matched by their place in the model. */
function relativeL2(a: ModelGradients, b: ModelGradients): number {
  const inOrder = ({ model, grads }: ModelGradients) =>
    model.weights.flatMap((w) => grads[(w.read() as tf.Variable).name] ?? []);
  const y = inOrder(b);
  let num = 0;
  let den = 0;
  inOrder(a).forEach((g, i) =>
    tf.tidy(() => {
      num += tf.sum(tf.square(tf.sub(g, y[i]!))).dataSync()[0]!;
      den += tf.sum(tf.square(y[i]!)).dataSync()[0]!;
    }),
  );
  return Math.sqrt(num / den);
}

describe('float16 boundary storage', () => {
  it('halves the boundary bytes and gives the float32 gradients within the float16 tolerance', async () => {
    const batch = noiseBatch(4, SIZE, CLASSES, 31);
    const f32 = storedGradients('float32', batch);
    const f16 = storedGradients('float16', batch);
    expect(f16.boundaryBytes).toBeLessThanOrEqual(f32.boundaryBytes * 0.5 + 16);
    // The peak is the stem's recompute (the largest images, its tape alone), where no boundary is held.
    expect(f16.saved).toBeLessThanOrEqual(f32.saved);
    // Each stored activation is rounded once, by at most 2^-11 of itself (binary16 keeps 11
    // significant bits); the recompute then runs in float32 from those inputs. Measured over all
    // gradients together (relative L2 error), 8 rounded boundaries move them by about 3e-3, six
    // roundings' worth; the bound is 20 (1e-2). Per weight it would not hold for the few gradients that
    // are zero in exact arithmetic (a block's last BatchNorm beta: 1e-7 against 0.1 elsewhere), which are
    // rounding noise in both paths. It is not float32 noise either: checkpointing alone agrees to 1e-5.
    const diff = relativeL2({ model: f16.model, grads: f16.grads }, { model: f32.model, grads: f32.grads });
    expect(diff).toBeLessThan(1e-2);
    expect(diff).toBeGreaterThan(1e-5);
    expect(await f16.value.data()).toHaveLength(1);
    expect(Math.abs((await f16.value.data())[0]! - (await f32.value.data())[0]!)).toBeLessThan(1e-3);
    for (const r of [f32, f16]) {
      tf.dispose([...Object.values(r.grads), r.value]);
      r.model.dispose();
    }
    tf.dispose([batch.xs, batch.ys]);
  });

  // Full fine-tune: the peak is the stem's recompute, where nothing is kept yet; last 30 layers: the
  // forward of a segment never recomputed. Float16 storage moves neither peak, but the kept bytes
  // the planner predicts must be the trainer's, byte for byte.
  it.each([
    ['full fine-tune', 10_000, 8],
    ['last 30 layers', 30, 32],
  ])(
    'the planner predicts the kept boundaries exactly and the peak within 3%% (%s)',
    async (_l, unfreeze, n) => {
      for (const storage of ['float32', 'float16'] as const) {
        const { t, model, dispose } = fineTuner(
          { checkpointing: 'blocks', activationStorage: storage },
          unfreeze,
        );
        const batch = noiseBatch(n, SIZE, CLASSES, 33);
        await t.step(batch);
        let metrics: StepMetrics | null = null;
        const measured = await tf.profile(async () => {
          metrics = await t.step(batch);
        });
        const spec = describeModel(model, t.backboneLayerCount);
        const trainable = trainableLayers(spec, 'fine-tune', unfreeze);
        const plan = planTfjs({
          spec,
          batch: n,
          trainable,
          optimizer: 'adam',
          backboneOutsideTape: false,
          checkpointing: 'blocks',
          boundaryStorage: storage,
        });
        const kept = (metrics as StepMetrics | null)?.technique.checkpoint?.boundaryBytes;
        expect(kept).toBeGreaterThan(0);
        expect(keptBoundaryBytes(spec, trainable, n, storage)).toBe(kept);
        expect(Math.abs(predictionError(plan.peakBytes, measured.peakBytes))).toBeLessThan(3);
        tf.dispose([batch.xs, batch.ys]);
        dispose();
      }
    },
  );

  it('leaks nothing across calls, and a failure during a recompute releases everything', () => {
    const batch = noiseBatch(2, SIZE, CLASSES, 32);
    const { model } = tinyClassifier(SIZE, CLASSES);
    const segments = blockSegments(model);
    // The loss is the caller's (the trainer keeps it in its step's tensors), also when a step fails.
    let loss: tf.Scalar | null = null;
    const run = () => {
      const r = checkpointedGradients(
        segments,
        batch.xs,
        (probs) => (loss = sparseCategoricalCrossentropy(batch.ys, probs as tf.Tensor2D)),
        () => {},
        'float16',
      );
      tf.dispose([...Object.values(r.grads), r.value]);
    };
    run();
    const before = tf.memory().numTensors;
    run();
    expect(tf.memory().numTensors).toBe(before);
    const layer = model.getLayer('block4a_project_conv');
    const call = layer.call.bind(layer);
    let calls = 0;
    layer.call = (inputs, kwargs) => {
      if (++calls === 2) throw new Error('simulated failure in the recompute');
      return call(inputs, kwargs);
    };
    expect(run).toThrow('simulated failure in the recompute');
    releaseAbandonedTape();
    (loss as tf.Scalar | null)?.dispose();
    expect(tf.memory().numTensors).toBe(before);
    layer.call = call;
    tf.dispose([batch.xs, batch.ys]);
    model.dispose();
  });
});
