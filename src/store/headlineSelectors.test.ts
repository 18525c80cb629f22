import { describe, expect, it } from 'vitest';
import type { TrainResult } from '../core/run/protocol';
import { runHeadline } from './headlineSelectors';
import { initialState } from './initial';
import { runEnded } from './runReducers';
import type { LabState } from './types';

const base = initialState();
const result = (outcome: TrainResult['outcome'], valAccuracy: number): TrainResult =>
  ({ outcome, phases: ['frozen'], valLoss: 0.5, valAccuracy, lastPhase: 'frozen' }) as TrainResult;

function ended(r: TrainResult, batches: { phase: string; peakBytes?: number }[]): LabState {
  const running: LabState = {
    ...base,
    run: {
      ...base.run,
      status: 'running',
      config: base.config,
      backend: 'webgpu',
      batches: batches as LabState['run']['batches'],
    },
  };
  return runEnded(running, r);
}

describe('the run headline', () => {
  it('is empty before a run and while one runs', () => {
    expect(runHeadline(base.run, base.config)).toBeNull();
    const s = ended(result('completed', 0.75), []);
    expect(runHeadline({ ...s.run, status: 'running' }, s.config)).toBeNull();
  });

  it('gives the accuracy and each phase’s highest measured peak', () => {
    const s = ended(result('completed', 0.75), [
      { phase: 'frozen', peakBytes: 10 },
      { phase: 'frozen', peakBytes: 30 },
      { phase: 'fine-tune', peakBytes: 50 },
      { phase: 'fine-tune' },
    ]);
    expect(runHeadline(s.run, s.config)).toEqual({
      outcome: 'completed',
      valAccuracy: 0.75,
      peaks: [
        { phase: 'frozen', peakBytes: 30 },
        { phase: 'fine-tune', peakBytes: 50 },
      ],
      backend: 'webgpu',
      sameSettings: true,
    });
  });

  it('says when no validation finished, and when the settings moved on since', () => {
    const s = ended(result('stopped', Number.NaN), []);
    const h = runHeadline(s.run, { ...s.config, batchSize: s.config.batchSize + 1 });
    expect(h?.valAccuracy).toBeNull();
    expect(h?.outcome).toBe('stopped');
    expect(h?.sameSettings).toBe(false);
  });

  it('leaves an OOM to the run bar’s OOM line', () => {
    const s = ended(result('oom', 0.5), []);
    expect(runHeadline(s.run, s.config)).toBeNull();
  });
});
