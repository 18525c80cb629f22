import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildClassifier } from '../models/registry';
import { checkInput, kerasH5Files, tfjsLayersFiles, WEIGHTS_FILE, type CheckFile } from './export';
import { loadKerasH5Weights } from './h5';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny = (seed: number) =>
  buildClassifier({ id: 'tiny', height: 32, width: 32, includePreprocessing: true, numClasses: 3, seed })
    .model;

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('model export', () => {
  it('writes tfjs Layers files that tf.loadLayersModel reads back and that predict as check.json says', async () => {
    const model = tiny(3);
    const files = await tfjsLayersFiles(model);
    expect(files.map((f) => f.name)).toEqual(['model.json', WEIGHTS_FILE, 'check.json']);
    const [json, weights, check] = files.map((f) => f.bytes) as [Uint8Array, Uint8Array, Uint8Array];
    const modelJson = JSON.parse(text(json)) as tf.io.ModelJSON;
    expect(modelJson.weightsManifest[0]!.paths).toEqual([WEIGHTS_FILE]);
    const reloaded = await tf.loadLayersModel(
      tf.io.fromMemory({
        modelTopology: modelJson.modelTopology,
        weightSpecs: modelJson.weightsManifest[0]!.weights,
        weightData: weights.slice().buffer,
      }),
    );
    const expected = JSON.parse(text(check)) as CheckFile;
    expect(expected.input).toEqual({ shape: [1, 32, 32, 3], fill: 127.5 });
    const input = checkInput(reloaded);
    const out = reloaded.predict(input) as tf.Tensor;
    const got = Array.from(await out.data());
    expect(got).toHaveLength(3);
    got.forEach((v, i) => expect(v).toBeCloseTo(expected.output[i]!, 6));
    // A different model predicts differently, so the comparison above can fail.
    const other = tiny(4);
    const otherOut = other.predict(input) as tf.Tensor;
    expect(Array.from(await otherOut.data())).not.toEqual(expected.output);
    tf.dispose([input, out, otherOut]);
    [model, reloaded, other].forEach((m) => m.dispose());
  });

  it('writes Keras .h5 weights that load back into the same model with nothing missing', async () => {
    const model = tiny(5);
    const [file] = await kerasH5Files(model);
    expect(file!.name).toMatch(/\.h5$/);
    expect(file!.name).not.toMatch(/\.weights\.h5$/);
    const target = tiny(6);
    const report = await loadKerasH5Weights(target, file!.bytes, file!.name);
    expect(report.missing).toEqual([]);
    expect(report.mismatches).toEqual([]);
    const a = model.getWeights().map((w) => w.dataSync()[0]);
    const b = target.getWeights().map((w) => w.dataSync()[0]);
    expect(b).toEqual(a);
    [model, target].forEach((m) => m.dispose());
  });

  it('leaks no tensor', async () => {
    const model = tiny(7);
    await tfjsLayersFiles(model);
    const before = tf.memory().numTensors;
    await tfjsLayersFiles(model);
    await kerasH5Files(model);
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });
});
