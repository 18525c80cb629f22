import type { DragEvent } from 'react';
import { commands } from '../../store/commands';
import { loadZipBytes } from '../../store/labZip';
import type { LabState } from '../../store/types';
import { SavedModels } from './SavedModels';

interface Props {
  /** The field's id, naming the URL input. */ id: string;
  url: string;
  setUrl(url: string): void;
  /** Whether files are dragged over the zone. */ over: boolean;
  setOver(over: boolean): void;
  weights: LabState['weights'];
}

/** A lab model zip loads through the zip reader; anything else goes to the engine as dropped files. */
function loadFiles(files: File[]): void {
  const [only] = files;
  if (only && files.length === 1 && /\.zip$/i.test(only.name))
    void only.arrayBuffer().then((b) => loadZipBytes(new Uint8Array(b), only.name));
  else void commands().loadWeights(files);
}

/** The drop zone, file picker and URL form for weights from a file, and what was loaded this session. */
export function WeightsDrop({ id, url, setUrl, over, setOver, weights }: Props) {
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const files = [...e.dataTransfer.files];
    if (files.length > 0) loadFiles(files);
  };
  return (
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
        Drop a Keras <code>.h5</code> weights file, a <code>model.json</code> together with its shards, or a
        model zip the lab exported, here, or{' '}
        <label className="link-like">
          choose files
          <input
            type="file"
            multiple
            accept=".h5,.hdf5,.keras,.json,.bin,.zip"
            data-testid="weights-input"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              if (files.length > 0) loadFiles(files);
              e.target.value = '';
            }}
          />
        </label>
        .
      </p>
      <SavedModels />
      <UrlForm id={id} url={url} setUrl={setUrl} loading={weights.status === 'loading'} />
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
  );
}

/** The form that loads weights from a URL. */
function UrlForm({ id, url, setUrl, loading }: Pick<Props, 'id' | 'url' | 'setUrl'> & { loading: boolean }) {
  return (
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
      <button type="submit" disabled={!url.trim() || loading}>
        Load
      </button>
    </form>
  );
}
