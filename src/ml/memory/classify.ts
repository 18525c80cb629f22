import type { OomDetails, OomKind } from '../../core/memory/oom';
import { ResourceExhaustedError } from './budget';
import type { AllocationRecord } from './recorder';

/** A GPU error caught by an error scope, reduced to what classification needs. */
export interface ScopeError {
  /** Which scope caught it. */ filter: 'out-of-memory' | 'validation';
  /** The browser's message. */ message: string;
}

const BUFFER_LIMIT =
  /max buffer size|maxBufferSize|maxStorageBufferBindingSize|greater than WebGL maximum|Requested texture size/i;
const DEVICE_LOST = /device (was |is )?lost|device lost|destroyed/i;
const HOST_OOM = /Array buffer allocation failed|Invalid typed array length|out of memory/i;

/**
 * Which kind of memory exhaustion, if any, a failed step was: from the errors its WebGPU error scopes
 * caught and the exception it threw. Null when it was something else (a bug, a bad file).
 */
export function classifyFailure(
  scopeErrors: readonly ScopeError[],
  thrown: unknown,
): { kind: OomKind; cause: string } | null {
  const lost = scopeErrors.find((e) => DEVICE_LOST.test(e.message));
  if (lost) return { kind: 'device-lost', cause: lost.message };
  const oom = scopeErrors.find((e) => e.filter === 'out-of-memory');
  if (oom) return { kind: 'device-oom', cause: oom.message };
  const tooBig = scopeErrors.find((e) => e.filter === 'validation' && BUFFER_LIMIT.test(e.message));
  if (tooBig) return { kind: 'buffer-limit', cause: tooBig.message };
  if (thrown instanceof Error) {
    if (BUFFER_LIMIT.test(thrown.message)) return { kind: 'buffer-limit', cause: thrown.message };
    if (thrown instanceof RangeError && HOST_OOM.test(thrown.message))
      return { kind: 'host-oom', cause: thrown.message };
  }
  return null;
}

/** The lab's error for a real failure, described by the largest allocation of the failed step. */
export function realFailure(
  kind: OomKind,
  cause: string,
  largest: AllocationRecord | null,
  limit: number,
  backend: string,
): ResourceExhaustedError {
  const details: OomDetails = {
    kind,
    shape: largest?.shape ?? null,
    dtype: largest?.dtype ?? null,
    bytesRequested: largest?.bytes ?? Number.NaN,
    bytesInUse: largest?.bytesInUse ?? Number.NaN,
    limit,
    layer: largest?.layer ?? null,
    layerClass: largest?.layerClass ?? null,
    op: largest?.op ?? null,
    phase: largest?.phase ?? 'other',
    backend,
    cause,
  };
  return new ResourceExhaustedError(details);
}
