import { commands } from '../../store/commands';
import {
  selectCanTrain,
  selectConfigProblems,
  selectGuessNeeded,
  selectRunProgress,
  selectTraining,
} from '../../store/selectors';
import { RunBarOom } from '../oom/RunBarOom';
import { RunHeadline } from './RunHeadline';
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
  const guessNeeded = useLab(selectGuessNeeded);
  return (
    <section className="run-bar" id="run-bar" aria-label="Run" tabIndex={-1} data-testid="run-bar">
      <button
        type="button"
        className="primary"
        disabled={!canTrain || guessNeeded}
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
        {hasData && !active && progress.done === 0 && <TrainHint canTrain={canTrain} />}
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
      <RunHeadline />
      <RunBarOom />
    </section>
  );
}

/** Why Train waits, or that it is ready: never "Ready" beside a disabled button. */
function TrainHint({ canTrain }: { canTrain: boolean }) {
  const problems = useLab(selectConfigProblems);
  const guessNeeded = useLab(selectGuessNeeded);
  if (problems.length > 0)
    return (
      <span className="error-text" data-testid="train-blocker">
        Train waits for the settings: {problems[0]}
      </span>
    );
  if (guessNeeded)
    return (
      <span data-testid="train-blocker">
        Commit a guess first: predict mode asks for your prediction (memory view) before Train.
      </span>
    );
  return canTrain ? <span className="muted">Ready to train.</span> : null;
}
