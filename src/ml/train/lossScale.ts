import * as tf from '@tensorflow/tfjs';

/**
 * Dynamic loss scaling, as Keras' LossScaleOptimizer does it for mixed precision: the loss is
 * multiplied by a scale S before the backward pass, so small gradients survive a low-precision format
 * instead of rounding to zero, and the gradients are divided by S before the update. When any gradient
 * is not finite (S made it overflow), the update is skipped and S halved; after `growthInterval` finite
 * steps in a row, S is doubled. In float32 the scaled step equals the plain one up to rounding: S is a
 * power of two, so multiplying and dividing by it is exact unless a value overflows or underflows.
 */
export interface LossScaleOptions {
  /** Keras' default: 2^15. */ initialScale: number;
  /** Finite steps in a row before the scale doubles; Keras' default: 2000. */ growthInterval: number;
  /** The scale never grows past this. */ maxScale: number;
  /** The scale never falls below this; Keras stops halving at 1. */ minScale: number;
}

export const DEFAULT_LOSS_SCALE_OPTIONS: LossScaleOptions = {
  initialScale: 2 ** 15,
  growthInterval: 2000,
  maxScale: 2 ** 24,
  minScale: 1,
};

/** What one step did with the loss scale. */
export interface LossScaleState {
  /** The scale this step's loss was multiplied by. */ scale: number;
  /** The scale the next step will use (halved after a skip, doubled after growthInterval good steps). */
  nextScale: number;
  /** Whether this step's update was skipped because a gradient was not finite. */ skipped: boolean;
  /** Updates skipped since the scale was created. */ skippedSteps: number;
}

/** Unscaled gradients and whether every entry of every one is finite. */
export interface UnscaledGradients {
  grads: tf.NamedTensorMap;
  finite: boolean;
}

export class DynamicLossScale {
  readonly options: LossScaleOptions;
  private current: number;
  private goodSteps = 0;
  private skippedSteps = 0;

  constructor(options: Partial<LossScaleOptions> = {}) {
    this.options = { ...DEFAULT_LOSS_SCALE_OPTIONS, ...options };
    const { initialScale, growthInterval, maxScale, minScale } = this.options;
    if (!(minScale > 0 && minScale <= initialScale && initialScale <= maxScale)) {
      throw new Error('Loss scale options need 0 < minScale ≤ initialScale ≤ maxScale.');
    }
    if (!(Number.isInteger(growthInterval) && growthInterval >= 1)) {
      throw new Error('growthInterval must be a whole number of steps, at least 1.');
    }
    this.current = initialScale;
  }

  /** The scale the next step's loss is multiplied by. */
  get scale(): number {
    return this.current;
  }

  /** loss × S, a new tensor (the caller's loss is left alone). */
  scaleLoss(loss: tf.Scalar): tf.Scalar {
    return tf.tidy(() => tf.mul(loss, this.current));
  }

  /**
   * Each gradient ÷ S, and whether all of them are finite (one read from the device). Takes ownership
   * of `grads` (they are disposed); the returned gradients are the caller's.
   */
  async unscale(grads: tf.NamedTensorMap): Promise<UnscaledGradients> {
    const names = Object.keys(grads);
    let unscaled: tf.Tensor[] = [];
    let finite: tf.Tensor | null = null;
    try {
      const out = tf.tidy(() => {
        const inverse = tf.scalar(1 / this.current);
        const gs = names.map((name) => tf.mul(grads[name]!, inverse));
        const ok = gs.reduce<tf.Tensor>(
          (all, g) => tf.logicalAnd(all, tf.all(tf.isFinite(g))),
          tf.scalar(true, 'bool'),
        );
        return { gs, ok };
      });
      unscaled = out.gs;
      finite = out.ok;
      tf.dispose(Object.values(grads));
      const flag = await finite.data();
      const result = Object.fromEntries(names.map((name, i) => [name, unscaled[i]!]));
      unscaled = [];
      return { grads: result, finite: flag[0] === 1 };
    } finally {
      tf.dispose([...Object.values(grads), ...unscaled]);
      finite?.dispose();
    }
  }

  /** Records a step's outcome and moves the scale: halve after a non-finite step, double after a run of finite ones. */
  update(finite: boolean): LossScaleState {
    const scale = this.current;
    if (finite) {
      this.goodSteps++;
      if (this.goodSteps >= this.options.growthInterval) {
        this.current = Math.min(this.options.maxScale, scale * 2);
        this.goodSteps = 0;
      }
    } else {
      this.skippedSteps++;
      this.goodSteps = 0;
      this.current = Math.max(this.options.minScale, scale / 2);
    }
    return { scale, nextScale: this.current, skipped: !finite, skippedSteps: this.skippedSteps };
  }
}
