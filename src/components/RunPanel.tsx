import { commands } from '../store/commands';
import { selectCanTrain, selectRunProgress, selectTraining } from '../store/selectors';
import type { LabState } from '../store/types';
import { FixOutcome } from './FixOutcome';
import { ProgressBar } from './ProgressBar';
import { useLab } from './useLab';
import './RunPanel.css';

/** Train and Stop, progress with an ETA, what each phase trains, and how the run ended. */
export function RunPanel() {
  const run = useLab((s) => s.run);
  // A run needs the engine to itself: a sweep or another run holding it keeps Train disabled.
  const canTrain = useLab(selectCanTrain);
  const active = useLab(selectTraining);
  const hasData = useLab((s) => s.dataset.scan !== null);
  const progress = useLab(selectRunProgress);
  return (
    <section className="panel" aria-labelledby="run-title">
      <h2 id="run-title">3 · Train</h2>
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={!canTrain}
          onClick={() => void commands().train()}
          data-testid="train"
        >
          {run.status === 'idle' ? 'Train' : 'Train again'}
        </button>
        <button
          type="button"
          disabled={run.status !== 'running'}
          onClick={() => void commands().stop()}
          data-testid="stop"
        >
          {run.status === 'stopping' ? 'Stopping…' : 'Stop'}
        </button>
        <span className={`status status-${run.status}`} data-testid="run-status" aria-live="polite">
          {run.status}
        </span>
      </div>
      {!hasData && <p className="muted">Load data first (step 1).</p>}
      {(active || progress.done > 0) && (
        <ProgressBar
          label="Training"
          done={progress.done}
          total={progress.total}
          {...(active ? { remainingMs: progress.etaMs } : {})}
          detail={progress.where}
        />
      )}
      {progress.ended && (
        <p className="muted" data-testid="run-ended">
          {progress.ended}
        </p>
      )}
      <FixOutcome fix={run.appliedFix} batches={run.batches} ranOut={run.status === 'oom'} />
      <PhaseList phases={run.phases} />
      {run.error && (
        <p role="alert" className="error-text" data-testid="run-error">
          {run.error}
        </p>
      )}
    </section>
  );
}

/** What each phase trains: trainable of all parameters, and how many layers with weights. */
function PhaseList({ phases }: { phases: LabState['run']['phases'] }) {
  if (phases.length === 0) return null;
  return (
    <ul className="phases" data-testid="phases">
      {phases.map((p) => (
        <li key={p.phase}>
          <strong>{p.phase === 'frozen' ? 'Phase 1 · frozen backbone' : 'Phase 2 · fine-tune'}</strong>:{' '}
          {p.trainableParams.toLocaleString('en-US')} of {p.totalParams.toLocaleString('en-US')} parameters
          trainable ({p.trainableLayers} layers with weights)
        </li>
      ))}
    </ul>
  );
}
