import { savedFloat16Bytes, transientBytes } from '../../core/memory/memory';
import { peakStep } from '../../core/memory/phasePeaks';
import { useLab } from '../ui/useLab';
import { formatBytes } from '../../core/format';

type Category = 'weights' | 'gradients' | 'optimizer' | 'savedActivations' | 'input';

const ROWS: { key: Category | 'savedFloat16' | 'transient' | 'peak'; label: string }[] = [
  { key: 'weights', label: 'Weights (all variables)' },
  { key: 'gradients', label: 'Gradients' },
  { key: 'optimizer', label: 'Optimizer slots (Adam m, v)' },
  { key: 'savedActivations', label: 'Activations saved for backward' },
  { key: 'savedFloat16', label: 'Saved activations (float16)' },
  { key: 'input', label: 'Input batch' },
  { key: 'transient', label: 'Transient (rest of the peak)' },
  { key: 'peak', label: 'Step peak' },
];

/** Where the bytes of each phase's highest-peak step went, category by category. */
export function BreakdownTable() {
  const batches = useLab((s) => s.run.batches);
  const backend = useLab((s) => s.run.backend ?? '');
  const float16 = useLab((s) => s.run.config?.techniques.float16Storage === true);
  const peakSteps = ['frozen', 'fine-tune']
    .map((phase) => peakStep(batches, phase))
    .filter((b) => b !== undefined);
  if (peakSteps.length === 0) return null;
  const value = (b: (typeof peakSteps)[number], key: (typeof ROWS)[number]['key']): number => {
    if (key === 'peak') return b.peakBytes ?? Number.NaN;
    if (key === 'savedFloat16') return savedFloat16Bytes(b.technique, float16) ?? Number.NaN;
    if (key === 'transient')
      return b.peakBytes === undefined ? Number.NaN : transientBytes(b.breakdown, b.peakBytes);
    return b.breakdown[key];
  };
  return (
    <table className="breakdown" data-testid="breakdown">
      <caption>
        The highest-peak step of each phase, by category{' '}
        <span className="label-measured">measured · {backend}</span>
      </caption>
      <thead>
        <tr>
          <th scope="col">Category</th>
          {peakSteps.map((b) => (
            <th scope="col" key={b.phase}>
              {b.phase}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ROWS.filter((row) => float16 || row.key !== 'savedFloat16').map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {peakSteps.map((b) => (
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
      <BreakdownHint columns={peakSteps.length + 1} float16={float16} />
    </table>
  );
}

/** What the categories mean where the numbers do not say it. */
function BreakdownHint({ columns, float16 }: { columns: number; float16: boolean }) {
  return (
    <tfoot>
      <tr>
        <td colSpan={columns} className="hint">
          Transient holds what no category owns: forward intermediates that tfjs keeps alive until the forward
          function returns (its tidy scope), backward temporaries, and tf.memory()&apos;s second count of
          tensors that share a buffer (the tape&apos;s saved copies, reshaped views).
          {float16 &&
            ' Saved activations (float16) are the checkpoint boundaries kept packed as float16 pairs between the forward and the backward pass, measured when the forward pass ends; the row above, at the fullest recompute, counts those still held then with the recompute’s float32 tape (float16 storage, float32 math — tfjs has no float16 arithmetic).'}
        </td>
      </tr>
    </tfoot>
  );
}
