import * as tf from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../models/registry';
import { loadNsfwjsBackbone, nsfwjsArtifacts, nsfwjsBackboneWeights, NSFWJS_MOBILENET_V2 } from './nsfwjs';
import { assignWeights } from './report';
import { loadTfjsModel } from './tfjs';

const packageFile = (name: string): string =>
  readFileSync(new URL(`../../../node_modules/nsfwjs/${name}`, import.meta.url), 'utf8');

/** Keras' MobileNetV2(include_top=False) parameter count. */
const KERAS_MOBILENET_V2_NOTOP_PARAMS = 2_257_984;

function features(model: tf.LayersModel, pixels: tf.Tensor): tf.Tensor {
  return model.predict(pixels) as tf.Tensor;
}

let pixels: tf.Tensor4D;

beforeAll(async () => {
  await tf.setBackend('cpu');
  pixels = tf.randomUniform([1, 224, 224, 3], 0, 255, 'float32', 3);
});

describe('offline default: the MobileNetV2 inside nsfwjs', () => {
  it('records the installed package, version and licence', () => {
    const pkg = JSON.parse(packageFile('package.json')) as { version: string; license: string };
    expect(pkg.version).toBe(NSFWJS_MOBILENET_V2.version);
    expect(pkg.license).toBe(NSFWJS_MOBILENET_V2.licence);
    expect(packageFile('LICENSE')).toContain(NSFWJS_MOBILENET_V2.copyright);
  });

  it('builds at any input size with every backbone weight matched, and gives finite features', async () => {
    const numTensors = tf.memory().numTensors;
    const { model, report } = await loadNsfwjsBackbone({ height: 96, width: 128 });
    expect(model.outputs[0]?.shape).toEqual([null, 3, 4, 1280]);
    expect(report.missing).toEqual([]);
    expect(report.unexpected).toEqual([]);
    expect(report.matchedParams).toBe(KERAS_MOBILENET_V2_NOTOP_PARAMS);
    expect(model.countParams()).toBe(KERAS_MOBILENET_V2_NOTOP_PARAMS);
    const values = tf.tidy(() => features(model, tf.image.resizeBilinear(pixels, [96, 128])).dataSync());
    expect(values.every(Number.isFinite)).toBe(true);
    expect(values.some((v) => v > 0)).toBe(true);
    model.dispose();
    expect(tf.memory().numTensors).toBe(numTensors);
  });

  it("computes at 224×224 exactly what nsfwjs' own model computes at out_relu, on pixels / 255", async () => {
    const original = await loadTfjsModel(await nsfwjsArtifacts());
    if (original.kind !== 'layers-model') throw new Error('nsfwjs ships a layers model');
    const outRelu = tf.model({
      inputs: original.model.inputs,
      outputs: original.model.getLayer('out_relu').output,
    });
    const { model } = await loadNsfwjsBackbone({ height: 224, width: 224 });
    const expected = tf.tidy(() => features(outRelu, pixels.div(255)).dataSync());
    const actual = tf.tidy(() => features(model, pixels).dataSync());
    expect(Math.max(...actual.map((v, i) => Math.abs(v - (expected[i] ?? NaN))))).toBeLessThan(1e-4);
    original.model.dispose();
    model.dispose();
  });

  it("loads by Keras layer name onto the lab's MobileNetV2, which then computes the same features", async () => {
    const lab = buildModel({
      id: 'mobilenetv2',
      height: 224,
      width: 224,
      includeTop: false,
      includePreprocessing: false,
      init: 'zeros',
    });
    const report = assignWeights(lab, await nsfwjsBackboneWeights(), {
      allowMissing: false,
      allowUnexpected: false,
    });
    expect(report.matchedParams).toBe(KERAS_MOBILENET_V2_NOTOP_PARAMS);
    const { model } = await loadNsfwjsBackbone({ height: 224, width: 224 });
    const expected = tf.tidy(() => features(model, pixels).dataSync());
    const actual = tf.tidy(() => features(lab, pixels.div(255)).dataSync());
    expect(Math.max(...actual.map((v, i) => Math.abs(v - (expected[i] ?? NaN))))).toBeLessThan(1e-4);
    lab.dispose();
    model.dispose();
  });
});
