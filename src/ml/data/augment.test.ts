import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUGMENT, type AugmentConfig } from '../../core/data/augment';
import { createRng } from '../../core/data/rng';
import { adjustBrightness, adjustContrast, augment, flipLeftRight } from './augment';

/** A [H, W, 3] image whose three channels are channel(v) for each value v of the [H, W] grid. */
const rgb = (grid: number[][], channel = (v: number, c: number) => v + 100 * c): tf.Tensor3D =>
  tf.tensor3d(grid.map((row) => row.map((v) => [0, 1, 2].map((c) => channel(v, c)))));

/** Channel c of img as a nested [H, W] array. */
const plane = (img: tf.Tensor3D, c: number): number[][] =>
  (img.arraySync() as number[][][]).map((row) => row.map((px) => px[c] as number));

const expectClose = (actual: number[][], expected: number[][]) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]?.[j] ?? NaN, 4)));
};

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('image ops', () => {
  it('adjustBrightness adds delta without clipping', () => {
    const out = adjustBrightness(rgb([[0, 250]]), 10);
    expectClose(plane(out, 0), [[10, 260]]);
    expectClose(plane(out, 1), [[110, 360]]);
    expectClose(plane(adjustBrightness(rgb([[0, 250]]), -10), 0), [[-10, 240]]);
  });

  it('adjustContrast scales around the per-channel mean', () => {
    // Channel 0: values 0, 10, 20, 50 → mean 20. Channel 1: +100 → mean 120.
    const img = rgb([
      [0, 10],
      [20, 50],
    ]);
    const out = adjustContrast(img, 2);
    expectClose(plane(out, 0), [
      [-20, 0],
      [20, 80],
    ]);
    expectClose(plane(out, 1), [
      [80, 100],
      [120, 180],
    ]);
    expectClose(plane(adjustContrast(img, 0), 2), [
      [220, 220],
      [220, 220],
    ]);
  });

  it('flipLeftRight reverses the width axis only', () => {
    const out = flipLeftRight(
      rgb([
        [1, 2, 3],
        [4, 5, 6],
      ]),
    );
    expectClose(plane(out, 0), [
      [3, 2, 1],
      [6, 5, 4],
    ]);
    expectClose(plane(out, 1), [
      [103, 102, 101],
      [106, 105, 104],
    ]);
  });

  it('leaks no tensors', () => {
    const img = rgb([
      [0, 10],
      [20, 30],
    ]);
    const ops: Array<() => tf.Tensor> = [
      () => adjustBrightness(img, 3),
      () => adjustContrast(img, 1.5),
      () => flipLeftRight(img),
      () => augment(img, DEFAULT_AUGMENT, createRng(1)),
      () => augment(img, { flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] }, createRng(1)),
    ];
    for (const op of ops) {
      const before = tf.memory().numTensors;
      op().dispose();
      expect(tf.memory().numTensors).toBe(before);
    }
    img.dispose();
  });
});

describe('augment', () => {
  const img = () =>
    rgb([
      [0, 10, 20],
      [30, 40, 50],
    ]);

  it('returns values equal to the input, in a new tensor, with everything off', () => {
    const off: AugmentConfig = { flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] };
    const input = img();
    const out = augment(input, off, createRng(3));
    expect(out).not.toBe(input);
    expect(out.arraySync()).toEqual(input.arraySync());
    out.dispose();
    expect(input.isDisposed).toBe(false);
  });

  it('is deterministic for a seed and varies across seeds', () => {
    const run = (seed: number) => augment(img(), DEFAULT_AUGMENT, createRng(seed)).arraySync();
    expect(run(11)).toEqual(run(11));
    expect(run(11)).not.toEqual(run(12));
  });

  it('draws flip, delta, factor in that order and applies flip → brightness → contrast', () => {
    const cfg: AugmentConfig = { flip: true, brightnessMaxDelta: 20, contrastRange: [0.5, 2] };
    const draws = createRng(5);
    const flip = draws.next() < 0.5;
    const delta = draws.uniform(-20, 20);
    const factor = draws.uniform(0.5, 2);
    const input = img();
    const expected = tf.tidy(() =>
      adjustContrast(adjustBrightness(flip ? flipLeftRight(input) : input, delta), factor),
    );
    expectClose(plane(augment(input, cfg, createRng(5)), 0), plane(expected, 0));
  });

  it('flips about half of the time', () => {
    const rng = createRng(8);
    const cfg: AugmentConfig = { flip: true, brightnessMaxDelta: 0, contrastRange: [1, 1] };
    const input = rgb([[1, 2]]);
    let flips = 0;
    for (let i = 0; i < 200; i++) {
      const out = augment(input, cfg, rng);
      if (plane(out, 0)[0]?.[0] === 2) flips++;
      out.dispose();
    }
    expect(flips).toBeGreaterThan(70);
    expect(flips).toBeLessThan(130);
  });
});
