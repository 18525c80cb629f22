import * as tf from '@tensorflow/tfjs';
import {
  bn,
  conv2d,
  depthwise,
  dropBranch,
  efficientNetTop,
  initializers,
  on,
  relu6,
  squeezeExcite,
  swish,
  zeroPad,
  type Architecture,
  type FeatureOptions,
  type Initializers,
  type Sym,
} from './graph';
import { attachHead, type Classifier } from './head';
import { rescaling } from './layers';
import { Normalization } from './normalization';

/** One member of keras.applications.efficientnet, by its scaling coefficients. */
export interface EfficientNetVariant {
  /** Display name, e.g. 'EfficientNet-B0'. */
  name: string;
  /** Width multiplier (channels), 1.0 for B0. */
  widthCoefficient: number;
  /** Depth multiplier (block repeats), 1.0 for B0. */
  depthCoefficient: number;
  /** Keras' default input size (square). */
  defaultSize: number;
  /** Rate of Keras' `top_dropout` before the classifier. */
  dropoutRate: number;
  /**
   * EfficientNet-Lite (Google's TPU/mobile variant): ReLU6 for swish, no squeeze-and-excitation, and the
   * pixel scaling its ImageNet weights expect. At width and depth 1.0 its stem and head are B0's.
   */
  lite?: boolean;
}

export type EfficientNetId = 'b0' | 'b1' | 'b2' | 'b3' | 'b4' | 'b5' | 'b6' | 'b7' | 'tiny' | 'lite0';

/** Keras' EfficientNetB0…B7 arguments, plus the lab's ¼-width, ¼-depth Tiny. */
export const EFFICIENTNET_VARIANTS: Record<EfficientNetId, EfficientNetVariant> = {
  b0: {
    name: 'EfficientNet-B0',
    widthCoefficient: 1.0,
    depthCoefficient: 1.0,
    defaultSize: 224,
    dropoutRate: 0.2,
  },
  b1: {
    name: 'EfficientNet-B1',
    widthCoefficient: 1.0,
    depthCoefficient: 1.1,
    defaultSize: 240,
    dropoutRate: 0.2,
  },
  b2: {
    name: 'EfficientNet-B2',
    widthCoefficient: 1.1,
    depthCoefficient: 1.2,
    defaultSize: 260,
    dropoutRate: 0.3,
  },
  b3: {
    name: 'EfficientNet-B3',
    widthCoefficient: 1.2,
    depthCoefficient: 1.4,
    defaultSize: 300,
    dropoutRate: 0.3,
  },
  b4: {
    name: 'EfficientNet-B4',
    widthCoefficient: 1.4,
    depthCoefficient: 1.8,
    defaultSize: 380,
    dropoutRate: 0.4,
  },
  b5: {
    name: 'EfficientNet-B5',
    widthCoefficient: 1.6,
    depthCoefficient: 2.2,
    defaultSize: 456,
    dropoutRate: 0.4,
  },
  b6: {
    name: 'EfficientNet-B6',
    widthCoefficient: 1.8,
    depthCoefficient: 2.6,
    defaultSize: 528,
    dropoutRate: 0.5,
  },
  b7: {
    name: 'EfficientNet-B7',
    widthCoefficient: 2.0,
    depthCoefficient: 3.1,
    defaultSize: 600,
    dropoutRate: 0.5,
  },
  // Rounding keeps every stage with one block each: the full topology at a size SwiftShader can train.
  tiny: {
    name: 'EfficientNet-Tiny',
    widthCoefficient: 0.25,
    depthCoefficient: 0.25,
    defaultSize: 64,
    dropoutRate: 0.2,
  },
  lite0: {
    name: 'EfficientNet-Lite0',
    widthCoefficient: 1.0,
    depthCoefficient: 1.0,
    defaultSize: 224,
    dropoutRate: 0.2,
    lite: true,
  },
};

/**
 * What EfficientNet-Lite's ImageNet weights expect: (pixel − 127) / 128 on pixels in [0, 255], the mean
 * and stddev of the TensorFlow reference (tensorflow/tpu lite/efficientnet_lite_builder.py: 127.0 and
 * 128.0 per channel). The interop test checks it against the stem BatchNorm's moving mean.
 */
export const EFFICIENTNET_LITE_PREPROCESSING = { scale: 1 / 128, offset: -127 / 128 } as const;

export interface EfficientNetConfig {
  /** Display name, e.g. 'EfficientNet-B0'. */
  name: string;
  /** Width multiplier (channels), 1.0 for B0. */
  widthCoefficient: number;
  /** Depth multiplier (block repeats), 1.0 for B0. */
  depthCoefficient: number;
  /** Input height in pixels. */
  height: number;
  /** Input width in pixels. */
  width: number;
  /** Number of output classes for the seed head. */
  numClasses: number;
  /** Drop-connect rate of the last block (Keras default 0.2). */
  dropConnectRate?: number;
  /** Optional seed for weight initialisers so builds are reproducible. */
  seed?: number;
}

const preset = ({ name, widthCoefficient, depthCoefficient }: EfficientNetVariant) => ({
  name,
  widthCoefficient,
  depthCoefficient,
});

/** The presets `src/browser/engine.ts` spreads into an EfficientNetConfig. */
export const EFFICIENTNET_PRESETS: Record<
  'b0' | 'tiny',
  Omit<EfficientNetConfig, 'height' | 'width' | 'numClasses'>
> = {
  b0: preset(EFFICIENTNET_VARIANTS.b0),
  tiny: preset(EFFICIENTNET_VARIANTS.tiny),
};

interface BlockArgs {
  kernelSize: number;
  repeats: number;
  filtersIn: number;
  filtersOut: number;
  expandRatio: number;
  strides: 1 | 2;
  seRatio: number;
}

// keras.applications.efficientnet DEFAULT_BLOCKS_ARGS (every stage has id_skip).
const BLOCKS: readonly BlockArgs[] = [
  { kernelSize: 3, repeats: 1, filtersIn: 32, filtersOut: 16, expandRatio: 1, strides: 1, seRatio: 0.25 },
  { kernelSize: 3, repeats: 2, filtersIn: 16, filtersOut: 24, expandRatio: 6, strides: 2, seRatio: 0.25 },
  { kernelSize: 5, repeats: 2, filtersIn: 24, filtersOut: 40, expandRatio: 6, strides: 2, seRatio: 0.25 },
  { kernelSize: 3, repeats: 3, filtersIn: 40, filtersOut: 80, expandRatio: 6, strides: 2, seRatio: 0.25 },
  { kernelSize: 5, repeats: 3, filtersIn: 80, filtersOut: 112, expandRatio: 6, strides: 1, seRatio: 0.25 },
  { kernelSize: 5, repeats: 4, filtersIn: 112, filtersOut: 192, expandRatio: 6, strides: 2, seRatio: 0.25 },
  { kernelSize: 3, repeats: 1, filtersIn: 192, filtersOut: 320, expandRatio: 6, strides: 1, seRatio: 0.25 },
];

const DEPTH_DIVISOR = 8;
const STEM_FILTERS = 32;
const TOP_FILTERS = 1280;
// Keras' BatchNormalization default; EfficientNet V1 does not override it.
const BN_MOMENTUM = 0.99;
/** ImageNet per-channel standard deviations, as Keras' EfficientNet preprocessing uses them. */
export const IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225];

/** Keras' round_filters: scale, snap to the divisor, but never lose more than 10%. */
function roundFilters(filters: number, widthCoefficient: number): number {
  const scaled = filters * widthCoefficient;
  const snapped = Math.max(
    DEPTH_DIVISOR,
    Math.floor(Math.trunc(scaled + DEPTH_DIVISOR / 2) / DEPTH_DIVISOR) * DEPTH_DIVISOR,
  );
  return snapped < 0.9 * scaled ? snapped + DEPTH_DIVISOR : snapped;
}

function roundRepeats(repeats: number, depthCoefficient: number): number {
  return Math.ceil(depthCoefficient * repeats);
}

type BlockSpec = Omit<BlockArgs, 'repeats'>;

type Activate = (x: Sym, name: string) => Sym;

/** Keras' efficientnet.block: inverted residual (MBConv) with squeeze-and-excitation (none when seRatio is 0). */
function block(
  inputs: Sym,
  spec: BlockSpec,
  dropRate: number,
  prefix: string,
  init: Initializers,
  act: Activate,
): Sym {
  const { kernelSize, strides, filtersIn, filtersOut, expandRatio, seRatio } = spec;
  const filters = filtersIn * expandRatio;
  let x = inputs;
  if (expandRatio !== 1) {
    x = conv2d(x, `${prefix}expand_conv`, filters, init.conv(filters));
    x = act(bn(x, `${prefix}expand_bn`, BN_MOMENTUM), `${prefix}expand_activation`);
  }

  let padding: 'same' | 'valid' = 'same';
  if (strides === 2) {
    x = zeroPad(x, kernelSize, `${prefix}dwconv_pad`);
    padding = 'valid';
  }
  x = depthwise(x, `${prefix}dwconv`, kernelSize, strides, padding, init.conv(kernelSize * kernelSize));
  x = act(bn(x, `${prefix}bn`, BN_MOMENTUM), `${prefix}activation`);

  if (seRatio > 0) x = squeezeExcite(x, filtersIn, seRatio, filters, prefix, init);

  x = conv2d(x, `${prefix}project_conv`, filtersOut, init.conv(filtersOut));
  x = bn(x, `${prefix}project_bn`, BN_MOMENTUM);
  if (strides === 1 && filtersIn === filtersOut) {
    if (dropRate > 0) x = dropBranch(x, dropRate, `${prefix}drop`);
    x = on(tf.layers.add({ name: `${prefix}add` }), [x, inputs]);
  }
  return x;
}

/** Keras' stem preprocessing: pixels in [0, 255] to ImageNet-normalised values. */
function preprocessing(input: Sym, imagenetLayout: boolean): Sym {
  let x = on(tf.layers.rescaling({ scale: 1 / 255, name: 'rescaling' }), input);
  x = on(new Normalization({ axis: 3, name: 'normalization' }), x);
  if (imagenetLayout) {
    // The imagenet files store the stddev where Normalization expects the variance, so Keras divides by
    // sqrt(stddev) once more (tensorflow/tensorflow#49930).
    const scale = IMAGENET_STDDEV_RGB.map((s) => 1 / Math.sqrt(s));
    x = on(rescaling({ scale, name: 'rescaling_1' }), x);
  }
  return x;
}

function stemInput(input: Sym, lite: boolean, opts: FeatureOptions): Sym {
  if (!opts.includePreprocessing) return input;
  if (!lite) return preprocessing(input, opts.imagenetLayout);
  return on(tf.layers.rescaling({ ...EFFICIENTNET_LITE_PREPROCESSING, name: 'rescaling' }), input);
}

function features(
  input: Sym,
  variant: EfficientNetVariant,
  dropConnectRate: number,
  opts: FeatureOptions,
): Sym {
  const { widthCoefficient, depthCoefficient } = variant;
  const { init } = opts;
  const lite = variant.lite === true;
  const act: Activate = lite ? relu6 : swish;
  let x = stemInput(input, lite, opts);

  x = zeroPad(x, 3, 'stem_conv_pad');
  const stemFilters = roundFilters(STEM_FILTERS, widthCoefficient);
  x = conv2d(x, 'stem_conv', stemFilters, init.conv(9 * stemFilters), {
    kernelSize: 3,
    strides: 2,
    padding: 'valid',
  });
  x = act(bn(x, 'stem_bn', BN_MOMENTUM), 'stem_activation');

  const totalBlocks = BLOCKS.reduce((sum, b) => sum + roundRepeats(b.repeats, depthCoefficient), 0);
  let index = 0;
  BLOCKS.forEach(({ repeats, ...args }, stage) => {
    const filtersIn = roundFilters(args.filtersIn, widthCoefficient);
    const filtersOut = roundFilters(args.filtersOut, widthCoefficient);
    for (let j = 0; j < roundRepeats(repeats, depthCoefficient); j++) {
      const first = { ...args, filtersIn, filtersOut, seRatio: lite ? 0 : args.seRatio };
      const spec = j === 0 ? first : { ...first, strides: 1 as const, filtersIn: filtersOut };
      const prefix = `block${stage + 1}${String.fromCharCode(97 + j)}_`;
      x = block(x, spec, (dropConnectRate * index) / totalBlocks, prefix, init, act);
      index++;
    }
  });

  const topFilters = roundFilters(TOP_FILTERS, widthCoefficient);
  x = conv2d(x, 'top_conv', topFilters, init.conv(topFilters));
  return act(bn(x, 'top_bn', BN_MOMENTUM), 'top_activation');
}

/** keras.applications.efficientnet.EfficientNet for one variant. */
export function efficientNet(
  variant: EfficientNetVariant,
  modelName: string,
  dropConnectRate = 0.2,
): Architecture {
  return {
    modelName,
    features: (input, opts) => features(input, variant, dropConnectRate, opts),
    top: (x, numClasses, init) => efficientNetTop(x, variant.dropoutRate, numClasses, init),
  };
}

/**
 * The layout `src/browser/engine.ts` and its tests were built on: Keras' B0 without the Normalization layer
 * (the identity until ImageNet weights are loaded). The registry builds the exact Keras layout.
 */
function legacy(cfg: EfficientNetConfig): { input: Sym; output: Sym; init: Initializers } {
  const init = initializers(cfg.seed);
  const variant = { ...EFFICIENTNET_VARIANTS.b0, ...cfg };
  const input = tf.input({ shape: [cfg.height, cfg.width, 3], name: 'input_layer' });
  const rescaled = on(tf.layers.rescaling({ scale: 1 / 255, name: 'rescaling' }), input);
  const opts = { includePreprocessing: false, imagenetLayout: false, init };
  const output = efficientNet(variant, 'efficientnet', cfg.dropConnectRate).features(rescaled, opts);
  return { input, output, init };
}

/** EfficientNet without its classification top (Keras include_top=False); outputs `top_activation`. */
export function buildBackbone(cfg: EfficientNetConfig): tf.LayersModel {
  const { input, output } = legacy(cfg);
  return tf.model({ inputs: input, outputs: output, name: 'efficientnet_backbone' });
}

/**
 * Backbone plus the seed's head as one flat functional model, so `model.layers` can be frozen or unfrozen
 * by index exactly like a Keras head built on `base_model.output`. The registry's `buildClassifier` does the
 * same for every architecture.
 */
export function buildClassifier(cfg: EfficientNetConfig): Classifier {
  const { input, output, init } = legacy(cfg);
  return attachHead(input, output, cfg.numClasses, init, 'efficientnet_classifier');
}
