import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../core/run/protocol';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import type { TrainConfig } from '../core/settings/trainConfig';
import { GRAPH_MODEL_FROZEN_ONLY } from '../ml/models/graphBackbone';
import { graphModelFixture } from '../ml/models/graphModelFixture';
import { GRAPH_LAYER } from '../core/model/layerTable';
import { LabModels } from './labModels';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** The graph model's files as a person drops them on the weights field. */
function droppedFiles(size: number): File[] {
  const { modelJson, weightData, shard } = graphModelFixture(size);
  return [new File([JSON.stringify(modelJson)], 'model.json'), new File([weightData.slice()], shard)];
}

const config: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  weights: 'graph',
  height: 24,
  width: 24,
  frozenEpochs: 1,
  fineTuneEpochs: 0,
};

describe('a dropped graph model as the frozen backbone', () => {
  it('is kept with its input size, builds the head on its features, and is planned as frozen graph nodes', async () => {
    const models = new LabModels();
    const loaded = await models.loadWeights({ files: droppedFiles(24) });
    expect(loaded).toMatchObject({
      kind: 'graph-model',
      inputSize: { height: 24, width: 24 },
      reason: GRAPH_MODEL_FROZEN_ONLY,
    });

    const events: EngineEvent[] = [];
    const before = tf.memory().numTensors;
    const kept = await models.prepare(config, 3, undefined, (e) => events.push(e));
    // The head's input is the graph's 4 features; the input layer is the only "backbone" layer.
    expect(kept.model.inputs[0]!.shape).toEqual([null, 4]);
    expect(kept.backboneLayerCount).toBe(1);
    const graph = models.graphFor(config);
    expect(graph?.featureShape).toEqual([4]);
    expect(events.some((e) => e.kind === 'log' && e.message.includes('Frozen phase only'))).toBe(true);

    const spec = models.describe(config.model, 24, 24, 3, 'graph');
    // The image input, then the graph's nodes as frozen layers (conv, relu, mean), then the head's input.
    expect(spec.layers.map((l) => l.name).slice(0, 2)).toEqual(['input_layer', `${GRAPH_LAYER}/conv`]);
    expect(spec.backboneLayerCount).toBe(5);
    expect(spec.layers[1]!.trainableWeightSizes).toEqual([]);
    expect(await models.weightsReport(config, 3)).toBeNull();
    models.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('says how to get it back when none is loaded (files do not survive a reload)', () => {
    const models = new LabModels();
    expect(() => models.describe(config.model, 24, 24, 3, 'graph')).toThrow(/No graph model is loaded/);
  });
});
