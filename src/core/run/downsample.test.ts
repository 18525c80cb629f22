import { describe, expect, it } from 'vitest';
import { downsampleMax } from './downsample';

describe('downsampleMax', () => {
  it('returns short series unchanged', () => {
    expect(downsampleMax([1, 2, 3], 5, (x) => x)).toEqual([1, 2, 3]);
  });
  it('keeps the peak of each bucket', () => {
    const series = Array.from({ length: 100 }, (_, i) => (i === 37 ? 1000 : i % 10));
    const out = downsampleMax(series, 10, (x) => x);
    expect(out).toHaveLength(10);
    expect(Math.max(...out)).toBe(1000);
    expect(out[0]).toBe(9);
  });
});
