import { describe, expect, it } from 'vitest';
import type { SweepRow } from '../../core/sweep/sweep';
import { MIN_TICK_GAP, nearestX, spacedTicks, sweepFrame, X_PAD } from './frame';
import { oomMarks, sweepSeries } from './series';

const BOX = { width: 480, height: 260, left: 72, right: 16, top: 8, bottom: 36 };
const MB = 1e6;

describe('the sweep chart frame', () => {
  it('puts the first and last swept value X_PAD inside the plot and spaces the rest linearly', () => {
    const rows: SweepRow[] = [2, 4, 8].map((x) => ({ x, predicted: x * MB }));
    const f = sweepFrame(rows, null, BOX);
    expect(f.px(2)).toBe(BOX.left + X_PAD);
    expect(f.px(8)).toBe(BOX.left + f.width - X_PAD);
    expect(f.px(4) - f.px(2)).toBeCloseTo((f.px(8) - f.px(4)) / 2, 6);
  });

  it('puts a single swept value in the middle', () => {
    const f = sweepFrame([{ x: 16, predicted: MB }], null, BOX);
    expect(f.px(16)).toBe(BOX.left + f.width / 2);
    expect(f.xTicks).toEqual([16]);
  });

  it('drops the x labels that would collide, keeping the last, on a batch axis of powers of two', () => {
    const xs = [1, 2, 4, 8, 16, 32, 64];
    const f = sweepFrame(
      xs.map((x) => ({ x, predicted: x * MB })),
      null,
      BOX,
    );
    expect(f.xTicks.at(-1)).toBe(64);
    expect(f.xTicks).toContain(32);
    expect(f.xTicks.length).toBeLessThan(xs.length);
    const px = f.xTicks.map(f.px);
    for (let i = 1; i < px.length; i++) expect(px[i]! - px[i - 1]!).toBeGreaterThanOrEqual(MIN_TICK_GAP);
  });

  it('keeps every label when there is room', () => {
    expect(spacedTicks([1, 2, 3], (x) => x * 100)).toEqual([1, 2, 3]);
    expect(spacedTicks([1, 2, 3], (x) => x * 15)).toEqual([1, 3]);
    expect(spacedTicks([1, 2, 3], (x) => x * 10)).toEqual([3]);
  });

  it('is linear from 0 with the card inside when the values are of one size', () => {
    const rows: SweepRow[] = [
      { x: 1, measured: 30 * MB, predicted: 32 * MB },
      { x: 2, measured: 55 * MB, predicted: 60 * MB },
    ];
    const f = sweepFrame(rows, 100 * MB, BOX);
    expect(f.log).toBe(false);
    expect(f.floor).toBe(0);
    expect(f.yTicks[0]).toBe(0);
    expect(f.yTicks.at(-1)).toBeGreaterThanOrEqual(100 * MB);
    const bottom = BOX.top + f.height;
    expect(f.py(0)).toBe(bottom);
    expect(f.py(100 * MB)).toBeGreaterThanOrEqual(BOX.top);
    expect(f.py(55 * MB)).toBeLessThan(f.py(30 * MB));
  });

  it('is logarithmic over whole decades when a 16 GB card sits under an 800 GB curve', () => {
    const rows: SweepRow[] = [
      { x: 1, predicted: 2e9 },
      { x: 64, predicted: 8e11 },
    ];
    const f = sweepFrame(rows, 16e9, BOX);
    expect(f.log).toBe(true);
    expect(f.floor).toBe(1e9);
    expect(f.py(1e9)).toBe(BOX.top + f.height);
    expect(f.py(1e12)).toBe(BOX.top);
    // Equal ratios are equal distances.
    expect(f.py(1e9) - f.py(1e10)).toBeCloseTo(f.py(1e10) - f.py(1e11), 6);
    // A zero (an ✕ with nothing to stand on) lies on the floor instead of off the chart.
    expect(f.py(0)).toBe(f.py(1e9));
  });

  it('finds the swept value nearest to the pointer', () => {
    const px = (x: number) => x * 10;
    expect(nearestX([1, 2, 4, 8], 33, px)).toBe(4);
    expect(nearestX([1, 2, 4, 8], 0, px)).toBe(1);
    expect(nearestX([], 0, px)).toBeUndefined();
  });
});

describe('what the sweep chart draws', () => {
  const rows: SweepRow[] = [
    { x: 1, measured: 10 * MB, predicted: 11 * MB, keras: 20 * MB },
    { x: 2, predicted: 21 * MB, oom: true },
    { x: 4, measured: 40 * MB, predicted: 41 * MB, keras: 80 * MB, oom: true },
  ];

  it('breaks the measured line where a point did not run and joins the predictions across it', () => {
    const lines = sweepSeries(rows, false, 'webgpu');
    const measured = lines.find((l) => l.id === 'measured')!;
    expect(measured.name).toBe('measured · webgpu');
    expect(measured.points.map((p) => p.x)).toEqual([1, 2, 4]);
    expect(measured.points[1]!.y).toBeNaN();
    expect(lines.find((l) => l.id === 'predicted')!.points).toHaveLength(3);
    expect(lines.find((l) => l.id === 'keras')!.points.map((p) => p.x)).toEqual([1, 4]);
    expect(lines.find((l) => l.id === 'kerasMixed')!.points).toEqual([]);
  });

  it('leaves out the measured line when only predictions are shown', () => {
    expect(sweepSeries(rows, true, '').map((l) => l.id)).toEqual(['predicted', 'keras', 'kerasMixed']);
  });

  it('puts each ✕ at the card when one is set, else at the predicted peak', () => {
    expect(oomMarks(rows, 30 * MB)).toEqual([
      { x: 2, y: 30 * MB },
      { x: 4, y: 30 * MB },
    ]);
    expect(oomMarks(rows, null)).toEqual([
      { x: 2, y: 21 * MB },
      { x: 4, y: 41 * MB },
    ]);
    expect(
      oomMarks(
        [
          { x: 8, measured: 5 * MB },
          { x: 16, oom: true },
        ],
        null,
      ),
    ).toEqual([{ x: 16, y: 5 * MB }]);
  });

  it('draws a card of 1e308 MB (Infinity bytes; the tick loop never ended) and of 1e302 bytes on a finite axis', () => {
    const rows: SweepRow[] = [2, 4, 8].map((x) => ({ x, predicted: x * MB }));
    for (const card of [1e308 * 1e6, 1e302, Number.NaN]) {
      const f = sweepFrame(rows, card, BOX);
      expect(f.yTicks.length, `ticks for a ${card} B card`).toBeGreaterThan(0);
      expect(f.yTicks.length).toBeLessThan(400);
      for (const t of f.yTicks) expect(Number.isFinite(f.py(t)), `tick ${t}`).toBe(true);
    }
  });
});
