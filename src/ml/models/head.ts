import * as tf from '@tensorflow/tfjs';
import { on, type Initializers, type Sym } from './graph';

/** A backbone and the seed's head as one flat model, and where the backbone ends. */
export interface Classifier {
  model: tf.LayersModel;
  /** Layers before the head (the index of 'avg_pool'), input layer included. */
  backboneLayerCount: number;
}

const HEAD_UNITS = 128;
/** The seed script's rate for both head dropouts. */
const HEAD_DROPOUT = 0.2;

/**
 * The seed script's head on a feature map: pool, dropout, Dense(128, relu), dropout, softmax. Plain Keras
 * Dense layers, so their kernels start glorot_uniform. `dropoutRate` 0 makes a training step deterministic
 * (the interop suite compares one with Keras').
 */
export function attachHead(
  input: Sym,
  features: Sym,
  numClasses: number,
  init: Initializers,
  name: string,
  dropoutRate = HEAD_DROPOUT,
): Classifier {
  const head: tf.layers.Layer[] = [
    tf.layers.globalAveragePooling2d({ name: 'avg_pool' }),
    tf.layers.dropout({ rate: dropoutRate, name: 'head_dropout_1' }),
    tf.layers.dense({
      units: HEAD_UNITS,
      activation: 'relu',
      kernelInitializer: init.glorot(),
      name: 'head_dense',
    }),
    tf.layers.dropout({ rate: dropoutRate, name: 'head_dropout_2' }),
    tf.layers.dense({
      units: numClasses,
      activation: 'softmax',
      kernelInitializer: init.glorot(),
      name: 'predictions',
    }),
  ];
  const outputs = head.reduce((x, layer) => on(layer, x), features);
  const model = tf.model({ inputs: input, outputs, name });
  // Layers are ordered by depth from the output, so the head is always the last head.length layers.
  return { model, backboneLayerCount: model.layers.length - head.length };
}

const HEAD_NAMES = ['avg_pool', 'head_dropout_1', 'head_dense', 'head_dropout_2', 'predictions'];

/** Where the seed's head begins in a model that ends with it (its backboneLayerCount), else null. */
export function labHeadStart(model: tf.LayersModel): number | null {
  const start = model.layers.length - HEAD_NAMES.length;
  const tail = model.layers.slice(Math.max(0, start)).map((l) => l.name);
  return start > 0 && tail.every((name, i) => name === HEAD_NAMES[i]) ? start : null;
}
