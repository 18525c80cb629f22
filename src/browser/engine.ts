import type * as tf from '@tensorflow/tfjs';
import type { BackendInfo, BackendRequest } from '../core/device/backend';
import type { ModelSpec } from '../core/model/modelSpec';
import type { ModelId } from '../core/model/models';
import type {
  DatasetPayload,
  EngineCalls,
  EngineEvent,
  PreviewImage,
  ProvokeResult,
  ReleaseResult,
  TrainResult,
  LargestBatchResult,
  ModelFile,
  WeightsLoaded,
  WeightsReport,
} from '../core/run/protocol';
import { predictedLargestBatch } from '../core/sweep/batchSearch';
import { batchesPerEpoch } from '../core/settings/schedule';
import { planRunPoint, type SweepGrid, type SweepPoint, type SweepPreset } from '../core/sweep/sweep';
import { graphSweepGrid } from '../core/sweep/graphChoice';
import { featureCache } from '../core/settings/techniques';
import type { TrainConfig, TrainingPhase } from '../core/settings/trainConfig';
import { ResourceExhaustedError } from '../ml/memory/budget';
import { trackLayers } from '../ml/memory/layerContext';
import { readMemory } from '../ml/memory/sampler';
import { resetBackends } from '../ml/tfjsInternals';
import { graphFeatures } from '../ml/models/graphBackbone';
import { runPhasePlan } from '../ml/train/phasePlan';
import { runTraining, type RunContext } from '../ml/train/runLoop';
import { Trainer } from '../ml/train/trainer';
import { trainerOptionsFor } from '../ml/train/options';
import { restoreModelWeights, snapshotTrainer } from '../ml/train/resume';
import { kerasH5Files, tfjsLayersFiles } from '../ml/weights/export';
import { initBackend } from './backend';
import { labDataset } from './dataset';
import { loseDevice, provokeBufferLimit, watchDevice } from './device';
import { LabModels, layerNames } from './labModels';
import { previewImages } from './preview';
import { startRunProbes, type RunProbes } from './runProbes';
import { measurePoint, searchLargestBatch, sweepGrid, type PointRunner } from './sweep';

/** A saved run to continue: where, and the trainer's state there (core/run/resume). */
type SavedState = NonNullable<EngineCalls['train']['request']['resume']>;

/** What a run that ran out of memory returns, with the phase it was in. */
function oomResult(err: ResourceExhaustedError, lastPhase: TrainingPhase | null): TrainResult {
  return {
    outcome: 'oom',
    phases: [],
    valLoss: Number.NaN,
    valAccuracy: Number.NaN,
    oom: err.details,
    lastPhase,
  };
}

/**
 * The lab's training engine: the same object runs inside the worker and, as a fallback, on the page.
 * Its models keep the model of the last run (kept after Stop or an OOM so it stays usable) and replace
 * it on the next fresh run.
 */
export class LabEngine {
  private readonly models = new LabModels();
  /** The precision experiment's WebGL float16 textures, kept across backend re-creations. */
  private webglF16Textures = false;
  private stopRequested = false;
  private aborted = false;
  private backend: BackendInfo | null = null;
  /** The model the last run trained, for export; null once it is released or about to be replaced. */
  private trained: tf.LayersModel | null = null;

  constructor(
    private readonly inWorker: boolean,
    /** Receives events nobody asked for, such as a lost GPU device. */ private readonly notify: (
      e: EngineEvent,
    ) => void,
  ) {}

  async init(request: BackendRequest, webglF16Textures = false): Promise<BackendInfo> {
    this.models.dispose();
    this.trained = null;
    this.webglF16Textures = webglF16Textures;
    this.backend = await initBackend(request, this.inWorker, { webglF16Textures });
    watchDevice(this.notify);
    return this.backend;
  }

  /**
   * A lesson: destroy the GPU device (WebGPU) or lose the context (WebGL, WEBGL_lose_context) on purpose,
   * which the browser reports exactly like a real loss.
   */
  loseDevice(): boolean {
    return loseDevice();
  }

  stop(): void {
    this.stopRequested = true;
  }

  /**
   * The browser's clear_session: dispose the kept model, then dispose the backend itself, which is the
   * only way to return the buffers tfjs keeps pooled (it never frees them), and start it again.
   */
  async releaseAll(): Promise<ReleaseResult> {
    const { requested } = this.requireBackend();
    const before = readMemory(0);
    this.models.dispose();
    this.trained = null;
    // Disposes every backend instance (and its pool); the registered factories re-create them on demand.
    resetBackends();
    this.backend = await initBackend(requested, this.inWorker, { webglF16Textures: this.webglF16Textures });
    watchDevice(this.notify);
    return { before, after: readMemory(0), backend: this.backend };
  }

  async train(
    config: TrainConfig,
    dataset: DatasetPayload,
    emit: (e: EngineEvent) => void,
    resumeFrom?: TrainingPhase,
    resume?: SavedState,
  ): Promise<TrainResult> {
    const backendName = this.requireBackend().name;
    this.stopRequested = false;
    this.aborted = false;
    const t0 = performance.now();
    const now = () => performance.now() - t0;
    const probes = startRunProbes(backendName, config, now, emit);
    let trainer: Trainer | null = null;
    let phase: TrainingPhase | null = null;
    try {
      // prepare() may dispose the previous model before it returns the next.
      this.trained = null;
      const prepared = await this.models.prepare(config, dataset.classes.length, resumeFrom, emit);
      const { model, backboneLayerCount, resumed } = prepared;
      // A saved run continues on a model built from its settings, holding every weight it had saved.
      if (resume) restoreModelWeights(model, resume.state.weights);
      this.trained = model;
      trackLayers(model);
      probes.mark();
      trainer = new Trainer(model, backboneLayerCount, trainerOptionsFor(config));
      // Which phases run is plannedPhases' answer (a graph model's run: frozen only); a kept model
      // continues from resumeFrom, a fresh one plans every phase.
      const names = layerNames(model, backboneLayerCount);
      const plan = runPhasePlan(config, names, resumed ? (resumeFrom ?? null) : null);
      const onEvent = (e: EngineEvent) => {
        if (e.kind === 'phase') {
          phase = e.phase;
          probes.mark();
        }
        emit(e);
      };
      const saving = trainer;
      const graph = this.models.graphFor(config);
      const ctx: RunContext = {
        ...this.runContext(config, dataset, probes, now, onEvent),
        checkpoint: async (point) =>
          emit({ kind: 'checkpoint', point, state: await snapshotTrainer(saving, point) }),
        // A graph model is the frozen backbone outside the model: the head trains on its features.
        ...(graph ? { headInput: (xs: tf.Tensor4D) => graphFeatures(graph, xs) } : {}),
      };
      const state = resume?.state;
      return await runTraining(
        trainer,
        plan,
        ctx,
        resume && state ? { point: resume.point, restore: (t) => t.restoreState(state) } : undefined,
      );
    } catch (err) {
      if (!(err instanceof ResourceExhaustedError)) throw err;
      emit({ kind: 'log', level: 'warn', message: err.message });
      return oomResult(err, phase);
    } finally {
      probes.dispose();
      trainer?.dispose();
      this.stopRequested = false;
      probes.mark();
    }
  }

  /** The run loop's surroundings: data, progress, events, Stop, and the probes' step hooks. */
  private runContext(
    config: TrainConfig,
    dataset: DatasetPayload,
    probes: RunProbes,
    now: () => number,
    emit: (e: EngineEvent) => void,
  ): RunContext {
    return {
      dataset: (split, epoch) =>
        labDataset(
          config,
          dataset,
          split,
          epoch,
          split === 'train',
          () => this.stopRequested || this.aborted,
        ),
      batchesPerEpoch: batchesPerEpoch(dataset.train.length, config.batchSize),
      validationPaths: dataset.validation.map((i) => i.path),
      patience: config.patience,
      now,
      emit,
      shouldStop: () => this.stopRequested,
      abort: () => {
        this.aborted = true;
      },
      guardStep: probes.guardStep,
      stepPeakBytes: probes.stepPeakBytes,
      stepProfile: probes.stepProfile,
      ...(featureCache(config).on ? { featureCache: { seed: config.seed } } : {}),
      yieldToEventLoop: () => new Promise((resolve) => setTimeout(resolve, 0)),
    };
  }

  /**
   * A lesson: allocate one tensor just above the backend's single-buffer limit (WebGPU maxBufferSize,
   * WebGL's largest texture), catch the real failure the browser reports, then check the backend
   * still computes correctly.
   */
  provokeBufferLimit(): Promise<ProvokeResult> {
    return provokeBufferLimit();
  }

  /** The last run's model as files (tfjs Layers or Keras .h5 weights), or null when there is none. */
  async exportModel(format: 'tfjs-layers' | 'keras-h5'): Promise<ModelFile[] | null> {
    if (!this.trained) return null;
    return format === 'tfjs-layers' ? tfjsLayersFiles(this.trained) : kerasH5Files(this.trained);
  }

  /** The planner's view of a model: built with zero weights (shapes are all it needs), described, freed. */
  describe(
    model: ModelId,
    height: number,
    width: number,
    numClasses: number,
    weights?: TrainConfig['weights'],
  ): ModelSpec {
    return this.models.describe(model, height, width, numClasses, weights);
  }

  /**
   * A sweep: one measured step per grid point, each after everything is released and the backend
   * re-created (see sweepGrid). Stop ends it between points.
   */
  async sweep(
    config: TrainConfig,
    grid: SweepGrid,
    numClasses: number,
    emit: (e: EngineEvent) => void,
  ): Promise<SweepPoint[]> {
    this.stopRequested = false;
    // A graph model's sweep measures what its run trains, at its own size (core/sweep/graphChoice).
    const graph = this.models.graphFor(config);
    const measured = graph ? graphSweepGrid(grid, graph.height) : grid;
    const points = await sweepGrid(measured, this.pointRunner(config, numClasses, emit));
    this.stopRequested = false;
    return points;
  }

  /** The largest batch in [lo, hi] that fits: the planner's guess confirmed (or corrected) by measured steps. */
  async findLargestBatch(
    config: TrainConfig,
    preset: SweepPreset,
    size: number,
    lo: number,
    hi: number,
    numClasses: number,
    emit: (e: EngineEvent) => void,
  ): Promise<LargestBatchResult> {
    this.stopRequested = false;
    // The planner's answer under the simulated card is where the measured search starts; without a card
    // only a real failure says what fits, so the search starts from the smallest batch.
    const budget = config.budgetBytes;
    const spec =
      budget === null ? null : this.models.describe(config.model, size, size, numClasses, config.weights);
    const predicted = spec
      ? predictedLargestBatch(
          (batch) => planRunPoint(spec, config, preset, batch).peakBytes,
          budget ?? Infinity,
          lo,
          hi,
        )
      : null;
    const result = await searchLargestBatch(
      preset,
      size,
      { lo, hi, predicted },
      this.pointRunner(config, numClasses, emit, 'as-run'),
    );
    this.stopRequested = false;
    return result;
  }

  /** Measures points of this configuration (plain steps, or as the run trains), fresh when asked. */
  private pointRunner(
    config: TrainConfig,
    numClasses: number,
    emit: (e: EngineEvent) => void,
    mode: 'sweep' | 'as-run' = 'sweep',
  ): PointRunner {
    return {
      measure: async (target, preset, fresh) => {
        const backend = fresh ? (await this.releaseAll()).backend : this.requireBackend();
        // The loaded graph model, when the run would train on it: the point measures graph and head.
        const graph = this.models.graphFor(config);
        return measurePoint(backend.name, config, target, preset, numClasses, mode, graph);
      },
      shouldStop: () => this.stopRequested,
      emit,
    };
  }

  private requireBackend(): BackendInfo {
    if (!this.backend) throw new Error('The engine has no backend yet; call init first.');
    return this.backend;
  }

  /** Reads dropped weight files or a URL and keeps them for the runs of this session. */
  loadWeights(input: { files: File[] } | { url: string }): Promise<WeightsLoaded> {
    return this.models.loadWeights(input);
  }

  /** What the chosen weights would match in the configured model, without training. */
  weightsReport(config: TrainConfig, numClasses: number): Promise<WeightsReport | null> {
    return this.models.weightsReport(config, numClasses);
  }

  /** Augmented training samples exactly as the pipeline makes them, as RGBA for a canvas. */
  preview(config: TrainConfig, dataset: DatasetPayload, count: number): Promise<PreviewImage[]> {
    return previewImages(config, dataset, count);
  }
}
