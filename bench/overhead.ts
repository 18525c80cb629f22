import * as tf from '@tensorflow/tfjs';
import { trainableLayers } from '../src/core/model/modelSpec';
import { planTfjs } from '../src/core/planner/planner';
import { DEFAULT_TRAIN_CONFIG } from '../src/core/settings/settings';
import { startRunProbes } from '../src/browser/runProbes';
import { describeModel } from '../src/ml/memory/describe';
import { onKernel } from '../src/ml/memory/kernelHook';
import { trackLayers } from '../src/ml/memory/layerContext';
import { buildClassifier } from '../src/ml/models/registry';
import { noiseBatch } from '../src/ml/train/fixtures';
import { sparseCategoricalCrossentropy } from '../src/ml/train/losses';
import { Trainer } from '../src/ml/train/trainer';
import type { BenchRow, BenchSide } from './types';
import { timeRounds, type StepTime } from './turns';

/**
 * Issue 16 item 2: what the lab's instruments cost. Three sides on one model, one set of weights and
 * one batch, in the default fine-tune phase (the last DEFAULT_TRAIN_CONFIG.fineTune.n backbone layers
 * and the head train, so every side computes the same forward and backward):
 * - plain tfjs: `optimizer.minimize` of the same cross-entropy over the same trainable variables;
 * - the lab's Trainer.step with nothing listening;
 * - the same step with the run's default probes, as a training run installs them (kernel hook with the
 *   memory sampler and its timer, per-layer attribution with every layer's call() wrapped, the largest
 *   allocation, the step peak, the budget check with no budget, the step guard's error scopes).
 * The sides take turns step by step in an order that rotates each round, so a change in the machine's
 * load falls on all three alike, after one warm-up round (Adam's slots, shader compiles). Each side's
 * step is the median of its timed steps; the ratio is the median of the rounds' paired ratios, printed
 * with their spread, and in Node also in CPU time, which a loaded machine moves far less than wall
 * time. Runs on whatever backend is active.
 */

const CLASSES = 3;
const BATCH = 8;

export interface OverheadOptions {
  /** Input side in pixels (the model is the default MobileNetV2, random weights). */
  size: number;
  /** Timed steps per side. */
  steps: number;
}

type SideKey = 'plain' | 'trainer' | 'instrumented';

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2 : NaN;
};

/**
 * A side against plain, round by round: each round's ratio compares two steps taken seconds apart, so
 * a load that comes and goes over minutes cancels, and the median drops the rounds a burst hit.
 */
interface PairedRatio {
  /** Median of the rounds' wall-time ratios. */
  wall: number;
  /** Lowest and highest round ratio: the noise the median is read against. */
  low: number;
  high: number;
  /** Median of the rounds' CPU-time ratios, where the process's CPU time is known (Node). */
  cpu: number | null;
}

function pairedRatio(rounds: Record<SideKey, StepTime>[], key: SideKey): PairedRatio {
  const wall = rounds.map((r) => r[key].wallMs / r.plain.wallMs);
  const cpu = rounds.flatMap((r) =>
    r[key].cpuMs === null || r.plain.cpuMs === null ? [] : [r[key].cpuMs! / r.plain.cpuMs!],
  );
  return {
    wall: median(wall),
    low: Math.min(...wall),
    high: Math.max(...wall),
    cpu: cpu.length === rounds.length ? median(cpu) : null,
  };
}

interface RowContext {
  setup: string;
  backend: string;
  flops: number;
  target?: number;
}

/**
 * One row: each side's median step, and as the ratio the median of the rounds' paired ratios (not the
 * ratio of the medians, which a burst of load on one side's steps can move), with the rounds' spread
 * and, in Node, the CPU-time ratio beside it.
 */
function overheadRow(
  rounds: Record<SideKey, StepTime>[],
  key: SideKey,
  name: string,
  ctx: RowContext,
): BenchRow {
  const side = (k: SideKey, sideName: string): BenchSide => ({
    name: sideName,
    peakBytes: Number.NaN,
    stepMs: median(rounds.map((r) => r[k].wallMs)),
    flops: ctx.flops,
  });
  const paired = pairedRatio(rounds, key);
  const cpu = paired.cpu === null ? '' : `, CPU time ${paired.cpu.toFixed(3)}×`;
  return {
    section: 'Instrument overhead',
    config:
      `${ctx.setup}, ${rounds.length} rounds in rotating order; ratio = median of the rounds' paired ` +
      `ratios (${paired.low.toFixed(3)}–${paired.high.toFixed(3)})${cpu}`,
    backend: ctx.backend,
    a: side('plain', 'plain tfjs minimize'),
    b: side(key, name),
    metric: 'step time',
    ratio: paired.wall,
    ...(ctx.target === undefined ? {} : { target: `≤ ${ctx.target}×`, pass: paired.wall <= ctx.target }),
  };
}

/** The two rows: the Trainer alone against plain tfjs, and the instrumented step against plain tfjs. */
export async function overheadRows(opts: OverheadOptions): Promise<BenchRow[]> {
  await tf.ready();
  const backend = tf.getBackend();
  const { model, backboneLayerCount } = buildClassifier({
    id: DEFAULT_TRAIN_CONFIG.model,
    height: opts.size,
    width: opts.size,
    includePreprocessing: true,
    numClasses: CLASSES,
    seed: 1,
  });
  const batch = noiseBatch(BATCH, opts.size, CLASSES, 7);
  const trainer = new Trainer(model, backboneLayerCount, { seed: 1 });
  const unfreeze = DEFAULT_TRAIN_CONFIG.fineTune.kind === 'last' ? DEFAULT_TRAIN_CONFIG.fineTune.n : 20;
  trainer.compile('fine-tune', DEFAULT_TRAIN_CONFIG.fineTuneLearningRate, unfreeze);
  const plainOptimizer = tf.train.adam(DEFAULT_TRAIN_CONFIG.fineTuneLearningRate);
  const variables = model.trainableWeights.map((w) => w.read() as tf.Variable);
  const spec = describeModel(model, backboneLayerCount);
  // The planner's forward + backward FLOPs of this step (core/planner/recipes stepFlops), for FLOP/s.
  const { flops } = planTfjs({
    spec,
    batch: BATCH,
    trainable: trainableLayers(spec, 'fine-tune', unfreeze),
    optimizer: 'adam',
    backboneOutsideTape: false,
    accumulationSteps: 1,
    checkpointing: 'off',
    cachedFeatures: false,
  });
  trackLayers(model);
  const config = { budgetBytes: null, preciseProfile: false };
  const t0 = performance.now();
  const sides: Record<SideKey, () => Promise<void>> = {
    plain: async () => {
      const loss = plainOptimizer.minimize(
        () =>
          sparseCategoricalCrossentropy(batch.ys, model.apply(batch.xs, { training: true }) as tf.Tensor2D),
        true,
        variables,
      );
      await loss?.data();
      loss?.dispose();
    },
    trainer: async () => {
      await trainer.step(batch);
    },
    instrumented: async () => {
      const probes = startRunProbes(
        backend,
        config,
        () => performance.now() - t0,
        () => undefined,
      );
      try {
        await probes.guardStep(() => trainer.step(batch));
        probes.stepPeakBytes?.();
      } finally {
        probes.dispose();
      }
    },
  };
  try {
    const rounds = await timeRounds(sides, opts.steps);
    const setup = `default MobileNetV2 ${opts.size}×${opts.size} batch ${BATCH}, fine-tune (last ${unfreeze})`;
    const row = (key: SideKey, name: string, target?: number) =>
      overheadRow(rounds, key, name, { setup, backend, flops, target });
    return [
      row('trainer', 'lab Trainer.step, no probes'),
      row('instrumented', 'lab step + default probes', 1.05),
    ];
  } finally {
    tf.dispose(batch);
    plainOptimizer.dispose();
    trainer.dispose();
    model.dispose();
  }
}

/** What the probes cost per kernel, and how many kernels one step runs: their product is the overhead a step pays. */
export interface HookCost {
  backend: string;
  /** µs of a tiny kernel (an add of four numbers) without and with the default probes (median of chunks in turn). */
  plainUs: number;
  probedUs: number;
  /** Kernels one default fine-tune step runs (MobileNetV2 at `size`). */
  kernelsPerStep: number;
  size: number;
}

/** Mean µs per run of a tiny kernel, `n` times. */
function tinyKernelUs(x: tf.Tensor, n: number): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) tf.add(x, 1).dispose();
  return ((performance.now() - t0) / n) * 1000;
}

/** Chunks of the tiny kernel timed without and with the probes in turn; each figure is the chunks' median. */
const CHUNKS = 10;

function alternateTinyKernels(
  x: tf.Tensor,
  n: number,
  startProbes: () => { dispose(): void },
): { plainUs: number; probedUs: number } {
  const chunk = Math.max(1, Math.round(n / CHUNKS));
  tinyKernelUs(x, chunk);
  const plain: number[] = [];
  const probed: number[] = [];
  for (let i = 0; i < CHUNKS; i++) {
    plain.push(tinyKernelUs(x, chunk));
    const probes = startProbes();
    probed.push(tinyKernelUs(x, chunk));
    probes.dispose();
  }
  return { plainUs: median(plain), probedUs: median(probed) };
}

/**
 * The probes' cost measured where a busy machine's noise cannot hide it: µs per kernel on a kernel that
 * does almost nothing (on a GPU backend its dispatch, not its math), times the kernels of one step.
 */
export async function hookCost(size: number, n = 20_000): Promise<HookCost> {
  await tf.ready();
  const backend = tf.getBackend();
  const x = tf.ones([4]);
  const { model, backboneLayerCount } = buildClassifier({
    id: DEFAULT_TRAIN_CONFIG.model,
    height: size,
    width: size,
    includePreprocessing: true,
    numClasses: CLASSES,
    seed: 1,
  });
  const batch = noiseBatch(BATCH, size, CLASSES, 7);
  const trainer = new Trainer(model, backboneLayerCount, { seed: 1 });
  try {
    trainer.compile('fine-tune', DEFAULT_TRAIN_CONFIG.fineTuneLearningRate, 20);
    let kernelsPerStep = 0;
    const off = onKernel(backend, () => void kernelsPerStep++);
    await trainer.step(batch);
    off();
    const probes = () =>
      startRunProbes(
        backend,
        { budgetBytes: null, preciseProfile: false },
        () => 0,
        () => undefined,
      );
    const { plainUs, probedUs } = alternateTinyKernels(x, n, probes);
    await x.data();
    return { backend, plainUs, probedUs, kernelsPerStep, size };
  } finally {
    x.dispose();
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  }
}

export function hookCostLine(c: HookCost, plainStepMs?: number): string {
  const extraMs = ((c.probedUs - c.plainUs) * c.kernelsPerStep) / 1000;
  const share = plainStepMs ? ` = ${((100 * extraMs) / plainStepMs).toFixed(2)}% of the plain step` : '';
  return (
    `  probes per kernel [${c.backend}]: ${c.plainUs.toFixed(2)} → ${c.probedUs.toFixed(2)} µs on a tiny kernel; ` +
    `${c.kernelsPerStep} kernels a step (${c.size} px) → ${extraMs.toFixed(1)} ms a step${share}`
  );
}
