import * as tf from '@tensorflow/tfjs';
import h5wasm from 'h5wasm';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../models/efficientnet';
import { WeightLoadError } from './errors';
import { loadKerasH5Weights, openKerasH5 } from './h5';
import { flatLayers } from './source';

// The layout Keras 3's save_weights writes (checked against real Keras files by interop/test_weight_files.py):
// layers/<class key>/vars/<index>, the layer's name in the `name` attribute of its vars group.
async function keras3WeightsH5(model: tf.LayersModel, opts: { names?: boolean } = {}): Promise<Uint8Array> {
  const { FS } = await h5wasm.ready;
  const path = `/keras3-test-${Math.random()}.weights.h5`;
  const file = new h5wasm.File(path, 'w');
  const layers = file.create_group('layers');
  file.create_group('vars');
  flatLayers(model).forEach((layer, i) => {
    const group = layers.create_group(`${layer.getClassName().toLowerCase()}_${i}`);
    const vars = group.create_group('vars');
    if (opts.names !== false) vars.create_attribute('name', layer.name);
    layer.weights.forEach((w, j) => {
      const data = w.read().dataSync() as Float32Array | Int32Array;
      const shape = w.shape.map((d) => d ?? 0);
      vars.create_dataset({ name: String(j), data, shape, dtype: w.dtype === 'int32' ? '<i' : '<f' });
    });
  });
  file.close();
  const bytes = FS.readFile(path);
  FS.unlink(path);
  return bytes;
}

const tiny = (seed: number) =>
  buildClassifier({ ...EFFICIENTNET_PRESETS.tiny, height: 32, width: 32, numClasses: 3, seed }).model;

function predict(model: tf.LayersModel, input: tf.Tensor): Float32Array {
  return tf.tidy(() => (model.predict(input) as tf.Tensor).dataSync() as Float32Array);
}

let input: tf.Tensor;
beforeAll(async () => {
  await tf.setBackend('cpu');
  input = tf.keep(tf.randomUniform([2, 32, 32, 3], 0, 255, 'float32', 3));
});

describe('Keras 3 weight files', () => {
  it('loads a .weights.h5 by the layer names it stores, pairing weights by position', async () => {
    const source = tiny(1);
    const bytes = await keras3WeightsH5(source);
    const fresh = tiny(2);
    const report = await loadKerasH5Weights(fresh, bytes, 'tiny.weights.h5');
    expect(predict(fresh, input)).toEqual(predict(source, input));
    expect([report.missing, report.unexpected, report.mismatches]).toEqual([[], [], []]);
    expect(report.matchedParams).toBe(fresh.countParams());
    expect(new Set(report.matched.map((m) => m.pairedBy))).toEqual(new Set(['order']));
    const file = await openKerasH5(bytes, 'tiny.weights.h5');
    expect(file.format).toBe('keras3-weights-h5');
    file.close();
    source.dispose();
    fresh.dispose();
  });

  it('loads a .keras archive and reads its Keras version from metadata.json', async () => {
    const source = tiny(1);
    const archive = zipSync({
      'metadata.json': strToU8(JSON.stringify({ keras_version: '3.15.1' })),
      'config.json': strToU8('{}'),
      'model.weights.h5': await keras3WeightsH5(source),
    });
    const file = await openKerasH5(archive, 'tiny.keras');
    expect([file.format, file.kerasVersion]).toEqual(['keras-archive', '3.15.1']);
    file.close();
    const fresh = tiny(2);
    const numTensors = tf.memory().numTensors;
    await loadKerasH5Weights(fresh, archive, 'tiny.keras');
    expect(tf.memory().numTensors).toBe(numTensors);
    expect(predict(fresh, input)).toEqual(predict(source, input));
    source.dispose();
    fresh.dispose();
  });

  it('refuses a Keras 3 file that does not name its layers, and a zip without weights', async () => {
    const model = tiny(1);
    const unnamed = await keras3WeightsH5(model, { names: false });
    const error = await openKerasH5(unnamed, 'old.weights.h5').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeightLoadError);
    expect((error as WeightLoadError).kind).toBe('keras3-weights-h5');
    expect((error as Error).message).toContain('do not name their layer');

    const empty = zipSync({ 'config.json': strToU8('{}') });
    const archiveError = await openKerasH5(empty, 'empty.keras').catch((e: unknown) => e);
    expect((archiveError as WeightLoadError).kind).toBe('bad-keras-archive');
    expect((archiveError as Error).message).toContain("without 'model.weights.h5'");
    model.dispose();
  });
});
