import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_GRID, DEFAULT_SWEEP_PRESETS, gridPoints, validateGrid } from './sweep';
import { gridPrecisions, gridPresets } from './precision';

const all = DEFAULT_SWEEP_PRESETS.find((p) => p.id === 'all')!;
const head = DEFAULT_SWEEP_PRESETS.find((p) => p.id === 'head')!;

describe('sweep precisions', () => {
  it('a grid without precisions runs float32 only, as before', () => {
    expect(gridPrecisions(DEFAULT_SWEEP_GRID)).toEqual(['float32']);
    expect(gridPresets(DEFAULT_SWEEP_GRID)).toEqual(DEFAULT_SWEEP_GRID.presets);
  });

  it('adds a float16-storage series per fine-tune preset, and counts its points against the limit', () => {
    const grid = { batches: [4, 8], sizes: [64], presets: [head, all], precisions: ['float16' as const] };
    expect(gridPresets(grid).map((p) => [p.id, p.storage, p.label])).toEqual([
      ['all@f16', 'float16', 'all layers, float16 storage'],
    ]);
    const both = { ...grid, precisions: ['float32' as const, 'float16' as const] };
    expect(gridPoints(both).map((p) => p.presetId)).toEqual([
      'head',
      'head',
      'all',
      'all',
      'all@f16',
      'all@f16',
    ]);
    const wide = { ...both, batches: Array.from({ length: 14 }, (_, i) => i + 1) };
    expect(validateGrid(wide).map((p) => p.message)).toEqual([
      'Grid: 42 points (14 batch sizes × 1 input sizes × 3 presets); one sweep runs at most 40.',
    ]);
  });

  it('asks for a precision when none is ticked', () => {
    expect(validateGrid({ ...DEFAULT_SWEEP_GRID, precisions: [] }).map((p) => p.field)).toEqual(['presets']);
  });
});
