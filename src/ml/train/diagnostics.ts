import * as tf from '@tensorflow/tfjs';
import type { Thumbnail } from '../../core/run/diagnostics';

/** The longest side of a thumbnail: 64×64 RGBA is 16 KB, cheap to post to the page and to keep in the store. */
export const THUMBNAIL_SIDE = 64;
/** Thumbnails per report, so a bad model on a large split does not post megabytes of pixels. */
export const MAX_THUMBNAILS = 32;
/** Thumbnails per (true, predicted) cell, so every cell the user clicks has some pictures. */
export const MAX_THUMBNAILS_PER_CELL = 8;

/** Counts thumbnails against the per-report and per-cell bounds, in the order images arrive. */
export class ThumbnailBudget {
  private taken = 0;
  private readonly perCell = new Map<string, number>();

  take(label: number, predicted: number): boolean {
    const key = `${label}:${predicted}`;
    const inCell = this.perCell.get(key) ?? 0;
    if (this.taken >= MAX_THUMBNAILS || inCell >= MAX_THUMBNAILS_PER_CELL) return false;
    this.perCell.set(key, inCell + 1);
    this.taken++;
    return true;
  }
}

/**
 * RGBA thumbnails of some rows of a [n, h, w, 3] batch in 0–255, shrunk to fit THUMBNAIL_SIDE. The
 * pixels are what the model saw (resized, never augmented: validation data is not augmented).
 */
export async function thumbnails(xs: tf.Tensor4D, rows: readonly number[]): Promise<Map<number, Thumbnail>> {
  const out = new Map<number, Thumbnail>();
  if (rows.length === 0) return out;
  const [, h, w] = xs.shape;
  const scale = Math.min(1, THUMBNAIL_SIDE / Math.max(h, w));
  const height = Math.max(1, Math.round(h * scale));
  const width = Math.max(1, Math.round(w * scale));
  const rgba = tf.tidy(() => {
    const picked = tf.gather(xs, tf.tensor1d(rows as number[], 'int32'));
    const small = scale < 1 ? tf.image.resizeBilinear(picked, [height, width], false, true) : picked;
    const rgb = tf.clipByValue(tf.round(small), 0, 255);
    const alpha = tf.fill([rows.length, height, width, 1], 255);
    return tf.concat([rgb, alpha], 3).toInt();
  });
  const data = await rgba.data();
  rgba.dispose();
  const size = height * width * 4;
  rows.forEach((row, k) => {
    out.set(row, { width, height, rgba: Uint8ClampedArray.from(data.subarray(k * size, (k + 1) * size)) });
  });
  return out;
}
