// Collects the files of a dropped or chosen folder, with their paths relative to what was dropped.
// Both ways stay responsive on 20,000 files: the work is cut into chunks that give the page back
// between them, and no file's size is read here (for a chosen folder that is a synchronous file-system
// call per file, seconds in all).

/** A file with the path the user sees, '/'-separated. */
export interface PickedFile {
  path: string;
  file: File;
}

/** What was picked: its files, and the folders seen on the way (a drop shows empty ones too). */
export interface Picked {
  files: PickedFile[];
  /** Folder paths, '/'-separated; empty for a chosen folder, whose list holds files only. */
  folders: string[];
}

/** Files handled between two yields to the page: well under a 50 ms task on a slow machine. */
const CHUNK = 1000;

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

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/**
 * Walks one entry. The files of each batch are asked for together: every `file()` is a round trip to
 * the browser, and one at a time they add up to tens of seconds on a big folder.
 */
async function walk(entry: FileSystemEntry, prefix: string, out: Picked): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    out.files.push({ path, file: await fileOf(entry as FileSystemFileEntry) });
    return;
  }
  if (!entry.isDirectory) return;
  out.folders.push(path);
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns at most ~100 entries per call; keep reading until it returns none.
  for (;;) {
    const batch = await readEntries(reader);
    if (batch.length === 0) break;
    const files = batch.filter((e) => e.isFile) as FileSystemFileEntry[];
    const got = await Promise.all(files.map(fileOf));
    got.forEach((file, i) => out.files.push({ path: `${path}/${files[i]!.name}`, file }));
    for (const child of batch) if (child.isDirectory) await walk(child, path, out);
  }
}

/** From a drop: folders are walked to any depth; loose files keep their own name as path. */
export async function filesFromDrop(data: DataTransfer): Promise<Picked> {
  const entries = Array.from(data.items)
    .map((item) => item.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => e != null);
  if (entries.length === 0)
    return { files: Array.from(data.files, (file) => ({ path: file.name, file })), folders: [] };
  const out: Picked = { files: [], folders: [] };
  for (const entry of entries) await walk(entry, '', out);
  return out;
}
