import { formatBytes } from '../core/memory';
import type { TrainingPhase } from '../core/trainConfig';

/** What the planner claimed for the fix the user applied (the run slice's `appliedFix`). */
export interface AppliedFixClaim {
  title: string;
  predictedBytes: number;
  fits: boolean;
  phase: TrainingPhase;
  /** The card after the fix, bytes (Infinity without one). */ limit: number;
}

interface Props {
  fix: AppliedFixClaim | null;
  /** The run's measured steps (`run.batches`); steps without a measured peak are skipped. */
  batches: readonly { phase: TrainingPhase; peakBytes?: number }[];
  /** The run with the fix ran out of memory again. */ ranOut: boolean;
}

/** Signed percent with a true minus sign, one decimal: "−0.7%", "+3.2%". */
function signedPercent(x: number): string {
  const text = Math.abs(x).toFixed(1);
  return `${x < 0 && text !== '0.0' ? '−' : '+'}${text}%`;
}

/** The measured side of the comparison, in words. */
function measuredWords(fix: AppliedFixClaim, peak: number | null, ranOut: boolean): string {
  if (peak === null) return ranOut ? 'ran out of memory again' : `waiting for the first ${fix.phase} step`;
  const fits = Number.isFinite(fix.limit) ? (peak <= fix.limit && !ranOut ? ', fits' : ', does not fit') : '';
  const vsClaim = ((peak - fix.predictedBytes) / fix.predictedBytes) * 100;
  return `${formatBytes(peak)}${fits} (${signedPercent(vsClaim)})`;
}

/**
 * After a fix was applied: what the planner claimed beside what the run measured for the same phase, e.g.
 * "claimed: fits, 61.2 MB predicted · measured: 60.8 MB, fits (−0.7%)". The percent is the measured peak
 * against the claim. Presentational: the caller passes the run slice's values.
 */
export function FixOutcome({ fix, batches, ranOut }: Props) {
  if (!fix) return null;
  const peaks = batches.filter((b) => b.phase === fix.phase).flatMap((b) => b.peakBytes ?? []);
  const peak = peaks.length > 0 ? Math.max(...peaks) : null;
  const card = Number.isFinite(fix.limit) ? ` on the ${formatBytes(fix.limit)} card` : '';
  const kept =
    peak === null ? null : !ranOut && (!Number.isFinite(fix.limit) || peak <= fix.limit) === fix.fits;
  return (
    <p
      className="fix-outcome"
      data-testid="fix-outcome"
      data-kept={kept === null ? 'pending' : String(kept)}
      data-measured-bytes={peak ?? undefined}
    >
      <strong>{fix.title}</strong>
      {card}, {fix.phase} phase:{' '}
      <span data-testid="fix-outcome-claim">
        claimed: {fix.fits ? 'fits' : 'does not fit'}, {formatBytes(fix.predictedBytes)} predicted
      </span>{' '}
      <span className="label-predicted">predicted · tfjs model</span> ·{' '}
      <span data-testid="fix-outcome-measured">measured: {measuredWords(fix, peak, ranOut)}</span>{' '}
      <span className="label-measured">measured step peak</span>
    </p>
  );
}
