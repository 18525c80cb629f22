import * as tf from '@tensorflow/tfjs';
import type { Batch } from '../data/pipeline';
import type { FeatureBatch, FeatureCache } from './featureCache';

/**
 * Runs `fn` on each batch and disposes it afterwards. When stopped, or when `fn` or the data set
 * fails, the iterator is still drained so batches already prefetched are disposed, not leaked;
 * `abort` is called first so the data set ends early and draining is quick. A failure is rethrown
 * once drained. Returns whether it stopped early.
 */
export async function forEachBatch(
  dataset: tf.data.Dataset<Batch>,
  shouldStop: () => boolean,
  fn: (batch: Batch, index: number) => Promise<void>,
  abort: () => void = () => {},
): Promise<boolean> {
  const iterator = await dataset.iterator();
  let index = 0;
  let stopped = false;
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => {
    if (failure) return;
    failure = { error };
    abort();
  };
  for (;;) {
    let next: IteratorResult<Batch>;
    try {
      next = await iterator.next();
    } catch (err) {
      fail(err);
      continue;
    }
    if (next.done) break;
    try {
      if (!stopped && !failure) await fn(next.value, index++);
    } catch (err) {
      fail(err);
    } finally {
      tf.dispose([next.value.xs, next.value.ys]);
    }
    if (!stopped && shouldStop()) stopped = true;
  }
  if (failure) throw (failure as { error: unknown }).error;
  return stopped;
}

/** Runs `fn` on the cached batches in a shuffled order, freeing each; returns whether it stopped early. */
export async function forEachCached(
  cache: FeatureCache,
  seed: number,
  shouldStop: () => boolean,
  fn: (batch: FeatureBatch, index: number) => Promise<void>,
): Promise<boolean> {
  for (const [i, rows] of cache.order(seed).entries()) {
    const batch = cache.batch(rows);
    try {
      await fn(batch, i);
    } finally {
      tf.dispose([batch.features, batch.ys]);
    }
    if (shouldStop()) return true;
  }
  return false;
}
