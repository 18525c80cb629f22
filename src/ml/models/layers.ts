import * as tf from '@tensorflow/tfjs';
import type { BatchNormalization } from '@tensorflow/tfjs-layers/dist/layers/normalization';

type BatchNormalizationArgs = NonNullable<Parameters<typeof tf.layers.batchNormalization>[0]>;
type CallArgs = Parameters<BatchNormalization['call']>;

// tfjs registers its BatchNormalization class for deserialisation but does not export it by name.
const registered = tf.serialization.SerializationMap.getMap().classNameMap['BatchNormalization']?.[0];
if (registered === undefined) throw new Error('tfjs did not register BatchNormalization');
const BatchNormalizationBase = registered as unknown as typeof BatchNormalization;

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
