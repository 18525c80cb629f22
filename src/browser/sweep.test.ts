import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings';
import { DEFAULT_SWEEP_PRESETS } from '../core/sweep';
import { measurePoint } from './sweep';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const config = { ...DEFAULT_TRAIN_CONFIG, model: 'tiny' as const, weights: 'random' as const };
const all = DEFAULT_SWEEP_PRESETS.find((p) => p.id === 'all')!;

describe('measurePoint', () => {
  it('measures a step next to its prediction and leaves no tensor behind', async () => {
    const before = tf.memory().numTensors;
    const point = await measurePoint('cpu', config, { batch: 2, size: 32, presetId: 'all' }, all, 3);
    expect(point.status).toBe('measured');
    expect(Math.abs(point.predictedBytes! - point.peakBytes!) / point.peakBytes!).toBeLessThan(0.1);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('turns a budget OOM into an OOM point naming the layer, and leaves no tensor behind', async () => {
    const before = tf.memory().numTensors;
    const point = await measurePoint(
      'cpu',
      { ...config, budgetBytes: 2e6 },
      { batch: 8, size: 32, presetId: 'all' },
      all,
      3,
    );
    expect(point.status).toBe('oom');
    expect(point.oomKind).toBe('budget');
    expect(point.oomLayer).toBeTruthy();
    expect(tf.memory().numTensors).toBe(before);
  });
});
