import { describe, expect, it } from 'vitest';
import { savedFloat16Bytes, type StepTechnique } from './memory';

const checkpointed: StepTechnique = {
  mode: 'checkpointed',
  microBatches: 1,
  microBatchSize: 8,
  accumulatorBytes: 0,
  checkpoint: { segments: 18, recomputed: 18, boundaryBytes: 840_000 },
  featureCache: null,
};

describe('savedFloat16Bytes', () => {
  it('is the packed boundaries of a checkpointed step under float16 storage', () => {
    expect(savedFloat16Bytes(checkpointed, true)).toBe(840_000);
  });

  it('is null for float32 boundaries and for a step that kept no boundaries', () => {
    expect(savedFloat16Bytes(checkpointed, false)).toBeNull();
    expect(savedFloat16Bytes({ ...checkpointed, mode: 'taped', checkpoint: null }, true)).toBeNull();
  });
});
