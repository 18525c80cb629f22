import { float32FromBits } from './half';

/**
 * Values where a binary16 conversion goes wrong if it is wrong anywhere: zeros of both signs, the
 * largest half and the first values that must overflow, the ties that round to even (up and down) in
 * the normal and the subnormal range, the smallest subnormal and what rounds to it or to zero,
 * infinities, NaN, float32 subnormals, and ordinary numbers. Odd in length, so the padding is used.
 */
export const EDGE_VALUES: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.1,
  -3.14159,
  65504, // the largest half
  65519.99, // just under the overflow threshold: rounds to 65504
  65520, // the tie between 65504 and 2^16: rounds to even, which is Infinity
  1e6,
  -1e6,
  1 + 2 ** -11, // a tie between 1 and 1 + 2^-10: rounds down to even (1)
  1 + 3 * 2 ** -11, // a tie: rounds up to even (1 + 2^-9)
  1 + 2 ** -11 + 2 ** -20, // just above the tie: rounds up
  2 ** -14, // the smallest normal half
  2 ** -14 - 2 ** -25, // rounds up across the normal boundary
  2 ** -24, // the smallest subnormal half
  2 ** -25, // a tie between 0 and 2^-24: rounds to even (0)
  2 ** -25 + 2 ** -40, // just above: the smallest subnormal
  3 * 2 ** -25, // a tie between 2^-24 and 2^-23: rounds to 2^-23
  -(5 * 2 ** -24), // a negative subnormal
  2 ** -30, // under half the smallest subnormal: 0
  float32FromBits(0x00000001), // the smallest float32 subnormal: 0
  Infinity,
  -Infinity,
  NaN,
  12345.678,
];
