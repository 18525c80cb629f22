import { useId, useState } from 'react';
import { catalogEntry } from '../../core/model/models';
import { commands, modelLibrary } from '../../store/commands';
import { labStore } from '../../store/store';
import { saveFile } from './download';
import { useLab } from '../ui/useLab';
import { errorMessage } from '../../core/format';

const FORMATS = [
  { format: 'tfjs-layers', label: 'Model: tfjs Layers (.zip)' },
  { format: 'keras-h5', label: 'Weights: Keras .h5' },
] as const;

/** The name a saved model gets unless the user types one: architecture, size and date. */
function defaultName(): string {
  const c = labStore.getState().run.config;
  const model = c ? `${catalogEntry(c.model).displayName} ${c.height}×${c.width}` : 'model';
  return `${model}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
}

/**
 * The last run's model as a tfjs Layers zip (tf.loadLayersModel, or back into the lab), as Keras .h5
 * weights (load_weights), or saved in this browser (IndexedDB) to load back later.
 */
export function ModelExports() {
  const trained = useLab(
    (s) => s.run.config !== null && s.run.status !== 'running' && s.run.status !== 'stopping',
  );
  // A graph model's run trained the head alone on the graph's features: no Keras model to write.
  const graph = useLab((s) => s.run.config?.weights === 'graph');
  const formats = graph ? FORMATS.filter((f) => f.format !== 'keras-h5') : FORMATS;
  const [status, setStatus] = useState<string | null>(null);
  const [name, setName] = useState('');
  const id = useId();
  const run = async (work: () => Promise<string>) => {
    setStatus('Exporting…');
    try {
      setStatus(await work());
    } catch (err) {
      setStatus(`Export failed: ${errorMessage(err)}`);
    }
  };
  const download = (format: (typeof FORMATS)[number]['format']) =>
    run(async () => {
      const file =
        format === 'tfjs-layers'
          ? await modelLibrary().downloadZip(defaultName())
          : await commands().exportModel(format);
      if (file) saveFile(file.name, file.bytes, file.type);
      return file ? `Saved ${file.name}.` : 'No model to export.';
    });
  const keep = () =>
    run(async () => {
      const saved = await modelLibrary().saveTrained(name.trim() || defaultName());
      if (!saved) return 'No model to export.';
      return `Saved '${saved.name}' in this browser (${(saved.bytes / 1e6).toFixed(1)} MB): load it back under Starting weights, From a file.`;
    });
  return (
    <fieldset>
      <legend>Trained model</legend>
      <div className="buttons">
        {formats.map((f) => (
          <button key={f.format} type="button" disabled={!trained} onClick={() => void download(f.format)}>
            {f.label}
          </button>
        ))}
      </div>
      {graph && <GraphExportsNote />}
      <div className="row">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          placeholder="architecture, size and date"
          onChange={(e) => setName(e.target.value)}
          data-testid="save-model-name"
        />
        <button type="button" disabled={!trained} onClick={() => void keep()} data-testid="save-model">
          Save in this browser
        </button>
      </div>
      {status && <p role="status">{status}</p>}
    </fieldset>
  );
}

/** Why a graph model's run offers no Keras weights, and what its tfjs zip holds. */
function GraphExportsNote() {
  return (
    <p className="muted" data-testid="graph-exports-note">
      Keras .h5 weights do not apply to a graph model&apos;s run: the graph is a frozen inference graph with
      no Keras layers, and the tfjs zip holds the trained head alone (its input is the graph&apos;s features,
      so run it after the same graph model).
    </p>
  );
}
