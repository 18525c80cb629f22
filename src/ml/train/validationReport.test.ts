import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataset, type Batch, type DecodedImage, type PipelineItem } from '../data/pipeline';
import { MAX_THUMBNAILS_PER_CELL } from './diagnostics';
import { evaluate } from './evaluation';
import { Trainer } from './trainer';
import { validationReport } from './validationReport';

// A classifier whose answer is known: average the pixels, then logits = 0.1 × (R, G, B), so a red image
// is class 0, green 1, blue 2 (diagnostics.test.ts checks the report's counts and scores by hand).
let model: tf.LayersModel;
let trainer: Trainer;
beforeAll(async () => {
  await tf.setBackend('cpu');
  const input = tf.input({ shape: [8, 8, 3] });
  const pooled = tf.layers.globalAveragePooling2d({}).apply(input) as tf.SymbolicTensor;
  const dense = tf.layers.dense({ units: 3, activation: 'softmax', useBias: false });
  model = tf.model({ inputs: input, outputs: dense.apply(pooled) as tf.SymbolicTensor });
  dense.setWeights([tf.mul(tf.eye(3), 0.1)]);
  trainer = new Trainer(model, 1);
});
afterAll(() => {
  trainer.dispose();
  model.dispose();
});

const COLOURS = { red: [255, 0, 0], green: [0, 255, 0], blue: [0, 0, 255] } as const;
type Colour = keyof typeof COLOURS;

function solid(colour: Colour): DecodedImage {
  const data = new Uint8Array(8 * 8 * 3);
  for (let i = 0; i < 64; i++) data.set(COLOURS[colour], i * 3);
  return { data, width: 8, height: 8, channels: 3 };
}

/** Validation items as (colour, true label); `decoded` counts the images read. */
function split(items: readonly [Colour, number][]) {
  const pipelineItems: PipelineItem[] = items.map(([colour, label], i) => ({
    path: `${colour}/${i}.png`,
    label,
  }));
  const counter = { decoded: 0 };
  const ds = (): tf.data.Dataset<Batch> =>
    makeDataset(pipelineItems, {
      height: 8,
      width: 8,
      batchSize: 3,
      numClasses: 3,
      seed: 1,
      shuffle: false,
      prefetch: 0,
      decode: async (item) => {
        counter.decoded++;
        return solid(item.path.split('/')[0] as Colour);
      },
    });
  return { ds, paths: pipelineItems.map((i) => i.path), counter };
}

const MIXED: [Colour, number][] = [
  ['red', 0],
  ['red', 1],
  ['green', 1],
  ['blue', 2],
  ['green', 2],
  ['blue', 0],
  ['red', 0],
  ['blue', 2],
];

describe('evaluate predictions', () => {
  it('holds every image once, in order, with its label, arg-max class and confidence', async () => {
    const { ds } = split(MIXED);
    const { predictions: p, accuracy } = await evaluate(trainer, ds());
    expect(p.labels).toEqual(MIXED.map(([, label]) => label));
    expect(p.classes).toEqual(MIXED.map(([colour]) => ['red', 'green', 'blue'].indexOf(colour)));
    expect(p.numClasses).toBe(3);
    const expected = 1 / (1 + 2 * Math.exp(-25.5));
    for (const c of p.confidence) expect(c).toBeCloseTo(expected, 5);
    expect(accuracy).toBeCloseTo(5 / 8, 6);
  });
});

describe('validationReport', () => {
  it('names the misclassified images by path, each with the picture the model saw', async () => {
    const { ds, paths } = split(MIXED);
    const { predictions } = await evaluate(trainer, ds());
    const report = await validationReport(predictions, ds, { phase: 'fine-tune', paths });
    expect([report.total, report.correct]).toEqual([8, 5]);
    expect(report.misclassified.map((m) => m.path)).toEqual(['red/1.png', 'green/4.png', 'blue/5.png']);
    expect(report.misclassified.every((m) => m.thumbnail !== null)).toBe(true);
  });

  it('bounds the thumbnails of a cell but lists every image', async () => {
    const many = Array.from({ length: MAX_THUMBNAILS_PER_CELL + 3 }, (): [Colour, number] => ['red', 1]);
    const { ds, paths } = split(many);
    const { predictions } = await evaluate(trainer, ds());
    const report = await validationReport(predictions, ds, { phase: 'frozen', paths });
    expect(report.misclassified).toHaveLength(many.length);
    expect(report.misclassified.filter((m) => m.thumbnail !== null)).toHaveLength(MAX_THUMBNAILS_PER_CELL);
  });

  it('reads no image when every prediction is right', async () => {
    const { ds, paths, counter } = split([
      ['red', 0],
      ['green', 1],
      ['blue', 2],
    ]);
    const { predictions } = await evaluate(trainer, ds());
    counter.decoded = 0;
    const report = await validationReport(predictions, ds, { phase: 'frozen', paths });
    expect(counter.decoded).toBe(0);
    expect([report.total, report.correct, report.misclassified.length]).toEqual([3, 3, 0]);
  });

  it('leaks no tensor', async () => {
    const { ds, paths } = split(MIXED);
    const run = async () => {
      const { predictions } = await evaluate(trainer, ds());
      await validationReport(predictions, ds, { phase: 'frozen', paths });
    };
    await run();
    const before = tf.memory().numTensors;
    await run();
    await run();
    expect(tf.memory().numTensors).toBe(before);
  });
});
