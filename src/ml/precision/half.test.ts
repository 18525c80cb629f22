import { describe, expect, it } from 'vitest';
import { EDGE_VALUES } from './edgeValues';
import {
  float32Bits,
  float32BitsFromHalfBits,
  float32FromBits,
  halfBitsFromFloat32Bits,
  packHalves,
  unpackHalves,
} from './half';

/** The value of a positive finite half, 0x7c00 read as 2^16 (where overflow rounds to). */
const halfValue = (h: number) => (h === 0x7c00 ? 65536 : float32FromBits(float32BitsFromHalfBits(h)));

/**
 * An independent reference: the nearest of the positive halves (found by binary search over their
 * bits, which order like their values), ties to the even bit pattern, the sign put back.
 */
function nearestHalf(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  let lo = 0;
  let hi = 0x7c00;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (halfValue(mid) <= a) lo = mid;
    else hi = mid;
  }
  if (a >= 65536) return sign | 0x7c00;
  const dLo = a - halfValue(lo);
  const dHi = halfValue(hi) - a;
  const pick = dLo < dHi || (dLo === dHi && lo % 2 === 0) ? lo : hi;
  return sign | pick;
}

/** Seeded float32 bit patterns across every exponent (a small LCG: reproducible, no dependency). */
function randomBits(n: number): number[] {
  let s = 12345;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const hi = s;
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return ((hi & 0xffff0000) | (s >>> 16)) >>> 0;
  });
}

describe('binary16 conversion', () => {
  it('gives the IEEE bits of known values', () => {
    const bits = (v: number) => halfBitsFromFloat32Bits(float32Bits(v));
    expect(bits(1)).toBe(0x3c00);
    expect(bits(-2)).toBe(0xc000);
    expect(bits(65504)).toBe(0x7bff);
    expect(bits(65520)).toBe(0x7c00);
    expect(bits(2 ** -24)).toBe(0x0001);
    expect(bits(2 ** -14)).toBe(0x0400);
    expect(bits(0.1)).toBe(0x2e66);
    expect(bits(-0)).toBe(0x8000);
    expect(bits(Infinity)).toBe(0x7c00);
    expect(bits(-Infinity)).toBe(0xfc00);
    expect(bits(NaN) & 0x7c00).toBe(0x7c00);
    expect(bits(NaN) & 0x3ff).not.toBe(0);
  });

  it('rounds every edge value and 50,000 random float32s to the nearest half, ties to even', () => {
    const patterns = [...EDGE_VALUES.map(float32Bits), ...randomBits(50_000)];
    const wrong = patterns.filter((b) => {
      const v = float32FromBits(b);
      const got = halfBitsFromFloat32Bits(b);
      return Number.isNaN(v) ? (got & 0x7fff) <= 0x7c00 : got !== nearestHalf(v);
    });
    expect(wrong.map((b) => b.toString(16))).toEqual([]);
  });

  it('decodes every half exactly (encoding the decoded value gives the same bits)', () => {
    const wrong: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      const nan = (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
      const back = float32BitsFromHalfBits(h);
      const ok = nan ? Number.isNaN(float32FromBits(back)) : halfBitsFromFloat32Bits(back) === h;
      if (!ok) wrong.push(h);
    }
    expect(wrong).toEqual([]);
  });

  it('packs pairs low half first, pads an odd length with +0, and unpacks to the rounded values', () => {
    const values = Float32Array.from([1, -2, 65504]);
    const words = packHalves(values);
    expect(Array.from(words)).toEqual([0x3c00 | (0xc000 << 16), 0x7bff]);
    expect(Array.from(unpackHalves(words, 3))).toEqual([1, -2, 65504]);
  });
});
