import type { StepPhase } from '../../core/memory/oom';

let current: StepPhase = 'other';

/** Which part of a training step is running (set by the trainer and the input pipeline). */
export function stepPhase(): StepPhase {
  return current;
}

/** Runs fn with the phase set, restoring the previous one afterwards (phases nest: input inside a step). */
export function inPhase<T>(phase: StepPhase, fn: () => T): T {
  const previous = current;
  current = phase;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** Sets the phase until the next call; for phases that span awaits. */
export function setStepPhase(phase: StepPhase): void {
  current = phase;
}
