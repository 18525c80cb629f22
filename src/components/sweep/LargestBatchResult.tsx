import type { SweepStatus } from '../../core/sweep';

/** The largest-batch search: running, its answer, and every batch it tried in order. */
export function LargestBatchResult({ largest }: Pick<SweepStatus, 'largest'>) {
  if (largest.status === 'idle') return null;
  const tried = largest.tried.map((t) => `${t.batch} ${t.fits ? 'fits' : 'runs out'}`).join(', ');
  const smallestTried = Math.min(...largest.tried.map((t) => t.batch));
  return (
    <p role="status" data-testid="sweep-largest-result" data-largest={largest.batch ?? ''}>
      {largest.status === 'running'
        ? 'Searching for the largest batch that fits…'
        : largest.batch !== null
          ? `Largest batch that fits: ${largest.batch}.`
          : largest.tried.length > 0
            ? `Not even batch ${smallestTried} fits.`
            : 'No batch was tried.'}
      {tried && <span className="hint"> Tried, in order: {tried}.</span>}
    </p>
  );
}
