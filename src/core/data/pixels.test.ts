import { describe, expect, it } from 'vitest';
import type { AugmentConfig } from './augment';
import {
  adjustBrightnessRgb,
  adjustContrastRgb,
  drawAugment,
  resizeBilinearRgb,
  toRgb,
  transformPixels,
  type Pixels,
} from './pixels';
import { createRng } from './rng';

/** An RGB image whose channel c at each grid value v is v + 100·c. */
const rgbImage = (grid: number[][]): Pixels => ({
  data: grid.flat().flatMap((v) => [v, v + 100, v + 200]),
  width: grid[0]?.length ?? 0,
  height: grid.length,
  channels: 3,
});

/** Channel c of an [h·w·3] buffer as nested rows. */
const plane = (rgb: Float32Array, width: number, c: number): number[][] => {
  const rows: number[][] = [];
  for (let i = c, x = 0; i < rgb.length; i += 3, x++) {
    if (x % width === 0) rows.push([]);
    rows[rows.length - 1]!.push(rgb[i]!);
  }
  return rows;
};

const expectClose = (actual: number[][], expected: number[][]) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]?.[j] ?? NaN, 4)));
};

const square = rgbImage([
  [0, 10],
  [20, 30],
]);

describe('toRgb', () => {
  it('drops alpha and checks the buffer length', () => {
    const rgba: Pixels = {
      data: new Uint8Array([1, 2, 3, 255, 4, 5, 6, 128]),
      width: 2,
      height: 1,
      channels: 4,
    };
    expect(Array.from(toRgb(rgba))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(() => toRgb({ data: new Uint8Array(5), width: 2, height: 1, channels: 3 })).toThrow(
      'Decoded pixel buffer has 5 values, expected 2×1×3.',
    );
  });
});

describe('resizeBilinearRgb', () => {
  it('uses half-pixel centres like TF2 tf.image.resize (2×2 → 4×4)', () => {
    const out = resizeBilinearRgb(square, 4, 4);
    expect(out).toHaveLength(4 * 4 * 3);
    expectClose(plane(out, 4, 0), [
      [0, 2.5, 7.5, 10],
      [5, 7.5, 12.5, 15],
      [15, 17.5, 22.5, 25],
      [20, 22.5, 27.5, 30],
    ]);
    expectClose(plane(out, 4, 2), [
      [200, 202.5, 207.5, 210],
      [205, 207.5, 212.5, 215],
      [215, 217.5, 222.5, 225],
      [220, 222.5, 227.5, 230],
    ]);
  });

  it('samples −1/6, 1/2, 7/6 for 2 → 3 and averages neighbours for 4 → 2', () => {
    expectClose(plane(resizeBilinearRgb(square, 3, 3), 3, 0), [
      [0, 5, 10],
      [10, 15, 20],
      [20, 25, 30],
    ]);
    // Output pixel i samples (i + 0.5)·2 − 0.5 = 0.5, 2.5: the mean of each pair.
    const wide = rgbImage([[0, 10, 20, 60]]);
    expectClose(plane(resizeBilinearRgb(wide, 1, 2), 2, 0), [[5, 40]]);
  });

  it('reads RGBA, ignoring alpha, and mirrors left-right when asked', () => {
    const rgba: Pixels = {
      data: [1, 101, 201, 9, 2, 102, 202, 9, 3, 103, 203, 9],
      width: 3,
      height: 1,
      channels: 4,
    };
    expectClose(plane(resizeBilinearRgb(rgba, 1, 3), 3, 1), [[101, 102, 103]]);
    expectClose(plane(resizeBilinearRgb(rgba, 1, 3, true), 3, 0), [[3, 2, 1]]);
    expectClose(plane(resizeBilinearRgb(square, 4, 4, true), 4, 0), [
      [10, 7.5, 2.5, 0],
      [15, 12.5, 7.5, 5],
      [25, 22.5, 17.5, 15],
      [30, 27.5, 22.5, 20],
    ]);
  });

  it('rejects a buffer of the wrong length', () => {
    expect(() => resizeBilinearRgb({ ...square, width: 3 }, 2, 2)).toThrow(/expected 3×2×3/);
  });
});

describe('brightness and contrast', () => {
  it('adjustBrightnessRgb adds delta without clipping', () => {
    const rgb = new Float32Array([0, 250, 255]);
    adjustBrightnessRgb(rgb, 10);
    expect(Array.from(rgb)).toEqual([10, 260, 265]);
    adjustBrightnessRgb(rgb, -20);
    expect(Array.from(rgb)).toEqual([-10, 240, 245]);
  });

  it('adjustContrastRgb scales around the per-channel mean, without clipping', () => {
    const rgb = resizeBilinearRgb(
      rgbImage([
        [0, 10],
        [20, 50],
      ]),
      2,
      2,
    );
    adjustContrastRgb(rgb, 2);
    expectClose(plane(rgb, 2, 0), [
      [-20, 0],
      [20, 80],
    ]);
    expectClose(plane(rgb, 2, 1), [
      [80, 100],
      [120, 180],
    ]);
    adjustContrastRgb(rgb, 0);
    expectClose(plane(rgb, 2, 2), [
      [220, 220],
      [220, 220],
    ]);
  });
});

describe('drawAugment', () => {
  const all: AugmentConfig = { flip: true, brightnessMaxDelta: 20, contrastRange: [0.5, 2] };

  it('draws flip, delta, factor in that order', () => {
    const rng = createRng(5);
    const flip = rng.next() < 0.5;
    const delta = rng.uniform(-20, 20);
    const factor = rng.uniform(0.5, 2);
    expect(drawAugment(all, createRng(5))).toEqual({ flip, brightnessDelta: delta, contrastFactor: factor });
  });

  it('turns off what the config turns off, still consuming all three draws', () => {
    const off: AugmentConfig = { flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] };
    const rng = createRng(9);
    expect(drawAugment(off, rng)).toEqual({ flip: false, brightnessDelta: null, contrastFactor: null });
    const next = createRng(9);
    next.next();
    next.next();
    next.next();
    expect(rng.next()).toBe(next.next());
    expect(drawAugment({ ...off, contrastRange: [0.9, 0.9] }, createRng(1)).contrastFactor).toBeCloseTo(0.9);
  });

  it('flips about half of the time', () => {
    const rng = createRng(8);
    const flips = Array.from({ length: 200 }, () => drawAugment(all, rng).flip).filter(Boolean).length;
    expect(flips).toBeGreaterThan(70);
    expect(flips).toBeLessThan(130);
  });
});

describe('transformPixels', () => {
  it('resizes only without a draw', () => {
    expect(transformPixels(square, 4, 4, null)).toEqual(resizeBilinearRgb(square, 4, 4));
  });

  it('applies resize → flip → brightness → contrast', () => {
    const expected = resizeBilinearRgb(square, 3, 4, true);
    adjustBrightnessRgb(expected, 7);
    adjustContrastRgb(expected, 1.5);
    const draw = { flip: true, brightnessDelta: 7, contrastFactor: 1.5 };
    expect(transformPixels(square, 3, 4, draw)).toEqual(expected);
  });
});
