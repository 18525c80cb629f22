/**
 * Every value derived from the store's state, computed in one place. Views, the engine client and the
 * tests read these instead of re-deriving them, so two copies cannot disagree.
 */
import type { LabState } from './types';

/** A training run holds the engine (running, or finishing its step after Stop). */
export const selectTraining = (s: LabState): boolean =>
  s.run.status === 'running' || s.run.status === 'stopping';

/** A sweep or a largest-batch search holds the engine. */
export const selectSweeping = (s: LabState): boolean => s.sweep.status === 'running';

/**
 * The lab is busy: a run or a sweep holds the engine, so nothing may replace the data, the weights, the
 * backend or the settings a job reads until it ends. The one rule every control and command uses.
 */
export const selectBusy = (s: LabState): boolean => selectTraining(s) || selectSweeping(s);

/** The engine can take a new job now. */
export const selectEngineFree = (s: LabState): boolean => s.engine.status === 'ready' && !selectBusy(s);
