// A tfjs Layers model packed in one zip (the lab's download, or model.save's files zipped): unpacked,
// checked as far as the bytes alone allow, and described as lab settings. No tfjs here, so the page
// reads a zip before the worker builds anything.
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { z } from 'zod';
// Sets zod jitless (the page's CSP forbids eval) before this module's schema parses anything.
import '../../core/schemaFields';
import { WeightLoadError } from './errors';
import { errorMessage } from '../../core/format';
import { labModelInfo, type LabModelInfo } from './labModelInfo';

/** The lab's own notes inside its zip: what the topology cannot say (class names, accuracy, a name). */
export const LAB_FILE = 'lab.json';

const labNotesSchema = z.object({
  name: z.string(),
  savedAt: z.string(),
  classes: z.array(z.string()),
  valAccuracy: z.number().min(0).max(1).nullable(),
});

export type LabNotes = z.infer<typeof labNotesSchema>;

/** One file of the unpacked model, named as model.json's manifest names it. */
export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/** A lab model read from a zip: model.json and its shards (nothing else), what they describe, the notes. */
export interface ZipModel {
  /** The zip's name, used in every message. */ label: string;
  /** model.json first, then the shards in manifest order. */ files: ZipEntry[];
  info: LabModelInfo;
  /** lab.json when the lab made the zip and it is readable; null otherwise. */ notes: LabNotes | null;
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

function unzip(bytes: Uint8Array, label: string): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes);
  } catch (thrown) {
    throw new WeightLoadError('corrupt', label, `${label} is not a readable zip: ${errorMessage(thrown)}.`);
  }
}

/** The manifest's shard paths, in order; model.json's full check (sizes, dtypes) is readTfjsFiles'. */
function shardPaths(json: unknown, label: string): string[] {
  const manifest = (json as { weightsManifest?: unknown }).weightsManifest;
  const paths = Array.isArray(manifest)
    ? manifest.flatMap((g: { paths?: unknown }) => (Array.isArray(g?.paths) ? g.paths : [null]))
    : [];
  if (paths.length === 0 || !paths.every((p): p is string => typeof p === 'string'))
    throw new WeightLoadError('bad-model-json', label, `${label}: model.json lists no weight files.`);
  return paths;
}

function parseJson(bytes: Uint8Array, what: string, label: string): unknown {
  try {
    return JSON.parse(strFromU8(bytes));
  } catch (thrown) {
    throw new WeightLoadError(
      'bad-model-json',
      label,
      `${label}: ${what} is not valid JSON: ${errorMessage(thrown)}`,
    );
  }
}

function readNotes(entries: Record<string, Uint8Array>): LabNotes | null {
  const bytes = Object.entries(entries).find(([path]) => baseName(path) === LAB_FILE)?.[1];
  if (!bytes) return null;
  try {
    const parsed = labNotesSchema.safeParse(JSON.parse(strFromU8(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    // Notes are optional: a damaged lab.json leaves the model itself loadable, without names.
    return null;
  }
}

/**
 * Unpacks a zipped tfjs Layers model (model.json anywhere in the zip, its shards beside it) and reads which
 * lab classifier it is. Throws a WeightLoadError naming the zip and the problem: not a zip, no or several
 * model.json, a shard missing, or a model the lab does not build.
 */
export function readModelZip(bytes: Uint8Array, label: string): ZipModel {
  const entries = unzip(bytes, label);
  const names = Object.keys(entries).filter((path) => !path.endsWith('/'));
  const jsons = names.filter((path) => baseName(path) === 'model.json');
  if (jsons.length !== 1) {
    const found = names.length > 0 ? `it holds ${names.join(', ')}` : 'it is empty';
    const why = jsons.length === 0 ? 'no model.json' : `${jsons.length} model.json files`;
    throw new WeightLoadError('bad-model-json', label, `${label} holds ${why} (${found}).`);
  }
  const json = parseJson(entries[jsons[0]!]!, 'model.json', label);
  const info = labModelInfo(json, label);
  const byName = new Map(names.map((path) => [baseName(path), entries[path]!]));
  const shards = shardPaths(json, label).map((path) => {
    const shard = byName.get(baseName(path));
    if (!shard) {
      const message = `${label}: model.json needs the weight file '${baseName(path)}', which the zip does not hold.`;
      throw new WeightLoadError('missing-shard', label, message);
    }
    return { name: baseName(path), bytes: shard };
  });
  return {
    label,
    files: [{ name: 'model.json', bytes: entries[jsons[0]!]! }, ...shards],
    info,
    notes: readNotes(entries),
  };
}

/** The zip with the lab's notes added (or replaced); weight shards stay stored uncompressed. */
export function withLabNotes(zip: Uint8Array, notes: LabNotes, label: string): Uint8Array {
  const entries = unzip(zip, label);
  const kept = Object.entries(entries).filter(([path]) => baseName(path) !== LAB_FILE);
  const packed = Object.fromEntries(
    kept.map(([path, data]) => [path, [data, { level: path.endsWith('.bin') ? 0 : 6 }] as const]),
  );
  return zipSync({ ...packed, [LAB_FILE]: strToU8(JSON.stringify(notes, null, 2)) });
}
