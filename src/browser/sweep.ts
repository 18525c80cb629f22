import * as tf from '@tensorflow/tfjs';
import type { EngineEvent, LargestBatchResult } from '../core/run/protocol';
import {
  gridPoints,
  planRunPoint,
  predictSweepKeras,
  predictSweepPeak,
  skipCause,
  type SweepGrid,
  type SweepPoint,
  type SweepPreset,
  type SweepTarget,
} from '../core/sweep/sweep';
import { largestBatchSearch } from '../core/sweep/batchSearch';
import { gridPresets } from '../core/sweep/precision';
import { fineTunedBackbone } from '../core/settings/trainable';
import type { TrainConfig } from '../core/settings/trainConfig';
import { installBudget, ResourceExhaustedError } from '../ml/memory/budget';
import { attributeOutputs, trackLayers } from '../ml/memory/layerContext';
import { LargestAllocation } from '../ml/memory/recorder';
import { StepPeak } from '../ml/memory/stepPeak';
import type { GraphBackbone } from '../ml/models/graphBackbone';
import { trainerOptionsFor } from '../ml/train/options';
import { Trainer } from '../ml/train/trainer';
import { makeStepGuard } from './gpuGuard';
import { pointModel, type PointModel } from './sweepModel';

/** Random pixels with cycling labels: a point's memory depends on the batch's shape, not its values. */
function syntheticBatch(
  target: SweepTarget,
  images: Pick<PointModel, 'height' | 'width'>,
  numClasses: number,
): { xs: tf.Tensor4D; ys: tf.Tensor1D } {
  return tf.tidy(() => ({
    xs: tf.randomUniform([target.batch, images.height, images.width, 3], 0, 255) as tf.Tensor4D,
    ys: tf.tensor1d(
      Array.from({ length: target.batch }, (_, i) => i % numClasses),
      'int32',
    ),
  }));
}

/**
 * One sweep point: the network the run would train (pointModel: the configured architecture at
 * size×size, or the loaded graph model outside the tape with the head), one synthetic batch (memory
 * does not depend on pixel values), a warm-up step that creates Adam's slots, then the measured step:
 * its peak read at every kernel (as tf.profile counts it), under the simulated card and the WebGPU
 * error scopes. Every tensor it made is freed before it returns.
 *
 * A sweep measures the plain step (`mode` 'sweep'), checkpointed with float16 boundaries for a float16
 * preset; the batch search measures the step as the run would train it ('as-run'): the configuration's
 * techniques, with its prefetched batches alive beside it.
 */
export async function measurePoint(
  backendName: string,
  config: TrainConfig,
  target: SweepTarget,
  preset: SweepPreset,
  numClasses: number,
  mode: 'sweep' | 'as-run' = 'sweep',
  graph: GraphBackbone | null = null,
): Promise<SweepPoint> {
  const built = pointModel(config, target, preset, numClasses, graph);
  const { model, backboneLayerCount, spec } = built;
  const asRun = mode === 'as-run';
  const predicted = {
    predictedBytes: asRun
      ? planRunPoint(spec, config, preset, target.batch).peakBytes
      : predictSweepPeak(spec, target.batch, preset, 0),
    ...predictSweepKeras(spec, target.batch, preset),
  };
  trackLayers(model);
  const probes = pointProbes(backendName, config);
  // A float16 preset (the sweep's precision axis) trains checkpointed with packed boundaries.
  const storage = preset.storage === 'float16' ? { activationStorage: 'float16' as const } : {};
  const options = asRun
    ? {
        ...trainerOptionsFor(config),
        accumulationSteps: Math.min(config.techniques.accumulationSteps, target.batch),
        ...storage,
      }
    : { seed: config.seed, ...storage };
  const trainer = new Trainer(model, backboneLayerCount, options);
  const batch = syntheticBatch(target, built, numClasses);
  // The batches a run's pipeline holds ready beside the step (prefetch), alive for the whole step.
  const queued = asRun
    ? Array.from({ length: config.prefetch }, () => syntheticBatch(target, built, numClasses))
    : [];
  const step = () => probes.guard(() => pointStep(trainer, batch, built.headInput));
  try {
    trainer.compile(preset.phase, config.fineTuneLearningRate, fineTunedBackbone(spec, preset.fineTune));
    await step();
    probes.peak.reset();
    await step();
    return { ...target, status: 'measured', peakBytes: probes.peak.value, ...predicted };
  } catch (err) {
    if (!(err instanceof ResourceExhaustedError)) throw err;
    return { ...target, status: 'oom', ...predicted, ...oomFields(err) };
  } finally {
    tf.dispose([batch.xs, batch.ys, ...queued.flatMap((q) => [q.xs, q.ys])]);
    trainer.dispose();
    model.dispose();
    probes.dispose();
  }
}

/**
 * One training step on the batch; a graph model's features are made from its images first, outside the
 * tape as the run's pipeline makes them, and inside the measured region, since the graph's forward pass
 * needs device memory too (a batch whose features do not fit does not train).
 */
async function pointStep(
  trainer: Trainer,
  batch: { xs: tf.Tensor4D; ys: tf.Tensor1D },
  headInput: PointModel['headInput'],
) {
  if (!headInput) return trainer.step(batch);
  const features = headInput(batch.xs) as tf.Tensor4D;
  try {
    return await trainer.step({ xs: features, ys: batch.ys });
  } finally {
    features.dispose();
  }
}

/** A point's memory probes: the simulated card, layer attribution, the step peak and the error scopes. */
function pointProbes(backendName: string, config: TrainConfig) {
  const offAttribution = attributeOutputs(backendName);
  const offBudget = installBudget(backendName, () => config.budgetBytes);
  const recorder = new LargestAllocation(backendName);
  const peak = new StepPeak(backendName);
  return {
    guard: makeStepGuard(recorder),
    peak,
    dispose: () => {
      peak.dispose();
      recorder.dispose();
      offBudget();
      offAttribution();
    },
  };
}

/** What an OOM point records of the failure. */
function oomFields(err: ResourceExhaustedError): Pick<SweepPoint, 'oomKind' | 'oomLayer' | 'message'> {
  return {
    oomKind: err.details.kind,
    ...(err.details.layer ? { oomLayer: err.details.layer } : {}),
    message: err.message,
  };
}

/** What the sweep loops need from the engine. */
export interface PointRunner {
  /** Measures one point; `fresh` first releases everything and re-creates the backend (clear_session). */
  measure: (target: SweepTarget, preset: SweepPreset, fresh: boolean) => Promise<SweepPoint>;
  /** True once the user pressed Stop; checked between points. */ shouldStop: () => boolean;
  /** Receives each point as it ends. */ emit: (e: EngineEvent) => void;
}

/**
 * A sweep: one measured step per grid point, each on a fresh backend, so tfjs' pool, which keeps a
 * buffer for every size it has seen, cannot make later points look bigger. Larger batches after a
 * budget OOM are skipped. Stop ends it between points.
 */
export async function sweepGrid(grid: SweepGrid, runner: PointRunner): Promise<SweepPoint[]> {
  const points: SweepPoint[] = [];
  const presets = gridPresets(grid);
  for (const target of gridPoints(grid)) {
    if (runner.shouldStop()) break;
    const preset = presets.find((p) => p.id === target.presetId);
    if (!preset) continue;
    const cause = skipCause(points, target);
    const point: SweepPoint = cause
      ? { ...target, status: 'skipped', predictedBytes: cause.predictedBytes }
      : await runner.measure(target, preset, true);
    points.push(point);
    runner.emit({ kind: 'sweep-point', point });
  }
  return points;
}

/**
 * The largest batch in [lo, hi] that fits, each probe measured like a sweep point, starting from the
 * planner's prediction (`predicted`) so that a right prediction is confirmed in two measured steps.
 */
export async function searchLargestBatch(
  preset: SweepPreset,
  size: number,
  range: { lo: number; hi: number; predicted: number | null },
  runner: PointRunner,
): Promise<LargestBatchResult> {
  const points: SweepPoint[] = [];
  let search = largestBatchSearch.start(range.lo, range.hi, range.predicted ?? range.lo);
  // Fits or not is decided against the simulated card, which counts live tensors: the pool does not
  // change it, so probes share one backend (and its compiled programs) until a real failure.
  let fresh = true;
  while (!search.done && !runner.shouldStop()) {
    const point = await runner.measure({ batch: search.next, size, presetId: preset.id }, preset, fresh);
    fresh = point.status === 'oom' && point.oomKind !== 'budget';
    points.push(point);
    runner.emit({ kind: 'sweep-point', point });
    search = largestBatchSearch.advance(search, point.status === 'measured');
  }
  return { largest: search.done ? search.largest : null, predicted: range.predicted, points };
}
