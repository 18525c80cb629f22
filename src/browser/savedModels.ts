/**
 * Models saved in this browser: IndexedDB (idb, as the run history) keeps each model as the same zip the
 * download gives, so a saved model and a dropped zip load through one path (ml/weights/zipModel), and
 * beside it the list entry (name, date, architecture, classes, accuracy, size). The list is read without
 * reading any zip. tfjs' own indexeddb:// handler was not used: it stores only model artifacts (no class
 * names or accuracy to list), it runs only where tfjs is (the worker), and the page would need tfjs to list.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { SavedModelMeta } from '../core/run/protocol';
import { storageRefusal } from './savedModelsMeta';

interface ModelsSchema extends DBSchema {
  models: { key: number; value: SavedModelMeta };
  zips: { key: number; value: Uint8Array };
}

let db: Promise<IDBPDatabase<ModelsSchema>> | null = null;

function open(): Promise<IDBPDatabase<ModelsSchema>> {
  db ??= openDB<ModelsSchema>('vram-lab-models', 1, {
    upgrade(d) {
      d.createObjectStore('models', { keyPath: 'id', autoIncrement: true });
      d.createObjectStore('zips');
    },
  });
  return db;
}

/** Every saved model's list entry, newest first. */
export async function savedModels(): Promise<SavedModelMeta[]> {
  return (await (await open()).getAll('models')).reverse();
}

/** Stores the zip and its entry in one transaction; throws an Error whose message names a full quota. */
export async function saveModel(meta: SavedModelMeta, zip: Uint8Array): Promise<SavedModelMeta> {
  try {
    const tx = (await open()).transaction(['models', 'zips'], 'readwrite');
    const stored = tx
      .objectStore('models')
      .add({ ...meta, bytes: zip.byteLength })
      .then(async (id) => {
        await tx.objectStore('zips').put(zip, id);
        return id;
      });
    // Both awaited together: a quota refusal may surface at either, and neither is left unhandled.
    const [id] = await Promise.all([stored, tx.done]);
    return { ...meta, id, bytes: zip.byteLength };
  } catch (thrown) {
    const estimate = (await navigator.storage?.estimate?.().catch(() => null)) ?? null;
    throw new Error(storageRefusal(thrown, zip.byteLength, estimate));
  }
}

/** The zip of a saved model. */
export async function savedZip(id: number): Promise<Uint8Array> {
  const zip = await (await open()).get('zips', id);
  if (!zip) throw new Error('This saved model is no longer in the browser’s storage.');
  return zip;
}

export async function deleteSavedModel(id: number): Promise<void> {
  const tx = (await open()).transaction(['models', 'zips'], 'readwrite');
  await Promise.all([tx.objectStore('models').delete(id), tx.objectStore('zips').delete(id), tx.done]);
}
