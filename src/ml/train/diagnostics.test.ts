import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../core/run/protocol';
import { makeDataset, type Batch, type DecodedImage, type PipelineItem } from '../data/pipeline';
import { MAX_THUMBNAILS_PER_CELL, thumbnails } from './diagnostics';
import { evaluate } from './evaluation';
import { noiseBatch, quietRunContext, tinyClassifier } from './fixtures';
import { runTraining } from './runLoop';
import { Trainer } from './trainer';
import { validationReport, type ReportOptions } from './validationReport';

// A classifier whose answer is known by hand: average the pixels, then logits = 0.1 × (R, G, B), so a
// red image is class 0, green class 1, blue class 2, each with a confidence near 1.
let model: tf.LayersModel;
let judge: Trainer;
beforeAll(async () => {
  await tf.setBackend('cpu');
  const input = tf.input({ shape: [8, 8, 3] });
  const pooled = tf.layers.globalAveragePooling2d({}).apply(input) as tf.SymbolicTensor;
  const dense = tf.layers.dense({ units: 3, activation: 'softmax', useBias: false });
  const output = dense.apply(pooled) as tf.SymbolicTensor;
  model = tf.model({ inputs: input, outputs: output });
  dense.setWeights([tf.mul(tf.eye(3), 0.1)]);
  judge = new Trainer(model, 1);
});
afterAll(() => {
  judge.dispose();
  model.dispose();
});

const COLOURS = { red: [255, 0, 0], green: [0, 255, 0], blue: [0, 0, 255] } as const;
type Colour = keyof typeof COLOURS;

function solid(colour: Colour, side = 8): DecodedImage {
  const data = new Uint8Array(side * side * 3);
  for (let i = 0; i < side * side; i++) data.set(COLOURS[colour], i * 3);
  return { data, width: side, height: side, channels: 3 };
}

/** Validation items as (colour, true label): the colour decides the prediction; `decoded` counts reads. */
function dataset(items: readonly [Colour, number][]) {
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

// Hand-counted: rows are true classes, columns predictions.
//   true 0: items 0 (red ✓), 5 (blue ✗ → 2), 6 (red ✓)      → [2, 0, 1]
//   true 1: items 1 (red ✗ → 0), 2 (green ✓)                → [1, 1, 0]
//   true 2: items 3 (blue ✓), 4 (green ✗ → 1), 7 (blue ✓)   → [0, 1, 2]
const ITEMS: [Colour, number][] = [
  ['red', 0],
  ['red', 1],
  ['green', 1],
  ['blue', 2],
  ['green', 2],
  ['blue', 0],
  ['red', 0],
  ['blue', 2],
];

/** A phase's report as a run makes it: one validation pass, then the report from its predictions. */
async function diagnose(images: () => tf.data.Dataset<Batch>, opts: ReportOptions) {
  const { predictions } = await evaluate(judge, images());
  return validationReport(predictions, images, opts);
}

describe('the validation pass', () => {
  it('predicts every image once, in order, with its label, arg-max class and confidence', async () => {
    const { ds } = dataset(ITEMS);
    const { predictions: p, accuracy } = await evaluate(judge, ds());
    expect(p.labels).toEqual(ITEMS.map(([, label]) => label));
    expect(p.classes).toEqual(ITEMS.map(([colour]) => ['red', 'green', 'blue'].indexOf(colour)));
    expect(p.numClasses).toBe(3);
    for (const c of p.confidence) expect(c).toBeCloseTo(1 / (1 + 2 * Math.exp(-25.5)), 5);
    expect(accuracy).toBeCloseTo(5 / 8, 6);
  });
});

describe('the validation report', () => {
  it('reads no image again when every prediction is right', async () => {
    const { ds, paths, counter } = dataset([
      ['red', 0],
      ['green', 1],
      ['blue', 2],
    ]);
    const { predictions } = await evaluate(judge, ds());
    counter.decoded = 0;
    const report = await validationReport(predictions, ds, { phase: 'frozen', paths });
    expect(counter.decoded).toBe(0);
    expect([report.total, report.correct, report.misclassified.length]).toEqual([3, 3, 0]);
  });

  it('counts the confusion matrix and scores the classes as counted by hand', async () => {
    const { ds, paths } = dataset(ITEMS);
    const r = await diagnose(ds, { phase: 'frozen', paths });
    expect(r.counts).toEqual([
      [2, 0, 1],
      [1, 1, 0],
      [0, 1, 2],
    ]);
    expect(r.total).toBe(8);
    expect(r.correct).toBe(5);
    expect(r.phase).toBe('frozen');
    // class 0: TP 2, predicted as 0: 3, support 3.
    expect(r.perClass[0]!.precision).toBeCloseTo(2 / 3);
    expect(r.perClass[0]!.recall).toBeCloseTo(2 / 3);
  });

  it('lists each misclassified image with its path, classes, confidence and picture', async () => {
    const { ds, paths } = dataset(ITEMS);
    const r = await diagnose(ds, { phase: 'fine-tune', paths });
    expect(r.misclassified.map((m) => [m.index, m.path, m.label, m.predicted])).toEqual([
      [1, 'red/1.png', 1, 0],
      [4, 'green/4.png', 2, 1],
      [5, 'blue/5.png', 0, 2],
    ]);
    // softmax(25.5, 0, 0) for class 0.
    const expected = 1 / (1 + 2 * Math.exp(-25.5));
    for (const m of r.misclassified) expect(m.confidence).toBeCloseTo(expected, 5);
    const red = r.misclassified[0]!.thumbnail!;
    expect([red.width, red.height, red.rgba.length]).toEqual([8, 8, 8 * 8 * 4]);
    expect([...red.rgba.slice(0, 8)]).toEqual([255, 0, 0, 255, 255, 0, 0, 255]);
  });

  it('bounds the thumbnails of one cell but still lists every image', async () => {
    const many: [Colour, number][] = Array.from({ length: MAX_THUMBNAILS_PER_CELL + 3 }, () => ['red', 1]);
    const { ds, paths } = dataset(many);
    const r = await diagnose(ds, { phase: 'frozen', paths });
    expect(r.misclassified).toHaveLength(many.length);
    expect(r.misclassified.filter((m) => m.thumbnail !== null)).toHaveLength(MAX_THUMBNAILS_PER_CELL);
  });

  it('leaks no tensor', async () => {
    const run = async () => {
      const { ds, paths } = dataset(ITEMS);
      await diagnose(ds, { phase: 'frozen', paths });
    };
    await run();
    const before = tf.memory().numTensors;
    await run();
    expect(tf.memory().numTensors).toBe(before);
    await run();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('thumbnails', () => {
  it('shrinks a large image to fit 64 pixels, keeping the aspect ratio, and frees what it made', async () => {
    const xs = tf.fill([2, 100, 50, 3], 128) as tf.Tensor4D;
    const before = tf.memory().numTensors;
    const pics = await thumbnails(xs, [1]);
    expect(tf.memory().numTensors).toBe(before);
    xs.dispose();
    const t = pics.get(1)!;
    expect([t.width, t.height]).toEqual([32, 64]);
    expect([...t.rgba.slice(0, 4)]).toEqual([128, 128, 128, 255]);
    expect(pics.has(0)).toBe(false);
  });
});

describe('runTraining with validation paths', () => {
  it('ends every phase with diagnostics of the whole validation split, agreeing with val_accuracy', async () => {
    const { model: classifier, backboneLayerCount } = tinyClassifier(32, 3);
    const trainer = new Trainer(classifier, backboneLayerCount);
    const events: EngineEvent[] = [];
    const paths = Array.from({ length: 8 }, (_, i) => `v/${i}.png`);
    const before = tf.memory().numTensors;
    await runTraining(
      trainer,
      [
        { phase: 'frozen', epochs: 1, learningRate: 1e-3, unfreeze: 0 },
        { phase: 'fine-tune', epochs: 1, learningRate: 1e-4, unfreeze: 5 },
      ],
      quietRunContext(events, {
        dataset: (split) =>
          tf.data.generator(function* () {
            for (let b = 0; b < 2; b++) yield noiseBatch(4, 32, 3, 10 * b + (split === 'train' ? 1 : 2));
          }),
        batchesPerEpoch: 2,
        patience: 5,
        validationPaths: paths,
      }),
    );
    const reports = events.flatMap((e) => (e.kind === 'diagnostics' ? [e.report] : []));
    const epochs = events.flatMap((e) => (e.kind === 'epoch' ? [e] : []));
    expect(reports.map((r) => r.phase)).toEqual(['frozen', 'fine-tune']);
    reports.forEach((r, i) => {
      expect(r.total).toBe(8);
      expect(r.correct / r.total).toBeCloseTo(epochs[i]!.valAccuracy, 6);
      for (const m of r.misclassified) expect(m.path).toBe(paths[m.index]);
    });
    trainer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    classifier.dispose();
  });
});
