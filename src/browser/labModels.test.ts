import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import type { TrainConfig } from '../core/settings/trainConfig';
import { buildClassifier } from '../ml/models/registry';
import { tfjsLayersFiles } from '../ml/weights/export';
import { NSFWJS_INPUT_SCALE } from '../ml/weights/nsfwjs';
import { LabModels } from './labModels';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const config: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  model: 'mobilenetv2',
  height: 32,
  width: 32,
  weights: 'file',
};

describe('a lab model loaded back from its own files', () => {
  it("is built with the saved model's preprocessing (the packaged weights' 1/255), so it predicts as before", async () => {
    // Trained from the packaged weights: MobileNetV2 scaled by 1/255, not Keras' [-1, 1].
    const saved = buildClassifier({
      id: 'mobilenetv2',
      height: 32,
      width: 32,
      includePreprocessing: true,
      inputScale: NSFWJS_INPUT_SCALE,
      numClasses: 3,
      seed: 5,
    }).model;
    const input = tf.randomUniform([2, 32, 32, 3], 0, 255, 'float32', 3);
    const before = Array.from(await (saved.predict(input) as tf.Tensor).data());
    // What the zip gives the weights field: model.json and its shard (check.json stays in the zip).
    const files = (await tfjsLayersFiles(saved))
      .filter((f) => f.name !== 'check.json')
      .map((f) => new File([f.bytes.slice()], f.name));
    saved.dispose();

    const models = new LabModels();
    expect((await models.loadWeights({ files })).kind).toBe('tfjs-layers');
    const start = tf.memory().numTensors;
    const { model } = await models.prepare(config, 3, undefined, () => {});
    // The pixel scale the saved model was trained with, not Keras' own ([-1, 1]) that a file gets.
    expect(model.getLayer('rescaling').getConfig()).toMatchObject(NSFWJS_INPUT_SCALE);
    const after = Array.from(await tf.tidy(() => model.predict(input) as tf.Tensor).data());
    after.forEach((p, i) => expect(p).toBeCloseTo(before[i]!, 5));
    models.dispose();
    input.dispose();
    expect(tf.memory().numTensors).toBeLessThanOrEqual(start);
  });
});
