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

/** A duration as m:ss or h:mm:ss. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
