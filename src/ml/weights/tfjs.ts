import * as tf from '@tensorflow/tfjs';
import { registeredVariables } from '../tfjsInternals';
import { WeightLoadError } from './errors';
import { errorMessage } from '../../core/format';
import { assignWeights, type LoadOptions, type WeightReport } from './report';
import { sourceFromArtifacts, sourceFromLayersModel, type WeightSource } from './source';
import { append } from '../../core/extent';

/** What a dropped file must offer; a DOM `File` has all of it. */
export interface ModelFileLike {
  /** File name; shards are matched to model.json's paths by their last component. */
  name: string;
  /** Size in bytes, checked before the file is read. */
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The part of fetch() the loaders use, so tests can serve files without a network. */
export type FetchLike = (url: string) => Promise<Response>;

/** A checked tfjs model: model.json is valid and every shard has exactly the declared number of bytes. */
export interface TfjsArtifacts {
  /** model.json's name or URL, used in every message. */
  label: string;
  /** 'layers-model' can be trained; 'graph-model' is a frozen graph. */
  format: 'layers-model' | 'graph-model';
  /** Bytes of all weight shards. */
  weightBytes: number;
  artifacts: tf.io.ModelArtifacts;
}

/** Why a GraphModel is offered only as a frozen feature extractor; meant to be shown as is. */
export const GRAPH_MODEL_FROZEN_REASON =
  'This is a tfjs GraphModel (a frozen TensorFlow graph). Its weights are constants inside the graph, not ' +
  'layer variables, and it has no layers to unfreeze, so it cannot be fine-tuned: it can only run as a frozen ' +
  'feature extractor. To fine-tune, convert the Keras model with tensorflowjs_converter ' +
  '--output_format=tfjs_layers_model.';

export type LoadedTfjsModel =
  | { kind: 'layers-model'; label: string; model: tf.LayersModel; report: WeightReport }
  | { kind: 'graph-model'; label: string; model: tf.GraphModel; fineTunable: false; reason: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const DTYPE_BYTES: Record<string, number> = {
  float32: 4,
  int32: 4,
  bool: 1,
  complex64: 8,
  uint8: 1,
  uint16: 2,
  float16: 2,
};

/** Throws unless the entry has a name, a valid shape, a known dtype and, if any, a known quantization. */
function checkEntry(entry: unknown, label: string): asserts entry is tf.io.WeightsManifestEntry {
  const bad = (why: string) =>
    new WeightLoadError('bad-model-json', label, `${label}: weightsManifest ${why}`);
  if (!isObject(entry) || typeof entry['name'] !== 'string') throw bad('has a weight without a name');
  const { name, shape, dtype, quantization } = entry;
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && (d as number) >= 0)) {
    throw bad(`weight '${name}' has no valid shape`);
  }
  if (typeof dtype !== 'string' || (DTYPE_BYTES[dtype] === undefined && dtype !== 'string')) {
    throw bad(`weight '${name}' has an unknown dtype ${String(dtype)}`);
  }
  if (
    quantization !== undefined &&
    (!isObject(quantization) || DTYPE_BYTES[String(quantization['dtype'])] === undefined)
  ) {
    throw bad(`weight '${name}' has an unknown quantization`);
  }
}

/** Bytes a manifest group declares, or null when it holds strings, whose size only the data says. */
function declaredBytes(weights: readonly tf.io.WeightsManifestEntry[]): number | null {
  let total = 0;
  for (const w of weights) {
    const dtype = w.quantization?.dtype ?? w.dtype;
    const bytes = DTYPE_BYTES[dtype];
    if (bytes === undefined) return null;
    total += w.shape.reduce((a, b) => a * b, 1) * bytes;
  }
  return total;
}

function formatOf(json: Json, topology: Json, label: string): TfjsArtifacts['format'] {
  const format = json['format'];
  if (format === 'layers-model' || format === 'graph-model') return format;
  if (format !== undefined) {
    throw new WeightLoadError('bad-model-json', label, `${label}: unknown format '${String(format)}'`);
  }
  // Older converters (e.g. nsfwjs' Keras 2.2.4 model) wrote no format; the topology tells.
  if (Array.isArray(topology['node'])) return 'graph-model';
  if (isObject(topology['model_config']) || typeof topology['class_name'] === 'string') return 'layers-model';
  throw new WeightLoadError(
    'bad-model-json',
    label,
    `${label}: modelTopology is neither a Keras model nor a graph`,
  );
}

function layerClassNames(config: unknown): string[] {
  if (!isObject(config)) return [];
  const inner = isObject(config['config']) ? config['config'] : {};
  const layers = Array.isArray(inner['layers']) ? inner['layers'] : [];
  const own = typeof config['class_name'] === 'string' ? [config['class_name']] : [];
  return [...own, ...layers.flatMap(layerClassNames)];
}

function checkLayerClasses(topology: Json, label: string): void {
  const known = tf.serialization.SerializationMap.getMap().classNameMap;
  const root = isObject(topology['model_config']) ? topology['model_config'] : topology;
  const unknown = [...new Set(layerClassNames(root))].filter((name) => known[name] === undefined);
  if (unknown.length > 0) {
    const message = `${label}: tfjs has no layer class ${unknown.join(', ')}; the model cannot be built in the browser.`;
    throw new WeightLoadError('unknown-layer-class', label, message);
  }
}

interface CheckedModelJson {
  json: tf.io.ModelJSON;
  format: TfjsArtifacts['format'];
  groups: { paths: string[]; weights: tf.io.WeightsManifestEntry[]; bytes: number | null }[];
}

/** Checks model.json's structure (format, topology, weightsManifest) before any shard is read. */
function checkModelJson(text: string, label: string): CheckedModelJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (thrown) {
    throw new WeightLoadError('bad-model-json', label, `${label} is not valid JSON: ${errorMessage(thrown)}`);
  }
  return checkParsedModelJson(json, label);
}

function checkParsedModelJson(json: unknown, label: string): CheckedModelJson {
  if (!isObject(json) || !isObject(json['modelTopology'])) {
    throw new WeightLoadError(
      'bad-model-json',
      label,
      `${label} is not a tfjs model.json: it has no modelTopology`,
    );
  }
  const topology = json['modelTopology'];
  const format = formatOf(json, topology, label);
  const manifest = json['weightsManifest'];
  if (!Array.isArray(manifest)) {
    throw new WeightLoadError(
      'bad-model-json',
      label,
      `${label} has no weightsManifest, so no weights to load`,
    );
  }
  const groups = manifest.map((group: unknown) => {
    const paths = isObject(group) ? group['paths'] : undefined;
    const weights = isObject(group) ? group['weights'] : undefined;
    if (
      !Array.isArray(paths) ||
      paths.length === 0 ||
      !paths.every((p) => typeof p === 'string') ||
      !Array.isArray(weights)
    ) {
      throw new WeightLoadError(
        'bad-model-json',
        label,
        `${label}: a weightsManifest group lacks paths or weights`,
      );
    }
    const entries = weights.map((w: unknown) => {
      checkEntry(w, label);
      return w;
    });
    return { paths: paths as string[], weights: entries, bytes: declaredBytes(entries) };
  });
  if (format === 'layers-model') checkLayerClasses(topology, label);
  // The checked fields replace their unchecked originals; the rest (trainingConfig, signature, …) passes
  // through as tf.io reads it.
  const modelJson: tf.io.ModelJSON = {
    ...json,
    modelTopology: topology,
    weightsManifest: groups.map(({ paths, weights }) => ({ paths, weights })),
  };
  return { json: modelJson, format, groups };
}

function checkGroupSize(
  label: string,
  paths: readonly string[],
  declared: number | null,
  actual: number,
): void {
  if (declared !== null && declared !== actual) {
    const message = `${label}: shards ${paths.join(', ')} hold ${actual} bytes but model.json declares ${declared}; they do not belong to this model.json or are damaged.`;
    throw new WeightLoadError('shard-size', label, message);
  }
}

function toArtifacts(checked: CheckedModelJson, label: string, shards: ArrayBuffer[]): TfjsArtifacts {
  const weightSpecs = checked.groups.flatMap((g) => g.weights);
  const artifacts = tf.io.getModelArtifactsForJSONSync(checked.json, weightSpecs, shards);
  const weightBytes = shards.reduce((sum, s) => sum + s.byteLength, 0);
  return { label, format: checked.format, weightBytes, artifacts };
}

/** Checks an already parsed model.json and its shards in manifest order (e.g. a model bundled as modules). */
export function checkArtifacts(json: unknown, label: string, shards: ArrayBuffer[]): TfjsArtifacts {
  const checked = checkParsedModelJson(json, label);
  let next = 0;
  for (const group of checked.groups) {
    const own = shards.slice(next, next + group.paths.length);
    next += group.paths.length;
    checkGroupSize(
      label,
      group.paths,
      group.bytes,
      own.reduce((sum, b) => sum + b.byteLength, 0),
    );
  }
  return toArtifacts(checked, label, shards);
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * Reads model.json and its shards dropped together (what tf.io.browserFiles takes), checking structure and
 * every shard's size before reading any shard.
 */
export async function readTfjsFiles(files: readonly ModelFileLike[]): Promise<TfjsArtifacts> {
  const jsons = files.filter((f) => f.name.endsWith('.json'));
  const modelFile = jsons[0];
  if (modelFile === undefined || jsons.length > 1) {
    const names = files.map((f) => f.name).join(', ');
    const why = modelFile === undefined ? 'no model.json among' : 'more than one .json file among';
    throw new WeightLoadError(
      'bad-model-json',
      names,
      `A tfjs model needs exactly one model.json; found ${why}: ${names}`,
    );
  }
  const label = modelFile.name;
  const checked = checkModelJson(new TextDecoder().decode(await modelFile.arrayBuffer()), label);
  const byName = new Map(files.map((f) => [f.name, f]));
  const shardFiles = checked.groups.map((group) => {
    const found = group.paths.map((path) => {
      const file = byName.get(baseName(path));
      if (file === undefined) {
        const message = `${label} needs the weight file '${baseName(path)}'; drop it together with ${label}.`;
        throw new WeightLoadError('missing-shard', label, message);
      }
      return file;
    });
    const actual = found.reduce((sum, f) => sum + f.size, 0);
    checkGroupSize(label, group.paths, group.bytes, actual);
    return found;
  });
  const shards = await Promise.all(shardFiles.flat().map((f) => f.arrayBuffer()));
  return toArtifacts(checked, label, shards);
}

/** Fetches model.json and its shards (relative to it) and checks them like readTfjsFiles. */
export async function fetchTfjsArtifacts(url: string, fetchFn: FetchLike = fetch): Promise<TfjsArtifacts> {
  const get = async (target: string): Promise<Response> => {
    let response: Response;
    try {
      response = await fetchFn(target);
    } catch (thrown) {
      throw new WeightLoadError(
        'fetch-failed',
        url,
        `${url}: cannot fetch ${target}: ${errorMessage(thrown)}`,
      );
    }
    if (!response.ok)
      throw new WeightLoadError('fetch-failed', url, `${url}: ${target} answered HTTP ${response.status}`);
    return response;
  };
  const checked = checkModelJson(await (await get(url)).text(), url);
  const shards: ArrayBuffer[] = [];
  for (const group of checked.groups) {
    const buffers = await Promise.all(
      group.paths.map(async (path) => (await get(new URL(path, url).href)).arrayBuffer()),
    );
    checkGroupSize(
      url,
      group.paths,
      group.bytes,
      buffers.reduce((sum, b) => sum + b.byteLength, 0),
    );
    append(shards, buffers);
  }
  return toArtifacts(checked, url, shards);
}

/** Disposes variables that a failed load created before throwing, so a failure leaves no tensor behind. */
async function withoutLeaks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Set(Object.keys(registeredVariables()));
  try {
    return await load();
  } catch (thrown) {
    for (const [name, variable] of Object.entries(registeredVariables())) {
      if (!before.has(name)) variable.dispose();
    }
    throw thrown;
  }
}

const buildFailed = (label: string) => (thrown: unknown) => {
  throw new WeightLoadError(
    'load-failed',
    label,
    `${label}: tfjs could not build the model: ${errorMessage(thrown)}`,
  );
};

/**
 * Builds a Keras topology and fills it from `source` through the all-or-nothing match (tfjs' own weight
 * loading leaks its decoded tensors when it fails). On any failure nothing is left allocated.
 */
export async function buildFromTopology(
  modelTopology: object,
  source: WeightSource,
  options: LoadOptions = { allowMissing: false, allowUnexpected: false },
): Promise<{ model: tf.LayersModel; report: WeightReport }> {
  const model = await withoutLeaks(() => tf.loadLayersModel(tf.io.fromMemory({ modelTopology }))).catch(
    buildFailed(source.label),
  );
  try {
    return { model, report: assignWeights(model, source, options) };
  } catch (thrown) {
    model.dispose();
    throw thrown;
  }
}

/**
 * Builds the checked model: a trainable LayersModel with its match report (every weight must match), or a
 * GraphModel marked as frozen with the reason.
 */
export async function loadTfjsModel(checked: TfjsArtifacts): Promise<LoadedTfjsModel> {
  const { label, artifacts } = checked;
  if (checked.format === 'graph-model') {
    const model = await withoutLeaks(() => tf.loadGraphModel(tf.io.fromMemory(artifacts))).catch(
      buildFailed(label),
    );
    return { kind: 'graph-model', label, model, fineTunable: false, reason: GRAPH_MODEL_FROZEN_REASON };
  }
  const source = sourceFromArtifacts(artifacts.weightSpecs ?? [], artifacts.weightData ?? [], label);
  const { model, report } = await buildFromTopology(artifacts.modelTopology ?? {}, source);
  return { kind: 'layers-model', label, model, report };
}

/**
 * Copies a loaded LayersModel's weights onto a model built in the lab, by layer name, with the same report
 * and all-or-nothing rule as a Keras .h5 file.
 */
export function copyWeightsByName(
  target: tf.LayersModel,
  source: tf.LayersModel,
  label: string,
  options: LoadOptions = {},
): WeightReport {
  return assignWeights(target, sourceFromLayersModel(source, label), options);
}
