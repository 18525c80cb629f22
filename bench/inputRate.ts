import * as tf from '@tensorflow/tfjs';
import type { ImageSource } from '../src/core/run/protocol';
import { DEFAULT_TRAIN_CONFIG } from '../src/core/settings/settings';
import { decodeImage } from '../src/browser/decode';
import { makeDataset, type PipelineItem } from '../src/ml/data/pipeline';
import { buildClassifier } from '../src/ml/models/registry';
import { noiseBatch } from '../src/ml/train/fixtures';
import { Trainer } from '../src/ml/train/trainer';

/**
 * Issue 16 item 3, in the page (the browser's own decoder): images per second the input pipeline
 * delivers with the default settings (host decode through src/browser/decode, exact resize, augmentation
 * on the active backend, prefetch) against images per second the default training step consumes
 * (MobileNetV2 at the default size and batch, frozen phase with the backbone outside the tape: most of
 * the default run's steps; fine-tune steps are slower, so they starve less). The pipeline is drained
 * alone, so its figure is what it can deliver, not what it delivers while competing with a step.
 */

export interface InputRateRow {
  source: string;
  images: number;
  deliveredPerS: number;
  consumedPerS: number;
  /** delivered / consumed; the target is ≥ 2. */ ratio: number;
}

const JPEG_SIDE = 512;
const CLASSES = 3;

/** One 512×512 photo-like JPEG: gradients, a few shapes and noise, so the encoder has real detail. */
async function makeJpeg(i: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(JPEG_SIDE, JPEG_SIDE);
  const ctx = canvas.getContext('2d')!;
  const g = ctx.createLinearGradient(0, 0, JPEG_SIDE, JPEG_SIDE);
  g.addColorStop(0, `hsl(${(i * 37) % 360} 60% 40%)`);
  g.addColorStop(1, `hsl(${(i * 91) % 360} 70% 60%)`);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, JPEG_SIDE, JPEG_SIDE);
  for (let k = 0; k < 6; k++) {
    ctx.fillStyle = `hsl(${(i * 13 + k * 60) % 360} 80% 50%)`;
    ctx.beginPath();
    ctx.arc(
      (i * 53 + k * 97) % JPEG_SIDE,
      (i * 29 + k * 71) % JPEG_SIDE,
      20 + ((i + k) % 60),
      0,
      2 * Math.PI,
    );
    ctx.fill();
  }
  const noise = ctx.getImageData(0, 0, JPEG_SIDE, JPEG_SIDE);
  for (let p = 0; p < noise.data.length; p += 4)
    noise.data[p] = (noise.data[p]! + ((p * 2654435761) >>> 27)) & 255;
  ctx.putImageData(noise, 0, 0);
  return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
}

/** 1,000 generated JPEGs (by default) as files the user could have chosen. */
export async function generatedJpegs(count: number): Promise<Map<string, ImageSource>> {
  const sources = new Map<string, ImageSource>();
  for (let i = 0; i < count; i++)
    sources.set(`c${i % CLASSES}/img_${i}.jpg`, { kind: 'file', file: await makeJpeg(i) });
  return sources;
}

/** The built-in sample as the app lists it: every file of public/sample/manifest.json, by URL. */
export async function sampleSources(): Promise<Map<string, ImageSource>> {
  const base = new URL('/sample/', location.href);
  const manifest = (await (await fetch(new URL('manifest.json', base))).json()) as {
    files: { path: string }[];
  };
  return new Map(manifest.files.map((f) => [f.path, { kind: 'url', url: new URL(f.path, base).href }]));
}

/** Drains the default training pipeline over these sources once; images per second. */
async function delivered(sources: Map<string, ImageSource>): Promise<number> {
  const c = DEFAULT_TRAIN_CONFIG;
  const classes = [...new Set([...sources.keys()].map((p) => p.split('/')[0]!))];
  const items: PipelineItem[] = [...sources.keys()].map((path) => ({
    path,
    label: classes.indexOf(path.split('/')[0]!),
  }));
  const fit = { height: c.height, width: c.width };
  const ds = makeDataset(items, {
    ...fit,
    batchSize: c.batchSize,
    numClasses: classes.length,
    augment: c.augment,
    augmentOn: c.augmentOn,
    seed: c.seed,
    shuffle: true,
    prefetch: c.prefetch,
    decode: (item) => decodeImage(sources.get(item.path)!, item.path, fit),
  });
  const start = performance.now();
  const it = await ds.iterator();
  let last: tf.Tensor | null = null;
  for (let r = await it.next(); !r.done; r = await it.next()) {
    last?.dispose();
    last = tf.sum(r.value.xs);
    tf.dispose(r.value);
  }
  // Waits for the last batch's kernels, so queued GPU work is counted.
  await last?.data();
  last?.dispose();
  return items.length / ((performance.now() - start) / 1000);
}

/** Images per second of the default frozen-phase step: median of `steps` after one warm-up. */
async function consumed(steps: number): Promise<number> {
  const c = DEFAULT_TRAIN_CONFIG;
  const { model, backboneLayerCount } = buildClassifier({
    id: c.model,
    height: c.height,
    width: c.width,
    includePreprocessing: true,
    numClasses: CLASSES,
    seed: 1,
  });
  const trainer = new Trainer(model, backboneLayerCount, { seed: 1 });
  trainer.compile('frozen', c.frozenLearningRate, 0);
  const batch = noiseBatch(c.batchSize, c.height, CLASSES, 3);
  try {
    await trainer.step(batch);
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const t0 = performance.now();
      await trainer.step(batch);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return c.batchSize / (times[times.length >> 1]! / 1000);
  } finally {
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  }
}

/** The sample's row and the generated folder's row, against one measurement of the step. */
export async function inputRateRows(opts: { jpegs: number; steps: number; log: (s: string) => void }) {
  const consumedPerS = await consumed(opts.steps);
  opts.log(`default frozen step consumes ${consumedPerS.toFixed(2)} images/s`);
  const rows: InputRateRow[] = [];
  const add = async (source: string, sources: Map<string, ImageSource>) => {
    const deliveredPerS = await delivered(sources);
    rows.push({
      source,
      images: sources.size,
      deliveredPerS,
      consumedPerS,
      ratio: deliveredPerS / consumedPerS,
    });
    opts.log(`${source}: ${deliveredPerS.toFixed(1)} images/s delivered`);
  };
  await add('built-in sample (64×64 PNG)', await sampleSources());
  await add(`${opts.jpegs} generated ${JPEG_SIDE}×${JPEG_SIDE} JPEGs`, await generatedJpegs(opts.jpegs));
  return rows;
}

export function inputRateTable(rows: InputRateRow[], backend: string): string[] {
  const c = DEFAULT_TRAIN_CONFIG;
  return [
    `Default settings: ${c.model} ${c.height}×${c.width}, batch ${c.batchSize}, augment on ${c.augmentOn}, prefetch ${c.prefetch}; step on ${backend}.`,
    '| source | images | delivered (images/s) | consumed by the frozen step (images/s) | ratio | target ≥ 2× |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.source} | ${r.images} | ${r.deliveredPerS.toFixed(1)} | ${r.consumedPerS.toFixed(2)} | ${r.ratio.toFixed(1)}× | ${r.ratio >= 2 ? 'PASS' : 'FAIL'} |`,
    ),
  ];
}
