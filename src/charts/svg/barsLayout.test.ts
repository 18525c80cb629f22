import { describe, expect, it } from 'vitest';
import { barsFrame, fitted } from './barsLayout';

const box = { width: 500, labelWidth: 170, row: 24, top: 4, right: 16, bottom: 28 };

describe('where a bar chart draws', () => {
  it('starts every bar at zero beside the labels and ends the axis at a round value above the largest', () => {
    const f = barsFrame([3_000_000, 1_200_000, 450_000], box);
    expect(f.left).toBe(170);
    expect(f.width).toBe(500 - 170 - 16);
    expect(f.px(0)).toBeCloseTo(170);
    expect(f.ticks[0]).toBe(0);
    const end = f.ticks.at(-1)!;
    expect(end).toBeGreaterThanOrEqual(3_000_000);
    expect(f.px(end)).toBeCloseTo(170 + f.width);
    expect(f.px(3_000_000)).toBeLessThanOrEqual(170 + f.width);
    expect(f.height).toBe(3 * 24);
    expect([0, 1, 2].map(f.rowTop)).toEqual([4, 28, 52]);
  });

  it('draws an empty or all-zero chart without dividing by zero', () => {
    for (const values of [[], [0, 0]]) {
      const f = barsFrame(values, box);
      expect(f.ticks[0]).toBe(0);
      expect(f.ticks.length).toBeGreaterThan(1);
      expect(Number.isFinite(f.px(0))).toBe(true);
    }
  });

  it('cuts a label too long for its room, and keeps one that fits', () => {
    expect(fitted('conv1', 162, 11)).toBe('conv1');
    const long = 'block7a_project_conv_batchnorm_relu6';
    const cut = fitted(long, 162, 11);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThan(long.length);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(cut.length * 11 * 0.6).toBeLessThanOrEqual(162 + 11);
  });
});
