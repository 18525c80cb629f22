import * as tf from '@tensorflow/tfjs';

/** Keras clips probabilities to [ε, 1−ε] before the log so a confident wrong answer costs a finite loss. */
const EPSILON = 1e-7;

/**
 * Mean sparse categorical cross-entropy of softmax outputs, as Keras computes it for
 * `loss='sparse_categorical_crossentropy'` on a model ending in softmax.
 */
export function sparseCategoricalCrossentropy(labels: tf.Tensor1D, probs: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => {
    const oneHot = tf.oneHot(tf.cast(labels, 'int32'), probs.shape[1]);
    const clipped = tf.clipByValue(probs, EPSILON, 1 - EPSILON);
    return tf.neg(tf.mean(tf.sum(tf.mul(oneHot, tf.log(clipped)), -1))) as tf.Scalar;
  });
}

/** Share of rows whose arg-max equals the label (Keras' sparse_categorical_accuracy). */
export function sparseAccuracy(labels: tf.Tensor1D, probs: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => tf.mean(tf.cast(tf.equal(tf.argMax(probs, -1), tf.cast(labels, 'int32')), 'float32')));
}
