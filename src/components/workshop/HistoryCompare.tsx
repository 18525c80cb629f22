import { settingsChanges, type HistoryEntry } from '../../core/run/history';
import { predictionError } from '../../core/planner/planner';
import { formatBytes } from '../../core/format';

const PHASES = ['frozen', 'fine-tune'] as const;
const peakOf = (list: HistoryEntry['measured'], phase: string) =>
  list.find((p) => p.phase === phase)?.peakBytes;
const bytes = (v: number | undefined) => (v === undefined ? '—' : formatBytes(v));

/** Two kept runs side by side: what differs in their settings, and their peaks, outcome and speed. */
export function HistoryCompare({ a, b }: { a: HistoryEntry; b: HistoryEntry }) {
  const changes = settingsChanges(a.settings, b.settings);
  return (
    <div data-testid="history-compare">
      <h3>
        Run {a.id} against run {b.id}
      </h3>
      <p>{changes.length > 0 ? `Settings: ${changes.join('; ')}.` : 'Same settings.'}</p>
      <table className="planner-table">
        <thead>
          <tr>
            <th scope="col">measure</th>
            <th scope="col">run {a.id}</th>
            <th scope="col">run {b.id}</th>
            <th scope="col">change</th>
          </tr>
        </thead>
        <tbody>
          {PHASES.map((phase) => {
            const [x, y] = [peakOf(a.measured, phase), peakOf(b.measured, phase)];
            return (
              <tr key={phase}>
                <th scope="row">
                  {phase} peak <span className="label-measured">measured</span>
                </th>
                <td>{bytes(x)}</td>
                <td>{bytes(y)}</td>
                <td>{x === undefined || y === undefined ? '—' : `${predictionError(y, x).toFixed(1)}%`}</td>
              </tr>
            );
          })}
          <tr>
            <th scope="row">outcome</th>
            <td>{a.outcome}</td>
            <td>{b.outcome}</td>
            <td />
          </tr>
          <tr>
            <th scope="row">step time</th>
            <td>{a.stepMs === null ? '—' : `${a.stepMs.toFixed(0)} ms`}</td>
            <td>{b.stepMs === null ? '—' : `${b.stepMs.toFixed(0)} ms`}</td>
            <td />
          </tr>
        </tbody>
      </table>
    </div>
  );
}
