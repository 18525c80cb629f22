import type * as tf from '@tensorflow/tfjs';
import { flatLayers, shortWeightName } from './source';

/** One top-level group of a Keras 2 weight file: a layer, or a nested model holding many layers' weights. */
export interface H5Group {
  /** The group's name, listed in the root's `layer_names`. */
  name: string;
  /** Its weights in the order Keras loads them, each with the layer it belongs to. */
  weights: { layer: string; variable: tf.LayerVariable }[];
}

/** Every layer its own group, in the model's order: the layout of a flat Keras model. */
export function flatGroups(model: tf.LayersModel): H5Group[] {
  return flatLayers(model).map((layer) => ({
    name: layer.name,
    weights: layer.weights.map((variable) => ({ layer: layer.name, variable })),
  }));
}

/** Weights Keras creates with trainable=False: BatchNorm's moving statistics, Normalization's state. */
const KERAS_NON_TRAINABLE = new Set(['moving_mean', 'moving_variance', 'mean', 'variance', 'count']);

/**
 * The layout of `Model(inputs, head(base(inputs)))`, the model the lab's generated Keras script builds:
 * the backbone's layers (the first `backboneLayerCount`, input excepted) as one group named `base`, then
 * the head's layers. Keras 3 and tf_keras load a nested model's group by order, as
 * `trainable_weights + non_trainable_weights` of a freshly built backbone, so the backbone's weights are
 * written in that order whatever the lab had frozen.
 */
export function nestedGroups(model: tf.LayersModel, backboneLayerCount: number, base: string): H5Group[] {
  const layers = flatLayers(model);
  const [input, ...backbone] = layers.slice(0, backboneLayerCount);
  const all = backbone.flatMap((layer) => layer.weights.map((variable) => ({ layer: layer.name, variable })));
  const frozen = (w: { variable: tf.LayerVariable }) =>
    KERAS_NON_TRAINABLE.has(shortWeightName(w.variable.originalName));
  const head = flatGroups(model).slice(backboneLayerCount);
  const inputGroup = input ? [{ name: input.name, weights: [] }] : [];
  return [
    ...inputGroup,
    { name: base, weights: [...all.filter((w) => !frozen(w)), ...all.filter(frozen)] },
    ...head,
  ];
}
