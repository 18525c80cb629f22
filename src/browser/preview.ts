import * as tf from '@tensorflow/tfjs';
import type { DatasetPayload, PreviewImage } from '../core/run/protocol';
import type { TrainConfig } from '../core/settings/trainConfig';
import { labDataset } from './dataset';

/** The first `count` training samples, augmented exactly as the pipeline makes them, as RGBA for a canvas. */
export async function previewImages(
  config: TrainConfig,
  dataset: DatasetPayload,
  count: number,
): Promise<PreviewImage[]> {
  const items = dataset.train.slice(0, count);
  const ds = labDataset(
    { ...config, batchSize: 1, prefetch: 0 },
    { ...dataset, train: items },
    'train',
    0,
    false,
  );
  const out: PreviewImage[] = [];
  const iterator = await ds.iterator();
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const item = items[out.length]!;
    const rgba = toRgba(next.value.xs.shape, await next.value.xs.data());
    tf.dispose([next.value.xs, next.value.ys]);
    out.push({
      path: item.path,
      className: dataset.classes[item.label] ?? '?',
      rgba,
      width: config.width,
      height: config.height,
    });
  }
  return out;
}

/** [1,H,W,3] float 0–255 (possibly outside after brightness/contrast) → clamped RGBA bytes. */
function toRgba(shape: number[], rgb: ArrayLike<number>): Uint8ClampedArray {
  const [, h = 0, w = 0] = shape;
  const rgba = new Uint8ClampedArray(h * w * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgba[j] = rgb[i]!;
    rgba[j + 1] = rgb[i + 1]!;
    rgba[j + 2] = rgb[i + 2]!;
    rgba[j + 3] = 255;
  }
  return rgba;
}
