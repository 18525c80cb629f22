// The lab's forward pass in inference mode (tfjs CPU) on weights and images Python wrote: builds each
// job's model, loads the manifest (every layer must match, none may be left over), predicts, and writes
// the outputs as float32 for interop/test_outputs.py. With `exportH5`, also writes the model as the lab's
// Keras .h5 download does (ml/weights/export kerasH5Files), for Keras to load.
import * as tf from '@tensorflow/tfjs';
import { writeFileSync } from 'node:fs';
import { buildModel, type ModelId } from '../../src/ml/models/registry';
import { assignWeights } from '../../src/ml/weights';
import { kerasH5Files } from '../../src/ml/weights/export';
import { cpu, readFloat32, readJob, writeAnswer, writeFloat32 } from './common';
import { manifestSource } from './manifest';

interface ForwardJob {
  model: ModelId;
  height: number;
  width: number;
  includeTop: boolean;
  includePreprocessing: boolean;
  numClasses: number;
  /** The weight manifest (values in `<weights>.bin`). */
  weights: string;
  /** Images, [n, height, width, 3] float32 in 0-255. */
  images: string;
  count: number;
  /** Where the outputs go, float32. */
  output: string;
  /** Where the lab's Keras .h5 export of the loaded model goes, if anywhere. */
  exportH5?: string;
}

async function forward(job: ForwardJob) {
  const model = buildModel({ id: job.model, ...job, init: 'zeros' });
  const report = assignWeights(model, manifestSource(job.weights), {
    allowMissing: false,
    allowUnexpected: false,
  });
  const outputShape = tf.tidy(() => {
    const xs = tf.tensor4d(readFloat32(job.images), [job.count, job.height, job.width, 3]);
    const ys = model.apply(xs, { training: false }) as tf.Tensor;
    writeFloat32(job.output, ys.dataSync() as Float32Array);
    return ys.shape;
  });
  const [h5] = job.exportH5 === undefined ? [] : await kerasH5Files(model);
  if (job.exportH5 !== undefined && h5 !== undefined) writeFileSync(job.exportH5, h5.bytes);
  model.dispose();
  return { outputShape, matchedLayers: report.matched.length, matchedParams: report.matchedParams };
}

await cpu();
const jobs = readJob<ForwardJob[]>();
const before = tf.memory().numTensors;
const answers = [];
for (const job of jobs) answers.push(await forward(job));
writeAnswer(answers);
if (tf.memory().numTensors !== before) throw new Error('the forward passes left tensors behind');
