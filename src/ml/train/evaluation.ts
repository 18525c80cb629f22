import * as tf from '@tensorflow/tfjs';
import type { Batch } from '../data/pipeline';
import { inPhase } from '../memory/stepPhase';
import type { FeatureCache } from './featureCache';
import { forEachBatch } from './iteration';
import { sparseAccuracy, sparseCategoricalCrossentropy } from './losses';
import type { Trainer } from './trainer';
import type { Metrics } from './types';

/** Loss and accuracy summed over evaluation batches, weighted by their sizes. */
class MetricSum {
  private loss = 0;
  private correct = 0;
  private count = 0;

  /** Scores the probabilities `probs()` gives for the batch (computed and freed here). */
  async add(ys: tf.Tensor1D, probs: () => tf.Tensor2D): Promise<void> {
    const n = ys.shape[0];
    const [loss, acc] = inPhase('evaluation', () =>
      tf.tidy(() => {
        const p = probs();
        return [sparseCategoricalCrossentropy(ys, p), sparseAccuracy(ys, p)];
      }),
    );
    const [l, a] = await Promise.all([loss.data(), acc.data()]);
    tf.dispose([loss, acc]);
    this.loss += (l[0] ?? Number.NaN) * n;
    this.correct += (a[0] ?? Number.NaN) * n;
    this.count += n;
  }

  mean(): Metrics {
    return this.count === 0
      ? { loss: Number.NaN, accuracy: Number.NaN }
      : { loss: this.loss / this.count, accuracy: this.correct / this.count };
  }
}

/**
 * The trainer's model's mean loss and accuracy in inference mode (dropout off, BatchNorm on moving
 * statistics). With `fill`, the backbone's features of every batch are stored in it on the way
 * (frozen phase, feature cache).
 */
export async function evaluate(
  trainer: Trainer,
  dataset: tf.data.Dataset<Batch>,
  shouldStop: () => boolean = () => false,
  abort: () => void = () => {},
  fill?: FeatureCache,
): Promise<Metrics> {
  const total = new MetricSum();
  await forEachBatch(
    dataset,
    shouldStop,
    async (batch) => {
      if (!fill) {
        await total.add(batch.ys, () => trainer.model.apply(batch.xs, { training: false }) as tf.Tensor2D);
        return;
      }
      const features = trainer.backboneFeatures(batch.xs);
      try {
        await fill.add(features, batch.ys);
        await total.add(batch.ys, () => trainer.headInference(features));
      } finally {
        features.dispose();
      }
    },
    abort,
  );
  return total.mean();
}

/** evaluate() over a complete feature cache: the head alone, in inference mode. */
export async function evaluateCached(
  trainer: Trainer,
  cache: FeatureCache,
  shouldStop: () => boolean = () => false,
): Promise<Metrics> {
  const total = new MetricSum();
  for (const rows of cache.order(null)) {
    if (shouldStop()) break;
    const batch = cache.batch(rows);
    try {
      await total.add(batch.ys, () => trainer.headInference(batch.features));
    } finally {
      tf.dispose([batch.features, batch.ys]);
    }
  }
  return total.mean();
}
