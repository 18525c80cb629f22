import { describe, expect, it } from 'vitest';
import { stratifiedSplit, type LabelledItem } from './split';

/** counts[c] items of class c, with unique paths. */
const dataset = (counts: number[]): LabelledItem[] =>
  counts.flatMap((n, label) => Array.from({ length: n }, (_, i) => ({ path: `c${label}/${i}.png`, label })));

const countByLabel = (items: readonly LabelledItem[]): Map<number, number> => {
  const m = new Map<number, number>();
  for (const { label } of items) m.set(label, (m.get(label) ?? 0) + 1);
  return m;
};

describe('stratifiedSplit', () => {
  const items = dataset([100, 40, 10]);

  it('loses and duplicates nothing', () => {
    const { train, validation } = stratifiedSplit(items, 0.2, 1);
    const paths = [...train, ...validation].map((x) => x.path);
    expect(new Set(paths).size).toBe(items.length);
    expect(paths.sort()).toEqual(items.map((x) => x.path).sort());
  });

  it('preserves class proportions', () => {
    const { train, validation } = stratifiedSplit(items, 0.2, 1);
    expect(countByLabel(validation)).toEqual(
      new Map([
        [0, 20],
        [1, 8],
        [2, 2],
      ]),
    );
    expect(countByLabel(train)).toEqual(
      new Map([
        [0, 80],
        [1, 32],
        [2, 8],
      ]),
    );
  });

  it('is deterministic for a seed and varies across seeds', () => {
    expect(stratifiedSplit(items, 0.2, 5)).toEqual(stratifiedSplit(items, 0.2, 5));
    expect(stratifiedSplit(items, 0.2, 5).validation).not.toEqual(stratifiedSplit(items, 0.2, 6).validation);
  });

  it('keeps one train item per class and gives small classes a validation item', () => {
    const { train, validation } = stratifiedSplit(dataset([1, 2, 3]), 0.1, 0);
    expect(countByLabel(train)).toEqual(
      new Map([
        [0, 1],
        [1, 1],
        [2, 2],
      ]),
    );
    expect(countByLabel(validation)).toEqual(
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
    expect(countByLabel(stratifiedSplit(dataset([4]), 0.95, 0).train).get(0)).toBe(1);
  });

  it('puts everything in train for fraction 0', () => {
    const { train, validation } = stratifiedSplit(items, 0, 3);
    expect(train).toEqual(items);
    expect(validation).toEqual([]);
  });

  it('rejects fractions outside [0, 1)', () => {
    for (const f of [-0.1, 1, 1.5, Number.NaN]) {
      expect(() => stratifiedSplit(items, f, 0)).toThrow(/Validation fraction must be in \[0, 1\)/);
    }
  });
});
