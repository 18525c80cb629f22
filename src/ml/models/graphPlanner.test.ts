import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { planTfjs, predictionError } from '../../core/planner/planner';
import { Trainer } from '../train/trainer';
import { graphClassifier, graphFeatures, loadGraphBackbone } from './graphBackbone';
import { fixtureArtifacts, graphModelFixture, type FixtureVariant } from './graphModelFixture';
import { GRAPH_LAYER } from '../../core/model/layerTable';
import { describeGraphClassifier, graphNodes } from './graphSpec';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const load = (variant: FixtureVariant) =>
  loadGraphBackbone(tf.io.fromMemory(fixtureArtifacts(graphModelFixture(SIZE, variant))));

describe('the graph as the planner sees it', () => {
  it('lists each executed node in order with its shape, its inputs and its constants, and keeps nothing', async () => {
    const backbone = await load({ output: 'vector' });
    expect(backbone.nodes).toEqual([
      { name: 'conv', op: 'Conv2D', inputs: ['images'], shape: [SIZE, SIZE, 4], constants: [108] },
      { name: 'relu', op: 'Relu', inputs: ['conv'], shape: [SIZE, SIZE, 4], constants: [] },
      { name: 'features', op: 'Mean', inputs: ['relu'], shape: [4], constants: [2] },
    ]);
    const before = tf.memory().numTensors;
    const again = graphNodes(
      backbone.graph,
      fixtureArtifacts(graphModelFixture(SIZE)).modelTopology,
      SIZE,
      SIZE,
    );
    expect(again).toEqual(backbone.nodes);
    expect(tf.memory().numTensors).toBe(before);
    expect(tf.env().getBool('KEEP_INTERMEDIATE_TENSORS')).toBe(false);
    const classifier = graphClassifier(backbone, 3, 1);
    const spec = describeGraphClassifier(backbone, classifier);
    expect(spec.layers.slice(0, 6).map((l) => [l.name, l.inputs])).toEqual([
      ['input_layer', []],
      [`${GRAPH_LAYER}/conv`, ['input_layer']],
      [`${GRAPH_LAYER}/relu`, [`${GRAPH_LAYER}/conv`]],
      [`${GRAPH_LAYER}/features`, [`${GRAPH_LAYER}/relu`]],
      ['features', [`${GRAPH_LAYER}/features`]],
      ['features_map', ['features']],
    ]);
    expect(spec.backboneLayerCount).toBe(5);
    classifier.model.dispose();
    backbone.graph.dispose();
  });
});

type Case = [output: 'vector' | 'map', block: 'plain' | 'residual', batch: number, at: string];
const CASES: Case[] = [
  ['vector', 'plain', 2, 'backbone'],
  ['vector', 'plain', 8, 'backbone'],
  ['vector', 'plain', 32, 'backbone'],
  ['map', 'plain', 2, 'backward'],
  ['map', 'plain', 8, 'backward'],
  ['map', 'plain', 32, 'backward'],
  ['vector', 'residual', 8, 'backbone'],
  ['vector', 'residual', 32, 'backbone'],
  ['map', 'residual', 32, 'backward'],
];

describe('planner against tf.profile for a graph backbone and the head (cpu backend)', () => {
  // As a sweep point and a run step: the graph's features for the images, outside the tape, then the
  // head's step on them, both inside the measured region. The vector peaks in the graph (its conv and
  // relu maps alive together; with the residual block the conv's map also beside the sum), the map in
  // the head's backprop beside the features and their copy.
  it.each(CASES)(
    '%s features (%s), batch %i: within 2%, at the %s peak',
    async (output, block, batch, at) => {
      const backbone = await load({ output, block });
      const classifier = graphClassifier(backbone, 3, 1);
      const spec = describeGraphClassifier(backbone, classifier);
      const trainer = new Trainer(classifier.model, classifier.backboneLayerCount, { seed: 1 });
      trainer.compile('frozen', 1e-3, 0);
      const xs = tf.randomUniform([batch, SIZE, SIZE, 3], 0, 255) as tf.Tensor4D;
      const ys = tf.tensor1d(
        Array.from({ length: batch }, (_, i) => i % 3),
        'int32',
      );
      const step = async () => {
        const features = graphFeatures(backbone, xs) as tf.Tensor4D;
        await trainer.step({ xs: features, ys });
        features.dispose();
      };
      // The first step creates Adam's slots; the planner predicts every later step.
      await step();
      const settled = tf.memory().numTensors;
      const measured = await tf.profile(step);
      expect(tf.memory().numTensors).toBe(settled);
      const plan = planTfjs({
        spec,
        batch,
        trainable: new Set(spec.layers.slice(spec.backboneLayerCount).map((l) => l.name)),
        optimizer: 'adam',
        backboneOutsideTape: true,
      });
      expect(plan.at).toBe(at);
      expect(Math.abs(predictionError(plan.peakBytes, measured.peakBytes))).toBeLessThan(2);
      tf.dispose([xs, ys]);
      trainer.dispose();
      classifier.model.dispose();
      backbone.graph.dispose();
    },
  );
});
