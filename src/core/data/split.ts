import { createRng } from './rng';

/** One file found in the dropped folder. */
export interface LabelledItem {
  /** Path relative to the dropped folder, e.g. 'cats/a/1.png'. */
  path: string;
  /** Class index. */
  label: number;
}

/** The two halves of a split; each keeps the input's relative order. */
export interface Split<T> {
  /** Items to train on. */
  train: T[];
  /** Held-out items to validate on. */
  validation: T[];
}

/**
 * Splits each class separately so both halves keep the class proportions of the whole set.
 * Per class: round(n·fraction) go to validation, but at least one stays in train, and a class with
 * two or more items gets at least one validation item when fraction > 0 (so no class goes unmeasured).
 */
export function stratifiedSplit<T extends { label: number }>(
  items: readonly T[],
  validationFraction: number,
  seed: number,
): Split<T> {
  if (!(validationFraction >= 0 && validationFraction < 1)) {
    throw new RangeError(`Validation fraction must be in [0, 1) (got ${validationFraction}).`);
  }
  const byClass = new Map<number, number[]>();
  items.forEach((item, i) => {
    const indices = byClass.get(item.label);
    if (indices) indices.push(i);
    else byClass.set(item.label, [i]);
  });
  const rng = createRng(seed);
  // Flags, not a Set: 20,000 items split in a few milliseconds instead of tens (the page splits a
  // dropped folder as it shows its classes).
  const inValidation = new Uint8Array(items.length);
  for (const indices of byClass.values()) {
    const n = indices.length;
    let count = Math.round(n * validationFraction);
    if (n >= 2 && validationFraction > 0) count = Math.max(count, 1);
    count = Math.min(count, n - 1);
    for (const i of rng.shuffle(indices).slice(0, count)) inValidation[i] = 1;
  }
  return {
    train: items.filter((_, i) => inValidation[i] === 0),
    validation: items.filter((_, i) => inValidation[i] === 1),
  };
}
