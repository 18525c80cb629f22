import { decodeImage } from '../src/browser/decode';
import { computeKind, type ComputeKind } from '../src/core/device/adapterKind';
import { DEFAULT_TRAIN_CONFIG } from '../src/core/settings/settings';
import { loadSample, type Sample } from './float16Accuracy';

/**
 * The built-in sample in the bench page: public/sample as the dev server serves it, each PNG decoded by
 * the browser the way the lab decodes a data set's file (src/browser/decode).
 */
export async function browserSample(): Promise<Sample> {
  const base = new URL('/sample/', location.href);
  const response = await fetch(new URL('manifest.json', base));
  if (!response.ok)
    throw new Error(`The built-in sample is missing (HTTP ${response.status} for sample/manifest.json)`);
  const manifest = (await response.json()) as { files: { path: string }[] };
  // The largest training size: the sample's 64×64 images are decoded at their own size.
  const fit = { height: DEFAULT_TRAIN_CONFIG.height, width: DEFAULT_TRAIN_CONFIG.width };
  return loadSample(
    manifest.files.map(({ path }) => path),
    (path) => decodeImage({ kind: 'url', url: new URL(path, base).href }, path, fit),
  );
}

/**
 * What computes WebGPU's kernels, from the adapter's own words as the lab reads them (browser/backend):
 * SwiftShader or a fallback adapter is 'software', so the row trains with the defaults the lab gives
 * such a machine.
 */
export async function webgpuComputeKind(): Promise<ComputeKind> {
  // GPUAdapter.info and isFallbackAdapter are recent (absent from older typings).
  const adapter = (await navigator.gpu.requestAdapter()) as
    (GPUAdapter & { info?: GPUAdapterInfo & { isFallbackAdapter?: boolean } }) | null;
  const info = adapter?.info;
  if (!info) return 'unknown';
  const fallback = info.isFallbackAdapter ? 'fallback adapter' : '';
  return computeKind({
    name: 'webgpu',
    adapter: {
      vendor: info.vendor,
      architecture: info.architecture,
      description: `${info.description} ${fallback}`,
    },
  });
}
