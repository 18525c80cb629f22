// Writes the lab's Keras script for settings Python chose, exactly as the results panel does: the lab's
// default settings with the job's changes, checked by the lab's validator, the model described by the
// planner's path (built with zero weights, described, freed), then core/export/kerasScript. interop/
// test_keras_script.py runs what it writes.
import { writeFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { kerasScript, kerasScriptInputFor, type KerasRemedies } from '../../src/core/export/kerasScript';
import { DEFAULT_TRAIN_CONFIG, validateTrainConfig } from '../../src/core/settings/settings';
import type { TrainConfig } from '../../src/core/settings/trainConfig';
import { describeModel } from '../../src/ml/memory/describe';
import { buildClassifier } from '../../src/ml/models/registry';
import { cpu, readJob, writeAnswer } from './common';

interface ScriptJob {
  /** Changes to the lab's default settings. */
  settings: Partial<TrainConfig>;
  classNames: string[];
  manifest: string | null;
  remedies: KerasRemedies;
  /** Where the script goes. */
  output: string;
}

function write(job: ScriptJob) {
  const config: TrainConfig = { ...DEFAULT_TRAIN_CONFIG, ...job.settings };
  const problems = validateTrainConfig(config);
  if (problems.length > 0) throw new Error(`the lab refuses these settings: ${problems.join('; ')}`);
  const built = buildClassifier({
    id: config.model,
    height: config.height,
    width: config.width,
    includePreprocessing: true,
    numClasses: job.classNames.length,
    init: 'zeros',
  });
  const spec = describeModel(built.model, built.backboneLayerCount);
  built.model.dispose();
  const { classNames, manifest, remedies } = job;
  const input = kerasScriptInputFor({ config, spec, classNames, manifest, remedies });
  writeFileSync(job.output, kerasScript(input));
  return { unfrozen: input.unfrozen, prediction: input.prediction };
}

await cpu();
const jobs = readJob<ScriptJob[]>();
const before = tf.memory().numTensors;
writeAnswer(jobs.map(write));
if (tf.memory().numTensors !== before) throw new Error('describing the models left tensors behind');
