import * as tf from '@tensorflow/tfjs';
import { bytesPerElement, oomMessage, type OomDetails } from '../../core/oom';
import { onKernel, type KernelRun } from './kernelHook';
import { layerOf } from './layerContext';
import { stepPhase } from './stepPhase';

/** TensorFlow's error, as the lab raises it for every kind of memory exhaustion. */
export class ResourceExhaustedError extends Error {
  constructor(readonly details: OomDetails) {
    super(oomMessage(details));
    this.name = 'ResourceExhaustedError';
  }
}

/** Bytes a kernel run newly allocates (outputs that alias an input, like Reshape, cost nothing) and its largest output. */
export function newAllocation(run: KernelRun): { bytes: number; largest: tf.TensorInfo | null } {
  const inputIds = new Set(run.inputs.map((t) => t.dataId));
  let bytes = 0;
  let largest: tf.TensorInfo | null = null;
  let largestBytes = -1;
  for (const o of run.outputs) {
    if (inputIds.has(o.dataId)) continue;
    const b = o.shape.reduce((a, d) => a * d, 1) * bytesPerElement(o.dtype);
    bytes += b;
    if (b > largestBytes) {
      largest = o;
      largestBytes = b;
    }
  }
  return { bytes, largest };
}

/** Details of an allocation that did not fit, with the layer and phase running now. */
export function describeAllocation(
  kind: OomDetails['kind'],
  run: KernelRun,
  limit: number,
  backend: string,
  cause: string | null = null,
): OomDetails {
  const { bytes, largest } = newAllocation(run);
  const layer = layerOf(run);
  return {
    kind,
    shape: largest ? [...largest.shape] : null,
    dtype: largest?.dtype ?? null,
    bytesRequested: bytes,
    bytesInUse: tf.memory().numBytes,
    limit,
    layer: layer?.name ?? null,
    layerClass: layer?.className ?? null,
    op: run.kernelName,
    phase: stepPhase(),
    backend,
    cause,
  };
}

/**
 * A simulated card, like TensorFlow's per-device memory_limit: any kernel whose new outputs would
 * take live tensor bytes past `limit()` fails with ResourceExhaustedError before its result is used.
 * Returns a function that removes the budget.
 */
export function installBudget(backendName: string, limit: () => number | null): () => void {
  return onKernel(backendName, (run) => {
    const max = limit();
    if (max === null) return;
    const { bytes } = newAllocation(run);
    if (bytes > 0 && tf.memory().numBytes + bytes > max) {
      throw new ResourceExhaustedError(describeAllocation('budget', run, max, backendName));
    }
  });
}
