// Loading a data set: list the files, scan them into classes, decode each once to name broken files.
// Loads are ordered: the newest request wins, and an older one still scanning is cancelled.
import type { ImageSource } from '../core/protocol';
import { scanFiles, withoutUndecodable, type FoundFile, type ScanResult } from '../core/scan';
import { readBlob } from '../browser/decode';
import { findUndecodable } from '../browser/decodeCheck';
import type { PickedFile } from '../browser/folder';
import { actions, appendLog } from '../store/actions';

/** A listed file with where its bytes are. */
export interface ListedFile {
  found: FoundFile;
  source: ImageSource;
}

export interface LoadedDataset {
  name: string;
  scan: ScanResult;
  sources: ImageSource[];
}

export class DatasetLoader {
  private current: AbortController | null = null;

  /**
   * Lists, scans and checks a data set; null when a newer load replaced it before it finished. The
   * store shows only the newest load's progress and result.
   */
  async load(name: string, list: () => Promise<ListedFile[]>): Promise<LoadedDataset | null> {
    this.current?.abort(new DOMException('A newer data set replaced this one.', 'AbortError'));
    const controller = new AbortController();
    this.current = controller;
    const { signal } = controller;
    actions.datasetScanning(name);
    let folderName = name || 'dropped files';
    try {
      const entries = await list();
      if (signal.aborted) return replaced(folderName);
      const found = entries.map((e) => e.found);
      const sources = entries.map((e) => e.source);
      folderName = name || found[0]?.path.split('/')[0] || folderName;
      const first = scanFiles(found);
      const startedAt = performance.now();
      const total = first.items.length;
      actions.datasetProgress(folderName, { done: 0, total, startedAt, elapsedMs: 0 });
      const failures = await findUndecodable(
        first.items.map((c) => ({
          fileIndex: c.fileIndex,
          path: found[c.fileIndex]!.path,
          read: () => readBlob(sources[c.fileIndex]!, found[c.fileIndex]!.path),
        })),
        (done) =>
          signal.aborted ||
          actions.datasetProgress(folderName, {
            done,
            total,
            startedAt,
            elapsedMs: performance.now() - startedAt,
          }),
        signal,
      );
      if (signal.aborted) return replaced(folderName);
      const loaded = { name: folderName, scan: withoutUndecodable(first, failures, found), sources };
      actions.datasetReady(loaded);
      return loaded;
    } catch (err) {
      if (signal.aborted) return replaced(folderName);
      actions.datasetFailed(err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      if (this.current === controller) this.current = null;
    }
  }
}

function replaced(name: string): null {
  appendLog('info', `"${name}" was not loaded: a newer data set replaced it before its check finished.`);
  return null;
}

/** The built-in sample's files, from the manifest the build ships. */
export async function sampleFiles(): Promise<ListedFile[]> {
  const base = new URL('sample/', document.baseURI);
  const response = await fetch(new URL('manifest.json', base));
  if (!response.ok)
    throw new Error(`The built-in sample is missing (HTTP ${response.status} for sample/manifest.json).`);
  const manifest = (await response.json()) as { files: FoundFile[] };
  return manifest.files.map((f) => ({ found: f, source: { kind: 'url', url: new URL(f.path, base).href } }));
}

export function fromPicked(picked: PickedFile[]): ListedFile[] {
  return picked.map((p) => ({
    found: { path: p.path, size: p.file.size },
    source: { kind: 'file', file: p.file },
  }));
}
