// The lab's image ops on images Python wrote, through both paths the pipeline has: the tensor ops of
// src/ml/data/augment.ts (flip, brightness, contrast; resizing happens only on the host) and the host
// (plain TypeScript) ops of src/core/data/pixels.ts (resize, resize + flip, brightness, contrast). Writes
// each result as float32 for interop/test_image_ops.py to compare with tf.image.
import * as tf from '@tensorflow/tfjs';
import {
  adjustBrightnessRgb,
  adjustContrastRgb,
  resizeBilinearRgb,
  type Pixels,
} from '../../src/core/data/pixels';
import { adjustBrightness, adjustContrast, flipLeftRight } from '../../src/ml/data/augment';
import { cpu, readFloat32, readJob, writeAnswer, writeFloat32 } from './common';

interface OpJob {
  /** One [height, width, 3] float32 image in 0-255. */
  image: string;
  height: number;
  width: number;
  op: 'resize' | 'resize-flip' | 'flip' | 'brightness' | 'contrast';
  /** resize / resize-flip: the output size. */
  outHeight?: number;
  outWidth?: number;
  /** brightness: delta; contrast: factor. */
  value?: number;
  /** Prefix of the outputs: `<output>.tensor.bin` and / or `<output>.host.bin`. */
  output: string;
}

const TENSOR_OPS: readonly OpJob['op'][] = ['flip', 'brightness', 'contrast'];
const HOST_OPS: readonly OpJob['op'][] = ['resize', 'resize-flip', 'brightness', 'contrast'];

function tensorPath(job: OpJob, data: Float32Array): Float32Array {
  return tf.tidy(() => {
    const img = tf.tensor3d(data, [job.height, job.width, 3]);
    const out =
      job.op === 'brightness'
        ? adjustBrightness(img, job.value ?? 0)
        : job.op === 'contrast'
          ? adjustContrast(img, job.value ?? 1)
          : flipLeftRight(img);
    return out.dataSync() as Float32Array;
  });
}

function hostPath(job: OpJob, data: Float32Array): Float32Array {
  const pixels: Pixels = { data, width: job.width, height: job.height, channels: 3 };
  if (job.op === 'resize' || job.op === 'resize-flip') {
    return resizeBilinearRgb(pixels, job.outHeight ?? 0, job.outWidth ?? 0, job.op === 'resize-flip');
  }
  const rgb = Float32Array.from(data);
  if (job.op === 'brightness') adjustBrightnessRgb(rgb, job.value ?? 0);
  else adjustContrastRgb(rgb, job.value ?? 1);
  return rgb;
}

await cpu();
const jobs = readJob<OpJob[]>();
writeAnswer(
  jobs.map((job) => {
    const data = readFloat32(job.image);
    const paths: string[] = [];
    if (TENSOR_OPS.includes(job.op)) {
      writeFloat32(`${job.output}.tensor.bin`, tensorPath(job, data));
      paths.push('tensor');
    }
    if (HOST_OPS.includes(job.op)) {
      writeFloat32(`${job.output}.host.bin`, hostPath(job, data));
      paths.push('host');
    }
    return paths;
  }),
);
