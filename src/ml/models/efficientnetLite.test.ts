import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EFFICIENTNET_LITE_PREPROCESSING } from './efficientnet';
import { buildModel } from './registry';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const lite0 = (height: number, width: number, includeTop: boolean) =>
  buildModel({ id: 'lite0', height, width, includeTop, includePreprocessing: true, init: 'zeros' });

describe('EfficientNet-Lite0', () => {
  it('has the parameters of the ImageNet checkpoint: 4,652,008 trainable and 42,016 BatchNorm statistics', () => {
    // Counted from efficientnet-lite0-57934424.pth: weights and biases, then running means and variances.
    const model = lite0(224, 224, true);
    const nonTrainable = model.nonTrainableWeights.reduce(
      (n, w) => n + w.shape.reduce<number>((a, b) => a * (b ?? 0), 1),
      0,
    );
    expect(model.countParams() - nonTrainable).toBe(4_652_008);
    expect(nonTrainable).toBe(42_016);
    // Without the 1000-way classifier (1280 × 1000 + 1000).
    const backbone = lite0(224, 224, false);
    expect(backbone.countParams()).toBe(4_694_024 - 1_281_000);
    model.dispose();
    backbone.dispose();
  });

  it('is B0 without squeeze-and-excitation, with ReLU6 activations', () => {
    const model = lite0(64, 64, false);
    const names = model.layers.map((l) => l.name);
    expect(names.filter((n) => n.includes('_se_'))).toEqual([]);
    const activations = model.layers.filter((l) => l.name.endsWith('activation'));
    expect(activations.map((l) => l.name).slice(0, 4)).toEqual([
      'stem_activation',
      'block1a_activation',
      'block2a_expand_activation',
      'block2a_activation',
    ]);
    for (const layer of activations) {
      expect(layer.getClassName()).toBe('ReLU');
      expect(layer.getConfig()['maxValue']).toBe(6);
    }
    expect(names.slice(0, 6)).toEqual([
      'input_layer',
      'rescaling',
      'stem_conv_pad',
      'stem_conv',
      'stem_bn',
      'stem_activation',
    ]);
    expect(names.filter((n) => /^block\d[a-z]_project_conv$/.test(n))).toHaveLength(16);
    expect(names.filter((n) => n.endsWith('_add'))).toHaveLength(9);
    expect(names.at(-1)).toBe('top_activation');
    model.dispose();
  });

  it.each([
    [224, 224, [7, 7]],
    [64, 96, [2, 3]],
    [77, 45, [3, 2]],
  ])('maps a %i×%i input to 1280 features at 1/32 of its size', (h, w, [fh, fw]) => {
    const model = lite0(h, w, false);
    expect(model.outputs[0]?.shape).toEqual([null, fh, fw, 1280]);
    const before = tf.memory().numTensors;
    tf.tidy(() => {
      const out = model.predict(tf.zeros([1, h, w, 3])) as tf.Tensor;
      expect(out.shape).toEqual([1, fh, fw, 1280]);
    });
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('scales pixels in [0, 255] to (x − 127) / 128, the mean and stddev its weights were trained on', async () => {
    const model = lite0(32, 32, false);
    const rescaling = tf.model({
      inputs: model.inputs,
      outputs: model.getLayer('rescaling').output as tf.SymbolicTensor,
    });
    const x = tf.tensor4d([0, 127, 255], [1, 1, 1, 3]).tile([1, 32, 32, 1]);
    const y = rescaling.predict(x) as tf.Tensor;
    const [a, b, c] = Array.from((await y.data()).slice(0, 3));
    expect(a).toBeCloseTo(-127 / 128, 6);
    expect(b).toBeCloseTo(0, 6);
    expect(c).toBeCloseTo(1, 6);
    expect(EFFICIENTNET_LITE_PREPROCESSING.offset / EFFICIENTNET_LITE_PREPROCESSING.scale).toBeCloseTo(
      -127,
      9,
    );
    tf.dispose([x, y]);
    model.dispose();
  });
});
