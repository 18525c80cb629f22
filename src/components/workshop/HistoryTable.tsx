import type { HistoryEntry } from '../../core/run/history';
import { trainableLabel } from '../../core/settings/trainable';
import { formatBytes } from '../../core/format';

const peaks = (list: HistoryEntry['predicted']) =>
  list.length === 0 ? '—' : list.map((p) => `${p.phase} ${formatBytes(p.peakBytes)}`).join(', ');

interface Props {
  entries: readonly HistoryEntry[];
  picked: readonly number[];
  onPick(id: number): void;
  onDelete(id: number): void;
}

/** One row per kept run, oldest first. */
export function HistoryTable({ entries, picked, onPick, onDelete }: Props) {
  return (
    <table className="planner-table" data-testid="history-table">
      <thead>
        <tr>
          <th scope="col">compare</th>
          <th scope="col">#</th>
          <th scope="col">settings</th>
          <th scope="col">changed</th>
          <th scope="col">
            peak <span className="label-predicted">predicted · tfjs</span>
          </th>
          <th scope="col">
            peak <span className="label-measured">measured</span>
          </th>
          <th scope="col">outcome</th>
          <th scope="col">step</th>
          <th scope="col">val acc</th>
          <th scope="col">backend</th>
          <th scope="col">delete</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <HistoryRow
            key={e.id}
            e={e}
            picked={e.id !== undefined && picked.includes(e.id)}
            onPick={onPick}
            onDelete={onDelete}
          />
        ))}
      </tbody>
    </table>
  );
}

interface RowProps {
  e: HistoryEntry;
  picked: boolean;
  onPick(id: number): void;
  onDelete(id: number): void;
}

function HistoryRow({ e, picked, onPick, onDelete }: RowProps) {
  return (
    <tr data-testid="history-row">
      <td>
        <input
          type="checkbox"
          aria-label={`Compare run ${e.id}`}
          checked={picked}
          onChange={() => e.id !== undefined && onPick(e.id)}
        />
      </td>
      <td>
        {e.id}
        {e.kind === 'sweep' && <div className="hint">sweep point</div>}
      </td>
      <td>
        {e.settings.model} {e.settings.height}×{e.settings.width}, batch {e.settings.batchSize},{' '}
        {trainableLabel(e.settings.fineTune)}
      </td>
      <td>{e.changed.length > 0 ? e.changed.join('; ') : '—'}</td>
      <td>{peaks(e.predicted)}</td>
      <td>{peaks(e.measured)}</td>
      <td>
        {e.outcome}
        {e.oomAt && <div className="hint">{e.oomAt}</div>}
      </td>
      <td>{e.stepMs === null ? '—' : `${e.stepMs.toFixed(0)} ms`}</td>
      <td>{e.valAccuracy === null ? '—' : `${(e.valAccuracy * 100).toFixed(1)}%`}</td>
      <td>
        {e.backend ?? '—'}
        {e.adapter && <div className="hint">{e.adapter}</div>}
      </td>
      <td>
        <button
          type="button"
          aria-label={`Delete run ${e.id}`}
          onClick={() => e.id !== undefined && onDelete(e.id)}
        >
          Delete
        </button>
      </td>
    </tr>
  );
}
