/** Backends the lab can train on, fastest first. WASM is absent: tfjs 4.22's WASM backend lacks
 * DepthwiseConv2dNativeBackpropInput, so it cannot train an EfficientNet. */
export const BACKEND_ORDER = ['webgpu', 'webgl', 'cpu'] as const;
export type BackendName = (typeof BACKEND_ORDER)[number];
/** What the user asked for: a specific backend, or the fastest that works. */
export type BackendRequest = BackendName | 'auto';

/** What the engine ended up on, and why. */
export interface BackendInfo {
  /** Backend in use. */ name: BackendName;
  /** What was asked for. */ requested: BackendRequest;
  /** Whether the engine runs in a Web Worker (false: same-thread fallback). */ inWorker: boolean;
  /** GPU adapter, when the backend is WebGPU. */ adapter?: {
    vendor: string;
    architecture: string;
    description: string;
  };
  /** Limits that decide whether one tensor fits (WebGPU). */
  limits?: { maxBufferSize: number; maxStorageBufferBindingSize: number };
  /** WebGL: the largest texture side. */ maxTextureSize?: number;
  /**
   * WebGL: the renderer the context reports (WEBGL_debug_renderer_info's unmasked renderer, e.g.
   * 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) ...))'), when the browser gives it.
   */
  renderer?: string;
  /**
   * WebGL: whether tensors are stored in float16 textures (WEBGL_FORCE_F16_TEXTURES, or a device that
   * cannot render to float32 ones). Absent on other backends.
   */
  f16Textures?: boolean;
  /** One line per faster backend that was not used, saying why. */ skipped: string[];
  /**
   * Auto's probe of WebGPU when it found a software adapter and so tried WebGL first: WebGPU was there
   * and passed over on purpose (the page thread would find the same adapter).
   */
  softwareWebGPU?: WebGPUProbe;
}

/** What the WebGPU probe found before any backend started: the adapter's own words, or none. */
export interface WebGPUProbe {
  /** Vendor, architecture and description as one line, e.g. 'google / swiftshader'. */ adapter: string;
  /** Whether that adapter emulates a GPU on the CPU (core/device/adapterKind's test). */ software: boolean;
}

/**
 * The backends to try, in order, for a request. Auto tries the fastest first: WebGPU, then WebGL, then
 * the cpu backend; but when WebGPU's adapter is a software one, WebGL goes first. Emulated on the CPU,
 * WebGPU's compute shaders (tiled matrix products with workgroup barriers) run several times slower
 * than WebGL's fragment shaders on the same machine: the default journey's MobileNetV2 steps measured
 * 5–8× slower on SwiftShader's WebGPU than on its WebGL (docs/known-limits.md, "Slow in software"). A hardware WebGL is faster still.
 */
export function backendCandidates(request: BackendRequest, webgpu?: WebGPUProbe | null): BackendName[] {
  if (request !== 'auto') return [request];
  return webgpu?.software ? ['webgl', 'webgpu', 'cpu'] : [...BACKEND_ORDER];
}

/** The "why not faster" line for a WebGPU that auto put after WebGL, for the badge. */
export function softwareWebGPUReason(webgpu: WebGPUProbe): string {
  return `webgpu: tried after webgl, because its adapter (${webgpu.adapter}) is software: emulated on the CPU, WebGPU trains several times slower than WebGL does there. Choose webgpu to use it anyway.`;
}
