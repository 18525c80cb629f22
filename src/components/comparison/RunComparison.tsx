import { useMemo } from 'react';
import { stepPeaks } from '../../core/memory/phasePeaks';
import { CachePair } from './CachePair';
import { ComparisonTable } from './ComparisonTable';
import { StepTechniqueLine } from './StepTechniqueLine';
import { useLab } from '../ui/useLab';

/**
 * A technique as a before/after pair: each phase's measured step peak in the previous run and in this
 * one, with the settings of each, so toggling one technique between two runs shows what it saved.
 */
export function RunComparison() {
  const run = useLab((s) => s.run);
  const current = useMemo(() => stepPeaks(run.batches), [run.batches]);
  const lastStep = run.batches.at(-1);
  if (!run.config || current.length === 0) return null;
  const previous = run.previous;
  const backend = run.backend ?? 'no backend';
  return (
    <div className="run-comparison" data-testid="run-comparison">
      <h3>This run against the one before</h3>
      {lastStep && <StepTechniqueLine step={lastStep} />}
      <CachePair batches={run.batches} backend={backend} />
      {!previous ? (
        <p className="hint">Change one technique and train again to see its effect as a before/after pair.</p>
      ) : (
        <ComparisonTable previous={previous} current={current} config={run.config} backend={backend} />
      )}
    </div>
  );
}
