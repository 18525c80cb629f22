import { useId, useState, type DragEvent } from 'react';
import { chooseModel } from '../core/modelDefaults';
import type { WeightsChoice } from '../core/models';
import { commands } from '../store/commands';
import { updateConfig } from '../store/store';
import { useLab } from './useLab';

const CHOICES: { value: WeightsChoice; label: string }[] = [
  { value: 'nsfwjs', label: 'Pretrained MobileNetV2, shipped with the lab (offline)' },
  { value: 'file', label: 'From a file or URL: a Keras .h5, or a tfjs model.json with its shards' },
  { value: 'random', label: 'Random initialisation (memory does not depend on weight values)' },
];

/** Where the starting weights come from, loading a file or URL, and how its layers match the model. */
export function WeightsField() {
  const choice = useLab((s) => s.config.weights);
  const model = useLab((s) => s.config.model);
  const weights = useLab((s) => s.weights);
  const [url, setUrl] = useState('');
  const [over, setOver] = useState(false);
  const id = useId();
  const report = weights.report;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const files = [...e.dataTransfer.files];
    if (files.length > 0) void commands().loadWeights(files);
  };

  return (
    <div className="field weights-field" data-testid="weights-field">
      <span id={`${id}-legend`}>Starting weights</span>
      <div role="radiogroup" aria-labelledby={`${id}-legend`}>
        {CHOICES.map((c) => (
          <label key={c.value} className="radio">
            <input
              type="radio"
              name={`${id}-weights`}
              value={c.value}
              checked={choice === c.value}
              data-testid={`weights-${c.value}`}
              onChange={() =>
                // The packaged weights are a MobileNetV2: switching to it takes that model's own size.
                updateConfig(
                  c.value === 'nsfwjs' && model !== 'mobilenetv2'
                    ? { weights: c.value, ...chooseModel({ weights: c.value }, 'mobilenetv2') }
                    : { weights: c.value },
                )
              }
            />
            {c.label}
          </label>
        ))}
      </div>
      {choice === 'random' && (
        <small className="hint warn-text" data-testid="weights-note">
          Weights: random initialisation. Accuracy starts at chance; memory use is the same as with trained
          weights.
        </small>
      )}
      {choice === 'nsfwjs' && model !== 'mobilenetv2' && (
        <small className="hint warn-text">
          These weights are a MobileNetV2: the model switches to MobileNetV2.
        </small>
      )}
      {choice === 'file' && (
        <div
          className={`weights-drop${over ? ' over' : ''}`}
          data-testid="weights-drop"
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <p>
            Drop a Keras <code>.h5</code> weights file, or a <code>model.json</code> together with its shards,
            here, or{' '}
            <label className="link-like">
              choose files
              <input
                type="file"
                multiple
                accept=".h5,.hdf5,.json,.bin"
                data-testid="weights-input"
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  if (files.length > 0) void commands().loadWeights(files);
                  e.target.value = '';
                }}
              />
            </label>
            .
          </p>
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              if (url.trim()) void commands().loadWeightsFromUrl(url);
            }}
          >
            <label htmlFor={`${id}-url`}>or a URL</label>
            <input
              id={`${id}-url`}
              type="url"
              value={url}
              placeholder="https://…/model.json"
              onChange={(e) => setUrl(e.target.value)}
              data-testid="weights-url"
            />
            <button type="submit" disabled={!url.trim() || weights.status === 'loading'}>
              Load
            </button>
          </form>
          {weights.status === 'loading' && <p>Reading the weights…</p>}
          {weights.loaded && (
            <p data-testid="weights-loaded">
              Loaded this session: {weights.loaded.label} ({weights.loaded.format})
              {weights.loaded.reason && <span className="warn-text"> — {weights.loaded.reason}</span>}
            </p>
          )}
          {!weights.loaded && weights.status !== 'loading' && (
            <p className="hint">No file loaded in this session (files do not survive a reload).</p>
          )}
        </div>
      )}
      {weights.error && (
        <p role="alert" className="error-text" data-testid="weights-error">
          {weights.error}
        </p>
      )}
      {report && choice !== 'random' && (
        <div className="weights-report" data-testid="weights-report">
          <p>
            <strong>{report.source}</strong>: {report.matchedLayers} layers matched by name,{' '}
            {report.matchedParams.toLocaleString('en-US')} of the model&apos;s{' '}
            {report.modelParams.toLocaleString('en-US')} parameters load.
          </p>
          {report.error && (
            <p role="alert" className="error-text" data-testid="weights-report-error">
              {report.error}
            </p>
          )}
          <dl>
            <dt>Missing (keep their initialisation)</dt>
            <dd data-testid="weights-missing" data-count={report.missing.length}>
              {report.missing.length ? report.missing.join(', ') : 'none'}
            </dd>
            <dt>Unexpected (in the weights, not in the model; ignored)</dt>
            <dd data-testid="weights-unexpected" data-count={report.unexpected.length}>
              {report.unexpected.length ? report.unexpected.join(', ') : 'none'}
            </dd>
            <dt>Shape mismatches</dt>
            <dd data-testid="weights-mismatches" data-count={report.mismatches.length}>
              {report.mismatches.length ? report.mismatches.join('; ') : 'none'}
            </dd>
          </dl>
          {report.provenance.length > 0 && (
            <details data-testid="weights-provenance">
              <summary>Where these weights come from</summary>
              {report.provenance.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </details>
          )}
        </div>
      )}
    </div>
  );
}
