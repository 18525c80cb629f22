import type { Dataset, Group } from 'h5wasm';
import { unzipSync, strFromU8 } from 'fflate';
import { WeightLoadError } from './errors';
import type { SourceLayer, SourceWeight } from './source';
import { errorMessage } from '../../core/format';

type H5wasm = typeof import('h5wasm').default;

/**
 * Keras 3 weight files (`model.save_weights('x.weights.h5')`, and the same file inside a `.keras`
 * archive) key each layer by a path made from its class (`layers/batch_normalization_3/vars`) and its
 * weights by position (`vars/0`, `vars/1`…); the layer's own name is the `name` attribute of its `vars`
 * group. Layers are matched by that name, weights by position (Keras 3 stores no weight names).
 */

/** Whether an HDF5 file's top level is Keras 3's `layers` / `vars` layout. */
export function isKeras3Layout(keys: readonly string[]): boolean {
  return keys.includes('layers') && keys.includes('vars');
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

/** Whether the bytes are a zip archive (a `.keras` file is one). */
export function isZip(bytes: Uint8Array): boolean {
  return ZIP_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** A `.keras` archive's weights file and the Keras version its metadata names. */
export interface KerasArchive {
  weights: Uint8Array;
  kerasVersion: string | null;
}

const ARCHIVE_WEIGHTS = 'model.weights.h5';

/** Unpacks a `.keras` archive (config.json, metadata.json, model.weights.h5) to its weights file. */
export function readKerasArchive(bytes: Uint8Array, label: string): KerasArchive {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => f.name === ARCHIVE_WEIGHTS || f.name === 'metadata.json' });
  } catch (thrown) {
    const why = errorMessage(thrown);
    throw new WeightLoadError(
      'bad-keras-archive',
      label,
      `${label}: the zip archive cannot be read (${why}).`,
    );
  }
  const weights = entries[ARCHIVE_WEIGHTS];
  if (weights === undefined) {
    throw new WeightLoadError(
      'bad-keras-archive',
      label,
      `${label} is a zip archive without '${ARCHIVE_WEIGHTS}'; a Keras 3 .keras file holds its weights there.`,
    );
  }
  const metadata = entries['metadata.json'];
  let kerasVersion: string | null = null;
  if (metadata !== undefined) {
    try {
      const parsed = JSON.parse(strFromU8(metadata)) as { keras_version?: unknown };
      kerasVersion = typeof parsed.keras_version === 'string' ? parsed.keras_version : null;
    } catch {
      // The metadata only names the version; the weights are what matter.
    }
  }
  return { weights, kerasVersion };
}

/** What readKeras3Layers needs from the h5 reader, so this module shares its dataset handling. */
export interface DatasetReader {
  /** Checks a dataset's type, returning its shape, stored bytes and a reader of its values. */
  weight(dataset: Dataset, name: string): { weight: SourceWeight; bytes: number };
}

function layerName(group: Group, path: string, label: string): string {
  const vars = group.get('vars') as Group | null;
  const name = vars?.attrs['name']?.value;
  if (typeof name === 'string' && name.length > 0) return name;
  throw new WeightLoadError(
    'keras3-weights-h5',
    label,
    `${label}: the Keras 3 weights at '${path}' do not name their layer (files from Keras before 3.x store only class-based paths such as 'layers/dense_1'), so they cannot be matched to the lab's layers by name. Save them again with a current Keras, or as legacy '.h5'.`,
  );
}

/** The layers of a Keras 3 weights file, nested models flattened as flatLayers flattens the lab's. */
export function readKeras3Layers(
  lib: H5wasm,
  root: Group,
  label: string,
  reader: DatasetReader,
): { layers: SourceLayer[]; bytes: number; layerNames: string[] } {
  const layers: SourceLayer[] = [];
  const layerNames: string[] = [];
  let bytes = 0;
  const walk = (group: Group, path: string): void => {
    for (const key of group.keys()) {
      const child = group.get(key);
      if (!(child instanceof lib.Group)) continue;
      const childPath = `${path}/${key}`;
      if (child.keys().includes('layers')) {
        walk(child.get('layers') as Group, `${childPath}/layers`);
        continue;
      }
      const vars = child.get('vars');
      if (!(vars instanceof lib.Group)) continue;
      if (vars.keys().length === 0) {
        const own = vars.attrs['name']?.value;
        if (typeof own === 'string') layerNames.push(own);
        continue;
      }
      const name = layerName(child, childPath, label);
      layerNames.push(name);
      const indices = vars.keys().sort((a, b) => Number(a) - Number(b));
      const weights = indices.map((index) => {
        const dataset = vars.get(index);
        if (!(dataset instanceof lib.Dataset)) {
          throw new WeightLoadError(
            'corrupt',
            label,
            `${label}: '${childPath}/vars/${index}' is not a dataset`,
          );
        }
        const read = reader.weight(dataset, `${name}/${index}`);
        bytes += read.bytes;
        return read.weight;
      });
      layers.push({ name, weights });
    }
  };
  const top = root.get('layers');
  if (top instanceof lib.Group) walk(top, 'layers');
  return { layers, bytes, layerNames };
}
