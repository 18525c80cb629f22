// A CSV manifest as an alternative to class folders: a .csv at the top of the dropped folder with a
// path column and a label column, as a pandas DataFrame's to_csv(index=False) writes it. Paths are
// relative to the dropped folder. Bad rows are named by their row number; the rest loads.
import {
  assemble,
  isSystemFile,
  rejectReason,
  type ClassFiles,
  type FoundFile,
  type ScanResult,
  type SkippedFile,
} from './scan';

/** Header names accepted for each column (compared trimmed, in lower case). */
const PATH_COLUMNS = ['path', 'filename', 'file', 'filepath', 'file_path', 'image', 'image_path'];
const LABEL_COLUMNS = ['label', 'class', 'category'];

/** One record of a CSV file and the row a spreadsheet shows it on (the header is row 1). */
export interface CsvRecord {
  row: number;
  fields: string[];
}

/**
 * RFC 4180 records: fields separated by commas, optionally quoted ("" inside quotes is one quote, and
 * a quoted field may hold commas and line breaks), records ended by CRLF or LF. A UTF-8 byte-order mark
 * (pandas' encoding='utf-8-sig') is dropped. Blank lines are not records.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let row = 0;
  const end = () => {
    fields.push(field);
    field = '';
    if (fields.length > 1 || fields[0] !== '') records.push({ row: ++row, fields });
    fields = [];
  };
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (src[i + 1] === '"') field += src[i++];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n') end();
    // A CR outside quotes belongs to a CRLF line end.
    else if (c !== '\r') field += c;
  }
  if (field !== '' || fields.length > 0) end();
  return records;
}

/** A parsed manifest: the column positions and its data records. */
export interface Manifest {
  pathColumn: number;
  labelColumn: number;
  records: CsvRecord[];
}

/** The manifest in a CSV text, or null when its header names no path and label column. */
export function parseManifest(text: string): Manifest | null {
  const [header, ...records] = parseCsv(text);
  if (!header) return null;
  const names = header.fields.map((h) => h.trim().toLowerCase());
  const pathColumn = names.findIndex((n) => PATH_COLUMNS.includes(n));
  const labelColumn = names.findIndex((n) => LABEL_COLUMNS.includes(n));
  return pathColumn < 0 || labelColumn < 0 ? null : { pathColumn, labelColumn, records };
}

/** The dropped folder every path starts with ('' when loose files were dropped). */
function rootOf(files: readonly FoundFile[]): string {
  const first = files[0]?.path.split('/')[0] ?? '';
  const shared = files.every((f) => f.path.startsWith(`${first}/`));
  return shared ? first : '';
}

/** Indices of the .csv files at the top of the dropped folder, by name: the possible manifests. */
export function manifestCandidates(files: readonly FoundFile[]): number[] {
  const root = rootOf(files);
  const depth = root ? 2 : 1;
  return files
    .map((f, i) => ({ f, i }))
    .filter(
      ({ f }) =>
        f.path.toLowerCase().endsWith('.csv') && f.path.split('/').length === depth && !isSystemFile(f.path),
    )
    .sort((a, b) => a.f.path.localeCompare(b.f.path))
    .map(({ i }) => i);
}

/** A manifest's path cell as a path below the dropped folder: '/'-separated, no leading './'. */
function normalise(cell: string): string {
  return cell
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '');
}

/**
 * Classes and items from a manifest. Each file of the folder that no row names is skipped (system
 * files are ignored as in class folders); each bad row is skipped as '<manifest> row N' with its reason.
 */
export function scanManifest(
  files: readonly FoundFile[],
  manifestIndex: number,
  manifest: Manifest,
): ScanResult {
  const name = files[manifestIndex]!.path;
  const root = rootOf(files);
  const prefix = root ? `${root}/` : '';
  const index = new Map(files.map((f, i) => [f.path, i]));
  const byClass: ClassFiles = new Map();
  const seen = new Map<string, number>();
  const skipped: SkippedFile[] = [];
  const firstRow = new Map<number, number>();
  const bad = (row: number, reason: string) => skipped.push({ path: `${name} row ${row}`, reason });
  for (const { row, fields } of manifest.records) {
    const rel = normalise(fields[manifest.pathColumn] ?? '');
    const label = (fields[manifest.labelColumn] ?? '').trim();
    const fileIndex = index.get(prefix + rel) ?? index.get(rel);
    if (rel === '') bad(row, 'no path');
    else if (label === '') bad(row, `"${rel}" has an empty label`);
    else if (fileIndex === undefined)
      bad(row, `"${rel}" is not in the dropped folder (paths are relative to it, e.g. images/001.jpg)`);
    else if (firstRow.has(fileIndex))
      bad(row, `"${rel}" is listed again (first on row ${firstRow.get(fileIndex)})`);
    else {
      firstRow.set(fileIndex, row);
      const reason = rejectReason(files[fileIndex]!);
      seen.set(label, (seen.get(label) ?? 0) + 1);
      if (reason) bad(row, `"${rel}": ${reason}`);
      else {
        const list = byClass.get(label) ?? [];
        list.push({ path: rel, fileIndex });
        byClass.set(label, list);
      }
    }
  }
  let ignored = 0;
  files.forEach((f, i) => {
    if (isSystemFile(f.path)) ignored++;
    else if (i !== manifestIndex && !firstRow.has(i))
      skipped.push({ path: f.path, reason: `not listed in ${name}` });
  });
  return assemble({ byClass, seen, skipped, ignored, manifest: name });
}
