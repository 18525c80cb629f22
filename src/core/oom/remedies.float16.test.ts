import { describe, expect, it } from 'vitest';
import type { LayerSpec, ModelSpec } from '../model/modelSpec';
import type { OomDetails } from '../memory/oom';
import { planInput, planTfjs } from '../planner/planner';
import { FLOAT16_WORDS, precisionRemedies, rankRemedies } from './remedies';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';

const oom: OomDetails = {
  kind: 'budget',
  shape: [8, 16, 16, 8],
  dtype: 'float32',
  bytesRequested: 8192,
  bytesInUse: 1e6,
  limit: 1e6,
  layer: 'block2a_conv',
  layerClass: 'Conv2D',
  op: 'Conv2D',
  phase: 'backward',
  backend: 'cpu',
  cause: null,
};

/** A chain of six conv blocks at 32×32 with 8 channels, so checkpointing has boundaries to keep. */
function blocks(): ModelSpec {
  const layers: LayerSpec[] = [
    {
      name: 'input',
      kind: 'input',
      className: 'InputLayer',
      inputs: [],
      inputShapes: [],
      outputShape: [32, 32, 3],
      trainableWeightSizes: [],
      fixedWeightSizes: [],
      macs: 0,
    },
  ];
  let previous = 'input';
  for (let b = 1; b <= 6; b++) {
    const name = `block${b}a_conv`;
    const channels = b === 1 ? 3 : 8;
    layers.push({
      name,
      kind: 'conv2d',
      className: 'Conv2D',
      inputs: [previous],
      inputShapes: [[32, 32, channels]],
      outputShape: [32, 32, 8],
      trainableWeightSizes: [9 * channels * 8, 8],
      fixedWeightSizes: [],
      macs: 32 * 32 * 9 * channels * 8,
    });
    previous = name;
  }
  return { name: 'six blocks', height: 32, width: 32, backboneLayerCount: layers.length, layers };
}

describe('precisionRemedies', () => {
  const config = {
    ...DEFAULT_TRAIN_CONFIG,
    batchSize: 8,
    height: 32,
    width: 32,
    fineTune: { kind: 'all' } as const,
  };

  it('offers float16 storage in the fine-tune phase, with the exact words, turning it on', () => {
    const [r, ...rest] = precisionRemedies(oom, config, 'fine-tune');
    expect(rest).toEqual([]);
    expect(r!.id).toBe('float16-storage');
    expect(r!.why).toContain(FLOAT16_WORDS);
    expect(FLOAT16_WORDS).toBe('float16 storage, float32 math — tfjs has no float16 arithmetic');
    expect(r!.patch).toEqual({ techniques: { ...config.techniques, float16Storage: true } });
  });

  it('is not offered in the frozen phase, for the input batch, or when already on', () => {
    expect(precisionRemedies(oom, config, 'frozen')).toEqual([]);
    expect(precisionRemedies({ ...oom, phase: 'input' }, config, 'fine-tune')).toEqual([]);
    const on = { ...config, techniques: { ...config.techniques, float16Storage: true } };
    expect(precisionRemedies(oom, on, 'fine-tune')).toEqual([]);
  });

  it('is ranked with the planner modelling the packed boundaries: below checkpointing in float32', () => {
    const spec = blocks();
    const checkpointed = {
      ...config,
      techniques: { ...config.techniques, checkpointing: 'blocks' as const },
    };
    const [ranked] = rankRemedies(
      precisionRemedies(oom, checkpointed, 'fine-tune'),
      [spec],
      checkpointed,
      'fine-tune',
      1e9,
    );
    const float32 = planTfjs(planInput(spec, checkpointed, 'fine-tune')).peakBytes;
    expect(ranked?.predictedBytes).toBeLessThan(float32);
  });
});
