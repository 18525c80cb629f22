import { z } from 'zod';
import { flag, messages, shown } from '../schemaFields';

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

/** Augmentation as the settings schema checks it (see core/settings/schema). */
export const augmentSchema = z.object({
  flip: flag('Random flip'),
  brightnessMaxDelta: z.number({ error: brightnessError }).refine((v) => v >= 0, { error: brightnessError }),
  contrastRange: z
    .custom<[number, number]>(
      (v) => Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number'),
      {
        error: (iss) => `Contrast range must be two numbers [lower, upper] (got ${shown(iss.input)}).`,
      },
    )
    .superRefine(([lower, upper], ctx) => {
      const problem = (message: string) => ctx.addIssue({ code: 'custom', message, input: [lower, upper] });
      if (!Number.isFinite(lower) || !Number.isFinite(upper)) {
        problem(`Contrast range bounds must be finite numbers (got [${lower}, ${upper}]).`);
        return;
      }
      if (lower < 0) problem(`Contrast lower bound must be ≥ 0 (got ${lower}).`);
      if (lower > upper) problem(`Contrast lower bound ${lower} is above the upper bound ${upper}.`);
    }),
}) satisfies z.ZodType<AugmentConfig>;

function brightnessError(iss: { input?: unknown }): string {
  return `Brightness max delta must be a number ≥ 0 (got ${String(iss.input)}).`;
}

/** Human-readable problems with c; empty when c is valid. */
export function validateAugment(c: AugmentConfig): string[] {
  return messages(augmentSchema.safeParse(c));
}
