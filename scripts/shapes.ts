/**
 * Deterministic procedural shape images (circle / square / triangle on a noisy textured background),
 * used for the built-in sample data set (scripts/make-sample.ts) and the e2e fixtures (e2e/fixtures.ts).
 *
 * Runs in Node only. Everything is derived from a seeded mulberry32 generator, so the same
 * (kind, size, seed) always yields the same pixels.
 */
import jpeg from 'jpeg-js';
import pngjs from 'pngjs';

export type ShapeKind = 'circle' | 'square' | 'triangle';

export const SHAPE_KINDS: readonly ShapeKind[] = ['circle', 'square', 'triangle'];

/** Row-major RGBA pixels, 4 bytes per pixel, alpha always 255 for generated images. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}

type Rng = () => number;

/** mulberry32: a tiny 32-bit seeded PRNG returning floats in [0, 1). */
function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes the kind into the seed so that equal seeds of different kinds do not share colours or layout. */
function mixSeed(kind: ShapeKind, seed: number): number {
  let h = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b);
  const salt = SHAPE_KINDS.indexOf(kind) + 1;
  h = Math.imul(h ^ (h >>> 13) ^ Math.imul(salt, 0xc2b2ae35), 0x27d4eb2f);
  return (h ^ (h >>> 16)) >>> 0;
}

const range = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();

type Rgb = [number, number, number];

/** h in [0, 360), s and v in [0, 1]; returns channels in [0, 1]. */
function hsvToRgb(h: number, s: number, v: number): Rgb {
  const c = v * s;
  const hp = (((h % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const m = v - c;
  const [r, g, b]: Rgb =
    hp < 1
      ? [c, x, 0]
      : hp < 2
        ? [x, c, 0]
        : hp < 3
          ? [0, c, x]
          : hp < 4
            ? [0, x, c]
            : hp < 5
              ? [x, 0, c]
              : [c, 0, x];
  return [r + m, g + m, b + m];
}

const luma = ([r, g, b]: Rgb): number => 0.299 * r + 0.587 * g + 0.114 * b;

/** A background colour and a shape colour of a different hue and clearly different brightness. */
function pickColours(rng: Rng): { bg: Rgb; fg: Rgb } {
  const bgHue = range(rng, 0, 360);
  const bg = hsvToRgb(bgHue, range(rng, 0.15, 0.7), range(rng, 0.25, 0.95));
  let fg: Rgb = [0, 0, 0];
  for (let attempt = 0; attempt < 32; attempt++) {
    const hue = bgHue + range(rng, 60, 300);
    fg = hsvToRgb(hue, range(rng, 0.45, 1), range(rng, 0.15, 1));
    if (Math.abs(luma(fg) - luma(bg)) >= 0.28) return { bg, fg };
  }
  // Deterministic fallback: push the shape to the far end of the brightness scale.
  const dark = luma(bg) > 0.5;
  fg = fg.map((c) => (dark ? c * 0.25 : 0.75 + c * 0.25)) as Rgb;
  return { bg, fg };
}

/** Smooth value noise: a coarse random grid, bilinearly interpolated, values in [-1, 1]. */
function valueNoise(rng: Rng, size: number, cells: number): (x: number, y: number) => number {
  const n = cells + 1;
  const grid = Float64Array.from({ length: n * n }, () => rng() * 2 - 1);
  const at = (gx: number, gy: number): number => grid[gy * n + gx] ?? 0;
  const smooth = (t: number): number => t * t * (3 - 2 * t);
  return (x, y) => {
    const fx = (x / size) * cells;
    const fy = (y / size) * cells;
    const x0 = Math.min(Math.floor(fx), cells - 1);
    const y0 = Math.min(Math.floor(fy), cells - 1);
    const tx = smooth(fx - x0);
    const ty = smooth(fy - y0);
    const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * tx;
    const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * tx;
    return top + (bottom - top) * ty;
  };
}

type Point = [number, number];

/** Polygon vertices (centred on the origin) for squares and triangles; null for circles. */
function shapeOutline(kind: ShapeKind, extent: number, rng: Rng): Point[] | null {
  const rotate = (pts: Point[], angle: number): Point[] => {
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    return pts.map(([x, y]) => [x * c - y * s, x * s + y * c]);
  };
  const deg = Math.PI / 180;
  if (kind === 'square') {
    const h = extent / 2;
    const square: Point[] = [
      [-h, -h],
      [h, -h],
      [h, h],
      [-h, h],
    ];
    return rotate(square, range(rng, -20, 20) * deg);
  }
  if (kind === 'triangle') {
    // Roughly equilateral with side `extent`, apex pointing up/down/left/right, jittered.
    const height = extent * 0.866 * range(rng, 0.85, 1.15);
    const tri: Point[] = [
      [0, -height / 2],
      [extent / 2, height / 2],
      [-extent / 2, height / 2],
    ];
    const quarter = Math.floor(rng() * 4);
    return rotate(tri, (quarter * 90 + range(rng, -15, 15)) * deg);
  }
  return null;
}

function insidePolygon(pts: Point[], x: number, y: number): boolean {
  // Convex polygon: inside when the point is on the same side of every edge.
  let sign = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i];
    const b = pts[(i + 1) % pts.length];
    if (!a || !b) return false;
    const cross = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
    if (cross === 0) continue;
    const s = cross > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

const SUPERSAMPLE = 4;

/**
 * Draws one `size`×`size` RGBA image of a filled shape of random colour, position, rotation and size
 * (its extent is 20–60% of the image side) on a noisy, textured background of another colour.
 */
export function drawShapeImage(kind: ShapeKind, size: number, seed: number): RgbaImage {
  if (!SHAPE_KINDS.includes(kind)) throw new Error(`Unknown shape kind: ${String(kind)}`);
  if (!Number.isInteger(size) || size < 8) throw new Error(`Image size must be an integer >= 8, got ${size}`);
  const rng = mulberry32(mixSeed(kind, seed));

  const { bg, fg } = pickColours(rng);
  const extent = size * range(rng, 0.2, 0.6);
  const outline = shapeOutline(kind, extent, rng);
  const radius = extent / 2;

  // Place the shape so that its bounding box lies fully inside the image (1 px margin).
  const xs = outline ? outline.map((p) => p[0]) : [-radius, radius];
  const ys = outline ? outline.map((p) => p[1]) : [-radius, radius];
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const cx = range(rng, 1 - minX, Math.max(1 - minX, size - 1 - maxX));
  const cy = range(rng, 1 - minY, Math.max(1 - minY, size - 1 - maxY));

  const inside = (x: number, y: number): boolean => {
    const dx = x - cx;
    const dy = y - cy;
    return outline ? insidePolygon(outline, dx, dy) : dx * dx + dy * dy <= radius * radius;
  };

  // Background texture: coarse blotches + finer ripples, and a little per-pixel grain.
  const coarse = valueNoise(rng, size, 3 + Math.floor(rng() * 3));
  const fine = valueNoise(rng, size, 8 + Math.floor(rng() * 5));
  const bgContrast = range(rng, 0.08, 0.18);
  const grain = range(rng, 0.015, 0.035);
  // Shape shading: a gentle linear light gradient across the shape.
  const shadeAngle = range(rng, 0, 2 * Math.PI);
  const shadeX = Math.cos(shadeAngle) * 0.12;
  const shadeY = Math.sin(shadeAngle) * 0.12;

  const rgba = new Uint8Array(size * size * 4);
  const step = 1 / SUPERSAMPLE;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          if (inside(x + (sx + 0.5) * step, y + (sy + 0.5) * step)) hits++;
        }
      }
      const coverage = hits / (SUPERSAMPLE * SUPERSAMPLE);
      const texture = 1 + bgContrast * (0.7 * coarse(x, y) + 0.5 * fine(x, y));
      const shade = 1 + (shadeX * (x - cx) + shadeY * (y - cy)) / Math.max(radius, 1);
      const noise = (rng() * 2 - 1) * grain;
      const o = (y * size + x) * 4;
      for (let c = 0; c < 3; c++) {
        const back = (bg[c] ?? 0) * texture;
        const front = (fg[c] ?? 0) * shade;
        const v = back + (front - back) * coverage + noise;
        rgba[o + c] = Math.max(0, Math.min(255, Math.round(v * 255)));
      }
      rgba[o + 3] = 255;
    }
  }
  return { width: size, height: size, rgba };
}

/** PNG bytes; written as RGB (colour type 2) when every pixel is opaque, else RGBA. */
export function encodePng(img: RgbaImage): Buffer {
  const png = new pngjs.PNG({ width: img.width, height: img.height });
  png.data = Buffer.from(img.rgba.buffer, img.rgba.byteOffset, img.rgba.byteLength);
  let opaque = true;
  for (let i = 3; i < img.rgba.length; i += 4) {
    if (img.rgba[i] !== 255) {
      opaque = false;
      break;
    }
  }
  return pngjs.PNG.sync.write(png, { colorType: opaque ? 2 : 6, inputColorType: 6, inputHasAlpha: true });
}

/** Baseline JPEG bytes (alpha is dropped). */
export function encodeJpeg(img: RgbaImage, quality = 90): Buffer {
  return jpeg.encode({ width: img.width, height: img.height, data: img.rgba }, quality).data;
}
