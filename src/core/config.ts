/** Random augmentations applied to training images, mirroring tf.image's random_* ops. */
export interface AugmentConfig {
  /** Random left-right flip with probability 0.5. */
  flip: boolean;
  /** Max brightness delta, in pixel units of the 0–255 image (tf.image.random_brightness adds delta ∈ [−max, max]). 0 = off. */
  brightnessMaxDelta: number;
  /** Contrast factor range [lower, upper] as tf.image.random_contrast; [1,1] = off. */
  contrastRange: [number, number];
}

/** The seed script's values; note a 0.5 delta on a 0–255 image is a barely visible change. */
export const DEFAULT_AUGMENT: AugmentConfig = {
  flip: true,
  brightnessMaxDelta: 0.5,
  contrastRange: [0.5, 1.5],
};

/** Augmentation that changes no pixel. */
export const NO_AUGMENT: AugmentConfig = { flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] };

/** Whether c changes no pixel: no flip, no brightness change, contrast fixed at 1. */
export function augmentIsOff(c: AugmentConfig): boolean {
  return !c.flip && c.brightnessMaxDelta === 0 && c.contrastRange[0] === 1 && c.contrastRange[1] === 1;
}

/** Human-readable problems with c; empty when c is valid. */
export function validateAugment(c: AugmentConfig): string[] {
  const problems: string[] = [];
  if (!Number.isFinite(c.brightnessMaxDelta) || c.brightnessMaxDelta < 0) {
    problems.push(`Brightness max delta must be a number ≥ 0 (got ${c.brightnessMaxDelta}).`);
  }
  const [lower, upper] = c.contrastRange;
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) {
    problems.push(`Contrast range bounds must be finite numbers (got [${lower}, ${upper}]).`);
  } else {
    if (lower < 0) problems.push(`Contrast lower bound must be ≥ 0 (got ${lower}).`);
    if (lower > upper) problems.push(`Contrast lower bound ${lower} is above the upper bound ${upper}.`);
  }
  return problems;
}
