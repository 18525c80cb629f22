import { describe, expect, it } from 'vitest';
import { formatBytes, formatFlopRate, formatFlops, peakLiveBytes, type MemorySample } from './memory';

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

  it('picks the unit after rounding, so no value reads 1000 of a unit', () => {
    expect(formatBytes(999_999)).toBe('1.00 MB');
    expect(formatBytes(999_499)).toBe('999 KB');
    expect(formatBytes(9_999)).toBe('10.0 KB');
    expect(formatBytes(99_999)).toBe('100 KB');
    expect(formatBytes(90e6)).toBe('90.0 MB');
    expect(formatBytes(330e9)).toBe('330 GB');
    expect(formatBytes(2.5e12)).toBe('2.50 TB');
  });
});

describe('formatFlops', () => {
  it('scales from MFLOP to TFLOP with three significant digits', () => {
    expect(formatFlops(12_345_678)).toBe('12.3 MFLOP');
    expect(formatFlops(2_127_700_000_000)).toBe('2.13 TFLOP');
    expect(formatFlops(999_999_999)).toBe('1.00 GFLOP');
    expect(formatFlops(450e9)).toBe('450 GFLOP');
    expect(formatFlops(Number.NaN)).toBe('—');
    expect(formatFlopRate(41.2e9)).toBe('41.2 GFLOP/s');
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
