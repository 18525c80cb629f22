import * as tf from '@tensorflow/tfjs';
import { initializers } from './graph';
import { graphNodes, type GraphNode } from './graphSpec';
import { attachHead, type Classifier } from './head';

/**
 * A tfjs GraphModel used as a frozen feature extractor: what `tensorflowjs_converter` writes from a
 * SavedModel, and how EfficientNet feature-vector models were published for tfjs. It can only serve the
 * frozen phase (see GRAPH_MODEL_FROZEN_ONLY); the lab's head trains on its outputs.
 */
export interface GraphBackbone {
  /** Loaded from files (async) or read again from them in memory (sync, see liveGraph). */
  graph: tf.GraphModel<string | tf.io.IOHandler | tf.io.IOHandlerSync>;
  /** The image size the graph was exported for. */
  height: number;
  width: number;
  /** One image's features: [F] for a feature vector, [h, w, C] for a feature map. */
  featureShape: number[];
  /** The nodes it executes for a batch, in order, for the planner (see describeGraphClassifier). */
  nodes: GraphNode[];
  /**
   * The files it was read from and the backend its constants live on: releasing memory re-creates the
   * backend (tfjs' engine reset frees every tensor), and the graph is read again from these (liveGraph).
   */
  source?: { artifacts: tf.io.ModelArtifacts; backend: tf.KernelBackend };
}

/** Why a graph model trains the head only, in words for the UI. */
export const GRAPH_MODEL_FROZEN_ONLY =
  'A graph model is a frozen inference graph: the converter stored its weights as constants and folded ' +
  'BatchNorm into the convolutions, so it has no layers or variables to unfreeze. It serves the frozen ' +
  'phase as a fixed feature extractor and only the head trains; to fine-tune, load the same model as ' +
  'Keras weights (.h5, .weights.h5, .keras) or in the tfjs Layers format.';

/** A graph model that cannot serve as a backbone, with the reason in words. */
export class GraphBackboneError extends Error {
  override name = 'GraphBackboneError';
}

const known = (dims: readonly number[] | undefined): dims is number[] =>
  dims !== undefined && dims.slice(1).every((d) => d > 0);

/**
 * Checks that a loaded graph model takes one batch of float32 RGB images of a fixed size and gives one
 * float32 feature vector or feature map per image, and describes it (with its nodes, from the GraphDef
 * in `topology`). Runs the graph on a zero image.
 */
export function asBackbone(
  graph: GraphBackbone['graph'],
  topology: tf.io.ModelArtifacts['modelTopology'],
): GraphBackbone {
  const [input, ...moreInputs] = graph.inputs;
  const [output, ...moreOutputs] = graph.outputs;
  if (!input || moreInputs.length > 0 || !output || moreOutputs.length > 0)
    throw new GraphBackboneError(
      `A backbone graph needs one input and one output; this one has ${graph.inputs.length} and ${graph.outputs.length}.`,
    );
  const inShape = input.shape;
  if (input.dtype !== 'float32' || !known(inShape) || inShape.length !== 4 || inShape[3] !== 3)
    throw new GraphBackboneError(
      `The graph's input '${input.name}' is ${input.dtype} [${inShape?.join(', ') ?? '?'}]; a backbone takes float32 images [batch, height, width, 3] of a fixed size.`,
    );
  const [height, width] = [inShape[1]!, inShape[2]!];
  // Converted graphs do not always record the output's shape and type: one zero image tells them, and
  // shows the graph runs.
  const [outShape, outType] = tf.tidy(() => {
    const probe = graph.execute(tf.zeros([1, height, width, 3])) as tf.Tensor;
    return [probe.shape, probe.dtype] as const;
  });
  if (outType !== 'float32' || (outShape.length !== 2 && outShape.length !== 4))
    throw new GraphBackboneError(
      `The graph's output '${output.name}' is ${outType} [${outShape.join(', ')}]; a backbone gives float32 features [batch, F] or [batch, h, w, C].`,
    );
  const nodes = graphNodes(graph, topology, height, width);
  return { graph, height, width, featureShape: outShape.slice(1), nodes };
}

/** Loads a graph model (dropped files, a URL, or any tfjs IOHandler) and checks it as a backbone. */
export async function loadGraphBackbone(source: string | tf.io.IOHandler): Promise<GraphBackbone> {
  const handler = typeof source === 'string' ? tf.io.http(source) : source;
  if (!handler.load) throw new GraphBackboneError('This graph model source cannot be read.');
  const artifacts = await handler.load();
  const graph = tf.loadGraphModelSync(artifacts);
  try {
    return { ...asBackbone(graph, artifacts.modelTopology), source: { artifacts, backend: tf.backend() } };
  } catch (err) {
    graph.dispose();
    throw err;
  }
}

/**
 * The backbone's graph, read again from its files when the backend it was loaded on is gone (Release
 * and every fresh sweep point reset the engine, which frees the graph's constants with every other
 * tensor): the constants are then uploaded to the current backend once, and kept there.
 */
export function liveGraph(backbone: GraphBackbone): GraphBackbone['graph'] {
  const { source } = backbone;
  const current = tf.backend();
  if (source && source.backend !== current) {
    // After an engine reset its constants are already gone (dispose is then a no-op); after a backend
    // switch they still hold the old backend's memory.
    backbone.graph.dispose();
    backbone.graph = tf.loadGraphModelSync(source.artifacts);
    backbone.source = { ...source, backend: current };
  }
  return backbone.graph;
}

/**
 * The graph's features for a batch of images in [0, 255] (the graph does its own preprocessing, as
 * include_preprocessing models do). A graph model has no variables, so no gradient tape records it:
 * the frozen backbone outside the tape. Only the features outlive the call; the caller disposes them.
 */
export function graphFeatures(backbone: GraphBackbone, xs: tf.Tensor4D): tf.Tensor {
  const [, h, w] = xs.shape;
  if (h !== backbone.height || w !== backbone.width)
    throw new GraphBackboneError(
      `The graph model was exported for ${backbone.height}x${backbone.width} images, not ${h}x${w}.`,
    );
  const graph = liveGraph(backbone);
  return tf.tidy(() => graph.execute(xs) as tf.Tensor);
}

/**
 * The lab's head on the graph's features, as a classifier whose input is one image's features (the
 * graph stays outside the model). A feature vector is reshaped to a 1x1 map first, so the head is the
 * lab's own (avg_pool over 1x1 is the vector itself) with its layer names. backboneLayerCount is 1
 * (the input layer): every other layer is head and trains in the frozen phase, the reshape has no weights.
 */
export function graphClassifier(backbone: GraphBackbone, numClasses: number, seed?: number): Classifier {
  const shape = backbone.featureShape;
  const input = tf.input({ shape, name: 'features' });
  const map =
    shape.length === 1
      ? (tf.layers
          .reshape({ targetShape: [1, 1, shape[0]!], name: 'features_map' })
          .apply(input) as tf.SymbolicTensor)
      : input;
  const { model } = attachHead(input, map, numClasses, initializers(seed), 'graph_classifier');
  return { model, backboneLayerCount: 1 };
}
