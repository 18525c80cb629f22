import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings';
import { initialState } from '../../store/initial';
import type { BatchPoint, LabState } from '../../store/types';
import { runEnded, runEntry } from './runEntry';

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
