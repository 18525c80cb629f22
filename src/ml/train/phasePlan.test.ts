import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LayerNames } from '../../core/model/layerTable';
import { plannedPhases } from '../../core/settings/schedule';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import type { TrainConfig } from '../../core/settings/trainConfig';
import { graphClassifier, loadGraphBackbone } from '../models/graphBackbone';
import { fixtureArtifacts, graphModelFixture } from '../models/graphModelFixture';
import { tinyClassifier } from './fixtures';
import { runPhasePlan } from './phasePlan';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const names = (model: tf.LayersModel, backboneLayerCount: number): LayerNames => ({
  name: model.name,
  backboneLayerCount,
  layers: model.layers.map((l) => ({ name: l.name })),
});

const config: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  model: 'tiny',
  frozenEpochs: 2,
  fineTuneEpochs: 3,
  frozenLearningRate: 1e-3,
  fineTuneLearningRate: 1e-5,
  fineTune: { kind: 'last', n: 2 },
};

describe('the run phase plan', () => {
  it('has the phases plannedPhases gives, with their rates and the fine-tune set resolved on the model', () => {
    const { model, backboneLayerCount } = tinyClassifier(16, 3);
    const layerNames = names(model, backboneLayerCount);
    const backbone = model.layers.slice(1, backboneLayerCount).map((l) => l.name);
    const plan = runPhasePlan(config, layerNames, null);
    expect(plan).toEqual([
      { phase: 'frozen', epochs: 2, learningRate: 1e-3, unfreeze: 0 },
      { phase: 'fine-tune', epochs: 3, learningRate: 1e-5, unfreeze: backbone.slice(-2) },
    ]);
    // A kept model continuing its fine-tuning, and settings without one phase, plan what the store shows.
    for (const [c, from] of [
      [config, 'fine-tune'],
      [config, 'frozen'],
      [{ ...config, fineTuneEpochs: 0 }, null],
      [{ ...config, frozenEpochs: 0 }, null],
    ] as const) {
      const phases = runPhasePlan(c, layerNames, from).map(({ phase, epochs }) => ({ phase, epochs }));
      expect(phases).toEqual(plannedPhases(c, from));
    }
    model.dispose();
  });

  it("plans a graph model's run as the frozen phase only, even with fine-tune epochs set", async () => {
    const backbone = await loadGraphBackbone(tf.io.fromMemory(fixtureArtifacts(graphModelFixture(8))));
    const { model, backboneLayerCount } = graphClassifier(backbone, 2, 1);
    const graph: TrainConfig = { ...config, weights: 'graph' };
    expect(runPhasePlan(graph, names(model, backboneLayerCount), null)).toEqual([
      { phase: 'frozen', epochs: 2, learningRate: 1e-3, unfreeze: 0 },
    ]);
    // Continuing a graph run's fine-tuning has nothing to train: no phase at all.
    expect(runPhasePlan(graph, names(model, backboneLayerCount), 'fine-tune')).toEqual([]);
    model.dispose();
    backbone.graph.dispose();
  });
});
