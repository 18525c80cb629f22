import * as tf from '@tensorflow/tfjs';
import type { Batch } from '../data/pipeline';
import { inPhase } from '../memory/stepPhase';
import type { FeatureCache } from './featureCache';
import { forEachBatch } from './iteration';
import { sparseAccuracy, sparseCategoricalCrossentropy } from './losses';
import type { Trainer } from './trainer';
import type { Metrics } from './types';
import type { Predictions } from './validationReport';
import { append } from '../../core/extent';

/** A validation pass's mean loss and accuracy, and what it predicted for each image. */
export interface Evaluation extends Metrics {
  predictions: Predictions;
}

/** Loss and accuracy summed over evaluation batches, weighted by their sizes, and each image's prediction. */
class MetricSum {
  private loss = 0;
  private correct = 0;
  private count = 0;
  private readonly predictions: Predictions = { labels: [], classes: [], confidence: [], numClasses: 0 };

  /** Scores the probabilities `probs()` gives for the batch (computed and freed here). */
  async add(ys: tf.Tensor1D, probs: () => tf.Tensor2D): Promise<void> {
    const n = ys.shape[0];
    const out = inPhase('evaluation', () =>
      tf.tidy(() => {
        const p = probs();
        this.predictions.numClasses = p.shape[1];
        return [sparseCategoricalCrossentropy(ys, p), sparseAccuracy(ys, p), tf.argMax(p, 1), tf.max(p, 1)];
      }),
    );
    const [l, a, classes, confidence, labels] = await Promise.all([...out.map((t) => t.data()), ys.data()]);
    tf.dispose(out);
    this.loss += (l?.[0] ?? Number.NaN) * n;
    this.correct += (a?.[0] ?? Number.NaN) * n;
    this.count += n;
    append(this.predictions.labels, Array.from(labels ?? [], Number));
    append(this.predictions.classes, Array.from(classes ?? [], Number));
    append(this.predictions.confidence, Array.from(confidence ?? [], Number));
  }

  result(): Evaluation {
    const mean =
      this.count === 0
        ? { loss: Number.NaN, accuracy: Number.NaN }
        : { loss: this.loss / this.count, accuracy: this.correct / this.count };
    return { ...mean, predictions: this.predictions };
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
): Promise<Evaluation> {
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
  return total.result();
}

/** evaluate() over a complete feature cache: the head alone, in inference mode. */
export async function evaluateCached(
  trainer: Trainer,
  cache: FeatureCache,
  shouldStop: () => boolean = () => false,
): Promise<Evaluation> {
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
  return total.result();
}
