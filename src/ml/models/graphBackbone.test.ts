import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planInput } from '../../core/planner/planner';
import { planTfjs } from '../../core/planner/tfjs';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import { resolveTrainable } from '../../core/settings/trainable';
import { Trainer } from '../train/trainer';
import {
  GraphBackboneError,
  graphClassifier,
  graphFeatures,
  liveGraph,
  loadGraphBackbone,
} from './graphBackbone';
import { fixtureArtifacts, fixtureKernel, graphModelFixture } from './graphModelFixture';
import { GRAPH_LAYER } from '../../core/model/layerTable';
import { describeGraphClassifier } from './graphSpec';
import { resetBackends } from '../tfjsInternals';

// The lab's fixture graph in the converter's format (graphModelFixture.ts): images -> Conv2D 3x3 (4
// filters, SAME) -> Relu -> Mean over height and width (a feature vector, as the published
// feature-vector models give) or -> Relu only (a feature map).
// interop/test_graph_model.py checks a converter-made EfficientNet the same way against Keras.
const SIZE = 8;
const kernelValues = fixtureKernel();

/** The same maths with tfjs ops, as the expected features. */
function expected(xs: tf.Tensor4D, output: 'vector' | 'map'): tf.Tensor {
  return tf.tidy(() => {
    const relu = tf.relu(tf.conv2d(xs, tf.tensor4d(kernelValues, [3, 3, 3, 4]), 1, 'same'));
    return output === 'vector' ? tf.mean(relu, [1, 2]) : relu;
  });
}

const images = (n: number, seed: number) =>
  tf.randomUniform([n, SIZE, SIZE, 3], 0, 255, 'float32', seed) as tf.Tensor4D;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('graph model backbone', () => {
  const load = (output: 'vector' | 'map', inputs: 1 | 2 = 1) =>
    loadGraphBackbone(tf.io.fromMemory(fixtureArtifacts(graphModelFixture(SIZE, { output, inputs }))));
  let disposeLater: (() => void)[] = [];
  afterAll(() => disposeLater.forEach((d) => d()));

  it('reads the input size and the feature shape, and computes the graph outside any tape', async () => {
    const vector = await load('vector');
    const map = await load('map');
    disposeLater = [() => vector.graph.dispose(), () => map.graph.dispose()];
    expect(vector).toMatchObject({ height: SIZE, width: SIZE, featureShape: [4] });
    expect(map.featureShape).toEqual([SIZE, SIZE, 4]);
    const xs = images(3, 1);
    for (const [backbone, output] of [
      [vector, 'vector'],
      [map, 'map'],
    ] as const) {
      const before = tf.memory().numTensors;
      const features = graphFeatures(backbone, xs);
      expect(tf.memory().numTensors).toBe(before + 1);
      const want = expected(xs, output);
      expect(tf.max(tf.abs(tf.sub(features, want))).dataSync()[0]).toBeLessThan(1e-5);
      tf.dispose([features, want]);
    }
    expect(() => graphFeatures(vector, tf.zeros([1, 16, 16, 3]))).toThrow(/exported for 8x8/);
    xs.dispose();
  });

  it('refuses a graph that is not one image input and one feature output, and frees it', async () => {
    const before = tf.memory().numTensors;
    await expect(load('vector', 2)).rejects.toThrow(GraphBackboneError);
    await expect(load('vector', 2)).rejects.toThrow(/one input and one output; this one has 2 and/);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('trains the head on the features in the frozen phase without leaking, and the loss falls', async () => {
    const backbone = await load('vector');
    const { model, backboneLayerCount } = graphClassifier(backbone, 2, 3);
    expect(backboneLayerCount).toBe(1);
    expect(model.layers.map((l) => l.name)).toEqual([
      'features',
      'features_map',
      'avg_pool',
      'head_dropout_1',
      'head_dense',
      'head_dropout_2',
      'predictions',
    ]);
    const trainer = new Trainer(model, backboneLayerCount, { seed: 5 });
    trainer.compile('frozen', 1e-2, 0);
    // Two classes the features separate: dark images and bright ones.
    const xs = tf.concat([tf.mul(images(4, 2), 0.2), tf.add(tf.mul(images(4, 3), 0.2), 200)]) as tf.Tensor4D;
    const ys = tf.tensor1d([0, 0, 0, 0, 1, 1, 1, 1], 'int32');
    const losses: number[] = [];
    let after = 0;
    for (let step = 0; step < 30; step++) {
      const features = graphFeatures(backbone, xs);
      const metrics = await trainer.step({ ys, features });
      features.dispose();
      losses.push(metrics.loss);
      expect(metrics.technique.mode).toBe('outside-tape');
      if (step === 1) after = tf.memory().numTensors;
      if (step > 1) expect(tf.memory().numTensors).toBe(after);
    }
    expect(losses.at(-1)!).toBeLessThan(losses[0]! * 0.5);
    trainer.dispose();
    tf.dispose([xs, ys]);
    model.dispose();
    backbone.graph.dispose();
  });

  it('plans the graph as frozen nodes outside the tape: its constants are weights, only the head trains', async () => {
    const backbone = await load('vector');
    const classifier = graphClassifier(backbone, 2, 3);
    const spec = describeGraphClassifier(backbone, classifier);
    const graphLayers = spec.layers.slice(1, 4);
    expect(graphLayers.map((l) => [l.name, l.op])).toEqual([
      [`${GRAPH_LAYER}/conv`, 'Conv2D'],
      [`${GRAPH_LAYER}/relu`, 'Relu'],
      [`${GRAPH_LAYER}/features`, 'Mean'],
    ]);
    expect(graphLayers.flatMap((l) => l.fixedWeightSizes)).toEqual([3 * 3 * 3 * 4, 2]);
    expect(graphLayers.every((l) => l.trainableWeightSizes.length === 0)).toBe(true);
    const config = {
      ...DEFAULT_TRAIN_CONFIG,
      model: 'tiny' as const,
      height: SIZE,
      width: SIZE,
      batchSize: 4,
    };
    const head = [
      'features_map',
      'avg_pool',
      'head_dropout_1',
      'head_dense',
      'head_dropout_2',
      'predictions',
    ];
    // The frozen phase only: a fine-tune rule would name the graph too (it is a backbone layer), which
    // is why the lab plans and runs no phase 2 for a graph backbone (GRAPH_MODEL_FROZEN_ONLY).
    expect([...resolveTrainable(spec, 'frozen', { kind: 'last', n: 1000 })].sort()).toEqual([...head].sort());
    const input = planInput(spec, config, 'frozen');
    expect(input.backboneOutsideTape).toBe(true);
    const plan = planTfjs(input);
    const headParams = 4 * 128 + 128 + 128 * 2 + 2;
    expect(plan.categories.gradients).toBe(headParams * 4);
    expect(plan.categories.weights).toBe((headParams + 3 * 3 * 3 * 4 + 2) * 4);
    classifier.model.dispose();
    backbone.graph.dispose();
  });

  it('is read again from its files after the engine reset that Release does, and keeps computing', async () => {
    const backbone = await load('vector');
    const first = backbone.graph;
    const xs = images(2, 4);
    const want = await graphFeatures(backbone, xs).array();
    xs.dispose();
    resetBackends();
    await tf.setBackend('cpu');
    // The reset freed every tensor: the features now come from a graph loaded on the new backend.
    const again = images(2, 4);
    const before = tf.memory().numTensors;
    const features = graphFeatures(backbone, again);
    expect(backbone.graph).not.toBe(first);
    expect(tf.memory().numTensors).toBe(before + 1 + 2);
    expect(await features.array()).toEqual(want);
    // Later calls on the same backend reuse it: only the features are new.
    const next = graphFeatures(backbone, again);
    expect(liveGraph(backbone)).toBe(backbone.graph);
    expect(tf.memory().numTensors).toBe(before + 2 + 2);
    tf.dispose([features, next, again]);
    backbone.graph.dispose();
    expect(tf.memory().numTensors).toBe(before - 1);
  });
});
