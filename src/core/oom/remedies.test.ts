import { describe, expect, it } from 'vitest';
import type { OomDetails } from '../memory/oom';
import type { LayerSpec, ModelSpec } from '../model/modelSpec';
import { planInput, planTfjs } from '../planner/planner';
import {
  applyRemedy,
  crossingCategory,
  fixClaim,
  fixOutcome,
  rankRemedies,
  remediesFor,
  specAt,
  specsNeeded,
} from './remedies';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';
import type { TrainConfig } from '../settings/trainConfig';

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
    expect(r[5]!.title).toBe('Use a card twice as large: 90.0 MB → 180 MB');
  });

  it('states the pixel share of the size it picks (48 → 40 is 69%, not "about 56%")', () => {
    const r = remediesFor(oom, { ...config, height: 48, width: 48 }, 'fine-tune', names);
    const size = r.find((x) => x.id === 'lower-resolution')!;
    expect(size.patch).toEqual({ height: 40, width: 40 });
    expect(size.why).toContain('40×40 has 69% of the pixels of 48×48');
  });

  it('names uneven micro-batches as the trainer splits them', () => {
    const r = remediesFor(oom, { ...config, batchSize: 15 }, 'fine-tune', names);
    expect(r.find((x) => x.id === 'accumulate')?.title).toBe(
      'Accumulate gradients: 2 micro-batches of 8 or 7',
    );
  });

  it('puts the trainable set first when the optimizer ran out, and offers nothing that changes nothing', () => {
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
    const smallest = { ...config, height: 8, width: 8 };
    expect(remediesFor(oom, smallest, 'fine-tune', names).map((x) => x.id)).not.toContain('lower-resolution');
  });

  it('offers only what shrinks the batch when the input batch itself did not fit', () => {
    const input = { ...oom, phase: 'input' as const, layer: null, layerClass: null, op: 'Pack' };
    const taped = {
      ...config,
      prefetch: 2,
      techniques: { ...config.techniques, backboneOutsideTape: false },
    };
    const r = remediesFor(input, taped, 'frozen', names);
    expect(r.map((x) => x.id)).toEqual(['halve-batch', 'no-prefetch', 'lower-resolution', 'bigger-card']);
    expect(r[1]!.patch).toEqual({ prefetch: 0 });
    expect(r[1]!.title).toBe('Prefetch no batches ahead: 2 → 0');
    expect(
      remediesFor(input, { ...config, prefetch: 0, batchSize: 1 }, 'fine-tune', names).map((x) => x.id),
    ).toEqual(['lower-resolution', 'bigger-card']);
    // Twice a 600 GB card is past the 1 TB the settings accept, so it is not offered.
    expect(
      remediesFor(
        input,
        { ...config, prefetch: 0, batchSize: 1, budgetBytes: 600e9 },
        'fine-tune',
        names,
      ).map((x) => x.id),
    ).toEqual(['lower-resolution']);
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

/**
 * A small EfficientNet-like model described at any input size: a stride-1 'same' stem and two blocks
 * of the same kind, then global pooling and a dense head, so its shapes at h×w are exact.
 */
function toySpec(h: number, w: number): ModelSpec {
  const layer = (name: string, kind: LayerSpec['kind'], input: string | null, out: number[], extra = {}) => ({
    name,
    className: kind,
    kind,
    inputs: input ? [input] : [],
    inputShapes: input ? [[h, w, 16]] : [],
    outputShape: out,
    trainableWeightSizes: [],
    fixedWeightSizes: [],
    macs: 0,
    ...extra,
  });
  const map = [h, w, 16];
  return {
    name: 'toy',
    height: h,
    width: w,
    backboneLayerCount: 6,
    layers: [
      layer('input', 'input', null, [h, w, 3]),
      {
        ...layer('stem_conv', 'conv2d', 'input', map, { trainableWeightSizes: [3 * 3 * 3 * 16] }),
        inputShapes: [[h, w, 3]],
      },
      layer('stem_activation', 'activation', 'stem_conv', map, { activation: 'swish' }),
      layer('block1a_conv', 'conv2d', 'stem_activation', map, { trainableWeightSizes: [16 * 16] }),
      layer('block1a_activation', 'activation', 'block1a_conv', map, { activation: 'swish' }),
      layer('block2a_conv', 'conv2d', 'block1a_activation', map, { trainableWeightSizes: [16 * 16] }),
      layer('avg_pool', 'globalAveragePooling2d', 'block2a_conv', [16]),
      {
        ...layer('predictions', 'dense', 'avg_pool', [3], {
          activation: 'softmax',
          trainableWeightSizes: [48, 3],
        }),
        inputShapes: [[16]],
      },
    ],
  };
}

describe('ranking remedies with the planner', () => {
  const toyConfig: TrainConfig = {
    ...config,
    height: 48,
    width: 48,
    batchSize: 16,
    fineTune: { kind: 'all' },
    prefetch: 0,
  };
  const peak = (c: TrainConfig, phase: 'frozen' | 'fine-tune') =>
    planTfjs(planInput(toySpec(c.height, c.width), c, phase)).peakBytes;

  it('states, for every fix kind, the planner peak of exactly the changed configuration', () => {
    const fineTune = { phase: 'fine-tune' as const, c: toyConfig };
    const frozen = {
      phase: 'frozen' as const,
      c: { ...toyConfig, techniques: { ...toyConfig.techniques, backboneOutsideTape: false } },
    };
    const seen = new Set<string>();
    for (const { phase, c } of [fineTune, frozen]) {
      const remedies = remediesFor(oom, c, phase, toySpec(48, 48));
      const specs = [toySpec(48, 48), ...specsNeeded(remedies, c).map((s) => toySpec(s.height, s.width))];
      const limit = peak(c, phase) * 0.7;
      for (const r of rankRemedies(remedies, specs, c, phase, limit)) {
        seen.add(r.remedy.id);
        expect(r.config).toEqual(applyRemedy(c, r.remedy));
        expect(r.predictedBytes).toBe(peak(r.config, phase));
        expect(r.limit).toBe(r.config.budgetBytes === c.budgetBytes ? limit : r.config.budgetBytes);
        expect(r.fits).toBe(r.predictedBytes! <= r.limit);
      }
    }
    expect([...seen].sort()).toEqual([
      'accumulate',
      'bigger-card',
      'checkpoint',
      'fewer-layers',
      'halve-batch',
      'lower-resolution',
      'outside-tape',
    ]);
  });

  it('judges a bigger card against the new card, not the old one', () => {
    const c = { ...toyConfig, budgetBytes: peak(toyConfig, 'fine-tune') * 0.8 };
    const ranked = rankRemedies(
      remediesFor(oom, c, 'fine-tune', toySpec(48, 48)),
      [toySpec(48, 48)],
      c,
      'fine-tune',
      c.budgetBytes,
    );
    const card = ranked.find((r) => r.remedy.id === 'bigger-card')!;
    expect(card.limit).toBe(c.budgetBytes * 2);
    expect(card.predictedBytes).toBe(peak(toyConfig, 'fine-tune'));
    expect(card.fits).toBe(true);
    expect(fixClaim(card)).toEqual({
      predictedBytes: card.predictedBytes,
      fits: true,
      limit: c.budgetBytes * 2,
    });
  });

  it('waits for the model at a new size instead of guessing, and ranks fits first', () => {
    const limit = peak(toyConfig, 'fine-tune') * 0.7;
    const remedies = remediesFor(oom, toyConfig, 'fine-tune', toySpec(48, 48));
    expect(specsNeeded(remedies, toyConfig)).toEqual([{ height: 40, width: 40 }]);
    const ranked = rankRemedies(remedies, [toySpec(48, 48)], toyConfig, 'fine-tune', limit);
    const size = ranked.find((r) => r.remedy.id === 'lower-resolution')!;
    expect(size.predictedBytes).toBeNull();
    expect(size.fits).toBeNull();
    expect(fixClaim(size)).toBeUndefined();
    expect(ranked[ranked.length - 1]).toBe(size);
    const order = ranked.map((r) => (r.fits === null ? 2 : r.fits ? 0 : 1));
    expect(order).toEqual([...order].sort());
    expect(specAt([toySpec(40, 40)], { height: 40, width: 40 })?.height).toBe(40);
  });

  it('drops a fix the planner sees no change in', () => {
    const c = { ...toyConfig, fineTune: { kind: 'last' as const, n: 5 } };
    const same = {
      id: 'same',
      title: 'Unfreeze the last 1000',
      why: '',
      patch: { fineTune: { kind: 'last' as const, n: 1000 } },
    };
    const ranked = rankRemedies([same], [toySpec(48, 48)], c, 'fine-tune', 1);
    expect(ranked).toEqual([]);
  });

  it('names the category that crossed', () => {
    const plan = planTfjs(planInput(toySpec(48, 48), toyConfig, 'fine-tune'));
    expect(crossingCategory(plan, plan.peakBytes * 0.7)).not.toBeNull();
    expect(crossingCategory(plan, plan.peakBytes)).toBeNull();
    expect(crossingCategory(plan, 1)).toBe('weights');
  });
});

describe('fixOutcome', () => {
  const fix = { predictedBytes: 61.2e6, fits: true, limit: 90e6, phase: 'fine-tune' as const };

  it('puts the claim next to the measured peak of the same phase, with the difference', () => {
    const o = fixOutcome(
      fix,
      [
        { phase: 'frozen', peakBytes: 80e6 },
        { phase: 'fine-tune', peakBytes: 60.1e6 },
        { phase: 'fine-tune', peakBytes: 60.8e6 },
        { phase: 'fine-tune' },
      ],
      false,
    );
    expect(o).toEqual({
      claim: 'claimed: fits, 61.2 MB predicted',
      measured: 'measured: 60.8 MB, fits (−0.7%)',
      kept: true,
      peakBytes: 60.8e6,
    });
  });

  it('says when the claim was not kept, and waits before the first step', () => {
    const over = fixOutcome(fix, [{ phase: 'fine-tune', peakBytes: 95e6 }], false);
    expect(over.measured).toBe('measured: 95.0 MB, does not fit (+55.2%)');
    expect(over.kept).toBe(false);
    const waiting = fixOutcome(fix, [{ phase: 'frozen', peakBytes: 5e6 }], false);
    expect(waiting.measured).toBe('measured: waiting for the first fine-tune step');
    expect(waiting.kept).toBeNull();
    const again = fixOutcome(fix, [], true);
    expect(again.measured).toBe('measured: ran out of memory again');
    expect(again.kept).toBe(false);
    expect(fixOutcome({ ...fix, fits: false }, [], true).kept).toBe(true);
  });
});
