import { describe, expect, it } from 'vitest';
import { compareGuess, guessSettingsKey, type Guess } from './guess';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';

const key = guessSettingsKey(DEFAULT_TRAIN_CONFIG);
const planned = [
  { phase: 'frozen', peakBytes: 40e6 },
  { phase: 'fine-tune', peakBytes: 120e6 },
];
const measured = [
  { phase: 'frozen', peakBytes: 50e6 },
  { phase: 'fine-tune', peakBytes: 100e6 },
];

describe('compareGuess', () => {
  it('sets a peak guess beside the planner and the measurement, each with its error', () => {
    const guess: Guess = { kind: 'peak', phase: 'fine-tune', bytes: 80e6, settings: key };
    expect(compareGuess(guess, planned, measured, 'ran', null)).toEqual({
      guess: { value: 80e6, error: -20 },
      planner: { value: 120e6, error: 20 },
      measured: 100e6,
      atLeast: false,
    });
  });

  it('judges a peak guess by what the failing step held when its phase ran out before a step ended', () => {
    const guess: Guess = { kind: 'peak', phase: 'fine-tune', bytes: 30e6, settings: key };
    const ranOut = { phase: 'fine-tune', peakBytes: 60e6 };
    expect(compareGuess(guess, planned, measured.slice(0, 1), 'oom', 40e6, ranOut)).toEqual({
      guess: { value: 30e6, error: -50 },
      planner: { value: 120e6, error: 100 },
      measured: 60e6,
      atLeast: true,
    });
    // A measured step peak of that phase, when there is one, is the measurement.
    expect(compareGuess(guess, planned, measured, 'oom', 40e6, ranOut).atLeast).toBe(false);
    // The other phase's failure says nothing about this one.
    const frozenOut = { phase: 'frozen', peakBytes: 60e6 };
    expect(compareGuess(guess, planned, [], 'oom', 40e6, frozenOut).measured).toBeNull();
  });

  it('has no error before the phase is measured', () => {
    const guess: Guess = { kind: 'peak', phase: 'fine-tune', bytes: 80e6, settings: key };
    expect(compareGuess(guess, planned, measured.slice(0, 1), null, null).guess).toEqual({
      value: 80e6,
      error: null,
    });
  });

  it('judges a fits guess by the outcome: an OOM means it did not fit', () => {
    const guess: Guess = { kind: 'fits', fits: true, settings: key };
    // The planner's largest phase (120 MB) is over a 90 MB card: it says no; the run ran out: it was right.
    expect(compareGuess(guess, planned, measured, 'oom', 90e6)).toEqual({
      guess: { value: true, error: false },
      planner: { value: false, error: true },
      measured: false,
      atLeast: false,
    });
    expect(compareGuess(guess, planned, measured, 'ran', 200e6)).toEqual({
      guess: { value: true, error: true },
      planner: { value: true, error: true },
      measured: true,
      atLeast: false,
    });
  });

  it('asks for a new guess when any setting changes', () => {
    expect(guessSettingsKey({ ...DEFAULT_TRAIN_CONFIG, batchSize: 9 })).not.toBe(key);
  });
});
