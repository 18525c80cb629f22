/**
 * Where the run history lives: one IndexedDB object store of HistoryEntry (core/run/history), keyed by an
 * increasing id, so the table survives a reload. An adapter at the edge: it holds no logic (the client,
 * workers/runHistory, feeds what it reads to the store).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { HistoryEntry } from '../core/run/history';

interface HistorySchema extends DBSchema {
  runs: { key: number; value: HistoryEntry };
}

let db: Promise<IDBPDatabase<HistorySchema>> | null = null;

function open(): Promise<IDBPDatabase<HistorySchema>> {
  db ??= openDB<HistorySchema>('vram-lab-history', 1, {
    upgrade(d) {
      d.createObjectStore('runs', { keyPath: 'id', autoIncrement: true });
    },
  });
  return db;
}

/** Every entry, oldest first. */
export async function allRuns(): Promise<HistoryEntry[]> {
  return (await open()).getAll('runs');
}

/** Stores an entry and returns it with its id. */
export async function addRun(entry: HistoryEntry): Promise<HistoryEntry> {
  const id = await (await open()).add('runs', entry);
  return { ...entry, id };
}

export async function deleteRun(id: number): Promise<void> {
  await (await open()).delete('runs', id);
}
