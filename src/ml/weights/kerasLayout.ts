import { IMAGENET_STDDEV_RGB } from '../models/efficientnet';
import type { WeightSource } from './source';

/** How close a stored variance must be to ImageNet's standard deviations to count as them. */
const STDDEV_TOLERANCE = 1e-4;

/**
 * Whether a Keras EfficientNet (V1) file was saved from a model with the extra `rescaling_1` layer Keras
 * adds only for `weights="imagenet"` (tensorflow/tensorflow#49930); a model built with `weights=None`
 * lacks it, and adding it would change every output. Decided by the layer names the file lists; a file
 * that does not list its weightless layers (a nested model in a tf_keras `.h5`) by its Normalization
 * variance, which holds ImageNet's standard deviations exactly when Keras adds that layer for them.
 */
export function savedWithImagenetLayout(source: WeightSource): boolean {
  const names = source.layerNames ?? [];
  if (names.includes('rescaling')) return names.includes('rescaling_1');
  const variance = source.layers.find((l) => l.name === 'normalization')?.weights[1];
  if (variance === undefined || variance.shape.join() !== '3') return false;
  const values = variance.read();
  return IMAGENET_STDDEV_RGB.every((s, i) => Math.abs((values[i] ?? 0) - s) <= STDDEV_TOLERANCE);
}
