import * as tf from '@tensorflow/tfjs';
import { GRAPH_LAYER } from '../../core/model/layerTable';
import type { LayerSpec, ModelSpec } from '../../core/model/modelSpec';
import { describeModel } from '../memory/describe';
import type { GraphBackbone } from './graphBackbone';
import type { Classifier } from './head';
import { append } from '../../core/extent';

/** One executed node of a graph model, as the planner needs it. */
export interface GraphNode {
  /** The node's name in the GraphDef. */
  name: string;
  /** The TensorFlow op it runs. */
  op: string;
  /** The executed nodes (or the image input) it reads, by GraphDef name. */
  inputs: string[];
  /** Its output for one image (the batch-1 shape without the batch). */
  shape: number[];
  /** Elements of the constants it reads that no earlier node read. */
  constants: number[];
}

interface NodeDef {
  name: string;
  op: string;
  input?: string[];
}

/** A GraphDef input reference ('^ctrl', 'node:1') as the node name. */
const nodeName = (ref: string) => ref.replace(/^\^/, '').replace(/:\d+$/, '');

/**
 * Every node the graph executes for one image, in the executor's order, with its output shape: one
 * batch-1 run that keeps the intermediates (tfjs' KEEP_INTERMEDIATE_TENSORS; the kept map lists the
 * constants and the input first, then each node as it ran). Its inputs come from the GraphDef.
 * Constants go to their first reader; any no node reads stay with the last node (they are loaded).
 */
export function graphNodes(
  graph: GraphBackbone['graph'],
  topology: tf.io.ModelArtifacts['modelTopology'],
  height: number,
  width: number,
): GraphNode[] {
  const defs = new Map(((topology as { node?: NodeDef[] }).node ?? []).map((d) => [d.name, d]));
  const constants = new Map(Object.entries(graph.weights).map(([n, ts]) => [n, ts.map((t) => t.size)]));
  const image = graph.inputs[0]!.name;
  const env = tf.env();
  const keep = env.getBool('KEEP_INTERMEDIATE_TENSORS');
  env.set('KEEP_INTERMEDIATE_TENSORS', true);
  let ran: [string, number[]][];
  try {
    const probe = tf.zeros([1, height, width, 3]);
    tf.dispose(graph.execute(probe));
    probe.dispose();
    ran = Object.entries(graph.getIntermediateTensors())
      .filter(([n]) => !constants.has(n) && n !== image)
      .map(([n, ts]) => [n, ts[0]?.shape ?? []]);
  } finally {
    graph.disposeIntermediateTensors();
    env.set('KEEP_INTERMEDIATE_TENSORS', keep);
  }
  const executed = new Set(ran.map(([n]) => n));
  const unread = new Set(constants.keys());
  const nodes = ran.map(([name, shape]): GraphNode => {
    const refs = (defs.get(name)?.input ?? []).map(nodeName);
    const read = refs.filter((r) => unread.delete(r));
    return {
      name,
      op: defs.get(name)?.op ?? 'unknown',
      inputs: refs.filter((r) => executed.has(r) || r === image),
      // A batch-independent output (a shape computation) is counted per image: a few bytes at most.
      shape: shape[0] === 1 ? shape.slice(1) : shape,
      constants: read.flatMap((r) => constants.get(r) ?? []),
    };
  });
  const last = nodes.at(-1);
  if (last)
    append(
      last.constants,
      [...unread].flatMap((r) => constants.get(r) ?? []),
    );
  return nodes;
}

/** A node as a frozen backbone layer: no trainable weights, its constants as fixed weights. */
function nodeLayer(node: GraphNode, shapes: Map<string, number[]>, image: string): LayerSpec {
  const inputs = node.inputs.map((n) => (n === image ? 'input_layer' : `${GRAPH_LAYER}/${n}`));
  return {
    name: `${GRAPH_LAYER}/${node.name}`,
    className: node.op,
    kind: 'other',
    op: node.op,
    inputs,
    inputShapes: inputs.map((n) => shapes.get(n) ?? []),
    outputShape: node.shape,
    trainableWeightSizes: [],
    fixedWeightSizes: node.constants,
    macs: 0,
  };
}

/**
 * The planner's view of a graph backbone with the lab's head: the image input, each node the graph
 * executes as a frozen layer in the executor's order (so the planner's inference pass frees each
 * output after its last reader, as the executor does), then the classifier's own input layer, which
 * the Trainer runs outside the tape as the one-layer backbone: it copies the graph's features, and the
 * caller keeps the graph's own features alive through the step (outlivesBackbone). Then the head as
 * describeModel sees it. Every trainable-set rule resolves to the head alone: a graph node has no
 * trainable weights, and the frozen phase plans the backbone outside the tape, as the Trainer runs it.
 */
export function describeGraphClassifier(backbone: GraphBackbone, classifier: Classifier): ModelSpec {
  const head = describeModel(classifier.model, classifier.backboneLayerCount);
  const [featuresInput, ...headLayers] = head.layers;
  const image = [backbone.height, backbone.width, 3];
  const imageName = backbone.graph.inputs[0]!.name;
  const shapes = new Map([['input_layer', image]]);
  const nodes = backbone.nodes.map((node) => {
    const layer = nodeLayer(node, shapes, imageName);
    shapes.set(layer.name, layer.outputShape);
    return layer;
  });
  const last = nodes.at(-1)!;
  const input: LayerSpec = {
    name: 'input_layer',
    className: 'InputLayer',
    kind: 'input',
    inputs: [],
    inputShapes: [],
    outputShape: image,
    trainableWeightSizes: [],
    fixedWeightSizes: [],
    macs: 0,
  };
  const copy: LayerSpec = {
    ...featuresInput!,
    kind: 'other',
    op: 'Identity',
    inputs: [last.name],
    inputShapes: [last.outputShape],
  };
  return {
    name: classifier.model.name,
    height: backbone.height,
    width: backbone.width,
    layers: [
      input,
      ...nodes.map((l) => (l === last ? { ...l, outlivesBackbone: true } : l)),
      copy,
      ...headLayers,
    ],
    backboneLayerCount: nodes.length + 2,
  };
}
