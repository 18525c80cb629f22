/**
 * Predict, then run: a participant's guess, set beside the planner's prediction and the measurement,
 * each with its error against what was measured. Pure arithmetic; the workshop views show it.
 */
import { predictionError } from '../planner/planner';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';
import { maxOf } from '../extent';

/** A committed guess: the peak of one phase's step, or whether a step fits on the simulated card. */
export type Guess =
  | { kind: 'peak'; phase: TrainingPhase; bytes: number; settings: string }
  | { kind: 'fits'; fits: boolean; settings: string };

/** What a guess was made for: any change of the settings asks for a new guess. */
export const guessSettingsKey = (c: TrainConfig): string => JSON.stringify(c);

/** Peak bytes per phase, as the planner and the measurement give them. */
export type PhasePeak = { phase: string; peakBytes: number };

/** How a run ended, for the fits guess: a step ran out of memory, or every step ran. */
export type RunOutcome = 'oom' | 'ran';

/** A value of the comparison, and its error against the measurement (null when there is none). */
export interface Compared<T> {
  value: T | null;
  /** Percent off the measured peak (peak guesses), or whether it was right (fits guesses). */
  error: number | boolean | null;
}

export interface GuessComparison {
  guess: Compared<number | boolean>;
  planner: Compared<number | boolean>;
  measured: number | boolean | null;
  /**
   * The phase ran out of memory before a step ended: `measured` is what its step held when the failing
   * allocation was asked for (in use + requested), so the true peak is at least that and each error is
   * at most the one given.
   */
  atLeast: boolean;
}

/**
 * The guess, the planner and the measurement side by side. A peak guess is judged against the phase's
 * measured step peak, or, when that phase ran out before a step ended, against what the failing step
 * held (`ranOut`); a fits guess against the run's outcome (an OOM means it did not fit).
 */
export function compareGuess(
  guess: Guess,
  planned: readonly PhasePeak[],
  measured: readonly PhasePeak[],
  outcome: RunOutcome | null,
  limit: number | null,
  ranOut: PhasePeak | null = null,
): GuessComparison {
  if (guess.kind === 'peak') {
    const plan = planned.find((p) => p.phase === guess.phase)?.peakBytes ?? null;
    const stepPeak = measured.find((p) => p.phase === guess.phase)?.peakBytes ?? null;
    const atLeast = stepPeak === null && ranOut?.phase === guess.phase;
    const m = atLeast ? ranOut.peakBytes : stepPeak;
    const error = (v: number | null) => (v === null || m === null ? null : predictionError(v, m));
    return {
      guess: { value: guess.bytes, error: error(guess.bytes) },
      planner: { value: plan, error: error(plan) },
      measured: m,
      atLeast,
    };
  }
  const planFits =
    limit === null || planned.length === 0 ? null : maxOf(planned.map((p) => p.peakBytes)) <= limit;
  const fits = outcome === null ? null : outcome === 'ran';
  const right = (v: boolean | null) => (v === null || fits === null ? null : v === fits);
  return {
    guess: { value: guess.fits, error: right(guess.fits) },
    planner: { value: planFits, error: right(planFits) },
    measured: fits,
    atLeast: false,
  };
}
