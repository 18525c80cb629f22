import { describe, expect, it } from 'vitest';
import { nearestIndex, niceStep, niceTicks, scale, stepDecimals, stepFormat } from './ticks';

describe('axis ticks of the line charts', () => {
  it('picks 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(10, 5)).toBe(2);
    expect(niceStep(1, 5)).toBeCloseTo(0.2);
    expect(niceStep(730, 5)).toBe(200);
    expect(niceStep(3, 5, true)).toBe(1);
  });

  it('extends a value axis to round ends that contain the data', () => {
    const { ticks, domain } = niceTicks(0.37, 2.41, 5, { extend: true });
    expect(domain).toEqual([0, 2.5]);
    expect(ticks).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
  });

  it('keeps a step axis inside the data, in whole steps', () => {
    const { ticks, domain } = niceTicks(1, 37, 5, { integer: true });
    expect(domain).toEqual([1, 37]);
    expect(ticks).toEqual([10, 20, 30]);
    expect(niceTicks(1, 3, 5, { integer: true }).ticks).toEqual([1, 2, 3]);
  });

  it('gives a flat series an axis around its value', () => {
    const { ticks, domain } = niceTicks(5, 5, 5, { extend: true });
    expect(domain[0]).toBeLessThan(5);
    expect(domain[1]).toBeGreaterThan(5);
    expect(ticks).toContain(5);
    expect(niceTicks(0, 0, 5, { extend: true }).domain).toEqual([-1, 1]);
  });

  it('writes decimal ticks without floating-point noise', () => {
    expect(niceTicks(0, 0.3, 3, { extend: true }).ticks).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it('maps values to pixels, also backwards', () => {
    const y = scale([0, 10], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(10)).toBe(0);
    expect(y(2.5)).toBe(150);
    expect(scale([3, 3], [0, 100])(3)).toBe(0);
  });

  it('finds the nearest point by x', () => {
    const xs = [1, 2, 4, 8];
    expect(nearestIndex(xs, 0)).toBe(0);
    expect(nearestIndex(xs, 2.9)).toBe(1);
    expect(nearestIndex(xs, 3.1)).toBe(2);
    expect(nearestIndex(xs, 100)).toBe(3);
    expect(nearestIndex([], 1)).toBe(-1);
  });
});

describe('tick labels', () => {
  it('carry the decimals their step needs and no more', () => {
    const { ticks } = niceTicks(1.0962, 1.1031, 5, { extend: true });
    const step = ticks[1]! - ticks[0]!;
    const labels = ticks.map((t) => stepFormat(t, step));
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('1.1');
    expect(stepDecimals(0.005)).toBe(3);
    expect(stepDecimals(0.1)).toBe(1);
    expect(stepDecimals(20)).toBe(0);
  });
});
