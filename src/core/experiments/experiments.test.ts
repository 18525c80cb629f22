import { describe, expect, it } from 'vitest';
import { experimentCards, isSeedCase, SEED_CONFIG, type ExperimentCard } from './experiments';
import {
  convShape,
  firstSpatialConv,
  headWeights,
  highestPeak,
  matchingRun,
  poolVsLive,
  predictPhases,
  sameValue,
  trainableWeights,
} from './math';
import type { HistoryEntry } from '../run/history';
import type { ModelSpec } from '../model/modelSpec';
import { planInput, planKeras, planTfjs } from '../planner/planner';
import { FLOAT16_WORDS } from '../oom/remedies';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';
import type { TrainConfig } from '../settings/trainConfig';
import { layer } from '../model/testLayers';

/**
 * input 32×32×3 → stem 3×3×3→64 (stride 2) → BN → swish → depthwise 3×3 → project 1×1 64→64 (the
 * backbone, 6 layers) → GAP → Dense(128) → Dense(3).
 */
const spec: ModelSpec = {
  name: 'toy',
  height: 32,
  width: 32,
  backboneLayerCount: 6,
  layers: [
    layer({ name: 'input', kind: 'input', outputShape: [32, 32, 3] }),
    layer({
      name: 'stem_conv',
      kind: 'conv2d',
      inputs: ['input'],
      inputShapes: [[32, 32, 3]],
      outputShape: [16, 16, 64],
      trainableWeightSizes: [1728],
    }),
    layer({
      name: 'stem_bn',
      kind: 'batchNormalization',
      inputs: ['stem_conv'],
      inputShapes: [[16, 16, 64]],
      outputShape: [16, 16, 64],
      trainableWeightSizes: [64, 64],
      fixedWeightSizes: [64, 64],
    }),
    layer({
      name: 'stem_act',
      kind: 'activation',
      activation: 'swish',
      inputs: ['stem_bn'],
      inputShapes: [[16, 16, 64]],
      outputShape: [16, 16, 64],
    }),
    layer({
      name: 'dw',
      kind: 'depthwiseConv2d',
      inputs: ['stem_act'],
      inputShapes: [[16, 16, 64]],
      outputShape: [16, 16, 64],
      trainableWeightSizes: [576],
    }),
    layer({
      name: 'project',
      kind: 'conv2d',
      inputs: ['dw'],
      inputShapes: [[16, 16, 64]],
      outputShape: [16, 16, 64],
      trainableWeightSizes: [4096],
    }),
    layer({
      name: 'gap',
      kind: 'globalAveragePooling2d',
      inputs: ['project'],
      inputShapes: [[16, 16, 64]],
      outputShape: [64],
    }),
    layer({
      name: 'fc',
      kind: 'dense',
      activation: 'relu',
      inputs: ['gap'],
      inputShapes: [[64]],
      outputShape: [128],
      trainableWeightSizes: [8192, 128],
    }),
    layer({
      name: 'out',
      kind: 'dense',
      activation: 'softmax',
      inputs: ['fc'],
      inputShapes: [[128]],
      outputShape: [3],
      trainableWeightSizes: [384, 3],
    }),
  ],
};

const config: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  model: 'tiny',
  weights: 'random',
  height: 32,
  width: 32,
  batchSize: 16,
  frozenEpochs: 1,
  fineTuneEpochs: 1,
  fineTune: { kind: 'all' },
};

const cards = (c: TrainConfig = config, s: ModelSpec | null = spec) =>
  experimentCards({ config: c, spec: s, pool: null });
const byId = (id: ExperimentCard['id'], c?: TrainConfig, s?: ModelSpec | null) =>
  cards(c, s).find((x) => x.id === id)!;

describe('experimentCards', () => {
  it('still gives every card when both epoch fields are 0 (the settings say why no run starts)', () => {
    // Editing 1+0 to 0+1 passes through 0+0; the page rendered these cards and went blank on it.
    const none = cards({ ...config, frozenEpochs: 0, fineTuneEpochs: 0 });
    expect(none).toHaveLength(12);
    expect(none.find((c) => c.id === 'smaller-batch')!.arithmetic.join(' ')).toContain('Input batch: 16');
  });
  it('is the seed case, then the eleven remedies in OOM-CONTEXT order', () => {
    const list = cards();
    expect(list[0]!.id).toBe('seed');
    expect(list.slice(1).map((c) => c.remedy)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    for (const c of list) expect(c.pair !== null || c.noRun !== null).toBe(true);
  });

  it('counts the stem: 3×3×3→64 is 1,728 weights, depthwise 27 + pointwise 192 = 219', () => {
    expect(convShape(spec.layers[1]!)).toMatchObject({
      k: 3,
      cin: 3,
      cout: 64,
      weights: 1728,
      depthwise: 27,
      pointwise: 192,
    });
    // The 1×1 projection is not a spatial convolution: the stem is the one shown.
    expect(convShape(spec.layers[5]!)?.k).toBe(1);
    expect(firstSpatialConv(spec)?.layer).toBe('stem_conv');
    const text = byId('lighter-blocks').arithmetic.join(' ');
    expect(text).toContain(
      'stem_conv: a 3×3×3→64 convolution has 1,728 weights; depthwise 27 + pointwise 192 = 219',
    );
    // 64·128 + 128 after pooling; 16·16·64·128 + 128 after Flatten.
    expect(headWeights(spec)).toEqual({ features: [16, 16, 64], pooled: 8320, flattened: 2_097_280 });
    expect(text).toContain('has 8,320 weights; after Flatten it would have 2,097,280');
    expect(text).toContain('already has 1 depthwise convolutions');
  });

  it('halves the batch and says the input bytes: 16 × 32×32×3 × 4 = 197 KB → 98.3 KB', () => {
    const c = byId('smaller-batch');
    expect(c.pair?.before).toEqual(config);
    expect(c.pair?.after.batchSize).toBe(8);
    expect(c.arithmetic[0]).toBe('Input batch: 16 × 32×32×3 × 4 bytes = 197 KB → 98.3 KB.');
    expect(byId('smaller-batch', { ...config, batchSize: 1 }).pair).toBeNull();
  });

  it('unfreezes the last quarter of the backbone at a tenth of the rate, counting their weights', () => {
    const c = byId('unfreeze-top');
    // 5 backbone layers besides the input: the last quarter is 1 layer (the projection, 4,096 weights).
    expect(c.pair?.after.fineTune).toEqual({ kind: 'last', n: 1 });
    expect(c.pair?.after.fineTuneLearningRate).toBeCloseTo(1e-4);
    // All: 1,728 + 128 + 576 + 4,096 backbone + 8,320 + 387 head = 15,235; × 12 bytes = 183 KB.
    expect(trainableWeights(spec, c.pair!.before)).toBe(15_235);
    expect(trainableWeights(spec, c.pair!.after)).toBe(4096 + 8320 + 387);
    expect(c.arithmetic[0]).toBe('All layers: 15,235 trainable weights, 183 KB of gradients and Adam slots.');
  });

  it('lowers 300×500 to 240×400 (64% of the pixels) and stops at 32 px', () => {
    const big = { ...config, height: 300, width: 500 };
    const c = byId('lower-resolution', big, null);
    expect(c.pair?.after).toMatchObject({ height: 240, width: 400 });
    expect(c.arithmetic[0]).toBe('240×400 has 64% of the pixels of 300×500.');
    expect(byId('lower-resolution').pair).toBeNull();
  });

  it('splits uneven batches as the trainer does: 15 → 8 or 7', () => {
    const c = byId('accumulate', { ...config, batchSize: 15 });
    expect(c.pair?.after.techniques.accumulationSteps).toBe(2);
    expect(c.pair?.before.techniques.accumulationSteps).toBe(1);
    expect(c.arithmetic[0]).toContain('2 micro-batches of 8 or 7: 15 images per update');
  });

  it('caps the card at 90% of the predicted peak, in whole MB', () => {
    const c = byId('memory-limit');
    const peak = highestPeak(spec, { ...config, budgetBytes: null });
    expect(c.pair?.before.budgetBytes).toBeNull();
    expect(c.pair?.after.budgetBytes).toBe(Math.max(1e6, Math.floor((peak * 0.9) / 1e6) * 1e6));
  });

  it("mixed precision: the Keras prediction beside float16 storage, in exactly the lab's words", () => {
    const c = byId('mixed-precision');
    expect(c.tfjs).toBe('partial');
    expect(FLOAT16_WORDS).toBe('float16 storage, float32 math — tfjs has no float16 arithmetic');
    expect(c.limitation).toContain(FLOAT16_WORDS);
    expect(c.pair?.before.techniques).toMatchObject({ checkpointing: 'blocks', float16Storage: false });
    expect(c.pair?.after.techniques).toMatchObject({ checkpointing: 'blocks', float16Storage: true });
    const input = planInput(spec, config, 'fine-tune');
    // Mixed float16 stores every activation in 2 bytes instead of 4: exactly half.
    const fp32 = planKeras(input, 'float32').categories.savedActivations;
    expect(planKeras(input, 'mixed_float16').categories.savedActivations).toBe(fp32 / 2);
  });

  it('the seed story at small scale: a card between the frozen and fine-tune peaks, then the batch that fits', () => {
    const c = byId('seed');
    const frozen = planTfjs(planInput(spec, config, 'frozen')).peakBytes;
    const fine = planTfjs(planInput(spec, config, 'fine-tune')).peakBytes;
    const card = c.pair!.before.budgetBytes!;
    expect(card).toBe(Math.ceil((frozen + fine) / 2 / 1e6) * 1e6);
    expect(frozen).toBeLessThan(card);
    expect(fine).toBeGreaterThan(card);
    const after = c.pair!.after;
    expect(after.batchSize).toBeLessThan(16);
    // The largest batch predicted within 95% of the card: one more image would not be.
    expect(highestPeak(spec, after)).toBeLessThanOrEqual(card * 0.95);
    expect(highestPeak(spec, { ...after, batchSize: after.batchSize + 1 })).toBeGreaterThan(card * 0.95);
    expect(c.arithmetic.join(' ')).toContain('fit() ignores batch_size for a dataset');
  });

  it('recognises the seed settings and waits for the model at full size', () => {
    const seed = { ...config, ...SEED_CONFIG };
    expect(isSeedCase(seed)).toBe(true);
    expect(isSeedCase(config)).toBe(false);
    const c = byId('seed', seed, null);
    expect(c.pair).toBeNull();
    expect(c.arithmetic[0]).toContain('press “Set the seed case”');
  });

  it('predicts each phase the settings train, and nothing at another size', () => {
    const p = predictPhases(spec, config)!;
    expect(p.map((x) => x.phase)).toEqual(['frozen', 'fine-tune']);
    expect(p[1]!.kerasMixedBytes).toBeLessThan(p[1]!.kerasBytes);
    expect(predictPhases(spec, { ...config, fineTuneEpochs: 0 })!.map((x) => x.phase)).toEqual(['frozen']);
    expect(predictPhases(spec, { ...config, height: 64 })).toBeNull();
  });
});

describe('poolVsLive', () => {
  it('reads the pool against the live bytes, and nothing on a backend without a pool', () => {
    const samples = [
      { t: 0, liveBytes: 10, numTensors: 1, allocatedBytes: 40 },
      { t: 1, liveBytes: 30, numTensors: 1, allocatedBytes: 60 },
      { t: 2, liveBytes: 5, numTensors: 1, allocatedBytes: 55 },
    ];
    expect(poolVsLive(samples)).toEqual({ peakLive: 30, peakAllocated: 60, endLive: 5, endAllocated: 55 });
    expect(poolVsLive([{ t: 0, liveBytes: 10, numTensors: 1 }])).toBeNull();
    const card = experimentCards({ config, spec, pool: poolVsLive(samples) }).find(
      (c) => c.id === 'memory-growth',
    )!;
    expect(card.arithmetic[1]).toBe(
      "At its end: 5 B live, 55 B held — 50 B free in tfjs' pool, which other work cannot use.",
    );
  });
});

describe('matchingRun', () => {
  const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
    kind: 'run',
    at: 0,
    settings: config,
    changed: [],
    predicted: [],
    measured: [],
    outcome: 'completed',
    oomAt: null,
    stepMs: 10,
    valAccuracy: 0.5,
    backend: 'webgpu',
    adapter: null,
    ...over,
  });

  it('takes the latest completed or OOM run with identical settings on the same backend', () => {
    // The same settings with their keys in another order (as IndexedDB may give them back).
    const reordered = JSON.parse(
      JSON.stringify(Object.fromEntries(Object.entries(config).reverse())),
    ) as TrainConfig;
    expect(sameValue(reordered, config)).toBe(true);
    const list = [
      entry({ id: 1 }),
      entry({ id: 2, settings: reordered, outcome: 'oom' }),
      entry({ id: 3, outcome: 'stopped' }),
      entry({ id: 4, backend: 'cpu' }),
      entry({ id: 5, settings: { ...config, batchSize: 8 } }),
      entry({ id: 6, kind: 'sweep' }),
    ];
    expect(matchingRun(list, config, 'webgpu')?.id).toBe(2);
    expect(matchingRun(list, config, 'cpu')?.id).toBe(4);
    expect(matchingRun(list, { ...config, seed: 1 }, 'webgpu')).toBeNull();
  });
});
