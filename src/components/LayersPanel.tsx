import { useMemo } from 'react';
import { resolveTrainable, trainableProblem } from '../core/trainable';
import { selectBusy } from '../store/selectors';
import { updateConfig } from '../store/store';
import { LayerExplorer } from './LayerExplorer';
import { useLab } from './useLab';

/** The layer explorer for the fine-tune phase, on the configured model at the configured resolution. */
export function LayersPanel() {
  const spec = useLab((s) => s.planner.spec);
  const status = useLab((s) => s.planner.status);
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
        <p>{status === 'error' ? 'The model could not be described.' : 'Describing the model…'}</p>
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
