import * as tf from '@tensorflow/tfjs';
import { trainableLayers } from '../src/core/model/modelSpec';
import { planTfjs, type PlanInput } from '../src/core/planner/planner';
import { keptBoundaryBytes } from '../src/core/planner/checkpoint';
import { describeModel } from '../src/ml/memory/describe';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../src/ml/models/efficientnet';
import { noiseBatch } from '../src/ml/train/fixtures';
import { Trainer } from '../src/ml/train/trainer';
import type { StepMetrics, TrainerOptions } from '../src/ml/train/types';
import { timeRounds } from './turns';
import type { BenchRow, BenchSide } from './types';

/**
 * Issue 17's rows: float16 storage (checkpointed, boundaries kept as binary16 pairs) against the float32
 * checkpointed step and the plain step, on whatever backend is active (no Node or browser imports).
 * Same model as the techniques rows (EfficientNet-B0's depth at a quarter of its width, 64×64, full
 * fine-tune), so the two tables read together.
 *
 * "kept activations" are the bytes held between the forward and the backward pass (the checkpoint
 * boundaries, StepTechnique.checkpoint.boundaryBytes): what float16 storage packs. "peak saved" is
 * breakdown.savedActivations, the boundaries plus the fullest segment recompute's tape, which tfjs keeps
 * in float32 whatever the storage; it is shown, with no target, so the gain is not overstated.
 * The three sides are timed in turns (timeInTurns), so their step-time ratios are measured side by side.
 */

const CLASSES = 3;
const UNFREEZE_ALL = 10_000;

/** The bench configuration; smaller values make a quick check (the defaults are the bench's). */
export interface Float16BenchOptions {
  /** Timed rounds: each side steps once a round, in turns (median taken). */ steps?: number;
  /** Image size. */ size?: number;
  /** Batch size. */ batch?: number;
  /** EfficientNet-B0 width coefficient. */ width?: number;
  /** Told each side's median step once it is measured (a SwiftShader run takes minutes). */
  log?: (line: string) => void;
}

interface Side {
  name: string;
  options: Partial<TrainerOptions>;
  /** How the planner is told the side keeps its activations. */
  plan: Pick<PlanInput, 'checkpointing' | 'boundaryStorage'>;
}

const SIDES = {
  plain: { name: 'plain', options: {}, plan: {} },
  checkpointed: {
    name: 'checkpointed, float32 boundaries',
    options: { checkpointing: 'blocks' },
    plan: { checkpointing: 'blocks' },
  },
  float16: {
    name: 'checkpointed, float16 boundaries',
    options: { checkpointing: 'blocks', activationStorage: 'float16' },
    plan: { checkpointing: 'blocks', boundaryStorage: 'float16' },
  },
} satisfies Record<string, Side>;

/** A side's measurements: the bench side (activationBytes = kept), and the peak saved bytes. */
interface Measured {
  side: BenchSide;
  keptBytes: number;
  savedBytes: number;
  /** The planner's kept boundaries for the side (0 for the plain step, which keeps no boundaries). */
  predictedKeptBytes: number;
}

/** A side ready to time: its trainer, model and batch after the warm-up, and what its profiled step measured. */
interface Prepared {
  measured: Measured;
  step: () => Promise<void>;
  dispose: () => void;
}

/** One side: a warm-up step and one profiled step; its step time is filled in by timeInTurns. */
async function prepare(
  build: () => { model: tf.LayersModel; backboneLayerCount: number },
  side: Side,
  opts: Required<Float16BenchOptions>,
): Promise<Prepared> {
  // The sides prepared before this one stay alive (they are timed together): their bytes are not this step's.
  const othersBytes = tf.memory().numBytes;
  const { model, backboneLayerCount } = build();
  const trainer = new Trainer(model, backboneLayerCount, { seed: 1, ...side.options });
  trainer.compile('fine-tune', 1e-4, UNFREEZE_ALL);
  const batch = noiseBatch(opts.batch, opts.size, CLASSES, 7);
  const dispose = () => {
    tf.dispose([batch.xs, batch.ys]);
    trainer.dispose();
    model.dispose();
  };
  try {
    // Warm-up: creates Adam's slots and, on GPU backends, compiles the programs.
    await trainer.step(batch);
    let metrics: StepMetrics | null = null;
    const profile = await tf.profile(async () => {
      metrics = await trainer.step(batch);
    });
    const m = metrics as StepMetrics | null;
    const savedBytes = m?.breakdown.savedActivations ?? 0;
    const spec = describeModel(model, backboneLayerCount);
    const input: PlanInput = {
      spec,
      batch: opts.batch,
      trainable: trainableLayers(spec, 'fine-tune', UNFREEZE_ALL),
      optimizer: 'adam',
      backboneOutsideTape: false,
      ...side.plan,
    };
    // The plain step keeps its whole tape between the passes: that is what it keeps.
    const keptBytes = m?.technique.checkpoint?.boundaryBytes ?? savedBytes;
    const measured: Measured = {
      side: {
        name: side.name,
        peakBytes: profile.peakBytes - othersBytes,
        kernels: profile.kernels.length,
        activationBytes: keptBytes,
        stepMs: Number.NaN,
        predictedPeakBytes: planTfjs(input).peakBytes,
      },
      keptBytes,
      savedBytes,
      predictedKeptBytes: side.plan.checkpointing
        ? keptBoundaryBytes(spec, input.trainable, opts.batch, side.plan.boundaryStorage)
        : 0,
    };
    return { measured, step: async () => void (await trainer.step(batch)), dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

/** Each side's median step over `rounds` rounds taken in turns (bench/turns), after one warm-up round. */
async function timeInTurns(sides: Prepared[], rounds: number, log: (line: string) => void): Promise<void> {
  const steps = Object.fromEntries(sides.map((p, k) => [String(k), p.step]));
  const times = await timeRounds(steps, rounds);
  for (const [k, side] of sides.entries()) {
    const sorted = times.map((t) => t[String(k)]!.wallMs).sort((a, b) => a - b);
    side.measured.side.stepMs = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    log(`${side.measured.side.name}: step ${side.measured.side.stepMs.toFixed(0)} ms`);
  }
}

/** A row comparing b with a on one metric, with its value in each side's activationBytes. */
function row(
  config: string,
  [a, b]: [BenchSide, BenchSide],
  metric: string,
  ratio: number,
  limit?: number,
): BenchRow {
  return {
    section: 'float16 storage',
    config,
    backend: tf.getBackend(),
    a,
    b,
    metric,
    ratio,
    ...(limit === undefined ? {} : { target: `≤ ${limit}×`, pass: ratio <= limit }),
  };
}

const time = (m: Measured) => m.side.stepMs ?? Number.NaN;

/**
 * The rows: kept activations of float16 against float32 checkpointed (target ≤ 0.55×), the peak saved
 * bytes and the step peak (no target), and the step time against the float32 checkpointed step and the
 * plain step. Throws when the float16 side kept about as many bytes as float32, i.e. the trainer did
 * not pass the storage on.
 */
export async function float16Rows(options: Float16BenchOptions = {}): Promise<BenchRow[]> {
  const opts: Required<Float16BenchOptions> = {
    steps: 3,
    size: 64,
    batch: 16,
    width: 0.25,
    log: () => {},
    ...options,
  };
  const build = () =>
    buildClassifier({
      ...EFFICIENTNET_PRESETS.b0,
      widthCoefficient: opts.width,
      height: opts.size,
      width: opts.size,
      numClasses: CLASSES,
      seed: 1,
    });
  const prepared: Prepared[] = [];
  try {
    for (const side of [SIDES.plain, SIDES.checkpointed, SIDES.float16])
      prepared.push(await prepare(build, side, opts));
    await timeInTurns(prepared, opts.steps, opts.log);
  } finally {
    for (const p of prepared) p.dispose();
  }
  const [plain, f32, f16] = prepared.map((p) => p.measured) as [Measured, Measured, Measured];
  const kept = f16.keptBytes / f32.keptBytes;
  if (!(kept < 0.75)) {
    throw new Error(
      `float16 storage kept ${kept.toFixed(2)}× the float32 bytes: is activationStorage wired?`,
    );
  }
  const config = `B0-depth ${opts.width}-width ${opts.size}×${opts.size} batch ${opts.batch}, full fine-tune`;
  const withSaved = (m: Measured): BenchSide => ({ ...m.side, activationBytes: m.savedBytes });
  const planned = (m: Measured): BenchSide => ({
    ...m.side,
    name: `planner, ${m.side.name}`,
    activationBytes: m.predictedKeptBytes,
    peakBytes: m.side.predictedPeakBytes ?? Number.NaN,
  });
  return [
    row(config, [f32.side, f16.side], 'kept activations', kept, 0.55),
    row(
      config,
      [f16.side, planned(f16)],
      'kept activations, planner / measured',
      f16.predictedKeptBytes / f16.keptBytes,
    ),
    row(
      config,
      [f16.side, planned(f16)],
      'peak, planner / measured',
      f16.side.predictedPeakBytes! / f16.side.peakBytes,
    ),
    row(
      config,
      [f32.side, planned(f32)],
      'peak, planner / measured',
      f32.side.predictedPeakBytes! / f32.side.peakBytes,
    ),
    row(config, [withSaved(f32), withSaved(f16)], 'peak saved activations', f16.savedBytes / f32.savedBytes),
    row(config, [f32.side, f16.side], 'peak', f16.side.peakBytes / f32.side.peakBytes),
    row(config, [f32.side, f16.side], 'step time', time(f16) / time(f32)),
    row(config, [plain.side, f16.side], 'step time', time(f16) / time(plain)),
  ];
}
