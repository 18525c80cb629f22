import { LayerBars } from '../../charts/LayerBars';
import { peakStep } from '../../core/memory/phasePeaks';
import { useLab } from '../ui/useLab';
import { formatBytes } from '../../core/format';

/** What the gradient tape holds at the end of the forward pass of the latest phase's highest-peak step, by layer. */
export function SavedByLayer() {
  const last = useLab((s) => {
    const latest = s.run.batches[s.run.batches.length - 1];
    return latest && peakStep(s.run.batches, latest.phase);
  });
  const backend = useLab((s) => s.run.backend ?? '');
  if (!last || last.breakdown.savedByLayer.length === 0) return null;
  const largest = last.breakdown.largestSaved;
  return (
    <div className="saved-by-layer">
      <LayerBars
        title={`Activations saved for backward, by layer (highest-peak ${last.phase} step)`}
        bars={last.breakdown.savedByLayer}
        tag={`measured · ${backend} · gradient tape`}
      />
      {largest && (
        <p data-testid="largest-saved">
          Largest single tensor: <code>{largest.layer}</code>, shape [{largest.shape.join(', ')}],{' '}
          {formatBytes(largest.bytes)}.
        </p>
      )}
    </div>
  );
}
