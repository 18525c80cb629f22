/**
 * IEEE 754 binary16 conversion in plain integer arithmetic: the reference the kernels are tested
 * against, and the cpu kernels' implementation. The shaders (shaders.ts) do the same steps with the
 * same constants, so every backend rounds alike instead of trusting the GPU's own conversion (WGSL's
 * pack2x16float and GLSL's packHalf2x16 leave the rounding mode and out-of-range results to the driver).
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The bits of the float32 nearest to `value` (what a Float32Array holds). */
export function float32Bits(value: number): number {
  f32[0] = value;
  return u32[0]!;
}

/** The float32 whose bits are `bits`. */
export function float32FromBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0]!;
}

/**
 * The binary16 bits of a float32 given by its bits, rounded to nearest with ties to even: values past
 * the largest half (65504, or 65520 and up once rounded) become ±Infinity, values under half the
 * smallest subnormal (2^-25) become ±0, NaN stays NaN (quiet, its top payload bits kept).
 */
export function halfBitsFromFloat32Bits(bits: number): number {
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 | (mantissa >>> 13) : 0);
  // The exponent rebiased from 127 to 15.
  const e = exponent - 112;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    // A subnormal half (or zero): the 24-bit significand shifted down to units of 2^-24.
    if (e < -10) return sign;
    const significand = mantissa | 0x800000;
    const shift = 14 - e;
    const kept = significand >>> shift;
    const rest = significand & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    const up = rest > halfway || (rest === halfway && (kept & 1) === 1);
    return sign | (kept + (up ? 1 : 0));
  }
  const half = sign | (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa moves into the exponent, and from 30 to 31 gives Infinity: right.
  const up = rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1);
  return half + (up ? 1 : 0);
}

/** The float32 bits of a binary16 (exact: every half is a float32). */
export function float32BitsFromHalfBits(half: number): number {
  const sign = (half & 0x8000) << 16;
  const exponent = (half >>> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  if (exponent === 0x1f) return (sign | 0x7f800000 | (mantissa << 13)) >>> 0;
  if (exponent !== 0) return (sign | ((exponent + 112) << 23) | (mantissa << 13)) >>> 0;
  // Zero or a subnormal: mantissa · 2^-24, exact in float32.
  return (sign | float32Bits(mantissa * 2 ** -24)) >>> 0;
}

/** `value` rounded to the nearest binary16, as a number (for references and tolerances). */
export function roundToHalf(value: number): number {
  return float32FromBits(float32BitsFromHalfBits(halfBitsFromFloat32Bits(float32Bits(value))));
}

/**
 * Packs float32 values two by two: element 2i in the low 16 bits of word i, element 2i + 1 in the
 * high bits (the order of WGSL's pack2x16float and GLSL's packHalf2x16); an odd length pads with +0.
 */
export function packHalves(values: Float32Array): Int32Array {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out = new Int32Array(Math.ceil(values.length / 2));
  for (let i = 0; i < out.length; i++) {
    const low = halfBitsFromFloat32Bits(bits[2 * i]!);
    const high = 2 * i + 1 < values.length ? halfBitsFromFloat32Bits(bits[2 * i + 1]!) : 0;
    out[i] = low | (high << 16);
  }
  return out;
}

/** The first `size` float32 values of packed halves (the inverse of packHalves, up to rounding). */
export function unpackHalves(packed: Int32Array, size: number): Float32Array {
  const out = new Float32Array(size);
  const bits = new Uint32Array(out.buffer);
  for (let i = 0; i < size; i++) {
    const word = packed[i >>> 1]!;
    bits[i] = float32BitsFromHalfBits((i & 1) === 0 ? word & 0xffff : (word >>> 16) & 0xffff);
  }
  return out;
}
