import type { ScanResult } from '../../core/data/scan';

/** Skipped files listed by name; past this a line says how many more (a 20,000-row list stalls the page). */
const SHOWN_SKIPPED = 200;

/** The loaded set: its classes and counts, its problems, and the files it skipped and why. */
export function DatasetSummary({ name, scan }: { name: string; scan: ScanResult }) {
  return (
    <div data-testid="dataset-summary">
      <p>
        <strong>{name}</strong>: {scan.items.length} images in {scan.classes.length} classes
        {scan.skipped.length > 0 && `, ${scan.skipped.length} files skipped`}.
        {scan.manifest && ` Labels from ${scan.manifest}.`}
      </p>
      {scan.ignored > 0 && (
        <p className="muted" data-testid="ignored-files">
          ignored {scan.ignored} system {scan.ignored === 1 ? 'file' : 'files'} (__MACOSX, .DS_Store,
          Thumbs.db, hidden files and the like)
        </p>
      )}
      {scan.problems.map((p) => (
        <p key={p} role="alert" className="error-text">
          {p}
        </p>
      ))}
      <ClassTable scan={scan} />
      {scan.skipped.length > 0 && <SkippedList scan={scan} />}
    </div>
  );
}

function ClassTable({ scan }: { scan: ScanResult }) {
  return (
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
  );
}

function SkippedList({ scan }: { scan: ScanResult }) {
  const more = scan.skipped.length - SHOWN_SKIPPED;
  return (
    <details open className="skipped" data-testid="skipped-files">
      <summary>Skipped files ({scan.skipped.length})</summary>
      <ul>
        {scan.skipped.slice(0, SHOWN_SKIPPED).map((s) => (
          <li key={s.path}>
            <code>{s.path}</code>: {s.reason}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted">… and {more} more, not listed here.</p>}
    </details>
  );
}
