import { useRef, useState } from 'react';
import { commands } from '../../store/commands';
import { selectBusy } from '../../store/selectors';
import { DatasetSummary } from './DatasetSummary';
import { ScanProgress } from './ScanProgress';
import { useLab } from '../ui/useLab';
import './DatasetPanel.css';

/** Drop zone, folder picker and sample button, then classes, counts and the skipped files. */
export function DatasetPanel() {
  const dataset = useLab((s) => s.dataset);
  const scan = dataset.scan;
  return (
    <section className="panel" aria-labelledby="data-title">
      <h2 id="data-title">1 · Data</h2>
      <DropZone />
      {dataset.status === 'empty' && <p className="muted">No data yet. Try the built-in sample first.</p>}
      {dataset.status === 'scanning' && <ScanProgress name={dataset.name} progress={dataset.progress} />}
      {dataset.status === 'error' && (
        <p role="alert" className="error-text">
          {dataset.error}
        </p>
      )}
      {scan && <DatasetSummary name={dataset.name} scan={scan} />}
    </section>
  );
}

/** Where a data set comes from: a dropped or chosen folder, or the built-in sample. */
function DropZone() {
  // Nothing replaces the data under a running job: a sweep reads the data set's classes too.
  const busy = useLab(selectBusy);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  return (
    <div
      className={`dropzone${over ? ' over' : ''}`}
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        // Refused with a message while a job runs (the client says why); never silently ignored.
        void commands().dropFolder(e.dataTransfer);
      }}
    >
      <p>
        Drop a folder here: one sub-folder per class, images at any depth below it; or a folder with a CSV of
        path,label at its top.
      </p>
      <div className="row">
        <button
          type="button"
          disabled={busy}
          // The directory picker lists a folder without blocking the page; the input's FileList is
          // built by the browser in one task (seconds for 20,000 files), so it is only the fallback.
          onClick={() =>
            'showDirectoryPicker' in window ? void commands().pickFolder() : input.current?.click()
          }
        >
          Choose folder…
        </button>
        <button type="button" disabled={busy} onClick={() => void commands().useSample()}>
          Use built-in sample
        </button>
      </div>
      <input
        ref={input}
        type="file"
        hidden
        data-testid="folder-input"
        // Non-standard but supported by every current browser; React passes it through as an attribute.
        {...{ webkitdirectory: '', directory: '' }}
        multiple
        onChange={(e) => {
          if (e.target.files && e.target.files.length > 0) void commands().chooseFolder(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}
