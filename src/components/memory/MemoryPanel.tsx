import { useMemo } from 'react';
import { MemoryTimeline, type MemoryPoint } from '../../charts/MemoryTimeline';
import { downsampleMax } from '../../core/run/downsample';
import { phasePeaks, stepPeaks } from '../../core/memory/phasePeaks';
import { BreakdownTable } from './BreakdownTable';
import { MemoryNumbers } from './MemoryNumbers';
import { ReleaseControl } from './ReleaseControl';
import { RunComparison } from '../comparison/RunComparison';
import { SavedByLayer } from './SavedByLayer';
import { StepProfileView } from './StepProfileView';
import { useLab } from '../ui/useLab';

const MAX_POINTS = 600;

/** The live memory view: timeline, current numbers and the peak of each phase, all measured. */
export function MemoryPanel() {
  const samples = useLab((s) => s.memory.samples);
  const markers = useLab((s) => s.memory.markers);
  const phases = useLab((s) => s.run.phases);
  const backend = useLab((s) => s.run.backend ?? s.engine.backend?.name ?? 'no backend');
  const points = useMemo<MemoryPoint[]>(
    () =>
      downsampleMax(samples, MAX_POINTS, (p) => p.liveBytes).map((p) => ({
        s: p.t / 1000,
        live: p.liveBytes,
        allocated: p.allocatedBytes,
      })),
    [samples],
  );
  const peaks = useMemo(() => phasePeaks(samples, phases), [samples, phases]);
  const batches = useLab((s) => s.run.batches);
  const stepPeak = useMemo(() => stepPeaks(batches), [batches]);
  const last = samples[samples.length - 1];
  const hasPool = last?.allocatedBytes !== undefined;
  return (
    <section className="panel" aria-labelledby="memory-title">
      <h2 id="memory-title">Memory</h2>
      <MemoryNumbers last={last} hasPool={hasPool} peaks={peaks} stepPeak={stepPeak} backend={backend} />
      <MemoryTimeline points={points} markers={markers} backend={backend} hasPool={hasPool} />
      <BreakdownTable />
      <RunComparison />
      <SavedByLayer />
      <StepProfileView />
      <ReleaseControl />
    </section>
  );
}
