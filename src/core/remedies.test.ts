import { describe, expect, it } from 'vitest';
import type { OomDetails } from './oom';
import { remediesFor } from './remedies';
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
  unfreezeLastN: 40,
  budgetBytes: 90e6,
};

describe('remediesFor', () => {
  it('puts activation fixes first for a forward-pass OOM, each with a concrete change', () => {
    const r = remediesFor(oom, config, 'fine-tune');
    expect(r.map((x) => x.id)).toEqual(['halve-batch', 'lower-resolution', 'fewer-layers', 'bigger-card']);
    expect(r[0]!.patch).toEqual({ batchSize: 8 });
    expect(r[1]!.patch).toEqual({ height: 224, width: 376 });
    expect(r[1]!.title).toBe('Lower the input size: 300×500 → 224×376');
    expect(r[2]!.patch).toEqual({ unfreezeLastN: 20, fineTuneLayers: null });
    expect(r[3]!.patch).toEqual({ budgetBytes: 180e6 });
  });

  it('puts the trainable set first when the optimizer ran out, and offers nothing impossible', () => {
    const r = remediesFor(
      { ...oom, phase: 'optimizer', kind: 'device-oom' },
      { ...config, batchSize: 1 },
      'fine-tune',
    );
    expect(r.map((x) => x.id)).toEqual(['fewer-layers', 'lower-resolution']);
    expect(remediesFor(oom, config, 'frozen').map((x) => x.id)).not.toContain('fewer-layers');
  });
});
