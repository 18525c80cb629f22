import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { kerasWeightName } from './names';
import { Normalization } from './normalization';
import { buildModel, type BuildOptions, type ModelId } from './registry';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

function keras(id: ModelId, opts: Partial<BuildOptions> = {}): tf.LayersModel {
  return buildModel({
    id,
    height: 224,
    width: 224,
    includeTop: false,
    includePreprocessing: true,
    init: 'zeros',
    ...opts,
  });
}

function kernelShapes(model: tf.LayersModel, layer: string): tf.Shape[] {
  return model.getLayer(layer).weights.map((w) => w.shape);
}

describe('EfficientNetV2 against keras.applications', () => {
  // Without top: Keras model summaries (S and L as the issue quotes them). With top: the 1000-way Dense on
  // round_filters(1280) added, matching keras.io's 7.2M … 119.0M.
  it.each([
    ['v2-b0', 5_919_312, 7_200_312, 1280, 'efficientnetv2-b0'],
    ['v2-b1', 6_931_124, 8_212_124, 1280, 'efficientnetv2-b1'],
    ['v2-b2', 8_769_374, 10_178_374, 1408, 'efficientnetv2-b2'],
    ['v2-b3', 12_930_622, 14_467_622, 1536, 'efficientnetv2-b3'],
    ['v2-s', 20_331_360, 21_612_360, 1280, 'efficientnetv2-s'],
    ['v2-m', 53_150_388, 54_431_388, 1280, 'efficientnetv2-m'],
    ['v2-l', 117_746_848, 119_027_848, 1280, 'efficientnetv2-l'],
  ] as const)('%s has %i parameters without top, %i with', (id, withoutTop, withTop, topFilters, name) => {
    const before = tf.memory().numTensors;
    const notop = keras(id);
    expect(notop.countParams()).toBe(withoutTop);
    expect(notop.name).toBe(name);
    expect(notop.outputs[0]?.shape).toEqual([null, 7, 7, topFilters]);
    notop.dispose();
    const top = keras(id, { includeTop: true });
    expect(top.countParams()).toBe(withTop);
    expect(top.layers.slice(-3).map((l) => l.name)).toEqual(['avg_pool', 'top_dropout', 'predictions']);
    expect(top.getLayer('top_dropout').getConfig().rate).toBe(0.2);
    top.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('builds V2-L at 300×500 with the shapes of the seed failure', () => {
    const model = keras('v2-l', { height: 300, width: 500 });
    expect(kernelShapes(model, 'block3b_project_conv')).toEqual([[1, 1, 384, 96]]);
    // 'same' padding throughout: ceil(300/8) × ceil(500/8) after three stride-2 stages.
    expect(model.getLayer('block3b_project_conv').outputShape).toEqual([null, 38, 63, 96]);
    expect(model.getLayer('stem_conv').outputShape).toEqual([null, 150, 250, 32]);
    expect(model.outputs[0]?.shape).toEqual([null, 10, 16, 1280]);
    expect(model.layers).toHaveLength(1028);
    model.dispose();
  });

  it('uses fused MBConv in the early stages and MBConv with squeeze-and-excitation later', () => {
    const model = keras('v2-l');
    const names = model.layers.map((l) => l.name);
    // Fused, expand ratio 1: one 3×3 conv with its own activation, no expand, no depthwise, no SE.
    expect(names.filter((n) => n.startsWith('block1a_'))).toEqual([
      'block1a_project_conv',
      'block1a_project_bn',
      'block1a_project_activation',
      'block1a_add',
    ]);
    expect(kernelShapes(model, 'block1a_project_conv')).toEqual([[3, 3, 32, 32]]);
    // Fused, expanded: the 3×3 expand conv strides, the 1×1 project conv does not.
    expect(kernelShapes(model, 'block2a_expand_conv')).toEqual([[3, 3, 32, 128]]);
    expect(kernelShapes(model, 'block2a_project_conv')).toEqual([[1, 1, 128, 64]]);
    expect(names.some((n) => /^block[123][a-z]_(dwconv2|se_)/.test(n))).toBe(false);
    // MBConv: depthwise named dwconv2, SE reduced from the block's input filters.
    expect(kernelShapes(model, 'block4a_expand_conv')).toEqual([[1, 1, 96, 384]]);
    expect(kernelShapes(model, 'block4a_dwconv2')).toEqual([[3, 3, 384, 1]]);
    expect(kernelShapes(model, 'block4a_se_reduce')).toEqual([[1, 1, 384, 24], [24]]);
    expect(kernelShapes(model, 'block4a_se_expand')).toEqual([[1, 1, 24, 384], [384]]);
    expect(kernelShapes(model, 'block7g_project_conv')).toEqual([[1, 1, 3840, 640]]);
    expect(names).not.toContain('block7h_project_conv');
    expect(model.getLayer('block4a_dwconv2').weights.map(kerasWeightName)).toEqual([
      'block4a_dwconv2/depthwise_kernel:0',
    ]);
    model.dispose();
  });

  it("drops residual branches at Keras' rates, with BatchNorm momentum 0.9", () => {
    const l = keras('v2-l', { height: 32, width: 32 });
    const names = l.layers.map((x) => x.name);
    // The first block's rate is 0, so Keras adds no Dropout, but the residual add stays.
    expect(names).toContain('block1a_add');
    expect(names).not.toContain('block1a_drop');
    expect(l.getLayer('block1b_drop').getConfig().rate).toBeCloseTo(0.2 / 79);
    expect(l.getLayer('stem_bn').getConfig().momentum).toBe(0.9);
    l.dispose();
    // B3 scales 21 blocks up to 32 but Keras still divides by 21, so the last rate passes 0.2.
    const b3 = keras('v2-b3', { height: 32, width: 32 });
    expect(b3.getLayer('block6l_drop').getConfig().rate).toBeCloseTo((0.2 * 31) / 21);
    expect(b3.layers.map((x) => x.name)).not.toContain('block6m_add');
    expect(b3.weights).toHaveLength(536);
    b3.dispose();
  });

  it('preprocesses like Keras: V1 normalisation for the B variants, [-1, 1] for S, M and L', () => {
    const first = (m: tf.LayersModel): string[] => m.layers.slice(0, 4).map((x) => x.name);
    const s = keras('v2-s', { height: 32, width: 32 });
    expect(first(s)).toEqual(['input_layer', 'rescaling', 'stem_conv', 'stem_bn']);
    expect(s.getLayer('rescaling').getConfig()).toMatchObject({ scale: 1 / 128, offset: -1 });
    s.dispose();

    const b0 = keras('v2-b0', { height: 32, width: 32 });
    expect(first(b0)).toEqual(['input_layer', 'rescaling', 'normalization', 'stem_conv']);
    const norm = b0.getLayer('normalization');
    expect(norm).toBeInstanceOf(Normalization);
    // Fixed statistics: no weights, so Keras' 5,919,312 holds with or without preprocessing.
    expect(norm.weights).toHaveLength(0);
    const probe = tf.model({ inputs: b0.inputs, outputs: norm.output as tf.SymbolicTensor });
    const pixel = tf.tidy(() =>
      (probe.predict(tf.fill([1, 32, 32, 3], 255)) as tf.Tensor).slice([0, 0, 0, 0], [1, 1, 1, 3]),
    );
    const expected = [0.485, 0.456, 0.406].map((m, i) => (1 - m) / [0.229, 0.224, 0.225][i]!);
    Array.from(pixel.dataSync()).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 5));
    pixel.dispose();
    b0.dispose();

    const bare = keras('v2-b0', { height: 32, width: 32, includePreprocessing: false });
    expect(first(bare)).toEqual(['input_layer', 'stem_conv', 'stem_bn', 'stem_activation']);
    expect(bare.countParams()).toBe(5_919_312);
    bare.dispose();
  });
});
