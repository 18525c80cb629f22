import { useEffect, useState } from 'react';
import type { HistoryEntry } from '../../core/run/history';
import type { TrainConfig } from '../../core/settings/trainConfig';
import { labStore } from '../../store/store';
import { addRun, allRuns, deleteRun } from './historyDb';
import { runEnded, runEntry, sweepEnded, sweepEntries } from './runEntry';

/**
 * The kept runs and sweep points, read from IndexedDB on mount; every run, sweep or search that ends from
 * now on is added and kept.
 */
export function useRunHistory() {
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // The settings of the last kept run, to say what the next one changed.
    let previous: TrainConfig | null = null;
    allRuns().then(
      (list) => {
        previous ??= list[list.length - 1]?.settings ?? null;
        setEntries((kept) => [...list, ...kept.filter((k) => !list.some((l) => l.id === k.id))]);
      },
      (e: unknown) => setError(`The history could not be read: ${String(e)}`),
    );
    const keep = (list: HistoryEntry[]) => {
      previous = list[list.length - 1]?.settings ?? previous;
      Promise.all(list.map(addRun)).then(
        (stored) => setEntries((kept) => [...kept, ...stored]),
        (e: unknown) => setError(`The run could not be kept: ${String(e)}`),
      );
    };
    return labStore.subscribe((s, before) => {
      if (runEnded(before, s)) keep([runEntry(s, previous, Date.now())]);
      if (sweepEnded(before, s)) keep(sweepEntries(s, previous, Date.now()));
    });
  }, []);

  const remove = async (id: number) => {
    await deleteRun(id);
    setEntries((list) => list.filter((e) => e.id !== id));
  };
  return { entries, error, remove };
}
