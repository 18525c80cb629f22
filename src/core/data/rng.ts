/** A seeded pseudo-random number generator; the same seed always yields the same sequence. */
export interface Rng {
  /** Next value in [0, 1). */
  next(): number;
  /** Uniform value in [lo, hi); returns lo when lo === hi (still consuming one draw). */
  uniform(lo: number, hi: number): number;
  /** Uniform integer in [0, n) for a positive integer n ≤ 2^32. */
  int(n: number): number;
  /** A shuffled copy of arr (Fisher–Yates); arr itself is left untouched. */
  shuffle<T>(arr: readonly T[]): T[];
}

/**
 * mulberry32: 32-bit state, full 2^32 period, fast and good enough for shuffling and augmentation.
 * Math.random cannot be seeded, and runs must be reproducible.
 */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new RangeError(`RNG seed must be a finite number (got ${seed}).`);
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => {
    if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) {
      throw new RangeError(`rng.int(n) needs an integer 1 ≤ n ≤ 2^32 (got ${n}).`);
    }
    return Math.floor(next() * n);
  };
  return {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int,
    shuffle: <T>(arr: readonly T[]): T[] => {
      const out = arr.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        // A temporary, not a destructuring swap: that makes an array per step until the JIT warms up,
        // and a dropped folder's split shuffles 20,000 items once, cold (GC was a third of its task).
        const held = out[i] as T;
        out[i] = out[j] as T;
        out[j] = held;
      }
      return out;
    },
  };
}
