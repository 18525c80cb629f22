import { useEffect, useState } from 'react';
import type { HistoryEntry } from '../../core/history';
import type { TrainConfig } from '../../core/trainConfig';
import { labStore } from '../../store/store';
import { addRun, allRuns, deleteRun } from './historyDb';
import { runEnded, runEntry } from './runEntry';

/** The kept runs, read from IndexedDB on mount; every run that ends from now on is added and kept. */
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
    return labStore.subscribe((s, before) => {
      if (!runEnded(before, s)) return;
      const entry = runEntry(s, previous, Date.now());
      previous = entry.settings;
      addRun(entry).then(
        (stored) => setEntries((list) => [...list, stored]),
        (e: unknown) => setError(`The run could not be kept: ${String(e)}`),
      );
    });
  }, []);

  const remove = async (id: number) => {
    await deleteRun(id);
    setEntries((list) => list.filter((e) => e.id !== id));
  };
  return { entries, error, remove };
}
