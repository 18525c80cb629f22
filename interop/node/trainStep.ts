// One optimiser step of the lab's Trainer (Adam, frozen or fine-tune phase) on weights and images Python
// wrote; writes every weight after the step for interop/test_training_step.py to compare with Keras.
import * as tf from '@tensorflow/tfjs';
import { buildClassifier, type ModelId } from '../../src/ml/models/registry';
import { Trainer } from '../../src/ml/train/trainer';
import type { TrainingPhase } from '../../src/core/settings/trainConfig';
import { assignWeights } from '../../src/ml/weights';
import { cpu, readFloat32, readJob, writeAnswer } from './common';
import { manifestSource, writeModelWeights } from './manifest';

interface StepJob {
  model: ModelId;
  height: number;
  width: number;
  includePreprocessing: boolean;
  numClasses: number;
  weights: string;
  images: string;
  labels: number[];
  phase: TrainingPhase;
  learningRate: number;
  /** Fine-tune: how many of the last backbone layers train. */
  unfreeze: number;
  /** Where the weights after the step go (manifest format). */
  output: string;
}

async function step(job: StepJob) {
  // No head dropout: the step is deterministic, so it can equal Keras' exactly.
  const { model, backboneLayerCount } = buildClassifier({
    id: job.model,
    ...job,
    init: 'zeros',
    headDropout: 0,
  });
  assignWeights(model, manifestSource(job.weights), { allowMissing: false, allowUnexpected: false });
  const trainer = new Trainer(model, backboneLayerCount, { seed: 1 });
  const summary = trainer.compile(job.phase, job.learningRate, job.unfreeze);
  const n = job.labels.length;
  const xs = tf.tensor4d(readFloat32(job.images), [n, job.height, job.width, 3]);
  const ys = tf.tensor1d(job.labels, 'float32');
  const metrics = await trainer.step({ xs, ys });
  tf.dispose([xs, ys]);
  writeModelWeights(model, job.output);
  trainer.dispose();
  model.dispose();
  return { loss: metrics.loss, trainableParams: summary.trainableParams, mode: metrics.technique.mode };
}

await cpu();
const jobs = readJob<StepJob[]>();
const answers = [];
for (const job of jobs) answers.push(await step(job));
writeAnswer(answers);
