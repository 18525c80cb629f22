import { describeRunSettings } from '../../core/settings/techniques';
import type { TrainConfig } from '../../core/settings/trainConfig';
import type { PreviousRun } from '../../store/types';
import { formatBytes } from '../../core/format';

interface Props {
  previous: PreviousRun;
  /** This run's highest step peak per phase. */ current: readonly { phase: string; peakBytes: number }[];
  config: TrainConfig;
  backend: string;
}

/** Each phase's step peak before and after, their ratio, and the settings of both runs. */
export function ComparisonTable({ previous, current, config, backend }: Props) {
  return (
    <table className="planner-table">
      <thead>
        <tr>
          <th scope="col">phase</th>
          <th scope="col">
            before <span className="label-measured">measured · {previous.backend ?? 'no backend'}</span>
          </th>
          <th scope="col">
            after <span className="label-measured">measured · {backend}</span>
          </th>
          <th scope="col">after / before</th>
        </tr>
      </thead>
      <tbody>
        {current.map((p) => {
          const before = previous.peaks.find((q) => q.phase === p.phase)?.peakBytes;
          return (
            <tr key={p.phase} data-testid={`comparison-${p.phase}`}>
              <th scope="row">{p.phase}</th>
              <td>{before === undefined ? '—' : formatBytes(before)}</td>
              <td>{formatBytes(p.peakBytes)}</td>
              <td data-testid={`comparison-${p.phase}-ratio`}>
                {before === undefined ? '—' : `${(p.peakBytes / before).toFixed(2)}×`}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4} className="hint">
            Before: {describeRunSettings(previous.config)}. After: {describeRunSettings(config)}.
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
