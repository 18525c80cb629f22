import { describe, expect, it } from 'vitest';
import { drawnBars, MAX_BARS } from './LayerBars';
import { drawnSteps, MAX_DRAWN_STEPS } from './MetricsChart';

describe('what the charts draw of a long series', () => {
  it('thins a long per-step line to MAX_DRAWN_STEPS, keeping its spike and its dip, in step order', () => {
    const points = Array.from({ length: 5000 }, (_, i) => ({ x: i + 1, y: 1 + 0.1 * Math.sin(i) }));
    points[1234] = { x: 1235, y: 9 };
    points[4321] = { x: 4322, y: -3 };
    const drawn = drawnSteps(points);
    expect(drawn.length).toBeLessThanOrEqual(MAX_DRAWN_STEPS);
    expect(drawn.length).toBeGreaterThan(MAX_DRAWN_STEPS / 2);
    expect(Math.max(...drawn.map((p) => p.y))).toBe(9);
    expect(Math.min(...drawn.map((p) => p.y))).toBe(-3);
    expect(drawn.map((p) => p.x)).toEqual([...drawn.map((p) => p.x)].sort((a, b) => a - b));
  });

  it('draws a short line whole', () => {
    const points = [1, 2, 3].map((x) => ({ x, y: x }));
    expect(drawnSteps(points)).toEqual(points);
  });

  it('draws the largest layers and one bar for the rest, whose bytes add up', () => {
    const bars = Array.from({ length: 150 }, (_, i) => ({ layer: `l${i}`, bytes: 1000 - i }));
    const drawn = drawnBars(bars);
    expect(drawn).toHaveLength(MAX_BARS);
    expect(drawn.slice(0, -1)).toEqual(bars.slice(0, MAX_BARS - 1));
    expect(drawn.at(-1)!.layer).toBe(`${150 - MAX_BARS + 1} smaller layers`);
    const sum = (xs: { bytes: number }[]) => xs.reduce((a, b) => a + b.bytes, 0);
    expect(sum(drawn)).toBe(sum(bars));
  });
});
