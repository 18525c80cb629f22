import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODEL_CATALOG } from '../../core/model/models';
import { buildClassifier, buildModel, modelInfo, MODELS } from './registry';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const HEAD = ['avg_pool', 'head_dropout_1', 'head_dense', 'head_dropout_2', 'predictions'];

describe('model registry', () => {
  it('lists every architecture once, with what a model picker needs', () => {
    const ids = MODELS.map((m) => m.id);
    expect(ids).toEqual([
      ...['tiny', 'b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'lite0'],
      ...['v2-b0', 'v2-b1', 'v2-b2', 'v2-b3', 'v2-s', 'v2-m', 'v2-l', 'mobilenetv2'],
    ]);
    expect(modelInfo('v2-l')).toEqual({
      id: 'v2-l',
      displayName: 'EfficientNetV2-L',
      family: 'efficientnetv2',
      kerasName: 'EfficientNetV2L',
      defaultSize: 480,
      preprocessingInKeras: true,
    });
    expect(modelInfo('b3').kerasName).toBe('EfficientNetB3');
    expect(modelInfo('tiny').kerasName).toBeNull();
    expect(modelInfo('lite0').kerasName).toBeNull();
    expect(modelInfo('mobilenetv2').preprocessingInKeras).toBe(false);
    expect(() => modelInfo('b8' as never)).toThrow(/Unknown model 'b8'/);
  });

  it.each(['tiny', 'lite0', 'v2-b0', 'mobilenetv2'] as const)(
    'puts the seed head on the %s backbone as one flat model',
    (id) => {
      const before = tf.memory().numTensors;
      const backbone = buildModel({
        id,
        height: 64,
        width: 96,
        includeTop: false,
        includePreprocessing: true,
        init: 'zeros',
      });
      const { model, backboneLayerCount } = buildClassifier({
        id,
        height: 64,
        width: 96,
        numClasses: 3,
        includePreprocessing: true,
        init: 'zeros',
      });
      expect(model.layers.slice(backboneLayerCount).map((l) => l.name)).toEqual(HEAD);
      expect(model.layers.slice(0, backboneLayerCount).map((l) => l.name)).toEqual(
        backbone.layers.map((l) => l.name),
      );
      expect(model.outputs[0]?.shape).toEqual([null, 3]);
      const features = backbone.outputs[0]?.shape[3] as number;
      expect(model.countParams()).toBe(backbone.countParams() + features * 128 + 128 + 128 * 3 + 3);
      backbone.dispose();
      model.dispose();
      expect(tf.memory().numTensors).toBe(before);
    },
  );

  it('classifies with random weights, reproducibly for a seed, without leaking', () => {
    const build = (seed: number) =>
      buildClassifier({ id: 'tiny', height: 32, width: 32, numClasses: 3, includePreprocessing: true, seed });
    const x = tf.randomUniform([2, 32, 32, 3], 0, 255, 'float32', 1);
    const predict = (model: tf.LayersModel): number[] =>
      tf.tidy(() => Array.from((model.predict(x) as tf.Tensor).dataSync()));
    const a = build(5).model;
    const b = build(5).model;
    const c = build(6).model;
    const count = tf.memory().numTensors;
    const probabilities = predict(a);
    expect(tf.memory().numTensors).toBe(count);
    expect(probabilities[0]! + probabilities[1]! + probabilities[2]!).toBeCloseTo(1, 5);
    expect(predict(b)).toEqual(probabilities);
    expect(predict(c)).not.toEqual(probabilities);
    x.dispose();
    [a, b, c].forEach((m) => m.dispose());
  });

  it("fills kernels with zeros on request, keeping BatchNorm's ones", () => {
    const model = buildModel({
      id: 'tiny',
      height: 32,
      width: 32,
      includeTop: true,
      includePreprocessing: false,
      init: 'zeros',
    });
    const values = (layer: string, i: number): number[] =>
      Array.from(model.getLayer(layer).getWeights()[i]!.dataSync());
    expect(new Set(values('stem_conv', 0))).toEqual(new Set([0]));
    expect(new Set(values('predictions', 0))).toEqual(new Set([0]));
    expect(new Set(values('stem_bn', 0))).toEqual(new Set([1]));
    model.dispose();
  });
});

describe('the catalog the settings use', () => {
  it('lists every registry model with the same name and default size', () => {
    expect(MODEL_CATALOG.map((m) => m.id)).toEqual(MODELS.map((m) => m.id));
    for (const entry of MODEL_CATALOG) {
      const info = modelInfo(entry.id);
      expect([entry.displayName, entry.family, entry.defaultSize]).toEqual([
        info.displayName,
        info.family,
        info.defaultSize,
      ]);
    }
  });
});
