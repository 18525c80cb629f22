/**
 * The search for the largest batch that fits: a state machine the engine drives one measured step at a
 * time, guided by the planner's own answer to the same question (predictedLargestBatch).
 */

/** One probed batch of the largest-batch search. */
export interface BatchTrial {
  batch: number;
  fits: boolean;
}

/** The search while it still needs a probe: run a step at `next` and report whether it fit. */
export interface BatchSearchProbing {
  done: false;
  /** Batch to try now. */ next: number;
  /** Largest batch known to fit, or lo − 1 while none is known. */ fit: number;
  /** Smallest batch known not to fit, or hi + 1 while none is known. */ fail: number;
  /** Probes so far, in order. */ tried: BatchTrial[];
  lo: number;
  hi: number;
}

/** The search's answer. */
export interface BatchSearchDone {
  done: true;
  /** Largest batch in [lo, hi] that fit; null when even lo did not. */ largest: number | null;
  /** Probes, in order. */ tried: BatchTrial[];
}

export type BatchSearch = BatchSearchProbing | BatchSearchDone;

/**
 * The largest batch in [lo, hi] that fits, as a state machine guided by a guess (the planner's largest
 * fitting batch): `start(lo, hi, guess)` gives the first batch to try; the caller measures one step at
 * `next` and calls `advance(state, fits)` until `done`, as Lightning's BatchSizeFinder confirms a batch by
 * running it. The answer is always a batch whose measured step fit, with the next batch up measured and
 * failed (or `hi`).
 *
 * From the guess it steps by one towards the boundary, twice, then doubles the step (so a right guess
 * ends in 2 probes, a guess one off in 3, and a bad one still in O(log n)); once a fit and a failure
 * are both known it bisects between them. Invariant, assuming "fits" is monotone: every batch ≤ `fit`
 * fits, every batch ≥ `fail` does not, and each probe lies strictly between them. With a predicate that
 * is not monotone (a flaky device) it still ends, on a batch that fit next to one that did not.
 */
export const largestBatchSearch = {
  start(lo: number, hi: number, guess: number = lo): BatchSearch {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 1 || hi < lo)
      throw new RangeError(`The batch range must be whole numbers with 1 ≤ lo ≤ hi (got ${lo}..${hi}).`);
    const first = Math.min(hi, Math.max(lo, Math.round(guess)));
    return { done: false, next: first, fit: lo - 1, fail: hi + 1, tried: [], lo, hi };
  },

  advance(state: BatchSearchProbing, fits: boolean): BatchSearch {
    const tried = [...state.tried, { batch: state.next, fits }];
    const fit = fits ? state.next : state.fit;
    const fail = fits ? state.fail : state.next;
    if (fail - fit <= 1) return { done: true, largest: fit >= state.lo ? fit : null, tried };
    return { ...state, next: nextProbe(fit, fail, tried, state), fit, fail, tried };
  },
};

function nextProbe(
  fit: number,
  fail: number,
  tried: BatchTrial[],
  range: { lo: number; hi: number },
): number {
  const bothKnown = fit >= range.lo && fail <= range.hi;
  if (bothKnown) return Math.floor((fit + fail) / 2);
  // Only fits so far (step up) or only failures (step down): 1, 1, 2, 4, … from the last probe.
  const streak = tried.length;
  const step = streak <= 2 ? 1 : 2 ** (streak - 2);
  return fail > range.hi ? Math.min(range.hi, fit + step) : Math.max(range.lo, fail - step);
}

/**
 * The largest batch in [lo, hi] whose predicted peak is within `limit`, by bisection on the planner
 * (monotone in the batch); null when even `lo` is predicted over it.
 */
export function predictedLargestBatch(
  predict: (batch: number) => number,
  limit: number,
  lo: number,
  hi: number,
): number | null {
  if (predict(lo) > limit) return null;
  let fit = lo;
  let fail = hi + 1;
  if (predict(hi) <= limit) return hi;
  fail = hi;
  while (fail - fit > 1) {
    const mid = Math.floor((fit + fail) / 2);
    if (predict(mid) <= limit) fit = mid;
    else fail = mid;
  }
  return fit;
}
