import { useMemo } from 'react';
import { formatBytes } from '../core/memory';
import { stepPeaks } from '../core/phasePeaks';
import { describeRunSettings, describeStep } from '../core/techniques';
import type { BatchPoint } from '../store/types';
import { useLab } from './useLab';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

/**
 * The feature cache as a before/after pair inside one run: the frozen steps that ran the backbone (and
 * stored its features) against those that trained the head on the stored features.
 */
function CachePair({ batches, backend }: { batches: readonly BatchPoint[]; backend: string }) {
  const side = (cache: 'filling' | 'reading') => {
    const steps = batches.filter((b) => b.technique.featureCache === cache);
    const peaks = steps.flatMap((b) => b.peakBytes ?? []);
    return steps.length === 0
      ? null
      : { peak: peaks.length ? Math.max(...peaks) : null, ms: median(steps.map((b) => b.stepMs)) };
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
      {lastStep && (
        <p className="hint" data-testid="step-technique">
          Last step: {describeStep(lastStep.technique)}.
          {lastStep.lossScale && (
            <span data-testid="loss-scale">
              {' '}
              Loss scale {lastStep.lossScale.scale} → {lastStep.lossScale.nextScale};{' '}
              {lastStep.lossScale.skippedSteps} updates skipped for non-finite gradients this phase.
            </span>
          )}
        </p>
      )}
      <CachePair batches={run.batches} backend={backend} />
      {!previous ? (
        <p className="hint">Change one technique and train again to see its effect as a before/after pair.</p>
      ) : (
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
                Before: {describeRunSettings(previous.config)}. After: {describeRunSettings(run.config)}.
              </td>
            </tr>
          </tfoot>
        </table>
      )}
    </div>
  );
}
