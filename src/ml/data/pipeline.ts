import * as tf from '@tensorflow/tfjs';
import { validateAugment, type AugmentConfig } from '../../core/data/augment';
import { drawAugment, toRgb, transformPixels, type AugmentOn } from '../../core/data/pixels';
import { createRng } from '../../core/data/rng';
import { ResourceExhaustedError } from '../memory/budget';
import { inPhase } from '../memory/stepPhase';
import { augment } from './augment';
import { errorMessage } from '../../core/format';

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
   * Where augmentation runs (default 'gpu'): 'gpu' as tensor ops on the active backend, 'cpu' in plain
   * TypeScript. Either way it runs on the image already resized on the host (see hostPixels), and both
   * give the same batches for a seed.
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

/**
 * A loaded batch. A failure is carried as data (the key of its error in the data set's failure map, 0
 * for none) and the batch has no tensors then (see makeDataset).
 */
type Loaded = { xs?: tf.Tensor4D; ys?: tf.Tensor1D; failure: number };

/**
 * A file of the data set that could not be read or decoded during training: an input failure, never a
 * model's, with what to do about it in its message.
 */
export class InputError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(
      `Input failed: ${reason.includes(path) ? reason : `could not load ${path}: ${reason}`}. The model did not run on it. ` +
        'The file may have changed, moved or become unreadable after the folder was checked: drop the folder again, or remove the file.',
    );
    this.name = 'InputError';
  }
}

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
 * The one rule of where an image is made: decoding (browser, bounded) and the exact resize (TF2
 * bilinear, on these pixels) always run on the host, so only [height, width, 3] ever reaches the device,
 * whatever the photo's size; augmentOn chooses where flip, brightness and contrast run on that resized
 * image. Returns the resized pixels, augmented when they are augmented here.
 */
function hostPixels(decoded: DecodedImage, opts: PipelineOptions, augSeed: number): Float32Array {
  const draw =
    opts.augment && opts.augmentOn === 'cpu' ? drawAugment(opts.augment, createRng(augSeed)) : null;
  return transformPixels(decoded, opts.height, opts.width, draw);
}

/**
 * One batch's tensors from its resized pixels, augmenting on the device when augmentOn is 'gpu'. Built
 * inside the input phase with a kernel (Pack) that sees the uploads: the budget checks tensors made from
 * data only at the next kernel, so an input that does not fit is reported here, as the input's, and not
 * at the first layer of the step that happens to run next.
 */
function batchTensors(
  pixels: readonly Float32Array[],
  group: readonly Element[],
  opts: PipelineOptions,
): { xs: tf.Tensor4D; ys: tf.Tensor1D } {
  const { height, width, augment: cfg } = opts;
  const onDevice = cfg && opts.augmentOn !== 'cpu' ? cfg : null;
  return inPhase('input', () =>
    tf.tidy(() => {
      const images = pixels.map((p, i) => {
        const image = tf.tensor3d(p, [height, width, 3], 'float32');
        return onDevice ? augment(image, onDevice, createRng(group[i]!.augSeed)) : image;
      });
      const ys = tf.tensor1d(
        group.map((e) => e.label),
        'int32',
      );
      return { xs: tf.stack(images) as tf.Tensor4D, ys };
    }),
  );
}

/** Decodes one batch's files and resizes them on the host; rejects with an InputError naming the file. */
async function loadPixels(group: readonly Element[], opts: PipelineOptions): Promise<Float32Array[]> {
  return Promise.all(
    group.map(async ({ path, label, augSeed }) => {
      try {
        return hostPixels(await opts.decode({ path, label }), opts, augSeed);
      } catch (e) {
        if (e instanceof ResourceExhaustedError) throw e;
        throw new InputError(path, errorMessage(e));
      }
    }),
  );
}

/**
 * A failure while making a batch, as the error the run reports: memory that ran out while the batch
 * was uploaded belongs to the input (no layer was running, whatever the layer bookkeeping last saw).
 */
function asInputFailure(e: unknown): Error {
  if (e instanceof ResourceExhaustedError)
    return new ResourceExhaustedError({ ...e.details, phase: 'input', layer: null, layerClass: null });
  return e instanceof Error ? e : new Error(String(e));
}

/** The elements in groups of batchSize (the last may be smaller), ending early once isStopped(). */
function* groups(elements: readonly Element[], batchSize: number, isStopped: () => boolean) {
  for (let i = 0; i < elements.length; i += batchSize) {
    if (isStopped()) return;
    yield elements.slice(i, i + batchSize);
  }
}

/**
 * items → (seeded shuffle) → groups of batchSize → mapAsync(decode and resize each on the host, then
 * one upload) → map(raise failures) → prefetch. The order and every augmentation are fixed here from
 * the seed, so iterating the dataset twice yields the same batches.
 *
 * A failure is not thrown inside mapAsync: tf.data chains mapAsync's reads, so one rejection would
 * reject every later next() (including the batches prefetch() already requested, which then surface as
 * unhandled rejections). Instead the failed batch carries the key of its error, and the map() after it
 * throws that error, so exactly the next() for that batch rejects. Nothing of a failed batch is ever a
 * tensor: pixels stay on the host until the whole batch has loaded.
 */
export function makeDataset(items: readonly PipelineItem[], opts: PipelineOptions): tf.data.Dataset<Batch> {
  checkOptions(items, opts);
  const rng = createRng(opts.seed);
  const ordered = opts.shuffle ? rng.shuffle(items) : items.slice();
  const elements: Element[] = ordered.map(({ path, label }) => ({ path, label, augSeed: rng.int(2 ** 32) }));
  const failures = new Map<number, Error>();
  let lastFailure = 0;

  const load = async (group: Element[]): Promise<Loaded> => {
    try {
      return { ...batchTensors(await loadPixels(group, opts), group, opts), failure: 0 };
    } catch (e) {
      failures.set(++lastFailure, asInputFailure(e));
      return { failure: lastFailure };
    }
  };

  const raiseFailures = ({ xs, ys, failure }: Loaded): Batch => {
    if (failure === 0 && xs && ys) return { xs, ys };
    const error = failures.get(failure) ?? new Error('The input pipeline lost a batch.');
    failures.delete(failure);
    throw error;
  };

  const isStopped = opts.isStopped ?? (() => false);
  const source = tf.data.generator(() => groups(elements, opts.batchSize, isStopped));
  const checked = source.mapAsync(load).map(raiseFailures);
  // tfjs prefetch(n) keeps n requests in flight including the one being returned, i.e. n − 1 ahead.
  return opts.prefetch > 0 ? checked.prefetch(opts.prefetch + 1) : checked;
}
