import { commands } from '../store/commands';
import { updateSweepGrid } from '../store/store';
import { SweepPanel } from './SweepPanel';
import { useLab } from './useLab';

/** The sweep panel on the store: the grid, the points as they arrive, and the commands that run them. */
export function SweepSection() {
  const sweep = useLab((s) => s.sweep);
  const budgetBytes = useLab((s) => s.config.budgetBytes);
  const backend = useLab((s) => s.engine.backend?.name ?? 'no backend');
  const disabled = useLab(
    (s) => s.engine.status !== 'ready' || s.run.status === 'running' || s.run.status === 'stopping',
  );
  const model = useLab((s) => s.config.model);
  return (
    <section className="panel" aria-labelledby="sweep-title">
      <h2 id="sweep-title">Sweeps</h2>
      <p className="hint">
        Each point builds the configured model ({model}) at the point&apos;s size with zero weights and trains
        one step on a synthetic batch of that size (memory depends on neither weights nor pixels), after a
        warm-up step that creates Adam&apos;s slots. &quot;Find largest batch&quot; searches batch 1–256 at
        the configured resolution and trainable layers.
      </p>
      {sweep.error && (
        <p role="alert" className="error-text" data-testid="sweep-error">
          {sweep.error}
        </p>
      )}
      <SweepPanel
        grid={sweep.grid}
        onGridChange={updateSweepGrid}
        points={sweep.points}
        status={sweep.status}
        error={sweep.error}
        progress={sweep.progress}
        largest={sweep.largest}
        budgetBytes={budgetBytes}
        backendLabel={backend}
        onRun={() => void commands().runSweep()}
        onStop={() => void commands().stopSweep()}
        onFindLargest={() => void commands().findLargestBatch()}
        disabled={disabled}
      />
    </section>
  );
}
