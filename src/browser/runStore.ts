/**
 * Where the run saved at the end of every epoch lives: one IndexedDB record, so storage stays bounded
 * (one run). An adapter at the edge: it holds no logic (core/run/resume.ts decides what a record is).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { SavedRun } from '../core/run/resume';

const KEY = 'current';

interface RunSchema extends DBSchema {
  runs: { key: string; value: SavedRun };
}

let db: Promise<IDBPDatabase<RunSchema>> | null = null;

function open(): Promise<IDBPDatabase<RunSchema>> {
  db ??= openDB<RunSchema>('vram-lab-saved-run', 1, {
    upgrade(d) {
      d.createObjectStore('runs');
    },
  });
  return db;
}

/** The saved run, or null when there is none or it has another format. */
export async function loadSavedRun(): Promise<SavedRun | null> {
  const run = await (await open()).get('runs', KEY);
  return run?.version === 1 ? run : null;
}

/**
 * Replaces the saved run. One put in one transaction: IndexedDB commits it whole or not at all, so the
 * previous epoch's record stays readable until the new one is complete (a full quota leaves the old one).
 */
export async function saveRun(run: SavedRun): Promise<void> {
  const tx = (await open()).transaction('runs', 'readwrite');
  await Promise.all([tx.store.put(run, KEY), tx.done]);
}

export async function clearSavedRun(): Promise<void> {
  await (await open()).delete('runs', KEY);
}
