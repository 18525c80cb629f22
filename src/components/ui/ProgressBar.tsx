import './ProgressBar.css';
import { formatDuration } from '../../core/format';

interface Props {
  label: string;
  done: number;
  total: number;
  /**
   * Time left in ms (from the store's selectors or the caller's own estimate); null while unknown;
   * left out for work that has ended.
   */
  remainingMs?: number | null;
  detail?: string;
}

/** An accessible progress bar with counts and a time estimate. */
export function ProgressBar({ label, done, total, remainingMs, detail }: Props) {
  const pct = total > 0 ? Math.min(100, (100 * done) / total) : 0;
  return (
    <div className="progress">
      <div className="progress-text">
        <span>{label}</span>
        <span data-testid="progress-count">
          {done} / {total}
          {detail ? ` · ${detail}` : ''}
          {remainingMs === null && ' · estimating…'}
          {typeof remainingMs === 'number' && ` · about ${formatDuration(remainingMs)} left`}
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
        <div className="progress-fill progress-scaled" style={{ transform: `scaleX(${pct / 100})` }} />
      </div>
    </div>
  );
}
