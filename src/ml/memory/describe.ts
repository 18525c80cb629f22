import type * as tf from '@tensorflow/tfjs';
import { product, type LayerKind, type LayerSpec, type ModelSpec } from '../../core/model/modelSpec';
import { layerWeightLists } from '../tfjsInternals';

const KINDS: Record<string, LayerKind> = {
  InputLayer: 'input',
  Conv2D: 'conv2d',
  DepthwiseConv2D: 'depthwiseConv2d',
  BatchNormalization: 'batchNormalization',
  KerasBatchNormalization: 'batchNormalization',
  Activation: 'activation',
  ReLU: 'relu',
  ZeroPadding2D: 'zeroPadding2d',
  Rescaling: 'rescaling',
  Normalization: 'normalization',
  GlobalAveragePooling2D: 'globalAveragePooling2d',
  Reshape: 'reshape',
  Multiply: 'multiply',
  Add: 'add',
  Dropout: 'dropout',
  Dense: 'dense',
};

type Shape = (number | null)[];
const perExample = (shape: Shape): number[] => shape.slice(1).map((d) => d ?? 1);
const shapesOf = (s: Shape | Shape[]): Shape[] => (Array.isArray(s[0]) ? (s as Shape[]) : [s as Shape]);

function macs(kind: LayerKind, layer: tf.layers.Layer, inputs: number[][], output: number[]): number {
  const config = layer.getConfig();
  const kernel = (config['kernelSize'] as number[] | number | undefined) ?? 1;
  const window = Array.isArray(kernel) ? product(kernel) : kernel * kernel;
  const inChannels = inputs[0]?.[inputs[0].length - 1] ?? 1;
  if (kind === 'conv2d') return product(output) * window * inChannels;
  if (kind === 'depthwiseConv2d') return product(output) * window;
  if (kind === 'dense') return product(output) * inChannels;
  return 0;
}

/** Activation name of a layer's config, as the planner names it. */
function activationOf(layer: tf.layers.Layer): string | undefined {
  const a = layer.getConfig()['activation'];
  return typeof a === 'string' ? a : undefined;
}

/** The planner's view of a built model: per-example shapes, weights and inbound layers. */
export function describeModel(model: tf.LayersModel, backboneLayerCount: number): ModelSpec {
  const inputShape = perExample(model.inputs[0]!.shape as Shape);
  const layers: LayerSpec[] = model.layers.map((layer) => {
    const className = layer.getClassName();
    const kind = KINDS[className] ?? 'other';
    // The first inbound node is the model's own call; later ones come from reusing the layer elsewhere.
    const node = layer.inboundNodes[0];
    const inputShapes =
      kind === 'input' || !node ? [] : shapesOf(node.inputShapes as Shape | Shape[]).map(perExample);
    const outputShape = perExample(
      shapesOf((node?.outputShapes ?? layer.outputShape) as Shape | Shape[])[0]!,
    );
    const weights = layerWeightLists(layer);
    const size = (w: tf.LayerVariable) => product(w.shape.map((d) => d ?? 1));
    const spec: LayerSpec = {
      name: layer.name,
      className,
      kind,
      inputs: (node?.inboundLayers ?? []).map((l) => l.name),
      inputShapes,
      outputShape,
      trainableWeightSizes: weights.trainable.map(size),
      fixedWeightSizes: weights.nonTrainable.map(size),
      macs: macs(kind, layer, inputShapes, outputShape),
    };
    const activation = activationOf(layer);
    if (activation) spec.activation = activation;
    const maxValue = layer.getConfig()['maxValue'];
    if (kind === 'relu' && typeof maxValue === 'number') spec.maxValue = maxValue;
    if (kind === 'dropout') spec.sharedMask = layer.getConfig()['noiseShape'] != null;
    return spec;
  });
  return {
    name: model.name,
    height: inputShape[0] ?? 1,
    width: inputShape[1] ?? 1,
    layers,
    backboneLayerCount,
  };
}
