import { describe, expect, it } from 'vitest';
import { largestBatchSearch, predictedLargestBatch, type BatchSearch } from './batchSearch';

/** Drives the search with a predicate, as the engine would with real steps. */
function search(lo: number, hi: number, fits: (batch: number) => boolean, guess?: number) {
  let state: BatchSearch = largestBatchSearch.start(lo, hi, guess);
  let steps = 0;
  while (!state.done) {
    expect(state.next).toBeGreaterThanOrEqual(lo);
    expect(state.next).toBeLessThanOrEqual(hi);
    expect(state.next).toBeGreaterThan(state.fit);
    expect(state.next).toBeLessThan(state.fail);
    state = largestBatchSearch.advance(state, fits(state.next));
    if (++steps > 64) throw new Error('the search does not end');
  }
  return state;
}

describe('largestBatchSearch', () => {
  it('finds the threshold of every monotone predicate from every guess, in O(log n) probes', () => {
    for (const [lo, hi] of [
      [1, 1],
      [1, 2],
      [1, 64],
      [3, 17],
      [1, 300],
    ] as const) {
      const bound = 2 * Math.ceil(Math.log2(hi - lo + 2)) + 3;
      for (let threshold = lo - 1; threshold <= hi; threshold++)
        for (const guess of [lo, Math.floor((lo + hi) / 2), hi, threshold]) {
          const result = search(lo, hi, (b) => b <= threshold, guess);
          expect(result.largest).toBe(threshold >= lo ? threshold : null);
          expect(result.tried.length).toBeLessThanOrEqual(bound);
        }
    }
  });

  it('confirms a right guess in 2 measured steps and one that is 1 or 2 off in 3', () => {
    const at = (threshold: number, guess: number) => search(1, 256, (b) => b <= threshold, guess).tried;
    expect(at(21, 21)).toEqual([
      { batch: 21, fits: true },
      { batch: 22, fits: false },
    ]);
    expect(at(20, 21)).toEqual([
      { batch: 21, fits: false },
      { batch: 20, fits: true },
    ]);
    expect(at(22, 21)).toHaveLength(3);
    expect(at(19, 21)).toHaveLength(3);
  });

  it('never answers a batch that failed, and always measured the next one up', () => {
    for (let threshold = 1; threshold < 40; threshold++)
      for (const guess of [1, 7, 16, 39]) {
        const result = search(1, 40, (b) => b <= threshold, guess);
        expect(result.tried).toContainEqual({ batch: result.largest, fits: true });
        expect(result.tried).toContainEqual({ batch: (result.largest ?? 0) + 1, fits: false });
      }
  });

  it('with lo = hi, probes once', () => {
    expect(largestBatchSearch.start(8, 8)).toMatchObject({ done: false, next: 8 });
    expect(search(8, 8, () => true)).toEqual({ done: true, largest: 8, tried: [{ batch: 8, fits: true }] });
    expect(search(8, 8, () => false)).toEqual({
      done: true,
      largest: null,
      tried: [{ batch: 8, fits: false }],
    });
  });

  it('returns null when nothing fits, having tried lo, and hi when everything fits', () => {
    const none = search(1, 64, () => false, 30);
    expect(none.largest).toBeNull();
    expect(none.tried.at(-1)).toEqual({ batch: 1, fits: false });
    const all = search(1, 64, () => true, 30);
    expect(all.largest).toBe(64);
    expect(all.tried.at(-1)).toEqual({ batch: 64, fits: true });
  });

  it('ends with a predicate that is not monotone, on a batch that fit next to one that did not', () => {
    const flaky = (b: number) => b % 3 !== 0;
    const result = search(1, 100, flaky, 50);
    expect(result.largest).not.toBeNull();
    const largest = result.largest ?? 0;
    expect(flaky(largest)).toBe(true);
    expect(result.tried).toContainEqual({ batch: largest + 1, fits: false });
  });

  it('does not mutate the state it advances, and clamps the guess into the range', () => {
    const start = largestBatchSearch.start(1, 8, 99);
    if (start.done) throw new Error('expected a probe');
    expect(start.next).toBe(8);
    const copy = structuredClone(start);
    largestBatchSearch.advance(start, true);
    expect(start).toEqual(copy);
  });

  it('rejects a range that is empty, below 1 or fractional', () => {
    expect(() => largestBatchSearch.start(0, 8)).toThrow(RangeError);
    expect(() => largestBatchSearch.start(9, 8)).toThrow(/1 ≤ lo ≤ hi \(got 9\.\.8\)/);
    expect(() => largestBatchSearch.start(1, 8.5)).toThrow(RangeError);
  });
});

describe('predictedLargestBatch', () => {
  it('bisects a monotone prediction against the limit', () => {
    const peak = (b: number) => 10 + 3 * b;
    expect(predictedLargestBatch(peak, 100, 1, 256)).toBe(30);
    expect(predictedLargestBatch(peak, 12, 1, 256)).toBeNull();
    expect(predictedLargestBatch(peak, 1e9, 1, 256)).toBe(256);
    expect(predictedLargestBatch(peak, 13, 1, 256)).toBe(1);
  });
});
