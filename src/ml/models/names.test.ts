import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupByBlock, kerasWeightName, layerBlock } from './names';
import { buildClassifier, buildModel } from './registry';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('layerBlock', () => {
  it.each([
    ['input_layer', 'input'],
    ['input_1', 'input'],
    ['rescaling', 'preprocessing'],
    ['normalization', 'preprocessing'],
    ['rescaling_1', 'preprocessing'],
    ['stem_conv_pad', 'stem'],
    ['stem_activation', 'stem'],
    ['block1a_dwconv', 'block1a'],
    ['block3b_project_conv', 'block3b'],
    ['block6y_se_excite', 'block6y'],
    ['top_conv', 'top'],
    ['top_activation', 'top'],
    ['avg_pool', 'head'],
    ['top_dropout', 'head'],
    ['head_dense', 'head'],
    ['predictions', 'head'],
    ['Conv1', 'stem'],
    ['bn_Conv1', 'stem'],
    ['expanded_conv_project_BN', 'expanded_conv'],
    ['block_13_pad', 'block_13'],
    ['Conv_1_bn', 'top'],
    ['out_relu', 'top'],
    ['global_average_pooling2d', 'head'],
    ['dense_7', 'other'],
  ])('%s belongs to %s', (name, block) => {
    expect(layerBlock(name)).toBe(block);
  });
});

describe('groupByBlock', () => {
  it('groups a classifier into input, preprocessing, stem, seven blocks, top and head', () => {
    const { model } = buildClassifier({
      id: 'tiny',
      height: 32,
      width: 32,
      numClasses: 3,
      includePreprocessing: true,
      init: 'zeros',
    });
    const groups = groupByBlock(model.layers.map((l) => l.name));
    expect(groups.map((g) => g.block)).toEqual([
      'input',
      'preprocessing',
      'stem',
      ...[1, 2, 3, 4, 5, 6, 7].map((s) => `block${s}a`),
      'top',
      'head',
    ]);
    expect(groups.find((g) => g.block === 'block2a')?.layers[0]).toBe('block2a_expand_conv');
    expect(groups.at(-1)?.layers).toEqual([
      'avg_pool',
      'head_dropout_1',
      'head_dense',
      'head_dropout_2',
      'predictions',
    ]);
    expect(groups.flatMap((g) => g.layers)).toHaveLength(model.layers.length);
    model.dispose();
  });

  it('groups MobileNetV2 by its 17 inverted residual blocks', () => {
    const model = buildModel({
      id: 'mobilenetv2',
      height: 32,
      width: 32,
      includeTop: true,
      includePreprocessing: false,
      init: 'zeros',
    });
    const blocks = groupByBlock(model.layers.map((l) => l.name)).map((g) => g.block);
    expect(blocks).toEqual([
      'input',
      'stem',
      'expanded_conv',
      ...Array.from({ length: 16 }, (_, i) => `block_${i + 1}`),
      'top',
      'head',
    ]);
    model.dispose();
  });
});

describe('kerasWeightName', () => {
  it("is tfjs' unsuffixed name with Keras' ':0'", () => {
    expect(kerasWeightName({ originalName: 'block3b_project_conv/kernel' })).toBe(
      'block3b_project_conv/kernel:0',
    );
    const build = () =>
      buildModel({
        id: 'tiny',
        height: 32,
        width: 32,
        includeTop: false,
        includePreprocessing: false,
        init: 'zeros',
      });
    const first = build();
    const second = build();
    const kernel = (m: tf.LayersModel) => m.getLayer('stem_conv').weights[0]!;
    // tfjs makes variable names unique per process; the Keras name stays.
    expect(kernel(second).name).not.toBe(kernel(first).name);
    expect(kerasWeightName(kernel(second))).toBe('stem_conv/kernel:0');
    first.dispose();
    second.dispose();
  });
});
