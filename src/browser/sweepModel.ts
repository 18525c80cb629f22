import type * as tf from '@tensorflow/tfjs';
import type { ModelSpec } from '../core/model/modelSpec';
import type { SweepPreset, SweepTarget } from '../core/sweep/sweep';
import type { TrainConfig } from '../core/settings/trainConfig';
import { describeModel } from '../ml/memory/describe';
import {
  GRAPH_MODEL_FROZEN_ONLY,
  GraphBackboneError,
  graphClassifier,
  graphFeatures,
  type GraphBackbone,
} from '../ml/models/graphBackbone';
import { describeGraphClassifier } from '../ml/models/graphSpec';
import type { Classifier } from '../ml/models/head';
import { buildClassifier } from '../ml/models/registry';

/** The network one sweep point trains, its planner view, and the images it takes. */
export interface PointModel extends Classifier {
  spec: ModelSpec;
  /** The images of the point's batch (a graph model takes its own size, not the grid's). */
  height: number;
  width: number;
  /**
   * For a graph model: the head's input for a batch of images, computed outside the tape before the
   * step, as the run's pipeline does (RunContext.headInput). Absent for a preset, which takes images.
   */
  headInput?: (xs: tf.Tensor4D) => tf.Tensor;
}

/**
 * What a point measures: the network the run would train. For a preset, the configured architecture at
 * size×size with zero weights (memory does not depend on weight values); for the loaded graph model,
 * the graph as the frozen backbone outside the tape and the lab's head on its features, at the graph's
 * own input, frozen phase only (a fine-tune preset is refused with the reason).
 */
export function pointModel(
  config: TrainConfig,
  target: SweepTarget,
  preset: SweepPreset,
  numClasses: number,
  graph: GraphBackbone | null,
): PointModel {
  if (!graph) {
    const classifier = buildClassifier({
      id: config.model,
      height: target.size,
      width: target.size,
      includePreprocessing: true,
      numClasses,
      seed: config.seed,
      init: 'zeros',
    });
    const spec = describeModel(classifier.model, classifier.backboneLayerCount);
    return { ...classifier, spec, height: target.size, width: target.size };
  }
  if (preset.phase !== 'frozen')
    throw new GraphBackboneError(`The '${preset.label}' preset fine-tunes: ${GRAPH_MODEL_FROZEN_ONLY}`);
  const classifier = graphClassifier(graph, numClasses, config.seed);
  return {
    ...classifier,
    spec: describeGraphClassifier(graph, classifier),
    height: graph.height,
    width: graph.width,
    headInput: (xs) => graphFeatures(graph, xs),
  };
}
