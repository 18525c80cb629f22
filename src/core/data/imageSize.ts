// How large an image is, read from the first bytes of its file, and how large to decode it: the lab
// decides before the browser decodes anything, so a 100-megapixel photo never costs more than the
// size it will be trained at (see src/browser/decode.ts).

/** Width and height in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** Bytes of a file's start that hold the size of every format read here (JPEG can carry a large EXIF block first). */
export const HEADER_BYTES = 256 * 1024;

/**
 * Largest image the lab decodes: the browser's decoder holds the whole image as RGBA (4 bytes a pixel),
 * so 120 megapixels is about 480 MB of host memory for a moment. A 108-megapixel phone photo passes.
 */
export const MAX_DECODE_PIXELS = 120_000_000;

/**
 * A photo larger than this many times the training size on a side is first shrunk by the browser's
 * decoder; the lab's exact bilinear resize (tf.image.resize, no antialias) then makes the last step from
 * this intermediate size. Smaller photos go through the exact resize alone.
 */
export const INTERMEDIATE_FACTOR = 4;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 65536 + u16be(b, i + 2);
const ascii = (b: Uint8Array, i: number, n: number) =>
  Array.from(b.subarray(i, i + n), (c) => String.fromCharCode(c)).join('');

/** JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic), which carry the size. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(b: Uint8Array): Size | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    // Fill bytes, and markers without a length (RST, TEM).
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    if (SOF.has(marker)) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    i += 2 + u16be(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): Size | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.length >= 30)
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/** The size a PNG, JPEG, GIF, WebP or BMP file declares; null for other formats or a header cut short. */
export function imageSize(b: Uint8Array): Size | null {
  if (b.length >= 24 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG' && ascii(b, 12, 4) === 'IHDR')
    return { width: u32be(b, 16), height: u32be(b, 20) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegSize(b);
  if (b.length >= 10 && ascii(b, 0, 4) === 'GIF8') return { width: u16le(b, 6), height: u16le(b, 8) };
  if (b.length >= 16 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return webpSize(b);
  if (b.length >= 26 && ascii(b, 0, 2) === 'BM') {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
  }
  return null;
}

/** Why an image of this size is not decoded, or null when it may be. */
export function tooLargeToDecode({ width, height }: Size): string | null {
  const pixels = width * height;
  if (pixels <= MAX_DECODE_PIXELS) return null;
  const mp = (n: number) => `${(n / 1e6).toFixed(0)} megapixels`;
  return `${width}×${height} pixels (${mp(pixels)}) is more than the lab decodes (${mp(MAX_DECODE_PIXELS)}); save a smaller copy`;
}

/**
 * The size the browser should decode an image at for training at `target`: each side at most
 * INTERMEDIATE_FACTOR × the target's, never larger than the image; the image's own size when no side
 * is that large, so the exact resize sees the original pixels.
 */
export function decodeSize(image: Size, target: Size): Size {
  const side = (own: number, wanted: number) => Math.min(own, INTERMEDIATE_FACTOR * wanted);
  return { width: side(image.width, target.width), height: side(image.height, target.height) };
}
