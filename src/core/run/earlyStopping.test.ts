import { describe, expect, it } from 'vitest';
import { EarlyStopping } from './earlyStopping';

describe('EarlyStopping', () => {
  it('stops after `patience` epochs without improvement, as Keras does', () => {
    const es = new EarlyStopping(2);
    expect([1.0, 0.8, 0.9, 0.85].map((v) => es.update(v))).toEqual([false, false, false, true]);
    expect(es.bestValue).toBe(0.8);
  });
  it('resets the wait on an improvement and treats NaN as no improvement', () => {
    const es = new EarlyStopping(2);
    expect([1.0, 1.1, 0.5, Number.NaN, 0.6].map((v) => es.update(v))).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
  });
});
