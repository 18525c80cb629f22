import { describe, expect, it } from 'vitest';
import { formatBytes, peakLiveBytes, type MemorySample } from './memory';

describe('formatBytes', () => {
  it('uses decimal units with three significant digits', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(602_112)).toBe('602 KB');
    expect(formatBytes(3_211_264)).toBe('3.21 MB');
    expect(formatBytes(38_535_168)).toBe('38.5 MB');
    expect(formatBytes(16e9)).toBe('16.0 GB');
    expect(formatBytes(-2048)).toBe('-2.05 KB');
    expect(formatBytes(Number.NaN)).toBe('—');
  });
});

describe('peakLiveBytes', () => {
  const s = (t: number, liveBytes: number): MemorySample => ({ t, liveBytes, numTensors: 1 });
  it('takes the highest sample inside the half-open window', () => {
    const samples = [s(0, 5), s(10, 50), s(20, 7), s(30, 90)];
    expect(peakLiveBytes(samples, 0, 30)).toBe(50);
    expect(peakLiveBytes(samples, 20, 31)).toBe(90);
    expect(peakLiveBytes(samples, 40, 50)).toBe(0);
  });
});
