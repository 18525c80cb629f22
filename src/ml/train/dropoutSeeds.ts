import type * as tf from '@tensorflow/tfjs';
import { dropoutLayers, withDropoutSeedsSet } from '../tfjsInternals';

/**
 * Runs fn with every Dropout layer of the model seeded from `seed`, then restores their own seeds.
 * tfjs Dropout draws an unseeded mask on every call; with a seed per forward pass, a checkpointed
 * step's recompute draws exactly the masks of its first pass, and two trainers with the same seed
 * draw the same masks. Each layer gets its own stream, so equal shapes do not share masks.
 */
export function withDropoutSeeds<T>(model: tf.LayersModel, seed: string, fn: () => T): T {
  const dropouts = dropoutLayers(model);
  return withDropoutSeedsSet(
    dropouts,
    dropouts.map((_, i) => `${seed}/${i}`),
    fn,
  );
}
