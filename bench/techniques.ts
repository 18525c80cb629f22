import * as tf from '@tensorflow/tfjs';
import { trainableLayers, type ModelSpec } from '../src/core/model/modelSpec';
import { planTfjs } from '../src/core/planner/planner';
import type { TrainingPhase } from '../src/core/settings/trainConfig';
import { describeModel } from '../src/ml/memory/describe';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../src/ml/models/efficientnet';
import { noiseBatch } from '../src/ml/train/fixtures';
import { Trainer } from '../src/ml/train/trainer';
import {
  DEFAULT_TRAINER_OPTIONS,
  type StepBatch,
  type StepMetrics,
  type TrainerOptions,
} from '../src/ml/train/types';
import type { BenchRow, BenchSide } from './types';

/**
 * Issue 5's rows: each memory-saving technique against the plain tfjs step on the same configuration,
 * measured side by side in one run on whatever backend is active (no Node or browser imports).
 *
 * The model is EfficientNet-B0's full depth (16 MBConv blocks with their residual adds and stochastic
 * depth, so 18 checkpoint segments) at a quarter of its width, at 64×64: the smallest input that keeps
 * every stride-2 stage above 1×1. Full width makes one fine-tuning step on the tfjs cpu backend take
 * minutes; at a quarter it takes about 25 s on two cores, and the rows compare ratios, which depend
 * on the topology more than on the width.
 */

const CLASSES = 3;
const WIDTH = 0.25;

/** Input side and batch of every row; 64 px batch 16 unless the caller asks for less. */
export interface TechniqueConfig {
  size: number;
  batch: number;
}

const DEFAULT_CONFIG: TechniqueConfig = { size: 64, batch: 16 };
/** Unfreezes every backbone layer in the fine-tune phase. */
const UNFREEZE_ALL = 10_000;

interface Side {
  name: string;
  phase: TrainingPhase;
  options: Partial<TrainerOptions>;
  /** Train on the backbone's features computed once before the steps (the frozen phase's feature cache). */
  cached?: boolean;
}

/** The planner's peak for a side, with the trainer's defaults for the options the side leaves unset. */
function predict(spec: ModelSpec, side: Side, batch: number): number {
  const options = { ...DEFAULT_TRAINER_OPTIONS, ...side.options };
  return planTfjs({
    spec,
    batch,
    trainable: trainableLayers(spec, side.phase, UNFREEZE_ALL),
    optimizer: 'adam',
    backboneOutsideTape: side.phase === 'frozen' && options.frozenBackboneOutsideTape,
    accumulationSteps: options.accumulationSteps,
    checkpointing: options.checkpointing,
    cachedFeatures: side.cached === true,
  }).peakBytes;
}

/**
 * Peak (tf.profile) and saved activations of one profiled step, the median time of the timed steps,
 * and the planner's peak for the side.
 */
async function measure(
  model: tf.LayersModel,
  backboneLayerCount: number,
  side: Side,
  steps: number,
  config: TechniqueConfig,
): Promise<BenchSide> {
  const trainer = new Trainer(model, backboneLayerCount, { seed: 1, ...side.options });
  trainer.compile(side.phase, 1e-4, UNFREEZE_ALL);
  const images = noiseBatch(config.batch, config.size, CLASSES, 7);
  const batch: StepBatch = side.cached
    ? { features: trainer.backboneFeatures(images.xs), ys: images.ys }
    : images;
  // A batch from the cache holds features and labels, no images.
  if (side.cached) images.xs.dispose();
  try {
    // Warm-up: creates Adam's slots and, on GPU backends, compiles the programs.
    await trainer.step(batch);
    let metrics: StepMetrics | null = null;
    const profile = await tf.profile(async () => {
      metrics = await trainer.step(batch);
    });
    const times: number[] = [];
    for (let i = 0; i < steps; i++) {
      const start = performance.now();
      await trainer.step(batch);
      times.push(performance.now() - start);
    }
    return {
      name: side.name,
      peakBytes: profile.peakBytes,
      kernels: profile.kernels.length,
      activationBytes: (metrics as StepMetrics | null)?.breakdown.savedActivations ?? 0,
      stepMs: median(times),
      predictedPeakBytes: predict(describeModel(model, backboneLayerCount), side, config.batch),
    };
  } finally {
    tf.dispose([images.xs, images.ys, batch.features].filter((t) => t !== undefined));
    trainer.dispose();
  }
}

/**
 * Median step times of two sides timed in alternation, a step of one then a step of the other, after a
 * warm-up step each: a machine whose load changes during the run (other processes on a shared box)
 * slows both sides alike, where timing one side after the other would put the change in the ratio.
 */
async function pairedTimes(
  model: tf.LayersModel,
  backboneLayerCount: number,
  sides: [Side, Side],
  steps: number,
  config: TechniqueConfig,
): Promise<{ a: number; b: number; forward: number }> {
  const batch = noiseBatch(config.batch, config.size, CLASSES, 7);
  const trainers = sides.map((side) => {
    const trainer = new Trainer(model, backboneLayerCount, { seed: 1, ...side.options });
    trainer.compile(side.phase, 1e-4, UNFREEZE_ALL);
    return trainer;
  });
  try {
    for (const trainer of trainers) await trainer.step(batch);
    const times: [number[], number[], number[]] = [[], [], []];
    for (let i = 0; i < steps; i++) {
      for (const [k, trainer] of trainers.entries()) {
        const start = performance.now();
        await trainer.step(batch);
        times[k]!.push(performance.now() - start);
      }
      // The forward pass alone, in training mode: what checkpointing runs a second time.
      const start = performance.now();
      const out = tf.tidy(() => model.apply(batch.xs, { training: true }) as tf.Tensor);
      await out.data();
      out.dispose();
      times[2].push(performance.now() - start);
    }
    return { a: median(times[0]), b: median(times[1]), forward: median(times[2]) };
  } finally {
    tf.dispose([batch.xs, batch.ys]);
    for (const trainer of trainers) trainer.dispose();
  }
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The sides the rows compare; accumulation splits the batch into 4 micro-batches. */
const sides = (batch: number) =>
  ({
    frozenTaped: { name: 'backbone on tape', phase: 'frozen', options: { frozenBackboneOutsideTape: false } },
    frozenOutside: {
      name: 'backbone outside tape',
      phase: 'frozen',
      options: { frozenBackboneOutsideTape: true },
    },
    frozenCached: {
      name: 'head on cached features',
      phase: 'frozen',
      options: { frozenBackboneOutsideTape: true },
      cached: true,
    },
    plain: { name: `plain, batch ${batch}`, phase: 'fine-tune', options: {} },
    accumulated: {
      name: `accumulate 4 × ${batch / 4}`,
      phase: 'fine-tune',
      options: { accumulationSteps: 4 },
    },
    checkpointed: { name: 'checkpointed (blocks)', phase: 'fine-tune', options: { checkpointing: 'blocks' } },
  }) satisfies Record<string, Side>;

type SideKey = keyof ReturnType<typeof sides>;

interface RowSpec {
  config: string;
  a: SideKey;
  b: SideKey;
  metric: 'peak' | 'activations' | 'step time';
  /** Upper bound of b / a for the metric, where the issue sets one. */ limit?: number;
  /** Upper bound of b / a for the step time, where the technique trades time for memory. */ timeLimit?: number;
  /** Time the two sides in alternation (pairedTimes) for the step-time ratio, not one after the other. */
  paired?: boolean;
}

const rowSpecs = ({ size, batch }: TechniqueConfig): RowSpec[] => {
  const model = `B0-depth ¼-width ${size}×${size}`;
  return [
    {
      config: `${model} batch ${batch}, frozen phase`,
      a: 'frozenTaped',
      b: 'frozenOutside',
      metric: 'peak',
      limit: 0.5,
    },
    {
      config: `${model} batch ${batch}, frozen phase, epochs after the first (feature cache)`,
      a: 'frozenOutside',
      b: 'frozenCached',
      metric: 'step time',
    },
    {
      config: `${model}, full fine-tune, ${batch} images per update`,
      a: 'plain',
      b: 'accumulated',
      metric: 'activations',
      limit: 0.35,
    },
    {
      config: `${model} batch ${batch}, full fine-tune`,
      a: 'plain',
      b: 'checkpointed',
      metric: 'activations',
      limit: 0.6,
      timeLimit: 1.5,
      paired: true,
    },
  ];
};

const value = (side: BenchSide, metric: RowSpec['metric']): number =>
  metric === 'peak'
    ? side.peakBytes
    : ((metric === 'activations' ? side.activationBytes : side.stepMs) ?? Number.NaN);

/**
 * The step-time rows of a paired technique: b against a, timed in alternation, with the target; and
 * where its extra time can come from, the forward pass alone against a's step (checkpointing runs the
 * forward twice, so its step costs about 1 + that share of the plain step, plus its own bookkeeping).
 */
function pairedTimeRows(spec: RowSpec, a: BenchSide, b: BenchSide, forwardMs: number): BenchRow[] {
  const ratio = (b.stepMs ?? Number.NaN) / (a.stepMs ?? Number.NaN);
  const base = { section: 'Memory-saving techniques', config: `${spec.config}, timed in alternation` };
  const forward: BenchSide = { name: 'forward pass alone (training mode)', peakBytes: 0, stepMs: forwardMs };
  return [
    {
      ...base,
      backend: tf.getBackend(),
      a,
      b,
      metric: 'step time',
      ratio,
      ...(spec.timeLimit === undefined
        ? {}
        : { target: `≤ ${spec.timeLimit}×`, pass: ratio <= spec.timeLimit }),
    },
    {
      ...base,
      backend: tf.getBackend(),
      a,
      b: forward,
      metric: 'step time',
      ratio: forwardMs / (a.stepMs ?? Number.NaN),
    },
  ];
}

/**
 * Measures every row; a side two rows share (the plain fine-tune) is measured once. `quick` times one
 * step per side instead of three, and one alternation instead of five for a paired row (peak and
 * activations come from one profiled step either way).
 * "activations" are the bytes the tape held for backward at its fullest (the worst micro-batch, or
 * the boundaries plus the worst segment recompute). predictedPeakBytes is planTfjs' peak for the side.
 */
export async function techniqueRows(opts: {
  quick?: boolean;
  config?: TechniqueConfig;
  /** Told each side's median step as it is measured (the browser bench shows it as progress). */
  log?: (line: string) => void;
}): Promise<BenchRow[]> {
  const config = opts.config ?? DEFAULT_CONFIG;
  const steps = opts.quick ? 1 : 3;
  const pairedSteps = opts.quick ? 1 : 5;
  const SIDES = sides(config.batch);
  const ROWS = rowSpecs(config);
  const { model, backboneLayerCount } = buildClassifier({
    ...EFFICIENTNET_PRESETS.b0,
    widthCoefficient: WIDTH,
    height: config.size,
    width: config.size,
    numClasses: CLASSES,
    seed: 1,
  });
  const measured = new Map<SideKey, BenchSide>();
  // A side timed only in alternation with another is not timed on its own too.
  const timedAlone = (key: SideKey) => ROWS.some((r) => !r.paired && (r.a === key || r.b === key));
  const side = async (key: SideKey): Promise<BenchSide> => {
    const known = measured.get(key);
    if (known) return known;
    const result = await measure(model, backboneLayerCount, SIDES[key], timedAlone(key) ? steps : 0, config);
    measured.set(key, result);
    opts.log?.(
      `techniques: ${result.name} measured${timedAlone(key) ? `, ${result.stepMs?.toFixed(0)} ms a step` : ''}`,
    );
    return result;
  };
  const rows: BenchRow[] = [];
  try {
    for (const spec of ROWS) {
      let a = await side(spec.a);
      let b = await side(spec.b);
      if (spec.paired) {
        const t = await pairedTimes(
          model,
          backboneLayerCount,
          [SIDES[spec.a], SIDES[spec.b]],
          pairedSteps,
          config,
        );
        opts.log?.(
          `techniques: ${a.name} ${t.a.toFixed(0)} ms, ${b.name} ${t.b.toFixed(0)} ms, in alternation`,
        );
        a = { ...a, stepMs: t.a };
        b = { ...b, stepMs: t.b };
        rows.push(...pairedTimeRows(spec, a, b, t.forward));
      }
      const ratio = value(b, spec.metric) / value(a, spec.metric);
      const timeRatio = (b.stepMs ?? Number.NaN) / (a.stepMs ?? Number.NaN);
      rows.push({
        section: 'Memory-saving techniques',
        config: spec.config,
        backend: tf.getBackend(),
        a,
        b,
        metric: spec.metric,
        ratio,
        ...(spec.limit === undefined
          ? {}
          : {
              target: `≤ ${spec.limit}×${spec.timeLimit ? ` at step time ≤ ${spec.timeLimit}×` : ''}`,
              pass: ratio <= spec.limit && (spec.timeLimit === undefined || timeRatio <= spec.timeLimit),
            }),
      });
    }
  } finally {
    model.dispose();
  }
  return rows;
}
