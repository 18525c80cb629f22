import { describe, expect, it } from 'vitest';
import { decodeSize, imageSize, INTERMEDIATE_FACTOR, MAX_DECODE_PIXELS, tooLargeToDecode } from './imageSize';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const be16 = (n: number) => [n >> 8, n & 255];
const le16 = (n: number) => [n & 255, n >> 8];
const le24 = (n: number) => [n & 255, (n >> 8) & 255, n >> 16];
const be32 = (n: number) => [...be16(Math.floor(n / 65536)), ...be16(n % 65536)];
const le32 = (n: number) => [...le16(n % 65536), ...le16(Math.floor(n / 65536))];

/** A JPEG start: SOI, a JFIF APP0, an APP1 (EXIF) block of `exif` bytes, fill bytes, then a start-of-frame. */
function jpeg(width: number, height: number, sof = 0xc0, exif = 100): Uint8Array {
  return bytes(
    [0xff, 0xd8],
    [0xff, 0xe0, ...be16(16)],
    'JFIF\0',
    [1, 1, 0, 0, 1, 0, 1, 0, 0],
    [0xff, 0xe1, ...be16(exif + 2)],
    new Array<number>(exif).fill(0),
    [0xff, 0xff, sof, ...be16(17), 8, ...be16(height), ...be16(width), 3],
    new Array<number>(9).fill(0),
  );
}

describe('imageSize', () => {
  it('reads the start of a real PNG of the sample set (public/sample/circles/circles_04.png)', () => {
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJ'), (c) => c.charCodeAt(0));
    expect(imageSize(png)).toEqual({ width: 64, height: 64 });
  });

  it('reads PNG, GIF, BMP and the three WebP forms', () => {
    const png = bytes([0x89], 'PNG\r\n\x1a\n', be32(13), 'IHDR', be32(10000), be32(7000), [8, 6, 0, 0, 0]);
    expect(imageSize(png)).toEqual({ width: 10000, height: 7000 });
    expect(imageSize(bytes('GIF89a', le16(640), le16(480), [0, 0, 0]))).toEqual({ width: 640, height: 480 });
    const bmp = bytes('BM', new Array<number>(16).fill(0), le32(300), le32(4294967296 - 200), [0, 0, 0, 0]);
    expect(imageSize(bmp)).toEqual({ width: 300, height: 200 });
    const riff = (chunk: string, body: number[]) => bytes('RIFF', le32(100), 'WEBP', chunk, le32(50), body);
    // Lossy: a 3-byte frame tag and the start code, then 14-bit width and height.
    const vp8 = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(1920), ...le16(1080), 0, 0]);
    expect(imageSize(vp8)).toEqual({ width: 1920, height: 1080 });
    // Lossless: signature 0x2f, then width − 1 and height − 1 in 14 bits each.
    const bits = (1023 - 1) | ((767 - 1) << 14);
    const vp8l = riff('VP8L', [0x2f, bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, (bits >>> 24) & 255]);
    expect(imageSize(vp8l)).toEqual({ width: 1023, height: 767 });
    const vp8x = riff('VP8X', [0, 0, 0, 0, ...le24(20000 - 1), ...le24(15000 - 1)]);
    expect(imageSize(vp8x)).toEqual({ width: 20000, height: 15000 });
  });

  it('finds the JPEG frame after APP blocks and fill bytes, baseline or progressive', () => {
    expect(imageSize(jpeg(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    expect(imageSize(jpeg(10000, 10000, 0xc2, 60000))).toEqual({ width: 10000, height: 10000 });
  });

  it('says null for other formats and for a header cut before the size', () => {
    expect(imageSize(bytes('not an image at all, just text'))).toBeNull();
    expect(imageSize(jpeg(800, 600).subarray(0, 40))).toBeNull();
    expect(imageSize(new Uint8Array(0))).toBeNull();
  });
});

describe('decoding limits', () => {
  it('refuses only above MAX_DECODE_PIXELS, naming the size', () => {
    expect(tooLargeToDecode({ width: 10000, height: 10000 })).toBeNull();
    expect(MAX_DECODE_PIXELS).toBeGreaterThan(12000 * 9000);
    expect(tooLargeToDecode({ width: 30000, height: 20000 })).toBe(
      '30000×20000 pixels (600 megapixels) is more than the lab decodes (120 megapixels); save a smaller copy',
    );
  });

  it('decodes a much larger photo at INTERMEDIATE_FACTOR × the target per side, a smaller one as it is', () => {
    const target = { width: 224, height: 160 };
    expect(decodeSize({ width: 10000, height: 10000 }, target)).toEqual({
      width: INTERMEDIATE_FACTOR * 224,
      height: INTERMEDIATE_FACTOR * 160,
    });
    expect(decodeSize({ width: 640, height: 480 }, target)).toEqual({ width: 640, height: 480 });
    expect(decodeSize({ width: 5000, height: 300 }, target)).toEqual({ width: 896, height: 300 });
  });
});
