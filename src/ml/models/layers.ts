import * as tf from '@tensorflow/tfjs';
import type { DropoutLayerArgs } from '@tensorflow/tfjs-layers/dist/layers/core';
import type { BatchNormalization } from '@tensorflow/tfjs-layers/dist/layers/normalization';
import type { RescalingArgs } from '@tensorflow/tfjs-layers/dist/layers/preprocessing/image_preprocessing';

type BatchNormalizationArgs = NonNullable<Parameters<typeof tf.layers.batchNormalization>[0]>;
type CallArgs = Parameters<BatchNormalization['call']>;

/** Rescaling args as Keras takes them: one scale, or one per channel. */
export type ChannelRescalingArgs = Omit<RescalingArgs, 'scale'> & { scale: number | number[] };

/** Dropout args with Keras' noise_shape, whose null entries (Keras' None) take the input's size. */
export type NoiseShapeDropoutArgs = Omit<DropoutLayerArgs, 'noiseShape'> & { noiseShape?: (number | null)[] };

/**
 * The class tfjs registered under `className` for deserialisation: tfjs exports few layer classes by
 * name, and a deep import of tfjs-layers could load a second copy of the library in Node.
 */
function registeredClass(className: string): unknown {
  const entry = tf.serialization.SerializationMap.getMap().classNameMap[className]?.[0];
  if (entry === undefined) throw new Error(`tfjs did not register ${className}`);
  return entry;
}

/** Whether `c` is a class and `sample` (built by tfjs' own factory) one of its instances. */
function classOf(c: unknown, sample: tf.layers.Layer): c is abstract new (...args: never[]) => unknown {
  return typeof c === 'function' && sample instanceof c;
}

const isBatchNormalizationClass = (c: unknown): c is typeof BatchNormalization =>
  classOf(c, tf.layers.batchNormalization({}));

// tfjs' Rescaling computes tf.mul(inputs, scale), which broadcasts a per-channel array over the last
// axis; only its args type says number.
const isRescalingClass = (c: unknown): c is new (args: ChannelRescalingArgs) => tf.layers.Layer =>
  classOf(c, tf.layers.rescaling({ scale: 1 }));

// tfjs' Dropout replaces each null of noiseShape with the input's size on every call; only its args
// type omits the null.
const isDropoutClass = (c: unknown): c is new (args: NoiseShapeDropoutArgs) => tf.layers.Layer =>
  classOf(c, tf.layers.dropout({ rate: 0 }));

function registered<C>(className: string, is: (c: unknown) => c is C): C {
  const c = registeredClass(className);
  if (!is(c)) throw new Error(`tfjs registered another class than its own ${className}`);
  return c;
}

const BatchNormalizationBase = registered('BatchNormalization', isBatchNormalizationClass);
const RescalingClass = registered('Rescaling', isRescalingClass);
const DropoutClass = registered('Dropout', isDropoutClass);

/**
 * BatchNormalization with Keras 2/3 semantics: a frozen (trainable = false) layer always runs in inference
 * mode, so fine-tuning with a frozen backbone neither uses batch statistics nor drifts the moving averages.
 */
export class KerasBatchNormalization extends BatchNormalizationBase {
  static override className = 'KerasBatchNormalization';

  override call(inputs: CallArgs[0], kwargs: CallArgs[1]): ReturnType<BatchNormalization['call']> {
    // tfjs ignores `trainable` here and would update the moving statistics whenever training is true.
    return super.call(inputs, this.trainable ? kwargs : { ...kwargs, training: false });
  }
}
tf.serialization.registerClass(KerasBatchNormalization);

export function batchNorm(config: BatchNormalizationArgs): KerasBatchNormalization {
  return new KerasBatchNormalization(config);
}

/** tfjs' Rescaling layer, also with one scale per channel as Keras allows. */
export function rescaling(args: ChannelRescalingArgs): tf.layers.Layer {
  return new RescalingClass(args);
}

/** tfjs' Dropout layer, also with Keras' None (null) entries in noiseShape. */
export function dropout(args: NoiseShapeDropoutArgs): tf.layers.Layer {
  return new DropoutClass(args);
}
