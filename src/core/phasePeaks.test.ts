import { describe, expect, it } from 'vitest';
import { phasePeaks, stepPeaks } from './phasePeaks';

describe('phasePeaks', () => {
  it('splits the timeline at each phase start', () => {
    const samples = [0, 10, 20, 30, 40].map((t, i) => ({
      t,
      liveBytes: [5, 9, 7, 20, 11][i]!,
      numTensors: 1,
    }));
    expect(
      phasePeaks(samples, [
        { phase: 'frozen', t: 0 },
        { phase: 'fine-tune', t: 25 },
      ]),
    ).toEqual([
      { phase: 'frozen', peakBytes: 9 },
      { phase: 'fine-tune', peakBytes: 20 },
    ]);
  });
});

describe('stepPeaks', () => {
  it('takes the highest step peak of each phase and ignores steps without one', () => {
    expect(
      stepPeaks([
        { phase: 'frozen', peakBytes: 5 },
        { phase: 'frozen' },
        { phase: 'frozen', peakBytes: 8 },
        { phase: 'fine-tune', peakBytes: 30 },
      ]),
    ).toEqual([
      { phase: 'frozen', peakBytes: 8 },
      { phase: 'fine-tune', peakBytes: 30 },
    ]);
  });
});
