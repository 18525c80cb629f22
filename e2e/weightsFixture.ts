/**
 * Keras-layout .h5 weight files for the e2e tests, written in Node with the same h5wasm the lab reads
 * them with, from a model built by the lab's own builder (nothing is downloaded).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { buildClassifier } from '../src/ml/models/registry';
import { writeKerasH5 } from '../src/ml/weights/h5';

/** Writes `<name>` for the Tiny classifier at `size` with `numClasses` outputs; returns its path. */
export async function writeTinyH5(
  dir: string,
  name: string,
  size: number,
  numClasses: number,
): Promise<string> {
  await tf.setBackend('cpu');
  const { model } = buildClassifier({
    id: 'tiny',
    height: size,
    width: size,
    includePreprocessing: true,
    imagenetLayout: true,
    numClasses,
    seed: 7,
  });
  try {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, await writeKerasH5(model));
    return path;
  } finally {
    model.dispose();
  }
}
