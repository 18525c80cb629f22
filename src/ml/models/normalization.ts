import * as tf from '@tensorflow/tfjs';
import type { LayerArgs } from '@tensorflow/tfjs-layers/dist/engine/topology';
import type { LayerVariable } from '@tensorflow/tfjs-layers/dist/variables';

type Values = number | number[];

export interface NormalizationArgs extends LayerArgs {
  /** Axes that keep their own mean and variance (Keras default -1); null normalises with one scalar. */
  axis?: number | number[] | null;
  /** Fixed mean; when given (with variance) the layer has no weights, as in Keras. */
  mean?: Values | null;
  /** Fixed variance, the same shape as mean. */
  variance?: Values | null;
  /** Map normalised values back to the original scale. */
  invert?: boolean;
}

// keras.backend.epsilon(): the floor under the standard deviation.
const EPSILON = 1e-7;

/**
 * Keras' `Normalization` preprocessing layer, which tfjs 4.22 lacks (tfjs issue 7639):
 * `(x - mean) / max(sqrt(variance), 1e-7)`. Without a fixed mean and variance it owns three non-trainable
 * weights named like Keras' — `mean`, `variance` (shaped like the kept axes) and the scalar `count` — so
 * weights saved from Keras (where `adapt` filled them) load by name and shape.
 */
export class Normalization extends tf.layers.Layer {
  static className = 'Normalization';
  private readonly axis: number[];
  private readonly fixedMean: Values | null;
  private readonly fixedVariance: Values | null;
  private readonly invert: boolean;
  private broadcastShape: number[] = [];
  private adaptMean: LayerVariable | null = null;
  private adaptVariance: LayerVariable | null = null;

  constructor(args: NormalizationArgs = {}) {
    super(args);
    const { axis = -1, mean = null, variance = null, invert = false } = args;
    this.axis = axis === null ? [] : typeof axis === 'number' ? [axis] : [...axis];
    if ((mean === null) !== (variance === null)) {
      throw new Error(`Normalization '${this.name}': set both mean and variance, or neither.`);
    }
    this.fixedMean = mean;
    this.fixedVariance = variance;
    this.invert = invert;
  }

  override build(inputShape: tf.Shape | tf.Shape[]): void {
    const shape = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tf.Shape;
    const rank = shape.length;
    const keep = this.axis.map((a) => (a < 0 ? a + rank : a));
    keep.forEach((a) => {
      if (a < 0 || a >= rank || shape[a] == null) {
        throw new Error(
          `Normalization '${this.name}': axis ${a} is not a known axis of [${shape.join(', ')}].`,
        );
      }
    });
    this.broadcastShape = shape.map((d, i) => (keep.includes(i) ? (d as number) : 1));
    if (this.fixedMean === null) {
      const kept = [...keep].sort((a, b) => a - b).map((a) => shape[a] as number);
      const zeros = tf.initializers.zeros();
      const ones = tf.initializers.ones();
      this.adaptMean = this.addWeight('mean', kept, 'float32', zeros, undefined, false);
      this.adaptVariance = this.addWeight('variance', kept, 'float32', ones, undefined, false);
      // Keras keeps an int64 sample count for older saved models; tfjs holds integers as int32.
      this.addWeight('count', [], 'int32', zeros, undefined, false);
    }
    this.built = true;
  }

  override computeOutputShape(inputShape: tf.Shape | tf.Shape[]): tf.Shape | tf.Shape[] {
    return inputShape;
  }

  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor {
    return tf.tidy(() => {
      const x = (Array.isArray(inputs) ? inputs[0] : inputs) as tf.Tensor;
      const mean = this.statistic(this.fixedMean, this.adaptMean);
      const std = tf.maximum(tf.sqrt(this.statistic(this.fixedVariance, this.adaptVariance)), EPSILON);
      const xs = tf.cast(x, 'float32');
      return this.invert ? tf.add(mean, tf.mul(xs, std)) : tf.div(tf.sub(xs, mean), std);
    });
  }

  private statistic(fixed: Values | null, weight: LayerVariable | null): tf.Tensor {
    const values = fixed === null ? (weight as LayerVariable).read() : tf.tensor(fixed);
    // A single value broadcasts as a scalar; otherwise one value per position of the kept axes.
    return values.reshape(values.size === 1 ? [] : this.broadcastShape);
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      axis: this.axis,
      mean: this.fixedMean,
      variance: this.fixedVariance,
      invert: this.invert,
    };
  }
}
tf.serialization.registerClass(Normalization);
