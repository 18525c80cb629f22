import * as tf from '@tensorflow/tfjs';
import { trainableLayers } from '../src/core/model/modelSpec';
import { planKeras } from '../src/core/planner/planner';
import { describeModel } from '../src/ml/memory/describe';
import { onKernel } from '../src/ml/memory/kernelHook';
import { stepPhase } from '../src/ml/memory/stepPhase';
import type { Classifier } from '../src/ml/models/head';
import { labFamilyModel, noiseBatch, smallEfficientNetV2 } from '../src/ml/train/fixtures';
import { Trainer } from '../src/ml/train/trainer';
import type { Backward } from '../src/ml/train/types';

/** One family and mode, stock tfjs and the lean backward pass measured side by side. */
export interface LeanRow {
  family: string;
  config: string;
  fineTune: boolean;
  keras: number;
  side: Record<Backward, { peak: number; at: string; stepMs: number }>;
}

/**
 * The families at sizes a cpu step affords; MobileNetV2 is the full network (over a minute a step on cpu
 * here), so it comes last, at the smallest batch.
 */
const FAMILIES: { family: string; size: number; batch: number; build: (size: number) => Classifier }[] = [
  { family: 'B0-style (Tiny)', size: 48, batch: 8, build: (s) => labFamilyModel('tiny', s) },
  { family: 'EfficientNetV2 ¼w ½d', size: 48, batch: 8, build: smallEfficientNetV2 },
  { family: 'MobileNetV2', size: 32, batch: 2, build: (s) => labFamilyModel('mobilenetv2', s) },
];

const MODES = [
  { label: 'all layers', phase: 'fine-tune', unfreeze: 10_000 },
  { label: 'frozen, backbone on tape', phase: 'frozen', unfreeze: 0 },
] as const;

const ROUNDS = 3;

/** Peak live bytes of one step and the step phase it was reached in. */
async function peakOf(step: () => Promise<unknown>): Promise<{ peak: number; at: string }> {
  let peak = tf.memory().numBytes;
  let at = 'before the step';
  const off = onKernel('cpu', (run) => {
    const bytes = run.liveBytes + run.outputBytes;
    if (bytes <= peak) return;
    peak = bytes;
    at = stepPhase() ?? 'outside a phase';
  });
  await step().finally(off);
  return { peak, at };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Stock and lean on one model: a warm-up step each, the peak of one step, then alternated timed rounds. */
async function measure(
  model: tf.LayersModel,
  backboneLayerCount: number,
  mode: (typeof MODES)[number],
  batch: number,
  size: number,
): Promise<LeanRow['side']> {
  const data = noiseBatch(batch, size, 3, 1);
  const make = (backward: Backward) => {
    const t = new Trainer(model, backboneLayerCount, { backward, frozenBackboneOutsideTape: false, seed: 3 });
    t.compile(mode.phase, 1e-3, mode.unfreeze);
    return t;
  };
  const trainers: Trainer[] = [];
  try {
    // Peaks one trainer at a time, so neither step counts the other trainer's Adam slots.
    const peaks: Awaited<ReturnType<typeof peakOf>>[] = [];
    for (const backward of ['stock', 'lean'] as const) {
      const t = make(backward);
      await t.step(data);
      peaks.push(await peakOf(() => t.step(data)));
      t.dispose();
    }
    trainers.push(make('stock'), make('lean'));
    for (const t of trainers) await t.step(data);
    const times: number[][] = [[], []];
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, t] of trainers.entries()) {
        const start = performance.now();
        await t.step(data);
        times[i]!.push(performance.now() - start);
      }
    const side = (i: number) => ({ ...peaks[i]!, stepMs: median(times[i]!) });
    return { stock: side(0), lean: side(1) };
  } finally {
    tf.dispose([data.xs, data.ys]);
    for (const t of trainers) t.dispose();
  }
}

/** Every family in both modes on the active backend, with the Keras fp32 plan of the same step. */
export async function leanRows(onRow?: (row: LeanRow) => void): Promise<LeanRow[]> {
  const rows: LeanRow[] = [];
  for (const f of FAMILIES) {
    const { model, backboneLayerCount } = f.build(f.size);
    const spec = describeModel(model, backboneLayerCount);
    try {
      for (const mode of MODES) {
        const keras = planKeras({
          spec,
          batch: f.batch,
          trainable: trainableLayers(spec, mode.phase, mode.unfreeze),
          optimizer: 'adam',
          backboneOutsideTape: false,
          accumulationSteps: 1,
          checkpointing: 'off',
        }).peakBytes;
        const side = await measure(model, backboneLayerCount, mode, f.batch, f.size);
        const config = `${f.family} ${f.size}×${f.size} batch ${f.batch}, ${mode.label}`;
        const row = { family: f.family, config, fineTune: mode.phase === 'fine-tune', keras, side };
        rows.push(row);
        onRow?.(row);
      }
    } finally {
      model.dispose();
    }
  }
  return rows;
}

const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;

/** One row on one line: both peaks with where they fell, the ratios and the step times. */
export function leanLine(r: LeanRow): string {
  const { stock, lean } = r.side;
  return (
    `${r.config}: stock ${mb(stock.peak)} (peak in ${stock.at}), lean ${mb(lean.peak)} (peak in ${lean.at}), ` +
    `Keras fp32 ${mb(r.keras)} (planned); lean/stock ${(lean.peak / stock.peak).toFixed(3)}x, ` +
    `lean/Keras ${(lean.peak / r.keras).toFixed(2)}x; step ${stock.stepMs.toFixed(0)} ms → ${lean.stepMs.toFixed(0)} ms`
  );
}

/** The summary line and the step-time ratio (median over rows of lean/stock). */
export function leanSummary(rows: LeanRow[]): string[] {
  const fine = rows.filter((r) => r.fineTune);
  const frozen = rows.filter((r) => !r.fineTune);
  const x = median(fine.map((r) => r.side.lean.peak / r.keras));
  const y = median(fine.map((r) => r.side.lean.peak / r.side.stock.peak));
  const z = median(frozen.map((r) => r.side.lean.peak / r.keras));
  const t = median(rows.map((r) => r.side.lean.stepMs / r.side.stock.stepMs));
  return [
    `lean: fine-tune peak vs Keras fp32 ${x.toFixed(2)}x (median over families), vs stock tfjs ${y.toFixed(2)}x; frozen-on-tape vs Keras ${z.toFixed(2)}x`,
    `lean: step time lean/stock ${t.toFixed(3)}x (median over rows, medians of ${ROUNDS} alternated rounds)`,
  ];
}
