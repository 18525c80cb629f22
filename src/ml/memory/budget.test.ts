import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../models/efficientnet';
import { Trainer } from '../train/trainer';
import { installBudget, ResourceExhaustedError } from './budget';
import { onKernel } from './kernelHook';
import { attributeOutputs, trackLayers } from './layerContext';
import { stepPhase } from './stepPhase';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

let limit: number | null = null;
let remove: (() => void) | null = null;
afterEach(() => {
  remove?.();
  remove = null;
  limit = null;
});

function setup() {
  const built = buildClassifier({
    ...EFFICIENTNET_PRESETS.tiny,
    height: 32,
    width: 32,
    numClasses: 3,
    seed: 3,
  });
  trackLayers(built.model);
  const trainer = new Trainer(built.model, built.backboneLayerCount);
  const batch = tf.tidy(() => ({
    xs: tf.randomUniform([8, 32, 32, 3], 0, 255) as tf.Tensor4D,
    ys: tf.tensor1d([0, 1, 2, 0, 1, 2, 0, 1], 'int32'),
  }));
  return { ...built, trainer, batch };
}

async function catchStep(
  trainer: Trainer,
  batch: { xs: tf.Tensor4D; ys: tf.Tensor1D },
): Promise<ResourceExhaustedError> {
  try {
    await trainer.step(batch);
  } catch (err) {
    if (err instanceof ResourceExhaustedError) return err;
    throw err;
  }
  throw new Error('the step did not run out of memory');
}

describe('memory budget (simulated memory_limit)', () => {
  it('fails the fine-tune step with a TensorFlow-style error naming the layer, then recovers fully', async () => {
    const { model, trainer, batch } = setup();
    trainer.compile('fine-tune', 1e-3, 1000);
    const before = tf.memory();
    const weightsBefore = model.getWeights().map((w) => Array.from(w.dataSync()));
    // Room for the model and the batch plus 1 MB: far less than a full fine-tune step needs.
    limit = before.numBytes + 1_000_000;
    remove = installBudget('cpu', () => limit);

    const err = await catchStep(trainer, batch);
    const d = err.details;
    expect(d.kind).toBe('budget');
    expect(d.phase).toBe('forward');
    expect(d.layer).toMatch(/^(stem|block|top)/);
    expect(d.layerClass).not.toBeNull();
    expect(d.op).not.toBeNull();
    expect(d.shape?.[0]).toBe(8);
    expect(d.dtype).toBe('float32');
    expect(d.bytesInUse + d.bytesRequested).toBeGreaterThan(limit);
    // What was live before the failing op, never above the card.
    expect(d.bytesInUse).toBeLessThanOrEqual(limit);
    expect(d.limit).toBe(limit);
    expect(err.message).toMatch(
      /^OOM when allocating tensor with shape\[8,\d+,\d+,\d+\] and type float32 on cpu \(simulated /,
    );
    expect(err.message).toContain(`Detected at layer '${d.layer}' (${d.layerClass}), forward pass`);

    // Recovery: nothing the failed step held is left, and the weights are the last good ones.
    expect(tf.memory().numTensors).toBe(before.numTensors);
    expect(tf.memory().numBytes).toBe(before.numBytes);
    expect(model.getWeights().map((w) => Array.from(w.dataSync()))).toEqual(weightsBefore);

    // Lift the limit: the same trainer carries on.
    limit = null;
    const m = await trainer.step(batch);
    expect(Number.isFinite(m.loss)).toBe(true);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  });

  it('can fail in the backward pass, and the abandoned tape is released too', async () => {
    const { model, trainer, batch } = setup();
    trainer.compile('fine-tune', 1e-3, 1000);
    // Measure live bytes per phase in one unconstrained step, then set the limit between the
    // forward peak and the backward peak: the forward pass fits, the backward pass cannot.
    const peaks = { forward: 0, backward: 0 };
    const measure = onKernel('cpu', (run) => {
      const phase = stepPhase();
      if (phase === 'forward' || phase === 'backward') {
        peaks[phase] = Math.max(peaks[phase], run.liveBytes + run.allocation.bytes);
      }
    });
    await trainer.step(batch);
    measure();
    expect(peaks.backward).toBeGreaterThan(peaks.forward);
    const before = tf.memory().numTensors;
    limit = (peaks.forward + peaks.backward) / 2;
    remove = installBudget('cpu', () => limit);
    const offAttribution = attributeOutputs('cpu');
    onTestFinished(offAttribution);
    const err = await catchStep(trainer, batch);
    expect(err.details.phase).toBe('backward');
    // No layer runs in the backward pass: it is named after the layer whose saved activations it consumed.
    expect(err.details.layer).toMatch(/^(stem|block|top|head|avg|predictions)/);
    expect(err.message).toContain(`Detected at layer '${err.details.layer}'`);
    expect(err.message).toContain('backward pass');
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  });

  it('holds what tf.memory() counts: a view counts, so a Reshape can fill the card', () => {
    const x = tf.zeros([4, 4]);
    // tf.memory().numBytes counts a reshaped view again (the engine adds bytes per tensor, not per buffer),
    // as tf.profile and the planner do: room for exactly one more 4×4 view or tensor.
    limit = tf.memory().numBytes + 64;
    remove = installBudget('cpu', () => limit);
    const y = x.reshape([16]);
    expect(y.shape).toEqual([16]);
    const before = tf.memory();
    let caught: ResourceExhaustedError | null = null;
    try {
      tf.add(x, x);
    } catch (err) {
      if (err instanceof ResourceExhaustedError) caught = err;
    }
    expect(caught?.details.bytesInUse).toBe(before.numBytes);
    expect(caught?.details.bytesInUse).toBeLessThanOrEqual(limit);
    expect(caught?.details.bytesRequested).toBe(64);
    expect(tf.memory().numBytes).toBe(before.numBytes);
    expect(tf.memory().numTensors).toBe(before.numTensors);
    expect(() => x.reshape([2, 8])).toThrow(ResourceExhaustedError);
    tf.dispose([x, y]);
  });

  it('reports a tensor made from data that crossed the card as the request, with in use under the card', () => {
    const x = tf.zeros([4, 4]);
    limit = tf.memory().numBytes + 100;
    remove = installBudget('cpu', () => limit);
    const y = tf.neg(x);
    const afterKernel = tf.memory().numBytes;
    // Not a kernel: the budget cannot see it being made (like an input batch uploaded from pixels).
    const fromData = tf.tensor2d(new Float32Array(16), [4, 4]);
    let caught: ResourceExhaustedError | null = null;
    try {
      tf.mul(x, x);
    } catch (err) {
      if (err instanceof ResourceExhaustedError) caught = err;
    }
    const d = caught!.details;
    expect(d.bytesInUse).toBe(afterKernel);
    expect(d.bytesInUse).toBeLessThanOrEqual(limit);
    expect(d.bytesRequested).toBe(64 + 64);
    expect(d.bytesInUse + d.bytesRequested).toBeGreaterThan(limit);
    expect(d.cause).toContain('outside a kernel');
    expect(caught!.message).toContain('Out of memory on cpu (simulated');
    tf.dispose([y, fromData]);
    // Back under the card, kernels run again.
    const z = tf.add(x, x);
    tf.dispose([x, z]);
  });
});
