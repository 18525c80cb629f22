import * as tf from '@tensorflow/tfjs';
import type { BackendInfo, BackendRequest } from '../core/backend';
import type { ModelSpec } from '../core/modelSpec';
import { catalogEntry, type ModelId } from '../core/models';
import { featureCache } from '../core/techniques';
import type { LayerNames } from '../core/layerTable';
import { fineTunedBackbone } from '../core/trainable';
import type { StepProfile } from '../core/memory';
import {
  gridPoints,
  largestBatchSearch,
  skipCause,
  type SweepGrid,
  type SweepPoint,
  type SweepPreset,
  type SweepTarget,
} from '../core/sweep';
import type {
  DatasetPayload,
  EngineEvent,
  PreviewImage,
  ProvokeResult,
  ReleaseResult,
  SourceItem,
  TrainResult,
  LargestBatchResult,
  WeightsLoaded,
  WeightsReport,
} from '../core/protocol';
import type { TrainConfig, TrainingPhase } from '../core/trainConfig';
import { makeDataset, type PipelineItem } from '../ml/data/pipeline';
import { buildClassifier } from '../ml/models/registry';
import { installBudget, ResourceExhaustedError } from '../ml/memory/budget';
import { describeModel } from '../ml/memory/describe';
import { onKernel } from '../ml/memory/kernelHook';
import { attributeOutputs, trackLayers } from '../ml/memory/layerContext';
import { LargestAllocation } from '../ml/memory/recorder';
import { StepPeak } from '../ml/memory/stepPeak';
import { profileStep } from '../ml/memory/profile';
import { MemorySampler, readMemory } from '../ml/memory/sampler';
import { runTraining, type PhasePlan } from '../ml/train/runLoop';
import { Trainer } from '../ml/train/trainer';
import { initBackend } from './backend';
import { decodeImage } from './decode';
import { gpuDevice, makeStepGuard, webglContext } from './gpuGuard';
import { measurePoint } from './sweep';
import { SessionWeights } from './weights';

/** Timer sampling between kernels (idle moments, waits on the GPU); kernels sample the busy moments. */
const SAMPLE_TIMER_MS = 100;

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
) {
  return buildClassifier({
    id: config.model,
    height: config.height,
    width: config.width,
    includePreprocessing: true,
    imagenetLayout: config.weights === 'file',
    ...(config.weights === 'nsfwjs' ? { inputScale: NSFWJS_INPUT_SCALE } : {}),
    numClasses,
    seed,
    init,
  });
}

/** A built model's layer names, for resolving the trainable-set rule (core/trainable.ts) on it. */
function layerNames(model: tf.LayersModel, backboneLayerCount: number): LayerNames {
  return { name: model.name, backboneLayerCount, layers: model.layers.map((l) => ({ name: l.name })) };
}

/** Pixels in [0, 1], as nsfwjs feeds its MobileNetV2. */
const NSFWJS_INPUT_SCALE = { scale: 1 / 255, offset: 0 };

/** The model of the last run, kept so a run can continue after Stop or an OOM. */
interface KeptModel {
  model: tf.LayersModel;
  backboneLayerCount: number;
  preset: TrainConfig['model'];
  numClasses: number;
  height: number;
  width: number;
}

/**
 * The lab's training engine: the same object runs inside the worker and, as a fallback, on the page.
 * It owns the model of the last run (kept after Stop or an OOM so it stays usable) and replaces it on
 * the next fresh run.
 */
export class LabEngine {
  private kept: KeptModel | null = null;
  private readonly weights = new SessionWeights();
  /** The precision experiment's WebGL float16 textures, kept across backend re-creations. */
  private webglF16Textures = false;
  private stopRequested = false;
  private aborted = false;
  private backend: BackendInfo | null = null;

  constructor(
    private readonly inWorker: boolean,
    /** Receives events nobody asked for, such as a lost GPU device. */ private readonly notify: (
      e: EngineEvent,
    ) => void,
  ) {}

  async init(request: BackendRequest, webglF16Textures = false): Promise<BackendInfo> {
    this.disposeModel();
    this.webglF16Textures = webglF16Textures;
    this.backend = await initBackend(request, this.inWorker, { webglF16Textures });
    this.watchDevice();
    return this.backend;
  }

  /**
   * tfjs installs no device.lost handler: after a loss every later op throws or hangs. Report it so
   * the client can re-create the engine.
   */
  private watchDevice(): void {
    const gl = webglContext();
    if (gl) {
      // tfjs does not listen for a lost WebGL context either; after one, every op fails or returns zeros.
      gl.canvas.addEventListener(
        'webglcontextlost',
        (event) => {
          event.preventDefault();
          if (webglContext() === gl)
            this.notify({
              kind: 'device-lost',
              reason: 'webgl-context-lost',
              message: 'the WebGL context was lost (GPU reset, too many contexts, or lost on purpose)',
            });
        },
        { once: true },
      );
    }
    const device = gpuDevice();
    if (!device) return;
    void device.lost.then((info) => {
      // A backend re-created since then has its own device; only the current one matters.
      if (gpuDevice() === device)
        this.notify({ kind: 'device-lost', reason: info.reason, message: info.message });
    });
  }

  /**
   * A lesson: destroy the GPU device (WebGPU) or lose the context (WebGL, WEBGL_lose_context) on purpose,
   * which the browser reports exactly like a real loss.
   */
  loseDevice(): boolean {
    const gl = webglContext();
    if (gl) {
      const lose = gl.getExtension('WEBGL_lose_context');
      if (!lose) throw new Error('This WebGL context cannot be lost on purpose (no WEBGL_lose_context).');
      lose.loseContext();
      return true;
    }
    const device = gpuDevice();
    if (!device) throw new Error('Only the WebGPU and WebGL backends have a device to lose.');
    device.destroy();
    return true;
  }

  stop(): void {
    this.stopRequested = true;
  }

  /**
   * The browser's clear_session: dispose the kept model, then dispose the backend itself, which is the
   * only way to return the buffers tfjs keeps pooled (it never frees them), and start it again.
   */
  async releaseAll(): Promise<ReleaseResult> {
    if (!this.backend) throw new Error('The engine has no backend yet; call init first.');
    const before = readMemory(0);
    this.disposeModel();
    // Disposes every backend instance (and its pool); the registered factories re-create them on demand.
    tf.engine().reset();
    this.backend = await initBackend(this.backend.requested, this.inWorker, {
      webglF16Textures: this.webglF16Textures,
    });
    this.watchDevice();
    return { before, after: readMemory(0), backend: this.backend };
  }

  async train(
    config: TrainConfig,
    dataset: DatasetPayload,
    emit: (e: EngineEvent) => void,
    resumeFrom?: TrainingPhase,
  ): Promise<TrainResult> {
    if (!this.backend) throw new Error('The engine has no backend yet; call init first.');
    const backendName = this.backend.name;
    this.stopRequested = false;
    this.aborted = false;
    const t0 = performance.now();
    const now = () => performance.now() - t0;
    const sampler = new MemorySampler(now, (samples) => emit({ kind: 'memory', samples }));
    sampler.mark();
    const offSampler = onKernel(backendName, () => sampler.sample());
    const offAttribution = attributeOutputs(backendName);
    const offBudget = installBudget(backendName, () => config.budgetBytes);
    const recorder = new LargestAllocation(backendName);
    const guard = makeStepGuard(recorder);
    const stepPeak = new StepPeak(backendName);
    const timer = setInterval(() => sampler.sample(), SAMPLE_TIMER_MS);
    let trainer: Trainer | null = null;
    let phase: TrainingPhase | null = null;
    let lastProfile: StepProfile | null = null;
    try {
      const { model, backboneLayerCount, resumed } = await this.prepareModel(
        config,
        dataset.classes.length,
        resumeFrom,
        emit,
      );
      trackLayers(model);
      sampler.mark();
      trainer = new Trainer(model, backboneLayerCount, {
        frozenBackboneOutsideTape: config.techniques.backboneOutsideTape,
        accumulationSteps: config.techniques.accumulationSteps,
        checkpointing: config.techniques.checkpointing,
        seed: config.seed,
        lossScaling: config.precision.lossScaling,
      });
      const plan: PhasePlan[] = [
        {
          phase: 'frozen',
          epochs: config.frozenEpochs,
          learningRate: config.frozenLearningRate,
          unfreeze: 0,
        },
        {
          phase: 'fine-tune',
          epochs: config.fineTuneEpochs,
          learningRate: config.fineTuneLearningRate,
          unfreeze: fineTunedBackbone(layerNames(model, backboneLayerCount), config.fineTune),
        },
      ];
      const result = await runTraining(
        trainer,
        resumed && resumeFrom === 'fine-tune' ? plan.slice(1) : plan,
        {
          dataset: (split, epoch) =>
            this.dataset(
              config,
              dataset,
              split,
              epoch,
              split === 'train',
              () => this.stopRequested || this.aborted,
            ),
          batchesPerEpoch: Math.ceil(dataset.train.length / config.batchSize),
          patience: config.patience,
          now,
          emit: (e) => {
            if (e.kind === 'phase') {
              phase = e.phase;
              sampler.mark();
            }
            emit(e);
          },
          shouldStop: () => this.stopRequested,
          abort: () => {
            this.aborted = true;
          },
          guardStep: async (step) => {
            stepPeak.reset();
            lastProfile = null;
            if (!config.preciseProfile) return guard(step);
            const { result, profile } = await guard(() => profileStep(step));
            lastProfile = profile;
            return result;
          },
          stepPeakBytes: () => stepPeak.value,
          stepProfile: () => lastProfile,
          ...(featureCache(config).on ? { featureCache: { seed: config.seed } } : {}),
          yieldToEventLoop: () => new Promise((resolve) => setTimeout(resolve, 0)),
        },
      );
      return result;
    } catch (err) {
      if (!(err instanceof ResourceExhaustedError)) throw err;
      emit({ kind: 'log', level: 'warn', message: err.message });
      return {
        outcome: 'oom',
        phases: [],
        valLoss: Number.NaN,
        valAccuracy: Number.NaN,
        oom: err.details,
        lastPhase: phase,
      };
    } finally {
      clearInterval(timer);
      offSampler();
      offAttribution();
      offBudget();
      recorder.dispose();
      stepPeak.dispose();
      trainer?.dispose();
      this.stopRequested = false;
      sampler.mark();
    }
  }

  /**
   * A fresh model, or, when continuing, the kept one: rebuilt at the new input size with its weights
   * copied when the resolution changed (EfficientNet's weights do not depend on the input size).
   */
  private async prepareModel(
    config: TrainConfig,
    numClasses: number,
    resumeFrom: TrainingPhase | undefined,
    emit: (e: EngineEvent) => void,
  ): Promise<KeptModel & { resumed: boolean }> {
    const name = catalogEntry(config.model).displayName;
    const kept = this.kept;
    const reusable = resumeFrom && kept && kept.preset === config.model && kept.numClasses === numClasses;
    if (reusable && kept.height === config.height && kept.width === config.width) {
      emit({
        kind: 'log',
        level: 'info',
        message: `Continuing ${name} from its last good weights (${resumeFrom} phase).`,
      });
      return { ...kept, resumed: true };
    }
    const built = buildLabClassifier(config, numClasses, config.seed);
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
      let report: WeightsReport | null;
      try {
        report = await this.weights.apply(built.model, config.weights);
      } catch (err) {
        built.model.dispose();
        throw err;
      }
      emit({
        kind: 'log',
        level: 'info',
        message:
          `${name} built at ${config.height}×${config.width} for ${numClasses} classes, ` +
          (report
            ? `weights from ${report.source}: ${report.matchedLayers} layers (${report.matchedParams.toLocaleString('en-US')} parameters) loaded, ${report.missing.length} kept their initialisation (${report.missing.slice(0, 6).join(', ')}${report.missing.length > 6 ? ', …' : ''}).`
            : 'random initialisation (memory use does not depend on weight values).'),
      });
    }
    this.disposeModel();
    this.kept = { ...built, preset: config.model, numClasses, height: config.height, width: config.width };
    return { ...this.kept, resumed: !!reusable };
  }

  /**
   * A lesson: allocate one tensor just above the backend's single-buffer limit (WebGPU maxBufferSize,
   * WebGL's largest texture), catch the real failure the browser reports, then check the backend
   * still computes correctly.
   */
  async provokeBufferLimit(): Promise<ProvokeResult> {
    const name = tf.getBackend();
    const device = gpuDevice();
    const elements =
      name === 'webgpu' && device
        ? Math.floor(device.limits.maxBufferSize / 4) + 1
        : name === 'webgl'
          ? tf.env().getNumber('WEBGL_MAX_TEXTURE_SIZE') ** 2 * 4 + 1
          : null;
    if (elements === null)
      throw new Error(`The ${name} backend has no single-tensor limit to provoke; use WebGPU or WebGL.`);
    const allocatedBefore = readMemory(0).allocatedBytes ?? null;
    const recorder = new LargestAllocation(name);
    let caught: ProvokeResult['caught'] = null;
    try {
      await makeStepGuard(recorder)(async () => {
        const big = tf.fill([elements], 1);
        try {
          await big.data();
        } finally {
          big.dispose();
        }
      });
    } catch (err) {
      if (!(err instanceof ResourceExhaustedError)) throw err;
      caught = err.details;
    } finally {
      recorder.dispose();
    }
    const check = tf.tidy(() => tf.add(tf.ones([4]), 1));
    const values = await check.data();
    check.dispose();
    return {
      caught,
      stillWorks: Array.from(values).every((v) => v === 2),
      allocatedBefore,
      allocatedAfter: readMemory(0).allocatedBytes ?? null,
    };
  }

  /** Augmented training samples exactly as the pipeline makes them, as RGBA for a canvas. */
  /** The planner's view of a model: built with zero weights (shapes are all it needs), described, freed. */
  describe(model: ModelId, height: number, width: number, numClasses: number): ModelSpec {
    const built = buildLabClassifier({ model, height, width, weights: 'random' }, numClasses, 1, 'zeros');
    try {
      return describeModel(built.model, built.backboneLayerCount);
    } finally {
      built.model.dispose();
    }
  }

  /**
   * A sweep: one measured step per grid point. Before each point everything is released and the backend
   * re-created (clear_session), so tfjs' pool, which keeps a buffer for every size it has seen, cannot
   * make later points look bigger. Larger batches after a budget OOM are skipped. Stop ends it between points.
   */
  async sweep(
    config: TrainConfig,
    grid: SweepGrid,
    numClasses: number,
    emit: (e: EngineEvent) => void,
  ): Promise<SweepPoint[]> {
    this.stopRequested = false;
    const points: SweepPoint[] = [];
    for (const target of gridPoints(grid)) {
      if (this.stopRequested) break;
      const preset = grid.presets.find((p) => p.id === target.presetId);
      if (!preset) continue;
      const cause = skipCause(points, target);
      const point: SweepPoint = cause
        ? { ...target, status: 'skipped', predictedBytes: cause.predictedBytes }
        : await this.measureFresh(config, target, preset, numClasses);
      points.push(point);
      emit({ kind: 'sweep-point', point });
    }
    this.stopRequested = false;
    return points;
  }

  /** The largest batch in [lo, hi] that fits, by binary search, each probe measured like a sweep point. */
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
    const points: SweepPoint[] = [];
    let search = largestBatchSearch.start(lo, hi);
    // Fits or not is decided against the simulated card, which counts live tensors: the pool does not
    // change it, so probes share one backend (and its compiled programs) until a real failure.
    let fresh = true;
    while (!search.done && !this.stopRequested) {
      const target = { batch: search.next, size, presetId: preset.id };
      const point: SweepPoint = fresh
        ? await this.measureFresh(config, target, preset, numClasses)
        : await measurePoint(this.requireBackend().name, config, target, preset, numClasses);
      fresh = point.status === 'oom' && point.oomKind !== 'budget';
      points.push(point);
      emit({ kind: 'sweep-point', point });
      search = largestBatchSearch.advance(search, point.status === 'measured');
    }
    this.stopRequested = false;
    return { largest: search.done ? search.largest : null, points };
  }

  private requireBackend(): BackendInfo {
    if (!this.backend) throw new Error('The engine has no backend yet; call init first.');
    return this.backend;
  }

  private async measureFresh(
    config: TrainConfig,
    target: SweepTarget,
    preset: SweepPreset,
    numClasses: number,
  ): Promise<SweepPoint> {
    const { backend } = await this.releaseAll();
    return measurePoint(backend.name, config, target, preset, numClasses);
  }

  /** Reads dropped weight files or a URL and keeps them for the runs of this session. */
  loadWeights(input: { files: File[] } | { url: string }): Promise<WeightsLoaded> {
    return this.weights.load(input);
  }

  /** What the chosen weights would match in the configured model, without training. */
  async weightsReport(config: TrainConfig, numClasses: number): Promise<WeightsReport | null> {
    const built = buildLabClassifier(config, numClasses, 1, 'zeros');
    try {
      return await this.weights.report(built.model, config.weights);
    } finally {
      built.model.dispose();
    }
  }

  async preview(config: TrainConfig, dataset: DatasetPayload, count: number): Promise<PreviewImage[]> {
    const items = dataset.train.slice(0, count);
    const ds = this.dataset(
      { ...config, batchSize: 1, prefetch: 0 },
      { ...dataset, train: items },
      'train',
      0,
      false,
    );
    const out: PreviewImage[] = [];
    const iterator = await ds.iterator();
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const item = items[out.length]!;
      const rgba = toRgba(next.value.xs.shape, await next.value.xs.data());
      tf.dispose([next.value.xs, next.value.ys]);
      out.push({
        path: item.path,
        className: dataset.classes[item.label] ?? '?',
        rgba,
        width: config.width,
        height: config.height,
      });
    }
    return out;
  }

  private dataset(
    config: TrainConfig,
    data: DatasetPayload,
    split: 'train' | 'validation',
    epoch: number,
    shuffle = split === 'train',
    isStopped = () => false,
  ) {
    const items = split === 'train' ? data.train : data.validation;
    const byPath = new Map<string, SourceItem>(items.map((i) => [i.path, i]));
    const pipelineItems: PipelineItem[] = items.map(({ path, label }) => ({ path, label }));
    return makeDataset(pipelineItems, {
      height: config.height,
      width: config.width,
      batchSize: config.batchSize,
      numClasses: data.classes.length,
      augment: split === 'train' ? config.augment : undefined,
      seed: config.seed * 1000 + epoch,
      shuffle,
      prefetch: config.prefetch,
      augmentOn: config.augmentOn,
      isStopped,
      decode: (item) => decodeImage(byPath.get(item.path)!.source, item.path),
    });
  }

  private disposeModel(): void {
    this.kept?.model.dispose();
    this.kept = null;
  }
}

/** [1,H,W,3] float 0–255 (possibly outside after brightness/contrast) → clamped RGBA bytes. */
function toRgba(shape: number[], rgb: ArrayLike<number>): Uint8ClampedArray {
  const [, h = 0, w = 0] = shape;
  const rgba = new Uint8ClampedArray(h * w * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgba[j] = rgb[i]!;
    rgba[j + 1] = rgb[i + 1]!;
    rgba[j + 2] = rgb[i + 2]!;
    rgba[j + 3] = 255;
  }
  return rgba;
}
