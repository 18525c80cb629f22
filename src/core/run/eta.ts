/** Progress through a whole run, across both phases. */
export interface RunProgress {
  /** Steps (batches) finished so far, both phases. */ done: number;
  /** Steps planned in total (may shrink when EarlyStopping ends a phase). */ total: number;
  /** Measured wall time of recent steps, ms. */ recentStepMs: readonly number[];
}

/**
 * Remaining time in ms from the median of recent step times (robust to the slow first step, which
 * compiles shader programs), or null before any step has been timed.
 */
export function estimateRemainingMs(p: RunProgress): number | null {
  if (p.recentStepMs.length === 0) return null;
  const sorted = [...p.recentStepMs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.max(0, p.total - p.done) * median;
}
