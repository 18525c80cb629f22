import { fixOutcome } from '../../core/oom/remedies';
import type { TrainingPhase } from '../../core/settings/trainConfig';
import { formatBytes } from '../../core/format';

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

/**
 * After a fix was applied: what the planner claimed beside what the run measured for the same phase, e.g.
 * "claimed: fits, 61.2 MB predicted · measured: 60.8 MB, fits (−0.7%)" (core/oom/remedies `fixOutcome`).
 * Presentational: the caller passes the run slice's values.
 */
export function FixOutcome({ fix, batches, ranOut }: Props) {
  if (!fix) return null;
  const o = fixOutcome(fix, batches, ranOut);
  const card = Number.isFinite(fix.limit) ? ` on the ${formatBytes(fix.limit)} card` : '';
  return (
    <p
      className="fix-outcome"
      data-testid="fix-outcome"
      data-kept={o.kept === null ? 'pending' : String(o.kept)}
      data-measured-bytes={o.peakBytes ?? undefined}
    >
      <strong>{fix.title}</strong>
      {card}, {fix.phase} phase: <span data-testid="fix-outcome-claim">{o.claim}</span>{' '}
      <span className="label-predicted">predicted · tfjs model</span> ·{' '}
      <span data-testid="fix-outcome-measured">{o.measured}</span>{' '}
      <span className="label-measured">measured step peak</span>
    </p>
  );
}
