// Loading a data set: list the files, sort them into classes (by folder, or by a CSV manifest), show
// the classes at once, open the files that were listed by name only, then decode each image once to
// name broken files. Loads are ordered: the newest
// request wins, and an older one still listing or checking is cancelled; the user can cancel too.
import type { ImageSource } from '../core/run/protocol';
import { manifestCandidates } from '../core/data/manifest';
import { withoutUndecodable, type FoundFile, type ScanResult } from '../core/data/scan';
import { readBlob } from '../browser/decode';
import { findUndecodable } from '../browser/decodeCheck';
import { openFiles, yieldToPage, type OpenFile, type Picked } from '../browser/folder';
import { scanOffPage } from '../browser/scanOffPage';
import { actions, appendLog } from '../store/actions';
import { errorMessage } from '../core/format';

/** A listed file with where its bytes are, or how to open it (a folder listed by name). */
export interface ListedFile {
  found: FoundFile;
  source: ImageSource | OpenFile;
}

/** The listed files; a drop also names the folders it walked, so empty class folders are seen. */
export type Listing = ListedFile[] & { folders?: readonly string[] };

export interface LoadedDataset {
  name: string;
  scan: ScanResult;
  sources: ImageSource[];
}

/** Progress reaches the store at most this often: each update re-renders the panel. */
const PROGRESS_EVERY_MS = 250;

export class DatasetLoader {
  private current: AbortController | null = null;

  /** Cancels the load in progress, if any; the data panel goes back to empty. */
  cancel(): void {
    if (!this.current) return;
    this.current.abort(new DOMException('Cancelled.', 'AbortError'));
    actions.datasetCancelled();
  }

  /**
   * Lists, scans and checks a data set; null when it was cancelled or a newer load replaced it before it
   * finished. The store shows only the newest load's progress and result.
   */
  async load(name: string, list: () => Promise<Listing>): Promise<LoadedDataset | null> {
    this.current?.abort(new DOMException('A newer data set replaced this one.', 'AbortError'));
    const controller = new AbortController();
    this.current = controller;
    const { signal } = controller;
    actions.datasetScanning(name);
    let folderName = name || 'dropped files';
    try {
      const entries = await list();
      if (signal.aborted) return notLoaded(folderName, signal);
      const found = entries.map((e) => e.found);
      folderName = name || found[0]?.path.split('/')[0] || folderName;
      const first = await classify(found, entries, entries.folders ?? [], signal);
      const lazy = entries.flatMap((e, i) => (typeof e.source === 'function' ? [i] : []));
      // Taking the classes from the worker and rendering them are two tasks, not one long one.
      await yieldToPage();
      if (signal.aborted) return notLoaded(folderName, signal);
      // Classes first: a folder listed by name shows them before its files are opened.
      actions.datasetListed({
        name: folderName,
        scan: first,
        sources: lazy.length ? [] : sourcesOf(entries),
      });
      const sources = lazy.length ? await this.open(folderName, entries, lazy, signal) : sourcesOf(entries);
      const failures = await this.check(folderName, first, found, sources, signal);
      if (signal.aborted) return notLoaded(folderName, signal);
      const loaded = { name: folderName, scan: withoutUndecodable(first, failures, found), sources };
      actions.datasetReady(loaded);
      return loaded;
    } catch (err) {
      if (signal.aborted) return notLoaded(folderName, signal);
      actions.datasetFailed(errorMessage(err));
      throw err;
    } finally {
      if (this.current === controller) this.current = null;
    }
  }

  /** Opens the files listed by name (at `lazy`), with progress; throws the signal's reason if aborted. */
  private async open(
    name: string,
    entries: Listing,
    lazy: readonly number[],
    signal: AbortSignal,
  ): Promise<ImageSource[]> {
    const progress = throttled(name, lazy.length, 'opening', signal);
    progress(0);
    const files = await openFiles(
      lazy.map((i) => entries[i]!.source as OpenFile),
      progress,
      signal,
    );
    const sources = entries.map((e) => e.source);
    lazy.forEach((index, k) => (sources[index] = { kind: 'file', file: files[k]! }));
    return sources as ImageSource[];
  }

  /** Decodes every candidate once, with progress at most every PROGRESS_EVERY_MS. */
  private async check(
    name: string,
    scan: ScanResult,
    found: readonly FoundFile[],
    sources: readonly ImageSource[],
    signal: AbortSignal,
  ): Promise<Map<number, string>> {
    const progress = throttled(name, scan.items.length, 'checking', signal);
    progress(0);
    return findUndecodable(
      scan.items.map((c) => ({
        fileIndex: c.fileIndex,
        path: found[c.fileIndex]!.path,
        source: sources[c.fileIndex]!,
      })),
      progress,
      signal,
    );
  }
}

/** A progress callback that reaches the store at most every PROGRESS_EVERY_MS, and always at the end. */
function throttled(name: string, total: number, phase: 'opening' | 'checking', signal: AbortSignal) {
  const startedAt = performance.now();
  let shownAt = -Infinity;
  return (done: number) => {
    const now = performance.now();
    if (signal.aborted || (done < total && now - shownAt < PROGRESS_EVERY_MS)) return;
    shownAt = now;
    actions.datasetProgress(name, { done, total, startedAt, elapsedMs: now - startedAt, phase });
  };
}

function sourcesOf(entries: Listing): ImageSource[] {
  return entries.map((e) => e.source as ImageSource);
}

/**
 * Classes from a CSV manifest at the top of the folder when one names path and label columns, else
 * from the class folders; sorted in a worker (browser/scanOffPage). Throws the signal's reason if aborted.
 */
async function classify(
  found: readonly FoundFile[],
  entries: readonly ListedFile[],
  folders: readonly string[],
  signal: AbortSignal,
): Promise<ScanResult> {
  const manifests: { index: number; text: string }[] = [];
  for (const index of manifestCandidates(found)) {
    const path = found[index]!.path;
    const source = entries[index]!.source;
    const blob = typeof source === 'function' ? await source() : await readBlob(source, path);
    manifests.push({ index, text: await blob.text() });
  }
  return scanOffPage({ found, folders, manifests }, signal);
}

function notLoaded(name: string, signal: AbortSignal): null {
  const cancelled = signal.reason instanceof DOMException && signal.reason.message === 'Cancelled.';
  appendLog(
    'info',
    cancelled
      ? `"${name}" was not loaded: cancelled.`
      : `"${name}" was not loaded: a newer data set replaced it before its check finished.`,
  );
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

/** Picked files as listed files, in chunks; no file's size is read (see browser/folder). */
export async function fromPicked(picked: Picked | Promise<Picked>): Promise<Listing> {
  const { files, folders } = await picked;
  const listed: ListedFile[] = [];
  for (let i = 0; i < files.length; i += 2000) {
    if (i > 0) await yieldToPage();
    for (const p of files.slice(i, i + 2000))
      listed.push({
        found: { path: p.path },
        source: p.file instanceof File ? { kind: 'file', file: p.file } : p.file,
      });
  }
  return Object.assign(listed, { folders });
}
