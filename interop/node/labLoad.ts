// Loads Keras files into the lab's classifier the way a run does (browser/weights SessionWeights: the
// file read as dropped, its preprocessing decided from it, the backbone named so a head-only match is
// refused), predicts fixed images in inference mode, and can write the lab's .h5 export of the loaded
// model, for interop/test_keras_files.py.
import * as tf from '@tensorflow/tfjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { SessionWeights } from '../../src/browser/weights';
import { buildClassifier, type ModelId } from '../../src/ml/models/registry';
import { kerasH5Files } from '../../src/ml/weights/export';
import { cpu, readFloat32, readJob, writeAnswer, writeFloat32 } from './common';

interface LabLoadJob {
  model: ModelId;
  height: number;
  width: number;
  numClasses: number;
  /** The Keras file. */
  file: string;
  /** Images, [count, height, width, 3] float32 in 0-255. */
  images: string;
  count: number;
  /** Where the outputs go, float32. */
  output: string;
  /** Where the lab's Keras .h5 export of the loaded model goes, if anywhere. */
  exportH5?: string;
}

async function labLoad(job: LabLoadJob) {
  const weights = new SessionWeights();
  const name = job.file.slice(job.file.lastIndexOf('/') + 1);
  await weights.load({ files: [new File([readFileSync(job.file)], name)] });
  const saved = weights.preprocessingFor('file');
  const built = buildClassifier({
    id: job.model,
    height: job.height,
    width: job.width,
    includePreprocessing: true,
    imagenetLayout: saved?.imagenetLayout ?? true,
    numClasses: job.numClasses,
    init: 'zeros',
  });
  const backbone = built.model.layers.slice(0, built.backboneLayerCount).map((l) => l.name);
  try {
    const report = await weights.apply(built.model, 'file', backbone);
    tf.tidy(() => {
      const xs = tf.tensor4d(readFloat32(job.images), [job.count, job.height, job.width, 3]);
      const ys = built.model.apply(xs, { training: false }) as tf.Tensor;
      writeFloat32(job.output, ys.dataSync() as Float32Array);
    });
    const [h5] = job.exportH5 === undefined ? [] : await kerasH5Files(built.model);
    if (job.exportH5 !== undefined && h5 !== undefined) writeFileSync(job.exportH5, h5.bytes);
    return { imagenetLayout: saved?.imagenetLayout ?? null, ...report };
  } catch (thrown) {
    return { error: thrown instanceof Error ? thrown.message : String(thrown) };
  } finally {
    built.model.dispose();
  }
}

await cpu();
const jobs = readJob<LabLoadJob[]>();
const answers = [];
for (const job of jobs) answers.push(await labLoad(job));
writeAnswer(answers);
