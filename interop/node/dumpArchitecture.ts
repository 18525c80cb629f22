// Dumps the lab's keras.applications architectures as JSON: per layer its name, class, output shape and
// weights (name, shape), and the parameter total, for interop/test_architectures.py to compare with Keras.
import * as tf from '@tensorflow/tfjs';
import { buildModel, type ModelId } from '../../src/ml/models/registry';
import { cpu, readJob, writeAnswer } from './common';

interface ArchitectureJob {
  model: ModelId;
  height: number;
  width: number;
  includeTop: boolean;
  includePreprocessing: boolean;
}

function dump(job: ArchitectureJob) {
  // Zeros: a shape-only build, no random sampling, so the big variants take seconds.
  const model = buildModel({ id: job.model, ...job, init: 'zeros' });
  const layers = model.layers.map((layer) => ({
    name: layer.name,
    className: layer.getClassName(),
    outputShape: layer.outputShape,
    weights: layer.weights.map((w) => ({ name: w.originalName, shape: w.shape, trainable: w.trainable })),
  }));
  const answer = {
    name: model.name,
    layers,
    params: model.countParams(),
    trainableParams: model.trainableWeights.reduce(
      (n, w) => n + w.shape.reduce<number>((a, b) => a * (b ?? 1), 1),
      0,
    ),
  };
  model.dispose();
  return answer;
}

await cpu();
const jobs = readJob<ArchitectureJob[]>();
const before = tf.memory().numTensors;
writeAnswer(jobs.map(dump));
if (tf.memory().numTensors !== before) throw new Error('the dumps left tensors behind');
