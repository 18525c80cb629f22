import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import type { EngineEvent } from '../core/run/protocol';
import { DEFAULT_SWEEP_PRESETS } from '../core/sweep/sweep';
import { measurePoint, searchLargestBatch, sweepGrid, type PointRunner } from './sweep';

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

  it('measures a point as the run trains it: techniques and prefetched batches, as the planner predicts', async () => {
    const asRun = {
      ...config,
      prefetch: 2,
      techniques: { ...config.techniques, accumulationSteps: 2, checkpointing: 'blocks' as const },
    };
    const before = tf.memory().numTensors;
    const target = { batch: 4, size: 32, presetId: 'all' };
    const plain = await measurePoint('cpu', asRun, target, all, 3);
    const run = await measurePoint('cpu', asRun, target, all, 3, 'as-run');
    expect(run.status).toBe('measured');
    expect(Math.abs(run.predictedBytes! - run.peakBytes!) / run.peakBytes!).toBeLessThan(0.05);
    // Accumulation and checkpointing lower the step's peak; the plain sweep step ignores them.
    expect(run.peakBytes!).toBeLessThan(plain.peakBytes!);
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

/** A runner whose card fits batches up to `fits` (budget OOM above), recording what it was asked. */
function fakeCard(fits: number) {
  const calls: { batch: number; size: number; fresh: boolean }[] = [];
  const events: EngineEvent[] = [];
  const runner: PointRunner = {
    measure: async (target, _preset, fresh) => {
      calls.push({ batch: target.batch, size: target.size, fresh });
      return target.batch <= fits
        ? { ...target, status: 'measured', peakBytes: target.batch * 1000 }
        : { ...target, status: 'oom', oomKind: 'budget', predictedBytes: target.batch * 1000 };
    },
    shouldStop: () => false,
    emit: (e) => events.push(e),
  };
  return { runner, calls, events };
}

describe('sweepGrid', () => {
  it('measures every point on a fresh backend and skips larger batches after a budget OOM', async () => {
    const { runner, calls, events } = fakeCard(4);
    const grid = { batches: [2, 4, 8, 16], sizes: [32], presets: [all] };
    const points = await sweepGrid(grid, runner);
    expect(points.map((p) => p.status)).toEqual(['measured', 'measured', 'oom', 'skipped']);
    expect(points[3]!.predictedBytes).toBe(8000);
    expect(calls).toEqual([2, 4, 8].map((batch) => ({ batch, size: 32, fresh: true })));
    expect(events).toHaveLength(4);
  });

  it('stops between points', async () => {
    const { runner, calls } = fakeCard(100);
    let stop = false;
    const points = await sweepGrid(
      { batches: [1, 2, 3], sizes: [32], presets: [all] },
      {
        ...runner,
        measure: (...args) => {
          stop = true;
          return runner.measure(...args);
        },
        shouldStop: () => stop,
      },
    );
    expect(points).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });
});

describe('searchLargestBatch', () => {
  it('finds the largest batch that fits, on a fresh backend only for the first probe after a budget OOM', async () => {
    const { runner, calls } = fakeCard(5);
    const result = await searchLargestBatch(all, 32, { lo: 1, hi: 16, predicted: null }, runner);
    expect(result.largest).toBe(5);
    expect(result.points.map((p) => p.batch)).toEqual(calls.map((c) => c.batch));
    expect(calls[0]!.fresh).toBe(true);
    expect(calls.slice(1).every((c) => !c.fresh)).toBe(true);
  });

  it('starts from the planner and confirms a right prediction in two measured steps', async () => {
    const { runner, calls } = fakeCard(5);
    const result = await searchLargestBatch(all, 32, { lo: 1, hi: 256, predicted: 5 }, runner);
    expect(result).toMatchObject({ largest: 5, predicted: 5 });
    expect(calls.map((c) => c.batch)).toEqual([5, 6]);
    const off = fakeCard(6);
    expect((await searchLargestBatch(all, 32, { lo: 1, hi: 256, predicted: 5 }, off.runner)).largest).toBe(6);
    expect(off.calls.map((c) => c.batch)).toEqual([5, 6, 7]);
  });

  it('re-creates the backend after a real device failure', async () => {
    const { runner, calls } = fakeCard(0);
    const failing: PointRunner = {
      ...runner,
      measure: async (target, _preset, fresh) => {
        calls.push({ batch: target.batch, size: target.size, fresh });
        return { ...target, status: 'oom', oomKind: 'device-oom' };
      },
    };
    const result = await searchLargestBatch(all, 32, { lo: 1, hi: 4, predicted: null }, failing);
    expect(result.largest).toBeNull();
    expect(calls.every((c) => c.fresh)).toBe(true);
  });
});
