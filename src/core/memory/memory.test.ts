import { describe, expect, it } from 'vitest';
import { peakLiveBytes, type MemorySample } from './memory';

describe('peakLiveBytes', () => {
  const s = (t: number, liveBytes: number): MemorySample => ({ t, liveBytes, numTensors: 1 });
  it('takes the highest sample inside the half-open window', () => {
    const samples = [s(0, 5), s(10, 50), s(20, 7), s(30, 90)];
    expect(peakLiveBytes(samples, 0, 30)).toBe(50);
    expect(peakLiveBytes(samples, 20, 31)).toBe(90);
    expect(peakLiveBytes(samples, 40, 50)).toBe(0);
  });
});
