import { estimateRemainingMs, formatDuration } from '../core/eta';

interface Props {
  label: string;
  done: number;
  total: number;
  /** Recent step durations in ms, for the ETA; pass elapsed/done when steps are uniform. */
  recentMs: readonly number[];
  detail?: string;
}

/** An accessible progress bar with counts and a time estimate. */
export function ProgressBar({ label, done, total, recentMs, detail }: Props) {
  const remaining = estimateRemainingMs({ done, total, recentStepMs: recentMs });
  const pct = total > 0 ? Math.min(100, (100 * done) / total) : 0;
  return (
    <div className="progress">
      <div className="progress-text">
        <span>{label}</span>
        <span data-testid="progress-count">
          {done} / {total}
          {detail ? ` · ${detail}` : ''} ·{' '}
          {remaining === null ? 'estimating…' : `about ${formatDuration(remaining)} left`}
        </span>
      </div>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="progress-fill" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
