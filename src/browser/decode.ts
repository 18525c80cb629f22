import type { ImageSource } from '../core/protocol';
import type { DecodedImage } from '../ml/data/pipeline';

/** The bytes of an image source; the error names the file. */
export async function readBlob(source: ImageSource, path: string): Promise<Blob> {
  if (source.kind === 'file') return source.file;
  const response = await fetch(source.url);
  if (!response.ok) throw new Error(`Cannot read "${path}": HTTP ${response.status}`);
  return response.blob();
}

/** Opens an image with the browser's decoder; the error names the file. */
export async function openBitmap(blob: Blob, path: string): Promise<ImageBitmap> {
  if (blob.size === 0) throw new Error(`Cannot decode "${path}": the file is empty`);
  try {
    return await createImageBitmap(blob);
  } catch {
    return Promise.reject(
      new Error(`Cannot decode "${path}": not a valid image, or a format this browser cannot read`),
    );
  }
}

/**
 * Decodes one image to RGBA pixels at its own size. Works in a worker (OffscreenCanvas); the pixels
 * stay on the CPU until the pipeline turns them into a tensor, one image at a time.
 */
export async function decodeImage(source: ImageSource, path: string): Promise<DecodedImage> {
  const bitmap = await openBitmap(await readBlob(source, path), path);
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
