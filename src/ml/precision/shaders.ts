/**
 * The binary16 conversions of half.ts as shader code, step for step with the same constants, so the GPU
 * kernels round exactly like the cpu reference. The built-ins (WGSL pack2x16float, GLSL packHalf2x16)
 * are not used for packing: WGSL makes their result indeterminate for values outside the half range
 * (no Infinity on overflow) and neither language fixes the rounding mode. Unpacking is exact either way;
 * it is written out too so that a driver flushing half subnormals cannot change it.
 */

/** WGSL: float32 → binary16 bits (round to nearest even) and binary16 bits → float32. */
export const WGSL_HALF = `
fn halfBits(v : f32) -> u32 {
  let bits = bitcast<u32>(v);
  let sign = (bits >> 16u) & 0x8000u;
  let exponent = i32((bits >> 23u) & 0xffu);
  let mantissa = bits & 0x7fffffu;
  if (exponent == 255) {
    if (mantissa != 0u) { return sign | 0x7c00u | 0x200u | (mantissa >> 13u); }
    return sign | 0x7c00u;
  }
  let e = exponent - 112;
  if (e >= 31) { return sign | 0x7c00u; }
  if (e <= 0) {
    if (e < -10) { return sign; }
    let significand = mantissa | 0x800000u;
    let shift = u32(14 - e);
    let kept = significand >> shift;
    let rest = significand & ((1u << shift) - 1u);
    let halfway = 1u << (shift - 1u);
    let up = rest > halfway || (rest == halfway && (kept & 1u) == 1u);
    return sign | (kept + select(0u, 1u, up));
  }
  let result = sign | (u32(e) << 10u) | (mantissa >> 13u);
  let rest = mantissa & 0x1fffu;
  let up = rest > 0x1000u || (rest == 0x1000u && (result & 1u) == 1u);
  return result + select(0u, 1u, up);
}

fn fromHalfBits(h : u32) -> f32 {
  let sign = (h & 0x8000u) << 16u;
  let exponent = (h >> 10u) & 0x1fu;
  let mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) { return bitcast<f32>(sign | 0x7f800000u | (mantissa << 13u)); }
  if (exponent != 0u) { return bitcast<f32>(sign | ((exponent + 112u) << 23u) | (mantissa << 13u)); }
  return bitcast<f32>(sign | bitcast<u32>(f32(mantissa) * 5.9604644775390625e-8));
}
`;

/** GLSL ES 3.0 (WebGL2): the same two functions. */
export const GLSL_HALF = `
uint halfBits(float v) {
  uint bits = floatBitsToUint(v);
  uint sign = (bits >> 16u) & 0x8000u;
  int exponent = int((bits >> 23u) & 0xffu);
  uint mantissa = bits & 0x7fffffu;
  if (exponent == 255) {
    if (mantissa != 0u) { return sign | 0x7c00u | 0x200u | (mantissa >> 13u); }
    return sign | 0x7c00u;
  }
  int e = exponent - 112;
  if (e >= 31) { return sign | 0x7c00u; }
  if (e <= 0) {
    if (e < -10) { return sign; }
    uint significand = mantissa | 0x800000u;
    uint shift = uint(14 - e);
    uint kept = significand >> shift;
    uint rest = significand & ((1u << shift) - 1u);
    uint halfway = 1u << (shift - 1u);
    bool up = rest > halfway || (rest == halfway && (kept & 1u) == 1u);
    return sign | (kept + (up ? 1u : 0u));
  }
  uint result = sign | (uint(e) << 10u) | (mantissa >> 13u);
  uint rest = mantissa & 0x1fffu;
  bool up = rest > 0x1000u || (rest == 0x1000u && (result & 1u) == 1u);
  return result + (up ? 1u : 0u);
}

float fromHalfBits(uint h) {
  uint sign = (h & 0x8000u) << 16u;
  uint exponent = (h >> 10u) & 0x1fu;
  uint mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) { return uintBitsToFloat(sign | 0x7f800000u | (mantissa << 13u)); }
  if (exponent != 0u) { return uintBitsToFloat(sign | ((exponent + 112u) << 23u) | (mantissa << 13u)); }
  return uintBitsToFloat(sign | floatBitsToUint(float(mantissa) * 5.9604644775390625e-8));
}
`;
