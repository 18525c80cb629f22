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
   * WebGL: whether tensors are stored in float16 textures (WEBGL_FORCE_F16_TEXTURES, or a device that
   * cannot render to float32 ones). Absent on other backends.
   */
  f16Textures?: boolean;
  /** One line per faster backend that was not used, saying why. */ skipped: string[];
}

/** The backends to try, in order, for a request. */
export function backendCandidates(request: BackendRequest): BackendName[] {
  return request === 'auto' ? [...BACKEND_ORDER] : [request];
}
