import * as tf from '@tensorflow/tfjs';
import type { AugmentConfig } from '../../core/data/augment';
import { drawAugment } from '../../core/data/pixels';
import type { Rng } from '../../core/data/rng';

// Every op takes one [H, W, 3] float32 image in 0–255 pixel units and returns a new tensor;
// the caller keeps ownership of the input. Resizing is not here: it always runs on the host, before
// the image is a tensor (core/data/pixels resizeBilinearRgb, see ml/data/pipeline).

/** tf.image.adjust_brightness on a float image: adds delta, no clipping. */
export function adjustBrightness(img: tf.Tensor3D, delta: number): tf.Tensor3D {
  return tf.add(img, delta);
}

/** tf.image.adjust_contrast: (x − mean)·factor + mean, mean over H and W per channel, no clipping. */
export function adjustContrast(img: tf.Tensor3D, factor: number): tf.Tensor3D {
  return tf.tidy(() => {
    const mean = tf.mean(img, [0, 1], true);
    return tf.add(tf.mul(tf.sub(img, mean), factor), mean);
  });
}

/** tf.image.flip_left_right: reverses the width axis. */
export function flipLeftRight(img: tf.Tensor3D): tf.Tensor3D {
  return tf.reverse(img, 1);
}

/**
 * Random flip → brightness → contrast, drawn by drawAugment (the same draws as the pixel path's).
 * Returns a fresh tensor the caller can dispose, even with everything off.
 */
export function augment(img: tf.Tensor3D, cfg: AugmentConfig, rng: Rng): tf.Tensor3D {
  const draw = drawAugment(cfg, rng);
  return tf.tidy(() => {
    let out = tf.clone(img);
    if (draw.flip) out = flipLeftRight(out);
    if (draw.brightnessDelta !== null) out = adjustBrightness(out, draw.brightnessDelta);
    if (draw.contrastFactor !== null) out = adjustContrast(out, draw.contrastFactor);
    return out;
  });
}
