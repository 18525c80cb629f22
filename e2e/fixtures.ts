/**
 * On-disk fixtures for the Playwright e2e tests (runs in Node, not in the browser).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { drawShapeImage, encodeJpeg, encodePng, SHAPE_KINDS, type ShapeKind } from '../scripts/shapes';

export const FIXTURE_FOLDER_NAME = 'shapes-fixture';

export interface LabelledFolderOptions {
  /** Class folder names; default ['circles', 'squares', 'triangles']. */
  classes?: string[];
  /** Valid images per class; default 6. */
  perClass?: number;
  /** Image side in pixels; default 32. */
  size?: number;
  /** Add notes.txt (first class) and broken.jpg (second class, or first if only one); default true. */
  extras?: boolean;
  /** Put the last half of each class's images in a `more/` sub-folder; default false. */
  nested?: boolean;
}

export interface BadFixtureFile {
  /** As the browser's webkitRelativePath shows it, e.g. 'shapes-fixture/circles/notes.txt'. */
  path: string;
  reason: 'not-an-image' | 'cannot-decode';
}

export interface LabelledFolder {
  /** The folder to hand to a directory input: root/shapes-fixture. */
  dir: string;
  classes: string[];
  perClass: number;
  badFiles: BadFixtureFile[];
}

/** A class name that mentions a shape gets that shape; any other name gets one by its position. */
function kindFor(className: string, index: number): ShapeKind {
  const lower = className.toLowerCase();
  const named = SHAPE_KINDS.find((kind) => lower.includes(kind));
  return named ?? SHAPE_KINDS[index % SHAPE_KINDS.length] ?? 'circle';
}

/** Deterministic bytes that no image decoder accepts: no image signature, just text and noise. */
function brokenJpegBytes(): Buffer {
  const header = Buffer.from('this is not a JPEG, just a truncated blob of junk\n', 'ascii');
  const junk = Buffer.alloc(512);
  let state = 0x1234567;
  for (let i = 0; i < junk.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    junk[i] = state >>> 24;
  }
  return Buffer.concat([header, junk]);
}

/**
 * Creates (fresh) root/shapes-fixture/<class>/… with `perClass` images per class, alternating PNG and
 * JPEG, plus (when `extras`) a text file and an undecodable .jpg. Output is deterministic.
 */
export function makeLabelledFolder(root: string, opts: LabelledFolderOptions = {}): LabelledFolder {
  const classes = opts.classes ?? ['circles', 'squares', 'triangles'];
  const perClass = opts.perClass ?? 6;
  const size = opts.size ?? 32;
  const extras = opts.extras ?? true;
  const nested = opts.nested ?? false;
  if (classes.length === 0) throw new Error('makeLabelledFolder: at least one class is required');
  if (new Set(classes).size !== classes.length) throw new Error('makeLabelledFolder: duplicate class names');
  if (!Number.isInteger(perClass) || perClass < 0) throw new Error('makeLabelledFolder: bad perClass');

  const dir = join(root, FIXTURE_FOLDER_NAME);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });

  const nestedFrom = nested ? Math.ceil(perClass / 2) : perClass;
  classes.forEach((className, classIndex) => {
    const kind = kindFor(className, classIndex);
    const classDir = join(dir, className);
    mkdirSync(classDir, { recursive: true });
    if (nestedFrom < perClass) mkdirSync(join(classDir, 'more'), { recursive: true });
    for (let i = 0; i < perClass; i++) {
      const img = drawShapeImage(kind, size, 50_000 + classIndex * 1_000 + i);
      const asPng = i % 2 === 0;
      const file = `${className}_${String(i).padStart(2, '0')}.${asPng ? 'png' : 'jpg'}`;
      const target = i >= nestedFrom ? join(classDir, 'more', file) : join(classDir, file);
      writeFileSync(target, asPng ? encodePng(img) : encodeJpeg(img));
    }
  });

  const badFiles: BadFixtureFile[] = [];
  if (extras) {
    const first = classes[0] ?? '';
    const second = classes[1] ?? first;
    writeFileSync(
      join(dir, first, 'notes.txt'),
      'Labelling notes for the e2e fixture.\nThis is plain text, not an image, and should be skipped.\n',
    );
    writeFileSync(join(dir, second, 'broken.jpg'), brokenJpegBytes());
    badFiles.push(
      { path: `${FIXTURE_FOLDER_NAME}/${first}/notes.txt`, reason: 'not-an-image' },
      { path: `${FIXTURE_FOLDER_NAME}/${second}/broken.jpg`, reason: 'cannot-decode' },
    );
  }

  return { dir, classes: [...classes], perClass, badFiles };
}

/** One PNG chunk: length, type, data, CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The PNG signature and an IHDR for an 8-bit RGB image of this size. */
function pngStart(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
  ]);
}

/**
 * Writes a real, decodable RGB PNG of width × height (e.g. 10000 × 10000, a photo far larger than the
 * training size): a horizontal gradient with a darker band every 500 rows, so it compresses to a few
 * hundred kB but is not one flat colour. Deterministic.
 */
export function writeHugePng(path: string, width: number, height: number): void {
  const stride = 1 + width * 3;
  const light = Buffer.alloc(stride);
  for (let x = 0; x < width; x++) light.set([(x * 255) / width, 128, 255 - (x * 255) / width], 1 + x * 3);
  const dark = Buffer.from(light.map((v, i) => (i === 0 ? 0 : v >> 1)));
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) (Math.floor(y / 500) % 2 === 0 ? light : dark).copy(raw, y * stride);
  const idat = deflateSync(raw, { level: 1 });
  writeFileSync(
    path,
    Buffer.concat([pngStart(width, height), pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]),
  );
}

/**
 * Writes a PNG that declares width × height but holds no pixels: enough for the lab to read the size
 * from the header and refuse it before decoding (what a photo beyond its decoding limit gets).
 */
export function writeOversizedPngHeader(path: string, width: number, height: number): void {
  writeFileSync(path, Buffer.concat([pngStart(width, height), pngChunk('IEND', Buffer.alloc(0))]));
}

export interface JunkFixture {
  /** System files written, all of which the lab should ignore. */
  ignored: number;
  /** A class folder that holds only a .DS_Store. */
  emptyClass: string;
}

/**
 * Adds what a Mac, Windows and a NAS leave in a folder to a labelled folder: __MACOSX/ with
 * resource forks, .DS_Store, a hidden (valid) .hidden.png, Thumbs.db, desktop.ini, @eaDir/, and a class
 * folder holding only a .DS_Store.
 */
export function addSystemFiles(folder: LabelledFolder): JunkFixture {
  const emptyClass = 'empty-class';
  const first = folder.classes[0] ?? '';
  const png = encodePng(drawShapeImage('circle', 16, 7));
  const files: [string, Buffer | string][] = [
    [join('__MACOSX', first, `._${first}_00.png`), 'resource fork'],
    [join('__MACOSX', '._shapes-fixture'), 'resource fork'],
    ['.DS_Store', 'Bud1'],
    [join(first, '.DS_Store'), 'Bud1'],
    [join(first, '.hidden.png'), png],
    [join(first, 'Thumbs.db'), 'thumbs'],
    [join(first, 'desktop.ini'), '[.ShellClassInfo]'],
    [join(first, '@eaDir', `${first}_00.png@SynoEXIF`), 'exif'],
    [join(emptyClass, '.DS_Store'), 'Bud1'],
  ];
  for (const [path, bytes] of files) {
    mkdirSync(join(folder.dir, path, '..'), { recursive: true });
    writeFileSync(join(folder.dir, path), bytes);
  }
  return { ignored: files.length, emptyClass };
}

export interface ManifestFolder {
  /** The folder to hand to a directory input: root/manifest-fixture. */
  dir: string;
  /** Usable images per label. */
  counts: Record<string, number>;
  /** The manifest's bad rows as the lab should name them, row number → what it is. */
  badRows: Record<number, string>;
}

/**
 * root/manifest-fixture/labels.csv and images/, as a Keras user's `df.to_csv('labels.csv', index=False)`
 * writes it on Windows (CRLF, quotes where a field holds a comma): `perLabel` images each of circles
 * and squares, then a row whose file is missing, one with an empty label, and one repeating a path.
 */
export function makeManifestFolder(root: string, perLabel = 6): ManifestFolder {
  const dir = join(root, 'manifest-fixture');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'images'), { recursive: true });
  const rows: string[] = ['path,label'];
  (['circle', 'square'] as const).forEach((kind, k) => {
    for (let i = 0; i < perLabel; i++) {
      const name = i === 0 ? `${kind}, first.png` : `${kind}_${i}.png`;
      writeFileSync(join(dir, 'images', name), encodePng(drawShapeImage(kind, 32, 60_000 + k * 100 + i)));
      rows.push(name.includes(',') ? `"images/${name}",${kind}s` : `images/${name},${kind}s`);
    }
  });
  const first = rows.length + 1;
  rows.push('images/missing.png,circles', 'images/circle_1.png,', 'images/square_1.png,squares');
  writeFileSync(join(dir, 'labels.csv'), `${rows.join('\r\n')}\r\n`);
  return {
    dir,
    counts: { circles: perLabel, squares: perLabel },
    badRows: {
      [first]: 'is not in the dropped folder',
      [first + 1]: 'has an empty label',
      [first + 2]: 'is listed again',
    },
  };
}
