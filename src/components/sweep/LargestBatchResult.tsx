import type { SweepPoint, SweepStatus } from '../../core/sweep/sweep';
import { formatBytes } from '../../core/format';
import { minOf } from '../../core/extent';

interface Props extends Pick<SweepStatus, 'largest'> {
  /** The search's measured probes (the sweep's points while it ran). */ points: readonly SweepPoint[];
  /** Backend the probes were measured on. */ backendLabel: string;
}

/**
 * The largest-batch search: running, its answer with the next batch up (each predicted and measured),
 * where the planner put it, and every batch it tried in order.
 */
export function LargestBatchResult({ largest, points, backendLabel }: Props) {
  if (largest.status === 'idle') return null;
  const tried = largest.tried.map((t) => `${t.batch} ${t.fits ? 'fits' : 'runs out'}`).join(', ');
  const smallestTried = minOf(largest.tried.map((t) => t.batch));
  const answer = largest.batch;
  return (
    <div role="status" data-testid="sweep-largest-result" data-largest={answer ?? ''}>
      <p>
        {largest.status === 'running'
          ? 'Searching for the largest batch that fits…'
          : answer !== null
            ? `Largest batch that fits: ${answer}.`
            : largest.tried.length > 0
              ? `Not even batch ${smallestTried} fits.`
              : 'No batch was tried.'}
        {largest.status === 'done' && (
          <span className="hint">
            {' '}
            {largest.predicted !== null
              ? `The planner predicted ${largest.predicted}; ${largest.tried.length} measured ${largest.tried.length === 1 ? 'step' : 'steps'} confirmed the answer.`
              : `Without a simulated card only a real failure tells, so the search started from batch 1 (${largest.tried.length} measured steps).`}
          </span>
        )}
      </p>
      {largest.status === 'done' && answer !== null && (
        <ul className="largest-pair" data-testid="sweep-largest-pair">
          <ProbeLine point={points.find((p) => p.batch === answer)} backendLabel={backendLabel} />
          <ProbeLine point={points.find((p) => p.batch === answer + 1)} backendLabel={backendLabel} />
        </ul>
      )}
      {tried && <p className="hint">Tried, in order: {tried}.</p>}
    </div>
  );
}

function ProbeLine({ point, backendLabel }: { point: SweepPoint | undefined; backendLabel: string }) {
  if (!point) return null;
  const predicted = point.predictedBytes !== undefined ? formatBytes(point.predictedBytes) : 'not predicted';
  const measured =
    point.status === 'measured' && point.peakBytes !== undefined
      ? `measured ${formatBytes(point.peakBytes)} on ${backendLabel}, fits`
      : `ran out of memory on ${backendLabel}${point.oomLayer ? ` at ${point.oomLayer}` : ''}`;
  return (
    <li data-testid={`sweep-largest-batch-${point.batch}`}>
      Batch {point.batch}: predicted {predicted} · {measured}
    </li>
  );
}
