import { isTrainable } from '../core/scan';
import { validateTrainConfig } from '../core/settings';
import { commands } from '../store/commands';
import { selectEngineFree, selectTraining } from '../store/selectors';
import type { LabState } from '../store/types';
import { ProgressBar } from './ProgressBar';
import { useLab } from './useLab';
import './RunPanel.css';

const RECENT_STEPS = 10;

/** Train and Stop, progress with an ETA, what each phase trains, and how the run ended. */
export function RunPanel() {
  const run = useLab((s) => s.run);
  // A run needs the engine to itself: a sweep or another run holding it keeps Train disabled.
  const engineFree = useLab(selectEngineFree);
  const active = useLab(selectTraining);
  const scan = useLab((s) => s.dataset.scan);
  const configOk = useLab((s) => validateTrainConfig(s.config).length === 0);
  const canTrain = engineFree && !!scan && isTrainable(scan) && configOk;
  const last = run.batches[run.batches.length - 1];
  const phase = run.phases[run.phases.length - 1];
  const recent = run.batches.slice(-RECENT_STEPS).map((b) => b.stepMs);
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
      {!scan && <p className="muted">Load data first (step 1).</p>}
      {(active || run.progress.done > 0) && (
        <ProgressBar
          label="Training"
          done={run.progress.done}
          total={run.progress.total}
          recentMs={recent}
          detail={
            last
              ? `${last.phase} phase, epoch ${last.epoch + 1}, batch ${last.batch + 1}/${phase?.batchesPerEpoch ?? '?'}`
              : 'building the model…'
          }
        />
      )}
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
