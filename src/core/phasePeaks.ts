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
