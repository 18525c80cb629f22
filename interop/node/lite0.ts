// The lab's EfficientNet-Lite0 (tfjs CPU, inference mode) on images Python wrote: built by the registry,
// filled either from a float32 manifest (the checkpoint's values as Keras holds them) or from the
// packaged, quantised weights the lab ships, then its top_activation map and ImageNet logits (the
// predictions layer before its softmax) written as float32 for interop/test_lite0.py.
import * as tf from '@tensorflow/tfjs';
import { readFile } from 'node:fs/promises';
import { buildModel } from '../../src/ml/models/registry';
import { assignWeights, type WeightSource } from '../../src/ml/weights';
import { lite0Weights } from '../../src/ml/weights/lite0';
import { cpu, readFloat32, readJob, writeAnswer, writeFloat32 } from './common';
import { manifestSource } from './manifest';

interface Lite0Job {
  height: number;
  width: number;
  /** A weight manifest (values in `<weights>.bin`), or 'packaged' for the lab's shipped weights. */
  weights: string;
  /** Images, [count, height, width, 3] float32 in 0-255. */
  images: string;
  count: number;
  /** Where the logits ([count, 1000]) and the features ([count, h/32, w/32, 1280]) go. */
  logits: string;
  features: string;
}

async function source(weights: string): Promise<WeightSource> {
  if (weights !== 'packaged') return manifestSource(weights);
  return lite0Weights(async (url) => {
    const bytes = await readFile(url);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  });
}

async function run(job: Lite0Job) {
  const model = buildModel({
    id: 'lite0',
    ...job,
    includeTop: true,
    includePreprocessing: true,
    init: 'zeros',
  });
  const report = assignWeights(model, await source(job.weights));
  const both = tf.model({
    inputs: model.inputs,
    outputs: [
      model.getLayer('avg_pool').output,
      model.getLayer('top_activation').output,
    ] as tf.SymbolicTensor[],
  });
  const [kernel, bias] = model.getLayer('predictions').getWeights();
  tf.tidy(() => {
    const xs = tf.tensor4d(readFloat32(job.images), [job.count, job.height, job.width, 3]);
    const [pooled, features] = both.predict(xs) as tf.Tensor[];
    const logits = tf.add(tf.matMul(pooled as tf.Tensor2D, kernel as tf.Tensor2D), bias!);
    writeFloat32(job.logits, logits.dataSync() as Float32Array);
    writeFloat32(job.features, features!.dataSync() as Float32Array);
  });
  model.dispose();
  return { matchedParams: report.matchedParams, missing: report.missing };
}

await cpu();
const jobs = readJob<Lite0Job[]>();
const before = tf.memory().numTensors;
const answers = [];
for (const job of jobs) answers.push(await run(job));
writeAnswer(answers);
if (tf.memory().numTensors !== before) throw new Error('the Lite0 passes left tensors behind');
