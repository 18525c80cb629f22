import { describe, expect, it } from 'vitest';
import { DEFAULT_AUGMENT, validateAugment, type AugmentConfig } from './augment';

const withChanges = (c: Partial<AugmentConfig>): AugmentConfig => ({ ...DEFAULT_AUGMENT, ...c });

describe('validateAugment', () => {
  it('accepts the defaults and the all-off config', () => {
    expect(DEFAULT_AUGMENT).toEqual({ flip: true, brightnessMaxDelta: 0.5, contrastRange: [0.5, 1.5] });
    expect(validateAugment(DEFAULT_AUGMENT)).toEqual([]);
    expect(validateAugment({ flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] })).toEqual([]);
  });

  it('reports a negative or non-finite brightness delta', () => {
    expect(validateAugment(withChanges({ brightnessMaxDelta: -1 }))).toEqual([
      'Brightness max delta must be a number ≥ 0 (got -1).',
    ]);
    expect(validateAugment(withChanges({ brightnessMaxDelta: Number.NaN }))).toHaveLength(1);
  });

  it('reports a bad contrast range', () => {
    expect(validateAugment(withChanges({ contrastRange: [1.5, 0.5] }))).toEqual([
      'Contrast lower bound 1.5 is above the upper bound 0.5.',
    ]);
    expect(validateAugment(withChanges({ contrastRange: [-0.5, 1] }))).toEqual([
      'Contrast lower bound must be ≥ 0 (got -0.5).',
    ]);
    expect(validateAugment(withChanges({ contrastRange: [0, Infinity] }))).toHaveLength(1);
  });

  it('lists every problem at once', () => {
    expect(validateAugment({ flip: true, brightnessMaxDelta: -1, contrastRange: [-2, -3] })).toHaveLength(3);
  });
});
