import * as tf from '@tensorflow/tfjs';

/** One stored weight; its values are read only after the whole match has been checked. */
export interface SourceWeight {
  /** Name as stored, e.g. 'stem_conv/kernel:0' (Keras 2 .h5) or 'stem_conv/kernel' (tfjs). */
  name: string;
  /** Shape as stored. */
  shape: readonly number[];
  /** The values as float32, in row-major order. */
  read(): Float32Array;
}

/** The weights of one stored layer, in the order Keras saved them. */
export interface SourceLayer {
  /** Layer name, matched against `model.getLayer(name)`. */
  name: string;
  /** Its weights; layers without weights are not listed. */
  weights: readonly SourceWeight[];
}

/** Weights from anywhere (an .h5 file, tfjs shards, another model), keyed by layer name. */
export interface WeightSource {
  /** Where the weights came from (a file name or model name), used in every message. */
  label: string;
  /** Layers with weights, in stored order. */
  layers: readonly SourceLayer[];
  /**
   * Every layer name the file lists, weightless ones (Rescaling, Activation…) included, where its format
   * lists them; absent otherwise. It tells which preprocessing layers the saved model had.
   */
  layerNames?: readonly string[];
}

/** The last path component without Keras' ':0' suffix: 'block1a_dwconv/depthwise_kernel:0' → 'depthwise_kernel'. */
export function shortWeightName(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  return last.replace(/:\d+$/, '');
}

/** A model's layers with nested models (Keras' `Sequential([base, head])`) flattened: their layers keep their names. */
export function flatLayers(model: tf.LayersModel): tf.layers.Layer[] {
  return model.layers.flatMap((layer) => (layer instanceof tf.LayersModel ? flatLayers(layer) : [layer]));
}

/** Weights of a loaded LayersModel, so they can be copied by layer name onto a model built in the lab. */
export function sourceFromLayersModel(model: tf.LayersModel, label = model.name): WeightSource {
  const layers = flatLayers(model)
    .filter((layer) => layer.weights.length > 0)
    .map((layer) => ({
      name: layer.name,
      weights: layer.weights.map((w) => ({
        name: w.originalName,
        shape: w.shape.map((d) => d ?? 0),
        read: () => w.read().dataSync() as Float32Array,
      })),
    }));
  return { label, layers };
}

/**
 * Weights of tfjs model artifacts (model.json + shards), dequantised. Names are 'layer/weight'; the layer is
 * everything before the last '/'.
 */
export function sourceFromArtifacts(
  weightSpecs: readonly tf.io.WeightsManifestEntry[],
  weightData: tf.io.WeightData,
  label: string,
): WeightSource {
  const decoded = tf.io.decodeWeights(weightData, [...weightSpecs]);
  const values = new Map<string, Float32Array>();
  for (const [name, tensor] of Object.entries(decoded)) {
    const data = tensor.dataSync();
    values.set(name, data instanceof Float32Array ? data : Float32Array.from(data as Int32Array));
    tensor.dispose();
  }
  const byLayer = new Map<string, SourceWeight[]>();
  for (const spec of weightSpecs) {
    const layer = spec.name.slice(0, Math.max(0, spec.name.lastIndexOf('/')));
    const data = values.get(spec.name);
    if (data === undefined) continue;
    const list = byLayer.get(layer) ?? [];
    list.push({ name: spec.name, shape: spec.shape, read: () => data });
    byLayer.set(layer, list);
  }
  return { label, layers: [...byLayer].map(([name, weights]) => ({ name, weights })) };
}
