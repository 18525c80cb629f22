import * as tf from '@tensorflow/tfjs';
import type { StepBreakdown } from '../../core/memory/memory';
import { tensorBytes } from '../../core/memory/oom';
import { layerOfData } from '../memory/layerContext';
import { tapeSavedTensors } from '../tfjsInternals';

/** Bytes of these tensors, each buffer counted once. */
export const distinctBytes = (ts: readonly tf.Tensor[]): number => {
  const seen = new Set<object>();
  let bytes = 0;
  for (const t of ts) {
    if (seen.has(t.dataId)) continue;
    seen.add(t.dataId);
    bytes += tensorBytes(t.shape, t.dtype);
  }
  return bytes;
};

/** How many layers the by-layer view of saved activations lists before summing the rest. */
const TOP_LAYERS = 12;

export type SavedActivations = Pick<StepBreakdown, 'savedActivations' | 'savedByLayer' | 'largestSaved'>;

export const NOTHING_SAVED: SavedActivations = { savedActivations: 0, savedByLayer: [], largestSaved: null };

/**
 * The activations the active gradient tape saved for the backward pass, plus `alsoHeld` (tensors kept
 * outside the tape for it, such as checkpoint boundaries): their bytes (shared buffers once, weights
 * excluded since they are counted as weights), by layer, and the largest one.
 */
export function savedActivations(
  weightIds: ReadonlySet<object>,
  alsoHeld: readonly tf.Tensor[] = [],
): SavedActivations {
  const seen = new Set<object>(weightIds);
  const byLayer = new Map<string, number>();
  let total = 0;
  let largest: StepBreakdown['largestSaved'] = null;
  for (const t of [...alsoHeld, ...tapeSavedTensors()]) {
    if (seen.has(t.dataId)) continue;
    seen.add(t.dataId);
    const bytes = tensorBytes(t.shape, t.dtype);
    const layer = layerOfData(t.dataId)?.name ?? '(loss and head ops)';
    total += bytes;
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + bytes);
    if (!largest || bytes > largest.bytes) largest = { layer, shape: [...t.shape], bytes };
  }
  const sorted = [...byLayer].map(([layer, bytes]) => ({ layer, bytes })).sort((a, b) => b.bytes - a.bytes);
  const rest = sorted.slice(TOP_LAYERS).reduce((n, e) => n + e.bytes, 0);
  const savedByLayer = sorted.slice(0, TOP_LAYERS);
  if (rest > 0) savedByLayer.push({ layer: `${sorted.length - TOP_LAYERS} other layers`, bytes: rest });
  return { savedActivations: total, savedByLayer, largestSaved: largest };
}

/** The larger of two measurements, so a step reports its worst micro-batch or segment. */
export const largerSaved = (a: SavedActivations, b: SavedActivations): SavedActivations =>
  b.savedActivations > a.savedActivations ? b : a;
