import {
  datasetIdentity,
  datasetIdentitySliced,
  type DatasetIdentity,
  type FingerprintItem,
} from '../core/run/resume';
import type { LabState } from './types';

/** The identity of the loaded data set (core/run/resume), or null when none is listed. */
export function loadedIdentity(s: Pick<LabState, 'dataset'>): DatasetIdentity | null {
  const listed = loadedItems(s);
  return listed && datasetIdentity(listed.name, listed.classes, listed.items);
}

/**
 * The same identity, hashed in slices with `pause()` between them: a run's start reads it, and for
 * 20,000 images hashing at once held the page for 60–110 ms as Train was pressed.
 */
export async function loadedIdentitySliced(
  s: Pick<LabState, 'dataset'>,
  pause: () => Promise<void>,
): Promise<DatasetIdentity | null> {
  const listed = loadedItems(s);
  return listed && datasetIdentitySliced(listed.name, listed.classes, listed.items, pause);
}

function loadedItems(
  s: Pick<LabState, 'dataset'>,
): { name: string; classes: string[]; items: FingerprintItem[] } | null {
  const { scan, sources, name } = s.dataset;
  if (!scan) return null;
  const items = scan.items.map(({ path, label, fileIndex }) => {
    const source = sources[fileIndex];
    if (source?.kind === 'url') return { path, label, url: source.url };
    const file = source?.file;
    const lastModified = file && 'lastModified' in file ? (file as File).lastModified : undefined;
    return { path, label, size: file?.size, lastModified };
  });
  return { name, classes: scan.classes.map((c) => c.name), items };
}
