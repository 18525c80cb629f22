import { useRef, useState } from 'react';
import type { ScanResult } from '../core/scan';
import { commands } from '../store/commands';
import { selectBusy } from '../store/selectors';
import { estimateRemainingMs } from '../core/eta';
import { ProgressBar } from './ProgressBar';
import { useLab } from './useLab';
import './DatasetPanel.css';

/** Drop zone, folder picker and sample button, then classes, counts and every skipped file. */
export function DatasetPanel() {
  const dataset = useLab((s) => s.dataset);
  const scan = dataset.scan;
  return (
    <section className="panel" aria-labelledby="data-title">
      <h2 id="data-title">1 · Data</h2>
      <DropZone />
      {dataset.status === 'empty' && <p className="muted">No data yet. Try the built-in sample first.</p>}
      {dataset.status === 'scanning' && (
        <div aria-live="polite">
          {dataset.progress ? (
            <ProgressBar
              label={`Checking images in "${dataset.name}"`}
              done={dataset.progress.done}
              total={dataset.progress.total}
              remainingMs={
                dataset.progress.done > 0
                  ? estimateRemainingMs({
                      done: dataset.progress.done,
                      total: dataset.progress.total,
                      recentStepMs: [dataset.progress.elapsedMs / dataset.progress.done],
                    })
                  : null
              }
            />
          ) : (
            <p>Reading the folder…</p>
          )}
        </div>
      )}
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
      <p>Drop a folder here: one sub-folder per class, images at any depth below it.</p>
      <div className="row">
        <button type="button" disabled={busy} onClick={() => input.current?.click()}>
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

/** The loaded set: its classes and counts, its problems, and every file it skipped and why. */
function DatasetSummary({ name, scan }: { name: string; scan: ScanResult }) {
  return (
    <div data-testid="dataset-summary">
      <p>
        <strong>{name}</strong>: {scan.items.length} images in {scan.classes.length} classes
        {scan.skipped.length > 0 && `, ${scan.skipped.length} files skipped`}.
      </p>
      {scan.problems.map((p) => (
        <p key={p} role="alert" className="error-text">
          {p}
        </p>
      ))}
      <table className="classes" data-testid="class-table">
        <thead>
          <tr>
            <th scope="col">Class</th>
            <th scope="col">Images</th>
          </tr>
        </thead>
        <tbody>
          {scan.classes.map((c) => (
            <tr key={c.name}>
              <td>{c.name}</td>
              <td>{c.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {scan.skipped.length > 0 && (
        <details open className="skipped" data-testid="skipped-files">
          <summary>Skipped files ({scan.skipped.length})</summary>
          <ul>
            {scan.skipped.map((s) => (
              <li key={s.path}>
                <code>{s.path}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
