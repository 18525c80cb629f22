import { WeightLoadError } from './errors';
import { errorMessage } from '../../core/format';
import {
  fetchTfjsArtifacts,
  readTfjsFiles,
  type FetchLike,
  type ModelFileLike,
  type TfjsArtifacts,
} from './tfjs';

/**
 * What a drop or a URL turned out to be, checked and ready for loadKerasH5Weights or loadTfjsModel.
 * 'keras-h5' covers every Keras file openKerasH5 reads: Keras 2 .h5, Keras 3 .weights.h5 and .keras.
 */
export type WeightFiles =
  { kind: 'keras-h5'; label: string; bytes: Uint8Array } | { kind: 'tfjs'; artifacts: TfjsArtifacts };

const isKerasFile = (name: string): boolean => /\.(h5|hdf5|keras)$/i.test(name);

function notWeights(label: string, why: string): WeightLoadError {
  return new WeightLoadError('unrecognised-files', label, `${label}: ${why}`);
}

/** Sorts dropped files: one Keras file (.h5, .weights.h5, .keras), or a tfjs model.json with its shards. */
export async function readWeightFiles(files: readonly ModelFileLike[]): Promise<WeightFiles> {
  const names = files.map((f) => f.name).join(', ');
  if (files.some((f) => f.name.endsWith('.json')))
    return { kind: 'tfjs', artifacts: await readTfjsFiles(files) };
  const [file] = files;
  if (file !== undefined && files.length === 1 && isKerasFile(file.name)) {
    return { kind: 'keras-h5', label: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  }
  throw notWeights(
    names || 'nothing',
    'drop one Keras file (.h5, .weights.h5 or .keras), or a tfjs model.json together with its shards.',
  );
}

/** Fetches weights by URL: a model.json (with its shards beside it) or a Keras file (.h5, .keras). */
export async function fetchWeightFiles(url: string, fetchFn: FetchLike = fetch): Promise<WeightFiles> {
  const path = new URL(url).pathname;
  if (path.endsWith('.json')) return { kind: 'tfjs', artifacts: await fetchTfjsArtifacts(url, fetchFn) };
  let response: Response;
  try {
    response = await fetchFn(url);
  } catch (thrown) {
    throw new WeightLoadError('fetch-failed', url, `${url}: cannot fetch it: ${errorMessage(thrown)}`);
  }
  if (!response.ok)
    throw new WeightLoadError('fetch-failed', url, `${url}: answered HTTP ${response.status}`);
  return { kind: 'keras-h5', label: url, bytes: new Uint8Array(await response.arrayBuffer()) };
}
