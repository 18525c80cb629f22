import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../core/run/protocol';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import { DEFAULT_SWEEP_PRESETS, type SweepPoint } from '../core/sweep/sweep';
import { atFloat16 } from '../core/sweep/precision';
import { measurePoint, sweepGrid } from './sweep';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const config = { ...DEFAULT_TRAIN_CONFIG, model: 'tiny' as const, weights: 'random' as const };
const all = DEFAULT_SWEEP_PRESETS.find((p) => p.id === 'all')!;
const head = DEFAULT_SWEEP_PRESETS.find((p) => p.id === 'head')!;

describe('the precision axis of a sweep', () => {
  it('measures a float16-storage point checkpointed, below the float32 one, as the planner predicts', async () => {
    const before = tf.memory().numTensors;
    const target = { batch: 4, size: 32, presetId: 'all' };
    const f32 = await measurePoint('cpu', config, target, all, 3);
    const f16 = await measurePoint('cpu', config, { ...target, presetId: 'all@f16' }, atFloat16(all), 3);
    expect(f16.status).toBe('measured');
    // The plain step keeps every activation; the float16 one only packed boundaries and one recompute.
    expect(f16.peakBytes!).toBeLessThan(f32.peakBytes!);
    expect(Math.abs(f16.predictedBytes! - f16.peakBytes!) / f16.peakBytes!).toBeLessThan(0.05);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('runs each fine-tune preset at both precisions and a frozen preset in float32 only', async () => {
    const events: EngineEvent[] = [];
    const measured: string[] = [];
    const points = await sweepGrid(
      { batches: [2], sizes: [32], presets: [head, all], precisions: ['float32', 'float16'] },
      {
        measure: async (target, preset) => {
          measured.push(`${preset.id}:${preset.storage ?? 'float32'}`);
          return { ...target, status: 'measured', peakBytes: 1 } satisfies SweepPoint;
        },
        shouldStop: () => false,
        emit: (e) => events.push(e),
      },
    );
    expect(measured).toEqual(['head:float32', 'all:float32', 'all@f16:float16']);
    expect(points.map((p) => p.presetId)).toEqual(['head', 'all', 'all@f16']);
    expect(events).toHaveLength(3);
  });
});
