import { useMemo } from 'react';
import { useNumbersHidden } from '../workshop/useNumbersHidden';
import { planRows } from './planRows';
import { usePlanned } from './usePlanned';
import { formatBytes } from '../../core/format';

/**
 * The planner's predicted peak of each phase in one line, for the run bar: whatever part of the page
 * the user is changing, the prediction it moves stays in view, beside the card it must fit.
 */
export function PeakReadout() {
  const { spec, config } = usePlanned();
  const rows = useMemo(() => (spec ? planRows(spec, config) : []), [spec, config]);
  const hidden = useNumbersHidden();
  if (rows.length === 0) return null;
  if (hidden)
    return (
      <p className="peak-readout" data-testid="peak-readout">
        <span className="label-predicted">predicted · tfjs</span> hidden until you commit a guess (planner)
      </p>
    );
  const card = config.budgetBytes;
  return (
    <p className="peak-readout" data-testid="peak-readout" aria-live="polite">
      <span className="label-predicted">predicted · tfjs</span>{' '}
      {rows
        .filter((r) => r.key !== 'frozen-cached')
        .map((r) => (
          <span key={r.key} className="peak-readout-item" data-testid={`peak-readout-${r.key}`}>
            {r.label} <strong>{formatBytes(r.tfjs.peakBytes)}</strong>
            {card !== null && (r.tfjs.peakBytes <= card ? ' fits' : ' over')}
          </span>
        ))}
      {card !== null && <span className="muted"> · card {formatBytes(card)}</span>}
    </p>
  );
}
