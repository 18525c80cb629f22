import { describe, expect, it } from 'vitest';
import { NO_AUGMENT } from '../data/augment';
import { DEFAULT_TRAIN_CONFIG } from './settings';
import { describeRunSettings, describeStep, featureCache } from './techniques';

describe('technique descriptions', () => {
  it('names the settings memory depends on', () => {
    const c = {
      ...DEFAULT_TRAIN_CONFIG,
      techniques: {
        backboneOutsideTape: false,
        accumulationSteps: 4,
        checkpointing: 'blocks' as const,
        cacheFeatures: true,
        float16Storage: false,
        leanBackward: false,
      },
    };
    expect(describeRunSettings(c)).toBe(
      'mobilenetv2 128×128, batch 8, fine-tune last 20 layers, frozen backbone on the tape, 4 accumulated micro-batches, per-block checkpointing',
    );
    expect(
      describeRunSettings({ ...DEFAULT_TRAIN_CONFIG, fineTune: { kind: 'layers', names: ['a', 'b'] } }),
    ).toContain('fine-tune 2 chosen layers, frozen backbone outside the tape');
  });

  it('caches frozen features only when the pixels never change and a later epoch can reuse them', () => {
    const off = NO_AUGMENT;
    const c = { ...DEFAULT_TRAIN_CONFIG, augment: off, frozenEpochs: 3 };
    expect(featureCache(c).on).toBe(true);
    expect(describeRunSettings(c)).toContain('frozen features cached');
    expect(featureCache({ ...c, augment: { ...off, flip: true } }).why).toMatch(/augmentation is on/);
    expect(featureCache({ ...c, frozenEpochs: 1 }).on).toBe(false);
    expect(featureCache({ ...c, techniques: { ...c.techniques, backboneOutsideTape: false } }).why).toMatch(
      /outside the tape/,
    );
    expect(featureCache({ ...c, techniques: { ...c.techniques, cacheFeatures: false } }).on).toBe(false);
  });

  it('says how a step ran', () => {
    expect(
      describeStep({
        mode: 'checkpointed',
        microBatches: 2,
        microBatchSize: 4,
        accumulatorBytes: 10,
        checkpoint: { segments: 9, recomputed: 9, boundaryBytes: 100 },
        featureCache: null,
      }),
    ).toBe('checkpointed, 2 micro-batches of up to 4 images, 9 of 9 segments recomputed in backward');
    expect(
      describeStep({
        mode: 'outside-tape',
        microBatches: 1,
        microBatchSize: 8,
        accumulatorBytes: 0,
        checkpoint: null,
        featureCache: null,
      }),
    ).toBe('backbone outside the tape');
    expect(
      describeStep({
        mode: 'outside-tape',
        microBatches: 1,
        microBatchSize: 8,
        accumulatorBytes: 0,
        checkpoint: null,
        featureCache: 'reading',
      }),
    ).toBe('backbone outside the tape, head only, on cached features');
  });
});
