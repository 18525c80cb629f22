import * as tf from '@tensorflow/tfjs';
import type { BackendInfo, BackendRequest } from '../core/backend';
import type {
  DatasetPayload,
  EngineEvent,
  PreviewImage,
  SourceItem,
  TrainConfig,
  TrainResult,
} from '../core/protocol';
import { makeDataset, type PipelineItem } from '../ml/data/pipeline';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../ml/models/efficientnet';
import { onKernel } from '../ml/memory/kernelHook';
import { MemorySampler } from '../ml/memory/sampler';
import { runTraining, Trainer, type PhasePlan } from '../ml/train/trainer';
import { initBackend } from './backend';
import { decodeImage } from './decode';

/** Timer sampling between kernels (idle moments, waits on the GPU); kernels sample the busy moments. */
const SAMPLE_TIMER_MS = 100;

/**
 * The lab's training engine: the same object runs inside the worker and, as a fallback, on the page.
 * It owns the model of the last run (kept after Stop so it stays usable) and disposes it on the next.
 */
export class LabEngine {
  private model: tf.LayersModel | null = null;
  private stopRequested = false;
  private backend: BackendInfo | null = null;

  constructor(private readonly inWorker: boolean) {}

  async init(request: BackendRequest): Promise<BackendInfo> {
    this.disposeModel();
    this.backend = await initBackend(request, this.inWorker);
    return this.backend;
  }

  stop(): void {
    this.stopRequested = true;
  }

  async train(
    config: TrainConfig,
    dataset: DatasetPayload,
    emit: (e: EngineEvent) => void,
  ): Promise<TrainResult> {
    if (!this.backend) throw new Error('The engine has no backend yet; call init first.');
    this.stopRequested = false;
    this.disposeModel();
    const t0 = performance.now();
    const now = () => performance.now() - t0;
    const sampler = new MemorySampler(now, (samples) => emit({ kind: 'memory', samples }));
    sampler.mark();
    const offKernel = onKernel(this.backend.name, () => sampler.sample());
    const timer = setInterval(() => sampler.sample(), SAMPLE_TIMER_MS);
    let trainer: Trainer | null = null;
    try {
      const preset = EFFICIENTNET_PRESETS[config.model];
      const numClasses = dataset.classes.length;
      const built = buildClassifier({
        ...preset,
        height: config.height,
        width: config.width,
        numClasses,
        seed: config.seed,
      });
      this.model = built.model;
      emit({
        kind: 'log',
        level: 'info',
        message: `${preset.name} built at ${config.height}×${config.width} for ${numClasses} classes with random initialisation (no pretrained weights yet).`,
      });
      sampler.mark();
      trainer = new Trainer(built.model, built.backboneLayerCount);
      const plan: PhasePlan[] = [
        {
          phase: 'frozen',
          epochs: config.frozenEpochs,
          learningRate: config.frozenLearningRate,
          unfreezeLastN: 0,
        },
        {
          phase: 'fine-tune',
          epochs: config.fineTuneEpochs,
          learningRate: config.fineTuneLearningRate,
          unfreezeLastN: config.unfreezeLastN,
        },
      ];
      return await runTraining(trainer, plan, {
        dataset: (split, epoch) =>
          this.dataset(config, dataset, split, epoch, split === 'train', () => this.stopRequested),
        batchesPerEpoch: Math.ceil(dataset.train.length / config.batchSize),
        patience: config.patience,
        now,
        emit: (e) => {
          if (e.kind === 'phase') sampler.mark();
          emit(e);
        },
        shouldStop: () => this.stopRequested,
        yieldToEventLoop: () => new Promise((resolve) => setTimeout(resolve, 0)),
      });
    } finally {
      clearInterval(timer);
      offKernel();
      trainer?.dispose();
      this.stopRequested = false;
      sampler.mark();
    }
  }

  /** Augmented training samples exactly as the pipeline makes them, as RGBA for a canvas. */
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
      isStopped,
      decode: (item) => decodeImage(byPath.get(item.path)!.source, item.path),
    });
  }

  private disposeModel(): void {
    this.model?.dispose();
    this.model = null;
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
