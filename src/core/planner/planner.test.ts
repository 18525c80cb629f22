import { describe, expect, it } from 'vitest';
import { trainableLayers, type LayerSpec, type ModelSpec } from '../model/modelSpec';
import { packedBytes } from './checkpoint';
import {
  checkpointSegments,
  microBatchSizes,
  planKeras,
  planTfjs,
  predictionError,
  type PlanInput,
} from './planner';
import { layer } from '../model/testLayers';

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

  it('makes a plan once per model and input, and a new one when either changes', () => {
    const p = planTfjs(input());
    expect(planTfjs(input())).toBe(p);
    expect(planTfjs(input({ batch: 9 }))).not.toBe(p);
    expect(planTfjs(input({ trainable: trainableLayers(spec, 'frozen', 0) }))).not.toBe(p);
    expect(planTfjs(input({ spec: { ...spec } }))).not.toBe(p);
    expect(planTfjs(input({ spec: { ...spec } }))).toEqual(p);
    expect(planKeras(input(), 'mixed_float16')).not.toBe(planKeras(input()));
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

  it('a step on cached features holds features instead of images and runs no backbone', () => {
    const frozen = trainableLayers(spec, 'frozen', 0);
    const outside = planTfjs(
      input({ batch: 64, trainable: frozen, backboneOutsideTape: true, queuedBatches: 2 }),
    );
    const cached = planTfjs(
      input({
        batch: 64,
        trainable: frozen,
        backboneOutsideTape: true,
        queuedBatches: 2,
        cachedFeatures: true,
      }),
    );
    // One batch of features (8×8×16 here, more than the 8×8×3 image) and labels; nothing prefetched.
    expect(cached.categories.input).toBe(64 * (8 * 8 * 16 + 1) * 4);
    expect(outside.categories.input).toBe(3 * 64 * (8 * 8 * 3 + 1) * 4);
    expect(cached.at).not.toBe('backbone');
    expect(cached.flops).toBeLessThan(outside.flops / 2);
    const taped = planTfjs(input({ batch: 64, trainable: frozen, cachedFeatures: true }));
    expect(taped).toEqual(planTfjs(input({ batch: 64, trainable: frozen })));
  });

  it('counts FLOPs: forward for frozen layers, three times that where gradients flow', () => {
    const all = planTfjs(input({ batch: 1 }));
    expect(all.flops).toBe(3 * 2 * (8 * 8 * 16 * 27 + 48));
    const head = planTfjs(input({ batch: 1, trainable: trainableLayers(spec, 'frozen', 0) }));
    expect(head.flops).toBe(2 * 8 * 8 * 16 * 27 + 3 * 2 * 48);
  });
});

/** A conv → BN pair named for a Keras block, at 16×16×8. */
const convBn = (prefix: string, from: string): LayerSpec[] => [
  layer({
    name: `${prefix}_conv`,
    kind: 'conv2d',
    inputs: [from],
    inputShapes: [[16, 16, 8]],
    outputShape: [16, 16, 8],
    trainableWeightSizes: [8 * 8],
    macs: 16 * 16 * 64,
  }),
  layer({
    name: `${prefix}_bn`,
    kind: 'batchNormalization',
    inputs: [`${prefix}_conv`],
    inputShapes: [[16, 16, 8]],
    outputShape: [16, 16, 8],
    trainableWeightSizes: [8, 8],
    fixedWeightSizes: [8, 8],
  }),
];

/** input → stem → block1a → block2a (with a residual add) → block3a → pooled dense head. */
const blocks = (residualFrom = 'block2a_add'): ModelSpec => ({
  name: 'blocks',
  height: 16,
  width: 16,
  backboneLayerCount: 11,
  layers: [
    layer({ name: 'input_1', kind: 'input', outputShape: [16, 16, 3] }),
    layer({
      name: 'stem_conv',
      kind: 'conv2d',
      inputs: ['input_1'],
      inputShapes: [[16, 16, 3]],
      outputShape: [16, 16, 8],
      trainableWeightSizes: [3 * 8],
      macs: 16 * 16 * 24,
    }),
    ...convBn('block1a', 'stem_conv'),
    ...convBn('block2a', 'block1a_bn'),
    layer({
      name: 'block2a_add',
      kind: 'add',
      inputs: ['block2a_bn', 'block1a_bn'],
      inputShapes: [
        [16, 16, 8],
        [16, 16, 8],
      ],
      outputShape: [16, 16, 8],
    }),
    ...convBn('block3a', 'block2a_add'),
    layer({
      name: 'block3b_add',
      kind: 'add',
      inputs: ['block3a_bn', residualFrom],
      inputShapes: [
        [16, 16, 8],
        [16, 16, 8],
      ],
      outputShape: [16, 16, 8],
    }),
    layer({
      name: 'avg_pool',
      kind: 'globalAveragePooling2d',
      inputs: ['block3b_add'],
      inputShapes: [[16, 16, 8]],
      outputShape: [8],
    }),
    layer({
      name: 'predictions',
      kind: 'dense',
      activation: 'softmax',
      inputs: ['avg_pool'],
      inputShapes: [[8]],
      outputShape: [3],
      trainableWeightSizes: [24, 3],
      macs: 24,
    }),
  ],
});

describe('planTfjs with memory-saving techniques', () => {
  const blocky = blocks();
  const full = (over: Partial<PlanInput> = {}): PlanInput =>
    input({ spec: blocky, batch: 64, trainable: trainableLayers(blocky, 'fine-tune', 100), ...over });

  it('splits a batch into near-equal micro-batches as the trainer does', () => {
    expect(microBatchSizes(10, 4)).toEqual([3, 3, 2, 2]);
    expect(microBatchSizes(16, 4)).toEqual([4, 4, 4, 4]);
    expect(microBatchSizes(3, 8)).toEqual([1, 1, 1]);
    expect(microBatchSizes(5, 1)).toEqual([5]);
  });

  it('cuts segments at block changes where one tensor is live, as ml/train/segments.ts', () => {
    const names = (spec: ModelSpec) => checkpointSegments(spec).map((s) => s.name);
    expect(checkpointSegments(blocky)).toEqual([
      { name: 'stem', layers: ['stem_conv'] },
      { name: 'block1a', layers: ['block1a_conv', 'block1a_bn'] },
      { name: 'block2a', layers: ['block2a_conv', 'block2a_bn', 'block2a_add'] },
      { name: 'block3a', layers: ['block3a_conv', 'block3a_bn', 'block3b_add'] },
      { name: 'top', layers: ['avg_pool', 'predictions'] },
    ]);
    // A residual from block1a's output into block3b keeps block3a in block2a's segment.
    expect(names(blocks('block1a_bn'))).toEqual(['stem', 'block1a', 'block2a', 'top']);
    // Without block names the whole model is one segment.
    expect(names(spec)).toEqual(['stem']);
  });

  it('leaves the plan unchanged with one micro-batch and checkpointing off', () => {
    expect(planTfjs(full({ accumulationSteps: 1, checkpointing: 'off' }))).toEqual(planTfjs(full()));
  });

  it('accumulation: activations of one micro-batch, the batch and its slice, and a gradient sum', () => {
    const plain = planTfjs(full());
    const micro = planTfjs(full({ batch: 16 }));
    const accumulated = planTfjs(full({ accumulationSteps: 4 }));
    expect(accumulated.at).toBe('backward');
    expect(accumulated.peakBytes).toBeLessThan(plain.peakBytes);
    expect(accumulated.categories.savedActivations).toBe(micro.categories.savedActivations);
    expect(accumulated.categories.transient).toBe(micro.categories.transient);
    expect(accumulated.categories.gradients).toBe(2 * plain.categories.gradients);
    expect(accumulated.categories.input).toBe(plain.categories.input + micro.categories.input);
    expect(total(accumulated.categories)).toBe(accumulated.peakBytes);
  });

  it('accumulation: an uneven split is planned at its largest micro-batch', () => {
    const even = planTfjs(full({ batch: 60, accumulationSteps: 4 }));
    const uneven = planTfjs(full({ batch: 61, accumulationSteps: 4 }));
    expect(uneven.peakBytes).toBeGreaterThan(even.peakBytes);
    expect(uneven.peakBytes).toBeLessThan(planTfjs(full({ batch: 64, accumulationSteps: 4 })).peakBytes);
  });

  it('checkpointing: keeps segment inputs and one segment recompute, not every activation', () => {
    const plain = planTfjs(full());
    const checkpointed = planTfjs(full({ checkpointing: 'blocks' }));
    expect(checkpointed.peakBytes).toBeLessThan(plain.peakBytes);
    expect(checkpointed.categories.savedActivations).toBeLessThan(plain.categories.savedActivations / 2);
    expect(total(checkpointed.categories)).toBe(checkpointed.peakBytes);
    // The peak's layers all belong to one segment.
    const segment = checkpointSegments(blocky).find((s) => s.layers.includes(checkpointed.byLayer[0]!.layer));
    expect(checkpointed.byLayer.every((l) => segment?.layers.includes(l.layer))).toBe(true);
  });

  it('checkpointing: ignored when the backbone runs outside the tape, and combines with accumulation', () => {
    const frozen = trainableLayers(blocky, 'frozen', 0);
    const outside = full({ trainable: frozen, backboneOutsideTape: true });
    expect(planTfjs({ ...outside, checkpointing: 'blocks' })).toEqual(planTfjs(outside));
    const both = planTfjs(full({ checkpointing: 'blocks', accumulationSteps: 4 }));
    expect(both.peakBytes).toBeLessThan(planTfjs(full({ checkpointing: 'blocks' })).peakBytes);
    expect(both.peakBytes).toBeLessThan(planTfjs(full({ accumulationSteps: 4 })).peakBytes);
  });

  it('float16 storage: the kept segment inputs at half their bytes, the recompute still float32', () => {
    const f32 = planTfjs(full({ checkpointing: 'blocks' }));
    const f16 = planTfjs(full({ checkpointing: 'blocks', boundaryStorage: 'float16' }));
    expect(f16.peakBytes).toBeLessThan(f32.peakBytes);
    expect(f16.categories.savedActivations).toBeLessThan(f32.categories.savedActivations);
    expect(total(f16.categories)).toBe(f16.peakBytes);
    expect(f16.flops).toBe(f32.flops);
    // Without checkpointing there is nothing packed.
    expect(planTfjs(full({ boundaryStorage: 'float16' }))).toEqual(planTfjs(full()));
  });

  it('float16 storage: a packed tensor is ceil(n / 2) int32 words', () => {
    expect(packedBytes(4 * 4)).toBe(2 * 4);
    expect(packedBytes(3 * 4)).toBe(2 * 4);
    expect(packedBytes(0)).toBe(0);
  });

  it('checkpointing: counts the second forward of the recomputed segments in the FLOPs', () => {
    const one = { batch: 1, checkpointing: 'blocks' as const };
    // Every segment from the stem on trains; the last (pool and head) is only run under the tape.
    const twice = 16 * 16 * 24 + 3 * 16 * 16 * 64;
    expect(planTfjs(full(one)).flops).toBe(planTfjs(full({ batch: 1 })).flops + 2 * twice);
    // Head only: the first trainable segment is the last one, nothing runs twice.
    const head = { trainable: trainableLayers(blocky, 'frozen', 0) };
    expect(planTfjs(full({ ...one, ...head })).flops).toBe(planTfjs(full({ batch: 1, ...head })).flops);
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

describe("planTfjs on MobileNetV2's ReLU6", () => {
  // The toy model with its swish replaced by a ReLU layer, capped at 6 or not.
  const withRelu = (maxValue?: number): ModelSpec => ({
    ...spec,
    layers: spec.layers.map((l) =>
      l.name === 'act'
        ? layer({
            ...l,
            kind: 'relu',
            className: 'ReLU',
            activation: undefined,
            ...(maxValue ? { maxValue } : {}),
          })
        : l,
    ),
  });
  const frozen = (s: ModelSpec) =>
    planTfjs(input({ spec: s, trainable: trainableLayers(s, 'frozen', 0), batch: 16 }));
  const activation = 8 * 8 * 16 * 16 * 4;

  it('keeps the uncapped relu alive until the forward pass ends', () => {
    const capped = frozen(withRelu(6));
    const plain = frozen(withRelu());
    expect(capped.approximateKinds).toEqual([]);
    expect(capped.at).toBe('forward');
    // One more saved input (clip's) and the relu output left in the scope.
    expect(capped.peakBytes - plain.peakBytes).toBe(2 * activation);
  });
});
