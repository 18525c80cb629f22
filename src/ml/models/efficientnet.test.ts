import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildBackbone,
  buildClassifier,
  EFFICIENTNET_PRESETS,
  type EfficientNetConfig,
} from './efficientnet';
import { KerasBatchNormalization } from './layers';
import { kerasWeightName } from './names';
import { Normalization } from './normalization';
import { buildModel, type BuildOptions, type ModelId } from './registry';

const b0 = (height: number, width: number, numClasses = 1000): EfficientNetConfig => ({
  ...EFFICIENTNET_PRESETS.b0,
  height,
  width,
  numClasses,
  seed: 1,
});
const tiny: EfficientNetConfig = {
  ...EFFICIENTNET_PRESETS.tiny,
  height: 32,
  width: 32,
  numClasses: 3,
  seed: 1,
};

function size(weights: tf.LayerVariable[]): number {
  return weights.reduce((sum, w) => sum + w.shape.reduce<number>((n, d) => n * (d ?? 1), 1), 0);
}

function outputShape(model: tf.LayersModel, layerName: string): tf.Shape | tf.Shape[] {
  return model.getLayer(layerName).outputShape;
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('EfficientNet-B0 backbone at 224×224', () => {
  let model: tf.LayersModel;
  let names: string[];

  beforeAll(() => {
    model = buildBackbone(b0(224, 224));
    names = model.layers.map((l) => l.name);
  });

  afterAll(() => {
    model.dispose();
  });

  it("matches Keras' parameter counts without its Normalization layer (7 parameters)", () => {
    expect(model.countParams()).toBe(4_049_571 - 7);
    const movingStats = model.weights.filter((w) => /moving_(mean|variance)/.test(w.name));
    expect(size(movingStats)).toBe(42_023 - 7);
    expect(size(model.nonTrainableWeights)).toBe(42_016);
  });

  it('uses Keras layer names in Keras order', () => {
    const expected = [
      'input_layer',
      'rescaling',
      'stem_conv_pad',
      'stem_conv',
      'stem_bn',
      'stem_activation',
      'block1a_dwconv',
      'block1a_bn',
      'block1a_activation',
      'block1a_se_squeeze',
      'block1a_se_reshape',
      'block1a_se_reduce',
      'block1a_se_expand',
      'block1a_se_excite',
      'block1a_project_conv',
      'block1a_project_bn',
      'block2a_expand_conv',
      'block2a_expand_bn',
      'block2a_expand_activation',
      'block2a_dwconv_pad',
      'block2b_drop',
      'block2b_add',
      'block3b_project_conv',
      'top_conv',
      'top_bn',
      'top_activation',
    ];
    const positions = expected.map((name) => names.indexOf(name));
    expect(positions).not.toContain(-1);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(names.at(-1)).toBe('top_activation');
    // Block 1a has no residual (16 ≠ 32 filters) and a zero drop rate, as in Keras.
    expect(names).not.toContain('block1a_drop');
    expect(names).not.toContain('block1a_add');
  });

  it('has 1, 2, 2, 3, 3, 4, 1 blocks per stage', () => {
    const blocks = [...new Set(names.flatMap((n) => /^block(\d[a-z])_/.exec(n)?.[1] ?? []))];
    expect(blocks).toEqual([
      ...['1a', '2a', '2b', '3a', '3b', '4a', '4b', '4c'],
      ...['5a', '5b', '5c', '6a', '6b', '6c', '6d', '7a'],
    ]);
    // Keras has 237 (238 with weights='imagenet', which adds a stddev Rescaling); Normalization is left out.
    expect(model.layers).toHaveLength(236);
  });

  it('normalises with frozen-aware Keras batch norm everywhere', () => {
    const bns = model.layers.filter((l) => l.getClassName().endsWith('BatchNormalization'));
    expect(bns.length).toBe(49);
    bns.forEach((l) => expect(l).toBeInstanceOf(KerasBatchNormalization));
  });

  it('drops whole residual branches per sample, linearly more towards the top', () => {
    const drop = model.getLayer('block6d_drop');
    expect(drop.getConfig().rate).toBeCloseTo((0.2 * 14) / 16);
    const samples = tf.tidy(() =>
      (drop.apply(tf.ones([64, 3, 3, 4]), { training: true }) as tf.Tensor).reshape([64, -1]),
    );
    const rows = samples.arraySync() as number[][];
    samples.dispose();
    rows.forEach((row) => expect(new Set(row).size).toBe(1));
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set([0, 1 / (1 - (0.2 * 14) / 16)].map(Math.fround)));
  });

  it('outputs a 7×7×1280 feature map', () => {
    expect(model.outputs[0]?.shape).toEqual([null, 7, 7, 1280]);
  });
});

describe('EfficientNet-B0 classifier at 300×500', () => {
  let built: ReturnType<typeof buildClassifier>;

  beforeAll(() => {
    built = buildClassifier(b0(300, 500, 5));
  });

  afterAll(() => {
    built.model.dispose();
  });

  it("pads strided convs like Keras' correct_pad", () => {
    // stem: 300×500 pad (0,1) → 301×501, 3×3/2 valid → 150×250; block2a: pad (0,1) → 151×251 → 75×125;
    // block3a (5×5/2): odd sizes pad (2,2) → 79×129 → 38×63.
    expect(outputShape(built.model, 'block3b_project_conv')).toEqual([null, 38, 63, 40]);
    // Same as TF 'same' padding overall: ceil(300/32) × ceil(500/32).
    expect(outputShape(built.model, 'top_activation')).toEqual([null, 10, 16, 1280]);
  });

  it('ends in the seed head and reports where the backbone ends', () => {
    const names = built.model.layers.map((l) => l.name);
    expect(names.slice(built.backboneLayerCount)).toEqual([
      'avg_pool',
      'head_dropout_1',
      'head_dense',
      'head_dropout_2',
      'predictions',
    ]);
    expect(built.model.layers[built.backboneLayerCount]?.name).toBe('avg_pool');
    expect(built.model.layers[0]?.getClassName()).toBe('InputLayer');
    expect(built.model.outputs[0]?.shape).toEqual([null, 5]);
    expect(built.model.countParams()).toBe(4_049_564 + (1280 * 128 + 128) + (128 * 5 + 5));
  });
});

describe('tiny preset', () => {
  it('rounds to one block per stage with Keras filter rounding', () => {
    const model = buildBackbone(tiny);
    const names = model.layers.map((l) => l.name);
    expect(names.filter((n) => /^block\d[a-z]_project_conv$/.test(n))).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((s) => `block${s}a_project_conv`),
    );
    expect(outputShape(model, 'stem_conv')).toEqual([null, 16, 16, 8]);
    // 40 × 0.25 = 10 snaps down to 8, more than 10% lost, so Keras bumps it to 16.
    expect(outputShape(model, 'block3a_project_conv')).toEqual([null, 4, 4, 16]);
    expect(model.outputs[0]?.shape).toEqual([null, 1, 1, 320]);
    model.dispose();
  });

  it('predicts a probability distribution per row without leaking', () => {
    const before = tf.memory().numTensors;
    const { model } = buildClassifier(tiny);
    const x = tf.randomUniform([2, 32, 32, 3], 0, 255, 'float32', 3);

    const sums = tf.tidy(() => (model.predict(x) as tf.Tensor).sum(1).arraySync() as number[]);
    expect(sums).toHaveLength(2);
    sums.forEach((s) => expect(s).toBeCloseTo(1, 5));

    const count = tf.memory().numTensors;
    for (let i = 0; i < 2; i++) {
      tf.tidy(() => {
        model.predict(x);
      });
    }
    expect(tf.memory().numTensors).toBe(count);

    x.dispose();
    model.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('is reproducible for a seed', () => {
    const kernels = (seed: number): Float32Array => {
      const model = buildBackbone({ ...tiny, seed });
      const values = Float32Array.from(model.getLayer('block4a_project_conv').getWeights()[0]!.dataSync());
      model.dispose();
      return values;
    };
    expect(kernels(7)).toEqual(kernels(7));
    expect(kernels(7)).not.toEqual(kernels(8));
  });

  it('keeps frozen batch-norm statistics fixed while training the head', async () => {
    const { model, backboneLayerCount } = buildClassifier(tiny);
    model.layers.slice(0, backboneLayerCount).forEach((l) => (l.trainable = false));
    model.compile({ optimizer: tf.train.adam(1e-2), loss: 'categoricalCrossentropy' });
    const snapshot = (name: string): Float32Array[] =>
      model
        .getLayer(name)
        .getWeights()
        .map((w) => Float32Array.from(w.dataSync()));
    const bnBefore = snapshot('top_bn');
    const headBefore = snapshot('head_dense');

    const x = tf.randomUniform([4, 32, 32, 3], 0, 255, 'float32', 5);
    const y = tf.oneHot(tf.tensor1d([0, 1, 2, 0], 'int32'), 3);
    await model.fit(x, y, { epochs: 1, batchSize: 4, verbose: 0 });

    expect(snapshot('top_bn')).toEqual(bnBefore);
    expect(snapshot('head_dense')).not.toEqual(headBefore);
    tf.dispose([x, y]);
    model.dispose();
  });
});

/** Shape-only build at Keras' default size: zero kernels, so even B7 builds in well under a second. */
function keras(id: ModelId, opts: Partial<BuildOptions> = {}): tf.LayersModel {
  return buildModel({
    id,
    height: 224,
    width: 224,
    includeTop: true,
    includePreprocessing: true,
    init: 'zeros',
    ...opts,
  });
}

/** Weight names in the order of a Keras .h5 file: layer by layer, each layer's weights in order. */
function h5Names(model: tf.LayersModel): string[] {
  return model.layers.flatMap((l) => l.weights.map(kerasWeightName));
}

describe('EfficientNet B0–B7 against keras.applications', () => {
  // keras.io/api/applications: parameters with top; without top, the 1000-way Dense on round_filters(1280) goes.
  it.each([
    ['b0', 5_330_571, 4_049_571, 1280, 314],
    ['b1', 7_856_239, 6_575_239, 1280, 442],
    ['b2', 9_177_569, 7_768_569, 1408, 442],
    ['b3', 12_320_535, 10_783_535, 1536, 499],
    ['b4', 19_466_823, 17_673_823, 1792, 613],
    ['b5', 30_562_527, 28_513_527, 2048, 741],
    ['b6', 43_265_143, 40_960_143, 2304, 855],
    ['b7', 66_658_687, 64_097_687, 2560, 1040],
  ] as const)('%s has %i parameters with top, %i without', (id, withTop, withoutTop, topFilters, weights) => {
    const before = tf.memory().numTensors;
    const top = keras(id);
    expect(top.countParams()).toBe(withTop);
    expect(top.weights).toHaveLength(weights);
    expect(top.name).toBe(`efficientnet${id}`);
    expect(top.layers.slice(-3).map((l) => l.name)).toEqual(['avg_pool', 'top_dropout', 'predictions']);
    expect(top.outputs[0]?.shape).toEqual([null, 1000]);
    top.dispose();
    const notop = keras(id, { includeTop: false });
    expect(notop.countParams()).toBe(withoutTop);
    expect(notop.outputs[0]?.shape).toEqual([null, 7, 7, topFilters]);
    notop.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('has 42,023 non-trainable parameters in B0 and a top_dropout rate per variant', () => {
    const b0 = keras('b0');
    expect(size(b0.nonTrainableWeights)).toBe(42_023);
    expect(b0.getLayer('top_dropout').getConfig().rate).toBe(0.2);
    b0.dispose();
    const b7 = keras('b7', { height: 32, width: 32 });
    expect(b7.getLayer('top_dropout').getConfig().rate).toBe(0.5);
    // ceil(3.1 × 4) = 13 blocks in stage 6, lettered a–m.
    expect(b7.layers.map((l) => l.name)).toContain('block6m_add');
    expect(b7.layers.map((l) => l.name)).not.toContain('block6n_add');
    b7.dispose();
  });

  it('names weights like Keras .h5 files, layer by layer', () => {
    const model = keras('b0');
    const names = h5Names(model);
    expect(names.slice(0, 12)).toEqual([
      'normalization/mean:0',
      'normalization/variance:0',
      'normalization/count:0',
      'stem_conv/kernel:0',
      'stem_bn/gamma:0',
      'stem_bn/beta:0',
      'stem_bn/moving_mean:0',
      'stem_bn/moving_variance:0',
      'block1a_dwconv/depthwise_kernel:0',
      'block1a_bn/gamma:0',
      'block1a_bn/beta:0',
      'block1a_bn/moving_mean:0',
    ]);
    expect(names.slice(-2)).toEqual(['predictions/kernel:0', 'predictions/bias:0']);
    expect(new Set(names).size).toBe(names.length);
    const shape = (layer: string): tf.Shape[] => model.getLayer(layer).weights.map((w) => w.shape);
    expect(shape('block3b_project_conv')).toEqual([[1, 1, 240, 40]]);
    expect(shape('block6a_dwconv')).toEqual([[5, 5, 672, 1]]);
    expect(shape('block6a_se_reduce')).toEqual([[1, 1, 672, 28], [28]]);
    expect(shape('predictions')).toEqual([[1280, 1000], [1000]]);
    model.dispose();
  });

  it("keeps Keras' names when the same architecture is built twice in one process", () => {
    const first = keras('b0', { includeTop: false });
    const second = keras('b0', { includeTop: false });
    expect(h5Names(second)).toEqual(h5Names(first));
    first.dispose();
    second.dispose();
  });

  it("builds weights='imagenet' layout with the stddev Rescaling, and no preprocessing when asked", () => {
    const imagenet = keras('b0', { includeTop: false, imagenetLayout: true });
    expect(imagenet.layers.slice(0, 5).map((l) => l.name)).toEqual([
      'input_layer',
      'rescaling',
      'normalization',
      'rescaling_1',
      'stem_conv_pad',
    ]);
    expect(imagenet.layers).toHaveLength(238);
    expect(imagenet.getLayer('normalization')).toBeInstanceOf(Normalization);
    imagenet.dispose();
    const bare = keras('b0', { includeTop: false, includePreprocessing: false });
    expect(bare.layers.slice(0, 2).map((l) => l.name)).toEqual(['input_layer', 'stem_conv_pad']);
    expect(bare.countParams()).toBe(4_049_571 - 7);
    bare.dispose();
  });

  it('normalises pixels like Keras with imagenet statistics in the imagenet layout', () => {
    const model = keras('tiny', { height: 32, width: 32, includeTop: false, imagenetLayout: true });
    // The imagenet files store mean and stddev (not variance) in the Normalization layer.
    model
      .getLayer('normalization')
      .setWeights([
        tf.tensor1d([0.485, 0.456, 0.406]),
        tf.tensor1d([0.229, 0.224, 0.225]),
        tf.scalar(0, 'int32'),
      ]);
    const probe = tf.model({
      inputs: model.inputs,
      outputs: model.getLayer('rescaling_1').output as tf.SymbolicTensor,
    });
    const pixel = tf.tidy(() =>
      (probe.predict(tf.fill([1, 32, 32, 3], 255)) as tf.Tensor).slice([0, 0, 0, 0], [1, 1, 1, 3]),
    );
    const expected = [0.485, 0.456, 0.406].map((m, i) => (1 - m) / [0.229, 0.224, 0.225][i]!);
    Array.from(pixel.dataSync()).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 5));
    pixel.dispose();
    model.dispose();
  });
});
