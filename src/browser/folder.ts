import { append } from '../core/extent';
// Collects the files of a dropped or chosen folder, with their paths relative to what was dropped.
// A folder is listed by its names alone: a File object costs the page a round trip to the browser
// (0.25–0.7 ms each on a loaded 2-core machine, 5–14 s for 20,000), so the classes are shown from the
// names and the Files are opened afterwards, a few at a time (openFiles), with the page given back
// between them. The one way the page cannot spread is <input webkitdirectory>: the browser builds its
// whole FileList in the task that delivers the change event (about 7 s for 20,000 files here). The
// directory picker and a drop avoid it where the browser has them.

/** Opens one listed file (a round trip to the browser). */
export type OpenFile = () => Promise<File>;

/** A file with the path the user sees, '/'-separated: a File already, or a way to open it. */
export interface PickedFile {
  path: string;
  file: File | OpenFile;
}

/** What was picked: its files, and the folders seen on the way (a drop shows empty ones too). */
export interface Picked {
  files: PickedFile[];
  /** Folder paths, '/'-separated; empty for a chosen folder's FileList, which holds files only. */
  folders: string[];
}

/** Names handled between two yields to the page: well under a 50 ms task on a slow machine. */
const CHUNK = 1000;
/** Files asked for at once: the browser's replies are handled in one task, about 0.5 ms each here. */
const OPEN_AT_ONCE = 32;

/** Lets the page render and handle input before the next chunk. */
export function yieldToPage(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** From <input type="file" webkitdirectory>: webkitRelativePath already starts at the chosen folder. */
export async function filesFromInput(list: FileList): Promise<Picked> {
  // Copied at once: the input is cleared right after its change event.
  const all = Array.from(list);
  const files: PickedFile[] = [];
  for (let i = 0; i < all.length; i += CHUNK) {
    if (i > 0) await yieldToPage();
    for (const file of all.slice(i, i + CHUNK))
      files.push({ path: file.webkitRelativePath || file.name, file });
  }
  return { files, folders: [] };
}

/** The parts of the File System Access API used here (Chromium; not yet in TypeScript's DOM types). */
export interface DirectoryHandle {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<DirectoryHandle | FileHandle>;
}
interface FileHandle {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}
type PickerWindow = { showDirectoryPicker?: (options?: { id?: string }) => Promise<DirectoryHandle> };

/** Asks the user for a folder with the directory picker; null when they dismissed it. */
export async function pickDirectory(): Promise<DirectoryHandle | null> {
  try {
    return await (window as PickerWindow).showDirectoryPicker!({ id: 'vram-lab-data' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return null;
    throw err;
  }
}

/** A picked folder's files by name: its listing is asynchronous, unlike the folder input's FileList. */
export function filesFromDirectory(root: DirectoryHandle): Promise<Picked> {
  return filesFromHandles([root]);
}

/** Walks directory handles by name; each file is opened later (openFiles). */
async function filesFromHandles(roots: readonly DirectoryHandle[]): Promise<Picked> {
  const out: Picked = { files: [], folders: [] };
  let seen = 0;
  const walk = async (handle: DirectoryHandle | FileHandle, prefix: string): Promise<void> => {
    const path = prefix ? `${prefix}/${handle.name}` : handle.name;
    // The iterator's replies come in one task while more keep arriving: give the page back now and then.
    if (++seen % 200 === 0) await yieldToPage();
    if (handle.kind === 'file') {
      out.files.push({ path, file: () => handle.getFile() });
      return;
    }
    out.folders.push(path);
    for await (const child of handle.values()) await walk(child, path);
  };
  for (const root of roots) await walk(root, '');
  return out;
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Walks one entry by name; readEntries returns about 100 names per call. */
async function walkEntry(entry: FileSystemEntry, prefix: string, out: Picked): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    out.files.push({ path, file: () => fileOf(entry as FileSystemFileEntry) });
    return;
  }
  if (!entry.isDirectory) return;
  out.folders.push(path);
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader))
    for (const child of batch) await walkEntry(child, path, out);
}

/**
 * From a drop: folders are walked to any depth; loose files keep their own name as path. Must be
 * called during the drop event: the items are gone once it returns. Entries, not File System Access
 * handles: 20,000 entries are named in about 0.6 s with no long task here, where handles take 3 s
 * with tasks of up to 200 ms (each handle is a connection to the browser, made as its reply arrives).
 */
export function filesFromDrop(data: DataTransfer): Promise<Picked> {
  const entries = Array.from(data.items)
    .map((item) => item.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => e != null);
  if (entries.length === 0)
    return Promise.resolve({
      files: Array.from(data.files, (file) => ({ path: file.name, file })),
      folders: [],
    });
  return (async () => {
    const out: Picked = { files: [], folders: [] };
    for (const entry of entries) await walkEntry(entry, '', out);
    return out;
  })();
}

/**
 * Opens the listed files, in order, OPEN_AT_ONCE at a time with the page given back between them;
 * `onProgress` gets the count opened so far. Stops with the signal's reason when aborted.
 */
export async function openFiles(
  opens: readonly OpenFile[],
  onProgress: (done: number) => void,
  signal: AbortSignal,
): Promise<File[]> {
  const out: File[] = [];
  for (let i = 0; i < opens.length; i += OPEN_AT_ONCE) {
    await yieldToPage();
    signal.throwIfAborted();
    append(out, await Promise.all(opens.slice(i, i + OPEN_AT_ONCE).map((open) => open())));
    onProgress(out.length);
  }
  return out;
}
