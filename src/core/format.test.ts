import { describe, expect, it } from 'vitest';
import { count } from './format';

describe('count', () => {
  it('writes thousands separators, as en-US does, whatever the machine locale', () => {
    expect(count(0)).toBe('0');
    expect(count(999)).toBe('999');
    expect(count(6_084_054)).toBe('6,084,054');
    expect(count(-1234.5)).toBe('-1,234.5');
  });
});
