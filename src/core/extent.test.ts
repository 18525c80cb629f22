import { describe, expect, it } from 'vitest';
import { append, maxOf, minOf } from './extent';

describe('maxOf and minOf', () => {
  it('agree with Math.max and Math.min on short lists, NaN, infinities, −0 and the empty list included', () => {
    const cases: number[][] = [
      [],
      [3],
      [-0, 0],
      [0, -0],
      [1, Number.NaN, 2],
      [Number.NaN, -0, 0],
      [0, Number.NaN, -0],
      [-Infinity, Infinity, 5],
      [-1e308, -5e-324],
      Array.from({ length: 50 }, (_, i) => Math.sin(i * 12.9898) * 43758.5453),
    ];
    for (const xs of cases) {
      expect(Object.is(maxOf(xs), Math.max(...xs)), `max of ${xs.join(',')}`).toBe(true);
      expect(Object.is(minOf(xs), Math.min(...xs)), `min of ${xs.join(',')}`).toBe(true);
    }
  });

  it('take lists far past what a spread into a call can hold', () => {
    const n = 1_000_000;
    const xs = Array.from({ length: n }, (_, i) => (i * 7919) % n);
    expect(() => Math.max(...xs)).toThrow(RangeError);
    expect(maxOf(xs)).toBe(n - 1);
    expect(minOf(new Float64Array(xs))).toBe(0);
  });
});

describe('append', () => {
  it('adds a million items in order to what the list held', () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => i);
    const list = append([-1], items);
    expect(list).toHaveLength(1_000_001);
    expect(list[0]).toBe(-1);
    expect(list.at(-1)).toBe(999_999);
  });
});
