// A graph model as tensorflowjs_converter wrote it, served as the lab's frozen backbone: loads model.json
// and its shards from disk (as tf.io.browserFiles does from dropped files), checks it with the lab's
// ml/models/graphBackbone, writes its features of the images Python wrote, then trains the lab's head on
// those features for a few frozen-phase steps with the lab's Trainer. For interop/test_graph_model.py.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { graphClassifier, graphFeatures, loadGraphBackbone } from '../../src/ml/models/graphBackbone';
import { Trainer } from '../../src/ml/train/trainer';
import { cpu, readFloat32, readJob, writeAnswer, writeFloat32 } from './common';

interface GraphJob {
  /** The converter's model.json; its weight shards lie beside it. */
  modelJson: string;
  /** Images, [count, height, width, 3] float32 in 0-255. */
  images: string;
  count: number;
  /** A label per image, for the head's training steps. */
  labels: number[];
  steps: number;
  learningRate: number;
  /** Where the features go, float32. */
  output: string;
}

/** The converter's files as one in-memory artifact: topology, weight specs in shard order, all bytes. */
function artifactsFromDisk(modelJson: string): tf.io.ModelArtifacts {
  const json = JSON.parse(readFileSync(modelJson, 'utf8')) as tf.io.ModelJSON;
  const groups = json.weightsManifest;
  const shards = groups.flatMap((g) => g.paths.map((p) => readFileSync(join(dirname(modelJson), p))));
  const all = Buffer.concat(shards);
  return {
    ...json,
    weightSpecs: groups.flatMap((g) => g.weights),
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
  };
}

async function run(job: GraphJob) {
  const backbone = await loadGraphBackbone(tf.io.fromMemory(artifactsFromDisk(job.modelJson)));
  const { height, width, featureShape } = backbone;
  const xs = tf.tensor4d(readFloat32(job.images), [job.count, height, width, 3]);
  const ys = tf.tensor1d(job.labels, 'int32');
  const features = graphFeatures(backbone, xs);
  writeFloat32(job.output, features.dataSync() as Float32Array);
  const { model, backboneLayerCount } = graphClassifier(backbone, Math.max(...job.labels) + 1, 1);
  const trainer = new Trainer(model, backboneLayerCount, { seed: 1 });
  const summary = trainer.compile('frozen', job.learningRate, 0);
  const losses: number[] = [];
  const tensorsAfterStep: number[] = [];
  for (let i = 0; i < job.steps; i++) {
    // The graph runs outside the step, as the frozen phase's backbone does: the step sees features only.
    const batch = graphFeatures(backbone, xs);
    const metrics = await trainer.step({ ys, features: batch });
    batch.dispose();
    losses.push(metrics.loss);
    tensorsAfterStep.push(tf.memory().numTensors);
  }
  trainer.dispose();
  model.dispose();
  tf.dispose([xs, ys, features]);
  backbone.graph.dispose();
  return { height, width, featureShape, losses, tensorsAfterStep, headParams: summary.trainableParams };
}

await cpu();
const job = readJob<GraphJob>();
const before = tf.memory().numTensors;
writeAnswer(await run(job));
if (tf.memory().numTensors !== before) throw new Error('the graph model run left tensors behind');
