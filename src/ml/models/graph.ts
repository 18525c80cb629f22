import * as tf from '@tensorflow/tfjs';
import { batchNorm, dropout } from './layers';

export type Sym = tf.SymbolicTensor;
type Padding = [[number, number], [number, number]];
type Initializer = ReturnType<typeof tf.initializers.ones>;

/** How kernels are filled: Keras' random initialisers (seeded), or zeros for fast shape-only builds. */
export type InitMode = 'random' | 'zeros';

export interface Initializers {
  /** Keras applications' CONV_KERNEL_INITIALIZER: VarianceScaling(2.0, 'fan_out', 'truncated_normal'). */
  conv(fanOut: number): Initializer;
  /** EfficientNet's DENSE_KERNEL_INITIALIZER: VarianceScaling(1/3, 'fan_out', 'uniform'). */
  denseTop(): Initializer;
  /** glorot_uniform, the Keras default kernel initialiser of Conv2D, DepthwiseConv2D and Dense. */
  glorot(): Initializer;
}

// Stddev of a unit normal truncated at ±2σ; Keras divides by it so truncation keeps the intended variance.
const TRUNCATED_NORMAL_STDDEV = 0.8796256610342398;

/** Kernel initialisers; with a seed, each successive kernel gets the next seed so builds are reproducible. */
export function initializers(seed: number | undefined, mode: InitMode = 'random'): Initializers {
  if (mode === 'zeros') {
    const zeros = (): Initializer => tf.initializers.zeros();
    return { conv: zeros, denseTop: zeros, glorot: zeros };
  }
  let next = seed;
  const nextSeed = (): number | undefined => (next === undefined ? undefined : next++);
  return {
    // tfjs' varianceScaling accepts 'truncatedNormal' but silently samples a uniform distribution, so the
    // truncated normal is built here.
    conv: (fanOut) =>
      tf.initializers.truncatedNormal({
        stddev: Math.sqrt(2 / fanOut) / TRUNCATED_NORMAL_STDDEV,
        seed: nextSeed(),
      }),
    denseTop: () =>
      tf.initializers.varianceScaling({
        scale: 1 / 3,
        mode: 'fanOut',
        distribution: 'uniform',
        seed: nextSeed(),
      }),
    glorot: () => tf.initializers.glorotUniform({ seed: nextSeed() }),
  };
}

export function on(layer: tf.layers.Layer, x: Sym | Sym[]): Sym {
  return layer.apply(x) as Sym;
}

/** Keras' imagenet_utils.correct_pad: TF-style 'same' padding for a strided 'valid' conv. */
export function correctPad(x: Sym, kernelSize: number): Padding {
  const half = Math.floor(kernelSize / 2);
  const side = (size: number | null | undefined): [number, number] => [
    half - (size == null ? 1 : 1 - (size % 2)),
    half,
  ];
  return [side(x.shape[1]), side(x.shape[2])];
}

export function zeroPad(x: Sym, kernelSize: number, name: string): Sym {
  return on(tf.layers.zeroPadding2d({ padding: correctPad(x, kernelSize), name }), x);
}

export interface ConvOptions {
  kernelSize?: number;
  strides?: number;
  padding?: 'same' | 'valid';
  activation?: 'swish' | 'sigmoid';
  useBias?: boolean;
}

export function conv2d(
  x: Sym,
  name: string,
  filters: number,
  kernelInitializer: Initializer,
  opts: ConvOptions = {},
): Sym {
  const { kernelSize = 1, strides = 1, padding = 'same', activation, useBias = false } = opts;
  return on(
    tf.layers.conv2d({ filters, kernelSize, strides, padding, activation, useBias, kernelInitializer, name }),
    x,
  );
}

export function depthwise(
  x: Sym,
  name: string,
  kernelSize: number,
  strides: number,
  padding: 'same' | 'valid',
  depthwiseInitializer: Initializer,
): Sym {
  return on(
    tf.layers.depthwiseConv2d({ kernelSize, strides, padding, useBias: false, depthwiseInitializer, name }),
    x,
  );
}

/** Keras BatchNormalization (epsilon 1e-3 in every application here); frozen, it runs in inference mode. */
export function bn(x: Sym, name: string, momentum: number): Sym {
  return on(batchNorm({ axis: -1, momentum, epsilon: 1e-3, name }), x);
}

/** Keras' ReLU(max_value=6), MobileNetV2's and EfficientNet-Lite's activation. */
export function relu6(x: Sym, name: string): Sym {
  return on(tf.layers.reLU({ maxValue: 6, name }), x);
}

export function swish(x: Sym, name: string): Sym {
  return on(tf.layers.activation({ activation: 'swish', name }), x);
}

/** Keras' squeeze-and-excitation on an EfficientNet block, reduced from the block's input filters. */
export function squeezeExcite(
  x: Sym,
  filtersIn: number,
  seRatio: number,
  filters: number,
  prefix: string,
  init: Initializers,
): Sym {
  const filtersSe = Math.max(1, Math.trunc(filtersIn * seRatio));
  let se = on(tf.layers.globalAveragePooling2d({ name: `${prefix}se_squeeze` }), x);
  se = on(tf.layers.reshape({ targetShape: [1, 1, filters], name: `${prefix}se_reshape` }), se);
  se = conv2d(se, `${prefix}se_reduce`, filtersSe, init.conv(filtersSe), {
    activation: 'swish',
    useBias: true,
  });
  se = conv2d(se, `${prefix}se_expand`, filters, init.conv(filters), {
    activation: 'sigmoid',
    useBias: true,
  });
  return on(tf.layers.multiply({ name: `${prefix}se_excite` }), [x, se]);
}

/** Stochastic depth: Keras' Dropout with noise_shape (None, 1, 1, 1) drops a whole residual branch per sample. */
export function dropBranch(x: Sym, rate: number, name: string): Sym {
  return on(dropout({ rate, noiseShape: [null, 1, 1, 1], name }), x);
}

/** The Keras include_top classifier of EfficientNet V1 and V2: avg_pool, top_dropout, predictions. */
export function efficientNetTop(x: Sym, dropoutRate: number, numClasses: number, init: Initializers): Sym {
  let y = on(tf.layers.globalAveragePooling2d({ name: 'avg_pool' }), x);
  if (dropoutRate > 0) y = on(tf.layers.dropout({ rate: dropoutRate, name: 'top_dropout' }), y);
  return on(
    tf.layers.dense({
      units: numClasses,
      activation: 'softmax',
      kernelInitializer: init.denseTop(),
      name: 'predictions',
    }),
    y,
  );
}

/** Options every architecture's feature extractor takes. */
export interface FeatureOptions {
  /** Keras' preprocessing layers at the bottom of the network (include_preprocessing). */
  includePreprocessing: boolean;
  /**
   * Build the layout Keras builds for weights='imagenet' rather than weights=None. Only EfficientNet V1
   * differs: it adds a Rescaling that corrects the Normalization variance stored in the imagenet files.
   */
  imagenetLayout: boolean;
  /**
   * MobileNetV2 only: the preprocessing Rescaling's scale and offset, for weights trained on another
   * pixel range than Keras' [-1, 1] (the packaged nsfwjs weights expect [0, 1]).
   */
  inputScale?: { scale: number; offset: number };
  init: Initializers;
}

/** One keras.applications architecture, split where include_top splits it. */
export interface Architecture {
  /** Keras' model name, e.g. 'efficientnetb0'. */
  modelName: string;
  /** From the input image to the last feature map (Keras include_top=False, pooling=None). */
  features(input: Sym, opts: FeatureOptions): Sym;
  /** Keras' include_top classifier on the last feature map. */
  top(x: Sym, numClasses: number, init: Initializers): Sym;
}
