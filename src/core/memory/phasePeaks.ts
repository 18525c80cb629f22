import { peakLiveBytes, type MemorySample } from './memory';

/** Peak live bytes per training phase, from the phase start times on the same clock as the samples. */
export function phasePeaks(
  samples: readonly MemorySample[],
  phases: readonly { phase: string; t: number }[],
): { phase: string; peakBytes: number }[] {
  return phases.map((p, i) => ({
    phase: p.phase,
    peakBytes: peakLiveBytes(samples, p.t, phases[i + 1]?.t ?? Number.POSITIVE_INFINITY),
  }));
}

/** Highest step peak per phase, in phase order, over the steps that carry one. */
export function stepPeaks(
  batches: readonly { phase: string; peakBytes?: number }[],
): { phase: string; peakBytes: number }[] {
  const out: { phase: string; peakBytes: number }[] = [];
  for (const b of batches) {
    if (b.peakBytes === undefined) continue;
    const entry = out.find((e) => e.phase === b.phase);
    if (entry) entry.peakBytes = Math.max(entry.peakBytes, b.peakBytes);
    else out.push({ phase: b.phase, peakBytes: b.peakBytes });
  }
  return out;
}

/** The step with the highest peak of a phase (the last one when no step carries a peak), or undefined. */
export function peakStep<T extends { phase: string; peakBytes?: number }>(
  batches: readonly T[],
  phase: string,
): T | undefined {
  let best: T | undefined;
  for (const b of batches) {
    if (b.phase !== phase) continue;
    if (!best || (b.peakBytes ?? -1) >= (best.peakBytes ?? -1)) best = b;
  }
  return best;
}
