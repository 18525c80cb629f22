import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_PRESETS, planRunPoint } from '../core/sweep/sweep';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import type { TrainConfig } from '../core/settings/trainConfig';
import { graphClassifier, loadGraphBackbone, type GraphBackbone } from '../ml/models/graphBackbone';
import { fixtureArtifacts, graphModelFixture } from '../ml/models/graphModelFixture';
import { describeGraphClassifier } from '../ml/models/graphSpec';
import { resetBackends } from '../ml/tfjsInternals';
import { measurePoint } from './sweep';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const head = DEFAULT_SWEEP_PRESETS.find((p) => p.id === 'head')!;
const all = DEFAULT_SWEEP_PRESETS.find((p) => p.id === 'all')!;
// The settings name an architecture too (graphChoice keeps it): a graph point must not build it.
const config: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  model: 'tiny',
  weights: 'graph',
  height: SIZE,
  width: SIZE,
  fineTuneEpochs: 0,
};

const loadGraph = (): Promise<GraphBackbone> =>
  loadGraphBackbone(tf.io.fromMemory(fixtureArtifacts(graphModelFixture(SIZE))));

describe('a sweep point on a graph model', () => {
  it('measures the graph outside the tape and the head, predicted on the graph and head, with no leak', async () => {
    const graph = await loadGraph();
    const before = tf.memory().numTensors;
    const target = { batch: 8, size: SIZE, presetId: 'head' };
    const point = await measurePoint('cpu', config, target, head, 3, 'as-run', graph);
    expect(point.status).toBe('measured');
    // The prediction is the planner's for the graph-and-head network, not for the settings' 'tiny'.
    const classifier = graphClassifier(graph, 3, 1);
    const spec = describeGraphClassifier(graph, classifier);
    expect(point.predictedBytes).toBe(planRunPoint(spec, config, head, 8).peakBytes);
    classifier.model.dispose();
    // The graph's forward pass is measured with the step: the images and its 4-channel conv map were
    // alive together (the head alone, on 4 features per image, needs a few kilobytes).
    const images = 8 * SIZE * SIZE * 3 * 4;
    const convMap = 8 * SIZE * SIZE * 4 * 4;
    expect(point.peakBytes!).toBeGreaterThanOrEqual(images + convMap);
    expect(tf.memory().numTensors).toBe(before);
    const tiny = await measurePoint('cpu', { ...config, weights: 'random' }, target, head, 3, 'as-run');
    expect(tiny.peakBytes).not.toBe(point.peakBytes);
    graph.graph.dispose();
  });

  it('runs out of memory under a small card like any point, and frees what it made', async () => {
    const graph = await loadGraph();
    const before = tf.memory().numTensors;
    const target = { batch: 16, size: SIZE, presetId: 'head' };
    const point = await measurePoint('cpu', { ...config, budgetBytes: 2e5 }, target, head, 3, 'sweep', graph);
    expect(point).toMatchObject({ status: 'oom', oomKind: 'budget' });
    expect(tf.memory().numTensors).toBe(before);
    graph.graph.dispose();
  });

  it('is measured on a fresh backend (each sweep point resets the engine) with the graph read again', async () => {
    const graph = await loadGraph();
    resetBackends();
    await tf.setBackend('cpu');
    const target = { batch: 2, size: SIZE, presetId: 'head' };
    const point = await measurePoint('cpu', config, target, head, 3, 'sweep', graph);
    expect(point.status).toBe('measured');
    graph.graph.dispose();
  });

  it('refuses a fine-tune preset with the reason', async () => {
    const graph = await loadGraph();
    const before = tf.memory().numTensors;
    const target = { batch: 2, size: SIZE, presetId: 'all' };
    await expect(measurePoint('cpu', config, target, all, 3, 'sweep', graph)).rejects.toThrow(
      /'all layers' preset fine-tunes: .*no layers or variables to unfreeze/,
    );
    expect(tf.memory().numTensors).toBe(before);
    graph.graph.dispose();
  });
});
