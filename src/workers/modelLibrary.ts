/**
 * The page side of lab model zips (store/commands ModelLibrary): the download with the lab's notes, the
 * models saved in this browser, and a zip read back as the starting weights. The zip is read here, on the
 * page, so the settings it needs (architecture, input size, weights from a file) are applied before the
 * engine reads its model.json and shards exactly as it reads dropped files.
 */
import { catalogEntry } from '../core/model/models';
import type { SavedModelMeta, ZipLoaded } from '../core/run/protocol';
import { deleteSavedModel, savedModels, savedZip, saveModel } from '../browser/savedModels';
import { savedModelMeta } from '../browser/savedModelsMeta';
import { readModelZip, withLabNotes, type LabNotes, type ZipModel } from '../ml/weights/zipModel';
import { commands, type ModelLibrary, type SavedFile } from '../store/commands';
import { labStore, updateConfig } from '../store/store';

/** What the topology cannot carry: the name, the class names in the head's order, the last accuracy. */
function notesNow(name: string): LabNotes {
  const s = labStore.getState();
  const last = s.run.epochs[s.run.epochs.length - 1];
  return {
    name,
    savedAt: new Date().toISOString(),
    classes: s.dataset.scan?.classes.map((c) => c.name) ?? [],
    valAccuracy: last && Number.isFinite(last.valAccuracy) ? last.valAccuracy : null,
  };
}

/** Class names when the notes have one per output of the head; none otherwise. */
const classesOf = (zip: ZipModel): string[] =>
  zip.notes && zip.notes.classes.length === zip.info.numClasses ? zip.notes.classes : [];

/** 'EfficientNet-Tiny at 32×32, 3 classes (cat, dog, fox)'. */
function describeZip(zip: ZipModel): string {
  const { info } = zip;
  const classes = classesOf(zip);
  const names = classes.length > 0 ? ` (${classes.join(', ')})` : '';
  return `${catalogEntry(info.model).displayName} at ${info.height}×${info.width}, ${info.numClasses} classes${names}`;
}

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

async function downloadZip(name: string): Promise<SavedFile | null> {
  const file = await commands().exportModel('tfjs-layers');
  return file && { ...file, bytes: withLabNotes(file.bytes, notesNow(name), file.name) };
}

async function keepZip(bytes: Uint8Array, label: string): Promise<SavedModelMeta> {
  const meta = savedModelMeta(readModelZip(bytes, label), bytes.byteLength, new Date());
  const saved = await saveModel(meta, bytes);
  changed();
  return saved;
}

async function loadZip(bytes: Uint8Array, label: string): Promise<ZipLoaded> {
  const zip = readModelZip(bytes, label);
  const { model, height, width } = zip.info;
  updateConfig({ weights: 'file', model, height, width });
  // model.json is named after the zip, so the loaded line and every message name the zip.
  const files = zip.files.map(
    (f) => new File([f.bytes.slice()], f.name === 'model.json' ? `${label} › model.json` : f.name),
  );
  await commands().loadWeights(files);
  return { label, summary: describeZip(zip) };
}

export const modelLibrary: ModelLibrary = {
  downloadZip,
  async saveTrained(name) {
    const file = await downloadZip(name);
    return file && keepZip(file.bytes, file.name);
  },
  keepZip,
  list: savedModels,
  async remove(id) {
    await deleteSavedModel(id);
    changed();
  },
  loadZip,
  async loadSaved(id) {
    const entry = (await savedModels()).find((m) => m.id === id);
    return loadZip(await savedZip(id), `${entry?.name ?? 'saved model'}.zip`);
  },
  onChange(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
