import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Normalization } from './normalization';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const MEAN = [10, 20, 30];
const VARIANCE = [4, 16, 64];

function pixels(): tf.Tensor4D {
  return tf.tensor4d([12, 16, 46, 10, 28, 14], [1, 1, 2, 3]);
}

// (x - mean) / sqrt(variance) per channel for pixels().
const NORMALISED = [1, -1, 2, 0, 2, -2];

function run(layer: tf.layers.Layer, x: tf.Tensor): number[] {
  return tf.tidy(() => Array.from((layer.apply(x) as tf.Tensor).dataSync()));
}

describe('Normalization', () => {
  it('owns non-trainable mean, variance and count weights named like Keras when not given statistics', () => {
    const layer = new Normalization({ axis: 3, name: 'normalization' });
    const x = pixels();
    run(layer, x);
    expect(layer.weights.map((w) => [w.originalName, w.shape, w.dtype])).toEqual([
      ['normalization/mean', [3], 'float32'],
      ['normalization/variance', [3], 'float32'],
      ['normalization/count', [], 'int32'],
    ]);
    expect(layer.trainableWeights).toHaveLength(0);
    expect(layer.countParams()).toBe(7);

    layer.setWeights([tf.tensor1d(MEAN), tf.tensor1d(VARIANCE), tf.scalar(100, 'int32')]);
    expect(run(layer, x)).toEqual(NORMALISED);
    x.dispose();
    layer.dispose();
  });

  it('starts as the identity (mean 0, variance 1), so a fresh model sees the rescaled input', () => {
    const layer = new Normalization();
    const x = pixels();
    expect(run(layer, x)).toEqual(Array.from(x.dataSync()));
    x.dispose();
    layer.dispose();
  });

  it('uses fixed statistics without weights, and inverts', () => {
    const x = pixels();
    const fixed = new Normalization({ mean: MEAN, variance: VARIANCE });
    expect(run(fixed, x)).toEqual(NORMALISED);
    expect(fixed.weights).toHaveLength(0);
    const inverse = new Normalization({ mean: MEAN, variance: VARIANCE, invert: true });
    const back = tf.tensor4d(NORMALISED, [1, 1, 2, 3]);
    expect(run(inverse, back)).toEqual(Array.from(x.dataSync()));
    const scalar = new Normalization({ axis: null, mean: 2, variance: 4 });
    const values = tf.tensor1d([2, 4, 0]);
    expect(run(scalar, values)).toEqual([0, 1, -1]);
    tf.dispose([x, back, values]);
  });

  it('rejects a mean without a variance and an axis the input does not have', () => {
    expect(() => new Normalization({ mean: MEAN })).toThrow(/both mean and variance/);
    const layer = new Normalization({ axis: 4 });
    expect(() => layer.apply(tf.input({ shape: [2, 2, 3] }))).toThrow(/axis 4/);
  });

  it('leaks no tensors', () => {
    const layer = new Normalization();
    const x = pixels();
    run(layer, x);
    const count = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) run(layer, x);
    expect(tf.memory().numTensors).toBe(count);
    x.dispose();
    layer.dispose();
  });

  it('round-trips through tfjs model JSON', async () => {
    const input = tf.input({ shape: [1, 2, 3] });
    const output = new Normalization({ mean: MEAN, variance: VARIANCE }).apply(input) as tf.SymbolicTensor;
    const model = tf.model({ inputs: input, outputs: output });
    const restored = await tf.models.modelFromJSON({ modelTopology: model.toJSON(null, false) });
    expect(restored.layers[1]).toBeInstanceOf(Normalization);
    const x = pixels();
    expect(tf.tidy(() => Array.from((restored.predict(x) as tf.Tensor).dataSync()))).toEqual(NORMALISED);
    x.dispose();
    model.dispose();
    restored.dispose();
  });

  it('deserialises a model.json written by Keras (tensorflowjs_converter layout) with its weights', async () => {
    const keras = {
      class_name: 'Functional',
      config: {
        name: 'model',
        layers: [
          {
            class_name: 'InputLayer',
            config: { batch_input_shape: [null, 1, 2, 3], dtype: 'float32', sparse: false, name: 'input_1' },
            name: 'input_1',
            inbound_nodes: [],
          },
          {
            class_name: 'Normalization',
            config: {
              name: 'normalization',
              trainable: true,
              dtype: 'float32',
              axis: [3],
              mean: null,
              variance: null,
              invert: false,
            },
            name: 'normalization',
            inbound_nodes: [[['input_1', 0, 0, {}]]],
          },
        ],
        input_layers: [['input_1', 0, 0]],
        output_layers: [['normalization', 0, 0]],
      },
    };
    const weightSpecs: tf.io.WeightsManifestEntry[] = [
      { name: 'normalization/mean', shape: [3], dtype: 'float32' },
      { name: 'normalization/variance', shape: [3], dtype: 'float32' },
      { name: 'normalization/count', shape: [], dtype: 'int32' },
    ];
    const weightData = new Uint8Array([
      ...new Uint8Array(Float32Array.from([...MEAN, ...VARIANCE]).buffer),
      ...new Uint8Array(Int32Array.from([100]).buffer),
    ]).buffer;
    const model = await tf.loadLayersModel(
      tf.io.fromMemory({
        modelTopology: { keras_version: '2.15.0', backend: 'tensorflow', model_config: keras },
        weightSpecs,
        weightData,
      }),
    );
    expect(model.getLayer('normalization')).toBeInstanceOf(Normalization);
    const x = pixels();
    expect(tf.tidy(() => Array.from((model.predict(x) as tf.Tensor).dataSync()))).toEqual(NORMALISED);
    x.dispose();
    model.dispose();
  });
});
