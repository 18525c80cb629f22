import * as tf from '@tensorflow/tfjs';
import h5wasm from 'h5wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildBackbone,
  buildClassifier,
  EFFICIENTNET_PRESETS,
  type EfficientNetConfig,
} from '../models/efficientnet';
import { WeightLoadError } from './errors';
import { loadKerasH5Weights, openKerasH5, writeKerasH5 } from './h5';

const tiny = (seed: number, numClasses = 3): EfficientNetConfig => ({
  ...EFFICIENTNET_PRESETS.tiny,
  height: 32,
  width: 32,
  numClasses,
  seed,
});

function predict(model: tf.LayersModel, input: tf.Tensor): Float32Array {
  return tf.tidy(() => (model.predict(input) as tf.Tensor).dataSync() as Float32Array);
}

async function expectLoadError(promise: Promise<unknown>): Promise<WeightLoadError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WeightLoadError);
  return error as WeightLoadError;
}

let saved: Uint8Array;
let input: tf.Tensor;

beforeAll(async () => {
  await tf.setBackend('cpu');
  const source = buildClassifier(tiny(1)).model;
  saved = await writeKerasH5(source);
  input = tf.keep(tf.randomUniform([2, 32, 32, 3], 0, 255, 'float32', 7));
  source.dispose();
});

describe('Keras .h5 weights', () => {
  it('round-trips: a fresh model loaded from the file predicts exactly what the saved one did', async () => {
    const original = buildClassifier(tiny(1)).model;
    const fresh = buildClassifier(tiny(2)).model;
    expect(predict(fresh, input)).not.toEqual(predict(original, input));

    const report = await loadKerasH5Weights(fresh, saved, 'tiny.h5');

    expect(predict(fresh, input)).toEqual(predict(original, input));
    expect(report.missing).toEqual([]);
    expect(report.unexpected).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.matchedParams).toBe(fresh.countParams());
    expect(report.matched.every((m) => m.pairedBy === 'name')).toBe(true);
    original.dispose();
    fresh.dispose();
  });

  it("is laid out as Keras writes it: 'layer_names', 'weight_names', <layer>/<layer>/<weight>:0", async () => {
    const file = await openKerasH5(saved, 'tiny.h5');
    const dw = file.layers.find((l) => l.name === 'block1a_dwconv');
    expect(dw?.weights.map((w) => w.name)).toEqual(['block1a_dwconv/depthwise_kernel:0']);
    const bn = file.layers.find((l) => l.name === 'stem_bn');
    expect(bn?.weights.map((w) => w.name)).toEqual([
      'stem_bn/gamma:0',
      'stem_bn/beta:0',
      'stem_bn/moving_mean:0',
      'stem_bn/moving_variance:0',
    ]);
    expect(file.kerasVersion).toBe('2.15.0');
    file.close();
  });

  it('loads a no-top file into a model with a head, reporting the head as missing (by_name=True)', async () => {
    const backbone = buildBackbone(tiny(1));
    const notop = await writeKerasH5(backbone);
    const classifier = buildClassifier(tiny(2)).model;
    const report = await loadKerasH5Weights(classifier, notop, 'tiny_notop.h5');
    expect(report.missing).toEqual(['head_dense', 'predictions']);
    expect(report.unexpected).toEqual([]);
    const stem = (m: tf.LayersModel) => m.getLayer('stem_conv').getWeights()[0]?.dataSync();
    expect(stem(classifier)).toEqual(stem(backbone));

    const strict = await expectLoadError(
      loadKerasH5Weights(classifier, notop, 'tiny_notop.h5', { allowMissing: false }),
    );
    expect(strict.kind).toBe('missing-layers');
    expect(strict.message).toContain('head_dense');
    backbone.dispose();
    classifier.dispose();
  });

  it('refuses a file whose shapes differ, naming the layer and both shapes, and changes nothing', async () => {
    const model = buildClassifier(tiny(2)).model;
    const before = predict(model, input);
    const fourClasses = buildClassifier(tiny(1, 4)).model;
    const mismatched = await writeKerasH5(fourClasses);
    const numTensors = tf.memory().numTensors;

    const error = await expectLoadError(loadKerasH5Weights(model, mismatched, 'four_classes.h5'));

    expect(error.kind).toBe('shape-mismatch');
    expect(error.message).toContain('four_classes.h5');
    expect(error.message).toContain('predictions/kernel: model expects [128, 3], stored [128, 4]');
    expect(error.report?.mismatches.map((m) => m.layer)).toEqual(['predictions', 'predictions']);
    expect(tf.memory().numTensors).toBe(numTensors);
    expect(predict(model, input)).toEqual(before);
    model.dispose();
    fourClasses.dispose();
  });

  it('reads a layer without weights as h5py writes it: weight_names an empty float attribute', async () => {
    const { FS } = await h5wasm.ready;
    const file = new h5wasm.File('/empty-weight-names.h5', 'w');
    file.create_attribute('layer_names', ['input_1', 'dense'], null, 'S7');
    file.create_group('input_1').create_attribute('weight_names', new Float64Array(0), [0], '<d');
    const dense = file.create_group('dense');
    dense.create_attribute('weight_names', ['dense/kernel:0'], null, 'S14');
    dense
      .create_group('dense')
      .create_dataset({ name: 'kernel:0', data: new Float32Array(6), shape: [3, 2] });
    file.close();
    const opened = await openKerasH5(FS.readFile('/empty-weight-names.h5'), 'tf_keras.h5');
    FS.unlink('/empty-weight-names.h5');
    expect(opened.layers.map((l) => [l.name, l.weights.map((w) => w.name)])).toEqual([
      ['dense', ['dense/kernel:0']],
    ]);
    opened.close();
  });

  it('refuses bytes that are not HDF5, naming the file', async () => {
    const model = buildClassifier(tiny(2)).model;
    const text = new TextEncoder().encode('<html>404 Not Found</html>');
    const error = await expectLoadError(loadKerasH5Weights(model, text, 'efficientnetb0_notop.h5'));
    expect(error.kind).toBe('not-hdf5');
    expect(error.message).toContain('efficientnetb0_notop.h5 is not an HDF5 file');
    model.dispose();
  });

  it('refuses a truncated file without allocating a tensor', async () => {
    const model = buildClassifier(tiny(2)).model;
    const numTensors = tf.memory().numTensors;
    const error = await expectLoadError(
      loadKerasH5Weights(model, saved.slice(0, saved.length / 2), 'cut.h5'),
    );
    expect(error.kind).toBe('corrupt');
    expect(error.message).toMatch(
      /^cut.h5: HDF5 cannot read it; the file is truncated or damaged \(truncated file: eof = /,
    );
    expect(tf.memory().numTensors).toBe(numTensors);
    model.dispose();
  });

  it('refuses a file above the size limit before reading it', async () => {
    const model = buildClassifier(tiny(2)).model;
    const error = await expectLoadError(loadKerasH5Weights(model, saved, 'big.h5', { maxBytes: 1000 }));
    expect(error.kind).toBe('too-large');
    model.dispose();
  });

  it('refuses weights of a different architecture as matching nothing', async () => {
    const dense = tf.sequential({
      layers: [tf.layers.dense({ units: 2, inputShape: [3], name: 'other_dense' })],
    });
    const other = await writeKerasH5(dense);
    const model = buildClassifier(tiny(2)).model;
    const error = await expectLoadError(loadKerasH5Weights(model, other, 'other.h5'));
    expect(error.kind).toBe('nothing-matched');
    expect(error.message).toContain('other_dense');
    model.dispose();
    dense.dispose();
  });

  it('leaves numTensors unchanged after load and dispose', async () => {
    const numTensors = tf.memory().numTensors;
    const model = buildClassifier(tiny(2)).model;
    await loadKerasH5Weights(model, saved, 'tiny.h5');
    model.dispose();
    expect(tf.memory().numTensors).toBe(numTensors);
  });
});
