import { useState } from 'react';
import { commands } from '../../store/commands';
import { saveFile } from './download';
import { useLab } from '../useLab';

const FORMATS = [
  { format: 'tfjs-layers', label: 'Model: tfjs Layers (.zip)' },
  { format: 'keras-h5', label: 'Weights: Keras .h5' },
] as const;

/** The last run's model as a tfjs Layers zip (tf.loadLayersModel) or Keras .h5 weights (load_weights). */
export function ModelExports() {
  const trained = useLab(
    (s) => s.run.config !== null && s.run.status !== 'running' && s.run.status !== 'stopping',
  );
  const [status, setStatus] = useState<string | null>(null);
  const save = async (format: (typeof FORMATS)[number]['format']) => {
    setStatus('Exporting…');
    try {
      const file = await commands().exportModel(format);
      if (file) saveFile(file.name, file.bytes, file.type);
      setStatus(file ? `Saved ${file.name}.` : 'No model to export.');
    } catch (err) {
      setStatus(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return (
    <fieldset>
      <legend>Trained model</legend>
      <div className="buttons">
        {FORMATS.map((f) => (
          <button key={f.format} type="button" disabled={!trained} onClick={() => void save(f.format)}>
            {f.label}
          </button>
        ))}
      </div>
      {status && <p role="status">{status}</p>}
    </fieldset>
  );
}
