import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../core/run/protocol';
import {
  graphClassifier,
  graphFeatures,
  loadGraphBackbone,
  type GraphBackbone,
} from '../models/graphBackbone';
import { fixtureArtifacts, graphModelFixture } from '../models/graphModelFixture';
import { noiseBatch, quietRunContext } from './fixtures';
import { runTraining, type RunContext } from './runLoop';
import { Trainer } from './trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 16;
const CLASSES = 3;

/** The fixture's files as tfjs reads a dropped model.json with its shard. */
function loadFixture(): Promise<GraphBackbone> {
  return loadGraphBackbone(tf.io.fromMemory(fixtureArtifacts(graphModelFixture(SIZE))));
}

describe('a run on a graph model as the frozen backbone', () => {
  it('trains the head on the graph features of every split and frees everything between runs', async () => {
    const backbone = await loadFixture();
    const { model, backboneLayerCount } = graphClassifier(backbone, CLASSES, 1);
    const calls: string[] = [];
    const events: EngineEvent[] = [];
    const ctx: RunContext = quietRunContext(events, {
      dataset: (split) =>
        tf.data.generator(function* () {
          const n = split === 'train' ? 2 : 1;
          for (let b = 0; b < n; b++) yield noiseBatch(4, SIZE, CLASSES, 10 * b + 1);
        }),
      batchesPerEpoch: 2,
      patience: 5,
      validationPaths: ['a', 'b', 'c', 'd'],
      // The head's model takes [4] features: a step handed images would fail on its input shape.
      headInput: (xs) => {
        calls.push(xs.shape.join('x'));
        return graphFeatures(backbone, xs);
      },
    });
    const run = async () => {
      const trainer = new Trainer(model, backboneLayerCount);
      try {
        return await runTraining(
          trainer,
          [{ phase: 'frozen', epochs: 2, learningRate: 1e-2, unfreeze: 0 }],
          ctx,
        );
      } finally {
        trainer.dispose();
      }
    };
    const weightsBefore = model.getWeights().map((w) => Array.from(w.dataSync()));
    await run();
    const before = tf.memory().numTensors;
    const result = await run();
    expect(tf.memory().numTensors).toBe(before);

    expect(result.outcome).toBe('completed');
    expect(result.phases).toEqual(['frozen']);
    // Per run: 2 epochs of 2 training and 1 validation batch, all images; the diagnostics reuse the
    // last validation pass's predictions and run no model.
    expect(calls).toEqual(Array(2 * 6).fill(`4x${SIZE}x${SIZE}x3`));
    const diagnostics = events.flatMap((e) => (e.kind === 'diagnostics' ? [e.report] : []));
    expect(diagnostics.map((r) => r.total)).toEqual([4, 4]);
    // Thumbnails are cut from the images, not the features.
    for (const m of diagnostics.flatMap((r) => r.misclassified))
      expect(m.thumbnail && [m.thumbnail.width, m.thumbnail.height]).toEqual([SIZE, SIZE]);
    const batches = events.filter((e) => e.kind === 'batch');
    expect(batches).toHaveLength(8);
    for (const e of batches) expect(Number.isFinite(e.kind === 'batch' && e.loss)).toBe(true);
    // The head learned: its dense kernel moved.
    const after = model.getWeights().map((w) => Array.from(w.dataSync()));
    expect(after).not.toEqual(weightsBefore);
    model.dispose();
    backbone.graph.dispose();
  });
});

describe('a graph model run with the feature cache', () => {
  it('caches the graph features in the first epoch and trains the head on them after, leaking nothing', async () => {
    const backbone = await loadFixture();
    const { model, backboneLayerCount } = graphClassifier(backbone, CLASSES, 1);
    const events: EngineEvent[] = [];
    const ctx = quietRunContext(events, {
      dataset: () =>
        tf.data.generator(function* () {
          yield noiseBatch(4, SIZE, CLASSES, 3);
        }),
      batchesPerEpoch: 1,
      patience: 5,
      featureCache: { seed: 1 },
      headInput: (xs) => graphFeatures(backbone, xs),
    });
    const trainer = new Trainer(model, backboneLayerCount);
    const before = tf.memory().numTensors;
    const result = await runTraining(
      trainer,
      [{ phase: 'frozen', epochs: 2, learningRate: 1e-2, unfreeze: 0 }],
      ctx,
    );
    expect(result.outcome).toBe('completed');
    const steps = events.flatMap((e) => (e.kind === 'batch' ? [e.technique.featureCache] : []));
    expect(steps).toEqual(['filling', 'reading']);
    trainer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
    backbone.graph.dispose();
  });
});
