import * as tf from '@tensorflow/tfjs';
import { DEFAULT_AUGMENT } from '../src/core/data/augment';
import type { AugmentOn } from '../src/core/data/pixels';
import { createRng } from '../src/core/data/rng';
import { makeDataset, type Batch, type DecodedImage, type PipelineItem } from '../src/ml/data/pipeline';
import type { BenchRow, BenchSide } from './types';

/**
 * Issue 5 technique 4: the input pipeline's share of memory and its time per batch, augmenting on the
 * GPU (tensor ops on the active backend) vs on the CPU (plain TypeScript on the pixels), and with
 * prefetch depth 1 vs 4. Synthetic decoded images, no model and no files; runs on whatever backend is
 * active (no Node or browser imports).
 *
 * "Input peak" is the largest tf.memory().numBytes above the starting level, after any kernel, while
 * the consumer holds one batch and lets the pipeline fill its prefetch buffer before taking the next
 * (as during a training step): tf.profile's peakBytes, so the transient tensors inside each image's
 * tidy and batch()'s stack count too. "ms per batch" is the producer's throughput in separate,
 * unprofiled passes where the consumer takes each batch at once and does nothing else (so prefetch has
 * no step to overlap with here), synced once at the end so queued GPU work is included.
 */

const BATCH = 16;
const SIZE = 128;
/** Decoded images are larger than the training size, as photos are (VGA here). */
const SOURCE_WIDTH = 640;
const SOURCE_HEIGHT = 480;
const CLASSES = 3;
/** Distinct synthetic images the decoder cycles through. */
const SOURCES = 4;

/** RGBA images with smooth gradients plus noise, so resize and contrast have real work to do. */
function syntheticImages(): DecodedImage[] {
  return Array.from({ length: SOURCES }, (_, k) => {
    const rng = createRng(k + 1);
    const data = new Uint8ClampedArray(SOURCE_WIDTH * SOURCE_HEIGHT * 4);
    for (let y = 0, i = 0; y < SOURCE_HEIGHT; y++) {
      for (let x = 0; x < SOURCE_WIDTH; x++, i += 4) {
        data[i] = (x + 40 * k) % 256;
        data[i + 1] = (y * 2 + rng.int(32)) % 256;
        data[i + 2] = ((x ^ y) + 60 * k) % 256;
        data[i + 3] = 255;
      }
    }
    return { data, width: SOURCE_WIDTH, height: SOURCE_HEIGHT, channels: 4 as const };
  });
}

interface Side {
  name: string;
  augmentOn: AugmentOn;
  prefetch: number;
}

const SIDES = {
  gpu: { name: 'augment on GPU, prefetch 1', augmentOn: 'gpu', prefetch: 1 },
  cpu: { name: 'augment on CPU, prefetch 1', augmentOn: 'cpu', prefetch: 1 },
  depth4: { name: 'augment on GPU, prefetch 4', augmentOn: 'gpu', prefetch: 4 },
} satisfies Record<string, Side>;

function dataset(side: Side, batches: number, images: DecodedImage[]): tf.data.Dataset<Batch> {
  const items: PipelineItem[] = Array.from({ length: batches * BATCH }, (_, i) => ({
    path: `synthetic/${i % SOURCES}/${i}`,
    label: i % CLASSES,
  }));
  return makeDataset(items, {
    height: SIZE,
    width: SIZE,
    batchSize: BATCH,
    numClasses: CLASSES,
    augment: DEFAULT_AUGMENT,
    augmentOn: side.augmentOn,
    seed: 1,
    shuffle: false,
    prefetch: side.prefetch,
    decode: async (item) => images[Number(item.path.split('/')[1])]!,
  });
}

/** Lets queued work run: one macrotask, in Node and in the browser alike. */
const yieldToQueue = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Takes every batch and disposes it. With fillBuffer, before disposing each batch it waits, as a
 * training step would, until the pipeline has stopped allocating, i.e. its prefetch buffer is full;
 * without, it takes the next batch at once, so the time is the producer's alone. At the end it reads
 * one number computed from the last batch, which waits for every kernel queued on a GPU backend.
 */
async function consume(ds: tf.data.Dataset<Batch>, fillBuffer: boolean): Promise<void> {
  const it = await ds.iterator();
  let total: tf.Tensor | null = null;
  for (let r = await it.next(); !r.done; r = await it.next()) {
    total?.dispose();
    total = tf.sum(r.value.xs);
    for (let tensors = -1, i = 0; fillBuffer && tensors !== tf.memory().numTensors && i < 100; i++) {
      tensors = tf.memory().numTensors;
      await yieldToQueue();
    }
    tf.dispose(r.value);
  }
  await total?.data();
  total?.dispose();
}

const ROWS: Array<{ a: keyof typeof SIDES; b: keyof typeof SIDES; what: string }> = [
  { a: 'gpu', b: 'cpu', what: 'augmentation on GPU vs CPU' },
  { a: 'gpu', b: 'depth4', what: 'prefetch depth 1 vs 4' },
];

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((x, y) => x - y);
  return sorted.length ? (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2 : NaN;
};

/**
 * Two rows per comparison: input peak bytes and ms per batch, b / a. No targets: the issue asks for
 * these to be measured, not for a bound. Every side is warmed up (GPU programs compiled, loops seen by
 * the JIT) before any is measured, and the timed passes go round the sides in turn, so neither
 * warm-up nor drift favours the side measured last. `quick` produces 8 batches per pass and times
 * one pass per side instead of 12 batches and three passes.
 */
export async function inputRows(opts: { quick?: boolean }): Promise<BenchRow[]> {
  const batches = opts.quick ? 8 : 12;
  const passes = opts.quick ? 1 : 3;
  const images = syntheticImages();
  const keys = Object.keys(SIDES) as Array<keyof typeof SIDES>;
  for (const key of keys) await consume(dataset(SIDES[key], 4, images), false);
  const peaks = new Map<keyof typeof SIDES, number>();
  for (const key of keys) {
    const start = tf.memory().numBytes;
    const profile = await tf.profile(() => consume(dataset(SIDES[key], batches, images), true));
    peaks.set(key, profile.peakBytes - start);
  }
  const times = new Map<keyof typeof SIDES, number[]>(keys.map((key) => [key, []]));
  for (let p = 0; p < passes; p++) {
    for (const key of keys) {
      const t0 = performance.now();
      await consume(dataset(SIDES[key], batches, images), false);
      times.get(key)!.push((performance.now() - t0) / batches);
    }
  }
  const side = (key: keyof typeof SIDES): BenchSide => ({
    name: SIDES[key].name,
    peakBytes: peaks.get(key)!,
    stepMs: median(times.get(key)!),
  });
  return ROWS.flatMap((spec) => {
    const a = side(spec.a);
    const b = side(spec.b);
    const config = `${spec.what}: batch ${BATCH} at ${SIZE}×${SIZE} from ${SOURCE_WIDTH}×${SOURCE_HEIGHT} RGBA, flip + brightness + contrast`;
    const row = { section: 'Input pipeline', config, backend: tf.getBackend(), a, b };
    return [
      { ...row, metric: 'input peak', ratio: b.peakBytes / a.peakBytes },
      { ...row, metric: 'ms per batch', ratio: (b.stepMs ?? NaN) / (a.stepMs ?? NaN) },
    ];
  });
}
