import { describe, expect, it } from 'vitest';
import type { OomDetails } from './oom';
import type { LayerSpec, ModelSpec } from './modelSpec';
import { planInput, planTfjs } from './planner';
import { crossingCategory, rankRemedies, remediesFor } from './remedies';
import { DEFAULT_TRAIN_CONFIG } from './settings';

const oom: OomDetails = {
  kind: 'budget',
  shape: [16, 24, 24, 96],
  dtype: 'float32',
  bytesRequested: 3_538_944,
  bytesInUse: 88e6,
  limit: 90e6,
  layer: 'block3b_project_conv',
  layerClass: 'Conv2D',
  op: 'Conv2D',
  phase: 'forward',
  backend: 'webgpu',
  cause: null,
};
const config = {
  ...DEFAULT_TRAIN_CONFIG,
  batchSize: 16,
  height: 300,
  width: 500,
  fineTune: { kind: 'last', n: 40 } as const,
  budgetBytes: 90e6,
};
/** 64 layers: the input, 60 backbone layers and a 3-layer head. */
const names = {
  name: 'toy',
  backboneLayerCount: 61,
  layers: Array.from({ length: 64 }, (_, i) => ({ name: `layer_${i}` })),
};

describe('remediesFor', () => {
  it('puts activation fixes first for a forward-pass OOM, each with a concrete change', () => {
    const r = remediesFor(oom, config, 'fine-tune', names);
    expect(r.map((x) => x.id)).toEqual([
      'halve-batch',
      'accumulate',
      'checkpoint',
      'lower-resolution',
      'fewer-layers',
      'bigger-card',
    ]);
    expect(r[0]!.patch).toEqual({ batchSize: 8 });
    expect(r[1]!.patch).toEqual({ techniques: { ...config.techniques, accumulationSteps: 2 } });
    expect(r[1]!.title).toBe('Accumulate gradients: 2 micro-batches of 8');
    expect(r[2]!.patch).toEqual({ techniques: { ...config.techniques, checkpointing: 'blocks' } });
    expect(r[3]!.patch).toEqual({ height: 224, width: 376 });
    expect(r[3]!.title).toBe('Lower the input size: 300×500 → 224×376');
    expect(r[4]!.patch).toEqual({ fineTune: { kind: 'last', n: 20 } });
    expect(r[4]!.title).toBe('Unfreeze fewer layers: 40 → the last 20');
    expect(r[5]!.patch).toEqual({ budgetBytes: 180e6 });
  });

  it('puts the trainable set first when the optimizer ran out, and offers nothing impossible', () => {
    const r = remediesFor(
      { ...oom, phase: 'optimizer', kind: 'device-oom' },
      { ...config, batchSize: 1 },
      'fine-tune',
      names,
    );
    expect(r.map((x) => x.id)).toEqual(['fewer-layers', 'checkpoint', 'lower-resolution']);
    const frozen = remediesFor(oom, config, 'frozen', names).map((x) => x.id);
    expect(frozen).not.toContain('fewer-layers');
    expect(frozen).not.toContain('outside-tape');
    const taped = { ...config, techniques: { ...config.techniques, backboneOutsideTape: false } };
    expect(remediesFor(oom, taped, 'frozen', names)[0]!.id).toBe('outside-tape');
  });

  it('counts the trainable set on the model: all layers chosen, a set of one, or more than the model has', () => {
    const all = remediesFor(oom, { ...config, fineTune: { kind: 'all' } }, 'fine-tune', names);
    expect(all.find((x) => x.id === 'fewer-layers')?.title).toBe('Unfreeze fewer layers: 60 → the last 30');
    const huge = remediesFor(oom, { ...config, fineTune: { kind: 'last', n: 1000 } }, 'fine-tune', names);
    expect(huge.find((x) => x.id === 'fewer-layers')?.patch).toEqual({ fineTune: { kind: 'last', n: 30 } });
    const one = { ...config, fineTune: { kind: 'layers' as const, names: ['layer_60'] } };
    expect(remediesFor(oom, one, 'fine-tune', names).map((x) => x.id)).not.toContain('fewer-layers');
    expect(remediesFor(oom, config, 'fine-tune', null).map((x) => x.id)).not.toContain('fewer-layers');
  });
});

describe('ranking remedies with the planner', () => {
  const layer = (
    name: string,
    kind: LayerSpec['kind'],
    out: number[],
    extra: Partial<LayerSpec> = {},
  ): LayerSpec => ({
    name,
    className: kind,
    kind,
    inputs: [],
    inputShapes: [],
    outputShape: out,
    trainableWeightSizes: [],
    fixedWeightSizes: [],
    macs: 0,
    ...extra,
  });
  const spec: ModelSpec = {
    name: 'toy',
    height: 64,
    width: 64,
    backboneLayerCount: 3,
    layers: [
      layer('input', 'input', [64, 64, 3]),
      layer('stem_conv', 'conv2d', [64, 64, 32], {
        inputs: ['input'],
        inputShapes: [[64, 64, 3]],
        trainableWeightSizes: [3 * 3 * 3 * 32],
      }),
      layer('stem_activation', 'activation', [64, 64, 32], {
        activation: 'swish',
        inputs: ['stem_conv'],
        inputShapes: [[64, 64, 32]],
      }),
      layer('avg_pool', 'globalAveragePooling2d', [32], {
        inputs: ['stem_activation'],
        inputShapes: [[64, 64, 32]],
      }),
      layer('predictions', 'dense', [3], {
        activation: 'softmax',
        inputs: ['avg_pool'],
        inputShapes: [[32]],
        trainableWeightSizes: [96, 3],
      }),
    ],
  };
  const toyConfig = {
    ...config,
    height: 64,
    width: 64,
    batchSize: 16,
    fineTune: { kind: 'last', n: 10 } as const,
    prefetch: 0,
  };

  it('predicts each fix, puts those that fit first, and names the category that crossed', () => {
    const plan = planTfjs(planInput(spec, toyConfig, 'fine-tune'));
    const limit = plan.peakBytes * 0.7;
    const ranked = rankRemedies(
      remediesFor(oom, toyConfig, 'fine-tune', spec),
      spec,
      toyConfig,
      'fine-tune',
      limit,
    );
    expect(ranked.length).toBeGreaterThan(2);
    const firstMiss = ranked.findIndex((r) => !r.fits);
    if (firstMiss >= 0) expect(ranked.slice(firstMiss).every((r) => !r.fits)).toBe(true);
    for (const r of ranked) expect(r.predictedBytes).toBeLessThan(plan.peakBytes * 1.01);
    const halve = ranked.find((r) => r.remedy.id === 'halve-batch')!;
    expect(halve.predictedBytes).toBeLessThan(plan.peakBytes);
    expect(halve.note).toBeNull();
    expect(ranked.find((r) => r.remedy.id === 'lower-resolution')?.note).toBe(
      'activations scaled by the pixel count',
    );
    expect(crossingCategory(plan, limit)).not.toBeNull();
    expect(crossingCategory(plan, plan.peakBytes)).toBeNull();
    expect(crossingCategory(plan, 1)).toBe('weights');
  });
});
