import * as tf from '@tensorflow/tfjs';
import { batchNorm } from './layers';

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

export const EFFICIENTNET_PRESETS: Record<
  'b0' | 'tiny',
  Omit<EfficientNetConfig, 'height' | 'width' | 'numClasses'>
> = {
  b0: { name: 'EfficientNet-B0', widthCoefficient: 1.0, depthCoefficient: 1.0 },
  // Rounding keeps every stage with one block each: the full topology at a size SwiftShader can train.
  tiny: { name: 'EfficientNet-Tiny', widthCoefficient: 0.25, depthCoefficient: 0.25 },
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
const HEAD_UNITS = 128;
const HEAD_DROPOUT = 0.2;
// Stddev of a unit normal truncated at ±2σ; Keras divides by it so truncation keeps the intended variance.
const TRUNCATED_NORMAL_STDDEV = 0.8796256610342398;

type Sym = tf.SymbolicTensor;
type Padding = [[number, number], [number, number]];
type Initializer = ReturnType<typeof tf.initializers.ones>;

interface Initializers {
  conv(fanOut: number): Initializer;
  dense(): Initializer;
}

function initializers(seed: number | undefined): Initializers {
  let next = seed;
  const nextSeed = (): number | undefined => (next === undefined ? undefined : next++);
  return {
    // Keras' VarianceScaling(2.0, 'fan_out', 'truncated_normal'). tfjs' varianceScaling accepts
    // 'truncatedNormal' but silently samples a uniform distribution, so the truncated normal is built here.
    conv: (fanOut) =>
      tf.initializers.truncatedNormal({
        stddev: Math.sqrt(2 / fanOut) / TRUNCATED_NORMAL_STDDEV,
        seed: nextSeed(),
      }),
    // The seed's head is plain Keras Dense layers, whose default kernel initialiser is glorot_uniform.
    dense: () => tf.initializers.glorotUniform({ seed: nextSeed() }),
  };
}

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

/** Keras' imagenet_utils.correct_pad: TF-style 'same' padding for a strided 'valid' conv. */
function correctPad(x: Sym, kernelSize: number): Padding {
  const half = Math.floor(kernelSize / 2);
  const side = (size: number | null | undefined): [number, number] => [
    half - (size == null ? 1 : 1 - (size % 2)),
    half,
  ];
  return [side(x.shape[1]), side(x.shape[2])];
}

function on(layer: tf.layers.Layer, x: Sym | Sym[]): Sym {
  return layer.apply(x) as Sym;
}

interface ConvOptions {
  kernelSize?: number;
  strides?: number;
  padding?: 'same' | 'valid';
  activation?: 'swish' | 'sigmoid';
  useBias?: boolean;
}

function conv2d(x: Sym, init: Initializers, name: string, filters: number, opts: ConvOptions = {}): Sym {
  const { kernelSize = 1, strides = 1, padding = 'same', activation, useBias = false } = opts;
  const kernelInitializer = init.conv(kernelSize * kernelSize * filters);
  return on(
    tf.layers.conv2d({ filters, kernelSize, strides, padding, activation, useBias, kernelInitializer, name }),
    x,
  );
}

function bn(x: Sym, name: string): Sym {
  return on(batchNorm({ axis: -1, momentum: 0.99, epsilon: 1e-3, name }), x);
}

function swish(x: Sym, name: string): Sym {
  return on(tf.layers.activation({ activation: 'swish', name }), x);
}

type BlockSpec = Omit<BlockArgs, 'repeats'>;

/** Keras' efficientnet.block: inverted residual (MBConv) with squeeze-and-excitation. */
function block(inputs: Sym, spec: BlockSpec, dropRate: number, prefix: string, init: Initializers): Sym {
  const { kernelSize, strides, filtersIn, filtersOut, expandRatio, seRatio } = spec;
  const filters = filtersIn * expandRatio;
  let x = inputs;
  if (expandRatio !== 1) {
    x = conv2d(x, init, `${prefix}expand_conv`, filters);
    x = swish(bn(x, `${prefix}expand_bn`), `${prefix}expand_activation`);
  }

  let padding: 'same' | 'valid' = 'same';
  if (strides === 2) {
    x = on(tf.layers.zeroPadding2d({ padding: correctPad(x, kernelSize), name: `${prefix}dwconv_pad` }), x);
    padding = 'valid';
  }
  const depthwiseInitializer = init.conv(kernelSize * kernelSize);
  x = on(
    tf.layers.depthwiseConv2d({
      kernelSize,
      strides,
      padding,
      useBias: false,
      depthwiseInitializer,
      name: `${prefix}dwconv`,
    }),
    x,
  );
  x = swish(bn(x, `${prefix}bn`), `${prefix}activation`);

  const filtersSe = Math.max(1, Math.trunc(filtersIn * seRatio));
  let se = on(tf.layers.globalAveragePooling2d({ name: `${prefix}se_squeeze` }), x);
  se = on(tf.layers.reshape({ targetShape: [1, 1, filters], name: `${prefix}se_reshape` }), se);
  se = conv2d(se, init, `${prefix}se_reduce`, filtersSe, { activation: 'swish', useBias: true });
  se = conv2d(se, init, `${prefix}se_expand`, filters, { activation: 'sigmoid', useBias: true });
  x = on(tf.layers.multiply({ name: `${prefix}se_excite` }), [x, se]);

  x = bn(conv2d(x, init, `${prefix}project_conv`, filtersOut), `${prefix}project_bn`);
  if (strides === 1 && filtersIn === filtersOut) {
    if (dropRate > 0) {
      // Stochastic depth drops the whole residual branch per sample; tfjs types omit the null that means
      // "batch size" although its Dropout handles it.
      const noiseShape = [null, 1, 1, 1] as unknown as number[];
      x = on(tf.layers.dropout({ rate: dropRate, noiseShape, name: `${prefix}drop` }), x);
    }
    x = on(tf.layers.add({ name: `${prefix}add` }), [x, inputs]);
  }
  return x;
}

function backboneGraph(cfg: EfficientNetConfig, init: Initializers): { input: Sym; output: Sym } {
  const { widthCoefficient, depthCoefficient, dropConnectRate = 0.2 } = cfg;
  const input = tf.input({ shape: [cfg.height, cfg.width, 3], name: 'input_layer' });
  let x = on(tf.layers.rescaling({ scale: 1 / 255, name: 'rescaling' }), input);

  x = on(tf.layers.zeroPadding2d({ padding: correctPad(x, 3), name: 'stem_conv_pad' }), x);
  x = conv2d(x, init, 'stem_conv', roundFilters(STEM_FILTERS, widthCoefficient), {
    kernelSize: 3,
    strides: 2,
    padding: 'valid',
  });
  x = swish(bn(x, 'stem_bn'), 'stem_activation');

  const totalBlocks = BLOCKS.reduce((sum, b) => sum + roundRepeats(b.repeats, depthCoefficient), 0);
  let index = 0;
  BLOCKS.forEach(({ repeats, ...args }, stage) => {
    const filtersIn = roundFilters(args.filtersIn, widthCoefficient);
    const filtersOut = roundFilters(args.filtersOut, widthCoefficient);
    for (let j = 0; j < roundRepeats(repeats, depthCoefficient); j++) {
      const spec =
        j === 0
          ? { ...args, filtersIn, filtersOut }
          : { ...args, strides: 1 as const, filtersIn: filtersOut, filtersOut };
      const prefix = `block${stage + 1}${String.fromCharCode(97 + j)}_`;
      x = block(x, spec, (dropConnectRate * index) / totalBlocks, prefix, init);
      index++;
    }
  });

  x = conv2d(x, init, 'top_conv', roundFilters(TOP_FILTERS, widthCoefficient));
  x = swish(bn(x, 'top_bn'), 'top_activation');
  return { input, output: x };
}

/** EfficientNet without its classification top (Keras include_top=False); outputs `top_activation`. */
export function buildBackbone(cfg: EfficientNetConfig): tf.LayersModel {
  const { input, output } = backboneGraph(cfg, initializers(cfg.seed));
  return tf.model({ inputs: input, outputs: output, name: 'efficientnet_backbone' });
}

/**
 * Backbone plus the seed's head as one flat functional model, so `model.layers` can be frozen or unfrozen
 * by index exactly like a Keras head built on `base_model.output`.
 */
export function buildClassifier(cfg: EfficientNetConfig): {
  model: tf.LayersModel;
  backboneLayerCount: number;
} {
  const init = initializers(cfg.seed);
  const { input, output } = backboneGraph(cfg, init);
  const head: tf.layers.Layer[] = [
    tf.layers.globalAveragePooling2d({ name: 'avg_pool' }),
    tf.layers.dropout({ rate: HEAD_DROPOUT, name: 'head_dropout_1' }),
    tf.layers.dense({
      units: HEAD_UNITS,
      activation: 'relu',
      kernelInitializer: init.dense(),
      name: 'head_dense',
    }),
    tf.layers.dropout({ rate: HEAD_DROPOUT, name: 'head_dropout_2' }),
    tf.layers.dense({
      units: cfg.numClasses,
      activation: 'softmax',
      kernelInitializer: init.dense(),
      name: 'predictions',
    }),
  ];
  const outputs = head.reduce((x, layer) => on(layer, x), output);
  const model = tf.model({ inputs: input, outputs, name: 'efficientnet_classifier' });
  // Layers are ordered by depth from the output, so the head is always the last head.length layers.
  return { model, backboneLayerCount: model.layers.length - head.length };
}
