import { oomMessage, tensorBytes, type OomDetails } from '../../core/memory/oom';
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

/** The largest output of a kernel run, views included (for a kernel that only makes views). */
function largestOutput(run: KernelRun): { shape: number[]; dtype: string } | null {
  let best: { shape: number[]; dtype: string; bytes: number } | null = null;
  for (const o of run.outputs) {
    const bytes = tensorBytes(o.shape, o.dtype);
    if (!best || bytes > best.bytes) best = { shape: [...o.shape], dtype: o.dtype, bytes };
  }
  return best && { shape: best.shape, dtype: best.dtype };
}

const OUTSIDE_KERNELS =
  'tensors made outside a kernel (from data, such as an input batch, or as variables) took live bytes past the card before this op ran';

/**
 * A simulated card, like TensorFlow's per-device memory_limit. The card holds what tf.memory().numBytes
 * counts (what the planner predicts and tf.profile reports, views included), and every kernel is checked
 * before its outputs count: one whose outputs would take live bytes past `limit()` fails with
 * ResourceExhaustedError, so "in use" is what was live before it and never above the card.
 * Tensors made outside kernels (tf.tensor from data, variables) cannot be stopped when they are made;
 * the next kernel reports them as the request, with what was live after the last checked kernel as in
 * use. Returns a function that removes the budget.
 */
export function installBudget(backendName: string, limit: () => number | null): () => void {
  // tf.memory().numBytes once the last kernel that passed has its outputs counted; null before any.
  let counted: number | null = null;
  return onKernel(backendName, (run) => {
    const max = limit();
    if (max === null) {
      counted = null;
      return;
    }
    const live = run.liveBytes;
    const added = run.outputBytes;
    if (live > max) {
      // The growth since the last checked kernel happened outside kernels.
      const before = counted ?? Number.NaN;
      counted = null;
      throw new ResourceExhaustedError({
        ...describeAllocation('budget', run, max, backendName, OUTSIDE_KERNELS),
        shape: null,
        dtype: null,
        bytesInUse: before,
        bytesRequested: Number.isFinite(before) ? live - before + added : Number.NaN,
      });
    }
    if (added > 0 && live + added > max) {
      const largest = run.allocation.largest ?? largestOutput(run);
      // The outputs are released with the error, so live bytes stay where they were.
      counted = live;
      throw new ResourceExhaustedError({
        ...describeAllocation('budget', run, max, backendName),
        shape: largest ? [...largest.shape] : null,
        dtype: largest?.dtype ?? null,
        bytesRequested: added,
      });
    }
    counted = live + added;
  });
}
