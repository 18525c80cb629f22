import type { BackendInfo } from './backend';

/**
 * Whether the backend computes on a real GPU, and what can honestly be said of its peak FLOP/s. Pure:
 * the facts come from BackendInfo (the WebGPU adapter's vendor, architecture and description, the
 * latter also naming a fallback adapter, see browser/backend.ts).
 */

/** Names the software rasterisers that stand in for a GPU: Chromium's SwiftShader, Mesa's llvmpipe and lavapipe, Windows' WARP. */
const SOFTWARE = /swiftshader|llvmpipe|lavapipe|softpipe|software|basic render|warp|fallback/i;

export type ComputeKind = 'gpu' | 'software' | 'cpu' | 'unknown';

/**
 * What runs the kernels: a GPU, a GPU emulated on the CPU, the tfjs cpu backend, or not known. WebGL
 * is judged by its renderer string when the browser gives one (a GPU when it does not, as before).
 */
export function computeKind(
  info: Pick<BackendInfo, 'name' | 'adapter' | 'renderer'> | null | undefined,
): ComputeKind {
  if (!info) return 'unknown';
  if (info.name === 'cpu') return 'cpu';
  const a = info.adapter;
  const words = a ? `${a.vendor} ${a.architecture} ${a.description}` : info.renderer;
  if (words === undefined) return info.name === 'webgl' ? 'gpu' : 'unknown';
  return SOFTWARE.test(words) ? 'software' : 'gpu';
}

/**
 * The device's peak beside an achieved FLOP/s: null with the reason when there is none to show. The
 * browser reports no GPU's clock or core count, so a real GPU's peak is not known here either.
 */
export function peakNote(kind: ComputeKind): { peakFlops: number | null; note: string } {
  const note = {
    software: 'no meaningful peak: a software adapter emulates the GPU on the CPU',
    cpu: 'no meaningful peak: the tfjs cpu backend runs plain JavaScript',
    gpu: "peak not known: the browser does not report the GPU's peak FLOP/s",
    unknown: 'peak not known',
  }[kind];
  return { peakFlops: null, note };
}

/** Achieved FLOP/s of a step from its FLOPs and its wall time (NaN when the time is not positive). */
export function achievedFlops(flops: number, stepMs: number): number {
  return stepMs > 0 ? flops / (stepMs / 1000) : Number.NaN;
}
