import * as tf from '@tensorflow/tfjs';
import {
  bn,
  conv2d,
  depthwise,
  dropBranch,
  efficientNetTop,
  on,
  squeezeExcite,
  swish,
  type Architecture,
  type FeatureOptions,
  type Initializers,
  type Sym,
} from './graph';
import { Normalization } from './normalization';

export type EfficientNetV2Id = 'v2-b0' | 'v2-b1' | 'v2-b2' | 'v2-b3' | 'v2-s' | 'v2-m' | 'v2-l';

interface StageArgs {
  kernelSize: number;
  repeats: number;
  filtersIn: number;
  filtersOut: number;
  expandRatio: number;
  seRatio: number;
  strides: 1 | 2;
  /** Fused MBConv (one full conv instead of expand + depthwise) in the early stages. */
  fused: boolean;
}

type Row = [
  kernelSize: number,
  repeats: number,
  filtersIn: number,
  filtersOut: number,
  expandRatio: number,
  seRatio: number,
  strides: 1 | 2,
  fused: 0 | 1,
];

const stages = (rows: Row[]): StageArgs[] =>
  rows.map(([kernelSize, repeats, filtersIn, filtersOut, expandRatio, seRatio, strides, fused]) => ({
    kernelSize,
    repeats,
    filtersIn,
    filtersOut,
    expandRatio,
    seRatio,
    strides,
    fused: fused === 1,
  }));

// keras.applications.efficientnet_v2 DEFAULT_BLOCKS_ARGS; B0–B3 share one table, scaled by their coefficients.
const BASE = stages([
  [3, 1, 32, 16, 1, 0, 1, 1],
  [3, 2, 16, 32, 4, 0, 2, 1],
  [3, 2, 32, 48, 4, 0, 2, 1],
  [3, 3, 48, 96, 4, 0.25, 2, 0],
  [3, 5, 96, 112, 6, 0.25, 1, 0],
  [3, 8, 112, 192, 6, 0.25, 2, 0],
]);
const S = stages([
  [3, 2, 24, 24, 1, 0, 1, 1],
  [3, 4, 24, 48, 4, 0, 2, 1],
  [3, 4, 48, 64, 4, 0, 2, 1],
  [3, 6, 64, 128, 4, 0.25, 2, 0],
  [3, 9, 128, 160, 6, 0.25, 1, 0],
  [3, 15, 160, 256, 6, 0.25, 2, 0],
]);
const M = stages([
  [3, 3, 24, 24, 1, 0, 1, 1],
  [3, 5, 24, 48, 4, 0, 2, 1],
  [3, 5, 48, 80, 4, 0, 2, 1],
  [3, 7, 80, 160, 4, 0.25, 2, 0],
  [3, 14, 160, 176, 6, 0.25, 1, 0],
  [3, 18, 176, 304, 6, 0.25, 2, 0],
  [3, 5, 304, 512, 6, 0.25, 1, 0],
]);
const L = stages([
  [3, 4, 32, 32, 1, 0, 1, 1],
  [3, 7, 32, 64, 4, 0, 2, 1],
  [3, 7, 64, 96, 4, 0, 2, 1],
  [3, 10, 96, 192, 4, 0.25, 2, 0],
  [3, 19, 192, 224, 6, 0.25, 1, 0],
  [3, 25, 224, 384, 6, 0.25, 2, 0],
  [3, 7, 384, 640, 6, 0.25, 1, 0],
]);

/** One member of keras.applications.efficientnet_v2. */
export interface EfficientNetV2Variant {
  /** Display name, e.g. 'EfficientNetV2-S'. */
  name: string;
  /** Keras' model name, e.g. 'efficientnetv2-s'. */
  modelName: string;
  widthCoefficient: number;
  depthCoefficient: number;
  /** Keras' default input size (square). */
  defaultSize: number;
  stages: readonly StageArgs[];
}

const variant = (
  name: string,
  suffix: string,
  widthCoefficient: number,
  depthCoefficient: number,
  defaultSize: number,
  table: StageArgs[],
): EfficientNetV2Variant => ({
  name,
  modelName: `efficientnetv2-${suffix}`,
  widthCoefficient,
  depthCoefficient,
  defaultSize,
  stages: table,
});

export const EFFICIENTNET_V2_VARIANTS: Record<EfficientNetV2Id, EfficientNetV2Variant> = {
  'v2-b0': variant('EfficientNetV2-B0', 'b0', 1.0, 1.0, 224, BASE),
  'v2-b1': variant('EfficientNetV2-B1', 'b1', 1.0, 1.1, 240, BASE),
  'v2-b2': variant('EfficientNetV2-B2', 'b2', 1.1, 1.2, 260, BASE),
  'v2-b3': variant('EfficientNetV2-B3', 'b3', 1.2, 1.4, 300, BASE),
  'v2-s': variant('EfficientNetV2-S', 's', 1.0, 1.0, 384, S),
  'v2-m': variant('EfficientNetV2-M', 'm', 1.0, 1.0, 480, M),
  'v2-l': variant('EfficientNetV2-L', 'l', 1.0, 1.0, 480, L),
};

const DEPTH_DIVISOR = 8;
const MIN_DEPTH = 8;
const TOP_FILTERS = 1280;
const BN_MOMENTUM = 0.9;
const DROP_CONNECT_RATE = 0.2;
const DROPOUT_RATE = 0.2;
const IMAGENET_MEAN_RGB = [0.485, 0.456, 0.406];
const IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225];

/** V2's round_filters: like V1's but without the "never lose more than 10%" correction. */
function roundFilters(filters: number, widthCoefficient: number): number {
  const scaled = filters * widthCoefficient;
  return Math.max(
    MIN_DEPTH,
    Math.floor(Math.trunc(scaled + DEPTH_DIVISOR / 2) / DEPTH_DIVISOR) * DEPTH_DIVISOR,
  );
}

type BlockSpec = Omit<StageArgs, 'repeats' | 'fused'>;

function expand(
  x: Sym,
  filters: number,
  kernelSize: number,
  strides: number,
  prefix: string,
  init: Initializers,
): Sym {
  const fanOut = kernelSize * kernelSize * filters;
  x = conv2d(x, `${prefix}expand_conv`, filters, init.conv(fanOut), { kernelSize, strides });
  return swish(bn(x, `${prefix}expand_bn`, BN_MOMENTUM), `${prefix}expand_activation`);
}

function residual(x: Sym, inputs: Sym, spec: BlockSpec, dropRate: number, prefix: string): Sym {
  if (spec.strides !== 1 || spec.filtersIn !== spec.filtersOut) return x;
  // Keras names this rate survival_probability, but passes it to Dropout as the rate to drop.
  if (dropRate > 0) x = dropBranch(x, dropRate, `${prefix}drop`);
  return on(tf.layers.add({ name: `${prefix}add` }), [x, inputs]);
}

/** Keras' MBConvBlock: expand, depthwise ('dwconv2', 'same' padding even when strided), SE, project. */
function mbConv(inputs: Sym, spec: BlockSpec, dropRate: number, prefix: string, init: Initializers): Sym {
  const { kernelSize, strides, expandRatio, seRatio } = spec;
  const filters = spec.filtersIn * expandRatio;
  let x = expandRatio !== 1 ? expand(inputs, filters, 1, 1, prefix, init) : inputs;
  x = depthwise(x, `${prefix}dwconv2`, kernelSize, strides, 'same', init.conv(kernelSize * kernelSize));
  x = swish(bn(x, `${prefix}bn`, BN_MOMENTUM), `${prefix}activation`);
  if (seRatio > 0 && seRatio <= 1) x = squeezeExcite(x, spec.filtersIn, seRatio, filters, prefix, init);
  x = conv2d(x, `${prefix}project_conv`, spec.filtersOut, init.conv(spec.filtersOut));
  x = bn(x, `${prefix}project_bn`, BN_MOMENTUM);
  return residual(x, inputs, spec, dropRate, prefix);
}

/** Keras' FusedMBConvBlock: one full conv does the expansion and the striding. */
function fusedMbConv(
  inputs: Sym,
  spec: BlockSpec,
  dropRate: number,
  prefix: string,
  init: Initializers,
): Sym {
  const { kernelSize, strides, expandRatio, seRatio, filtersOut } = spec;
  const filters = spec.filtersIn * expandRatio;
  const expanded = expandRatio !== 1;
  let x = expanded ? expand(inputs, filters, kernelSize, strides, prefix, init) : inputs;
  if (seRatio > 0 && seRatio <= 1) x = squeezeExcite(x, spec.filtersIn, seRatio, filters, prefix, init);
  const k = expanded ? 1 : kernelSize;
  x = conv2d(x, `${prefix}project_conv`, filtersOut, init.conv(k * k * filtersOut), {
    kernelSize: k,
    strides: expanded ? 1 : strides,
  });
  x = bn(x, `${prefix}project_bn`, BN_MOMENTUM);
  if (!expanded) x = swish(x, `${prefix}project_activation`);
  return residual(x, inputs, spec, dropRate, prefix);
}

function preprocessing(input: Sym, v: EfficientNetV2Variant): Sym {
  // Keras keeps V1's ImageNet normalisation for the B variants, with fixed statistics (so no weights).
  if (v.modelName.split('-').at(-1)?.startsWith('b')) {
    const x = on(tf.layers.rescaling({ scale: 1 / 255, name: 'rescaling' }), input);
    const variance = IMAGENET_STDDEV_RGB.map((s) => s * s);
    return on(new Normalization({ axis: 3, mean: IMAGENET_MEAN_RGB, variance, name: 'normalization' }), x);
  }
  return on(tf.layers.rescaling({ scale: 1 / 128, offset: -1, name: 'rescaling' }), input);
}

function features(input: Sym, v: EfficientNetV2Variant, opts: FeatureOptions): Sym {
  const { init } = opts;
  const round = (filters: number): number => roundFilters(filters, v.widthCoefficient);
  let x = opts.includePreprocessing ? preprocessing(input, v) : input;

  const stemFilters = round(v.stages[0]?.filtersIn ?? 0);
  x = conv2d(x, 'stem_conv', stemFilters, init.conv(9 * stemFilters), { kernelSize: 3, strides: 2 });
  x = swish(bn(x, 'stem_bn', BN_MOMENTUM), 'stem_activation');

  // Keras divides by the unrounded number of blocks, so scaled variants drop slightly more than 0.2.
  const blocks = v.stages.reduce((sum, s) => sum + s.repeats, 0);
  let index = 0;
  v.stages.forEach(({ repeats, fused, ...args }, stage) => {
    const filtersIn = round(args.filtersIn);
    const filtersOut = round(args.filtersOut);
    const block = fused ? fusedMbConv : mbConv;
    for (let j = 0; j < Math.ceil(v.depthCoefficient * repeats); j++) {
      const spec =
        j === 0
          ? { ...args, filtersIn, filtersOut }
          : { ...args, strides: 1 as const, filtersIn: filtersOut, filtersOut };
      const prefix = `block${stage + 1}${String.fromCharCode(97 + j)}_`;
      x = block(x, spec, (DROP_CONNECT_RATE * index) / blocks, prefix, init);
      index++;
    }
  });

  const topFilters = round(TOP_FILTERS);
  x = conv2d(x, 'top_conv', topFilters, init.conv(topFilters));
  return swish(bn(x, 'top_bn', BN_MOMENTUM), 'top_activation');
}

/** keras.applications.efficientnet_v2.EfficientNetV2 for one variant. */
export function efficientNetV2(v: EfficientNetV2Variant): Architecture {
  return {
    modelName: v.modelName,
    features: (input, opts) => features(input, v, opts),
    top: (x, numClasses, init) => efficientNetTop(x, DROPOUT_RATE, numClasses, init),
  };
}
