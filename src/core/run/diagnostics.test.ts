import { describe, expect, it } from 'vitest';
import { classScores, confusionMatrix, misclassifiedIn, rowNormalised } from './diagnostics';

// Ten images of three classes, counted by hand:
//   true 0 (4 images): predicted 0, 0, 0, 1  → row [3, 1, 0]
//   true 1 (3 images): predicted 1, 2, 1     → row [0, 2, 1]
//   true 2 (3 images): predicted 0, 2, 2     → row [1, 0, 2]
const labels = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2];
const predicted = [0, 0, 0, 1, 1, 2, 1, 0, 2, 2];

describe('confusion matrix', () => {
  it('counts true × predicted', () => {
    expect(confusionMatrix(labels, predicted, 3)).toEqual([
      [3, 1, 0],
      [0, 2, 1],
      [1, 0, 2],
    ]);
  });

  it('has a row and a column for a class that never occurs', () => {
    expect(confusionMatrix([0, 0], [0, 1], 3)).toEqual([
      [1, 1, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });

  it('refuses labels outside the classes and unequal lengths', () => {
    expect(() => confusionMatrix([3], [0], 3)).toThrow(/outside/);
    expect(() => confusionMatrix([0], [5], 3)).toThrow(/outside/);
    expect(() => confusionMatrix([0, 1], [0], 3)).toThrow(/2 labels but 1/);
  });

  it('normalises each row to the share of its class', () => {
    const shares = rowNormalised([
      [3, 1, 0],
      [0, 0, 0],
      [1, 0, 2],
    ]);
    expect(shares[0]).toEqual([0.75, 0.25, 0]);
    expect(shares[1]).toEqual([0, 0, 0]);
    expect(shares[2]![0]).toBeCloseTo(1 / 3);
    expect(shares[2]![2]).toBeCloseTo(2 / 3);
  });
});

describe('per-class scores', () => {
  it('gives precision, recall, one-vs-rest accuracy and support as counted by hand', () => {
    const s = classScores(confusionMatrix(labels, predicted, 3));
    // class 0: TP 3, predicted-as-0 4 (3 + 1 from class 2), support 4, FP 1, FN 1 → accuracy 8/10
    expect(s[0]).toEqual({ precision: 3 / 4, recall: 3 / 4, accuracy: 0.8, support: 4 });
    // class 1: TP 2, predicted-as-1 3 (1 from class 0), support 3, FP 1, FN 1 → accuracy 8/10
    expect(s[1]).toEqual({ precision: 2 / 3, recall: 2 / 3, accuracy: 0.8, support: 3 });
    // class 2: TP 2, predicted-as-2 3 (1 from class 1), support 3, FP 1, FN 1 → accuracy 8/10
    expect(s[2]).toEqual({ precision: 2 / 3, recall: 2 / 3, accuracy: 0.8, support: 3 });
  });

  it('says NaN where nothing was predicted or nothing exists, not 0', () => {
    const s = classScores([
      [2, 0],
      [1, 0],
    ]);
    expect(s[1]!.precision).toBeNaN();
    expect(s[1]!.recall).toBe(0);
    expect(classScores([[0]])[0]!.recall).toBeNaN();
  });
});

describe('misclassified filter', () => {
  const m = (label: number, p: number, index: number) => ({
    index,
    path: `${label}/${index}.png`,
    label,
    predicted: p,
    confidence: 0.5,
    thumbnail: null,
  });
  const report = { misclassified: [m(0, 1, 3), m(1, 2, 5), m(2, 0, 7), m(0, 1, 9)] };

  it('keeps one cell, or all with no cell', () => {
    expect(misclassifiedIn(report, { label: 0, predicted: 1 }).map((x) => x.index)).toEqual([3, 9]);
    expect(misclassifiedIn(report, { label: 2, predicted: 1 })).toEqual([]);
    expect(misclassifiedIn(report, null)).toHaveLength(4);
  });
});
