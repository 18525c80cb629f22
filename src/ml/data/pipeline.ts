import * as tf from '@tensorflow/tfjs';
import { validateAugment, type AugmentConfig } from '../../core/config';
import { drawAugment, toRgb, transformPixels, type AugmentOn } from '../../core/pixels';
import { createRng } from '../../core/rng';
import { inPhase } from '../memory/stepPhase';
import { augment, resizeBilinear } from './augment';

/** One decoded image as the browser hands it over. */
export interface DecodedImage {
  /** RGB(A) pixels row-major. */
  data: Uint8Array | Uint8ClampedArray;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** 3 for RGB, 4 for RGBA (alpha is dropped). */
  channels: 3 | 4;
}

/** One file to load. */
export interface PipelineItem {
  /** Path relative to the dropped folder; used in error messages and passed to decode. */
  path: string;
  /** Class index in [0, numClasses). */
  label: number;
}

/** How makeDataset loads, transforms and batches the items. */
export interface PipelineOptions {
  /** Height every image is resized to. */
  height: number;
  /** Width every image is resized to. */
  width: number;
  /** Images per batch; the last batch may be smaller. */
  batchSize: number;
  /** Number of classes; every label must lie in [0, numClasses). */
  numClasses: number;
  /** Augmentation is applied only when this is set (training data only). */
  augment?: AugmentConfig;
  /** Seed for shuffling and augmentation; each epoch should pass a different one (e.g. seed + epoch). */
  seed: number;
  /** Whether to shuffle the item order (with seed) before loading. */
  shuffle: boolean;
  /**
   * Where resize and augmentation run (default 'gpu'): 'gpu' as tensor ops on the active backend, from
   * one tensor of the decoded image at its own size; 'cpu' in plain TypeScript on the decoded pixels,
   * uploading only the finished [height, width, 3] image. Both give the same batches for a seed.
   */
  augmentOn?: AugmentOn;
  /** Batches prepared ahead on the device (tf.data prefetch); 0 = none. */
  prefetch: number;
  /** Checked before each image is read; once true the data set ends early (Stop), so draining it is quick. */
  isStopped?: () => boolean;
  /** Decodes one file lazily; the pipeline never holds the whole set in memory. Rejects with an Error naming the file on failure. */
  decode: (item: PipelineItem) => Promise<DecodedImage>;
}

/** One batch of training data (a type alias, not an interface, so it satisfies tf.TensorContainer). */
export type Batch = {
  /** Images, [batch, height, width, 3] float32 in 0–255. */
  xs: tf.Tensor4D;
  /** int32 class indices (sparse labels), [batch]. */
  ys: tf.Tensor1D;
};

/** An item queued for loading; augSeed gives each image its own augmentation stream. */
type Element = { path: string; label: number; augSeed: number };

/** A loaded image; failure is '' or the load error, carried as data (see makeDataset). */
type Loaded = { xs: tf.Tensor3D; ys: tf.Scalar; failure: string };

/** [H, W, 3] float32 in 0–255 from decoded pixels; alpha is dropped. */
export function toImageTensor(img: DecodedImage): tf.Tensor3D {
  return tf.tensor3d(toRgb(img), [img.height, img.width, 3], 'float32');
}

function checkOptions(items: readonly PipelineItem[], opts: PipelineOptions): void {
  const positive = {
    height: opts.height,
    width: opts.width,
    batchSize: opts.batchSize,
    numClasses: opts.numClasses,
  };
  for (const [name, value] of Object.entries(positive)) {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`${name} must be a positive integer (got ${value}).`);
  }
  if (!Number.isInteger(opts.prefetch) || opts.prefetch < 0) {
    throw new RangeError(`prefetch must be an integer ≥ 0 (got ${opts.prefetch}).`);
  }
  if (opts.augmentOn !== undefined && opts.augmentOn !== 'gpu' && opts.augmentOn !== 'cpu') {
    throw new RangeError(`augmentOn must be 'gpu' or 'cpu' (got ${String(opts.augmentOn)}).`);
  }
  const problems = opts.augment ? validateAugment(opts.augment) : [];
  if (problems.length > 0) throw new RangeError(`Invalid augmentation: ${problems.join(' ')}`);
  const bad = items.find((it) => !Number.isInteger(it.label) || it.label < 0 || it.label >= opts.numClasses);
  if (bad) throw new RangeError(`${bad.path} has label ${bad.label}, outside [0, ${opts.numClasses}).`);
}

/**
 * items → (seeded shuffle) → mapAsync(load) → batch → map(raise failures) → prefetch, where load is
 * decode → tensor → resize → augment, or with augmentOn 'cpu' decode → resize → augment → tensor.
 * The order and every augmentation are fixed here from the seed, so iterating the dataset twice
 * yields the same batches.
 *
 * A load failure is not thrown inside mapAsync: tf.data's batch() chains its reads, so one rejection
 * would reject every later next() (including the batches prefetch() already requested, which then
 * surface as unhandled rejections) and leak the tensors of the partly built batch. Instead the failed
 * image becomes a zero placeholder plus a message, and the stage after batch() disposes that batch and
 * throws, so exactly the next() for that batch rejects.
 */
export function makeDataset(items: readonly PipelineItem[], opts: PipelineOptions): tf.data.Dataset<Batch> {
  checkOptions(items, opts);
  const { height, width, augment: cfg } = opts;
  const onCpu = opts.augmentOn === 'cpu';
  const rng = createRng(opts.seed);
  const ordered = opts.shuffle ? rng.shuffle(items) : items.slice();
  const elements: Element[] = ordered.map(({ path, label }) => ({ path, label, augSeed: rng.int(2 ** 32) }));

  const load = async ({ path, label, augSeed }: Element): Promise<Loaded> => {
    try {
      const decoded = await opts.decode({ path, label });
      const rgb = onCpu
        ? transformPixels(decoded, height, width, cfg ? drawAugment(cfg, createRng(augSeed)) : null)
        : null;
      // mapAsync cannot tidy across the await, so tidy the synchronous part here.
      return inPhase('input', () =>
        tf.tidy(() => {
          let xs: tf.Tensor3D;
          if (rgb) {
            xs = tf.tensor3d(rgb, [height, width, 3], 'float32');
          } else {
            const resized = resizeBilinear(toImageTensor(decoded), height, width);
            xs = cfg ? augment(resized, cfg, createRng(augSeed)) : resized;
          }
          // An int32 scalar so batch() stacks an int32 [batch]; plain numbers would batch to float32.
          return { xs, ys: tf.scalar(label, 'int32'), failure: '' };
        }),
      );
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const failure = message.includes(path) ? message : `Could not load ${path}: ${message}`;
      return { xs: tf.zeros([height, width, 3]), ys: tf.scalar(0, 'int32'), failure };
    }
  };

  const raiseFailures = (b: { xs: tf.Tensor4D; ys: tf.Tensor1D; failure: tf.Tensor1D }): Batch => {
    // failure is a string tensor, which lives in JS memory on every backend: reading it never waits on the GPU.
    const failure = b.failure.dataSync<'string'>().find((m) => m !== '');
    if (failure !== undefined) {
      tf.dispose(b);
      throw new Error(failure);
    }
    return { xs: b.xs, ys: b.ys };
  };

  // batch() is typed as yielding TensorContainer; it stacks each field of Loaded along a new axis 0.
  const isStopped = opts.isStopped ?? (() => false);
  const source = tf.data.generator(function* () {
    for (const element of elements) {
      if (isStopped()) return;
      yield element;
    }
  });
  const batched = source.mapAsync(load).batch(opts.batchSize) as tf.data.Dataset<{
    xs: tf.Tensor4D;
    ys: tf.Tensor1D;
    failure: tf.Tensor1D;
  }>;
  const checked = batched.map(raiseFailures);
  // tfjs prefetch(n) keeps n requests in flight including the one being returned, i.e. n − 1 ahead.
  return opts.prefetch > 0 ? checked.prefetch(opts.prefetch + 1) : checked;
}
