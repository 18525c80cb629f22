import { describe, expect, it } from 'vitest';
import type { LayerSpec, ModelSpec } from '../model/modelSpec';
import { planInput, planKeras, planTfjs } from '../planner/planner';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';
import type { TrainConfig } from '../settings/trainConfig';
import {
  crossingWords,
  headlineWords,
  largestFittingBatch,
  largestWords,
  seedVerdict,
  trainableWords,
  type VerdictColumn,
} from './verdict';

/** A chain of convolutions growing in channels, then pooling and a dense head, at h×w. */
function chainSpec(h: number, w: number): ModelSpec {
  const layers: LayerSpec[] = [
    {
      name: 'input',
      className: 'InputLayer',
      kind: 'input',
      inputs: [],
      inputShapes: [],
      outputShape: [h, w, 3],
      trainableWeightSizes: [],
      fixedWeightSizes: [],
      macs: 0,
    },
  ];
  const convs: [string, number][] = [
    ['stem_conv', 24],
    ['block1a_project_conv', 24],
    ['block2a_expand_conv', 96],
    ['block3b_project_conv', 96],
    ['block4a_expand_conv', 192],
  ];
  let channels = 3;
  for (const [name, c] of convs) {
    const prev = layers[layers.length - 1]!;
    layers.push({
      name,
      className: 'Conv2D',
      kind: 'conv2d',
      inputs: [prev.name],
      inputShapes: [[h, w, channels]],
      outputShape: [h, w, c],
      trainableWeightSizes: [channels * c],
      fixedWeightSizes: [],
      activation: 'swish',
      macs: h * w * channels * c,
    });
    channels = c;
  }
  layers.push(
    {
      name: 'avg_pool',
      className: 'GlobalAveragePooling2D',
      kind: 'globalAveragePooling2d',
      inputs: ['block4a_expand_conv'],
      inputShapes: [[h, w, channels]],
      outputShape: [channels],
      trainableWeightSizes: [],
      fixedWeightSizes: [],
      macs: 0,
    },
    {
      name: 'predictions',
      className: 'Dense',
      kind: 'dense',
      inputs: ['avg_pool'],
      inputShapes: [[channels]],
      outputShape: [6],
      trainableWeightSizes: [channels * 6, 6],
      fixedWeightSizes: [],
      activation: 'softmax',
      macs: channels * 6,
    },
  );
  return { name: 'chain', height: h, width: w, layers, backboneLayerCount: 6 };
}

const spec = chainSpec(30, 50);
const config: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  model: 'v2-l',
  height: 30,
  width: 50,
  batchSize: 28,
  fineTune: { kind: 'all' },
  prefetch: 0,
};
const plans = (c: TrainConfig) => {
  const input = planInput(spec, c, 'fine-tune');
  return {
    tfjs: planTfjs(input).peakBytes,
    'keras-fp32': planKeras(input).peakBytes,
    'keras-fp16': planKeras(input, 'mixed_float16').peakBytes,
  } satisfies Record<VerdictColumn, number>;
};

describe('seedVerdict', () => {
  it('says per column whether the planner peak fits the card and by how much', () => {
    const p = plans(config);
    // Between mixed float16 and float32: only mixed precision fits.
    const limit = (p['keras-fp16'] + p['keras-fp32']) / 2;
    const v = seedVerdict(spec, config, 'fine-tune', limit);
    expect(v.columns.map((c) => [c.column, c.peakBytes, c.fits])).toEqual([
      ['tfjs', p.tfjs, false],
      ['keras-fp32', p['keras-fp32'], false],
      ['keras-fp16', p['keras-fp16'], true],
    ]);
    expect(v.columns[0]!.ratio).toBeCloseTo(p.tfjs / limit, 12);
    expect(v.columns[2]!.crossing).toBeNull();
    expect(headlineWords(v, 'chain')).toBe(
      'chain: does not fit a ' +
        `${(limit / 1e6).toPrecision(3)} MB card in 2 of 3 columns; fits in Keras mixed float16.`,
    );
  });

  it('names the first layer where the forward running total passes the card', () => {
    const p = plans(config);
    const limit = p['keras-fp16'] / 4;
    const v = seedVerdict(spec, config, 'fine-tune', limit);
    expect(v.columns.every((c) => !c.fits)).toBe(true);
    for (const c of v.columns) {
      expect(c.crossing).not.toBeNull();
      expect(c.crossing!.runningBytes).toBeGreaterThan(limit);
    }
    const tfjs = v.columns[0]!.crossing!;
    // The tfjs walk stays at or under the planner's own forward pass.
    expect(tfjs.runningBytes).toBeLessThanOrEqual(p.tfjs);
    // A larger card is crossed later in the chain, or not at all in the forward pass.
    const order = spec.layers.map((l) => l.name);
    const later = seedVerdict(spec, config, 'fine-tune', limit * 1.5).columns[0]!.crossing;
    expect(later === null || order.indexOf(later.layer) >= order.indexOf(tfjs.layer)).toBe(true);
    expect(headlineWords(v, 'chain')).toContain('does not fit');
    expect(crossingWords(v)).toContain(`at ${tfjs.layer} in tfjs here`);
  });

  it('crosses at the first layer when the weights, slots and batch alone nearly fill the card', () => {
    const k = planTfjs(planInput(spec, config, 'fine-tune')).categories;
    const v = seedVerdict(spec, config, 'fine-tune', k.weights + k.optimizer + k.input + 1);
    expect(v.columns[0]!.crossing?.layer).toBe('stem_conv');
  });

  it('finds the largest batch that fits with the planner, as a scan of every batch would', () => {
    const limit = plans({ ...config, batchSize: 10 })['keras-fp32'] + 1;
    for (const column of ['tfjs', 'keras-fp32', 'keras-fp16'] as const) {
      const found = largestFittingBatch(spec, config, 'fine-tune', column, limit);
      let scan = 0;
      for (let b = 1; b <= 200; b++) if (plans({ ...config, batchSize: b })[column] <= limit) scan = b;
      expect(found).toBe(scan);
    }
    expect(largestFittingBatch(spec, config, 'fine-tune', 'keras-fp32', limit)).toBe(10);
    expect(largestFittingBatch(spec, config, 'fine-tune', 'tfjs', 1)).toBe(0);
    expect(largestFittingBatch(spec, config, 'fine-tune', 'tfjs', 1e15)).toBe(4096);
  });

  it('puts it in words: the batch that fits per column, and nothing crossed when all fit', () => {
    const limit = plans({ ...config, batchSize: 10 })['keras-fp32'] + 1;
    const v = seedVerdict(spec, config, 'fine-tune', limit);
    expect(largestWords(v)).toContain('10 in Keras/CUDA float32');
    const roomy = seedVerdict(spec, { ...config, batchSize: 1 }, 'fine-tune', 1e12);
    expect(headlineWords(roomy, 'chain')).toBe('chain: fits a 1.00 TB card in every column.');
    expect(crossingWords(roomy)).toBe('No column crosses the card.');
    expect(largestWords(seedVerdict(spec, config, 'fine-tune', 1))).toBe(
      'Largest batch that fits: none in tfjs here (not even batch 1), none in Keras/CUDA float32 (not even batch 1), none in Keras mixed float16 (not even batch 1).',
    );
    expect(trainableWords(spec, config, 'fine-tune')).toBe('all layers');
    expect(trainableWords(spec, { ...config, fineTune: { kind: 'last', n: 2 } }, 'fine-tune')).toBe(
      '2 of 5 backbone layers',
    );
    // A number above the model's depth means all of it, as Keras' layers[-N:] does.
    expect(trainableWords(spec, { ...config, fineTune: { kind: 'last', n: 100000 } }, 'fine-tune')).toBe(
      'all layers',
    );
    expect(trainableWords(spec, { ...config, fineTune: { kind: 'head' } }, 'fine-tune')).toBe('head only');
  });
});
