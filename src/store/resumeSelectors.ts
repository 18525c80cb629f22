import { datasetIdentity, type DatasetIdentity } from '../core/resume';
import type { LabState } from './types';

/** The identity of the loaded data set (core/resume), or null when none is listed. */
export function loadedIdentity(s: Pick<LabState, 'dataset'>): DatasetIdentity | null {
  const { scan, sources, name } = s.dataset;
  if (!scan) return null;
  const items = scan.items.map(({ path, label, fileIndex }) => {
    const source = sources[fileIndex];
    if (source?.kind === 'url') return { path, label, url: source.url };
    const file = source?.file;
    const lastModified = file && 'lastModified' in file ? (file as File).lastModified : undefined;
    return { path, label, size: file?.size, lastModified };
  });
  return datasetIdentity(
    name,
    scan.classes.map((c) => c.name),
    items,
  );
}
