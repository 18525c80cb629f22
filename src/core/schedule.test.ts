import { describe, expect, it } from 'vitest';
import { batchesPerEpoch, plannedEpochs, plannedSteps } from './schedule';

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

describe('plannedSteps', () => {
  const config = { frozenEpochs: 3, fineTuneEpochs: 2, batchSize: 16 };

  it('plans both phases of a fresh run', () => {
    expect(plannedEpochs(config)).toBe(5);
    expect(plannedSteps(config, 40)).toBe(5 * 3);
  });

  it('plans the fine-tune phase alone when the run resumes there', () => {
    expect(plannedEpochs(config, 'fine-tune')).toBe(2);
    expect(plannedSteps(config, 40, 'fine-tune')).toBe(2 * 3);
    expect(plannedSteps(config, 40, 'frozen')).toBe(5 * 3);
  });
});
