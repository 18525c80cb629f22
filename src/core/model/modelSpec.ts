/**
 * A model as the planner sees it: layers, their shapes for one example and their weights. Built from
 * a real model by `ml/memory/describe`, or written by hand in tests; no tensors, no tfjs.
 */

/** The layer kinds the planner has a memory recipe for; anything else is 'other'. */
export type LayerKind =
  | 'input'
  | 'conv2d'
  | 'depthwiseConv2d'
  | 'batchNormalization'
  | 'activation'
  | 'relu'
  | 'zeroPadding2d'
  | 'rescaling'
  | 'normalization'
  | 'globalAveragePooling2d'
  | 'reshape'
  | 'multiply'
  | 'add'
  | 'dropout'
  | 'dense'
  | 'other';

export interface LayerSpec {
  name: string;
  /** tfjs class name, e.g. 'Conv2D'. */
  className: string;
  kind: LayerKind;
  /** Names of the layers feeding this one, in order. */
  inputs: string[];
  /** Shape of each input for one example (no batch dimension). */
  inputShapes: number[][];
  /** Output shape for one example. */
  outputShape: number[];
  /** Elements of each weight, split by whether Keras would train it when the layer is trainable. */
  trainableWeightSizes: number[];
  /** Weights that never train (BatchNorm moving statistics, Normalization mean/variance). */
  fixedWeightSizes: number[];
  /** Fused activation of a Conv2D/Dense layer, or the function of an Activation layer. */
  activation?: string;
  /** ReLU layer: the cap of its output (6 for MobileNetV2's ReLU6), absent when uncapped. */
  maxValue?: number;
  /** Dropout: whether the mask is shared across spatial positions (EfficientNet's stochastic depth). */
  sharedMask?: boolean;
  /** Multiply-accumulates of the layer for one example, for FLOP counts. */
  macs: number;
  /**
   * A node of a tfjs graph model (a frozen backbone outside the lab's model): the TensorFlow op it
   * runs. The graph executor runs each op as one kernel outside any tape, leaving nothing beside its
   * output, so no layer recipe applies.
   */
  op?: string;
  /** The output stays alive through the whole step (a graph's features, which the caller holds). */
  outlivesBackbone?: boolean;
}

export interface ModelSpec {
  name: string;
  /** Input height and width the shapes are for. */
  height: number;
  width: number;
  layers: LayerSpec[];
  /** Index of the first head layer: layers before it are the backbone. */
  backboneLayerCount: number;
}

export const product = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Parameters of a layer: trainable-when-unfrozen plus fixed ones. */
export function layerParams(layer: LayerSpec): number {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return sum(layer.trainableWeightSizes) + sum(layer.fixedWeightSizes);
}

/**
 * Which layers train, with the lab's Keras convention: the head always, plus the last `unfreezeLastN`
 * backbone layers in the fine-tune phase (`base_model.layers[-N:]`). Returns layer names. The user's
 * choice is a rule resolved by core/settings/trainable.ts; this is its "last N" case.
 */
export function trainableLayers(
  spec: Pick<ModelSpec, 'backboneLayerCount'> & { layers: readonly { name: string }[] },
  phase: 'frozen' | 'fine-tune',
  unfreezeLastN: number,
): Set<string> {
  const first = firstTrainableLayer(spec.backboneLayerCount, phase, unfreezeLastN);
  return new Set(spec.layers.slice(first).map((l) => l.name));
}

/**
 * The "last N" rule, written once (the planner and the trainer both read it): the index of the first
 * trainable layer. Frozen: the head's first layer. Fine-tune: N layers earlier, counting every layer as
 * `base_model.layers[-N:]` does, never the input layer (index 0).
 */
export function firstTrainableLayer(
  backboneLayerCount: number,
  phase: 'frozen' | 'fine-tune',
  unfreezeLastN: number,
): number {
  return phase === 'frozen' ? backboneLayerCount : Math.max(1, backboneLayerCount - unfreezeLastN);
}
