import { oomMessage, type OomDetails } from '../../core/oom';
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

/** Details of an allocation that did not fit, with the layer and phase running now. */
export function describeAllocation(
  kind: OomDetails['kind'],
  run: KernelRun,
  limit: number,
  backend: string,
  cause: string | null = null,
): OomDetails {
  const { bytes, largest } = run.allocation;
  const layer = layerOf(run);
  return {
    kind,
    shape: largest ? [...largest.shape] : null,
    dtype: largest?.dtype ?? null,
    bytesRequested: bytes,
    bytesInUse: run.liveBytes,
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
    const { bytes } = run.allocation;
    if (bytes > 0 && run.liveBytes + bytes > max) {
      throw new ResourceExhaustedError(describeAllocation('budget', run, max, backendName));
    }
  });
}
