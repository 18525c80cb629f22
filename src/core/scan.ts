// Turns the file list of a dropped folder into classes, usable images and skipped files with reasons.

/** A file as found in the dropped folder. */
export interface FoundFile {
  /** Path relative to what was dropped, '/'-separated, e.g. 'flowers/roses/a.jpg'. */ path: string;
  /** Size in bytes. */ size: number;
}

/** A file the lab will not use, and why, in words a user can act on. */
export interface SkippedFile {
  /** Path as the user sees it. */ path: string;
  /** Why it was skipped. */ reason: string;
}

/** An image the lab will try to use. */
export interface Candidate {
  /** Path relative to the class root, e.g. 'roses/2024/a.jpg'. */ path: string;
  /** Index into ScanResult.classes. */ label: number;
  /** Index into the FoundFile list it came from. */ fileIndex: number;
}

export interface ClassSummary {
  /** Folder name. */ name: string;
  /** Usable images. */ count: number;
}

export interface ScanResult {
  /** Classes with at least one usable image, sorted by name; index = label. */ classes: ClassSummary[];
  /** Images to use. */ items: Candidate[];
  /** Files left out, each with its reason. */ skipped: SkippedFile[];
  /** Problems that stop training (fewer than two classes) or that the user should know about. */
  problems: string[];
}

const DECODABLE = new Set(['jpg', 'jpeg', 'jfif', 'png', 'webp', 'gif', 'bmp', 'avif']);
const UNSUPPORTED_IMAGE: Record<string, string> = {
  tif: 'TIFF',
  tiff: 'TIFF',
  heic: 'HEIC',
  heif: 'HEIF',
  psd: 'Photoshop',
  svg: 'SVG (vector)',
  raw: 'camera RAW',
  cr2: 'camera RAW',
  nef: 'camera RAW',
  dng: 'camera RAW',
  jxl: 'JPEG XL',
};

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Why a file cannot be an image the browser decodes, or null when it may be one. */
export function rejectReason(file: FoundFile): string | null {
  const ext = extensionOf(file.path);
  const unsupported = UNSUPPORTED_IMAGE[ext];
  if (unsupported) return `unsupported image format (${unsupported}); convert it to JPEG or PNG`;
  if (!DECODABLE.has(ext)) return ext ? `not an image (.${ext})` : 'not an image (no file extension)';
  if (file.size === 0) return 'empty file (0 bytes)';
  return null;
}

/**
 * The class folder of each path. When everything sits under one common top folder that itself holds
 * folders (the user dropped the data set's root), that folder is the root; otherwise each top folder
 * is a class (the user dropped class folders directly).
 */
function stripCommonRoot(paths: readonly string[]): string[] {
  const first = paths[0]?.split('/')[0];
  const shared = first !== undefined && paths.every((p) => p.split('/')[0] === first);
  const deep = paths.some((p) => p.split('/').length >= 3);
  return shared && deep ? paths.map((p) => p.slice(first.length + 1)) : [...paths];
}

/** Sorts the found files into classes and skipped files. Decoding is checked later, by the browser. */
export function scanFiles(files: readonly FoundFile[]): ScanResult {
  const relative = stripCommonRoot(files.map((f) => f.path));
  const skipped: SkippedFile[] = [];
  const byClass = new Map<string, { path: string; fileIndex: number }[]>();
  const seenClasses = new Set<string>();
  files.forEach((file, fileIndex) => {
    const rel = relative[fileIndex]!;
    const slash = rel.indexOf('/');
    if (slash < 0) {
      skipped.push({
        path: file.path,
        reason: 'not inside a class folder (put it in a sub-folder named after its class)',
      });
      return;
    }
    const className = rel.slice(0, slash);
    seenClasses.add(className);
    const reason = rejectReason(file);
    if (reason) {
      skipped.push({ path: file.path, reason });
      return;
    }
    const list = byClass.get(className) ?? [];
    list.push({ path: rel, fileIndex });
    byClass.set(className, list);
  });
  return assemble(byClass, seenClasses, skipped);
}

/** Removes files that failed to decode, keeping the rest, and re-checks the class rules. */
export function withoutUndecodable(
  result: ScanResult,
  failures: ReadonlyMap<number, string>,
  files: readonly FoundFile[],
): ScanResult {
  const skipped = [...result.skipped];
  const byClass = new Map<string, { path: string; fileIndex: number }[]>();
  const seen = new Set(result.classes.map((c) => c.name));
  for (const item of result.items) {
    const reason = failures.get(item.fileIndex);
    if (reason) {
      skipped.push({ path: files[item.fileIndex]!.path, reason });
      continue;
    }
    const name = result.classes[item.label]!.name;
    const list = byClass.get(name) ?? [];
    list.push({ path: item.path, fileIndex: item.fileIndex });
    byClass.set(name, list);
  }
  return assemble(byClass, seen, skipped);
}

function assemble(
  byClass: Map<string, { path: string; fileIndex: number }[]>,
  seenClasses: Set<string>,
  skipped: SkippedFile[],
): ScanResult {
  const problems: string[] = [];
  const names = [...seenClasses].sort((a, b) => a.localeCompare(b));
  const classes: ClassSummary[] = [];
  const items: Candidate[] = [];
  for (const name of names) {
    const list = byClass.get(name) ?? [];
    if (list.length === 0) {
      problems.push(`Class "${name}" has no usable images, so it is left out.`);
      continue;
    }
    const label = classes.length;
    classes.push({ name, count: list.length });
    for (const entry of list) items.push({ ...entry, label });
  }
  if (classes.length < 2) {
    problems.unshift(
      classes.length === 0
        ? 'No usable images found. Drop a folder with one sub-folder of images per class.'
        : `Only one class ("${classes[0]!.name}") has images; training needs at least two classes, one sub-folder each.`,
    );
  }
  return { classes, items, skipped, problems };
}

/** Whether a scan can be trained on. */
export function isTrainable(result: ScanResult): boolean {
  return result.classes.length >= 2;
}
