// Pure reducers for a run saved in this browser: offered after a reload, resumed or discarded. The saved
// copy itself lives in IndexedDB (browser/runStore.ts), read and written by workers/runSaver.ts.
import { dataMismatch, type SavedRunSummary } from '../core/run/resume';
import { loadedIdentity } from './resumeSelectors';
import { refused } from './reducers';
import type { LabState } from './types';

/** A saved run was found: the page offers to resume it (unless one is already armed). */
export function savedRunFound(s: LabState, summary: SavedRunSummary): LabState {
  if (s.savedRun.status === 'armed') return s;
  return { ...s, savedRun: { status: 'offered', summary } };
}

/** Nothing is saved any more (resumed, finished, replaced by a new run, or deleted after Discard). */
export function savedRunCleared(s: LabState): LabState {
  return { ...s, savedRun: { status: 'none', summary: null } };
}

/** The user discarded the saved run: hidden now, deleted from storage by the run saver. */
export function savedRunDiscarded(s: LabState): LabState {
  return s.savedRun.summary ? { ...s, savedRun: { ...s.savedRun, status: 'discarding' } } : s;
}

/**
 * The user asked to resume. With the run's data loaded, its settings come back and the next Train
 * continues it ('armed'); without them, or with other data, the page says what to do instead.
 */
export function resumeRequested(s: LabState, at: number): LabState {
  const summary = s.savedRun.summary;
  if (!summary || s.savedRun.status === 'discarding') return s;
  const problem = dataMismatch(summary.data, s.dataset.status === 'ready' ? loadedIdentity(s) : null);
  if (problem) return refused(s, problem, at);
  return { ...s, config: summary.config, savedRun: { status: 'armed', summary } };
}
