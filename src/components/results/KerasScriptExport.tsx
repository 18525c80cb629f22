import { useState } from 'react';
import { kerasScript, kerasScriptInputFor, type KerasRemedies } from '../../core/export/kerasScript';
import { selectPlannerKey } from '../../store/selectors';
import { labStore } from '../../store/store';
import { useLab } from '../ui/useLab';
import { saveFile } from './download';

/**
 * The same plan as a Keras script, with the remedies that only exist on a real GPU chosen here. It is
 * written from the current settings and the planner's description of the model at that size.
 */
export function KerasScriptExport() {
  const described = useLab((s) => s.planner.status === 'ready' && s.planner.key === selectPlannerKey(s));
  const [remedies, setRemedies] = useState<KerasRemedies>({ mixedPrecision: false, memoryGrowth: false });
  const graph = useLab((s) => s.config.weights === 'graph');
  if (graph)
    return (
      <fieldset>
        <legend>Keras script for this plan</legend>
        <p className="muted" data-testid="graph-script-note">
          No Keras script for a graph model: the script builds a Keras application, and a tfjs graph model has
          no Keras layers to build (train the head on the SavedModel it was converted from instead).
        </p>
      </fieldset>
    );
  const save = () => {
    const s = labStore.getState();
    if (!s.planner.spec) return;
    const script = kerasScript(
      kerasScriptInputFor({
        config: s.config,
        spec: s.planner.spec,
        classNames: s.dataset.scan?.classes.map((c) => c.name) ?? [],
        manifest: s.dataset.scan?.manifest ?? null,
        remedies,
      }),
    );
    saveFile(`train_${s.config.model.replace(/\W/g, '_')}.py`, script, 'text/x-python');
  };
  const toggle = (key: keyof KerasRemedies) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setRemedies((r) => ({ ...r, [key]: e.target.checked }));
  return (
    <fieldset>
      <legend>Keras script for this plan</legend>
      <label>
        <input type="checkbox" checked={remedies.mixedPrecision} onChange={toggle('mixedPrecision')} />{' '}
        mixed_float16 (float32 output layer)
      </label>
      <label>
        <input type="checkbox" checked={remedies.memoryGrowth} onChange={toggle('memoryGrowth')} /> memory
        growth (unless the simulated card sets a memory_limit)
      </label>
      <div className="buttons">
        <button type="button" disabled={!described} onClick={save}>
          Keras script (.py)
        </button>
      </div>
      {!described && <p className="muted">Waiting for the planner to describe the model at this size.</p>}
    </fieldset>
  );
}
