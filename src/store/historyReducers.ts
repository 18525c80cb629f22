/**
 * Pure reducers of the run history, the remedy cards' experiments and the lab zip loaded last. The
 * client feeds them: the history from IndexedDB (workers/runHistory), the experiments from their
 * workflow (experimentRun), the zip from the model library (labZip).
 */
import type { ExperimentId } from '../core/experiments/experiments';
import type { HistoryEntry } from '../core/run/history';
import type { ZipLoaded } from '../core/run/protocol';
import type { ExperimentsSlice, LabState, Side, SideResult } from './types';

/**
 * The entries read from IndexedDB at start-up, before any kept since (a run can end while they are
 * read); an entry already there by id is not added twice.
 */
export function historyRead(s: LabState, read: HistoryEntry[]): LabState {
  const since = s.history.entries.filter((k) => !read.some((r) => r.id === k.id));
  return { ...s, history: { ...s.history, status: 'ready', entries: [...read, ...since] } };
}

/** Entries just stored (each with its id), at the end. */
export function historyKept(s: LabState, stored: HistoryEntry[]): LabState {
  return { ...s, history: { ...s.history, entries: [...s.history.entries, ...stored] } };
}

export function historyRemoved(s: LabState, id: number): LabState {
  return { ...s, history: { ...s.history, entries: s.history.entries.filter((e) => e.id !== id) } };
}

/** Reading or keeping failed; what is held stays. */
export function historyFailed(s: LabState, message: string): LabState {
  return { ...s, history: { ...s.history, status: 'ready', error: message } };
}

const experiments = (s: LabState, patch: Partial<ExperimentsSlice['experiments']>): LabState => ({
  ...s,
  experiments: { ...s.experiments, ...patch },
});

/** A card's experiment starts: its last results and error are cleared, the cards hold `started`. */
export function experimentStarted(
  s: LabState,
  id: ExperimentId,
  started: ExperimentsSlice['experiments']['started'],
): LabState {
  const e = s.experiments;
  return experiments(s, {
    given: { ...e.given, [id]: {} },
    errors: { ...e.errors, [id]: undefined },
    started,
  });
}

export const experimentSideStarted = (s: LabState, id: ExperimentId, side: Side): LabState =>
  experiments(s, { active: { id, side } });

export function experimentSideEnded(s: LabState, id: ExperimentId, side: Side, result: SideResult): LabState {
  const given = s.experiments.given;
  return experiments(s, { given: { ...given, [id]: { ...given[id], [side]: result } } });
}

export const experimentFailed = (s: LabState, id: ExperimentId, message: string): LabState =>
  experiments(s, { errors: { ...s.experiments.errors, [id]: message } });

/** The experiment is over (through, stopped or failed): the cards follow the settings again. */
export const experimentEnded = (s: LabState): LabState => experiments(s, { active: null, started: null });

/** A zip was read; `dropped` holds a dropped one's bytes so it can be kept in this browser. */
export const zipLoaded = (
  s: LabState,
  loaded: ZipLoaded,
  dropped: LabState['labZip']['dropped'],
): LabState => ({
  ...s,
  labZip: { loaded, error: null, dropped },
});

/** A zip was refused: no zip is loaded, and the message says why. */
export const zipRefused = (s: LabState, message: string): LabState => ({
  ...s,
  labZip: { loaded: null, error: message, dropped: null },
});
