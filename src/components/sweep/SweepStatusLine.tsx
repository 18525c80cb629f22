import type { SweepPoint, SweepStatus } from '../../core/sweep/sweep';

type SweepStatusLineProps = Pick<SweepStatus, 'status' | 'error' | 'progress'> & { points: SweepPoint[] };

/** Progress of the sweep, its error or its summary. */
export function SweepStatusLine({ status, error, progress, points }: SweepStatusLineProps) {
  const count = (s: SweepPoint['status']) => points.filter((p) => p.status === s).length;
  return (
    <>
      {status === 'running' && progress && (
        <p role="status" data-testid="sweep-progress">
          {progress.done} of {progress.total} points
        </p>
      )}
      {status === 'done' && (
        <p role="status" data-testid="sweep-summary">
          Sweep done: {count('measured')} measured, {count('oom')} out of memory, {count('skipped')} skipped.
        </p>
      )}
      {error !== null && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </>
  );
}
