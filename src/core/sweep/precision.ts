import type { SweepGrid, SweepPreset } from './sweep';

/**
 * The precision axis of a sweep: each trainable preset measured with float32 activations and with
 * float16 storage (the checkpointed step keeping its block boundaries as float16 pairs; float16
 * storage, float32 math — tfjs has no float16 arithmetic).
 */
export type SweepPrecision = 'float32' | 'float16';

export const SWEEP_PRECISIONS: readonly { id: SweepPrecision; label: string }[] = [
  { id: 'float32', label: 'float32' },
  { id: 'float16', label: 'float16 storage, float32 math' },
];

/** The precisions a grid measures (float32 alone for a grid that names none). */
export const gridPrecisions = (grid: SweepGrid): SweepPrecision[] =>
  grid.precisions && grid.precisions.length > 0 ? grid.precisions : ['float32'];

/** The preset measured at float16 storage: its own id and label, so its points form their own series. */
export function atFloat16(preset: SweepPreset): SweepPreset {
  return { ...preset, id: `${preset.id}@f16`, label: `${preset.label}, float16 storage`, storage: 'float16' };
}

/**
 * The presets a grid runs, each chosen preset at each chosen precision, float32 first. float16 storage
 * packs checkpoint boundaries, which only the fine-tune phase has: a frozen preset runs in float32 only.
 */
export function gridPresets(grid: SweepGrid): SweepPreset[] {
  const precisions = gridPrecisions(grid);
  return precisions.flatMap((precision) =>
    precision === 'float32'
      ? grid.presets.filter((p) => p.storage !== 'float16')
      : grid.presets.filter((p) => p.phase === 'fine-tune' && p.storage !== 'float16').map(atFloat16),
  );
}
