import { decodeSize, HEADER_BYTES, imageSize, tooLargeToDecode, type Size } from '../core/data/imageSize';
import type { ImageSource } from '../core/run/protocol';
import type { DecodedImage } from '../ml/data/pipeline';

/** The bytes of an image source; the error names the file. */
export async function readBlob(source: ImageSource, path: string): Promise<Blob> {
  if (source.kind === 'file') return source.file;
  const response = await fetch(source.url);
  if (!response.ok) throw new Error(`Cannot read "${path}": HTTP ${response.status}`);
  return response.blob();
}

/** The size the file declares in its header; null for formats the lab does not read (the browser may). */
async function declaredSize(blob: Blob): Promise<Size | null> {
  return imageSize(new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer()));
}

/**
 * Opens an image with the browser's decoder; the error names the file. The size is read from the
 * header first: an image above MAX_DECODE_PIXELS is refused before any decoding, and with `fit` (the
 * training size) a photo much larger than it is decoded straight to decodeSize's intermediate size, so
 * the full-size pixels never reach the lab.
 */
export async function openBitmap(blob: Blob, path: string, fit?: Size): Promise<ImageBitmap> {
  if (blob.size === 0) throw new Error(`Cannot decode "${path}": the file is empty`);
  const size = await declaredSize(blob);
  const refusal = size && tooLargeToDecode(size);
  if (refusal) throw new Error(`Cannot decode "${path}": ${refusal}`);
  const target = size && fit ? decodeSize(size, fit) : null;
  const shrink = target && size && (target.width < size.width || target.height < size.height);
  try {
    return shrink
      ? await createImageBitmap(blob, {
          resizeWidth: target.width,
          resizeHeight: target.height,
          resizeQuality: 'medium',
        })
      : await createImageBitmap(blob);
  } catch {
    return Promise.reject(
      new Error(`Cannot decode "${path}": not a valid image, or a format this browser cannot read`),
    );
  }
}

/**
 * Decodes one image to RGBA pixels for training at `fit`: at its own size, or at the bounded
 * intermediate size when it is much larger (see openBitmap). Works in a worker (OffscreenCanvas); the
 * pixels stay on the CPU, where the pipeline resizes them exactly before they become a tensor.
 */
export async function decodeImage(source: ImageSource, path: string, fit: Size): Promise<DecodedImage> {
  const bitmap = await openBitmap(await readBlob(source, path), path, fit);
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error(`Cannot decode "${path}": no 2D canvas available`);
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    return { data, width: bitmap.width, height: bitmap.height, channels: 4 };
  } finally {
    bitmap.close();
  }
}
