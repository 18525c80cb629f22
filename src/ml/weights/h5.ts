import * as tf from '@tensorflow/tfjs';
import type { Dataset, Group } from 'h5wasm';
import { WeightLoadError } from './errors';
import { errorMessage, formatBytes } from '../../core/format';
import { assignWeights, type LoadOptions, type WeightReport } from './report';
import { isKeras3Layout, isZip, readKeras3Layers, readKerasArchive } from './keras3';
import { flatGroups, type H5Group } from './h5Layout';
import { shortWeightName, type SourceLayer, type SourceWeight, type WeightSource } from './source';
import { append, maxOf } from '../../core/extent';

type H5wasm = typeof import('h5wasm').default;

// h5wasm's ESM build embeds its wasm, so the same import works under Vite (browser, worker) and in Node,
// where its in-memory file system holds the bytes. Loaded on first use: it is 4 MB.
let h5wasmModule: Promise<H5wasm> | undefined;
async function h5(): Promise<H5wasm> {
  h5wasmModule ??= import('h5wasm').then(async ({ default: lib }) => {
    const module = await lib.ready;
    // HDF5 errors become exceptions instead of pages of diagnostics on the console.
    module.activate_throwing_error_handler();
    return lib;
  });
  return h5wasmModule;
}

let nextFileId = 0;
const tempPath = (): string => `/vram-lab-${nextFileId++}.h5`;

// HDF5 puts its signature at 0, or after a user block of 512, 1024, 2048… bytes.
const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
function hasHdf5Signature(bytes: Uint8Array): boolean {
  for (
    let offset = 0;
    offset + HDF5_SIGNATURE.length <= bytes.length;
    offset = offset === 0 ? 512 : offset * 2
  ) {
    if (HDF5_SIGNATURE.every((b, i) => bytes[offset + i] === b)) return true;
  }
  return false;
}

// HDF5's H5T_class_t values.
const H5T_INTEGER = 0;
const H5T_FLOAT = 1;
// Keras splits a string-list attribute into name0, name1… above HDF5's object header limit.
const HDF5_OBJECT_HEADER_LIMIT = 64512;
/** Default largest file accepted: EfficientNetV2-L's weights are 470 MB. */
export const DEFAULT_MAX_H5_BYTES = 1024 ** 3;

/**
 * Which Keras wrote the file: Keras 2 `.h5` (save_weights, model.save, keras.applications downloads),
 * a Keras 3 `.weights.h5`, or a Keras 3 `.keras` archive (whose weights are a `.weights.h5` inside).
 */
export type KerasWeightFormat = 'keras2-h5' | 'keras3-weights-h5' | 'keras-archive';

/** An open Keras weight file; `close()` frees its copy inside h5wasm. */
export interface KerasH5File extends WeightSource {
  format: KerasWeightFormat;
  /** The Keras version the file names (`keras_version`, or the archive's metadata), e.g. '2.4.0'. */
  kerasVersion: string | null;
  /** Bytes of all stored weights as declared by their datasets. */
  weightBytes: number;
  close(): void;
}

export interface OpenH5Options {
  /** Refuse larger files before reading anything. Default DEFAULT_MAX_H5_BYTES. */
  maxBytes?: number;
}

/** The innermost cause in an HDF5 error stack, e.g. 'truncated file: eof = 383500, … stored_eof = 767001'. */
function hdf5Reason(thrown: unknown): string {
  const causes = [...errorMessage(thrown).matchAll(/in \w+\(\): (.+)$/gm)].map((m) => m[1]);
  return causes.at(-1) ?? errorMessage(thrown);
}

function stringListAttr(group: Group, name: string): string[] | null {
  const attrs = group.attrs;
  // h5py writes an empty list (a layer without weights) as a zero-length float attribute, which
  // h5wasm reads as an empty typed array: no names, not one name ''.
  const values = (raw: unknown): string[] => {
    if (Array.isArray(raw)) return raw.map(String);
    if (ArrayBuffer.isView(raw)) return Array.from(raw as unknown as ArrayLike<unknown>, String);
    return raw === null || raw === undefined ? [] : [String(raw)];
  };
  const whole = attrs[name];
  if (whole !== undefined) return values(whole.value);
  if (attrs[`${name}0`] === undefined) return null;
  const chunks: string[] = [];
  for (let i = 0; attrs[`${name}${i}`] !== undefined; i++)
    append(chunks, values(attrs[`${name}${i}`]?.value));
  return chunks;
}

function stringAttr(group: Group, name: string): string | null {
  const value = group.attrs[name]?.value;
  return value === undefined || value === null ? null : String(value);
}

function toFloat32(value: Dataset['value'], name: string): Float32Array {
  if (value instanceof Float32Array) return value;
  if (value instanceof BigInt64Array || value instanceof BigUint64Array)
    return Float32Array.from(value, Number);
  if (ArrayBuffer.isView(value)) return Float32Array.from(value);
  if (typeof value === 'number' || typeof value === 'bigint') return Float32Array.of(Number(value));
  throw new Error(`${name} did not read as numbers`);
}

/** Finds the group that holds `layer_names`: the root (save_weights) or `model_weights` (model.save). */
function weightsRoot(lib: H5wasm, file: InstanceType<H5wasm['File']>, label: string): Group {
  if (stringListAttr(file, 'layer_names') !== null) return file;
  const modelWeights = file.get('model_weights');
  if (modelWeights instanceof lib.Group && stringListAttr(modelWeights, 'layer_names') !== null)
    return modelWeights;
  const keys = file.keys();
  throw new WeightLoadError(
    'not-keras-h5',
    label,
    `${label} is an HDF5 file but not a Keras weight file: it has no 'layer_names' attribute (top-level entries: ${keys.slice(0, 8).join(', ') || 'none'}).`,
  );
}

/** A numeric dataset as a SourceWeight whose values are read only when asked; refuses float16. */
function datasetWeight(
  dataset: Dataset,
  name: string,
  label: string,
): { weight: SourceWeight; bytes: number } {
  const { type, size } = dataset.metadata;
  if (type !== H5T_FLOAT && type !== H5T_INTEGER) {
    throw new WeightLoadError('unsupported-dtype', label, `${label}: ${name} is not numeric`);
  }
  if (type === H5T_FLOAT && size === 2) {
    throw new WeightLoadError(
      'unsupported-dtype',
      label,
      `${label}: ${name} is stored as float16, which the lab cannot read; save the weights as float32.`,
    );
  }
  const shape = dataset.shape ?? [];
  const weight = { name, shape, read: () => toFloat32(dataset.value, name) };
  return { weight, bytes: shape.reduce((a, b) => a * b, 1) * size };
}

function readLayer(
  lib: H5wasm,
  root: Group,
  name: string,
  label: string,
): { layer: SourceLayer; bytes: number } {
  const group = root.get(name);
  const corrupt = (what: string) =>
    new WeightLoadError('corrupt', label, `${label}: layer '${name}' ${what}`);
  if (!(group instanceof lib.Group)) throw corrupt('is listed in layer_names but has no group');
  const weightNames = stringListAttr(group, 'weight_names');
  if (weightNames === null) throw corrupt("has no 'weight_names' attribute");
  let bytes = 0;
  const weights = weightNames.map((weightName) => {
    const entity = group.get(weightName);
    if (!(entity instanceof lib.Dataset))
      throw corrupt(`lists weight '${weightName}' but has no such dataset`);
    const read = datasetWeight(entity, weightName, label);
    bytes += read.bytes;
    return read.weight;
  });
  return { layer: { name, weights }, bytes };
}

/** The layer a Keras 2 weight name belongs to: 'stem_conv' for 'stem_conv/kernel:0'; null without one. */
const weightLayer = (name: string): string | null => name.split('/').at(-2) ?? null;

/**
 * A Keras 2 group as the layers it holds. A nested model (`Model(inp, head(base(inp)))` saved by tf_keras)
 * is one group named after the model whose weights are named after its own layers
 * (`efficientnetb0` holding `stem_conv/kernel:0`…, trainable weights first): it becomes those layers,
 * each with its weights in stored order, as flatLayers flattens the lab's nested models.
 */
function splitNested(layer: SourceLayer): SourceLayer[] {
  const inner = new Map<string, SourceWeight[]>();
  for (const w of layer.weights) {
    const name = weightLayer(w.name) ?? layer.name;
    inner.set(name, [...(inner.get(name) ?? []), w]);
  }
  if (inner.size < 2 || inner.has(layer.name)) return [layer];
  return [...inner].map(([name, weights]) => ({ name, weights }));
}

/** Layers with weights and their declared bytes, from either Keras layout. */
function readLayers(
  lib: H5wasm,
  file: InstanceType<H5wasm['File']>,
  label: string,
): { layers: SourceLayer[]; layerNames: string[]; bytes: number; format: KerasWeightFormat; root: Group } {
  if (isKeras3Layout(file.keys())) {
    const reader = { weight: (d: Dataset, name: string) => datasetWeight(d, name, label) };
    return { ...readKeras3Layers(lib, file, label, reader), format: 'keras3-weights-h5', root: file };
  }
  const root = weightsRoot(lib, file, label);
  let bytes = 0;
  const layers: SourceLayer[] = [];
  const layerNames = stringListAttr(root, 'layer_names') ?? [];
  for (const name of layerNames) {
    const { layer, bytes: layerBytes } = readLayer(lib, root, name, label);
    bytes += layerBytes;
    if (layer.weights.length > 0) append(layers, splitNested(layer));
  }
  return { layers, layerNames, bytes, format: 'keras2-h5', root };
}

/** Opens HDF5 bytes inside h5wasm and reads their layout (no weight values yet). */
async function openHdf5(
  bytes: Uint8Array,
  label: string,
  archive: { kerasVersion: string | null } | null,
): Promise<KerasH5File> {
  if (!hasHdf5Signature(bytes)) {
    throw new WeightLoadError(
      'not-hdf5',
      label,
      `${label} is not an HDF5 file (no HDF5 signature); Keras weight files are .h5, .weights.h5 or .keras.`,
    );
  }
  const lib = await h5();
  const { FS } = await lib.ready;
  const path = tempPath();
  FS.writeFile(path, bytes);
  let file: InstanceType<H5wasm['File']> | undefined;
  const close = () => {
    if (file !== undefined && file.file_id >= 0n) file.close();
    FS.unlink(path);
  };
  try {
    file = new lib.File(path, 'r');
    if (file.file_id < 0n) throw new Error('H5Fopen failed');
    const { layers, layerNames, bytes: weightBytes, format, root } = readLayers(lib, file, label);
    if (weightBytes > bytes.length) {
      throw new WeightLoadError(
        'corrupt',
        label,
        `${label} declares ${weightBytes} bytes of weights but holds only ${bytes.length}; it is truncated or damaged.`,
      );
    }
    const kerasVersion = archive ? archive.kerasVersion : stringAttr(root, 'keras_version');
    return {
      label,
      layers,
      layerNames,
      format: archive ? 'keras-archive' : format,
      kerasVersion,
      weightBytes,
      close,
    };
  } catch (thrown) {
    close();
    if (thrown instanceof WeightLoadError) throw thrown;
    const message = `${label}: HDF5 cannot read it; the file is truncated or damaged (${hdf5Reason(thrown)}).`;
    throw new WeightLoadError('corrupt', label, message);
  }
}

/**
 * Opens a Keras weight file and checks its whole structure and declared size without reading any weight
 * values: Keras 2 `.h5` (`model.save_weights('x.h5')`, `model.save('x.h5')`, the files keras.applications
 * downloads), Keras 3 `.weights.h5`, or a Keras 3 `.keras` archive. Throws WeightLoadError naming the
 * file when it is none of these.
 */
export async function openKerasH5(
  bytes: Uint8Array,
  label: string,
  options: OpenH5Options = {},
): Promise<KerasH5File> {
  const { maxBytes = DEFAULT_MAX_H5_BYTES } = options;
  if (bytes.length > maxBytes) {
    throw new WeightLoadError(
      'too-large',
      label,
      `${label} is ${formatBytes(bytes.length)}, above the ${formatBytes(maxBytes)} limit.`,
    );
  }
  if (isZip(bytes)) {
    const archive = readKerasArchive(bytes, label);
    return openHdf5(archive.weights, label, archive);
  }
  return openHdf5(bytes, label, null);
}

/**
 * Loads a Keras .h5 weight file into `model` by layer name (see LoadOptions for Keras' by_name semantics).
 * All or nothing: on any error the model is unchanged and no tensor is left behind.
 */
export async function loadKerasH5Weights(
  model: tf.LayersModel,
  bytes: Uint8Array,
  label: string,
  options: LoadOptions & OpenH5Options = {},
): Promise<WeightReport> {
  const file = await openKerasH5(bytes, label, options);
  try {
    return assignWeights(model, file, options);
  } finally {
    file.close();
  }
}

function writeStringList(group: Group, name: string, values: readonly string[]): void {
  const width = Math.max(1, maxOf(values.map((v) => new TextEncoder().encode(v).length)));
  const chunks = Math.max(1, Math.ceil((width * values.length) / HDF5_OBJECT_HEADER_LIMIT));
  if (chunks === 1) {
    group.create_attribute(name, [...values], null, `S${width}`);
    return;
  }
  const per = Math.ceil(values.length / chunks);
  for (let i = 0; i < chunks; i++) {
    group.create_attribute(`${name}${i}`, values.slice(i * per, (i + 1) * per), null, `S${width}`);
  }
}

/**
 * Writes weights as Keras 2 `save_weights` does: root attributes `layer_names`, `backend` and
 * `keras_version`; one group per top-level layer with a `weight_names` attribute; each weight at
 * `<group>/<layer>/<weight>:0`. The groups are `model`'s layers (flat), or the layout `groups` gives (a
 * nested backbone, see h5Layout). Used for test fixtures and for handing weights back to Keras.
 */
export async function writeKerasH5(
  model: tf.LayersModel,
  groups: readonly H5Group[] = flatGroups(model),
): Promise<Uint8Array> {
  const lib = await h5();
  const { FS } = await lib.ready;
  const path = tempPath();
  const file = new lib.File(path, 'w');
  try {
    writeStringList(
      file,
      'layer_names',
      groups.map((g) => g.name),
    );
    file.create_attribute('backend', 'tensorflow');
    file.create_attribute('keras_version', '2.15.0');
    for (const { name, weights } of groups) {
      const group = file.create_group(name);
      const names = weights.map((w) => `${w.layer}/${shortWeightName(w.variable.originalName)}:0`);
      writeStringList(group, 'weight_names', names);
      // h5wasm does not create intermediate groups, so each '<layer>/' part of a name is made here.
      const inner = new Map<string, Group>();
      for (const { layer, variable } of weights) {
        const at = inner.get(layer) ?? group.create_group(layer);
        inner.set(layer, at);
        const data = variable.read().dataSync() as Float32Array | Int32Array;
        const shape = variable.shape.map((d) => d ?? 0);
        const dtype = variable.dtype === 'int32' ? '<i' : '<f';
        at.create_dataset({ name: `${shortWeightName(variable.originalName)}:0`, data, shape, dtype });
      }
    }
  } finally {
    file.close();
  }
  const bytes = FS.readFile(path);
  FS.unlink(path);
  return bytes;
}
