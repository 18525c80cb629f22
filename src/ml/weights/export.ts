import * as tf from '@tensorflow/tfjs';
import type { ModelFile } from '../../core/run/protocol';
import { writeKerasH5 } from './h5';
import { nestedGroups } from './h5Layout';
import { labHeadStart } from '../models/head';

/** The weights file model.json points to (one shard: a zip holds it, so shard limits do not matter). */
export const WEIGHTS_FILE = 'weights.bin';

/** A fixed input anyone can rebuild: every pixel 127.5, as the lab feeds pixels (0–255), one image. */
export function checkInput(model: tf.LayersModel): tf.Tensor {
  const shape = model.inputs[0]!.shape.map((d) => d ?? 1);
  return tf.fill([1, ...shape.slice(1)], 127.5);
}

/** What check.json says: the fixed input's shape and value, and the model's output for it. */
export interface CheckFile {
  input: { shape: number[]; fill: number };
  output: number[];
  note: string;
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** The model's output for checkInput, in inference mode. */
async function checkFile(model: tf.LayersModel): Promise<CheckFile> {
  const input = checkInput(model);
  const output = tf.tidy(() => model.predict(input) as tf.Tensor);
  try {
    return {
      input: { shape: input.shape, fill: 127.5 },
      output: Array.from(await output.data()),
      note: 'The lab’s prediction for an image whose pixels are all 127.5; a reloaded model should give the same.',
    };
  } finally {
    tf.dispose([input, output]);
  }
}

/**
 * The model in tfjs Layers format, as tf.io writes it (tf.io.withSaveHandler hands over the artifacts
 * instead of saving): model.json with its weights manifest, one weights.bin, and check.json.
 */
export async function tfjsLayersFiles(model: tf.LayersModel): Promise<ModelFile[]> {
  let artifacts: tf.io.ModelArtifacts | null = null;
  await model.save(
    tf.io.withSaveHandler(async (a) => {
      artifacts = a;
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON' } };
    }),
  );
  const a = artifacts as tf.io.ModelArtifacts | null;
  if (!a?.modelTopology || !a.weightSpecs || !a.weightData) throw new Error('tfjs saved no weights.');
  const weights = new Uint8Array(tf.io.CompositeArrayBuffer.join(a.weightData));
  const modelJson = {
    modelTopology: a.modelTopology,
    format: a.format ?? 'layers-model',
    generatedBy: a.generatedBy,
    convertedBy: null,
    weightsManifest: [{ paths: [WEIGHTS_FILE], weights: a.weightSpecs }],
  };
  return [
    { name: 'model.json', bytes: encode(modelJson) },
    { name: WEIGHTS_FILE, bytes: weights },
    { name: 'check.json', bytes: encode(await checkFile(model)) },
  ];
}

/**
 * The weights in Keras's HDF5 layout, the one the lab itself reads (see ml/weights/h5 writeKerasH5). Named
 * '.h5', not '.weights.h5': Keras 3 reads '.weights.h5' as its own newer layout. A classifier with the
 * seed's head is written as the generated Keras script's nested model (the backbone as one layer named as
 * Keras names it, e.g. 'efficientnetb0'), so `model.load_weights` works on what `build_model` returns;
 * any other model flat, as keras.applications builds it.
 */
export async function kerasH5Files(model: tf.LayersModel): Promise<ModelFile[]> {
  const headStart = labHeadStart(model);
  const base = model.name.replace(/_classifier$/, '');
  const groups = headStart === null ? undefined : nestedGroups(model, headStart, base);
  return [{ name: `${model.name}.h5`, bytes: await writeKerasH5(model, groups) }];
}
