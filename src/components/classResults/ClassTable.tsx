import { useState } from 'react';
import { sortRows, type ClassRow, type SortKey } from '../../core/workshop/classResults';
import { formatBytes } from '../../core/format';

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'name' },
  { key: 'backend', label: 'backend and adapter' },
  { key: 'settings', label: 'settings' },
  { key: 'guess', label: 'guess' },
  { key: 'predicted', label: 'predicted peak' },
  { key: 'measured', label: 'measured peak' },
  { key: 'fits', label: 'fits' },
];

const bytes = (b: number | null) => (b === null ? '—' : formatBytes(b));

function fitsText(r: ClassRow): string {
  if (r.fits === null) return '—';
  return `${r.fits ? 'yes' : 'no'} (${r.fitsBasis})`;
}

/** The merged rows; each column header is a button that sorts by it (again: the other way). */
export function ClassTable({ rows }: { rows: readonly ClassRow[] }) {
  const [sort, setSort] = useState<{ key: SortKey; direction: 'asc' | 'desc' } | null>(null);
  const shown = sort ? sortRows(rows, sort.key, sort.direction) : rows;
  const sortBy = (key: SortKey) =>
    setSort((s) => ({ key, direction: s?.key === key && s.direction === 'asc' ? 'desc' : 'asc' }));
  return (
    <table className="planner-table" data-testid="class-results-table">
      <caption>Every participant&apos;s planned settings and runs</caption>
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th
              key={c.key}
              scope="col"
              aria-sort={
                sort?.key === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'
              }
            >
              <button
                type="button"
                className="link-like"
                onClick={() => sortBy(c.key)}
                data-testid={`sort-${c.key}`}
              >
                {c.label}
              </button>
            </th>
          ))}
          <th scope="col">row</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((r, i) => (
          <tr key={`${r.file}-${i}`} data-testid="class-results-row" data-name={r.name}>
            <td>{r.name}</td>
            <td>{[r.backend ?? '—', r.adapter].filter(Boolean).join(' · ')}</td>
            <td>{r.settingsText}</td>
            <td>{r.guess ?? '—'}</td>
            <td>{bytes(r.predictedBytes)}</td>
            <td>{bytes(r.measuredBytes)}</td>
            <td>{fitsText(r)}</td>
            <td>{r.kind === 'plan' ? 'planned, not run' : r.kind}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
