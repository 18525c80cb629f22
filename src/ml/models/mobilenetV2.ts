import * as tf from '@tensorflow/tfjs';
import {
  bn,
  conv2d,
  depthwise,
  on,
  relu6,
  zeroPad,
  type Architecture,
  type Initializers,
  type Sym,
} from './graph';

// [filters, repeats, expansion, first stride] per stage, as in Keras' MobileNetV2 block_id 0–16.
const STAGES: readonly [number, number, number, 1 | 2][] = [
  [16, 1, 1, 1],
  [24, 2, 6, 2],
  [32, 3, 6, 2],
  [64, 4, 6, 2],
  [96, 3, 6, 1],
  [160, 3, 6, 2],
  [320, 1, 6, 1],
];
const STEM_FILTERS = 32;
const LAST_FILTERS = 1280;
const BN_MOMENTUM = 0.999;

/**
 * What keras.applications.mobilenet_v2.preprocess_input does outside the model: pixels in [0, 255] to
 * [-1, 1], x / 127.5 - 1. Keras' MobileNetV2 has no preprocessing layer; with includePreprocessing the lab
 * adds this as a Rescaling layer named 'rescaling' (no weights, so Keras weight files still match).
 */
export const MOBILENET_V2_PREPROCESSING = { scale: 1 / 127.5, offset: -1 } as const;

/** Keras' _inverted_res_block with alpha 1.0 (every filter count is already a multiple of 8). */
function invertedResidual(
  inputs: Sym,
  filters: number,
  expansion: number,
  stride: 1 | 2,
  blockId: number,
  init: Initializers,
): Sym {
  const inChannels = inputs.shape[3] as number;
  let x = inputs;
  let prefix = 'expanded_conv_';
  if (blockId > 0) {
    prefix = `block_${blockId}_`;
    x = conv2d(x, `${prefix}expand`, expansion * inChannels, init.glorot());
    x = relu6(bn(x, `${prefix}expand_BN`, BN_MOMENTUM), `${prefix}expand_relu`);
  }
  if (stride === 2) x = zeroPad(x, 3, `${prefix}pad`);
  x = depthwise(x, `${prefix}depthwise`, 3, stride, stride === 1 ? 'same' : 'valid', init.glorot());
  x = relu6(bn(x, `${prefix}depthwise_BN`, BN_MOMENTUM), `${prefix}depthwise_relu`);
  x = conv2d(x, `${prefix}project`, filters, init.glorot());
  x = bn(x, `${prefix}project_BN`, BN_MOMENTUM);
  if (inChannels === filters && stride === 1) return on(tf.layers.add({ name: `${prefix}add` }), [inputs, x]);
  return x;
}

/** keras.applications.mobilenet_v2.MobileNetV2 with alpha 1.0. */
export function mobileNetV2(rows: number): Architecture {
  return {
    modelName: `mobilenetv2_1.00_${rows}`,
    features: (input, { includePreprocessing, inputScale, init }) => {
      let x = input;
      if (includePreprocessing) {
        x = on(tf.layers.rescaling({ ...(inputScale ?? MOBILENET_V2_PREPROCESSING), name: 'rescaling' }), x);
      }
      x = conv2d(x, 'Conv1', STEM_FILTERS, init.glorot(), { kernelSize: 3, strides: 2 });
      x = relu6(bn(x, 'bn_Conv1', BN_MOMENTUM), 'Conv1_relu');
      let blockId = 0;
      for (const [filters, repeats, expansion, stride] of STAGES) {
        for (let j = 0; j < repeats; j++) {
          x = invertedResidual(x, filters, expansion, j === 0 ? stride : 1, blockId, init);
          blockId++;
        }
      }
      x = conv2d(x, 'Conv_1', LAST_FILTERS, init.glorot());
      return relu6(bn(x, 'Conv_1_bn', BN_MOMENTUM), 'out_relu');
    },
    top: (x, numClasses, init) => {
      // Keras leaves the pooling layer unnamed, so it gets its class's default name.
      const pooled = on(tf.layers.globalAveragePooling2d({ name: 'global_average_pooling2d' }), x);
      return on(
        tf.layers.dense({
          units: numClasses,
          activation: 'softmax',
          kernelInitializer: init.glorot(),
          name: 'predictions',
        }),
        pooled,
      );
    },
  };
}
