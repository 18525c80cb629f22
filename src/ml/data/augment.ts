import * as tf from '@tensorflow/tfjs';
import type { AugmentConfig } from '../../core/config';
import type { Rng } from '../../core/rng';

// Every op takes one [H, W, 3] float32 image in 0–255 pixel units and returns a new tensor;
// the caller keeps ownership of the input.

/** TF2 tf.image.resize (bilinear): half-pixel centres, no corner alignment. */
export function resizeBilinear(img: tf.Tensor3D, height: number, width: number): tf.Tensor3D {
  return tf.image.resizeBilinear(img, [height, width], false, true);
}

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
 * Random flip → brightness → contrast. All three values are drawn on every call, in that order,
 * whatever is enabled, so one image's draws never shift the next image's.
 */
export function augment(img: tf.Tensor3D, cfg: AugmentConfig, rng: Rng): tf.Tensor3D {
  const flip = rng.next() < 0.5;
  const delta = rng.uniform(-cfg.brightnessMaxDelta, cfg.brightnessMaxDelta);
  const factor = rng.uniform(cfg.contrastRange[0], cfg.contrastRange[1]);
  return tf.tidy(() => {
    // clone() so the result is always a fresh tensor the caller can dispose, even with everything off.
    let out = tf.clone(img);
    if (cfg.flip && flip) out = flipLeftRight(out);
    if (cfg.brightnessMaxDelta > 0) out = adjustBrightness(out, delta);
    if (cfg.contrastRange[0] !== 1 || cfg.contrastRange[1] !== 1) out = adjustContrast(out, factor);
    return out;
  });
}
