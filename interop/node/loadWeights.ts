// Loads weight files Keras wrote (legacy .h5, Keras 3 .weights.h5, .keras) into the lab's models with
// the lab's own loader, and writes the match report and every loaded weight for
// interop/test_weight_files.py to compare with the values Keras saved.
import { readFileSync } from 'node:fs';
import { buildModel, type ModelId } from '../../src/ml/models/registry';
import { loadKerasH5Weights, WeightLoadError } from '../../src/ml/weights';
import { openKerasH5 } from '../../src/ml/weights/h5';
import { cpu, readJob, writeAnswer } from './common';
import { writeModelWeights } from './manifest';

interface LoadJob {
  model: ModelId;
  height: number;
  width: number;
  includeTop: boolean;
  includePreprocessing: boolean;
  numClasses: number;
  file: string;
  /** Where the loaded weights go (manifest format). */
  output: string;
}

async function load(job: LoadJob) {
  const bytes = new Uint8Array(readFileSync(job.file));
  const label = job.file.slice(job.file.lastIndexOf('/') + 1);
  const opened = await openKerasH5(bytes, label);
  const format = opened.format;
  const kerasVersion = opened.kerasVersion;
  opened.close();
  const model = buildModel({ id: job.model, ...job, init: 'zeros' });
  try {
    const report = await loadKerasH5Weights(model, bytes, label);
    writeModelWeights(model, job.output);
    const pairedBy = [...new Set(report.matched.map((m) => m.pairedBy))];
    const { missing, unexpected, mismatches, matchedParams, modelParams } = report;
    return {
      format,
      kerasVersion,
      matched: report.matched.length,
      pairedBy,
      missing,
      unexpected,
      mismatches,
      matchedParams,
      modelParams,
    };
  } catch (thrown) {
    if (!(thrown instanceof WeightLoadError)) throw thrown;
    return {
      format,
      kerasVersion,
      error: thrown.kind,
      message: thrown.message,
      mismatches: thrown.report?.mismatches ?? [],
    };
  } finally {
    model.dispose();
  }
}

await cpu();
const jobs = readJob<LoadJob[]>();
const answers = [];
for (const job of jobs) answers.push(await load(job));
writeAnswer(answers);
