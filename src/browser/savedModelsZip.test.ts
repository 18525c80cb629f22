import * as tf from '@tensorflow/tfjs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipModel } from './exports';
import { savedModelMeta, storageRefusal } from './savedModelsMeta';
import { buildClassifier } from '../ml/models/registry';
import { checkInput, tfjsLayersFiles, type CheckFile } from '../ml/weights/export';
import { modelIdOfName } from '../ml/weights/labModelInfo';
import { assignWeights, matchWeights } from '../ml/weights/report';
import { sourceFromArtifacts } from '../ml/weights/source';
import { readTfjsFiles } from '../ml/weights/tfjs';
import { readModelZip, withLabNotes, type ZipModel } from '../ml/weights/zipModel';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const classifier = (id: 'tiny' | 'mobilenetv2', height: number, width: number, numClasses: number) =>
  buildClassifier({ id, height, width, includePreprocessing: true, numClasses, seed: 11 }).model;

/** The zip the lab's download gives: its own export code, end to end. */
async function labZip(model: tf.LayersModel): Promise<Uint8Array> {
  return zipModel(await tfjsLayersFiles(model));
}

/** What tfjs' own model.save writes (browserDownloads' names), zipped by hand into a folder. */
async function tfjsSaveZip(model: tf.LayersModel, folder: string): Promise<Uint8Array> {
  let saved: tf.io.ModelArtifacts | null = null;
  await model.save(
    tf.io.withSaveHandler(async (a) => {
      saved = a;
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' } };
    }),
  );
  const a = saved as unknown as tf.io.ModelArtifacts;
  const json = {
    modelTopology: a.modelTopology,
    format: a.format,
    generatedBy: a.generatedBy,
    convertedBy: a.convertedBy,
    weightsManifest: [{ paths: ['./model.weights.bin'], weights: a.weightSpecs }],
  };
  return zipSync({
    [`${folder}/model.json`]: strToU8(JSON.stringify(json)),
    [`${folder}/model.weights.bin`]: new Uint8Array(tf.io.CompositeArrayBuffer.join(a.weightData!)),
  });
}

/** The zip's model.json and shards as dropped files are, read and checked by the lab's tfjs reader. */
async function artifactsOf(zip: ZipModel) {
  const files = zip.files.map((f) => ({
    name: f.name,
    size: f.bytes.byteLength,
    arrayBuffer: async () => f.bytes.slice().buffer,
  }));
  const { artifacts, label } = await readTfjsFiles(files);
  return sourceFromArtifacts(artifacts.weightSpecs ?? [], artifacts.weightData ?? [], label);
}

const errorOf = (run: () => unknown): string => {
  try {
    run();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return 'no error';
};

describe('a lab model in a zip', () => {
  it('reads the lab download back: architecture, size and classes, and weights that predict as before', async () => {
    const model = classifier('tiny', 32, 40, 3);
    const bytes = await labZip(model);
    const zip = readModelZip(bytes, 'tiny-32x40-tfjs.zip');
    expect(zip.info).toEqual({
      model: 'tiny',
      height: 32,
      width: 40,
      numClasses: 3,
      modelName: 'efficientnet-tiny_classifier',
      preprocessing: { imagenetLayout: false, inputScale: null },
    });
    expect(zip.files.map((f) => f.name)).toEqual(['model.json', 'weights.bin']);
    expect(zip.notes).toBeNull();
    const target = classifier('tiny', 32, 40, 3);
    const source = await artifactsOf(zip);
    const report = assignWeights(target, source);
    expect(report.missing).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.matchedParams).toBe(report.modelParams);
    const check = JSON.parse(new TextDecoder().decode(unzipSync(bytes)['check.json'])) as CheckFile;
    const input = checkInput(target);
    const out = target.predict(input) as tf.Tensor;
    Array.from(await out.data()).forEach((v, i) => expect(v).toBeCloseTo(check.output[i]!, 5));
    tf.dispose([input, out]);
    [model, target].forEach((m) => m.dispose());
  });

  it('reads what tfjs model.save wrote, zipped in a folder, with its own shard name', async () => {
    const model = classifier('mobilenetv2', 32, 48, 4);
    const zip = readModelZip(await tfjsSaveZip(model, 'export'), 'mnv2.zip');
    expect(zip.info).toMatchObject({ model: 'mobilenetv2', height: 32, width: 48, numClasses: 4 });
    expect(zip.info.preprocessing).toEqual({ imagenetLayout: false, inputScale: null });
    expect(zip.files.map((f) => f.name)).toEqual(['model.json', 'model.weights.bin']);
    const report = matchWeights(model, await artifactsOf(zip));
    expect(report.missing).toEqual([]);
    expect(report.mismatches).toEqual([]);
    model.dispose();
  });

  it('names the head that does not fit when the data set has other classes', async () => {
    const model = classifier('tiny', 32, 32, 3);
    const zip = readModelZip(await labZip(model), 'tiny.zip');
    const twoClasses = classifier('tiny', 32, 32, 2);
    const report = matchWeights(twoClasses, await artifactsOf(zip));
    // Its kernel and its bias: 2 classes where the file has 3.
    expect(report.mismatches.map((m) => `${m.layer}/${m.weight}`)).toEqual([
      'predictions/kernel',
      'predictions/bias',
    ]);
    [model, twoClasses].forEach((m) => m.dispose());
  });

  it('refuses a tfjs model that is not a lab classifier, naming the file and why', async () => {
    const other = tf.sequential({
      name: 'sequential_9',
      layers: [tf.layers.dense({ inputShape: [4], units: 2, activation: 'softmax' })],
    });
    const bytes = await tfjsSaveZip(other, 'm');
    expect(errorOf(() => readModelZip(bytes, 'other.zip'))).toBe(
      "other.zip is not a VRAM Lab model: its model is named 'sequential_9', not one of the lab's classifiers.",
    );
    other.dispose();
  });

  it('refuses a corrupt zip, a zip without model.json and a zip missing its shard', async () => {
    const model = classifier('tiny', 32, 32, 3);
    const bytes = await labZip(model);
    expect(errorOf(() => readModelZip(bytes.slice(0, bytes.length >> 1), 'cut.zip'))).toMatch(
      /^cut\.zip is not a readable zip: /,
    );
    const notes = zipSync({ 'notes.txt': strToU8('hello') });
    expect(errorOf(() => readModelZip(notes, 'notes.zip'))).toBe(
      'notes.zip holds no model.json (it holds notes.txt).',
    );
    const entries = unzipSync(bytes);
    const noShard = zipSync({ 'model.json': entries['model.json']! });
    expect(errorOf(() => readModelZip(noShard, 'half.zip'))).toBe(
      "half.zip: model.json needs the weight file 'weights.bin', which the zip does not hold.",
    );
    model.dispose();
  });

  it('refuses shards whose size does not match the shapes model.json declares', async () => {
    const model = classifier('tiny', 32, 32, 3);
    const entries = unzipSync(await labZip(model));
    const cut = zipSync({ ...entries, 'weights.bin': entries['weights.bin']!.slice(8) });
    const zip = readModelZip(cut, 'cut-weights.zip');
    await expect(artifactsOf(zip)).rejects.toThrow(/hold \d+ bytes but model.json declares \d+/);
    model.dispose();
  });

  it("adds the lab's notes and reads them back; the model and the README stay", async () => {
    const model = classifier('tiny', 32, 32, 3);
    const notes = {
      name: 'cats',
      savedAt: '2026-12-01T15:00:00.000Z',
      classes: ['a', 'b', 'c'],
      valAccuracy: 0.5,
    };
    const bytes = withLabNotes(await labZip(model), notes, 'tiny.zip');
    expect(readModelZip(bytes, 'tiny.zip').notes).toEqual(notes);
    expect(Object.keys(unzipSync(bytes)).sort()).toEqual([
      'README.txt',
      'check.json',
      'lab.json',
      'model.json',
      'weights.bin',
    ]);
    model.dispose();
  });

  it('reads how the preprocessing was built, so a reload can build the same', async () => {
    const imagenet = buildClassifier({
      id: 'tiny',
      height: 32,
      width: 32,
      includePreprocessing: true,
      imagenetLayout: true,
      numClasses: 2,
      init: 'zeros',
    }).model;
    const scaled = buildClassifier({
      id: 'mobilenetv2',
      height: 32,
      width: 32,
      includePreprocessing: true,
      inputScale: { scale: 1 / 255, offset: 0 },
      numClasses: 2,
      init: 'zeros',
    }).model;
    const infoOf = async (m: tf.LayersModel) => readModelZip(await labZip(m), 'm.zip').info.preprocessing;
    expect(await infoOf(imagenet)).toEqual({ imagenetLayout: true, inputScale: null });
    expect(await infoOf(scaled)).toEqual({
      imagenetLayout: false,
      inputScale: { scale: 1 / 255, offset: 0 },
    });
    [imagenet, scaled].forEach((m) => m.dispose());
  });

  it('names every architecture the lab builds by its Keras model name', () => {
    for (const id of ['tiny', 'b0', 'v2-b0', 'mobilenetv2'] as const) {
      const built = buildClassifier({
        id,
        height: 32,
        width: 32,
        includePreprocessing: true,
        numClasses: 2,
        init: 'zeros',
      });
      expect(modelIdOfName(built.model.name.replace(/_classifier$/, ''))).toBe(id);
      built.model.dispose();
    }
    expect(modelIdOfName('efficientnetb9')).toBeNull();
    expect(modelIdOfName('efficientnetv2-xl')).toBeNull();
  });

  it('leaks no tensor reading a zip and loading its weights', async () => {
    const model = classifier('tiny', 32, 32, 3);
    const bytes = await labZip(model);
    const round = async () => assignWeights(model, await artifactsOf(readModelZip(bytes, 't.zip')));
    await round();
    const before = tf.memory().numTensors;
    await round();
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });
});

describe('the list entry and a refused save', () => {
  it("lists a zip by the lab's notes, dropping class names that do not fit the head", async () => {
    const model = classifier('tiny', 32, 32, 3);
    const notes = { name: 'pets', savedAt: 'x', classes: ['a', 'b'], valAccuracy: 0.75 };
    const zip = readModelZip(withLabNotes(await labZip(model), notes, 't.zip'), 't.zip');
    const now = new Date('2026-12-01T16:00:00Z');
    expect(savedModelMeta(zip, 1234, now)).toEqual({
      name: 'pets',
      savedAt: '2026-12-01T16:00:00.000Z',
      model: 'tiny',
      height: 32,
      width: 32,
      numClasses: 3,
      classes: [],
      valAccuracy: 0.75,
      bytes: 1234,
    });
    const plain = readModelZip(await labZip(model), 'tiny-32x32-tfjs.zip');
    expect(savedModelMeta(plain, 1, now)).toMatchObject({ name: 'tiny-32x32-tfjs', valAccuracy: null });
    model.dispose();
  });

  it('names a full quota with the estimate, and passes other failures through', () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    expect(storageRefusal(quota, 25e6, { usage: 90e6, quota: 100e6 })).toBe(
      'The browser refused to store the model (25.0 MB): its storage quota for this site is full ' +
        '(QuotaExceededError). This site uses 90.0 MB of its 100 MB quota. Delete saved models below, ' +
        'or download the zip instead.',
    );
    expect(storageRefusal(new Error('disk on fire'), 1e6, null)).toBe(
      'The model (1.00 MB) could not be saved in this browser: disk on fire',
    );
  });
});
