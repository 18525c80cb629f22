import * as tf from '@tensorflow/tfjs';
import type { StepBatch } from './types';

/** Small tensor helpers of the training step. */

export function isTensor(t: tf.Tensor | undefined): t is tf.Tensor {
  return t !== undefined;
}

/** The images of a batch that must have them (every mode but training on cached features). */
export function images(batch: StepBatch): tf.Tensor4D {
  if (!batch.xs) throw new Error('This training step needs images, and the batch holds only features.');
  return batch.xs;
}

/** Rows [begin, begin + size) of every tensor of the batch (a micro-batch). */
export function sliceRows(batch: StepBatch, begin: number, size: number): StepBatch {
  const rows = <T extends tf.Tensor>(t: T): T =>
    tf.slice(t, [begin, ...t.shape.slice(1).map(() => 0)], [size, ...t.shape.slice(1).map(() => -1)]);
  return tf.tidy(() => ({
    ys: rows(batch.ys),
    ...(batch.xs ? { xs: rows(batch.xs) } : {}),
    ...(batch.features ? { features: rows(batch.features) } : {}),
  }));
}

/** The map with each tensor replaced by fn of it. */
export function mapValues(map: tf.NamedTensorMap, fn: (t: tf.Tensor) => tf.Tensor): tf.NamedTensorMap {
  return Object.fromEntries(Object.entries(map).map(([name, t]) => [name, fn(t)]));
}

/** Adds each gradient into the running sum (taking ownership of both, freeing what the sum replaces). */
export function addInto(sum: tf.NamedTensorMap, grads: tf.NamedTensorMap): void {
  for (const [name, g] of Object.entries(grads)) {
    // tf.variableGrads lists a variable made non-trainable since compile() with a null gradient.
    if (!g) continue;
    const previous = sum[name];
    if (!previous) {
      sum[name] = g;
      continue;
    }
    sum[name] = tf.add(previous, g);
    tf.dispose([previous, g]);
  }
}
