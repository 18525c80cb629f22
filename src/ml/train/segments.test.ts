import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { noiseBatch, tinyClassifier } from './fixtures';
import { blockSegments, runSegment } from './segments';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** input → stem → block1a → block1b, with a residual add from block1a's input to block1b's end. */
function residualToy(): tf.LayersModel {
  const input = tf.input({ shape: [4] });
  const dense = (name: string) => tf.layers.dense({ units: 4, name });
  const stem = dense('stem_dense').apply(input) as tf.SymbolicTensor;
  const a = dense('block1a_dense').apply(stem) as tf.SymbolicTensor;
  const b = dense('block1b_dense').apply(a) as tf.SymbolicTensor;
  const added = tf.layers.add({ name: 'block1b_add' }).apply([b, stem]) as tf.SymbolicTensor;
  const c = dense('block2a_dense').apply(added) as tf.SymbolicTensor;
  const out = dense('predictions').apply(c) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: out });
}

describe('blockSegments', () => {
  it('cuts EfficientNet at block boundaries, calling every layer exactly once', () => {
    const { model } = tinyClassifier();
    const segments = blockSegments(model);
    expect(segments.map((s) => s.name)).toEqual([
      'stem',
      'block1a',
      'block2a',
      'block3a',
      'block4a',
      'block5a',
      'block6a',
      'block7a',
      'top',
    ]);
    const called = segments.flatMap((s) => s.layers.map((l) => l.name));
    expect(new Set(called).size).toBe(called.length);
    expect(called.length).toBe(model.layers.length - 1);
    segments.slice(1).forEach((s, i) => expect(s.input).toBe(segments[i]!.steps.at(-1)));
    expect(segments.at(-1)!.steps.at(-1)).toBe(model.outputs[0]);
    model.dispose();
  });

  it('never cuts inside a residual connection, even where the block name changes', () => {
    const model = residualToy();
    expect(blockSegments(model).map((s) => s.layers.map((l) => l.name))).toEqual([
      ['stem_dense'],
      ['block1a_dense', 'block1b_dense', 'block1b_add'],
      ['block2a_dense'],
      ['predictions'],
    ]);
    model.dispose();
  });

  it('running the segments one after another gives the model output', () => {
    const { model } = tinyClassifier();
    const batch = noiseBatch(2, 32, 3, 1);
    const [chained, direct] = tf.tidy(() => [
      blockSegments(model).reduce<tf.Tensor>((x, s) => runSegment(s, x, false), batch.xs),
      model.apply(batch.xs, { training: false }) as tf.Tensor,
    ]);
    expect(Array.from(chained!.dataSync())).toEqual(Array.from(direct!.dataSync()));
    tf.dispose([chained!, direct!, batch.xs, batch.ys]);
    model.dispose();
  });
});
