import type { LayerSpec, ModelSpec } from '../../core/modelSpec';
import { describeModel } from '../memory/describe';
import type { GraphBackbone } from './graphBackbone';
import type { Classifier } from './head';

/** The name the planner and the memory view show for the graph. */
export const GRAPH_LAYER = 'graph_backbone';

/**
 * The planner's view of a graph backbone with the lab's head: the image input, the whole graph as one
 * frozen layer (its constants as fixed weights, images in, features out: the graph's own intermediates
 * are not visible to the planner), then the head as describeModel sees it. backboneLayerCount 2, so
 * every trainable-set rule resolves to the head alone and the frozen phase plans the backbone outside
 * the tape, as the Trainer runs it.
 */
export function describeGraphClassifier(backbone: GraphBackbone, classifier: Classifier): ModelSpec {
  const head = describeModel(classifier.model, classifier.backboneLayerCount);
  const [featuresInput, ...headLayers] = head.layers;
  const image = [backbone.height, backbone.width, 3];
  const sizes = Object.values(backbone.graph.weights).flatMap((ts) => ts.map((t) => t.size));
  const graph: LayerSpec = {
    name: GRAPH_LAYER,
    className: 'GraphModel',
    kind: 'other',
    inputs: ['input_layer'],
    inputShapes: [image],
    outputShape: [...backbone.featureShape],
    trainableWeightSizes: [],
    fixedWeightSizes: sizes,
    macs: 0,
  };
  const input: LayerSpec = {
    ...graph,
    name: 'input_layer',
    className: 'InputLayer',
    kind: 'input',
    inputs: [],
    inputShapes: [],
    outputShape: image,
    fixedWeightSizes: [],
  };
  // The head's first layer read the classifier's 'features' input; here it reads the graph.
  const rewired = headLayers.map((l) => ({
    ...l,
    inputs: l.inputs.map((n) => (n === featuresInput?.name ? GRAPH_LAYER : n)),
  }));
  return {
    name: classifier.model.name,
    height: backbone.height,
    width: backbone.width,
    layers: [input, graph, ...rewired],
    backboneLayerCount: 2,
  };
}
