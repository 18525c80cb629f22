import { useMemo } from 'react';
import { phaseTrainable } from '../core/modelSpec';
import { updateConfig } from '../store/store';
import { LayerExplorer } from './LayerExplorer';
import { useLab } from './useLab';

/** The layer explorer for the fine-tune phase, on the configured model at the configured resolution. */
export function LayersPanel() {
  const spec = useLab((s) => s.planner.spec);
  const status = useLab((s) => s.planner.status);
  const unfreezeLastN = useLab((s) => s.config.unfreezeLastN);
  const fineTuneLayers = useLab((s) => s.config.fineTuneLayers);
  const locked = useLab((s) => s.run.status === 'running' || s.run.status === 'stopping');
  const backend = useLab((s) => s.engine.backend?.name ?? 'no backend');
  const trainable = useMemo(
    () => (spec ? phaseTrainable(spec, 'fine-tune', { unfreezeLastN, fineTuneLayers }) : new Set<string>()),
    [spec, unfreezeLastN, fineTuneLayers],
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
      disabled={locked}
      backendLabel={backend}
      onChange={(next) => {
        const backbone = spec.layers.slice(0, spec.backboneLayerCount).map((l) => l.name);
        updateConfig({ fineTuneLayers: backbone.filter((n) => next.has(n)) });
      }}
    />
  );
}
