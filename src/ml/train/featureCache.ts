import * as tf from '@tensorflow/tfjs';
import { createRng } from '../../core/data/rng';

/** Host memory the cache may use before it gives up (a browser tab's heap is not much larger). */
export const FEATURE_CACHE_LIMIT_BYTES = 512 * 2 ** 20;

/** Backbone features of a batch with its labels, on the backend; the caller disposes both. */
export interface FeatureBatch {
  features: tf.Tensor;
  ys: tf.Tensor1D;
}

/**
 * Backbone outputs of every image of one split, kept in host memory (Float32Arrays, not GPU tensors).
 * With the backbone frozen, in inference mode and no augmentation, an image's features never change, so
 * the first epoch stores them and every later epoch trains the head on them: no decoding, no backbone.
 * Later epochs reshuffle the images and batch them in the sizes the first epoch had.
 */
export class FeatureCache {
  private readonly rows: Float32Array[] = [];
  private readonly labels: number[] = [];
  private readonly sizes: number[] = [];
  private shape: number[] | null = null;
  private held = 0;
  private full = false;
  private dropped = false;

  constructor(private readonly limitBytes = FEATURE_CACHE_LIMIT_BYTES) {}

  /**
   * Copies a batch's features and labels to the host. Returns false, and empties the cache for good,
   * when it would grow past its limit.
   */
  async add(features: tf.Tensor, ys: tf.Tensor1D): Promise<boolean> {
    if (this.dropped) return false;
    if (this.full) throw new Error('FeatureCache.add() after the cache was completed.');
    const [n, ...shape] = features.shape as number[];
    const perRow = shape.reduce((a, b) => a * b, 1);
    if (this.bytes + (n ?? 0) * perRow * 4 > this.limitBytes) {
      this.drop();
      return false;
    }
    this.shape ??= shape;
    const [values, labels] = await Promise.all([features.data<'float32'>(), ys.data()]);
    for (let i = 0; i < (n ?? 0); i++) {
      this.rows.push(values.slice(i * perRow, (i + 1) * perRow));
      this.labels.push(labels[i] ?? 0);
    }
    this.held += (n ?? 0) * perRow * 4;
    this.sizes.push(n ?? 0);
    return true;
  }

  /** Marks the split as fully stored (call after the first epoch ran to its end). */
  complete(): void {
    if (!this.dropped && this.rows.length > 0) this.full = true;
  }

  /** Empties the cache and refuses further batches (too large, or the epoch ended early). */
  drop(): void {
    this.rows.length = 0;
    this.labels.length = 0;
    this.sizes.length = 0;
    this.held = 0;
    this.dropped = true;
    this.full = false;
  }

  /** Whether the cache still takes batches (it has not been dropped). */
  get active(): boolean {
    return !this.dropped;
  }

  /** Whether every image of the split is stored. */
  get ready(): boolean {
    return this.full;
  }

  /** Images stored. */
  get count(): number {
    return this.rows.length;
  }

  /** Host bytes held. */
  get bytes(): number {
    return this.held;
  }

  /** Shape of one image's features. */
  get featureShape(): readonly number[] | null {
    return this.shape;
  }

  /** The images in a shuffled order (seeded; null keeps the stored order), in the first epoch's batch sizes. */
  order(seed: number | null): number[][] {
    if (!this.full) throw new Error('FeatureCache.order() before the cache is complete.');
    const all = this.rows.map((_, i) => i);
    const order = seed === null ? all : createRng(seed).shuffle(all);
    const batches: number[][] = [];
    let at = 0;
    for (const size of this.sizes) {
      batches.push(order.slice(at, at + size));
      at += size;
    }
    return batches;
  }

  /** One batch of the given images as tensors on the current backend; the caller disposes them. */
  batch(indices: readonly number[]): FeatureBatch {
    const shape = this.shape;
    if (!shape) throw new Error('FeatureCache.batch() on an empty cache.');
    const perRow = shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(indices.length * perRow);
    indices.forEach((row, i) => values.set(this.rows[row]!, i * perRow));
    return {
      features: tf.tensor(values, [indices.length, ...shape], 'float32'),
      ys: tf.tensor1d(
        indices.map((row) => this.labels[row]!),
        'int32',
      ),
    };
  }
}
