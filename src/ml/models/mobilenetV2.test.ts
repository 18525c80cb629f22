import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILENET_V2_PREPROCESSING } from './mobilenetV2';
import { kerasWeightName } from './names';
import { buildModel, type BuildOptions } from './registry';

function keras(opts: Partial<BuildOptions> = {}): tf.LayersModel {
  return buildModel({
    id: 'mobilenetv2',
    height: 224,
    width: 224,
    includeTop: false,
    includePreprocessing: false,
    init: 'zeros',
    ...opts,
  });
}

function size(weights: tf.LayerVariable[]): number {
  return weights.reduce((sum, w) => sum + w.shape.reduce<number>((n, d) => n * (d ?? 1), 1), 0);
}

describe('MobileNetV2 (alpha 1.0) against keras.applications', () => {
  let model: tf.LayersModel;
  let names: string[];

  beforeAll(async () => {
    await tf.setBackend('cpu');
    model = keras();
    names = model.layers.map((l) => l.name);
  });

  afterAll(() => {
    model.dispose();
  });

  it('has 2,257,984 parameters (34,112 non-trainable) without top, 3,538,984 with', () => {
    expect(model.countParams()).toBe(2_257_984);
    expect(size(model.nonTrainableWeights)).toBe(34_112);
    const top = keras({ includeTop: true });
    expect(top.countParams()).toBe(3_538_984);
    expect(top.layers.slice(-2).map((l) => l.name)).toEqual(['global_average_pooling2d', 'predictions']);
    expect(top.outputs[0]?.shape).toEqual([null, 1000]);
    top.dispose();
  });

  it("has Keras' 154 layers with Keras' names, ending in out_relu", () => {
    // "Number of layers in the base model: 154" in TensorFlow's transfer-learning tutorial.
    expect(model.layers).toHaveLength(154);
    expect(model.name).toBe('mobilenetv2_1.00_224');
    expect(names.slice(0, 9)).toEqual([
      'input_layer',
      'Conv1',
      'bn_Conv1',
      'Conv1_relu',
      'expanded_conv_depthwise',
      'expanded_conv_depthwise_BN',
      'expanded_conv_depthwise_relu',
      'expanded_conv_project',
      'expanded_conv_project_BN',
    ]);
    expect(names.slice(-3)).toEqual(['Conv_1', 'Conv_1_bn', 'out_relu']);
    // Stride-2 blocks pad explicitly; blocks keeping their shape add the residual.
    expect(names.filter((n) => n.endsWith('_pad'))).toEqual([
      'block_1_pad',
      'block_3_pad',
      'block_6_pad',
      'block_13_pad',
    ]);
    expect(names.filter((n) => n.endsWith('_add'))).toEqual(
      [2, 4, 5, 7, 8, 9, 11, 12, 14, 15].map((i) => `block_${i}_add`),
    );
    expect(model.outputs[0]?.shape).toEqual([null, 7, 7, 1280]);
  });

  it('has Keras weight names and shapes, and BatchNorm momentum 0.999', () => {
    const weights = (layer: string): [string, tf.Shape][] =>
      model.getLayer(layer).weights.map((w) => [kerasWeightName(w), w.shape]);
    expect(weights('Conv1')).toEqual([['Conv1/kernel:0', [3, 3, 3, 32]]]);
    expect(weights('expanded_conv_depthwise')).toEqual([
      ['expanded_conv_depthwise/depthwise_kernel:0', [3, 3, 32, 1]],
    ]);
    expect(weights('block_1_expand')).toEqual([['block_1_expand/kernel:0', [1, 1, 16, 96]]]);
    expect(weights('block_16_project')).toEqual([['block_16_project/kernel:0', [1, 1, 960, 320]]]);
    expect(weights('Conv_1_bn').map(([n]) => n)).toEqual([
      'Conv_1_bn/gamma:0',
      'Conv_1_bn/beta:0',
      'Conv_1_bn/moving_mean:0',
      'Conv_1_bn/moving_variance:0',
    ]);
    expect(model.getLayer('bn_Conv1').getConfig()).toMatchObject({ momentum: 0.999, epsilon: 1e-3 });
    expect(model.getLayer('out_relu').getConfig().maxValue).toBe(6);
  });

  it('pads like Keras at 300×500 and adds preprocess_input as a Rescaling layer on request', () => {
    const odd = keras({ height: 300, width: 500, includePreprocessing: true });
    expect(odd.layers[1]?.name).toBe('rescaling');
    expect(odd.getLayer('rescaling').getConfig()).toMatchObject(MOBILENET_V2_PREPROCESSING);
    expect(odd.countParams()).toBe(2_257_984);
    expect(odd.getLayer('Conv1').outputShape).toEqual([null, 150, 250, 32]);
    expect(odd.outputs[0]?.shape).toEqual([null, 10, 16, 1280]);
    odd.dispose();
  });
});
