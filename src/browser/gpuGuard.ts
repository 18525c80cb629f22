import * as tf from '@tensorflow/tfjs';
import { ResourceExhaustedError } from '../ml/memory/budget';
import { classifyFailure, realFailure, type ScopeError } from '../ml/memory/classify';
import type { LargestAllocation } from '../ml/memory/recorder';
import { webgpuDevice } from '../ml/tfjsInternals';
import { errorMessage } from '../core/format';

async function popScopes(device: GPUDevice): Promise<ScopeError[]> {
  const errors: ScopeError[] = [];
  try {
    const validation = await device.popErrorScope();
    if (validation) errors.push({ filter: 'validation', message: validation.message });
    const oom = await device.popErrorScope();
    if (oom) errors.push({ filter: 'out-of-memory', message: oom.message });
  } catch (err) {
    // A pending popErrorScope rejects when the device is lost.
    errors.push({
      filter: 'out-of-memory',
      message: `device lost: ${errorMessage(err)}`,
    });
  }
  return errors;
}

/**
 * Runs a step inside WebGPU error scopes ('out-of-memory' and 'validation', which is how a buffer
 * above maxBufferSize shows up). tfjs installs none: without them such failures only appear as
 * silently wrong values. Whatever they catch, and WebGL/CPU allocation errors, becomes a
 * ResourceExhaustedError describing the step's largest allocation. Other errors pass through.
 */
export function makeStepGuard(recorder: LargestAllocation) {
  return async <T>(step: () => Promise<T>): Promise<T> => {
    recorder.reset();
    const backend = tf.getBackend();
    const device = webgpuDevice();
    device?.pushErrorScope('out-of-memory');
    device?.pushErrorScope('validation');
    let thrown: unknown = null;
    let value: T | undefined;
    try {
      value = await step();
    } catch (err) {
      thrown = err;
    }
    const scopeErrors = device ? await popScopes(device) : [];
    if (thrown instanceof ResourceExhaustedError) throw thrown;
    const failure = classifyFailure(scopeErrors, thrown);
    if (failure) {
      const limit = failure.kind === 'buffer-limit' && device ? device.limits.maxBufferSize : Number.NaN;
      throw realFailure(failure.kind, failure.cause, recorder.largest, limit, backend);
    }
    if (thrown) throw thrown;
    if (scopeErrors.length > 0)
      throw new Error(`WebGPU reported: ${scopeErrors.map((e) => e.message).join('; ')}`);
    return value as T;
  };
}
