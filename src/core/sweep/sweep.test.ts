import { describe, expect, it } from 'vitest';
import type { ModelSpec } from '../model/modelSpec';
import { unfreezeAll } from '../model/layerTable';
import { trainableLayers } from '../model/modelSpec';
import { planInput, planKeras, planTfjs } from '../planner/planner';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';
import {
  DEFAULT_SWEEP_GRID,
  DEFAULT_SWEEP_LIMITS,
  DEFAULT_SWEEP_PRESETS,
  byBatch,
  bySize,
  curveBatches,
  gridPoints,
  parseNumberList,
  predictedBatchCurve,
  predictSweepKeras,
  predictSweepPeak,
  shouldSkip,
  skipCause,
  validateGrid,
  type SweepGrid,
  type SweepPoint,
  type SweepPreset,
} from './sweep';
import { layer } from '../model/testLayers';

const preset = (id: string): SweepPreset => {
  const found = DEFAULT_SWEEP_PRESETS.find((p) => p.id === id);
  if (!found) throw new Error(`no preset ${id}`);
  return found;
};

const grid = (over: Partial<SweepGrid> = {}): SweepGrid => ({
  batches: [8, 2, 4],
  sizes: [128, 64],
  presets: [preset('head'), preset('all')],
  ...over,
});

const fields = (g: SweepGrid) => validateGrid(g).map((p) => p.field);

describe('DEFAULT_SWEEP_GRID', () => {
  it('is valid and lists presets that exist', () => {
    expect(validateGrid(DEFAULT_SWEEP_GRID)).toEqual([]);
    expect(DEFAULT_SWEEP_GRID.presets.every((p) => DEFAULT_SWEEP_PRESETS.includes(p))).toBe(true);
  });

  it('offers head only, last 30, last 80 and all layers', () => {
    expect(DEFAULT_SWEEP_PRESETS.map((p) => [p.id, p.phase, p.fineTune])).toEqual([
      ['head', 'frozen', { kind: 'head' }],
      ['last30', 'fine-tune', { kind: 'last', n: 30 }],
      ['last80', 'fine-tune', { kind: 'last', n: 80 }],
      ['all', 'fine-tune', { kind: 'all' }],
    ]);
  });
});

describe('parseNumberList', () => {
  it('reads commas, spaces and semicolons and ignores empty entries', () => {
    expect(parseNumberList(' 8, 16 ;32,, 64 ,', 'batches')).toEqual({
      values: [8, 16, 32, 64],
      problems: [],
    });
    expect(parseNumberList('', 'sizes')).toEqual({ values: [], problems: [] });
  });

  it('names the field of each entry that is not a number', () => {
    const { values, problems } = parseNumberList('8, abc, 1e', 'sizes');
    expect(values).toEqual([8]);
    expect(problems).toEqual([
      { field: 'sizes', message: 'Input sizes: "abc" is not a number.' },
      { field: 'sizes', message: 'Input sizes: "1e" is not a number.' },
    ]);
  });
});

describe('validateGrid', () => {
  it('accepts a sound grid', () => {
    expect(validateGrid(grid())).toEqual([]);
  });

  it('names the field of an empty list', () => {
    expect(validateGrid(grid({ batches: [], sizes: [], presets: [] }))).toEqual([
      { field: 'batches', message: 'Batch sizes: list at least one.' },
      { field: 'sizes', message: 'Input sizes: list at least one.' },
      { field: 'presets', message: 'Trainable presets: tick at least one.' },
    ]);
  });

  it('rejects batches below 1, above the limit, or fractional', () => {
    const problems = validateGrid(grid({ batches: [0, 2.5, 4, 2000] }));
    expect(problems.map((p) => p.message)).toEqual([
      'Batch sizes: 0 is not a whole number from 1 to 1024.',
      'Batch sizes: 2.5 is not a whole number from 1 to 1024.',
      'Batch sizes: 2000 is not a whole number from 1 to 1024.',
    ]);
  });

  it('rejects sizes that are too small, too large or not a multiple of 8', () => {
    const problems = validateGrid(grid({ sizes: [16, 100, 128, 4096] }));
    expect(problems.map((p) => p.message)).toEqual([
      'Input sizes: 16 is not a whole number of pixels from 32 to 2048.',
      'Input sizes: 100 is not a multiple of 8.',
      'Input sizes: 4096 is not a whole number of pixels from 32 to 2048.',
    ]);
  });

  it('rejects a preset listed twice', () => {
    expect(validateGrid(grid({ presets: [preset('all'), preset('head'), preset('all')] }))).toEqual([
      { field: 'presets', message: 'Trainable presets: "all" appears more than once.' },
    ]);
  });

  it('limits the number of points, counting duplicates once', () => {
    const big = grid({
      batches: [1, 2, 4, 8, 16, 32],
      sizes: [64, 96, 128],
      presets: [...DEFAULT_SWEEP_PRESETS],
    });
    expect(validateGrid(big)).toEqual([
      {
        field: 'points',
        message: 'Grid: 72 points (6 batch sizes × 3 input sizes × 4 presets); one sweep runs at most 40.',
      },
    ]);
    expect(fields(grid({ batches: [1, 1, 1, 2], sizes: [64] }))).toEqual([]);
    expect(validateGrid(big, { ...DEFAULT_SWEEP_LIMITS, maxPoints: 72 })).toEqual([]);
  });
});

describe('gridPoints', () => {
  it('runs presets as listed, then sizes and batches ascending, each once', () => {
    const points = gridPoints(grid({ batches: [8, 2, 8], sizes: [128, 64] }));
    expect(points.map((p) => `${p.presetId}/${p.size}/${p.batch}`)).toEqual([
      'head/64/2',
      'head/64/8',
      'head/128/2',
      'head/128/8',
      'all/64/2',
      'all/64/8',
      'all/128/2',
      'all/128/8',
    ]);
  });
});

describe('skipCause and shouldSkip', () => {
  const oom = (over: Partial<SweepPoint> = {}): SweepPoint => ({
    batch: 8,
    size: 128,
    presetId: 'all',
    status: 'oom',
    oomKind: 'budget',
    oomLayer: 'block3b_project_conv',
    ...over,
  });

  it('skips a larger batch at the same size and preset after a budget OOM', () => {
    const cause = oom();
    const points = [
      { batch: 4, size: 128, presetId: 'all', status: 'measured', peakBytes: 1e6 } as const,
      cause,
    ];
    expect(skipCause(points, { batch: 16, size: 128, presetId: 'all' })).toBe(cause);
    expect(shouldSkip(points, { batch: 16, size: 128, presetId: 'all' })).toBe(true);
  });

  it('runs the same or a smaller batch, another size or another preset', () => {
    const points = [oom()];
    expect(shouldSkip(points, { batch: 8, size: 128, presetId: 'all' })).toBe(false);
    expect(shouldSkip(points, { batch: 4, size: 128, presetId: 'all' })).toBe(false);
    expect(shouldSkip(points, { batch: 16, size: 160, presetId: 'all' })).toBe(false);
    expect(shouldSkip(points, { batch: 16, size: 128, presetId: 'head' })).toBe(false);
  });

  it('does not skip after a real device failure, which need not repeat', () => {
    for (const oomKind of [
      'device-oom',
      'buffer-limit',
      'device-lost',
      'context-lost',
      'host-oom',
    ] as const) {
      expect(shouldSkip([oom({ oomKind })], { batch: 16, size: 128, presetId: 'all' })).toBe(false);
    }
    expect(shouldSkip([oom({ oomKind: undefined })], { batch: 16, size: 128, presetId: 'all' })).toBe(false);
  });

  it('skips every larger batch of a grid run in order, after the first budget OOM', () => {
    const fitsBelow = 12;
    const points: SweepPoint[] = [];
    for (const target of gridPoints(
      grid({ batches: [4, 8, 16, 32, 64], sizes: [64], presets: [preset('all')] }),
    )) {
      if (shouldSkip(points, target)) points.push({ ...target, status: 'skipped' });
      else if (target.batch < fitsBelow)
        points.push({ ...target, status: 'measured', peakBytes: target.batch });
      else points.push(oom({ ...target }));
    }
    expect(points.map((p) => p.status)).toEqual(['measured', 'measured', 'oom', 'skipped', 'skipped']);
  });
});

describe('byBatch and bySize', () => {
  const points: SweepPoint[] = [
    { batch: 8, size: 64, presetId: 'all', status: 'measured', peakBytes: 800, predictedBytes: 790 },
    { batch: 2, size: 64, presetId: 'all', status: 'measured', peakBytes: 200, predictedBytes: 210 },
    { batch: 16, size: 64, presetId: 'all', status: 'oom', oomKind: 'budget', predictedBytes: 1600 },
    { batch: 32, size: 64, presetId: 'all', status: 'skipped', predictedBytes: 3200 },
    { batch: 2, size: 128, presetId: 'all', status: 'measured', peakBytes: 800 },
    { batch: 2, size: 64, presetId: 'head', status: 'measured', peakBytes: 50, predictedBytes: 40 },
  ];

  it('gives one row per batch at a size and preset, ascending, with OOMs flagged', () => {
    expect(byBatch(points, 64, 'all')).toEqual([
      { x: 2, measured: 200, predicted: 210 },
      { x: 8, measured: 800, predicted: 790 },
      { x: 16, predicted: 1600, oom: true },
      { x: 32, predicted: 3200 },
    ]);
    expect(byBatch(points, 96, 'all')).toEqual([]);
  });

  it('gives one row per size at a batch and preset, ascending', () => {
    expect(bySize(points, 2, 'all')).toEqual([
      { x: 64, measured: 200, predicted: 210 },
      { x: 128, measured: 800 },
    ]);
    expect(bySize(points, 2, 'head')).toEqual([{ x: 64, measured: 50, predicted: 40 }]);
  });

  it('keeps the latest point when one is measured twice', () => {
    const again: SweepPoint = { batch: 2, size: 64, presetId: 'all', status: 'measured', peakBytes: 222 };
    expect(byBatch([...points, again], 64, 'all')[0]).toEqual({ x: 2, measured: 222 });
  });
});

/** input → conv 3×3 (s×s×3 → s×s×8) → GAP → dense (3 classes), at input size s. */
const toy = (s: number): ModelSpec => ({
  name: 'toy',
  height: s,
  width: s,
  backboneLayerCount: 2,
  layers: [
    layer({ name: 'input', kind: 'input', outputShape: [s, s, 3] }),
    layer({
      name: 'conv',
      kind: 'conv2d',
      inputs: ['input'],
      inputShapes: [[s, s, 3]],
      outputShape: [s, s, 8],
      trainableWeightSizes: [3 * 3 * 3 * 8],
      macs: s * s * 8 * 27,
    }),
    layer({
      name: 'gap',
      kind: 'globalAveragePooling2d',
      inputs: ['conv'],
      inputShapes: [[s, s, 8]],
      outputShape: [8],
    }),
    layer({
      name: 'dense',
      kind: 'dense',
      activation: 'softmax',
      inputs: ['gap'],
      inputShapes: [[8]],
      outputShape: [3],
      trainableWeightSizes: [24, 3],
      macs: 24,
    }),
  ],
});

describe('predicted batch curve', () => {
  it('spans powers of two around the batch, the batch included', () => {
    expect(curveBatches(8)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(curveBatches(28)).toEqual([1, 2, 4, 8, 16, 28, 32, 64]);
    expect(curveBatches(100)).toEqual([1, 2, 4, 8, 16, 32, 64, 100, 128]);
  });

  it('predicts each batch as the planner does for the configuration, growing with the batch', () => {
    const spec = toy(32);
    const c = {
      ...DEFAULT_TRAIN_CONFIG,
      techniques: { ...DEFAULT_TRAIN_CONFIG.techniques, accumulationSteps: 4 },
    };
    const rows = predictedBatchCurve(spec, c, 'fine-tune', [2, 8, 16]);
    expect(rows.map((r) => r.x)).toEqual([2, 8, 16]);
    const at8 = { ...planInput(spec, { ...c, batchSize: 8 }, 'fine-tune'), accumulationSteps: 4 };
    expect(rows[1]).toEqual({
      x: 8,
      predicted: planTfjs(at8).peakBytes,
      keras: planKeras(at8).peakBytes,
      kerasMixed: planKeras(at8, 'mixed_float16').peakBytes,
    });
    // Fewer images than micro-batches: one micro-batch per image.
    expect(rows[0]!.predicted).toBe(
      planTfjs({ ...planInput(spec, { ...c, batchSize: 2 }, 'fine-tune'), accumulationSteps: 2 }).peakBytes,
    );
    expect(rows[2]!.keras!).toBeGreaterThan(rows[1]!.keras!);
  });
});

describe('predictSweepPeak', () => {
  it('plans the step as the trainer runs it: Adam, frozen backbone outside the tape', () => {
    const spec = toy(32);
    expect(predictSweepPeak(spec, 4, preset('head'), 1)).toBe(
      planTfjs({
        spec,
        batch: 4,
        trainable: trainableLayers(spec, 'frozen', 0),
        optimizer: 'adam',
        backboneOutsideTape: true,
        queuedBatches: 1,
      }).peakBytes,
    );
    expect(predictSweepPeak(spec, 4, preset('all'), 1)).toBe(
      planTfjs({
        spec,
        batch: 4,
        trainable: unfreezeAll(spec),
        optimizer: 'adam',
        backboneOutsideTape: false,
        queuedBatches: 1,
      }).peakBytes,
    );
  });

  it('predicts the same point in Keras, where mixed float16 needs less than float32', () => {
    const spec = toy(32);
    const all = preset('all');
    const { kerasBytes, kerasMixedBytes } = predictSweepKeras(spec, 8, all);
    const input = {
      spec,
      batch: 8,
      trainable: unfreezeAll(spec),
      optimizer: 'adam' as const,
      backboneOutsideTape: false,
      queuedBatches: 0,
    };
    expect(kerasBytes).toBe(planKeras(input).peakBytes);
    expect(kerasMixedBytes).toBe(planKeras(input, 'mixed_float16').peakBytes);
    expect(kerasMixedBytes).toBeLessThan(kerasBytes);
    const rows = byBatch(
      [
        {
          presetId: 'all',
          size: 32,
          batch: 8,
          status: 'measured',
          peakBytes: 1,
          kerasBytes,
          kerasMixedBytes,
        },
      ],
      32,
      'all',
    );
    expect(rows).toEqual([{ x: 8, measured: 1, keras: kerasBytes, kerasMixed: kerasMixedBytes }]);
  });

  it('grows with the batch, the input size and the trainable set', () => {
    const all = preset('all');
    expect(predictSweepPeak(toy(32), 8, all, 0)).toBeGreaterThan(predictSweepPeak(toy(32), 4, all, 0));
    expect(predictSweepPeak(toy(64), 4, all, 0)).toBeGreaterThan(predictSweepPeak(toy(32), 4, all, 0));
    expect(predictSweepPeak(toy(32), 4, all, 0)).toBeGreaterThan(
      predictSweepPeak(toy(32), 4, preset('head'), 0),
    );
  });
});
