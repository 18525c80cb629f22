import type { BatchPoint } from '../../store/types';
import { formatBytes } from '../../core/format';
import { maxOf } from '../../core/extent';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

/**
 * The feature cache as a before/after pair inside one run: the frozen steps that ran the backbone (and
 * stored its features) against those that trained the head on the stored features.
 */
export function CachePair({ batches, backend }: { batches: readonly BatchPoint[]; backend: string }) {
  const side = (cache: 'filling' | 'reading') => {
    const steps = batches.filter((b) => b.technique.featureCache === cache);
    const peaks = steps.flatMap((b) => b.peakBytes ?? []);
    return steps.length === 0
      ? null
      : { peak: peaks.length ? maxOf(peaks) : null, ms: median(steps.map((b) => b.stepMs)) };
  };
  const filling = side('filling');
  const reading = side('reading');
  if (!filling || !reading) return null;
  const peak = (p: number | null) => (p === null ? 'peak not measured' : `peak ${formatBytes(p)}`);
  return (
    <p className="hint" data-testid="cache-pair">
      Feature cache, this run <span className="label-measured">measured · {backend}</span>: steps that ran the
      backbone {peak(filling.peak)}, {filling.ms.toFixed(0)} ms a step (median); steps on cached features{' '}
      {peak(reading.peak)}, {reading.ms.toFixed(0)} ms a step.
    </p>
  );
}
