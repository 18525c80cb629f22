import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import { initialState } from './initial';
import type { BatchPoint, LabState } from './types';
import { runEnded, runEntry, sweepEnded, sweepEntries } from './runEntry';

// Only the fields the history reads; the rest of a step does not matter to it.
const step = (phase: BatchPoint['phase'], stepMs: number, peakBytes?: number) =>
  ({ phase, stepMs, peakBytes }) as BatchPoint;

function endedRun(status: LabState['run']['status'], patch: Partial<LabState['run']> = {}): LabState {
  const s = initialState();
  const config = { ...DEFAULT_TRAIN_CONFIG, batchSize: 16 };
  return { ...s, run: { ...s.run, status, config, backend: 'cpu', ...patch } };
}

describe('runEntry', () => {
  it('keeps a run with its measured peaks, median step time, accuracy and what changed', () => {
    const s = endedRun('completed', {
      batches: [step('frozen', 30, 10e6), step('frozen', 10, 12e6), step('fine-tune', 50, 40e6)],
      epochs: [{ phase: 'fine-tune', valAccuracy: 0.75 } as LabState['run']['epochs'][number]],
    });
    const e = runEntry(s, DEFAULT_TRAIN_CONFIG, 1000);
    expect(e).toMatchObject({
      at: 1000,
      changed: ['batch 8 → 16'],
      // The planner had not described the model: no prediction rather than one for other settings.
      predicted: [],
      measured: [
        { phase: 'frozen', peakBytes: 12e6 },
        { phase: 'fine-tune', peakBytes: 40e6 },
      ],
      outcome: 'completed',
      oomAt: null,
      stepMs: 30,
      valAccuracy: 0.75,
      backend: 'cpu',
    });
  });

  it('says where memory ran out', () => {
    const oom = { kind: 'budget', op: 'Conv2D', layer: 'top_conv' } as LabState['run']['oom'];
    expect(runEntry(endedRun('oom', { oom }), null, 0)).toMatchObject({
      outcome: 'oom',
      oomAt: 'Conv2D in top_conv (budget)',
      stepMs: null,
      valAccuracy: null,
      changed: [],
    });
  });

  it('sees a run end once, when it leaves running or stopping', () => {
    expect(runEnded(endedRun('running'), endedRun('completed'))).toBe(true);
    expect(runEnded(endedRun('stopping'), endedRun('stopped'))).toBe(true);
    expect(runEnded(endedRun('completed'), endedRun('completed'))).toBe(false);
    expect(runEnded(endedRun('idle'), endedRun('running'))).toBe(false);
  });
});

describe('sweepEntries', () => {
  it('keeps each point of a sweep with the settings it ran and its predicted and measured peak', () => {
    const s = initialState();
    const config = { ...DEFAULT_TRAIN_CONFIG, model: 'tiny' as const, weights: 'random' as const };
    const ended: LabState = {
      ...s,
      sweep: {
        ...s.sweep,
        status: 'done',
        config,
        points: [
          { batch: 4, size: 64, presetId: 'all', status: 'measured', peakBytes: 30e6, predictedBytes: 28e6 },
          { batch: 8, size: 64, presetId: 'all', status: 'oom', oomKind: 'budget', oomLayer: 'top_conv' },
        ],
      },
    };
    expect(sweepEnded({ ...s, sweep: { ...s.sweep, status: 'running', config } }, ended)).toBe(true);
    const [a, b] = sweepEntries(ended, config, 5);
    expect(a).toMatchObject({
      kind: 'sweep',
      settings: { batchSize: 4, height: 64, width: 64, fineTune: { kind: 'all' } },
      changed: ['size 128x128 → 64x64', 'batch 8 → 4', 'train last:20 → all'],
      predicted: [{ phase: 'fine-tune', peakBytes: 28e6 }],
      measured: [{ phase: 'fine-tune', peakBytes: 30e6 }],
      outcome: 'measured',
    });
    expect(b).toMatchObject({
      changed: ['batch 4 → 8'],
      measured: [],
      outcome: 'oom',
      oomAt: 'top_conv (budget)',
    });
  });
});
