import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildClassifier, EFFICIENTNET_PRESETS, type EfficientNetConfig } from '../models/efficientnet';
import { WeightLoadError } from './errors';
import {
  copyWeightsByName,
  fetchTfjsArtifacts,
  loadTfjsModel,
  readTfjsFiles,
  type ModelFileLike,
  type TfjsArtifacts,
} from './tfjs';

const tiny = (seed: number): EfficientNetConfig => ({
  ...EFFICIENTNET_PRESETS.tiny,
  height: 32,
  width: 32,
  numClasses: 3,
  seed,
});

function fileOf(name: string, data: ArrayBuffer | string): ModelFileLike {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data);
  return { name, size: bytes.byteLength, arrayBuffer: async () => bytes.slice().buffer };
}

/** What tensorflowjs_converter writes: model.json plus the weights split into two shards. */
async function saveAsFiles(model: tf.LayersModel): Promise<ModelFileLike[]> {
  let files: ModelFileLike[] = [];
  await model.save(
    tf.io.withSaveHandler(async (artifacts) => {
      const data = tf.io.CompositeArrayBuffer.join(artifacts.weightData);
      const half = Math.floor(data.byteLength / 2);
      const paths = ['group1-shard1of2.bin', 'group1-shard2of2.bin'];
      const modelJson = {
        format: 'layers-model',
        generatedBy: artifacts.generatedBy,
        convertedBy: artifacts.convertedBy,
        modelTopology: artifacts.modelTopology,
        weightsManifest: [{ paths, weights: artifacts.weightSpecs }],
      };
      files = [
        fileOf('model.json', JSON.stringify(modelJson)),
        fileOf(paths[0] ?? '', data.slice(0, half)),
        fileOf(paths[1] ?? '', data.slice(half)),
      ];
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' } };
    }),
  );
  return files;
}

function predict(model: tf.LayersModel, input: tf.Tensor): Float32Array {
  return tf.tidy(() => (model.predict(input) as tf.Tensor).dataSync() as Float32Array);
}

async function expectLoadError(promise: Promise<unknown>): Promise<WeightLoadError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WeightLoadError);
  return error as WeightLoadError;
}

async function layersModel(checked: TfjsArtifacts): Promise<tf.LayersModel> {
  const loaded = await loadTfjsModel(checked);
  if (loaded.kind !== 'layers-model') throw new Error('expected a layers model');
  return loaded.model;
}

let original: tf.LayersModel;
let files: ModelFileLike[];
let input: tf.Tensor;

beforeAll(async () => {
  await tf.setBackend('cpu');
  original = buildClassifier(tiny(1)).model;
  files = await saveAsFiles(original);
  input = tf.randomUniform([2, 32, 32, 3], 0, 255, 'float32', 7);
});

describe('tfjs Layers format', () => {
  it('round-trips dropped files: the loaded model predicts exactly what the saved one did', async () => {
    const checked = await readTfjsFiles(files);
    expect(checked.format).toBe('layers-model');
    const model = await layersModel(checked);
    expect(predict(model, input)).toEqual(predict(original, input));
    model.dispose();
  });

  it('round-trips by URL, fetching shards relative to model.json', async () => {
    const served = new Map(files.map((f) => [`https://example.test/m/${f.name}`, f]));
    const fakeFetch = async (url: string): Promise<Response> => {
      const file = served.get(String(url));
      return file === undefined
        ? new Response(null, { status: 404 })
        : new Response(await file.arrayBuffer());
    };
    const checked = await fetchTfjsArtifacts('https://example.test/m/model.json', fakeFetch);
    const model = await layersModel(checked);
    expect(predict(model, input)).toEqual(predict(original, input));
    model.dispose();
  });

  it('copies a loaded model onto a lab-built one by layer name, with the .h5 report', async () => {
    const loaded = await layersModel(await readTfjsFiles(files));
    const lab = buildClassifier(tiny(2)).model;
    const report = copyWeightsByName(lab, loaded, 'model.json');
    expect(report.mismatches).toEqual([]);
    expect(report.matchedParams).toBe(lab.countParams());
    expect(predict(lab, input)).toEqual(predict(original, input));
    loaded.dispose();
    lab.dispose();
  });

  it('refuses a shard of the wrong size before reading any shard, naming model.json and the shards', async () => {
    const [json, first] = files;
    const cut = fileOf('group1-shard2of2.bin', new ArrayBuffer(10));
    const error = await expectLoadError(readTfjsFiles([json!, first!, cut]));
    expect(error.kind).toBe('shard-size');
    expect(error.message).toMatch(
      /^model\.json: shards group1-shard1of2\.bin, group1-shard2of2\.bin hold \d+ bytes/,
    );
  });

  it('names a missing shard', async () => {
    const error = await expectLoadError(readTfjsFiles(files.slice(0, 2)));
    expect(error.kind).toBe('missing-shard');
    expect(error.message).toContain("'group1-shard2of2.bin'");
  });

  it('refuses model.json that is not JSON or not a model', async () => {
    const notJson = await expectLoadError(readTfjsFiles([fileOf('model.json', '<html>')]));
    expect(notJson.kind).toBe('bad-model-json');
    expect(notJson.message).toMatch(/^model\.json is not valid JSON/);
    const notModel = await expectLoadError(readTfjsFiles([fileOf('package.json', '{"name": "x"}')]));
    expect(notModel.message).toBe('package.json is not a tfjs model.json: it has no modelTopology');
  });

  it('refuses a layer class tfjs does not know, before building anything', async () => {
    const [json, ...shards] = files;
    const text = new TextDecoder().decode(await json!.arrayBuffer()).replace('"Multiply"', '"FancyMultiply"');
    const error = await expectLoadError(readTfjsFiles([fileOf('model.json', text), ...shards]));
    expect(error.kind).toBe('unknown-layer-class');
    expect(error.message).toContain('FancyMultiply');
  });

  it('leaves no tensor behind when weights do not fit the built model, nor after load and dispose', async () => {
    const [json, ...shards] = files;
    const parsed = JSON.parse(new TextDecoder().decode(await json!.arrayBuffer())) as {
      weightsManifest: { weights: { name: string }[] }[];
    };
    const weights = parsed.weightsManifest[0]?.weights ?? [];
    [weights[0]!.name, weights[1]!.name] = [weights[1]!.name, weights[0]!.name];
    const swapped = await readTfjsFiles([fileOf('model.json', JSON.stringify(parsed)), ...shards]);
    const numTensors = tf.memory().numTensors;

    const error = await expectLoadError(loadTfjsModel(swapped));
    expect(error.kind).toBe('shape-mismatch');
    expect(error.message).toContain(weights[0]!.name.split('/')[0]);
    expect(tf.memory().numTensors).toBe(numTensors);

    const model = await layersModel(await readTfjsFiles(files));
    model.dispose();
    expect(tf.memory().numTensors).toBe(numTensors);
  });

  it('disposes the variables tfjs created when building the topology fails half-way', async () => {
    class ExplodesOnBuild extends tf.layers.Layer {
      static className = 'ExplodesOnBuild';
      override build(): void {
        throw new Error('boom');
      }
    }
    tf.serialization.registerClass(ExplodesOnBuild);
    const [json, ...shards] = files;
    const text = new TextDecoder().decode(await json!.arrayBuffer());
    const broken = text.replace('"class_name":"GlobalAveragePooling2D"', '"class_name":"ExplodesOnBuild"');
    const checked = await readTfjsFiles([fileOf('model.json', broken), ...shards]);
    const numTensors = tf.memory().numTensors;
    const error = await expectLoadError(loadTfjsModel(checked));
    expect(error.kind).toBe('load-failed');
    expect(error.message).toContain('boom');
    expect(tf.memory().numTensors).toBe(numTensors);
  });
});

describe('tfjs GraphModel', () => {
  const graphJson = {
    format: 'graph-model',
    modelTopology: {
      node: [
        {
          name: 'x',
          op: 'Placeholder',
          attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: { dim: [{ size: '-1' }, { size: '2' }] } } },
        },
        {
          name: 'w',
          op: 'Const',
          attr: {
            dtype: { type: 'DT_FLOAT' },
            value: { tensor: { dtype: 'DT_FLOAT', tensorShape: { dim: [{ size: '2' }, { size: '1' }] } } },
          },
        },
        { name: 'y', op: 'MatMul', input: ['x', 'w'], attr: { T: { type: 'DT_FLOAT' } } },
      ],
      versions: { producer: 1 },
    },
    weightsManifest: [{ paths: ['graph.bin'], weights: [{ name: 'w', shape: [2, 1], dtype: 'float32' }] }],
  };

  it('loads only as a frozen feature extractor, and says why it cannot be fine-tuned', async () => {
    const weights = new Float32Array([2, 3]).buffer;
    const checked = await readTfjsFiles([
      fileOf('model.json', JSON.stringify(graphJson)),
      fileOf('graph.bin', weights),
    ]);
    const loaded = await loadTfjsModel(checked);
    expect(loaded.kind).toBe('graph-model');
    if (loaded.kind !== 'graph-model') return;
    expect(loaded.fineTunable).toBe(false);
    expect(loaded.reason).toContain('cannot be fine-tuned');
    const y = loaded.model.predict(tf.tensor2d([[1, 1]])) as tf.Tensor;
    expect(Array.from(y.dataSync())).toEqual([5]);
    loaded.model.dispose();
  });
});
