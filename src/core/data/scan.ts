// Turns the file list of a dropped folder into classes, usable images and skipped files with reasons.

/** A file as found in the dropped folder. */
export interface FoundFile {
  /** Path relative to what was dropped, '/'-separated, e.g. 'flowers/roses/a.jpg'. */ path: string;
  /**
   * Size in bytes, when known. A chosen folder's files are listed without it: reading a File's size
   * costs the page a synchronous file-system call, and the decode check finds empty files anyway.
   */
  size?: number;
}

/** A file the lab will not use, and why, in words a user can act on. */
export interface SkippedFile {
  /** Path as the user sees it (or 'labels.csv row 7' for a manifest row). */ path: string;
  /** Why it was skipped. */ reason: string;
}

/** An image the lab will try to use. */
export interface Candidate {
  /** Path relative to the class root, e.g. 'roses/2024/a.jpg'. */ path: string;
  /** Index into ScanResult.classes. */ label: number;
  /** Index into the FoundFile list it came from. */ fileIndex: number;
}

export interface ClassSummary {
  /** Folder name (or the manifest's label). */ name: string;
  /** Usable images. */ count: number;
}

/** A class folder that was left out because it holds no usable image. */
export interface LeftOutClass {
  /** Folder name. */ name: string;
  /** Files in it other than system files; 0 when the folder is empty. */ files: number;
}

export interface ScanResult {
  /** Classes with at least one usable image, sorted by name; index = label. */ classes: ClassSummary[];
  /** Images to use. */ items: Candidate[];
  /** Files left out, each with its reason. */ skipped: SkippedFile[];
  /** Problems that stop training (fewer than two classes) or that the user should know about. */
  problems: string[];
  /** System files (__MACOSX, .DS_Store, Thumbs.db, dot-files …) ignored without a word each. */
  ignored: number;
  /** Class folders left out for holding no usable image, each also named in problems. */
  leftOut: LeftOutClass[];
  /** The CSV manifest the labels came from (path as found), or null for class folders. */
  manifest: string | null;
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

export function extensionOf(path: string): string {
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

/** Names the operating systems and NAS boxes write beside a user's files (compared in lower case). */
const SYSTEM_NAMES = new Set([
  '__macosx',
  'thumbs.db',
  'ehthumbs.db',
  'desktop.ini',
  'icon\r',
  '@eadir',
  '#recycle',
  '$recycle.bin',
  'system volume information',
]);

/**
 * Whether a path is a system file or lies in a system folder: any part of it that starts with a dot
 * (.DS_Store, ._a.jpg, .AppleDouble, .git, a hidden .b.jpg) or is one of the names above. The first
 * part of a longer path is the folder the user dropped, which is theirs whatever its name.
 */
export function isSystemFile(path: string): boolean {
  // Most paths have no part that could match: one search decides them (20,000 paths in a few ms).
  if (!MAYBE_SYSTEM.test(path)) return false;
  const parts = path.split('/');
  return parts.some(
    (part, i) =>
      (i > 0 || parts.length === 1) && (part.startsWith('.') || SYSTEM_NAMES.has(part.toLowerCase())),
  );
}

/** Every path with a part that starts with a dot or with one of SYSTEM_NAMES (and a few more). */
const MAYBE_SYSTEM =
  /(^|\/)(\.|__macosx|thumbs\.db|ehthumbs\.db|desktop\.ini|icon\r|@eadir|#recycle|\$recycle\.bin|system volume)/i;

/**
 * The class folder of each path. When everything sits under one common top folder that itself holds
 * folders (the user dropped the data set's root), that folder is the root; otherwise each top folder
 * is a class (the user dropped class folders directly).
 */
function stripCommonRoot(paths: readonly string[]): string[] {
  const top = (p: string) => p.slice(0, p.indexOf('/') >>> 0);
  const first = paths[0] === undefined ? undefined : top(paths[0]);
  const shared = first !== undefined && paths.every((p) => top(p) === first);
  // Deep: some path has two slashes, i.e. a folder inside the common top folder.
  const deep = paths.some((p) => p.indexOf('/', p.indexOf('/') + 1) > 0);
  return shared && deep ? paths.map((p) => p.slice(first.length + 1)) : [...paths];
}

/** Candidate images grouped by class name, in the order found. */
export type ClassFiles = Map<string, { path: string; fileIndex: number }[]>;

function push(byClass: ClassFiles, name: string, entry: { path: string; fileIndex: number }): void {
  const list = byClass.get(name);
  if (list) list.push(entry);
  else byClass.set(name, [entry]);
}

/** Every folder that holds a kept file, at any depth above it. */
function foldersHolding(paths: readonly string[]): Set<string> {
  const holding = new Set<string>();
  for (const path of paths)
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1))
      holding.add(path.slice(0, slash));
  return holding;
}

/** The folders of ignored system files: a class folder holding only .DS_Store is an empty class. */
function parentsOfIgnored(files: readonly FoundFile[], kept: readonly number[]): string[] {
  const keptSet = new Set(kept);
  const parents = new Set<string>();
  files.forEach((f, i) => {
    if (!keptSet.has(i)) parents.add(f.path.slice(0, Math.max(0, f.path.lastIndexOf('/'))));
  });
  return [...parents].filter((d) => d !== '');
}

function foldersWithoutFiles(keptPaths: readonly string[], folders: readonly string[]): string[] {
  const holding = foldersHolding(keptPaths);
  return [...new Set(folders)].filter((d) => d !== '' && !isSystemFile(d) && !holding.has(d));
}

/**
 * Sorts the found files into classes and skipped files. System files are counted, not listed. `folders`
 * are the folder paths seen while walking a drop (a chosen folder lists none): a class folder among them
 * with no files is named as empty. Decoding is checked later, by the browser.
 */
export function scanFiles(files: readonly FoundFile[], folders: readonly string[] = []): ScanResult {
  const kept: number[] = [];
  files.forEach((file, i) => {
    if (!isSystemFile(file.path)) kept.push(i);
  });
  const keptPaths = kept.map((i) => files[i]!.path);
  const emptyFolders = foldersWithoutFiles(keptPaths, [...folders, ...parentsOfIgnored(files, kept)]);
  const relative = stripCommonRoot([...keptPaths, ...emptyFolders.map((d) => `${d}/`)]);
  const skipped: SkippedFile[] = [];
  const byClass: ClassFiles = new Map();
  const seen = new Map<string, number>();
  relative.forEach((rel, k) => {
    const slash = rel.indexOf('/');
    const file = files[kept[k] ?? -1];
    if (!file) {
      // One of the empty folders, appended after the files: a class with no files at all.
      if (slash > 0 && !seen.has(rel.slice(0, slash))) seen.set(rel.slice(0, slash), 0);
      return;
    }
    if (slash < 0) {
      skipped.push({
        path: file.path,
        reason: 'not inside a class folder (put it in a sub-folder named after its class)',
      });
      return;
    }
    const className = rel.slice(0, slash);
    seen.set(className, (seen.get(className) ?? 0) + 1);
    const reason = rejectReason(file);
    if (reason) skipped.push({ path: file.path, reason });
    else push(byClass, className, { path: rel, fileIndex: kept[k]! });
  });
  return assemble({ byClass, seen, skipped, ignored: files.length - kept.length, manifest: null });
}

/** Removes files that failed to decode, keeping the rest, and re-checks the class rules. */
export function withoutUndecodable(
  result: ScanResult,
  failures: ReadonlyMap<number, string>,
  files: readonly FoundFile[],
): ScanResult {
  const skipped = [...result.skipped];
  const byClass: ClassFiles = new Map();
  const seen = new Map<string, number>(result.leftOut.map((c) => [c.name, c.files]));
  for (const c of result.classes) seen.set(c.name, c.count);
  for (const item of result.items) {
    const reason = failures.get(item.fileIndex);
    if (reason) skipped.push({ path: files[item.fileIndex]!.path, reason });
    else push(byClass, result.classes[item.label]!.name, { path: item.path, fileIndex: item.fileIndex });
  }
  return assemble({ byClass, seen, skipped, ignored: result.ignored, manifest: result.manifest });
}

/**
 * Numbers the classes and states the problems. `seen` holds every class name met with its file count
 * (system files not counted); a seen class without candidates is left out and named.
 */
export function assemble(parts: {
  byClass: ClassFiles;
  seen: ReadonlyMap<string, number>;
  skipped: SkippedFile[];
  ignored: number;
  manifest: string | null;
}): ScanResult {
  const problems: string[] = [];
  // Numeric order for names like 2 and 10 (labels a DataFrame exported as numbers).
  const names = [...parts.seen.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const classes: ClassSummary[] = [];
  const items: Candidate[] = [];
  const leftOut: LeftOutClass[] = [];
  for (const name of names) {
    const list = parts.byClass.get(name) ?? [];
    if (list.length === 0) {
      const files = parts.seen.get(name) ?? 0;
      leftOut.push({ name, files });
      problems.push(
        files === 0
          ? `Class folder "${name}" is empty, so it is left out.`
          : `Class "${name}" has no usable images, so it is left out.`,
      );
      continue;
    }
    const label = classes.length;
    classes.push({ name, count: list.length });
    for (const entry of list) items.push({ ...entry, label });
  }
  if (classes.length < 2) problems.unshift(tooFewClasses(classes, parts.manifest));
  return {
    classes,
    items,
    skipped: parts.skipped,
    problems,
    ignored: parts.ignored,
    leftOut,
    manifest: parts.manifest,
  };
}

function tooFewClasses(classes: readonly ClassSummary[], manifest: string | null): string {
  const how = manifest ? `two labels in ${manifest}` : 'two classes, one sub-folder each';
  if (classes.length === 0)
    return manifest
      ? `No usable images found through ${manifest}.`
      : 'No usable images found. Drop a folder with one sub-folder of images per class, or with a CSV of path,label.';
  return `Only one class ("${classes[0]!.name}") has images; training needs at least ${how}.`;
}

/** Whether a scan can be trained on. */
export function isTrainable(result: ScanResult): boolean {
  return result.classes.length >= 2;
}
