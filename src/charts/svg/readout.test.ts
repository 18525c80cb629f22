import { describe, expect, it } from 'vitest';
import { readoutRows } from './Readout';

describe('the hover readout of a line chart', () => {
  it("reads each line's point nearest the pointer, and leaves out a line without points", () => {
    const lines = [
      { id: 'b', name: 'per batch', stroke: 'red', points: [1, 2, 3, 4].map((x) => ({ x, y: x / 10 })) },
      { id: 'e', name: 'epoch', stroke: 'blue', points: [{ x: 4, y: 0.9 }] },
      { id: 'v', name: 'validation', stroke: 'green', points: [] },
    ];
    expect(readoutRows(lines, 2.2, (v) => v.toFixed(2))).toEqual([
      { id: 'b', name: 'per batch', stroke: 'red', x: 2, value: '0.20' },
      { id: 'e', name: 'epoch', stroke: 'blue', x: 4, value: '0.90' },
    ]);
  });
});
