import * as tf from '@tensorflow/tfjs';
// Registers the 'webgpu' backend (only when navigator.gpu exists).
import '@tensorflow/tfjs-backend-webgpu';
import { computeKind } from '../core/device/adapterKind';
import {
  backendCandidates,
  softwareWebGPUReason,
  type BackendInfo,
  type BackendName,
  type BackendRequest,
  type WebGPUProbe,
} from '../core/device/backend';
import { webglContext, webgpuAdapter, webgpuDevice } from '../ml/tfjsInternals';
import { errorMessage } from '../core/format';

/** The adapter's own description, kept when WebGPU is probed (tfjs 4.22 keeps only vendor and architecture). */
let probedAdapter: ProbedAdapter | null = null;

/**
 * What the probed adapter says of itself: its description (e.g. 'SwiftShader Device (Subzero)'), with
 * 'fallback adapter' added when the browser flags it as one (a software implementation), so that
 * core/device/adapterKind can tell an emulated GPU from a real one.
 */
function adapterDescription(): string {
  if (!probedAdapter) return '';
  return [probedAdapter.description, probedAdapter.fallback ? 'fallback adapter' : '']
    .filter(Boolean)
    .join(' · ');
}

/** The adapter as the browser describes it, kept by the probe. */
interface ProbedAdapter {
  vendor: string;
  architecture: string;
  description: string;
  fallback: boolean;
}

/**
 * Asks the browser for a WebGPU adapter and keeps what it says of itself; null when there is none.
 * GPUAdapter.info and isFallbackAdapter are recent (absent from older browsers and older typings).
 */
async function requestAdapterInfo(): Promise<ProbedAdapter | null> {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return null;
  const info = (
    adapter as GPUAdapter & {
      info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
    }
  ).info;
  const legacyFallback = (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter;
  return {
    vendor: info?.vendor ?? '',
    architecture: info?.architecture ?? '',
    description: info?.description ?? '',
    fallback: Boolean(info?.isFallbackAdapter ?? legacyFallback),
  };
}

/** Why WebGPU cannot be used here, or null when an adapter is available. */
async function webgpuUnavailableReason(): Promise<string | null> {
  if (!('gpu' in navigator) || !navigator.gpu) {
    return globalThis.isSecureContext
      ? 'WebGPU: this browser has no navigator.gpu'
      : 'WebGPU: needs a secure context (https or localhost)';
  }
  probedAdapter = await requestAdapterInfo();
  return probedAdapter ? null : 'WebGPU: no GPU adapter available (blocklisted driver or disabled)';
}

/**
 * What auto needs to know of WebGPU before it picks an order: its adapter, and whether that is software,
 * judged by core/device/adapterKind on the same words the badge's BackendInfo.adapter will carry.
 */
async function probeWebGPU(): Promise<WebGPUProbe | null> {
  if ((await webgpuUnavailableReason()) || !probedAdapter) return null;
  const adapter = {
    vendor: probedAdapter.vendor || 'unknown',
    architecture: probedAdapter.architecture || 'unknown',
    description: adapterDescription(),
  };
  return {
    adapter: [`${adapter.vendor} / ${adapter.architecture}`, adapter.description].filter(Boolean).join(', '),
    software: computeKind({ name: 'webgpu', adapter }) === 'software',
  };
}

/** tfjs registers its WebGL backend at this priority. */
const WEBGL_PRIORITY = 2;

/**
 * Sets WEBGL_FORCE_F16_TEXTURES. tfjs flags are global and cached once read, so the flags derived from it
 * are recomputed, and the WebGL backend, which fixes its texture formats when it is created, is
 * re-created under the new setting (any tensor held on the old one is lost). Does nothing when the
 * flag already has that value.
 */
function setWebglF16Textures(on: boolean): void {
  const env = tf.env();
  if (env.getBool('WEBGL_FORCE_F16_TEXTURES') === on) return;
  env.set('WEBGL_FORCE_F16_TEXTURES', on);
  const flags = env.getFlags();
  if ('WEBGL_RENDER_FLOAT32_ENABLED' in flags) {
    env.set('WEBGL_RENDER_FLOAT32_ENABLED', on ? false : env.getBool('WEBGL_RENDER_FLOAT32_CAPABLE'));
  }
  // tfjs uploads tiny tensors as float32 uniforms only when it renders to float32 textures.
  if ('WEBGL_SIZE_UPLOAD_UNIFORM' in flags) {
    env.set('WEBGL_SIZE_UPLOAD_UNIFORM', env.getBool('WEBGL_RENDER_FLOAT32_ENABLED') ? 4 : 0);
  }
  tf.removeBackend('webgl');
  tf.registerBackend('webgl', () => new tf.MathBackendWebGL(), WEBGL_PRIORITY);
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
    return `${name}: ${errorMessage(err)}`;
  }
}

/** How to start the backend. */
export interface BackendOptions {
  /**
   * An experiment: WebGL with WEBGL_FORCE_F16_TEXTURES, so every tensor the WebGL backend computes is
   * stored in a float16 texture. tfjs 4.22 has no float16 dtype: this is the only real half precision it
   * offers, and it affects WebGL alone. Off by default, and switched off again when not asked for,
   * because the flag is global.
   */
  webglF16Textures?: boolean;
}

/**
 * Puts tfjs on the fastest backend that works (or the one asked for) and reports what it got and
 * why faster ones were skipped. Throws when nothing works.
 */
export async function initBackend(
  request: BackendRequest,
  inWorker: boolean,
  options: BackendOptions = {},
): Promise<BackendInfo> {
  const f16 = options.webglF16Textures ?? false;
  setWebglF16Textures(f16);
  const webgpu = request === 'auto' ? await probeWebGPU() : null;
  const skipped: string[] = webgpu?.software ? [softwareWebGPUReason(webgpu)] : [];
  for (const name of backendCandidates(request, webgpu)) {
    const reason = await trySetBackend(name);
    if (reason) {
      skipped.push(name === 'webgl' && f16 ? `${reason} (with float16 textures forced)` : reason);
      continue;
    }
    const passedOver = webgpu?.software && name !== 'webgpu' ? { softwareWebGPU: webgpu } : {};
    return { name, requested: request, inWorker, skipped, ...passedOver, ...describeBackend(name) };
  }
  throw new Error(`No TensorFlow.js backend could start. ${skipped.join('; ')}`);
}

function describeBackend(name: BackendName): Partial<BackendInfo> {
  const device = name === 'webgpu' ? webgpuDevice() : null;
  if (device) {
    const info = webgpuAdapter() ?? {};
    return {
      adapter: {
        vendor: info.vendor || 'unknown',
        architecture: info.architecture || 'unknown',
        description: adapterDescription(),
      },
      limits: {
        maxBufferSize: device.limits.maxBufferSize,
        maxStorageBufferBindingSize: device.limits.maxStorageBufferBindingSize,
      },
    };
  }
  if (name === 'webgl') {
    return {
      maxTextureSize: tf.env().getNumber('WEBGL_MAX_TEXTURE_SIZE'),
      // True when forced, and also on devices that cannot render to float32 textures at all.
      f16Textures: !tf.env().getBool('WEBGL_RENDER_FLOAT32_ENABLED'),
      ...webglRendererField(),
    };
  }
  return {};
}

/**
 * The WebGL renderer's own name, which tells SwiftShader from a GPU: the unmasked renderer where the
 * browser offers WEBGL_debug_renderer_info, else the masked one (often just 'WebKit WebGL').
 */
function webglRendererField(): { renderer?: string } {
  const gl = webglContext();
  if (!gl) return {};
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer: unknown = gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  return typeof renderer === 'string' && renderer ? { renderer } : {};
}
