import { describe, expect, it } from 'vitest';
import { batchesPerEpoch, plannedPhases } from './schedule';

describe('batchesPerEpoch', () => {
  it('counts a partial last batch', () => {
    expect(batchesPerEpoch(100, 32)).toBe(4);
    expect(batchesPerEpoch(96, 32)).toBe(3);
    expect(batchesPerEpoch(1, 32)).toBe(1);
  });

  it('is 0 for an empty training set', () => {
    expect(batchesPerEpoch(0, 32)).toBe(0);
  });
});

describe('plannedPhases', () => {
  const config = { frozenEpochs: 3, fineTuneEpochs: 2 };

  it('plans both phases of a fresh run, and leaves out a phase with no epochs', () => {
    expect(plannedPhases(config)).toEqual([
      { phase: 'frozen', epochs: 3 },
      { phase: 'fine-tune', epochs: 2 },
    ]);
    expect(plannedPhases({ ...config, fineTuneEpochs: 0 })).toEqual([{ phase: 'frozen', epochs: 3 }]);
  });

  it('plans no fine-tune phase on a graph model, which has nothing to unfreeze', () => {
    expect(plannedPhases({ ...config, weights: 'graph' })).toEqual([{ phase: 'frozen', epochs: 3 }]);
  });

  it('plans the fine-tune phase alone when the run resumes there', () => {
    expect(plannedPhases(config, 'fine-tune')).toEqual([{ phase: 'fine-tune', epochs: 2 }]);
    expect(plannedPhases(config, 'frozen')).toHaveLength(2);
  });
});
