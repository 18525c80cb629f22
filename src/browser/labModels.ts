import type * as tf from '@tensorflow/tfjs';
import type { LayerNames } from '../core/model/layerTable';
import type { ModelSpec } from '../core/model/modelSpec';
import { catalogEntry, type ModelId } from '../core/model/models';
import type { EngineEvent, WeightsLoaded, WeightsReport } from '../core/run/protocol';
import type { TrainConfig, TrainingPhase } from '../core/settings/trainConfig';
import { describeModel } from '../ml/memory/describe';
import { GRAPH_MODEL_FROZEN_ONLY, graphClassifier, type GraphBackbone } from '../ml/models/graphBackbone';
import { describeGraphClassifier } from '../ml/models/graphSpec';
import { buildClassifier } from '../ml/models/registry';
import type { LabModelInfo } from '../ml/weights/labModelInfo';
import { NSFWJS_INPUT_SCALE } from '../ml/weights/nsfwjs';
import { SessionWeights } from './weights';

/**
 * The lab's classifier for a configuration: the Keras backbone with its preprocessing (pixels in 0–255)
 * and the seed's head. The packaged nsfwjs MobileNetV2 was trained on pixels in [0, 1], so its model
 * scales by 1/255 where Keras' MobileNetV2 would map to [-1, 1].
 */
function buildLabClassifier(
  config: Pick<TrainConfig, 'model' | 'height' | 'width' | 'weights'>,
  numClasses: number,
  seed: number,
  init: 'random' | 'zeros' = 'random',
  saved: LabModelInfo['preprocessing'] | null = null,
) {
  if (config.weights === 'graph') throw new Error('A graph model run builds graphClassifier, not a preset.');
  const inputScale = saved ? saved.inputScale : config.weights === 'nsfwjs' ? NSFWJS_INPUT_SCALE : null;
  return buildClassifier({
    id: config.model,
    height: config.height,
    width: config.width,
    includePreprocessing: true,
    imagenetLayout: saved ? saved.imagenetLayout : config.weights === 'file',
    ...(inputScale ? { inputScale } : {}),
    numClasses,
    seed,
    init,
  });
}

/** A built model's layer names, for resolving the trainable-set rule (core/settings/trainable.ts) on it. */
export function layerNames(model: tf.LayersModel, backboneLayerCount: number): LayerNames {
  return { name: model.name, backboneLayerCount, layers: model.layers.map((l) => ({ name: l.name })) };
}

/** The model of the last run, kept so a run can continue after Stop or an OOM. */
export interface KeptModel {
  model: tf.LayersModel;
  backboneLayerCount: number;
  preset: TrainConfig['model'];
  /** Whether it is the lab's head on the loaded graph model (its input is the graph's features). */
  graph: boolean;
  numClasses: number;
  height: number;
  width: number;
}

/** The names of a classifier's backbone layers (those before its head). */
function backboneNames(built: { model: tf.LayersModel; backboneLayerCount: number }): string[] {
  return built.model.layers.slice(0, built.backboneLayerCount).map((l) => l.name);
}

/** The log line for a freshly built model: where its weights came from, or that they are random. */
function builtMessage(config: TrainConfig, numClasses: number, report: WeightsReport | null): string {
  const name = catalogEntry(config.model).displayName;
  return (
    `${name} built at ${config.height}×${config.width} for ${numClasses} classes` +
    (report
      ? `; ${report.headline}${report.pairedByStructure.length ? ` Paired by position and shape, not by name: ${report.pairedByStructure.join(', ')}.` : ''}`
      : ', random initialisation (memory use does not depend on weight values).')
  );
}

/**
 * The engine's models: the one of the last run (kept after Stop or an OOM so it stays usable, replaced
 * on the next fresh run) and the weights loaded this session, applied to every fresh build.
 */
export class LabModels {
  private kept: KeptModel | null = null;
  private readonly weights = new SessionWeights();

  /**
   * A fresh model, or, when continuing, the kept one: rebuilt at the new input size with its weights
   * copied when the resolution changed (EfficientNet's weights do not depend on the input size).
   */
  async prepare(
    config: TrainConfig,
    numClasses: number,
    resumeFrom: TrainingPhase | undefined,
    emit: (e: EngineEvent) => void,
  ): Promise<KeptModel & { resumed: boolean }> {
    const name = catalogEntry(config.model).displayName;
    const kept = this.kept;
    const graph = config.weights === 'graph';
    const reusable =
      resumeFrom &&
      kept &&
      kept.preset === config.model &&
      kept.graph === graph &&
      kept.numClasses === numClasses;
    if (reusable && kept.height === config.height && kept.width === config.width) {
      emit({
        kind: 'log',
        level: 'info',
        message: `Continuing ${name} from its last good weights (${resumeFrom} phase).`,
      });
      return { ...kept, resumed: true };
    }
    const built = this.build(config, numClasses, emit);
    if (reusable) {
      // The new variables take the old buffers by reference count, so freeing the old model keeps them.
      built.model.setWeights(kept.model.getWeights());
      emit({
        kind: 'log',
        level: 'info',
        message: `Continuing ${name} at ${config.height}×${config.width} with the weights it had at ${kept.height}×${kept.width}.`,
      });
    } else {
      if (resumeFrom)
        emit({
          kind: 'log',
          level: 'warn',
          message: 'No kept model to continue from (it was released or does not match); starting afresh.',
        });
      let report: WeightsReport | null = null;
      try {
        report = await this.weights.apply(built.model, config.weights, backboneNames(built));
      } catch (err) {
        built.model.dispose();
        throw err;
      }
      // Layers left random by a weights file are worth a warning: the user meant to load them.
      const level = report && report.missing.length > 0 ? 'warn' : 'info';
      if (config.weights !== 'graph')
        emit({ kind: 'log', level, message: builtMessage(config, numClasses, report) });
    }
    this.dispose();
    this.kept = {
      ...built,
      preset: config.model,
      graph,
      numClasses,
      height: config.height,
      width: config.width,
    };
    return { ...this.kept, resumed: !!reusable };
  }

  /**
   * A fresh classifier for a run: the preset with its preprocessing, or the lab's head on the loaded
   * graph model's features (the graph stays outside the model, see graphFeatures).
   */
  private build(config: TrainConfig, numClasses: number, emit: (e: EngineEvent) => void) {
    if (config.weights !== 'graph') {
      const saved = this.weights.preprocessingFor(config.weights);
      return buildLabClassifier(config, numClasses, config.seed, 'random', saved);
    }
    const graph = this.weights.graphBackbone();
    emit({
      kind: 'log',
      level: 'info',
      message: `Graph model as a frozen backbone at ${graph.height}×${graph.width} (features ${graph.featureShape.join('×')}), the lab's head for ${numClasses} classes from the seed. Frozen phase only: ${GRAPH_MODEL_FROZEN_ONLY}`,
    });
    return graphClassifier(graph, numClasses, config.seed);
  }

  /** The graph backbone a run on `config` feeds its batches through, or null for a preset's run. */
  graphFor(config: Pick<TrainConfig, 'weights'>): GraphBackbone | null {
    return config.weights === 'graph' ? this.weights.graphBackbone() : null;
  }

  /**
   * The planner's view of a model: built with zero weights (shapes are all it needs), described, freed.
   * For the loaded graph model, the graph as one frozen layer outside the tape, then the head.
   */
  describe(
    model: ModelId,
    height: number,
    width: number,
    numClasses: number,
    weights?: TrainConfig['weights'],
  ): ModelSpec {
    if (weights === 'graph') {
      const graph = this.weights.graphBackbone();
      const classifier = graphClassifier(graph, numClasses, 1);
      try {
        return describeGraphClassifier(graph, classifier);
      } finally {
        classifier.model.dispose();
      }
    }
    const built = buildLabClassifier({ model, height, width, weights: 'random' }, numClasses, 1, 'zeros');
    try {
      return describeModel(built.model, built.backboneLayerCount);
    } finally {
      built.model.dispose();
    }
  }

  /** Reads dropped weight files or a URL and keeps them for the runs of this session. */
  loadWeights(input: { files: File[] } | { url: string }): Promise<WeightsLoaded> {
    return this.weights.load(input);
  }

  /** What the chosen weights would match in the configured model, without training. */
  async weightsReport(config: TrainConfig, numClasses: number): Promise<WeightsReport | null> {
    if (config.weights === 'graph') return null;
    const saved = this.weights.preprocessingFor(config.weights);
    const built = buildLabClassifier(config, numClasses, 1, 'zeros', saved);
    try {
      return await this.weights.report(built.model, config.weights, backboneNames(built));
    } finally {
      built.model.dispose();
    }
  }

  /** Frees the kept model. */
  dispose(): void {
    this.kept?.model.dispose();
    this.kept = null;
  }
}
