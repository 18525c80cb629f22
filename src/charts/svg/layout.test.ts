import { describe, expect, it } from 'vitest';
import { frameOf, pathOf } from './layout';
import type { SvgLine } from './types';

const box = { width: 500, height: 220, left: 50, right: 10, top: 10, bottom: 30 };
const line = (points: [number, number][]): SvgLine => ({
  id: 'a',
  name: 'a',
  stroke: 'red',
  points: points.map(([x, y]) => ({ x, y })),
});

describe('where a line chart draws', () => {
  it('puts the first step at the left edge, the last at the right, and the values inside round ends', () => {
    const f = frameOf(
      [
        line([
          [1, 2.3],
          [50, 0.4],
        ]),
      ],
      box,
      { from: 1, integer: true },
      {},
    );
    expect(f.px(1)).toBeCloseTo(50);
    expect(f.px(50)).toBeCloseTo(490);
    expect(f.yTicks[0]).toBe(0);
    expect(f.yTicks.at(-1)).toBe(2.5);
    expect(f.py(0)).toBeCloseTo(190);
    expect(f.py(2.5)).toBeCloseTo(10);
    expect(f.xTicks.every((t) => Number.isInteger(t) && t >= 1 && t <= 50)).toBe(true);
  });

  it('covers every line, and keeps a fixed domain when given one', () => {
    const lines = [
      line([
        [0, 0.2],
        [10, 0.9],
      ]),
      line([
        [5, 0.5],
        [20, 0.7],
      ]),
    ];
    const f = frameOf(lines, box, { from: 'data' }, { domain: [0, 1] });
    expect(f.px(0)).toBeCloseTo(50);
    expect(f.px(20)).toBeCloseTo(490);
    expect(f.py(1)).toBeCloseTo(10);
    expect(f.yTicks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('starts a byte axis at zero', () => {
    const f = frameOf(
      [
        line([
          [0, 5e6],
          [3, 9e6],
        ]),
      ],
      box,
      { from: 0 },
      { fromZero: true },
    );
    expect(f.yTicks[0]).toBe(0);
    expect(f.yTicks.at(-1)).toBeGreaterThanOrEqual(9e6);
  });

  it('draws a path through the points and breaks it at a NaN', () => {
    const f = { px: (x: number) => x * 10, py: (y: number) => 100 - y };
    expect(
      pathOf(
        line([
          [1, 1],
          [2, 2],
          [3, NaN],
          [4, 4],
          [5, 5],
        ]).points,
        f,
      ),
    ).toBe('M10.0,99.0L20.0,98.0M40.0,96.0L50.0,95.0');
    expect(pathOf([], f)).toBe('');
  });
});
