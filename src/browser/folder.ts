// Collects the files of a dropped or chosen folder, with their paths relative to what was dropped.

/** A file with the path the user sees, '/'-separated. */
export interface PickedFile {
  path: string;
  file: File;
}

/** From <input type="file" webkitdirectory>: webkitRelativePath already starts at the chosen folder. */
export function filesFromInput(list: FileList): PickedFile[] {
  return Array.from(list, (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    out.push({ path, file: await fileOf(entry as FileSystemFileEntry) });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns at most ~100 entries per call; keep reading until it returns none.
  for (;;) {
    const batch = await readEntries(reader);
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, path, out);
  }
}

/** From a drop: folders are walked to any depth; loose files keep their own name as path. */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(data.items)
    .map((item) => item.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => e != null);
  if (entries.length === 0) return Array.from(data.files, (file) => ({ path: file.name, file }));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, '', out);
  return out;
}
