import { selectRunProgress } from '../../store/selectors';
import type { LabState } from '../../store/types';
import { FixOutcome } from '../oom/FixOutcome';
import { useLab } from '../ui/useLab';
import './RunPanel.css';
import { count } from '../../core/format';

/** What each phase trains, how the run ended, and what an applied fix did. */
export function RunPanel() {
  const run = useLab((s) => s.run);
  const progress = useLab(selectRunProgress);
  return (
    // Focusable so that applying a fix can bring the participant back to the run it continues.
    <section
      className="panel"
      aria-labelledby="run-title"
      id="run-panel"
      tabIndex={-1}
      data-testid="run-panel"
    >
      <h2 id="run-title">3 · Train</h2>
      <p className="hint">Train, Stop and the progress of the run stay in the bar at the top of the page.</p>
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
          {count(p.trainableParams)} of {count(p.totalParams)} parameters trainable ({p.trainableLayers}{' '}
          layers with weights)
        </li>
      ))}
    </ul>
  );
}
