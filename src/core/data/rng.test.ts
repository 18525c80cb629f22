import { describe, expect, it } from 'vitest';
import { createRng } from './rng';

const draws = (seed: number, n: number): number[] => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng.next());
};

describe('createRng', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    expect(draws(42, 20)).toEqual(draws(42, 20));
    expect(draws(42, 20)).not.toEqual(draws(43, 20));
  });

  it('keeps next() in [0, 1) with a roughly uniform mean', () => {
    const xs = draws(7, 10_000);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((a, b) => a + b, 0) / xs.length).toBeCloseTo(0.5, 1);
  });

  it('uniform stays in [lo, hi) and returns lo for an empty range', () => {
    const rng = createRng(1);
    for (let i = 0; i < 1000; i++) {
      const x = rng.uniform(-2, 3);
      expect(x).toBeGreaterThanOrEqual(-2);
      expect(x).toBeLessThan(3);
    }
    expect(rng.uniform(1, 1)).toBe(1);
  });

  it('int covers [0, n) and rejects bad n', () => {
    const rng = createRng(3);
    const seen = new Set(Array.from({ length: 500 }, () => rng.int(5)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(() => rng.int(0)).toThrow(RangeError);
    expect(() => rng.int(2.5)).toThrow(RangeError);
  });

  it('shuffle returns a new permutation and leaves the input alone', () => {
    const input = Array.from({ length: 50 }, (_, i) => i);
    const copy = input.slice();
    const out = createRng(9).shuffle(input);
    expect(input).toEqual(copy);
    expect(out).not.toBe(input);
    expect(out).not.toEqual(input);
    expect(out.slice().sort((a, b) => a - b)).toEqual(input);
    expect(createRng(9).shuffle(input)).toEqual(out);
  });

  it('rejects a non-finite seed', () => {
    expect(() => createRng(Number.NaN)).toThrow(RangeError);
  });
});
