/**
 * The client side of the run history: reads the kept entries from IndexedDB (browser/history) into the
 * store once at start-up, keeps every run, sweep or search that ends from then on, and deletes on
 * request. The store's history slice is the one copy every view reads.
 */
import { addRun, allRuns, deleteRun } from '../browser/history';
import type { HistoryEntry } from '../core/run/history';
import type { TrainConfig } from '../core/settings/trainConfig';
import { actions } from '../store/actions';
import type { RunHistory } from '../store/commands';
import { runEnded, runEntry, sweepEnded, sweepEntries } from '../store/runEntry';
import { labStore } from '../store/store';

/** Starts reading and keeping; returns the history's writes for the views. */
export function startRunHistory(): RunHistory {
  // The settings of the last kept run, to say what the next one changed.
  let previous: TrainConfig | null = null;
  allRuns().then(
    (list) => {
      previous ??= list[list.length - 1]?.settings ?? null;
      actions.historyRead(list);
    },
    (e: unknown) => actions.historyFailed(`The history could not be read: ${String(e)}`),
  );
  const keep = (list: HistoryEntry[]) => {
    previous = list[list.length - 1]?.settings ?? previous;
    Promise.all(list.map(addRun)).then(
      (stored) => actions.historyKept(stored),
      (e: unknown) => actions.historyFailed(`The run could not be kept: ${String(e)}`),
    );
  };
  labStore.subscribe((s, before) => {
    if (runEnded(before, s)) keep([runEntry(s, previous, Date.now())]);
    if (sweepEnded(before, s)) keep(sweepEntries(s, previous, Date.now()));
  });
  return {
    async remove(id) {
      await deleteRun(id);
      actions.historyRemoved(id);
    },
  };
}
