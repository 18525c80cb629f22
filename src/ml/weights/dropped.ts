import { WeightLoadError, describeThrown } from './errors';
import {
  fetchTfjsArtifacts,
  readTfjsFiles,
  type FetchLike,
  type ModelFileLike,
  type TfjsArtifacts,
} from './tfjs';

/** What a drop or a URL turned out to be, checked and ready for loadKerasH5Weights or loadTfjsModel. */
export type WeightFiles =
  { kind: 'keras-h5'; label: string; bytes: Uint8Array } | { kind: 'tfjs'; artifacts: TfjsArtifacts };

const isH5 = (name: string): boolean => /\.(h5|hdf5)$/i.test(name);

function notWeights(label: string, why: string): WeightLoadError {
  return new WeightLoadError('unrecognised-files', label, `${label}: ${why}`);
}

/** Sorts dropped files: one Keras .h5 file, or a tfjs model.json with its shards. */
export async function readWeightFiles(files: readonly ModelFileLike[]): Promise<WeightFiles> {
  const names = files.map((f) => f.name).join(', ');
  if (files.some((f) => f.name.endsWith('.json')))
    return { kind: 'tfjs', artifacts: await readTfjsFiles(files) };
  const [file] = files;
  if (file !== undefined && files.length === 1 && isH5(file.name)) {
    return { kind: 'keras-h5', label: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  }
  if (file !== undefined && files.length === 1 && file.name.endsWith('.keras')) {
    throw notWeights(
      file.name,
      'a Keras 3 .keras archive is not supported; save the weights with Keras 2 as .h5.',
    );
  }
  throw notWeights(
    names || 'nothing',
    'drop one Keras .h5 file, or a tfjs model.json together with its shards.',
  );
}

/** Fetches weights by URL: a model.json (with its shards beside it) or a Keras .h5 file. */
export async function fetchWeightFiles(url: string, fetchFn: FetchLike = fetch): Promise<WeightFiles> {
  const path = new URL(url).pathname;
  if (path.endsWith('.json')) return { kind: 'tfjs', artifacts: await fetchTfjsArtifacts(url, fetchFn) };
  let response: Response;
  try {
    response = await fetchFn(url);
  } catch (thrown) {
    throw new WeightLoadError('fetch-failed', url, `${url}: cannot fetch it: ${describeThrown(thrown)}`);
  }
  if (!response.ok)
    throw new WeightLoadError('fetch-failed', url, `${url}: answered HTTP ${response.status}`);
  return { kind: 'keras-h5', label: url, bytes: new Uint8Array(await response.arrayBuffer()) };
}
