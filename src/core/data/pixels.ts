import type { AugmentConfig } from './augment';
import type { Rng } from './rng';

/**
 * Where the input pipeline augments (flip, brightness, contrast): 'gpu' as tensor ops on the active
 * tfjs backend (the GPU in the app), or 'cpu' in plain TypeScript. Either way on an image already
 * resized on the host: the resize (resizeBilinearRgb) always runs here, before anything is a tensor
 * (see ml/data/pipeline hostPixels).
 */
export type AugmentOn = 'gpu' | 'cpu';

/** Decoded pixels, row-major, 3 (RGB) or 4 (RGBA, alpha ignored) values per pixel. */
export interface Pixels {
  data: ArrayLike<number>;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** One image's augmentation, drawn once so the tensor and pixel paths apply the same values. */
export interface AugmentDraw {
  /** Whether to flip left-right. */
  flip: boolean;
  /** Brightness delta in 0–255 pixel units, or null when brightness is off. */
  brightnessDelta: number | null;
  /** Contrast factor, or null when contrast is off. */
  contrastFactor: number | null;
}

/**
 * Draws flip, delta and factor in that order on every call, whatever is enabled, so one image's draws
 * never shift the next image's.
 */
export function drawAugment(cfg: AugmentConfig, rng: Rng): AugmentDraw {
  const flip = rng.next() < 0.5;
  const delta = rng.uniform(-cfg.brightnessMaxDelta, cfg.brightnessMaxDelta);
  const factor = rng.uniform(cfg.contrastRange[0], cfg.contrastRange[1]);
  const contrastOn = cfg.contrastRange[0] !== 1 || cfg.contrastRange[1] !== 1;
  return {
    flip: cfg.flip && flip,
    brightnessDelta: cfg.brightnessMaxDelta > 0 ? delta : null,
    contrastFactor: contrastOn ? factor : null,
  };
}

function checkPixels({ data, width, height, channels }: Pixels): void {
  if (data.length !== width * height * channels) {
    throw new Error(
      `Decoded pixel buffer has ${data.length} values, expected ${width}×${height}×${channels}.`,
    );
  }
}

/** [H·W·3] float32 RGB in 0–255 from decoded pixels; alpha is dropped. */
export function toRgb(img: Pixels): Float32Array {
  checkPixels(img);
  const { data, width, height, channels } = img;
  const rgb = new Float32Array(width * height * 3);
  for (let src = 0, dst = 0; dst < rgb.length; src += channels, dst += 3) {
    rgb[dst] = data[src]!;
    rgb[dst + 1] = data[src + 1]!;
    rgb[dst + 2] = data[src + 2]!;
  }
  return rgb;
}

/** Source index pair and weight of every output position along one axis (TF2 half-pixel centres). */
function samples(inSize: number, outSize: number): { lo: Int32Array; hi: Int32Array; frac: Float64Array } {
  const lo = new Int32Array(outSize);
  const hi = new Int32Array(outSize);
  const frac = new Float64Array(outSize);
  const scale = inSize / outSize;
  for (let i = 0; i < outSize; i++) {
    const at = scale * (i + 0.5) - 0.5;
    const floor = Math.max(0, Math.floor(at));
    lo[i] = floor;
    hi[i] = Math.min(inSize - 1, Math.ceil(at));
    // Below 0 the weight is negative, but then lo === hi, so it has no effect (as in tf.image.resize).
    frac[i] = at - floor;
  }
  return { lo, hi, frac };
}

/**
 * TF2 tf.image.resize (bilinear): half-pixel centres, no corner alignment, straight from decoded
 * RGB(A) pixels to [height·width·3] float32 RGB; alpha is dropped. With flip the output is mirrored
 * left-right (tf.image.flip_left_right after the resize), at no extra cost.
 */
export function resizeBilinearRgb(img: Pixels, height: number, width: number, flip = false): Float32Array {
  checkPixels(img);
  const { data, channels } = img;
  const rows = samples(img.height, height);
  const cols = samples(img.width, width);
  const stride = img.width * channels;
  const out = new Float32Array(height * width * 3);
  for (let y = 0; y < height; y++) {
    const top = rows.lo[y]! * stride;
    const bottom = rows.hi[y]! * stride;
    const rowFrac = rows.frac[y]!;
    for (let x = 0; x < width; x++) {
      const left = cols.lo[x]! * channels;
      const right = cols.hi[x]! * channels;
      const colFrac = cols.frac[x]!;
      const dst = (y * width + (flip ? width - 1 - x : x)) * 3;
      for (let c = 0; c < 3; c++) {
        const topLeft = data[top + left + c]!;
        const topRight = data[top + right + c]!;
        const bottomLeft = data[bottom + left + c]!;
        const bottomRight = data[bottom + right + c]!;
        const upper = topLeft + (topRight - topLeft) * colFrac;
        const lower = bottomLeft + (bottomRight - bottomLeft) * colFrac;
        out[dst + c] = upper + (lower - upper) * rowFrac;
      }
    }
  }
  return out;
}

/** tf.image.adjust_brightness on a float RGB image, in place: adds delta (as float32), no clipping. */
export function adjustBrightnessRgb(rgb: Float32Array, delta: number): void {
  const d = Math.fround(delta);
  for (let i = 0; i < rgb.length; i++) rgb[i]! += d;
}

/**
 * tf.image.adjust_contrast on an RGB image, in place: (x − mean)·factor + mean with the mean over all
 * pixels per channel, no clipping; rounded to float32 at each step as the tensor ops are.
 */
export function adjustContrastRgb(rgb: Float32Array, factor: number): void {
  const f = Math.fround(factor);
  const pixels = rgb.length / 3;
  for (let c = 0; c < 3; c++) {
    let sum = 0;
    for (let i = c; i < rgb.length; i += 3) sum += rgb[i]!;
    const mean = Math.fround(sum / pixels);
    for (let i = c; i < rgb.length; i += 3) rgb[i] = Math.fround(Math.fround(rgb[i]! - mean) * f) + mean;
  }
}

/**
 * The whole per-image transform on the CPU: resize → flip → brightness → contrast, the same as the
 * tensor path. draw null means no augmentation (resize only).
 */
export function transformPixels(
  img: Pixels,
  height: number,
  width: number,
  draw: AugmentDraw | null,
): Float32Array {
  const rgb = resizeBilinearRgb(img, height, width, draw?.flip ?? false);
  if (draw?.brightnessDelta != null) adjustBrightnessRgb(rgb, draw.brightnessDelta);
  if (draw?.contrastFactor != null) adjustContrastRgb(rgb, draw.contrastFactor);
  return rgb;
}
