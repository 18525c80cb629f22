import { describe, expect, it } from 'vitest';
import { peakStep, phasePeaks, stepPeaks } from './phasePeaks';

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

describe('peakStep', () => {
  it('picks the step with the highest peak of the phase, not a small last batch', () => {
    const steps = [
      { id: 1, phase: 'fine-tune', peakBytes: 70 },
      { id: 2, phase: 'fine-tune', peakBytes: 71 },
      { id: 3, phase: 'fine-tune', peakBytes: 12 },
      { id: 4, phase: 'frozen', peakBytes: 90 },
    ];
    expect(peakStep(steps, 'fine-tune')?.id).toBe(2);
    expect(peakStep(steps, 'none')).toBeUndefined();
    expect(
      peakStep(
        [
          { id: 5, phase: 'frozen' },
          { id: 6, phase: 'frozen' },
        ],
        'frozen',
      )?.id,
    ).toBe(6);
  });
});
