import { stepPeaks } from '../core/memory/phasePeaks';
import { plannedFor } from '../core/planner/planner';
import type { LabState } from './types';

/** What the run bar says about the last run once it ended: its accuracy and its measured peaks. */
export interface RunHeadline {
  outcome: 'completed' | 'early-stopped' | 'stopped';
  /** The last validation accuracy, 0–1; null when no validation epoch finished. */ valAccuracy:
    number | null;
  /** The highest measured step peak of each phase that ran. */ peaks: { phase: string; peakBytes: number }[];
  backend: string | null;
  /** Whether the planner's prediction beside it is still for the run's settings (the planner panel's own test). */
  sameSettings: boolean;
}

/**
 * The ended run's headline, or null while one runs, before any ran, and after an OOM (the run bar names
 * the layer and the fixes then).
 */
export function runHeadline(run: LabState['run'], settings: LabState['config']): RunHeadline | null {
  const { result, status, config } = run;
  if (!result || result.outcome === 'oom' || !['completed', 'stopped'].includes(status)) return null;
  return {
    outcome: result.outcome,
    valAccuracy: Number.isFinite(result.valAccuracy) ? result.valAccuracy : null,
    peaks: stepPeaks(run.batches),
    backend: run.backend,
    sameSettings: config !== null && plannedFor(config) === plannedFor(settings),
  };
}
