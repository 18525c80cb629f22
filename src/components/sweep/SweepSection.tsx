import { commands } from '../../store/commands';
import { selectEngineFree } from '../../store/selectors';
import { updateSweepGrid } from '../../store/store';
import { SweepPanel } from './SweepPanel';
import { useLab } from '../ui/useLab';

/** The sweep panel on the store: the grid, the points as they arrive, and the commands that run them. */
export function SweepSection() {
  const sweep = useLab((s) => s.sweep);
  const budgetBytes = useLab((s) => s.config.budgetBytes);
  const backend = useLab((s) => s.engine.backend?.name ?? 'no backend');
  const disabled = useLab((s) => !selectEngineFree(s));
  return (
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
  );
}
