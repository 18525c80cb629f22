import { describe, expect, it } from 'vitest';
import { trainableLayers, type LayerSpec, type ModelSpec } from './modelSpec';
import { planKeras, planTfjs, predictionError, type PlanInput } from './planner';

const layer = (l: Partial<LayerSpec> & Pick<LayerSpec, 'name' | 'kind'>): LayerSpec => ({
  className: l.kind,
  inputs: [],
  inputShapes: [],
  outputShape: [],
  trainableWeightSizes: [],
  fixedWeightSizes: [],
  macs: 0,
  ...l,
});

/** input → conv 3×3 (8×8×3 → 8×8×16) → BN → swish → GAP → dense softmax (3 classes). */
const spec: ModelSpec = {
  name: 'toy',
  height: 8,
  width: 8,
  backboneLayerCount: 4,
  layers: [
    layer({ name: 'input', kind: 'input', outputShape: [8, 8, 3] }),
    layer({
      name: 'conv',
      kind: 'conv2d',
      inputs: ['input'],
      inputShapes: [[8, 8, 3]],
      outputShape: [8, 8, 16],
      trainableWeightSizes: [3 * 3 * 3 * 16],
      macs: 8 * 8 * 16 * 27,
    }),
    layer({
      name: 'bn',
      kind: 'batchNormalization',
      inputs: ['conv'],
      inputShapes: [[8, 8, 16]],
      outputShape: [8, 8, 16],
      trainableWeightSizes: [16, 16],
      fixedWeightSizes: [16, 16],
    }),
    layer({
      name: 'act',
      kind: 'activation',
      activation: 'swish',
      inputs: ['bn'],
      inputShapes: [[8, 8, 16]],
      outputShape: [8, 8, 16],
    }),
    layer({
      name: 'gap',
      kind: 'globalAveragePooling2d',
      inputs: ['act'],
      inputShapes: [[8, 8, 16]],
      outputShape: [16],
    }),
    layer({
      name: 'dense',
      kind: 'dense',
      activation: 'softmax',
      inputs: ['gap'],
      inputShapes: [[16]],
      outputShape: [3],
      trainableWeightSizes: [48, 3],
      macs: 48,
    }),
  ],
};

const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  spec,
  batch: 4,
  trainable: trainableLayers(spec, 'fine-tune', 10),
  optimizer: 'adam',
  backboneOutsideTape: false,
  ...over,
});

const total = (c: object) => Object.values(c as Record<string, number>).reduce((a, b) => a + b, 0);

describe('planTfjs', () => {
  it('categories add up to the peak', () => {
    for (const p of [planTfjs(input()), planTfjs(input({ optimizer: 'sgd', batch: 64 }))]) {
      expect(total(p.categories)).toBe(p.peakBytes);
    }
  });

  it('counts weights, gradients and Adam slots from the trainable set', () => {
    const p = planTfjs(input());
    const trainable = 3 * 3 * 3 * 16 + 32 + 51;
    expect(p.categories.weights).toBe((trainable + 32) * 4);
    expect(p.categories.optimizer).toBe(2 * trainable * 4);
    expect(planTfjs(input({ optimizer: 'sgd' })).categories.optimizer).toBe(0);
    expect(planTfjs(input({ optimizer: 'momentum' })).categories.optimizer).toBe(trainable * 4);
  });

  it('grows with the batch and shrinks when fewer layers train', () => {
    const small = planTfjs(input({ batch: 8 }));
    const large = planTfjs(input({ batch: 64 }));
    expect(large.peakBytes).toBeGreaterThan(small.peakBytes);
    const headOnly = planTfjs(input({ batch: 64, trainable: trainableLayers(spec, 'frozen', 0) }));
    expect(headOnly.peakBytes).toBeLessThan(large.peakBytes);
  });

  it('puts a large-batch full fine-tune peak at the end of backprop, and the saved tensors in it', () => {
    const p = planTfjs(input({ batch: 64, optimizer: 'sgd' }));
    expect(p.at).toBe('backward');
    expect(p.categories.savedActivations).toBeGreaterThan(0);
    expect(p.byLayer[0]?.layer).toBe('bn');
  });

  it('running the frozen backbone outside the tape saves nothing for it', () => {
    const frozen = trainableLayers(spec, 'frozen', 0);
    const taped = planTfjs(input({ batch: 64, trainable: frozen }));
    const outside = planTfjs(input({ batch: 64, trainable: frozen, backboneOutsideTape: true }));
    expect(outside.peakBytes).toBeLessThan(taped.peakBytes);
    expect(outside.categories.savedActivations).toBeLessThan(taped.categories.savedActivations);
  });

  it('counts FLOPs: forward for frozen layers, three times that where gradients flow', () => {
    const all = planTfjs(input({ batch: 1 }));
    expect(all.flops).toBe(3 * 2 * (8 * 8 * 16 * 27 + 48));
    const head = planTfjs(input({ batch: 1, trainable: trainableLayers(spec, 'frozen', 0) }));
    expect(head.flops).toBe(2 * 8 * 8 * 16 * 27 + 3 * 2 * 48);
  });
});

describe('planKeras', () => {
  it('needs less than tfjs, and mixed precision halves the saved activations', () => {
    const i = input({ batch: 64 });
    const keras = planKeras(i);
    expect(keras.peakBytes).toBeLessThan(planTfjs(i).peakBytes);
    const mixed = planKeras(i, 'mixed_float16');
    expect(mixed.categories.savedActivations).toBe(keras.categories.savedActivations / 2);
    expect(total(keras.categories)).toBe(keras.peakBytes);
  });

  it('keeps no activations before the first trainable layer', () => {
    const frozen = planKeras(input({ batch: 64, trainable: trainableLayers(spec, 'frozen', 0) }));
    expect(frozen.byLayer.map((l) => l.layer)).toEqual(['dense']);
  });
});

describe('predictionError', () => {
  it('is signed percent of the measurement', () => {
    expect(predictionError(110, 100)).toBeCloseTo(10);
    expect(predictionError(95, 100)).toBeCloseTo(-5);
    expect(predictionError(5, 0)).toBe(0);
  });
});
