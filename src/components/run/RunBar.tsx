import { commands } from '../../store/commands';
import { selectCanTrain, selectRunProgress, selectTraining } from '../../store/selectors';
import { PeakReadout } from '../planner/PeakReadout';
import { ProgressBar } from '../ui/ProgressBar';
import { useLab } from '../ui/useLab';
import './RunPanel.css';

/**
 * Train, Stop, the run's status and progress: pinned under the header so they stay in view and are the
 * first controls after the skip link, whatever part of the page the user is working in.
 */
export function RunBar() {
  const status = useLab((s) => s.run.status);
  // A run needs the engine to itself: a sweep or another run holding it keeps Train disabled.
  const canTrain = useLab(selectCanTrain);
  const active = useLab(selectTraining);
  const hasData = useLab((s) => s.dataset.scan !== null);
  const progress = useLab(selectRunProgress);
  return (
    <section className="run-bar" id="run-bar" aria-label="Run" tabIndex={-1} data-testid="run-bar">
      <button
        type="button"
        className="primary"
        disabled={!canTrain}
        onClick={() => void commands().train()}
        data-testid="train"
      >
        {status === 'idle' ? 'Train' : 'Train again'}
      </button>
      <button
        type="button"
        disabled={status !== 'running'}
        onClick={() => void commands().stop()}
        data-testid="stop"
      >
        {status === 'stopping' ? 'Stopping…' : 'Stop'}
      </button>
      <span className={`status status-${status}`} data-testid="run-status" aria-live="polite">
        {status}
      </span>
      <div className="run-bar-progress">
        {!hasData && <span className="muted">Load data first (step 1).</span>}
        {hasData && !active && progress.done === 0 && <span className="muted">Ready to train.</span>}
        {(active || progress.done > 0) && (
          <ProgressBar
            label="Training"
            done={progress.done}
            total={progress.total}
            {...(active ? { remainingMs: progress.etaMs } : {})}
            detail={progress.where}
          />
        )}
      </div>
      <PeakReadout />
    </section>
  );
}
