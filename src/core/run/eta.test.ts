import { describe, expect, it } from 'vitest';
import { estimateRemainingMs } from './eta';

describe('estimateRemainingMs', () => {
  it('is null before any step was timed', () => {
    expect(estimateRemainingMs({ done: 0, total: 10, recentStepMs: [] })).toBeNull();
  });
  it('multiplies the remaining steps by the median step time, ignoring a slow first step', () => {
    expect(estimateRemainingMs({ done: 3, total: 10, recentStepMs: [9000, 100, 120] })).toBe(7 * 120);
    expect(estimateRemainingMs({ done: 2, total: 4, recentStepMs: [100, 200] })).toBe(2 * 150);
  });
  it('never goes negative when the plan shrank', () => {
    expect(estimateRemainingMs({ done: 12, total: 10, recentStepMs: [100] })).toBe(0);
  });
});
