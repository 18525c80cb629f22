import * as tf from '@tensorflow/tfjs';
// Registers the 'webgpu' backend (only when navigator.gpu exists).
import '@tensorflow/tfjs-backend-webgpu';
import { backendCandidates, type BackendInfo, type BackendName, type BackendRequest } from '../core/backend';

interface WebGPUBackendLike {
  device: GPUDevice;
  adapterInfo?: { vendor?: string; architecture?: string; description?: string };
}

/** Why WebGPU cannot be used here, or null when an adapter is available. */
async function webgpuUnavailableReason(): Promise<string | null> {
  if (!('gpu' in navigator) || !navigator.gpu) {
    return globalThis.isSecureContext
      ? 'WebGPU: this browser has no navigator.gpu'
      : 'WebGPU: needs a secure context (https or localhost)';
  }
  const adapter = await navigator.gpu.requestAdapter();
  return adapter ? null : 'WebGPU: no GPU adapter available (blocklisted driver or disabled)';
}

async function trySetBackend(name: BackendName): Promise<string | null> {
  if (name === 'webgpu') {
    const reason = await webgpuUnavailableReason();
    if (reason) return reason;
  }
  try {
    // setBackend resolves false, rather than throwing, when the backend's initialisation fails.
    const ok = await tf.setBackend(name);
    await tf.ready();
    if (!ok || tf.getBackend() !== name) return `${name}: initialisation failed`;
    return null;
  } catch (err) {
    return `${name}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * Puts tfjs on the fastest backend that works (or the one asked for) and reports what it got and
 * why faster ones were skipped. Throws when nothing works.
 */
export async function initBackend(request: BackendRequest, inWorker: boolean): Promise<BackendInfo> {
  const skipped: string[] = [];
  for (const name of backendCandidates(request)) {
    const reason = await trySetBackend(name);
    if (reason) {
      skipped.push(reason);
      continue;
    }
    return { name, requested: request, inWorker, skipped, ...describeBackend(name) };
  }
  throw new Error(`No TensorFlow.js backend could start. ${skipped.join('; ')}`);
}

function describeBackend(name: BackendName): Partial<BackendInfo> {
  if (name === 'webgpu') {
    const backend = tf.backend() as unknown as WebGPUBackendLike;
    const info = backend.adapterInfo ?? {};
    return {
      adapter: {
        vendor: info.vendor || 'unknown',
        architecture: info.architecture || 'unknown',
        description: info.description || '',
      },
      limits: {
        maxBufferSize: backend.device.limits.maxBufferSize,
        maxStorageBufferBindingSize: backend.device.limits.maxStorageBufferBindingSize,
      },
    };
  }
  if (name === 'webgl') {
    return { maxTextureSize: tf.env().getNumber('WEBGL_MAX_TEXTURE_SIZE') };
  }
  return {};
}
