import * as tf from '@tensorflow/tfjs';
import type { EngineEvent, ProvokeResult } from '../core/run/protocol';
import { ResourceExhaustedError } from '../ml/memory/budget';
import { LargestAllocation } from '../ml/memory/recorder';
import { readMemory } from '../ml/memory/sampler';
import { webglContext, webgpuDevice } from '../ml/tfjsInternals';
import { makeStepGuard } from './gpuGuard';

/**
 * tfjs installs no device.lost handler: after a loss every later op throws or hangs. Reports a loss of
 * the current backend's device (or WebGL context) so the client can re-create the engine.
 */
export function watchDevice(notify: (e: EngineEvent) => void): void {
  const gl = webglContext();
  // The worker's WebGL types omit the context's canvas (an OffscreenCanvas there), so it is looked up.
  const canvas = gl && 'canvas' in gl && gl.canvas instanceof EventTarget ? gl.canvas : null;
  if (canvas) {
    // tfjs does not listen for a lost WebGL context either; after one, every op fails or returns zeros.
    canvas.addEventListener(
      'webglcontextlost',
      (event) => {
        event.preventDefault();
        if (webglContext() === gl)
          notify({
            kind: 'device-lost',
            reason: 'webgl-context-lost',
            message: 'the WebGL context was lost (GPU reset, too many contexts, or lost on purpose)',
          });
      },
      { once: true },
    );
  }
  const device = webgpuDevice();
  if (!device) return;
  void device.lost.then((info) => {
    // A backend re-created since then has its own device; only the current one matters.
    if (webgpuDevice() === device)
      notify({ kind: 'device-lost', reason: info.reason, message: info.message });
  });
}

/**
 * A lesson: destroy the GPU device (WebGPU) or lose the context (WebGL, WEBGL_lose_context) on purpose,
 * which the browser reports exactly like a real loss.
 */
export function loseDevice(): boolean {
  const gl = webglContext();
  if (gl) {
    const lose = gl.getExtension('WEBGL_lose_context');
    if (!lose) throw new Error('This WebGL context cannot be lost on purpose (no WEBGL_lose_context).');
    lose.loseContext();
    return true;
  }
  const device = webgpuDevice();
  if (!device) throw new Error('Only the WebGPU and WebGL backends have a device to lose.');
  device.destroy();
  return true;
}

/** Elements of one float32 tensor just above the backend's single-buffer limit, or null without one. */
function overLimitElements(name: string): number | null {
  const device = webgpuDevice();
  if (name === 'webgpu' && device) return Math.floor(device.limits.maxBufferSize / 4) + 1;
  if (name === 'webgl') return tf.env().getNumber('WEBGL_MAX_TEXTURE_SIZE') ** 2 * 4 + 1;
  return null;
}

/**
 * A lesson: allocate one tensor just above the backend's single-buffer limit (WebGPU maxBufferSize,
 * WebGL's largest texture), catch the real failure the browser reports, then check the backend
 * still computes correctly.
 */
export async function provokeBufferLimit(): Promise<ProvokeResult> {
  const name = tf.getBackend();
  const elements = overLimitElements(name);
  if (elements === null)
    throw new Error(`The ${name} backend has no single-tensor limit to provoke; use WebGPU or WebGL.`);
  const allocatedBefore = readMemory(0).allocatedBytes ?? null;
  const recorder = new LargestAllocation(name);
  let caught: ProvokeResult['caught'] = null;
  try {
    await makeStepGuard(recorder)(async () => {
      const big = tf.fill([elements], 1);
      try {
        await big.data();
      } finally {
        big.dispose();
      }
    });
  } catch (err) {
    if (!(err instanceof ResourceExhaustedError)) throw err;
    caught = err.details;
  } finally {
    recorder.dispose();
  }
  const check = tf.tidy(() => tf.add(tf.ones([4]), 1));
  const values = await check.data();
  check.dispose();
  return {
    caught,
    stillWorks: Array.from(values).every((v) => v === 2),
    allocatedBefore,
    allocatedAfter: readMemory(0).allocatedBytes ?? null,
  };
}
