import { formatBytes, transientBytes } from '../core/memory';
import { useLab } from './useLab';

type Category = 'weights' | 'gradients' | 'optimizer' | 'savedActivations' | 'input';

const ROWS: { key: Category | 'transient' | 'peak'; label: string }[] = [
  { key: 'weights', label: 'Weights (all variables)' },
  { key: 'gradients', label: 'Gradients' },
  { key: 'optimizer', label: 'Optimizer slots (Adam m, v)' },
  { key: 'savedActivations', label: 'Activations saved for backward' },
  { key: 'input', label: 'Input batch' },
  { key: 'transient', label: 'Transient (rest of the peak)' },
  { key: 'peak', label: 'Step peak' },
];

/** Where the bytes of the last step of each phase went, category by category. */
export function BreakdownTable() {
  const batches = useLab((s) => s.run.batches);
  const backend = useLab((s) => s.run.backend ?? '');
  const lastOfPhase = ['frozen', 'fine-tune']
    .map((phase) => batches.findLast((b) => b.phase === phase))
    .filter((b) => b !== undefined);
  if (lastOfPhase.length === 0) return null;
  const value = (b: (typeof lastOfPhase)[number], key: (typeof ROWS)[number]['key']): number => {
    if (key === 'peak') return b.peakBytes ?? Number.NaN;
    if (key === 'transient')
      return b.peakBytes === undefined ? Number.NaN : transientBytes(b.breakdown, b.peakBytes);
    return b.breakdown[key];
  };
  return (
    <table className="breakdown" data-testid="breakdown">
      <caption>
        Last step of each phase, by category <span className="label-measured">measured · {backend}</span>
      </caption>
      <thead>
        <tr>
          <th scope="col">Category</th>
          {lastOfPhase.map((b) => (
            <th scope="col" key={b.phase}>
              {b.phase}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ROWS.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {lastOfPhase.map((b) => (
              <td
                key={b.phase}
                data-testid={`breakdown-${row.key}-${b.phase}`}
                data-bytes={value(b, row.key)}
              >
                {formatBytes(value(b, row.key))}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
