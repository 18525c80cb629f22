// What the client posts to the engine about the data set: the split files for a run, and for a preview
// only the few images it shows (posting every File of a large folder to draw eight was a long task).
import type { DatasetPayload } from '../core/run/protocol';
import { createRng } from '../core/data/rng';
import { isTrainable } from '../core/data/scan';
import { selectSplit } from '../store/selectors';
import type { LabState } from '../store/types';

/** The scanned data set split for training, or null when there is none to train on. */
export function datasetPayload(s: LabState): DatasetPayload | null {
  const { dataset } = s;
  // Not before the decode check has named the broken files.
  if (dataset.status !== 'ready') return null;
  if (!dataset.scan || !isTrainable(dataset.scan)) return null;
  const split = selectSplit(s);
  if (!split) return null;
  const toSource = (i: { path: string; label: number; fileIndex: number }) => ({
    path: i.path,
    label: i.label,
    source: dataset.sources[i.fileIndex]!,
  });
  return {
    classes: dataset.scan.classes.map((c) => c.name),
    train: split.train.map(toSource),
    validation: split.validation.map(toSource),
  };
}

/**
 * The `count` training images a preview shows, drawn with `seed`: the engine previews the first `count`
 * training items, so these are all it needs (the same images as shuffling the whole list and posting it).
 */
export function previewPayload(payload: DatasetPayload, seed: number, count: number): DatasetPayload {
  return { ...payload, train: createRng(seed).shuffle(payload.train).slice(0, count), validation: [] };
}
