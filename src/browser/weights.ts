import * as tf from '@tensorflow/tfjs';
import type { WeightsChoice } from '../core/model/models';
import type { WeightsLoaded, WeightsReport } from '../core/run/protocol';
import {
  assignWeights,
  describeMismatch,
  fetchWeightFiles,
  matchWeights,
  NSFWJS_MOBILENET_V2,
  nsfwjsBackboneWeights,
  openKerasH5,
  readWeightFiles,
  pairedByStructure,
  reportError,
  reportHeadline,
  type LoadOptions,
  type WeightFiles,
  type WeightReport,
  type WeightSource,
} from '../ml/weights';
import { GRAPH_MODEL_FROZEN_ONLY, loadGraphBackbone, type GraphBackbone } from '../ml/models/graphBackbone';
import { labModelInfo, type LabModelInfo } from '../ml/weights/labModelInfo';
import { lite0BackboneWeights, LITE0_IMAGENET, type ShardReader } from '../ml/weights/lite0';
import { sourceFromArtifacts } from '../ml/weights/source';
import { savedWithImagenetLayout } from '../ml/weights/kerasLayout';
import { checkWeightsUrl, weightsFetch } from './weightsFetch';

/** The packaged Lite0 shard, a same-origin asset of the build: it loads with the network blocked. */
const fetchShard: ShardReader = async (url) => {
  const response = await fetch(url);
  if (!response.ok)
    throw new Error(
      `The packaged EfficientNet-Lite0 weights are missing from this build (HTTP ${response.status} for ${url.pathname}): rebuild the lab, or choose other weights.`,
    );
  return response.arrayBuffer();
};

/**
 * Weights from an address the user typed: refused unless it is http(s) as weightsFetch allows, then
 * streamed under its size cap. Runs in the worker or on the page; either has the page's origin.
 */
function fetchTyped(typed: string): Promise<WeightFiles> {
  const { origin } = globalThis.location;
  return fetchWeightFiles(checkWeightsUrl(typed, origin).href, weightsFetch(origin));
}

/** Where packaged weights came from, as lines of the weights report; none for other weights. */
function provenance(choice: WeightsChoice): string[] {
  if (choice === 'nsfwjs') {
    const p = NSFWJS_MOBILENET_V2;
    return [
      `${p.model}; from the npm package ${p.package} ${p.version} (${p.licence}, ${p.copyright}), ${p.homepage}.`,
      `Weights: ${p.weights}. Training: ${p.training}.`,
      `Removed: ${p.removed}. Added: ${p.added}.`,
    ];
  }
  if (choice === 'lite0') {
    const p = LITE0_IMAGENET;
    return [
      `${p.model}; from the ${p.registry} package ${p.package} ${p.version} (${p.licence}, ${p.copyright}), ${p.homepage}.`,
      `Converted once by ${p.converted_by} from ${p.file} (sha256 ${p.sha256}) to float16; its ImageNet classifier is left out of the lab's model.`,
      `Preprocessing: ${p.preprocessing}, a Rescaling layer in the model.`,
    ];
  }
  return [];
}

/** The report as it crosses the thread boundary: counts and names, no weight values. */
function summarise(report: WeightReport, choice: WeightsChoice, options: LoadOptions): WeightsReport {
  const error = reportError(report, options);
  return {
    provenance: provenance(choice),
    source: report.source,
    headline: reportHeadline(report),
    pairedByStructure: pairedByStructure(report),
    matchedLayers: report.matched.length,
    matchedParams: report.matchedParams,
    modelParams: report.modelParams,
    sourceParams: report.sourceParams,
    missing: report.missing,
    unexpected: report.unexpected,
    mismatches: report.mismatches.map(describeMismatch),
    error: error?.message ?? null,
  };
}

/** A lab model's preprocessing from its topology; null for any other tfjs model (weights only). */
function labPreprocessing(modelTopology: unknown, label: string): LabModelInfo['preprocessing'] | null {
  try {
    return labModelInfo({ modelTopology }, label).preprocessing;
  } catch {
    return null;
  }
}

/**
 * The starting weights of this session: the offline nsfwjs MobileNetV2, or a file the user loaded (kept
 * only in memory: a dropped file cannot be re-read after a reload without the user).
 */
export class SessionWeights {
  private file: WeightSource | null = null;
  /** How the loaded file's model built its preprocessing, when the file is a lab model (a lab zip). */
  private filePreprocessing: LabModelInfo['preprocessing'] | null = null;
  /** The graph model loaded this session, checked as a frozen backbone ('graph' weights). */
  private graph: GraphBackbone | null = null;

  /** Reads dropped files or a URL, checks them, and keeps their weights for the next runs. */
  async load(input: { files: File[] } | { url: string }): Promise<WeightsLoaded> {
    const found: WeightFiles =
      'files' in input ? await readWeightFiles(input.files) : await fetchTyped(input.url);
    this.filePreprocessing = null;
    if (found.kind === 'keras-h5') {
      const h5 = await openKerasH5(found.bytes, found.label);
      try {
        // Read every value now: the HDF5 file closes, the values stay for later builds.
        const layers = h5.layers.map((l) => ({
          name: l.name,
          weights: l.weights.map((w) => {
            const data = w.read();
            return { ...w, read: () => data };
          }),
        }));
        this.file = { label: h5.label, layers, ...(h5.layerNames ? { layerNames: h5.layerNames } : {}) };
        // A Keras file's preprocessing is the one its model had: V1 with weights=None has no rescaling_1.
        this.filePreprocessing = { imagenetLayout: savedWithImagenetLayout(this.file), inputScale: null };
        return {
          kind: 'keras-h5',
          label: h5.label,
          format: `Keras HDF5${h5.kerasVersion ? ` (Keras ${h5.kerasVersion})` : ''}`,
        };
      } finally {
        h5.close();
      }
    }
    const { artifacts } = found;
    if (artifacts.format === 'graph-model') {
      // Checked as a backbone (one image input of a fixed size, one feature output) before it replaces
      // the one loaded before.
      const graph = await loadGraphBackbone(tf.io.fromMemory(artifacts.artifacts));
      this.graph?.graph.dispose();
      this.graph = graph;
      return {
        kind: 'graph-model',
        label: artifacts.label,
        format: 'tfjs GraphModel',
        reason: GRAPH_MODEL_FROZEN_ONLY,
        inputSize: { height: graph.height, width: graph.width },
      };
    }
    this.file = sourceFromArtifacts(
      artifacts.artifacts.weightSpecs ?? [],
      artifacts.artifacts.weightData ?? [],
      artifacts.label,
    );
    this.filePreprocessing = labPreprocessing(artifacts.artifacts.modelTopology, artifacts.label);
    return { kind: 'tfjs-layers', label: artifacts.label, format: 'tfjs Layers model' };
  }

  /**
   * The preprocessing to build for `choice`: a lab model's own (its pixel scale and layout), so that a
   * reloaded model predicts what it predicted when saved; null for Keras' and the packaged weights'.
   */
  preprocessingFor(choice: WeightsChoice): LabModelInfo['preprocessing'] | null {
    return choice === 'file' ? this.filePreprocessing : null;
  }

  /** The graph model loaded this session; throws when none is (files do not survive a reload). */
  graphBackbone(): GraphBackbone {
    if (!this.graph)
      throw new Error(
        'No graph model is loaded in this session (files do not survive a reload): load its model.json and shards again, or choose other weights.',
      );
    return this.graph;
  }

  /** The weights a choice stands for, or null for random initialisation. */
  async source(choice: WeightsChoice): Promise<WeightSource | null> {
    // A graph model has no layers to load into the lab's model: its head starts from the seed.
    if (choice === 'random' || choice === 'graph') return null;
    if (choice === 'nsfwjs') return nsfwjsBackboneWeights();
    if (choice === 'lite0') return lite0BackboneWeights(fetchShard);
    if (!this.file)
      throw new Error(
        'No weights file is loaded in this session (files do not survive a reload): load it again, or choose other weights.',
      );
    return this.file;
  }

  /** What loading `choice` into `model` would do, without changing the model. */
  async report(
    model: tf.LayersModel,
    choice: WeightsChoice,
    backboneLayers: readonly string[],
  ): Promise<WeightsReport | null> {
    const source = await this.source(choice);
    return source ? summarise(matchWeights(model, source), choice, { backboneLayers }) : null;
  }

  /** Loads `choice` into a freshly built model; throws with a message naming the layer on a mismatch. */
  async apply(
    model: tf.LayersModel,
    choice: WeightsChoice,
    backboneLayers: readonly string[],
  ): Promise<WeightsReport | null> {
    const source = await this.source(choice);
    return source
      ? summarise(assignWeights(model, source, { backboneLayers }), choice, { backboneLayers })
      : null;
  }
}
