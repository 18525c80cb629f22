import { useDeferredValue, useMemo } from 'react';
import { resolveTrainable, trainableProblem } from '../../core/settings/trainable';
import { selectBusy } from '../../store/selectors';
import { updateConfig } from '../../store/store';
import { LayerExplorer } from './LayerExplorer';
import { useLab } from '../ui/useLab';

/** The layer explorer for the fine-tune phase, on the configured model at the configured resolution. */
export function LayersPanel() {
  // Deferred, and the status read as failed or not: a listed folder with another class count sets the
  // planner loading, then a new description arrives, and each re-rendered every layer row at once.
  const spec = useDeferredValue(useLab((s) => s.planner.spec));
  const failed = useLab((s) => s.planner.status === 'error');
  const fineTune = useLab((s) => s.config.fineTune);
  const locked = useLab(selectBusy);
  const backend = useLab((s) => s.engine.backend?.name ?? 'no backend');
  const trainable = useMemo(
    () => (spec ? resolveTrainable(spec, 'fine-tune', fineTune) : new Set<string>()),
    [spec, fineTune],
  );
  if (!spec)
    return (
      <section className="panel" aria-labelledby="layers-title">
        <h2 id="layers-title">Layers</h2>
        <p>{failed ? 'The model could not be described.' : 'Describing the model…'}</p>
      </section>
    );
  return (
    <LayerExplorer
      spec={spec}
      trainable={trainable}
      rule={fineTune}
      problem={trainableProblem(spec, fineTune)}
      disabled={locked}
      backendLabel={backend}
      onChange={(next) => updateConfig({ fineTune: next })}
    />
  );
}
