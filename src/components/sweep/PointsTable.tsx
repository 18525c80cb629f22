import { predictionError } from '../../core/planner/planner';
import { skipCause, type SweepPoint } from '../../core/sweep/sweep';
import { formatBytes } from '../../core/format';

interface TableProps {
  points: SweepPoint[];
  presetLabel(id: string): string;
  backendLabel: string;
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;

/** Every point so far: its measured peak or how it ended, the prediction and the error. */
export function PointsTable({ points, presetLabel, backendLabel }: TableProps) {
  return (
    <table className="sweep-table" data-testid="sweep-table">
      <thead>
        <tr>
          <th scope="col">batch</th>
          <th scope="col">input</th>
          <th scope="col">preset</th>
          <th scope="col">
            step peak <span className="label-measured">measured · {backendLabel}</span>
          </th>
          <th scope="col">
            peak <span className="label-predicted">predicted · planner</span>
          </th>
          <th scope="col">error</th>
        </tr>
      </thead>
      <tbody>
        {points.map((p) => {
          const measured = p.status === 'measured' ? p.peakBytes : undefined;
          return (
            <tr key={`${p.presetId}/${p.size}/${p.batch}`} data-testid="sweep-row" data-status={p.status}>
              <td>{p.batch}</td>
              <td>
                {p.size}×{p.size}
              </td>
              <td>{presetLabel(p.presetId)}</td>
              <td title={p.message}>
                <Outcome point={p} points={points} />
              </td>
              <td>{p.predictedBytes === undefined ? '—' : formatBytes(p.predictedBytes)}</td>
              <td>
                {measured === undefined || p.predictedBytes === undefined
                  ? '—'
                  : pct(predictionError(p.predictedBytes, measured))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** How a point ended: its measured peak, where it ran out, or which smaller batch made it skip. */
function Outcome({ point, points }: { point: SweepPoint; points: SweepPoint[] }) {
  if (point.status === 'measured')
    return <>{point.peakBytes === undefined ? 'measured' : formatBytes(point.peakBytes)}</>;
  if (point.status === 'oom')
    return <span className="error-text">{point.oomLayer ? `OOM at ${point.oomLayer}` : 'OOM'}</span>;
  const cause = skipCause(points, point);
  return (
    <span className="muted">
      skipped: a smaller batch already ran out{cause ? ` (batch ${cause.batch})` : ''}
    </span>
  );
}
