import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { assignWeights, matchWeights, pairedByStructure, reportError, reportHeadline } from './report';
import type { WeightSource } from './source';

/** conv 'stem' → dense 'head_dense' → dense 'predictions', the names the lab's models use. */
function model(): tf.LayersModel {
  const input = tf.input({ shape: [4, 4, 1], name: 'input_layer' });
  let x = tf.layers.conv2d({ filters: 2, kernelSize: 3, name: 'stem' }).apply(input) as tf.SymbolicTensor;
  x = tf.layers.flatten({ name: 'flat' }).apply(x) as tf.SymbolicTensor;
  x = tf.layers.dense({ units: 3, name: 'head_dense' }).apply(x) as tf.SymbolicTensor;
  const out = tf.layers.dense({ units: 2, name: 'predictions' }).apply(x) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: out });
}

const filled = (name: string, shape: number[], value: number) => ({
  name,
  shape,
  read: () => new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(value),
});
/** The same model saved as Keras names an unnamed head: dense, dense_1. */
const kerasNamed = (stem = 'stem'): WeightSource => ({
  label: 'seed.h5',
  layers: [
    {
      name: stem,
      weights: [filled(`${stem}/kernel:0`, [3, 3, 1, 2], 0.5), filled(`${stem}/bias:0`, [2], 0.1)],
    },
    { name: 'dense', weights: [filled('dense/kernel:0', [8, 3], 0.2), filled('dense/bias:0', [3], 0.3)] },
    {
      name: 'dense_1',
      weights: [filled('dense_1/kernel:0', [3, 2], 0.4), filled('dense_1/bias:0', [2], 0.6)],
    },
  ],
});

describe('weight report', () => {
  it('pairs a head Keras named dense/dense_1 by structure, and the headline says nothing stays random', () => {
    const m = model();
    const report = assignWeights(m, kerasNamed(), { backboneLayers: ['input_layer', 'stem', 'flat'] });
    expect(pairedByStructure(report)).toEqual(['head_dense ← dense', 'predictions ← dense_1']);
    expect(report.missing).toEqual([]);
    expect(report.unexpected).toEqual([]);
    expect(Array.from(m.getLayer('predictions').getWeights()[1]!.dataSync())).toEqual(
      [0.6, 0.6].map(Math.fround),
    );
    expect(reportHeadline(report)).toBe(
      "seed.h5 gives 55 of the model's 55 parameters (100.0%); none stays at its random initialisation.",
    );
    m.dispose();
  });

  it('does not pair by structure when the shapes differ, and counts what stays random in parameters', () => {
    const m = model();
    const source = kerasNamed();
    const wrong = {
      name: 'dense_1',
      weights: [filled('dense_1/kernel:0', [3, 5], 0), filled('dense_1/bias:0', [5], 0)],
    };
    const report = matchWeights(m, { ...source, layers: [...source.layers.slice(0, 2), wrong] });
    expect(pairedByStructure(report)).toEqual([]);
    expect(report.missing).toEqual(['head_dense', 'predictions']);
    expect(reportHeadline(report)).toBe(
      "seed.h5 gives 20 of the model's 55 parameters (36.4%); the other 35 (2 layer(s): head_dense, predictions) stay at their random initialisation.",
    );
    m.dispose();
  });

  it('refuses a file that fills only the head of a model with a backbone, naming the layers and the fix', () => {
    const m = model();
    const source = kerasNamed('other_stem');
    const only = { ...source, layers: [source.layers[0]!, { ...source.layers[1]!, name: 'head_dense' }] };
    const error = reportError(matchWeights(m, only), { backboneLayers: ['input_layer', 'stem', 'flat'] });
    expect(error?.kind).toBe('backbone-unmatched');
    expect(error?.message).toContain("fills none of the model's 1 backbone layers with weights (stem)");
    expect(error?.message).toContain('Choose the architecture the file was saved from');
    m.dispose();
  });
});
