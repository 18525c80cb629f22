import { describe, expect, it } from 'vitest';
import { count, errorMessage, formatBytes, formatDuration, formatFlopRate, formatFlops } from './format';

describe('count', () => {
  it('writes thousands separators, as en-US does, whatever the machine locale', () => {
    expect(count(0)).toBe('0');
    expect(count(999)).toBe('999');
    expect(count(6_084_054)).toBe('6,084,054');
    expect(count(-1234.5)).toBe('-1,234.5');
  });
});

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

describe('formatDuration', () => {
  it('formats minutes and hours', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(61_400)).toBe('1:01');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });
});

describe('errorMessage', () => {
  it("reads an Error's message and writes anything else thrown as text", () => {
    expect(errorMessage(new RangeError('Array buffer allocation failed'))).toBe(
      'Array buffer allocation failed',
    );
    expect(errorMessage('h5wasm: not an HDF5 file')).toBe('h5wasm: not an HDF5 file');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});
