import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AugmentConfig } from '../../core/data/augment';
import { createRng } from '../../core/data/rng';
import { installBudget, ResourceExhaustedError } from '../memory/budget';
import {
  InputError,
  makeDataset,
  toImageTensor,
  type Batch,
  type DecodedImage,
  type PipelineItem,
  type PipelineOptions,
} from './pipeline';

const NUM_CLASSES = 3;

/** Item i has label i mod 3 and a path that encodes i. */
const makeItems = (n: number): PipelineItem[] =>
  Array.from({ length: n }, (_, i) => ({ path: `c${i % NUM_CLASSES}/${i}.png`, label: i % NUM_CLASSES }));

const indexOf = (path: string): number => Number(/\/(\d+)\.png$/.exec(path)?.[1]);

/**
 * A fake browser decoder: RGBA images of varying size, every RGB value equal to the item's index,
 * so after resizing (a constant image stays constant) each image still says which item it came from.
 */
const fakeDecode = async (item: PipelineItem): Promise<DecodedImage> => {
  const width = 3 + (indexOf(item.path) % 3);
  const height = 2;
  const data = new Uint8ClampedArray(width * height * 4).fill(indexOf(item.path));
  for (let a = 3; a < data.length; a += 4) data[a] = 255;
  return { data, width, height, channels: 4 };
};

/** Decoded images of varying size (some RGB, some RGBA) with every value different, seeded by the item. */
const noisyDecode = async (item: PipelineItem): Promise<DecodedImage> => {
  const i = indexOf(item.path);
  const rng = createRng(i);
  const width = 2 + (i % 5) * 3;
  const height = 1 + ((i * 7) % 6);
  const channels = i % 2 === 0 ? 4 : 3;
  const data = Uint8ClampedArray.from({ length: width * height * channels }, () => rng.int(256));
  return { data, width, height, channels };
};

const options = (changes: Partial<PipelineOptions> = {}): PipelineOptions => ({
  height: 4,
  width: 5,
  batchSize: 4,
  numClasses: NUM_CLASSES,
  seed: 1,
  shuffle: false,
  prefetch: 2,
  decode: fakeDecode,
  ...changes,
});

interface Seen {
  xsShape: number[];
  xsDtype: string;
  ysShape: number[];
  ysDtype: string;
  xs: number[][][][];
  ys: number[];
}

/** Iterates the whole dataset, reading and disposing every batch. */
async function collect(ds: tf.data.Dataset<Batch>): Promise<Seen[]> {
  const it = await ds.iterator();
  const seen: Seen[] = [];
  for (let r = await it.next(); !r.done; r = await it.next()) {
    const { xs, ys } = r.value;
    seen.push({
      xsShape: xs.shape,
      xsDtype: xs.dtype,
      ysShape: ys.shape,
      ysDtype: ys.dtype,
      xs: xs.arraySync(),
      ys: ys.arraySync(),
    });
    tf.dispose(r.value);
  }
  return seen;
}

/** The item index each image encodes (its top-left red value). */
const imageIndices = (seen: Seen[]): number[] =>
  seen.flatMap((b) => b.xs.map((img) => img[0]?.[0]?.[0] ?? NaN));

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('toImageTensor', () => {
  it('drops alpha and returns float32 0–255', () => {
    const t = toImageTensor({
      data: new Uint8Array([1, 2, 3, 255, 4, 5, 6, 128]),
      width: 2,
      height: 1,
      channels: 4,
    });
    expect(t.dtype).toBe('float32');
    expect(t.arraySync()).toEqual([
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
    ]);
    t.dispose();
  });

  it('rejects a buffer of the wrong length', () => {
    expect(() => toImageTensor({ data: new Uint8Array(5), width: 2, height: 1, channels: 3 })).toThrow(
      /expected 2×1×3/,
    );
  });
});

describe('makeDataset', () => {
  it('yields [B,H,W,3] float32 images and [B] int32 labels, keeping the last partial batch', async () => {
    const seen = await collect(makeDataset(makeItems(10), options()));
    expect(seen.map((b) => b.xsShape)).toEqual([
      [4, 4, 5, 3],
      [4, 4, 5, 3],
      [2, 4, 5, 3],
    ]);
    expect(seen.map((b) => b.ysShape)).toEqual([[4], [4], [2]]);
    expect(new Set(seen.map((b) => `${b.xsDtype}/${b.ysDtype}`))).toEqual(new Set(['float32/int32']));
  });

  it('keeps every label with its own image, in order or shuffled', async () => {
    for (const shuffle of [false, true]) {
      const seen = await collect(makeDataset(makeItems(11), options({ shuffle })));
      const indices = imageIndices(seen);
      expect(indices.slice().sort((a, b) => a - b)).toEqual([...Array(11).keys()]);
      expect(seen.flatMap((b) => b.ys)).toEqual(indices.map((i) => i % NUM_CLASSES));
      if (shuffle) expect(indices).not.toEqual([...Array(11).keys()]);
    }
  });

  it('augments only when configured', async () => {
    const plain = await collect(makeDataset(makeItems(8), options()));
    const values = plain.flatMap((b) => b.xs.flat(3));
    expect(values).toEqual(plain.flatMap((b, k) => b.xs.flat(3).map((_, j) => Math.floor(j / 60) + 4 * k)));

    const brighter: AugmentConfig = { flip: false, brightnessMaxDelta: 40, contrastRange: [1, 1] };
    const augmented = await collect(makeDataset(makeItems(8), options({ augment: brighter })));
    const shifts = augmented.flatMap((b, k) => b.xs.map((img, j) => (img[0]?.[0]?.[0] ?? NaN) - (4 * k + j)));
    expect(shifts.every((d) => Math.abs(d) <= 40)).toBe(true);
    expect(new Set(shifts.map((d) => d.toFixed(3))).size).toBe(8);
    expect(augmented.flatMap((b) => b.ys)).toEqual(plain.flatMap((b) => b.ys));
  });

  it('is deterministic for a seed, across datasets and repeated iteration', async () => {
    const opts = options({
      shuffle: true,
      augment: { flip: true, brightnessMaxDelta: 30, contrastRange: [0.5, 1.5] },
    });
    const ds = makeDataset(makeItems(9), opts);
    const first = await collect(ds);
    expect(await collect(ds)).toEqual(first);
    expect(await collect(makeDataset(makeItems(9), opts))).toEqual(first);
    const other = await collect(makeDataset(makeItems(9), { ...opts, seed: 2 }));
    expect(imageIndices(other)).not.toEqual(imageIndices(first));
  });

  it('rejects the next() of a batch whose file fails to decode, naming the file', async () => {
    const decode = async (item: PipelineItem) => {
      if (item.path === 'c1/4.png') throw new Error('corrupt JPEG');
      if (item.path === 'c2/8.png') throw new Error('c2/8.png: truncated');
      return fakeDecode(item);
    };
    const before = tf.memory().numTensors;
    const it = await makeDataset(makeItems(10), options({ decode })).iterator();
    tf.dispose((await it.next()).value);
    const failure = it.next();
    await expect(failure).rejects.toThrow(InputError);
    await expect(failure).rejects.toThrow(
      'Input failed: could not load c1/4.png: corrupt JPEG. The model did not run on it.',
    );
    // Only that batch fails: the stream goes on, and a message that already names the file is kept as is.
    await expect(it.next()).rejects.toThrow(/^Input failed: c2\/8\.png: truncated\. .*drop the folder again/);
    expect((await it.next()).done).toBe(true);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('leaks no tensors over a full pass, augmenting on the GPU or the CPU', async () => {
    for (const augmentOn of ['gpu', 'cpu'] as const) {
      const before = tf.memory().numTensors;
      const opts = options({
        shuffle: true,
        augmentOn,
        augment: { flip: true, brightnessMaxDelta: 10, contrastRange: [0.8, 1.2] },
      });
      const ds = makeDataset(makeItems(13), opts);
      expect(await collect(ds)).toHaveLength(4);
      expect(await collect(ds)).toHaveLength(4);
      expect(tf.memory().numTensors).toBe(before);
    }
  });

  it('augments on the CPU to the same batches as on the GPU', async () => {
    const configs: Array<AugmentConfig | undefined> = [
      undefined,
      { flip: true, brightnessMaxDelta: 0, contrastRange: [1, 1] },
      { flip: true, brightnessMaxDelta: 30, contrastRange: [0.5, 1.5] },
      { flip: false, brightnessMaxDelta: 5, contrastRange: [0.2, 0.2] },
    ];
    for (const augment of configs) {
      for (const [height, width] of [
        [4, 5],
        [9, 2],
        [1, 1],
      ] as const) {
        const opts = options({ decode: noisyDecode, shuffle: true, augment, height, width });
        const gpu = await collect(makeDataset(makeItems(10), { ...opts, augmentOn: 'gpu' }));
        const cpu = await collect(makeDataset(makeItems(10), { ...opts, augmentOn: 'cpu' }));
        expect(cpu.map((b) => [b.xsShape, b.ys])).toEqual(gpu.map((b) => [b.xsShape, b.ys]));
        const a = gpu.flatMap((b) => b.xs.flat(3));
        const b = cpu.flatMap((b) => b.xs.flat(3));
        expect(Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? NaN))))).toBeLessThan(1e-4);
      }
    }
  });

  it("turns a pixel buffer of the wrong size into that batch's error, augmenting on either side", async () => {
    const decode = async (item: PipelineItem): Promise<DecodedImage> =>
      item.path === 'c2/5.png'
        ? { data: new Uint8Array(7), width: 2, height: 2, channels: 3 }
        : fakeDecode(item);
    for (const augmentOn of ['gpu', 'cpu'] as const) {
      const before = tf.memory().numTensors;
      const it = await makeDataset(makeItems(8), options({ decode, augmentOn })).iterator();
      tf.dispose((await it.next()).value);
      await expect(it.next()).rejects.toThrow('could not load c2/5.png: Decoded pixel buffer has 7 values');
      expect((await it.next()).done).toBe(true);
      expect(tf.memory().numTensors).toBe(before);
    }
  });

  it('resizes on the host exactly as tf.image.resizeBilinear (TF2 half-pixel centres)', async () => {
    for (const [height, width] of [
      [4, 5],
      [9, 2],
      [13, 13],
    ] as const) {
      const items = makeItems(10);
      const seen = await collect(
        makeDataset(items, options({ decode: noisyDecode, height, width, batchSize: 10 })),
      );
      const expected = await Promise.all(
        items.map(async (item) => {
          const decoded = await noisyDecode(item);
          return tf.tidy(() =>
            tf.image.resizeBilinear(toImageTensor(decoded), [height, width], false, true).arraySync(),
          );
        }),
      );
      const got = seen[0]!.xs.flat(3);
      const want = expected.flat(3);
      expect(got).toHaveLength(want.length);
      expect(Math.max(...got.map((v, i) => Math.abs(v - want[i]!)))).toBeLessThan(1e-4);
    }
  });

  it('costs the device the same for a huge photo as for a small one: only the resized image is a tensor', async () => {
    const photo = (side: number) => async (): Promise<DecodedImage> => ({
      data: new Uint8ClampedArray(side * side * 4).fill(90),
      width: side,
      height: side,
      channels: 4,
    });
    const augment: AugmentConfig = { flip: true, brightnessMaxDelta: 10, contrastRange: [0.8, 1.2] };
    for (const augmentOn of ['gpu', 'cpu'] as const) {
      const peak = async (side: number) => {
        const ds = makeDataset(makeItems(4), options({ decode: photo(side), augment, augmentOn }));
        const info = await tf.profile(async () => {
          await collect(ds);
        });
        return info.peakBytes;
      };
      const small = await peak(3);
      expect(await peak(1500)).toBe(small);
      // Four [4, 5, 3] images and their stacked batch, float32, plus the labels and augmentation temporaries.
      expect(small).toBeLessThan(4 * 4 * 5 * 3 * 4 * 6);
    }
  });

  it('reports a batch that does not fit the card as an input failure, never at a layer', async () => {
    const before = tf.memory().numTensors;
    const remove = installBudget('cpu', () => 1000);
    try {
      const it = await makeDataset(makeItems(8), options({ prefetch: 0 })).iterator();
      const failure = await it.next().then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(ResourceExhaustedError);
      const { details } = failure as ResourceExhaustedError;
      expect(details).toMatchObject({ kind: 'budget', phase: 'input', layer: null, layerClass: null });
      expect((failure as Error).message).toMatch(/loading the input batch/);
    } finally {
      remove();
    }
    expect(tf.memory().numTensors).toBe(before);
  });

  it('decodes lazily, prefetch batches ahead of the consumer', async () => {
    for (const prefetch of [0, 1, 2]) {
      const decoded: string[] = [];
      const decode = (item: PipelineItem) => {
        decoded.push(item.path);
        return fakeDecode(item);
      };
      const it = await makeDataset(makeItems(40), options({ prefetch, decode })).iterator();
      const first = await it.next();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(decoded).toHaveLength(4 * (1 + prefetch));
      // Drain so the prefetched batches are disposed too.
      for (let r = first; !r.done; r = await it.next()) tf.dispose(r.value);
    }
  });

  it('ends early once isStopped() turns true, decoding no further images', async () => {
    let decoded = 0;
    let stopped = false;
    const before = tf.memory().numTensors;
    const decode = async (item: PipelineItem) => {
      decoded++;
      return fakeDecode(item);
    };
    const ds = makeDataset(makeItems(40), options({ decode, prefetch: 0, isStopped: () => stopped }));
    const it = await ds.iterator();
    const first = await it.next();
    tf.dispose(first.value as Batch);
    stopped = true;
    let rest = 0;
    for (let r = await it.next(); !r.done; r = await it.next()) {
      rest++;
      tf.dispose(r.value);
    }
    expect(decoded).toBeLessThanOrEqual(8);
    expect(rest).toBeLessThanOrEqual(1);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('validates options and labels up front', () => {
    expect(() => makeDataset(makeItems(3), options({ batchSize: 0 }))).toThrow(
      /batchSize must be a positive integer/,
    );
    expect(() => makeDataset(makeItems(3), options({ prefetch: -1 }))).toThrow(RangeError);
    // A value from outside TypeScript (an old saved setting, a link): the pipeline checks it at run time.
    const fromOutside: string = 'tpu';
    expect(() =>
      makeDataset(makeItems(3), options({ augmentOn: fromOutside as PipelineOptions['augmentOn'] })),
    ).toThrow("augmentOn must be 'gpu' or 'cpu' (got tpu).");
    expect(() => makeDataset([{ path: 'x/1.png', label: 3 }], options())).toThrow(
      'x/1.png has label 3, outside [0, 3).',
    );
    expect(() =>
      makeDataset(
        makeItems(3),
        options({ augment: { flip: true, brightnessMaxDelta: -1, contrastRange: [1, 1] } }),
      ),
    ).toThrow(/Invalid augmentation: Brightness max delta/);
  });
});
